package analysis

import (
	"fmt"

	"github.com/boardcam/boardcam/sight"
	"gocv.io/x/gocv"
)

// Pictures are the daemon's frames as *gocv.Mat (sight.Pictures).
type Pictures struct{}

var _ sight.Pictures = Pictures{}

// NewImage returns an empty *gocv.Mat.
func (Pictures) NewImage() sight.Image { m := gocv.NewMat(); return &m }

// BGR makes img (a *gocv.Mat) an 8-bit BGR w×h picture, continuous, and
// returns its bytes.
func (Pictures) BGR(img sight.Image, w, h int) ([]byte, error) {
	dst, ok := img.(*gocv.Mat)
	if !ok {
		return nil, fmt.Errorf("analysis: a picture of type %T is not a *gocv.Mat", img)
	}
	if dst.Empty() || dst.Rows() != h || dst.Cols() != w || dst.Type() != gocv.MatTypeCV8UC3 || !dst.IsContinuous() {
		if dst.Ptr() != nil {
			dst.Close()
		}
		*dst = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	}
	return dst.DataPtrUint8()
}

// Copy copies src into dst (both *gocv.Mat).
func (Pictures) Copy(dst, src sight.Image) {
	d, ok1 := dst.(*gocv.Mat)
	s, ok2 := src.(*gocv.Mat)
	if !ok1 || !ok2 {
		panic(fmt.Sprintf("analysis: Pictures.Copy of %T into %T: not *gocv.Mat", src, dst))
	}
	s.CopyTo(d)
}
