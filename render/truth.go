package render

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/scene"
	"gocv.io/x/gocv"
)

// DrawTruth draws the ground truth of the scene over a rendered frame: the
// true outline of every visible disc's top face (white men yellow, black men
// cyan, queen magenta, striker green) with its identity, the footprint of
// each hand at the height of the back of the hand, and the four surface
// corners (red crosses, NW labelled).
func (rd *Renderer) DrawTruth(dst *gocv.Mat, sc *scene.Scene) {
	cam := rd.CameraAt(sc.T)
	colours := map[board.Kind]color.RGBA{
		board.White:   {255, 230, 0, 255},
		board.Black:   {0, 230, 255, 255},
		board.Queen:   {255, 0, 255, 255},
		board.Striker: {0, 255, 0, 255},
	}
	poly := func(pts []board.Vec, z float64, col color.RGBA) {
		var ip []image.Point
		for _, p := range pts {
			x, y, ok := cam.Project(p, z)
			if !ok {
				return
			}
			ip = append(ip, image.Pt(int(math.Round(x)), int(math.Round(y))))
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{ip})
		defer pv.Close()
		gocv.Polylines(dst, pv, true, col, 1)
	}
	for _, d := range sc.Discs {
		if !d.State.OnBoard() && d.State != scene.Held {
			continue
		}
		r := rd.geom.Radius(d.Kind)
		z := math.Max(d.Z, 0) + rd.set.Pieces.Thickness
		if d.Kind == board.Striker {
			z++
		}
		var pts []board.Vec
		for i := 0; i < 36; i++ {
			a := float64(i) * math.Pi / 18
			pts = append(pts, d.Pos.Add(board.Vec{X: math.Cos(a), Y: math.Sin(a)}.Scale(r)))
		}
		col := colours[d.Kind]
		poly(pts, z, col)
		if x, y, ok := cam.Project(d.Pos, z); ok {
			gocv.PutText(dst, d.ID, image.Pt(int(x)-8, int(y)+4), gocv.FontHersheyPlain, 0.9, col, 1)
		}
	}
	for _, h := range sc.Hands {
		var pts []board.Vec
		for i := 0; i < 72; i++ {
			a := float64(i) * math.Pi / 36
			dir := board.Vec{X: math.Cos(a), Y: math.Sin(a)}
			// walk out to the footprint's edge from the wrist
			lo, hi := 0.0, 2000.0
			for k := 0; k < 30; k++ {
				m := (lo + hi) / 2
				if h.Depth(h.Wrist.Add(dir.Scale(m))) > 0 {
					lo = m
				} else {
					hi = m
				}
			}
			pts = append(pts, h.Wrist.Add(dir.Scale(lo)))
		}
		// at the height of the back of the hand, where it is drawn
		poly(pts, math.Max(h.Z, 0)+20, color.RGBA{255, 128, 0, 255})
	}
	for i, c := range cam.Corners(rd.geom) {
		p := image.Pt(int(math.Round(c[0])), int(math.Round(c[1])))
		red := color.RGBA{255, 0, 0, 255}
		gocv.Line(dst, p.Add(image.Pt(-6, 0)), p.Add(image.Pt(6, 0)), red, 1)
		gocv.Line(dst, p.Add(image.Pt(0, -6)), p.Add(image.Pt(0, 6)), red, 1)
		if i == 0 {
			gocv.PutText(dst, "NW", p.Add(image.Pt(6, 16)), gocv.FontHersheyPlain, 1, red, 1)
		}
	}
}

// WriteImage writes a frame as PNG (or JPEG at quality 95 for .jpg).
func WriteImage(path string, img gocv.Mat) error {
	if err := cvio.WriteImage(path, img); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return nil
}

// Visible returns, for every disc on the board or held in a hand, the
// fraction of its top face the camera sees in the frame at sc.T: not
// covered by a hand or an arm (as drawn, in perspective: a hand above the
// board hides what lies under its image, not only under its footprint) and
// inside the image. Discs under a hand are still on the board in the truth;
// this tells how much of them a detector could see.
func (rd *Renderer) Visible(sc *scene.Scene) map[string]float64 {
	cam := rd.CameraAt(sc.T)
	var hands []*handShape
	for _, h := range sc.Hands {
		hands = append(hands, newHandShape(h, lookFor(h.Owner, rd.seed)))
	}
	out := map[string]float64{}
	for _, d := range sc.Discs {
		if !d.State.OnBoard() && d.State != scene.Held {
			continue
		}
		r := rd.geom.Radius(d.Kind)
		z := math.Max(d.Z, 0) + rd.set.Pieces.Thickness
		if d.Kind == board.Striker {
			z++
		}
		seen, total := 0, 0
		for _, f := range []float64{0, 0.3, 0.6, 0.9} {
			n := 1
			if f > 0 {
				n = 16
			}
			for k := 0; k < n; k++ {
				a := 2 * math.Pi * (float64(k) + 0.5*f) / float64(n)
				p := d.Pos.Add(board.Vec{X: math.Cos(a), Y: math.Sin(a)}.Scale(r * f))
				total++
				x, y, ok := cam.Project(p, z)
				if !ok || x < -0.5 || y < -0.5 || x > float64(cam.Width)-0.5 || y > float64(cam.Height)-0.5 {
					continue
				}
				if !coveredByHands(cam, hands, p, z) {
					seen++
				}
			}
		}
		out[d.ID] = float64(seen) / float64(total)
	}
	return out
}

// coveredByHands reports whether the line from the camera to the point p at
// height z passes through a hand or an arm above it.
func coveredByHands(cam *Camera, hands []*handShape, p board.Vec, z float64) bool {
	P := world(p, z)
	c := cam.Pos
	dx, dy, dz := P[0]-c[0], P[1]-c[1], P[2]-c[2] // t = 1 at the point
	for _, s := range hands {
		if t := (-s.zh - c[2]) / dz; t > 0 && t < 1 {
			if d, _, _ := s.handSD(board.Vec{X: c[0] + t*dx, Y: c[1] + t*dy}); d < 0 {
				return true
			}
		}
		den := s.n[0]*dx + s.n[1]*dy + s.n[2]*dz
		if math.Abs(den) > 1e-12 {
			t := (s.n[0]*(s.p0[0]-c[0]) + s.n[1]*(s.p0[1]-c[1]) + s.n[2]*(s.p0[2]-c[2])) / den
			if t > 0 && t < 1 {
				if d, _, _, _ := s.armSD(board.Vec{X: c[0] + t*dx, Y: c[1] + t*dy}); d < 0 {
					return true
				}
			}
		}
	}
	return false
}
