package vision

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/render/paint"
)

// Draw draws what was found in a frame over a copy of it in dst, in the
// colour key of package overlay (the live preview's too) with its legend
// in the top-right corner: the playing surface's outline, every disc
// (circle in its kind's colour, its kind's initial, dashed when partly
// hidden) and the hand mask (shaded red). frame is the original frame the
// detections were made on.
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
			gocv.Line(dst, pts[k-1], pts[k], overlay.Marking, 1)
		}
	}
	scale := math.Max(1, float64(dst.Rows())/720)
	for _, det := range f.Detections {
		col := overlay.Kind(det.Kind)
		c := image.Pt(int(math.Round(det.PX[0])), int(math.Round(det.PX[1])))
		r := int(math.Round(det.RadiusPx))
		th := int(math.Max(1, math.Round(scale)))
		paint.DrawDisc(dst, c, r, col, th, det.Partial)
		gocv.Circle(dst, c, 1, col, -1)
		label := string("WBQS"[det.Kind])
		gocv.PutText(dst, label, image.Pt(c.X+r/2, c.Y-r/2), gocv.FontHersheySimplex, 0.35*scale, col, th)
	}
	paint.Legend(dst, append(overlay.Pieces(),
		overlay.Entry{Label: "partly hidden", Colour: overlay.White, Swatch: overlay.Dashed},
		overlay.Entry{Label: "playing surface", Colour: overlay.Marking, Swatch: overlay.Line},
		overlay.Entry{Label: "hand or arm", Colour: overlay.Hand, Swatch: overlay.Fill}))
	return nil
}

func (d *Detector) drawHands(m *handMask, dst *gocv.Mat) {
	shade := dst.Clone()
	defer shade.Close()
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
			gocv.FillPoly(&shade, pv, overlay.Hand)
			pv.Close()
		}
	}
	gocv.AddWeighted(*dst, 0.55, shade, 0.45, 0, dst)
}
