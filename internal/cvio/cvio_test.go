package cvio

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

func randomBGR(w, h int, seed int64) gocv.Mat {
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	b, _ := m.DataPtrUint8()
	rng := rand.New(rand.NewSource(seed))
	for i := range b {
		b[i] = byte(rng.Intn(64) + (i/3%w)*150/w)
	}
	return m
}

func sameMat(t *testing.T, name string, got, want gocv.Mat) {
	t.Helper()
	if got.Rows() != want.Rows() || got.Cols() != want.Cols() || got.Type() != want.Type() {
		t.Errorf("%s: %d×%d %v, OpenCV %d×%d %v", name, got.Cols(), got.Rows(), got.Type(), want.Cols(), want.Rows(), want.Type())
		return
	}
	gb, _ := got.DataPtrUint8()
	wb, _ := want.DataPtrUint8()
	if !bytes.Equal(gb, wb) {
		n := 0
		for i := range gb {
			if gb[i] != wb[i] {
				n++
			}
		}
		t.Errorf("%s: %d of %d bytes differ from OpenCV's", name, n, len(gb))
	}
}

// exifJPEG inserts an EXIF orientation o after the SOI of j.
func exifJPEG(j []byte, o uint16) []byte {
	var t bytes.Buffer
	t.WriteString("MM")
	for _, v := range []any{uint16(42), uint32(8), uint16(1), uint16(0x0112), uint16(3), uint32(1), o, uint16(0), uint32(0)} {
		binary.Write(&t, binary.BigEndian, v)
	}
	seg := append([]byte("Exif\x00\x00"), t.Bytes()...)
	out := append([]byte{}, j[:2]...)
	out = append(out, 0xFF, 0xE1, byte((len(seg)+2)>>8), byte(len(seg)+2))
	return append(append(out, seg...), j[2:]...)
}

// ReadImage gives gocv.IMRead's pixels for JPEGs (every EXIF
// orientation), PNGs (RGB, RGBA, grey, 16-bit, palette) and, when
// present, the real photographs; colour and grey.
func TestReadImageMatchesOpenCV(t *testing.T) {
	dir := t.TempDir()
	src := randomBGR(37, 23, 1)
	defer src.Close()
	j, err := EncodeJPEG(src, 90)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for o := uint16(1); o <= 8; o++ {
		files["exif"+string(rune('0'+o))+".jpg"] = exifJPEG(j, o)
	}
	img, _ := ToImage(src)
	nrgba := img.(*image.NRGBA)
	for i := 3; i < len(nrgba.Pix); i += 4 {
		nrgba.Pix[i] = byte(i * 7)
	}
	gray := image.NewGray(nrgba.Bounds())
	g16 := image.NewRGBA64(nrgba.Bounds())
	pal := image.NewPaletted(nrgba.Bounds(), color.Palette{color.RGBA{10, 200, 30, 255}, color.RGBA{250, 5, 90, 255}, color.Gray{77}})
	for y := 0; y < 23; y++ {
		for x := 0; x < 37; x++ {
			c := nrgba.NRGBAAt(x, y)
			gray.SetGray(x, y, color.Gray{c.G})
			g16.SetRGBA64(x, y, color.RGBA64{uint16(c.R)*257 + 3, uint16(c.G) * 200, uint16(c.B) * 250, 0xFFFF})
			pal.SetColorIndex(x, y, uint8((x+y)%3))
		}
	}
	for name, im := range map[string]image.Image{"rgba.png": nrgba, "gray.png": gray, "rgb16.png": g16, "palette.png": pal} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, im); err != nil {
			t.Fatal(err)
		}
		files[name] = buf.Bytes()
	}
	var paths []string
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	photos, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "realboards", "*.*g"))
	paths = append(paths, photos...)
	for _, p := range paths {
		for _, gray := range []bool{false, true} {
			flag := gocv.IMReadColor
			if gray {
				flag = gocv.IMReadGrayScale
			}
			want := gocv.IMRead(p, flag)
			got, err := ReadImage(p, gray)
			if err != nil {
				t.Errorf("%s: %v", p, err)
			} else if !(gray && filepath.Ext(p) == ".png" && hasGamma(p)) {
				sameMat(t, filepath.Base(p)+map[bool]string{false: " colour", true: " grey"}[gray], got, want)
			}
			got.Close()
			want.Close()
		}
	}
	t.Logf("%d files (%d real photographs)", len(paths), len(photos))
}

