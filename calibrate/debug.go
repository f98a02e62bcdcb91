package calibrate

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
)

var (
	colFound    = color.RGBA{0, 220, 0, 255}   // edges measured
	colInferred = color.RGBA{255, 150, 0, 255} // edges inferred
	colSample   = color.RGBA{255, 255, 0, 255} // edge samples
	colMeasured = color.RGBA{0, 220, 255, 255} // markings found
	colPredict  = color.RGBA{255, 0, 255, 255} // markings re-projected from the geometry
	colCorner   = color.RGBA{255, 40, 40, 255} // corners
	colText     = color.RGBA{255, 255, 255, 255}
)

// DrawDebug draws over a copy of the frame (into dst) what calibration
// found: the surface edges (green where measured, orange where inferred)
// and their sample points, the corners with their board names, the
// markings as measured (cyan: both edges of each base line, the base
// circles and their cores, the arrows, the centre circle, the pockets),
// and the board geometry's nominal markings re-projected through the
// calibration (magenta): base lines, base circles, centre and outer
// circles, arrows and pockets. rep may be nil (manual calibration).
func DrawDebug(img gocv.Mat, cal *Calibration, g *board.Geometry, rep *Report, dst *gocv.Mat) error {
	if cal == nil {
		return errors.New("calibrate: debug: no calibration")
	}
	if g == nil {
		g = board.ICF()
	}
	switch img.Channels() {
	case 1:
		gocv.CvtColor(img, dst, gocv.ColorGrayToBGR)
	case 3:
		img.CopyTo(dst)
	case 4:
		gocv.CvtColor(img, dst, gocv.ColorBGRAToBGR)
	default:
		return fmt.Errorf("calibrate: debug: %d channels", img.Channels())
	}
	c := &debugCanvas{dst: dst, cal: cal, th: max(1, int(math.Round(float64(max(dst.Cols(), dst.Rows()))/900)))}
	c.nominal(g.WithMarkings(nil))
	if rep != nil {
		c.detected(rep)
	}
	if m := cal.Markings; m != nil {
		c.measured(m)
	}
	if rep == nil {
		c.poly(cal.Corners[:], true, colFound)
	}
	c.corners()
	c.caption()
	return nil
}

// debugCanvas draws the debug image of one calibration into dst, with
// lines th pixels thick.
type debugCanvas struct {
	dst *gocv.Mat
	cal *Calibration
	th  int
}

func (c *debugCanvas) ip(p Point) image.Point {
	return image.Pt(int(math.Round(p.X)), int(math.Round(p.Y)))
}

// mm maps a board point to the image.
func (c *debugCanvas) mm(v board.Vec) Point { return c.cal.ToImage(v) }

// poly draws a polyline through the finite points.
func (c *debugCanvas) poly(pts []Point, closed bool, col color.RGBA) {
	v := make([]image.Point, 0, len(pts))
	for _, p := range pts {
		if p.Finite() {
			v = append(v, c.ip(p))
		}
	}
	if len(v) < 2 {
		return
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{v})
	defer pv.Close()
	gocv.Polylines(c.dst, pv, closed, col, c.th)
}

// circleMM draws a circle given in board millimetres.
func (c *debugCanvas) circleMM(ci board.Circle, col color.RGBA) {
	pts := make([]Point, 48)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / 48
		pts[i] = c.mm(board.Vec{X: ci.C.X + ci.R*math.Cos(a), Y: ci.C.Y + ci.R*math.Sin(a)})
	}
	c.poly(pts, true, col)
}

// nominal draws the geometry's nominal markings re-projected.
func (c *debugCanvas) nominal(g *board.Geometry) {
	for _, s := range board.Sides {
		for _, seg := range []board.Segment{g.RearLine(s), g.FrontLine(s)} {
			c.poly([]Point{c.mm(seg.A), c.mm(seg.B)}, false, colPredict)
		}
		for _, ci := range g.BaseCircles(s) {
			c.circleMM(ci, colPredict)
		}
	}
	for _, p := range board.Pockets {
		c.circleMM(g.Pocket(p), colPredict)
		if a := g.Arrow(p); a != (board.Segment{}) {
			c.poly([]Point{c.mm(a.A), c.mm(a.B)}, false, colPredict)
		}
	}
	c.circleMM(g.CentreCircle(), colPredict)
	c.circleMM(g.OuterCircle(), colPredict)
}

