package paint

import (
	"errors"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/sight"
)

// Painter implements [overlay.Painter] with OpenCV. Pictures are
// *gocv.Mat (the sight.Image of the OpenCV side). It holds no state: one
// value serves every goroutine.
type Painter struct{}

var _ overlay.Painter = Painter{}

// mat unwraps a picture of the OpenCV side.
func mat(img sight.Image) (*gocv.Mat, bool) {
	m, ok := img.(*gocv.Mat)
	return m, ok && m != nil
}

// NewImage implements overlay.Painter.
func (Painter) NewImage() sight.Image {
	m := gocv.NewMat()
	return &m
}

// Copy implements overlay.Painter.
func (Painter) Copy(dst, src sight.Image) {
	d, ok1 := mat(dst)
	s, ok2 := mat(src)
	if ok1 && ok2 {
		s.CopyTo(d)
	}
}

// Encode implements overlay.Painter.
func (Painter) Encode(img sight.Image, maxWidth, quality int, draw func(w, h int) overlay.Drawing) ([]byte, int, int, error) {
	src, ok := mat(img)
	if !ok || src.Empty() {
		return nil, 0, 0, errors.New("paint: no picture")
	}
	out := *src
	scaled := maxWidth > 0 && src.Cols() > maxWidth
	if scaled || draw != nil {
		work := gocv.NewMat()
		defer work.Close()
		if scaled {
			h := int(math.Round(float64(src.Rows()) * float64(maxWidth) / float64(src.Cols())))
			interp := gocv.InterpolationLinear
			if draw != nil {
				interp = gocv.InterpolationArea // the preview: sharper lines drawn after
			}
			gocv.Resize(*src, &work, image.Pt(maxWidth, h), 0, 0, interp)
		} else {
			src.CopyTo(&work)
		}
		if draw != nil {
			Paint(&work, draw(work.Cols(), work.Rows()))
		}
		out = work
		b, err := encode(out, quality)
		return b, out.Cols(), out.Rows(), err
	}
	b, err := encode(out, quality)
	return b, out.Cols(), out.Rows(), err
}

// Repaint implements overlay.Painter.
func (Painter) Repaint(jpeg []byte, quality int, draw func(w, h int) overlay.Drawing) ([]byte, error) {
	m, err := cvio.DecodeJPEG(jpeg, false)
	if err != nil {
		m.Close()
		return nil, err
	}
	defer m.Close()
	if m.Empty() {
		return nil, errors.New("paint: the JPEG does not decode")
	}
	if draw != nil {
		Paint(&m, draw(m.Cols(), m.Rows()))
	}
	return encode(m, quality)
}

// Fill implements overlay.Painter.
func (Painter) Fill(dst sight.Image, w, h int, bg color.RGBA, d overlay.Drawing) {
	m, ok := mat(dst)
	if !ok {
		return
	}
	if m.Empty() || m.Cols() != w || m.Rows() != h || m.Type() != gocv.MatTypeCV8UC3 {
		m.Close()
		*m = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	}
	m.SetTo(gocv.NewScalar(float64(bg.B), float64(bg.G), float64(bg.R), 0))
	Paint(m, d)
}

// encode compresses an 8-bit BGR picture as JPEG (libjpeg-turbo, the
// bytes OpenCV's imgcodecs gave: internal/cvio, without linking imgcodecs).
func encode(m gocv.Mat, quality int) ([]byte, error) {
	return cvio.EncodeJPEG(m, quality)
}