func TestReadImageErrors(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.bmp")
	os.WriteFile(p, []byte("BM not really"), 0o644)
	if m, err := ReadImage(p, false); err == nil {
		m.Close()
		t.Error("a BMP was read")
	} else {
		m.Close()
	}
	if m, err := ReadImage(filepath.Join(dir, "missing.jpg"), false); err == nil {
		t.Error("a missing file was read")
	} else {
		m.Close()
	}
	os.WriteFile(p, []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 2}, 0o644)
	if m, err := ReadImage(p, false); err == nil {
		t.Error("a broken JPEG was read")
		m.Close()
	} else {
		m.Close()
	}
}

// EncodeJPEG is gocv.IMEncode's bytes (package jpeg tests more), also for
// a Mat that is a region of another; WriteImage writes JPEG and PNG that
// read back as IMRead reads them.
func TestEncodeAndWrite(t *testing.T) {
	src := randomBGR(64, 48, 2)
	defer src.Close()
	roi := src.Region(image.Rect(3, 5, 40, 30))
	defer roi.Close()
	for name, m := range map[string]gocv.Mat{"whole": src, "region": roi} {
		want, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegQuality, 88})
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeJPEG(m, 88)
		if err != nil || !bytes.Equal(got, want.GetBytes()) {
			t.Errorf("%s: EncodeJPEG differs from IMEncode (%v)", name, err)
		}
		want.Close()
		dec, err := DecodeJPEG(got, false)
		if err != nil {
			t.Fatal(err)
		}
		wdec, _ := gocv.IMDecode(got, gocv.IMReadColor)
		sameMat(t, name+" decoded", dec, wdec)
		dec.Close()
		wdec.Close()
	}
	dir := t.TempDir()
	for _, name := range []string{"a.jpg", "a.png"} {
		p := filepath.Join(dir, name)
		if err := WriteImage(p, src); err != nil {
			t.Fatal(err)
		}
		want := gocv.NewMat()
		if name == "a.png" {
			want = src.Clone()
		} else {
			gocv.IMWrite(filepath.Join(dir, "cv.jpg"), src)
			a, _ := os.ReadFile(p)
			b, _ := os.ReadFile(filepath.Join(dir, "cv.jpg"))
			if !bytes.Equal(a, b) {
				t.Error("WriteImage(.jpg) differs from IMWrite")
			}
			want.Close()
			want = gocv.IMRead(p, gocv.IMReadColor)
		}
		got := gocv.IMRead(p, gocv.IMReadColor)
		sameMat(t, name, got, want)
		got.Close()
		want.Close()
	}
	if err := WriteImage(filepath.Join(dir, "a.gif"), src); err == nil {
		t.Error("a .gif was written")
	}
}

// Video gives gocv.VideoCapture's frames (frames/libav tests every clip).
func TestVideoMatchesOpenCV(t *testing.T) {
	clip := filepath.Join("..", "..", "testdata", "videos", "demo.mp4")
	v, err := OpenVideo(clip)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	vc, err := gocv.VideoCaptureFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	got, want := gocv.NewMat(), gocv.NewMat()
	defer got.Close()
	defer want.Close()
	for i := 0; i < 5; i++ {
		if !v.Read(&got) || !vc.Read(&want) {
			t.Fatalf("frame %d: not read (%v)", i, v.Err())
		}
		sameMat(t, "frame", got, want)
	}
	if v.Frames() != 5 || v.Info().Width != want.Cols() {
		t.Errorf("Frames %d, Info %+v", v.Frames(), v.Info())
	}
	// Skip: the frames skipped are counted, the next one read is OpenCV's
	for i := 0; i < 3; i++ {
		if !v.Skip() || !vc.Read(&want) {
			t.Fatalf("frame %d: not skipped (%v)", 5+i, v.Err())
		}
	}
	if !v.Read(&got) || !vc.Read(&want) {
		t.Fatalf("frame 8: not read after skipping (%v)", v.Err())
	}
	sameMat(t, "frame after skipping", got, want)
	if v.Frames() != 9 {
		t.Errorf("Frames %d after 5 read, 3 skipped, 1 read", v.Frames())
	}
	if _, err := OpenVideo(filepath.Join(t.TempDir(), "none.mp4")); err == nil {
		t.Error("a missing video opened")
	}
}

// hasGamma: the PNG has a gAMA chunk (libpng then turns colour grey in
// linear light; ReadImage does not: see fromImage).
func hasGamma(p string) bool {
	b, _ := os.ReadFile(p)
	i := bytes.Index(b, []byte("IDAT"))
	return i > 0 && bytes.Contains(b[:i], []byte("gAMA"))
}
