package jpeg

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// testImages are BGR Mats of several sizes and contents: noise, smooth
// gradients, odd sizes (partial MCUs) and, when present, the demo's
// first frame.
func testImages(t *testing.T) map[string]gocv.Mat {
	t.Helper()
	out := map[string]gocv.Mat{}
	rng := rand.New(rand.NewSource(1))
	for _, sz := range []image.Point{{17, 9}, {64, 48}, {333, 201}} {
		noise := gocv.NewMatWithSize(sz.Y, sz.X, gocv.MatTypeCV8UC3)
		grad := gocv.NewMatWithSize(sz.Y, sz.X, gocv.MatTypeCV8UC3)
		nb, _ := noise.DataPtrUint8()
		gb, _ := grad.DataPtrUint8()
		for i := range nb {
			nb[i] = byte(rng.Intn(256))
			gb[i] = byte((i/3%sz.X)*255/sz.X + (i%3)*40)
		}
		out["noise"+sizeName(sz)] = noise
		out["gradient"+sizeName(sz)] = grad
	}
	vc, err := gocv.VideoCaptureFile(filepath.Join("..", "..", "testdata", "videos", "demo.mp4"))
	if err == nil {
		m := gocv.NewMat()
		if vc.Read(&m) && !m.Empty() {
			out["demo"] = m
		} else {
			m.Close()
		}
		vc.Close()
	}
	return out
}

func sizeName(p image.Point) string { return "-" + itoa(p.X) + "x" + itoa(p.Y) }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// The encoder gives gocv.IMEncode's bytes, for colour and grey, at every
// quality boardcam uses (and the ends of the range).
func TestEncodeMatchesOpenCV(t *testing.T) {
	imgs := testImages(t)
	defer func() {
		for _, m := range imgs {
			m.Close()
		}
	}()
	gray := gocv.NewMat()
	defer gray.Close()
	for name, m := range imgs {
		gocv.CvtColor(m, &gray, gocv.ColorBGRToGray)
		for _, q := range []int{0, 1, 50, 75, 88, 90, 95, 100} {
			for _, c := range []struct {
				m      gocv.Mat
				layout Layout
			}{{m, BGR}, {gray, Gray}} {
				want, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, c.m, []int{gocv.IMWriteJpegQuality, q})
				if err != nil {
					t.Fatal(err)
				}
				pix, _ := c.m.DataPtrUint8()
				got, err := Encode(pix, c.m.Cols(), c.m.Rows(), c.m.Step(), c.layout, q)
				if err != nil {
					t.Fatalf("%s %s q%d: %v", name, c.layout, q, err)
				}
				if !bytes.Equal(got, want.GetBytes()) {
					t.Errorf("%s %s q%d: %d bytes, OpenCV %d, not the same", name, c.layout, q, len(got), want.Len())
				}
				want.Close()
			}
		}
	}
}

// The other layouts encode the same picture as BGR.
func TestEncodeLayouts(t *testing.T) {
	const w, h = 40, 30
	bgr := make([]byte, w*h*3)
	rng := rand.New(rand.NewSource(2))
	rng.Read(bgr)
	rgb, rgba, bgra := make([]byte, w*h*3), make([]byte, w*h*4), make([]byte, w*h*4)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ {
		b, g, r := bgr[3*i], bgr[3*i+1], bgr[3*i+2]
		copy(rgb[3*i:], []byte{r, g, b})
		copy(rgba[4*i:], []byte{r, g, b, byte(i)})
		copy(bgra[4*i:], []byte{b, g, r, 7})
		img.Set(i%w, i/w, color.RGBA{r, g, b, 255})
	}
	want, err := Encode(bgr, w, h, w*3, BGR, 80)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pix    []byte
		stride int
		l      Layout
	}{{rgb, w * 3, RGB}, {rgba, w * 4, RGBA}, {bgra, w * 4, BGRA}} {
		got, err := Encode(c.pix, w, h, c.stride, c.l, 80)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: not the BGR encoding (%v)", c.l, err)
		}
	}
	got, err := EncodeImage(img, 80)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("EncodeImage(*image.RGBA): not the BGR encoding (%v)", err)
	}
	// A sub-image is encoded from its own origin.
	sub := img.SubImage(image.Rect(5, 4, 25, 20))
	got, err = EncodeImage(sub, 80)
	if err != nil {
		t.Fatal(err)
	}
	if w, h, _, err := Config(got); err != nil || w != 20 || h != 16 {
		t.Errorf("sub-image encoded as %d×%d (%v), want 20×16", w, h, err)
	}
}

