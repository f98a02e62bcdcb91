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
	th := max(1, int(math.Round(float64(max(dst.Cols(), dst.Rows()))/900)))
	ip := func(p Point) image.Point { return image.Pt(int(math.Round(p.X)), int(math.Round(p.Y))) }
	poly := func(pts []Point, closed bool, c color.RGBA) {
		v := make([]image.Point, 0, len(pts))
		for _, p := range pts {
			if p.Finite() {
				v = append(v, ip(p))
			}
		}
		if len(v) < 2 {
			return
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{v})
		defer pv.Close()
		gocv.Polylines(dst, pv, closed, c, th)
	}
	mm := func(v board.Vec) Point { return cal.ToImage(v) }
	circleMM := func(c board.Circle, col color.RGBA) {
		pts := make([]Point, 48)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / 48
			pts[i] = mm(board.Vec{X: c.C.X + c.R*math.Cos(a), Y: c.C.Y + c.R*math.Sin(a)})
		}
		poly(pts, true, col)
	}
	// Geometry re-projected (its nominal figures).
	g = g.WithMarkings(nil)
	for _, s := range board.Sides {
		for _, seg := range []board.Segment{g.RearLine(s), g.FrontLine(s)} {
			poly([]Point{mm(seg.A), mm(seg.B)}, false, colPredict)
		}
		for _, c := range g.BaseCircles(s) {
			circleMM(c, colPredict)
		}
	}
	for _, p := range board.Pockets {
		circleMM(g.Pocket(p), colPredict)
		if a := g.Arrow(p); a != (board.Segment{}) {
			poly([]Point{mm(a.A), mm(a.B)}, false, colPredict)
		}
	}
	circleMM(g.CentreCircle(), colPredict)
	circleMM(g.OuterCircle(), colPredict)
	// What detection measured.
	if rep != nil {
		for j, s := range rep.Sides {
			col := colInferred
			if s.Found {
				col = colFound
			}
			a, b := cal.ImageCorners()[j], cal.ImageCorners()[(j+1)%4]
			poly([]Point{a, b}, false, col)
			for _, p := range s.Samples {
				gocv.Circle(dst, ip(p), 0, colSample, th)
			}
		}
		for _, c := range rep.Pockets {
			if c != nil {
				gocv.Circle(dst, ip(c.C), int(math.Round(c.R)), colMeasured, th)
			}
		}
	}
	// The markings as measured: each line's two edges (its thickness),
	// the base circles and their cores, the arrows, the centre circle.
	if m := cal.Markings; m != nil {
		for _, s := range board.Sides {
			sm := m.Side(s)
			for _, b := range []board.Band{sm.Front, sm.Rear} {
				for _, y := range []float64{b.Inner(), b.Outer()} {
					a := board.FromLocal(s, board.V(sm.Circles[0].X, y))
					e := board.FromLocal(s, board.V(sm.Circles[1].X, y))
					poly([]Point{mm(a), mm(e)}, false, colMeasured)
				}
			}
			for i, c := range m.BaseCircles(s) {
				circleMM(c, colMeasured)
				if core := sm.Circles[i].Core; core > 0 {
					circleMM(board.Circle{C: c.C, R: core}, colMeasured)
				}
			}
		}
		for _, p := range board.Pockets {
			if a := m.Arrow(p); a != (board.Segment{}) {
				poly([]Point{mm(a.A), mm(a.B)}, false, colMeasured)
			}
		}
		circleMM(m.CentreCircle(), colMeasured)
	}
	if rep == nil {
		poly(cal.Corners[:], true, colFound)
	}
	names := [4]string{"NW", "NE", "SE", "SW"}
	for i, c := range cal.Corners {
		p := ip(c)
		r := 6 * th
		gocv.Line(dst, p.Add(image.Pt(-r, 0)), p.Add(image.Pt(r, 0)), colCorner, th)
		gocv.Line(dst, p.Add(image.Pt(0, -r)), p.Add(image.Pt(0, r)), colCorner, th)
		lp := mm(board.Vec{X: camera.BoardCorners(cal.Board.Surface)[i].X * 0.9, Y: camera.BoardCorners(cal.Board.Surface)[i].Y * 0.9})
		gocv.PutText(dst, names[i], ip(lp), gocv.FontHersheySimplex, 0.5*float64(th), colCorner, th)
	}
	txt := fmt.Sprintf("%s  confidence %.2f  tilt %.0f deg", cal.Quality.Method, cal.Quality.Score, cal.Quality.TiltDeg)
	if cal.Quality.RMSmm != nil {
		txt += fmt.Sprintf("  markings rms %.1f mm", *cal.Quality.RMSmm)
	}
	gocv.PutText(dst, txt, image.Pt(8*th, 20*th), gocv.FontHersheySimplex, 0.55*float64(th), color.RGBA{0, 0, 0, 255}, 3*th)
	gocv.PutText(dst, txt, image.Pt(8*th, 20*th), gocv.FontHersheySimplex, 0.55*float64(th), colText, th)
	return nil
}
