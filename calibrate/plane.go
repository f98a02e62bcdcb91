package calibrate

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"
)

// plane gives Go code direct, bounds-checked access to the bytes of an
// 8-bit Mat. It borrows the Mat's memory: the Mat must stay open while the
// plane is used.
type plane struct {
	w, h, ch int
	step     int
	data     []uint8
	// ox, oy: the frame's pixel (x, y) is at data[(y-oy)*step+(x-ox)*ch]
	// (0, 0 but for a checker's parts, see partUndistorter): w and h are
	// still the whole frame's.
	ox, oy int
}

func planeOf(m *gocv.Mat) (plane, error) {
	if m.Empty() {
		return plane{}, fmt.Errorf("empty image")
	}
	switch m.Type() {
	case gocv.MatTypeCV8UC1, gocv.MatTypeCV8UC3, gocv.MatTypeCV8UC4:
	default:
		return plane{}, fmt.Errorf("want an 8-bit image, got %v", m.Type())
	}
	if !m.IsContinuous() {
		return plane{}, fmt.Errorf("image is not continuous in memory")
	}
	d, err := m.DataPtrUint8()
	if err != nil {
		return plane{}, err
	}
	return plane{w: m.Cols(), h: m.Rows(), ch: m.Channels(), step: m.Cols() * m.Channels(), data: d}, nil
}

func (p plane) inside(x, y float64) bool {
	return x >= 0 && y >= 0 && x <= float64(p.w-1) && y <= float64(p.h-1)
}

// at returns channel c of pixel (x, y), which must be inside.
func (p plane) at(x, y, c int) float64 { return float64(p.data[y*p.step+x*p.ch+c]) }

// sample writes the bilinear interpolation of every channel at (x, y) into
// out and reports whether (x, y) lies inside the image.
func (p plane) sample(x, y float64, out []float64) bool {
	if !p.inside(x, y) {
		return false
	}
	x0, y0 := int(x), int(y)
	if x0 >= p.w-1 {
		x0 = p.w - 2
	}
	if y0 >= p.h-1 {
		y0 = p.h - 2
	}
	if x0 < 0 {
		x0 = 0
	}
	if y0 < 0 {
		y0 = 0
	}
	fx, fy := x-float64(x0), y-float64(y0)
	i := (y0-p.oy)*p.step + (x0-p.ox)*p.ch
	j := i + p.step
	for c := 0; c < p.ch; c++ {
		a := float64(p.data[i+c])
		b := float64(p.data[i+p.ch+c])
		d := float64(p.data[j+c])
		e := float64(p.data[j+p.ch+c])
		out[c] = (a*(1-fx)+b*fx)*(1-fy) + (d*(1-fx)+e*fx)*fy
	}
	return true
}

// labDist is the colour distance used to tell the playing surface from
// everything else: Lab with lightness weighted by half, so that shading and
// vignetting across the surface matter less than a change of material.
func labDist(a, b []float64) float64 {
	dl := (a[0] - b[0]) * 0.5
	da := a[1] - b[1]
	db := a[2] - b[2]
	return math.Sqrt(dl*dl + da*da + db*db)
}
