// Package cvio reads and writes OpenCV Mats — JPEG and PNG images, video
// files — without OpenCV's imgcodecs and videoio modules, so that boardcam
// links neither (nor GDAL, GDCM, GStreamer and the rest of their trees:
// docs/memory.md). JPEG goes through package jpeg (libjpeg-turbo, the
// library imgcodecs itself calls, called the same way: the same bytes and
// pixels as gocv.IMEncode/IMDecode/IMRead), PNG through Go's image/png,
// video through frames/libav (FFmpeg's libraries, the same frames as
// gocv.VideoCapture).
package cvio

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/internal/jpeg"
)

// EncodeJPEG compresses an 8-bit BGR (8UC3), BGRA (8UC4) or grey (8UC1)
// Mat at quality 0–100: gocv.IMEncodeWithParams's bytes.
func EncodeJPEG(m gocv.Mat, quality int) ([]byte, error) {
	if m.Empty() {
		return nil, errors.New("cvio: encode: empty image")
	}
	var layout jpeg.Layout
	switch m.Type() {
	case gocv.MatTypeCV8UC3:
		layout = jpeg.BGR
	case gocv.MatTypeCV8UC4:
		layout = jpeg.BGRA
	case gocv.MatTypeCV8UC1:
		layout = jpeg.Gray
	default:
		return nil, fmt.Errorf("cvio: encode: a %v image (want 8-bit BGR or grey)", m.Type())
	}
	if !m.IsContinuous() {
		c := m.Clone()
		defer c.Close()
		m = c
	}
	pix, err := m.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("cvio: encode: %w", err)
	}
	return jpeg.Encode(pix, m.Cols(), m.Rows(), m.Step(), layout, quality)
}

// DecodeJPEG decompresses a JPEG into a new BGR (or, gray, 8UC1) Mat, as
// gocv.IMDecode does. The EXIF orientation is not applied (ReadImage
// applies it).
func DecodeJPEG(b []byte, gray bool) (gocv.Mat, error) {
	layout, t := jpeg.BGR, gocv.MatTypeCV8UC3
	if gray {
		layout, t = jpeg.Gray, gocv.MatTypeCV8UC1
	}
	pix, w, h, err := jpeg.Decode(b, layout)
	if err != nil {
		return gocv.NewMat(), err
	}
	return matFrom(pix, w, h, t)
}

// matFrom copies pix (rows of w pixels of t, no padding) into a new Mat.
func matFrom(pix []byte, w, h int, t gocv.MatType) (gocv.Mat, error) {
	m := gocv.NewMatWithSize(h, w, t)
	dst, err := m.DataPtrUint8()
	if err != nil {
		m.Close()
		return gocv.NewMat(), err
	}
	copy(dst, pix)
	return m, nil
}

// ReadImage reads a JPEG or PNG file into a new BGR (or, gray, 8UC1) Mat
// with gocv.IMRead's pixels: a JPEG is turned upright by its EXIF
// orientation as IMRead turns it; a PNG's alpha is dropped, 16-bit
// samples keep their high byte and colour is turned grey with libpng's
// weights, as OpenCV's PNG reader does.
func ReadImage(path string, gray bool) (gocv.Mat, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return gocv.NewMat(), err
	}
	switch {
	case len(b) > 3 && b[0] == 0xFF && b[1] == 0xD8:
		m, err := DecodeJPEG(b, gray)
		if err != nil {
			return m, fmt.Errorf("%s: %w", path, err)
		}
		orient(&m, jpeg.Orientation(b))
		return m, nil
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			return gocv.NewMat(), fmt.Errorf("%s: %w", path, err)
		}
		return fromImage(img, gray)
	}
	return gocv.NewMat(), fmt.Errorf("%s: not a JPEG or PNG image (boardcam reads those two; convert it, e.g. with convert from ImageMagick)", path)
}

// orient turns m upright for an EXIF orientation, as OpenCV's
// ApplyExifOrientation does.
func orient(m *gocv.Mat, o int) {
	if o <= 1 || o > 8 {
		return
	}
	if o >= 5 {
		gocv.Transpose(*m, m)
	}
	switch o {
	case 2, 6:
		gocv.Flip(*m, m, 1)
	case 3, 7:
		gocv.Flip(*m, m, -1)
	case 4, 8:
		gocv.Flip(*m, m, 0)
	}
}

