package mounting

import (
	"math"
	"os"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/internal/matleak"
	"github.com/boardcam/boardcam/internal/realboards"
)

func TestMain(m *testing.M) { os.Exit(matleak.Run(m, "mounting")) }

// TestMountingIsExact draws bright dots where a made-up annotation puts its
// corners and pieces, applies every mounting (with the photometric steps
// too) and finds each dot again in the transformed picture where the
// transformed annotation says it is.
func TestMountingIsExact(t *testing.T) {
	const w, h = 900, 700
	a := realboards.Annotation{File: "dots.png", Version: 1, ImageSize: [2]int{w, h}, InScope: true,
		Corners:     [4][2]float64{{150.3, 80.7}, {760.2, 95.1}, {748.6, 650.4}, {140.9, 640.2}},
		Uncertainty: [4]float64{1, 1, 1, 1},
		Pieces: []realboards.Piece{{Class: "white", Center: [2]float64{300.4, 300.8}, Radius: 12},
			{Class: "black", Center: [2]float64{520.7, 410.2}, Radius: 12},
			{Class: "queen", Center: [2]float64{451.2, 366.6}, Radius: 12}}}
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 60, 60, 0), h, w, gocv.MatTypeCV8UC3)
	defer img.Close()
	var pts [][2]float64
	for _, c := range a.Corners {
		pts = append(pts, c)
	}
	for _, p := range a.Pieces {
		pts = append(pts, p.Center)
	}
	// Each dot a smooth blob, so that its centroid is its centre at any scale.
	for _, p := range pts {
		for y := int(p[1]) - 12; y <= int(p[1])+12; y++ {
			for x := int(p[0]) - 12; x <= int(p[0])+12; x++ {
				d2 := (float64(x)-p[0])*(float64(x)-p[0]) + (float64(y)-p[1])*(float64(y)-p[1])
				v := 60 + 190*math.Exp(-d2/(2*4*4))
				for c := 0; c < 3; c++ {
					img.SetUCharAt(y, x*3+c, uint8(v))
				}
			}
		}
	}
	for _, m := range append(realboards.Mountings(), realboards.Perturbations()...) {
		// Compression, noise, glare, uneven light and defocus move a
		// centroid by a little; exactness is geometric.
		m.JPEG, m.Noise, m.Glare, m.Light, m.Defocus = 0, 0, 0, 0, 0
		out, b, err := Apply(m, img, a)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		grey := gocv.NewMat()
		gocv.CvtColor(out, &grey, gocv.ColorBGRToGray)
		var want [][2]float64
		for i, c := range b.Corners {
			if !b.Outside[i] {
				want = append(want, c)
			}
		}
		for _, p := range b.Pieces {
			if !p.Partial {
				want = append(want, p.Center)
			}
		}
		if len(want) == 0 {
			t.Errorf("%s: nothing left to check", m.Name)
		}
		s := b.Width() / a.Width()
		for _, p := range want {
			r := int(math.Ceil(14 * s))
			if p[0] < float64(r) || p[1] < float64(r) || p[0] > float64(grey.Cols()-1-r) || p[1] > float64(grey.Rows()-1-r) {
				continue // the border cuts the dot: its centroid is not its centre
			}
			// The floor: the darkest pixel around; the centroid above it.
			base := math.Inf(1)
			for y := int(p[1]) - r; y <= int(p[1])+r; y++ {
				for x := int(p[0]) - r; x <= int(p[0])+r; x++ {
					if x >= 0 && y >= 0 && x < grey.Cols() && y < grey.Rows() {
						base = math.Min(base, float64(grey.GetUCharAt(y, x)))
					}
				}
			}
			var sw, sx, sy float64
			for y := int(p[1]) - r; y <= int(p[1])+r; y++ {
				for x := int(p[0]) - r; x <= int(p[0])+r; x++ {
					if x < 0 || y < 0 || x >= grey.Cols() || y >= grey.Rows() {
						continue
					}
					v := float64(grey.GetUCharAt(y, x)) - base
					sw += v
					sx += v * float64(x)
					sy += v * float64(y)
				}
			}
			got := [2]float64{sx / sw, sy / sw}
			if d := math.Hypot(got[0]-p[0], got[1]-p[1]); d > 0.25 {
				t.Errorf("%s: dot at (%.2f, %.2f), annotation says (%.2f, %.2f): %.2f px off", m.Name, got[0], got[1], p[0], p[1], d)
			}
		}
		grey.Close()
		out.Close()
	}
}