// detected draws what detection measured: the edges (found or inferred)
// with their samples, and the pockets.
func (c *debugCanvas) detected(rep *Report) {
	for j, s := range rep.Sides {
		col := colInferred
		if s.Found {
			col = colFound
		}
		a, b := c.cal.ImageCorners()[j], c.cal.ImageCorners()[(j+1)%4]
		c.poly([]Point{a, b}, false, col)
		for _, p := range s.Samples {
			gocv.Circle(c.dst, c.ip(p), 0, colSample, c.th)
		}
	}
	for _, p := range rep.Pockets {
		if p != nil {
			gocv.Circle(c.dst, c.ip(p.C), int(math.Round(p.R)), colMeasured, c.th)
		}
	}
}

// measured draws the markings as measured: each line's two edges (its
// thickness), the base circles and their cores, the arrows, the centre
// circle.
func (c *debugCanvas) measured(m *board.Markings) {
	for _, s := range board.Sides {
		sm := m.Side(s)
		for _, b := range []board.Band{sm.Front, sm.Rear} {
			for _, y := range []float64{b.Inner(), b.Outer()} {
				a := board.FromLocal(s, board.V(sm.Circles[0].X, y))
				e := board.FromLocal(s, board.V(sm.Circles[1].X, y))
				c.poly([]Point{c.mm(a), c.mm(e)}, false, colMeasured)
			}
		}
		for i, ci := range m.BaseCircles(s) {
			c.circleMM(ci, colMeasured)
			if core := sm.Circles[i].Core; core > 0 {
				c.circleMM(board.Circle{C: ci.C, R: core}, colMeasured)
			}
		}
	}
	for _, p := range board.Pockets {
		if a := m.Arrow(p); a != (board.Segment{}) {
			c.poly([]Point{c.mm(a.A), c.mm(a.B)}, false, colMeasured)
		}
	}
	c.circleMM(m.CentreCircle(), colMeasured)
}

// corners marks the corners with their board names.
func (c *debugCanvas) corners() {
	names := [4]string{"NW", "NE", "SE", "SW"}
	th := c.th
	for i, cp := range c.cal.Corners {
		p := c.ip(cp)
		r := 6 * th
		gocv.Line(c.dst, p.Add(image.Pt(-r, 0)), p.Add(image.Pt(r, 0)), colCorner, th)
		gocv.Line(c.dst, p.Add(image.Pt(0, -r)), p.Add(image.Pt(0, r)), colCorner, th)
		bc := camera.BoardCorners(c.cal.Board.Surface)[i]
		lp := c.mm(board.Vec{X: bc.X * 0.9, Y: bc.Y * 0.9})
		gocv.PutText(c.dst, names[i], c.ip(lp), gocv.FontHersheySimplex, 0.5*float64(th), colCorner, th)
	}
}

// caption writes the method, confidence, tilt and markings' rms.
func (c *debugCanvas) caption() {
	q, th := c.cal.Quality, c.th
	txt := fmt.Sprintf("%s  confidence %.2f  tilt %.0f deg", q.Method, q.Score, q.TiltDeg)
	if q.RMSmm != nil {
		txt += fmt.Sprintf("  markings rms %.1f mm", *q.RMSmm)
	}
	gocv.PutText(c.dst, txt, image.Pt(8*th, 20*th), gocv.FontHersheySimplex, 0.55*float64(th), color.RGBA{0, 0, 0, 255}, 3*th)
	gocv.PutText(c.dst, txt, image.Pt(8*th, 20*th), gocv.FontHersheySimplex, 0.55*float64(th), colText, th)
}