// fromImage converts a decoded PNG to BGR or grey bytes as libpng does
// for OpenCV (strip alpha, strip 16 to 8 bits, rgb_to_gray with weights
// 0.299, 0.587 in 1/32768). One difference: libpng turns colour grey in
// linear light when the file has a gAMA chunk, this does not (a grey
// level or so on such files; JPEGs and colour are exact).
func fromImage(img image.Image, gray bool) (gocv.Mat, error) {
	r := img.Bounds()
	w, h := r.Dx(), r.Dy()
	if w <= 0 || h <= 0 {
		return gocv.NewMat(), errors.New("cvio: empty image")
	}
	// rgb8 gives a pixel's 8-bit samples without premultiplication.
	rgb8 := func(x, y int) (uint8, uint8, uint8, bool) {
		switch m := img.(type) {
		case *image.Gray:
			v := m.Pix[m.PixOffset(x, y)]
			return v, v, v, true
		case *image.Gray16:
			v := m.Pix[m.PixOffset(x, y)]
			return v, v, v, true
		case *image.RGBA:
			i := m.PixOffset(x, y)
			return m.Pix[i], m.Pix[i+1], m.Pix[i+2], false
		case *image.NRGBA:
			i := m.PixOffset(x, y)
			return m.Pix[i], m.Pix[i+1], m.Pix[i+2], false
		case *image.RGBA64:
			i := m.PixOffset(x, y)
			return m.Pix[i], m.Pix[i+2], m.Pix[i+4], false
		case *image.NRGBA64:
			i := m.PixOffset(x, y)
			return m.Pix[i], m.Pix[i+2], m.Pix[i+4], false
		}
		c := imageNRGBA(img.At(x, y))
		return c[0], c[1], c[2], c[0] == c[1] && c[1] == c[2]
	}
	if gray {
		// libpng's png_do_rgb_to_gray without gamma: 8-bit samples
		// truncated, 16-bit ones rounded, then their high byte.
		const rc, gc, bc = 9797, 19234, 3737
		var deep bool
		var s16 func(x, y int) (uint32, uint32, uint32)
		switch m := img.(type) {
		case *image.RGBA64:
			deep = true
			s16 = func(x, y int) (uint32, uint32, uint32) {
				i := m.PixOffset(x, y)
				p := m.Pix[i : i+6]
				return uint32(p[0])<<8 | uint32(p[1]), uint32(p[2])<<8 | uint32(p[3]), uint32(p[4])<<8 | uint32(p[5])
			}
		case *image.NRGBA64:
			deep = true
			s16 = func(x, y int) (uint32, uint32, uint32) {
				i := m.PixOffset(x, y)
				p := m.Pix[i : i+6]
				return uint32(p[0])<<8 | uint32(p[1]), uint32(p[2])<<8 | uint32(p[3]), uint32(p[4])<<8 | uint32(p[5])
			}
		}
		pix := make([]byte, w*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var v uint8
				if deep {
					R, G, B := s16(r.Min.X+x, r.Min.Y+y)
					g := R
					if R != G || R != B {
						g = (rc*R + gc*G + bc*B + 16384) >> 15
					}
					v = uint8(g >> 8)
				} else {
					R, G, B, _ := rgb8(r.Min.X+x, r.Min.Y+y)
					v = R
					if R != G || R != B {
						v = uint8((rc*uint32(R) + gc*uint32(G) + bc*uint32(B)) >> 15)
					}
				}
				pix[y*w+x] = v
			}
		}
		return matFrom(pix, w, h, gocv.MatTypeCV8UC1)
	}
	pix := make([]byte, w*h*3)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			R, G, B, _ := rgb8(r.Min.X+x, r.Min.Y+y)
			i := 3 * (y*w + x)
			pix[i], pix[i+1], pix[i+2] = B, G, R
		}
	}
	return matFrom(pix, w, h, gocv.MatTypeCV8UC3)
}

// WriteImage writes m to a .jpg/.jpeg (quality 95, as gocv.IMWrite) or a
// .png file (Go's encoder: the same pixels as OpenCV's PNG, other bytes).
func WriteImage(path string, m gocv.Mat) error {
	var b []byte
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jpg", ".jpeg":
		b, err = EncodeJPEG(m, jpeg.DefaultQuality)
	case ".png":
		b, err = EncodePNG(m)
	default:
		return fmt.Errorf("%s: want a .png or .jpg file name", path)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, b, 0o644)
}

// EncodePNG compresses an 8-bit BGR, BGRA or grey Mat as PNG.
func EncodePNG(m gocv.Mat) ([]byte, error) {
	img, err := ToImage(m)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ToImage copies an 8-bit BGR (as opaque RGBA), BGRA or grey Mat into a Go
// image.
func ToImage(m gocv.Mat) (image.Image, error) {
	if m.Empty() {
		return nil, errors.New("cvio: empty image")
	}
	if !m.IsContinuous() {
		c := m.Clone()
		defer c.Close()
		m = c
	}
	src, err := m.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	w, h := m.Cols(), m.Rows()
	switch m.Type() {
	case gocv.MatTypeCV8UC1:
		g := image.NewGray(image.Rect(0, 0, w, h))
		copy(g.Pix, src)
		return g, nil
	case gocv.MatTypeCV8UC3, gocv.MatTypeCV8UC4:
		n := m.Channels()
		out := image.NewNRGBA(image.Rect(0, 0, w, h))
		for i, j := 0, 0; i+n <= len(src) && j < len(out.Pix); i, j = i+n, j+4 {
			out.Pix[j], out.Pix[j+1], out.Pix[j+2], out.Pix[j+3] = src[i+2], src[i+1], src[i], 255
			if n == 4 {
				out.Pix[j+3] = src[i+3]
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("cvio: a %v image (want 8-bit BGR or grey)", m.Type())
}