// The decoder gives gocv.IMDecode's pixels (colour and grey), on our own
// JPEGs and on the real photographs when they are present.
func TestDecodeMatchesOpenCV(t *testing.T) {
	var files [][]byte
	imgs := testImages(t)
	for _, m := range imgs {
		for _, q := range []int{50, 95} {
			b, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegQuality, q})
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, append([]byte(nil), b.GetBytes()...))
			b.Close()
		}
		m.Close()
	}
	photos, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "realboards", "*.jpg"))
	for _, p := range photos {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	for i, f := range files {
		for _, c := range []struct {
			flag   gocv.IMReadFlag
			layout Layout
		}{{gocv.IMReadColor | gocv.IMReadIgnoreOrientation, BGR}, {gocv.IMReadGrayScale | gocv.IMReadIgnoreOrientation, Gray}} {
			want, err := gocv.IMDecode(f, c.flag)
			if err != nil {
				t.Fatal(err)
			}
			got, w, h, err := Decode(f, c.layout)
			if err != nil {
				t.Fatalf("file %d: %v", i, err)
			}
			wb, _ := want.DataPtrUint8()
			if w != want.Cols() || h != want.Rows() || !bytes.Equal(got, wb) {
				t.Errorf("file %d %s: %d×%d, OpenCV %d×%d, pixels differ", i, c.layout, w, h, want.Cols(), want.Rows())
			}
			want.Close()
		}
	}
	t.Logf("%d files (%d real photographs)", len(files), len(photos))
}

func TestErrors(t *testing.T) {
	if _, _, _, err := Decode([]byte("not a jpeg"), BGR); err == nil || !strings.Contains(err.Error(), "jpeg") {
		t.Errorf("Decode(garbage) = %v", err)
	}
	if _, _, _, err := Decode(nil, BGR); err == nil {
		t.Error("Decode(nil) succeeded")
	}
	good, err := Encode(make([]byte, 16*16*3), 16, 16, 48, BGR, 90)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := Decode(good[:len(good)/2], BGR); err != nil {
		// libjpeg fills a truncated file with grey and warns: not an error
		// (as OpenCV), but it must not crash.
		t.Logf("truncated: %v", err)
	}
	if _, err := Encode(make([]byte, 10), 16, 16, 48, BGR, 90); err == nil {
		t.Error("Encode of a short buffer succeeded")
	}
	if _, err := Encode(make([]byte, 10), 0, 16, 48, BGR, 90); err == nil {
		t.Error("Encode of an empty image succeeded")
	}
}

// exifJPEG inserts an EXIF APP1 segment with the orientation o (byte
// order bo) after the SOI of j.
func exifJPEG(j []byte, o uint16, bo binary.ByteOrder) []byte {
	var t bytes.Buffer
	if bo == binary.LittleEndian {
		t.WriteString("II")
	} else {
		t.WriteString("MM")
	}
	w := func(v any) { binary.Write(&t, bo, v) }
	w(uint16(42))
	w(uint32(8))
	w(uint16(2)) // two entries: a decoy, then the orientation
	w(uint16(0x010F))
	w(uint16(2))
	w(uint32(4))
	w(uint32(0))
	w(uint16(0x0112))
	w(uint16(3))
	w(uint32(1))
	w(o)
	w(uint16(0))
	w(uint32(0)) // no next IFD
	seg := append([]byte("Exif\x00\x00"), t.Bytes()...)
	out := append([]byte{}, j[:2]...)
	out = append(out, 0xFF, 0xE1, byte((len(seg)+2)>>8), byte(len(seg)+2))
	out = append(out, seg...)
	return append(out, j[2:]...)
}

func TestOrientation(t *testing.T) {
	j, err := Encode(make([]byte, 8*8*3), 8, 8, 24, BGR, 90)
	if err != nil {
		t.Fatal(err)
	}
	if o := Orientation(j); o != 1 {
		t.Errorf("no EXIF: orientation %d, want 1", o)
	}
	for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		for o := uint16(1); o <= 8; o++ {
			if got := Orientation(exifJPEG(j, o, bo)); got != int(o) {
				t.Errorf("%v %d: got %d", bo, o, got)
			}
		}
		if got := Orientation(exifJPEG(j, 9, bo)); got != 1 {
			t.Errorf("orientation 9 read as %d, want 1", got)
		}
	}
	if got := Orientation(exifJPEG(j, 6, binary.BigEndian)[:30]); got != 1 {
		t.Errorf("truncated EXIF read as %d", got)
	}
}
