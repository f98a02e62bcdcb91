package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
)

// Colours of the overlay, per kind.
var kindColours = [4]color.RGBA{
	board.White:   {255, 235, 120, 255}, // light yellow
	board.Black:   {40, 160, 255, 255},  // blue
	board.Queen:   {255, 40, 200, 255},  // magenta
	board.Striker: {60, 255, 60, 255},   // green
}

// Draw draws what was found in a frame over a copy of it in dst: the
// playing surface's outline, every disc (circle in its kind's colour, its
// kind's initial, dashed when partly hidden) and the hand mask (shaded
// red). frame is the original frame the detections were made on.
func (d *Detector) Draw(frame gocv.Mat, f Frame, dst *gocv.Mat) error {
	if frame.Empty() {
		return fmt.Errorf("vision: draw: empty frame")
	}
	frame.CopyTo(dst)
	if f.Occlusion != nil {
		if m, ok := f.Occlusion.(*handMask); ok {
			d.drawHands(m, dst)
		}
	}
	// the surface's outline, following the lens
	corners := d.g.Corners()
	for i := 0; i < 4; i++ {
		a, b := corners[i], corners[(i+1)%4]
		var pts []image.Point
		for s := 0; s <= 40; s++ {
			p := a.Add(b.Sub(a).Scale(float64(s) / 40))
			q := d.v.imageOf(p)
			pts = append(pts, image.Pt(int(math.Round(q.X)), int(math.Round(q.Y))))
		}
		for k := 1; k < len(pts); k++ {
			gocv.Line(dst, pts[k-1], pts[k], color.RGBA{0, 200, 255, 255}, 1)
		}
	}
	scale := math.Max(1, float64(dst.Rows())/720)
	for _, det := range f.Detections {
		col := kindColours[det.Kind]
		c := image.Pt(int(math.Round(det.PX[0])), int(math.Round(det.PX[1])))
		r := int(math.Round(det.RadiusPx))
		th := int(math.Max(1, math.Round(scale)))
		if det.Partial {
			// dashed
			for a := 0; a < 360; a += 30 {
				gocv.Ellipse(dst, c, image.Pt(r, r), 0, float64(a), float64(a+15), col, th)
			}
		} else {
			gocv.Circle(dst, c, r, col, th)
		}
		gocv.Circle(dst, c, 1, col, -1)
		label := string("WBQS"[det.Kind])
		gocv.PutText(dst, label, image.Pt(c.X+r/2, c.Y-r/2), gocv.FontHersheySimplex, 0.35*scale, col, th)
	}
	return nil
}

func (d *Detector) drawHands(m *handMask, dst *gocv.Mat) {
	overlay := dst.Clone()
	defer overlay.Close()
	for j := 0; j < m.nb; j++ {
		for i := 0; i < m.nb; i++ {
			if !m.mask[j*m.nb+i] {
				continue
			}
			var pts []image.Point
			for _, c := range [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
				p := board.Vec{X: m.ext + (float64(i)+c[0])*m.bs, Y: m.ext + (float64(j)+c[1])*m.bs}
				q := d.v.imageOf(p)
				pts = append(pts, image.Pt(int(math.Round(q.X)), int(math.Round(q.Y))))
			}
			pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
			gocv.FillPoly(&overlay, pv, color.RGBA{255, 0, 0, 255})
			pv.Close()
		}
	}
	gocv.AddWeighted(*dst, 0.55, overlay, 0.45, 0, dst)
}
