package calibrate

import (
	"errors"
	"fmt"
	"math"

	"github.com/boardcam/boardcam/camera"
)

// fitModel fits, by Levenberg–Marquardt, a homography from the normalised
// board square to the image together with two ratios every board has but
// makers choose differently: where the rear base lines lie and where the
// pockets lie, as fractions of the half surface. It uses:
//
//   - the measured edges (points on the image of u or v = ±1);
//   - the rear base lines (points on the image of u or v = ±rear), which on
//     every board form a square concentric with the surface;
//   - the pocket centres (at (±pocket, ±pocket)), and their radii: a pocket
//     is cut into the corner, so its centre lies about one radius in from
//     each edge (a weak constraint, decisive only when no edge is visible);
//   - weak priors pulling both ratios toward the configured geometry.
//
// The result infers edges that are outside the image or hidden.
func (d *detector) fitModel(hn Homography, found [4]bool) (*ModelFit, error) {
	type ptObs struct {
		p    Point
		side int
		rear bool
	}
	var obs []ptObs
	nLines := 0
	for j := 0; j < 4; j++ {
		if found[j] {
			for _, p := range decimate(d.rep.Sides[j].Samples, 20) {
				obs = append(obs, ptObs{p, j, false})
			}
			nLines++
		}
		if d.rearPts[j] != nil {
			for _, p := range decimate(d.rearPts[j], 20) {
				obs = append(obs, ptObs{p, j, true})
			}
			nLines++
		}
	}
	nPockets := 0
	for _, c := range d.rep.Pockets {
		if c != nil {
			nPockets++
		}
	}
	if nLines+nPockets < 4 {
		return nil, fmt.Errorf("%d lines and %d pockets are not enough to place the board", nLines, nPockets)
	}
	b0 := rearCentre(d.g)
	p0 := pocketCentre(d.g)
	// Initial rear-line ratio: the coarse positions found.
	bInit, nb := 0.0, 0
	for j := 0; j < 4; j++ {
		if d.rearPts[j] != nil {
			bInit += d.rearV[j]
			nb++
		}
	}
	if nb > 0 {
		bInit /= float64(nb)
	} else {
		bInit = b0
	}
	S := localScale(hn, Point{})
	x := make([]float64, 10)
	h := hn.Normalised()
	copy(x, []float64{h[0][0], h[0][1], h[0][2], h[1][0], h[1][1], h[1][2], h[2][0], h[2][1]})
	x[8], x[9] = bInit, p0
	nEdge := 0
	for _, f := range found {
		if f {
			nEdge++
		}
	}
	resid := func(x []float64, out []float64) ([]float64, bool) {
		H := Homography{{x[0], x[1], x[2]}, {x[3], x[4], x[5]}, {x[6], x[7], 1}}
		var edgeL, rearL [4]Line
		for j := 0; j < 4; j++ {
			var err error
			if edgeL[j], err = H.MapLine(unitLine(j, 1)); err != nil {
				return nil, false
			}
			if rearL[j], err = H.MapLine(unitLine(j, x[8])); err != nil {
				return nil, false
			}
		}
		out = out[:0]
		for _, o := range obs {
			if o.rear {
				out = append(out, rearL[o.side].Dist(o.p))
			} else {
				out = append(out, edgeL[o.side].Dist(o.p))
			}
		}
		for k, u := range unitSquare() {
			c := d.rep.Pockets[k]
			if c == nil {
				continue
			}
			// A pocket centre (a circle fitted to some 90 rays) counts as
			// much as one point measured on a line.
			pc := H.Apply(u.Scale(x[9]))
			out = append(out, pc.X-c.C.X, pc.Y-c.C.Y)
			if nEdge < 2 {
				// Only without two edges is the scale otherwise unknown.
				corner := H.Apply(u)
				inset := corner.Dist(pc) / math.Sqrt2
				out = append(out, 0.3*(inset-c.R))
			}
		}
		out = append(out, 0.02*S*(x[8]-b0), 0.02*S*(x[9]-p0))
		return out, true
	}
	r, ok := resid(x, nil)
	if !ok {
		return nil, errors.New("degenerate start")
	}
	cost := sumSq(r)
	lambda := 1e-3
	J := make([][]float64, len(r))
	for i := range J {
		J[i] = make([]float64, len(x))
	}
	rr := make([]float64, 0, len(r))
	for it := 0; it < 100; it++ {
		for k := range x {
			step := 1e-6 * math.Max(1, math.Abs(x[k]))
			if k == 6 || k == 7 {
				step = 1e-9 * math.Max(1, math.Abs(x[k])*1e3)
			}
			old := x[k]
			x[k] = old + step
			r2, ok := resid(x, rr)
			x[k] = old
			if !ok {
				return nil, errors.New("degenerate fit")
			}
			for i := range r {
				J[i][k] = (r2[i] - r[i]) / step
			}
		}
		var A [10][10]float64
		var g [10]float64
		for i := range r {
			for a := 0; a < 10; a++ {
				g[a] += J[i][a] * r[i]
				for b := 0; b < 10; b++ {
					A[a][b] += J[i][a] * J[i][b]
				}
			}
		}
		improved := false
		for tries := 0; tries < 12; tries++ {
			m := make([][]float64, 10)
			rhs := make([]float64, 10)
			for a := 0; a < 10; a++ {
				m[a] = make([]float64, 10)
				copy(m[a], A[a][:])
				m[a][a] += lambda * (A[a][a] + 1e-12)
				rhs[a] = -g[a]
			}
			dx, err := camera.Solve(m, rhs)
			if err != nil {
				lambda *= 10
				continue
			}
			xn := make([]float64, 10)
			for a := range x {
				xn[a] = x[a] + dx[a]
			}
			rn, ok := resid(xn, nil)
			if ok {
				if c := sumSq(rn); c < cost {
					improved = cost-c > 1e-10*cost
					x, r, cost = xn, rn, c
					lambda = math.Max(lambda/3, 1e-9)
					break
				}
			}
			lambda *= 10
		}
		if !improved {
			break
		}
	}
	H := Homography{{x[0], x[1], x[2]}, {x[3], x[4], x[5]}, {x[6], x[7], 1}}
	var ss float64
	for i := range obs {
		ss += r[i] * r[i]
	}
	m := &ModelFit{H: H, RearLine: x[8], Pocket: x[9]}
	if len(obs) > 0 {
		m.RMS = math.Sqrt(ss / float64(len(obs)))
	}
	if !H.Finite() || math.Abs(H.Det()) < 1e-12 {
		return nil, errors.New("degenerate fit")
	}
	if x[8] < 0.5 || x[8] > 0.95 || x[9] < 0.8 || x[9] > 0.99 {
		return nil, fmt.Errorf("the markings fit an implausible board (rear lines at %.2f, pockets at %.2f of the half surface)", x[8], x[9])
	}
	if m.RMS > 3 {
		return nil, fmt.Errorf("the edges and markings disagree (residual %.1f px)", m.RMS)
	}
	return m, nil
}

func sumSq(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return s
}

// decimate returns at most n points spread evenly over p.
func decimate(p []Point, n int) []Point {
	if len(p) <= n {
		return p
	}
	out := make([]Point, n)
	for i := range out {
		out[i] = p[i*len(p)/n]
	}
	return out
}
