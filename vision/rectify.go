package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// rectifier turns a camera frame into the rectified board image with one
// remap: lens undistortion and the homography are folded into a single
// fixed-point table, built once per calibration.
type rectifier struct {
	map1, map2 gocv.Mat // CV_16SC2 integer positions, CV_16UC1 interpolation indices
	w, h       int      // the frame size the table is for
}

// OpenCV's fixed-point remap: positions in 1/32 pixel.
const (
	interBits    = 5
	interTabSize = 1 << interBits
)

func newRectifier(v *view) (*rectifier, error) {
	return newRectifierAt(v, v.n, 1)
}

// newRectifierAt builds the table for an n×n image in which pixel (i, j)
// shows the rectified board at ((i+0.5)·step − 0.5, (j+0.5)·step − 0.5):
// step 1 is the rectified image itself, step 2 samples it at half the
// resolution (2×2 samples per block of 4×4 pixels).
func newRectifierAt(v *view, n int, step float64) (*rectifier, error) {
	r := &rectifier{
		map1: gocv.NewMatWithSize(n, n, gocv.MatTypeCV16SC2),
		map2: gocv.NewMatWithSize(n, n, gocv.MatTypeCV16UC1),
		w:    v.cal.ImageSize.W,
		h:    v.cal.ImageSize.H,
	}
	m1, err := r.map1.DataPtrInt16()
	if err != nil {
		r.close()
		return nil, fmt.Errorf("remap table: %w", err)
	}
	m2, err := r.map2.DataPtrUint16()
	if err != nil {
		r.close()
		return nil, fmt.Errorf("remap table: %w", err)
	}
	// integer parts are int16; keep far-off positions well inside that
	const lim = 30000.0
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			x, y := float64(i), float64(j)
			if step != 1 {
				x, y = (x+0.5)*step-0.5, (y+0.5)*step-0.5
			}
			p := v.imageOf(v.mmOf(x, y))
			px, py := p.X, p.Y
			if math.IsNaN(px) || math.IsNaN(py) {
				px, py = -lim, -lim
			}
			px = math.Max(-lim, math.Min(lim, px))
			py = math.Max(-lim, math.Min(lim, py))
			ix := int(math.Round(px * interTabSize))
			iy := int(math.Round(py * interTabSize))
			k := j*n + i
			m1[2*k] = int16(ix >> interBits)
			m1[2*k+1] = int16(iy >> interBits)
			m2[k] = uint16((iy&(interTabSize-1))*interTabSize + (ix & (interTabSize - 1)))
		}
	}
	return r, nil
}

func (r *rectifier) check(frame gocv.Mat) error {
	if frame.Cols() != r.w || frame.Rows() != r.h {
		return fmt.Errorf("frame is %dx%d, the calibration is for %dx%d", frame.Cols(), frame.Rows(), r.w, r.h)
	}
	if frame.Type() != gocv.MatTypeCV8UC3 {
		return fmt.Errorf("frame type %v: want 8-bit BGR", frame.Type())
	}
	return nil
}

// apply writes the rectified image of frame into dst (allocated by the
// caller at the table's size): remapInto, or OpenCV's remap where that
// cannot run (the same bytes).
func (r *rectifier) apply(frame gocv.Mat, dst *gocv.Mat) error {
	if err := r.check(frame); err != nil {
		return err
	}
	if remapInto(frame, dst, &r.map1, &r.map2, image.Rect(0, 0, r.map1.Cols(), r.map1.Rows())) != nil {
		gocv.Remap(frame, dst, &r.map1, &r.map2, gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	}
	return nil
}

// applyRect rectifies only the pixels of rect into the same pixels of dst
// (remapInto; OpenCV's remap, with the same bytes, where remapInto
// cannot run).
func (r *rectifier) applyRect(frame gocv.Mat, dst *gocv.Mat, rect image.Rectangle) {
	if remapInto(frame, dst, &r.map1, &r.map2, rect) == nil {
		return
	}
	m1 := r.map1.Region(rect)
	m2 := r.map2.Region(rect)
	d := dst.Region(rect)
	gocv.Remap(frame, &d, &m1, &m2, gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	d.Close()
	m2.Close()
	m1.Close()
}

func (r *rectifier) close() {
	r.map1.Close()
	r.map2.Close()
}
