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
// With fewer than two edges in view (a camera framed on the playing
// surface) the scale rests on the markings alone, and the weights change
// (see [modelProblem.perSide]): makers draw each side's rear base line a
// few millimetres from the figures and from the other sides, while the
// pockets' places are set by the board's dimensions, so each side's rear
// line gets its own offset (tied to the others only weakly) and the
// pockets' ratio a firm prior. The lines then give the view's turn and
// perspective, the pockets its place and scale.
//
// The result infers edges that are outside the image or hidden.
func (d *detector) fitModel(hn Homography, found [4]bool) (*ModelFit, error) {
	pr, err := d.modelProblem(hn, found)
	if err != nil {
		return nil, err
	}
	x := pr.start(hn, d.rearPts, d.rearV)
	x, r, err := levenbergMarquardt(pr.resid, x)
	if err != nil {
		return nil, err
	}
	return pr.result(x, r)
}

// modelObs is one point measured on a line of the model: on the image of
// edge side (rear false) or of the rear base line of that side.
type modelObs struct {
	p    Point
	side int
	rear bool
}

// modelProblem is the least-squares problem of [detector.fitModel]: the
// observations and the priors. The parameters are the eight free entries
// of the homography (row-major, h33 = 1), the rear base lines' ratio and
// the pockets' ratio.
type modelProblem struct {
	obs     []modelObs
	pockets [4]*Circle
	// nEdge is the number of edges measured: with fewer than two, the
	// pockets' inset fixes the scale.
	nEdge int
	// s is the normalised square's scale in pixels at its centre, which
	// weighs the priors; b0 and p0 are the configured ratios.
	s, b0, p0 float64
}

// perSide tells whether the problem is the edge-less one: with no edge
// in view, each side's rear base line has its own offset from the common
// ratio (parameters 10–13, tied to zero by [sideTie]) and the pockets'
// ratio is held by [pocketPrior] instead of the weak prior.
func (pr *modelProblem) perSide() bool { return pr.nEdge == 0 }

// Weights of the edge-less problem's priors, per unit of the normalised
// half surface, times the scale s: the pockets' ratio varies between
// boards by about 0.003 (1 mm; measured on the real photos' annotated
// views: 0.936–0.942), each side's rear line by about 0.01 (makers draw it
// a few millimetres off, per side), the rear lines' common ratio more.
const (
	pocketPrior = 0.5
	sideTie     = 0.1
	weakPrior   = 0.02
)

// modelProblem gathers the observations: the measured edges, the rear
// base lines (20 points of each) and the pockets. It fails when fewer
// than four lines and pockets together are measured.
func (d *detector) modelProblem(hn Homography, found [4]bool) (*modelProblem, error) {
	pr := &modelProblem{pockets: d.rep.Pockets, b0: rearCentre(d.g), p0: pocketCentre(d.g), s: localScale(hn, Point{})}
	nLines := 0
	for j := 0; j < 4; j++ {
		if found[j] {
			for _, p := range decimate(d.rep.Sides[j].Samples, 20) {
				pr.obs = append(pr.obs, modelObs{p, j, false})
			}
			nLines++
			pr.nEdge++
		}
		if d.rearPts[j] != nil {
			for _, p := range decimate(d.rearPts[j], 20) {
				pr.obs = append(pr.obs, modelObs{p, j, true})
			}
			nLines++
		}
	}
	nPockets := 0
	for _, c := range pr.pockets {
		if c != nil {
			nPockets++
		}
	}
	if nLines+nPockets < 4 {
		return nil, fmt.Errorf("%d lines and %d pockets are not enough to place the board", nLines, nPockets)
	}
	return pr, nil
}

// start is the initial parameter vector: the homography of the rough
// outline, the rear lines' ratio from their coarse positions (the
// configured one when none was found) and the configured pockets' ratio.
func (pr *modelProblem) start(hn Homography, rearPts [4][]Point, rearV [4]float64) []float64 {
	bInit, nb := 0.0, 0
	for j := 0; j < 4; j++ {
		if rearPts[j] != nil {
			bInit += rearV[j]
			nb++
		}
	}
	if nb > 0 {
		bInit /= float64(nb)
	} else {
		bInit = pr.b0
	}
	n := 10
	if pr.perSide() {
		n = 14
	}
	x := make([]float64, n)
	h := hn.Normalised()
	copy(x, []float64{h[0][0], h[0][1], h[0][2], h[1][0], h[1][1], h[1][2], h[2][0], h[2][1]})
	x[8], x[9] = bInit, pr.p0
	return x
}

// homographyOf is the homography of a parameter vector.
func homographyOf(x []float64) Homography {
	return Homography{{x[0], x[1], x[2]}, {x[3], x[4], x[5]}, {x[6], x[7], 1}}
}

// resid appends to out[:0] the residuals at x: the distance in pixels of
// each observation from its line, each pocket centre's offset (and,
// without two edges, its inset from the corner against its radius), and
// the two priors. It reports false for a degenerate homography.
func (pr *modelProblem) resid(x []float64, out []float64) ([]float64, bool) {
	H := homographyOf(x)
	var edgeL, rearL [4]Line
	for j := 0; j < 4; j++ {
		var err error
		if edgeL[j], err = H.MapLine(unitLine(j, 1)); err != nil {
			return nil, false
		}
		if rearL[j], err = H.MapLine(unitLine(j, rearAt(x, j))); err != nil {
			return nil, false
		}
	}
	out = out[:0]
	for _, o := range pr.obs {
		if o.rear {
			out = append(out, rearL[o.side].Dist(o.p))
		} else {
			out = append(out, edgeL[o.side].Dist(o.p))
		}
	}
	for k, u := range unitSquare() {
		c := pr.pockets[k]
		if c == nil {
			continue
		}
		// A pocket centre (a circle fitted to some 90 rays) counts as
		// much as one point measured on a line.
		pc := H.Apply(u.Scale(x[9]))
		out = append(out, pc.X-c.C.X, pc.Y-c.C.Y)
		if pr.nEdge < 2 {
			// Only without two edges is the scale otherwise unknown.
			corner := H.Apply(u)
			inset := corner.Dist(pc) / math.Sqrt2
			out = append(out, 0.3*(inset-c.R))
		}
	}
	if pr.perSide() {
		out = append(out, weakPrior*pr.s*(x[8]-pr.b0), pocketPrior*pr.s*(x[9]-pr.p0))
		for j := 0; j < 4; j++ {
			out = append(out, sideTie*pr.s*x[10+j])
		}
		return out, true
	}
	out = append(out, weakPrior*pr.s*(x[8]-pr.b0), weakPrior*pr.s*(x[9]-pr.p0))
	return out, true
}

// rearAt is the ratio of side j's rear base line in the parameters x: the
// common ratio, plus the side's own offset in the edge-less problem.
func rearAt(x []float64, j int) float64 {
	if len(x) > 10 {
		return x[8] + x[10+j]
	}
	return x[8]
}

// result checks the fitted parameters and makes the model: the RMS over
// the line observations, a finite regular homography, plausible ratios
// (rear lines at 0.5–0.95, pockets at 0.8–0.99 of the half surface) and a
// residual of at most 3 px.
func (pr *modelProblem) result(x, r []float64) (*ModelFit, error) {
	H := homographyOf(x)
	var ss float64
	for i := range pr.obs {
		ss += r[i] * r[i]
	}
	m := &ModelFit{H: H, RearLine: x[8], Pocket: x[9]}
	for j := range m.RearSides {
		m.RearSides[j] = rearAt(x, j)
	}
	if len(pr.obs) > 0 {
		m.RMS = math.Sqrt(ss / float64(len(pr.obs)))
	}
	if !H.Finite() || math.Abs(H.Det()) < 1e-12 {
		return nil, errors.New("degenerate fit")
	}
	for _, b := range m.RearSides {
		if b < 0.5 || b > 0.95 || x[9] < 0.8 || x[9] > 0.99 {
			return nil, fmt.Errorf("the markings fit an implausible board (rear lines at %.2f, pockets at %.2f of the half surface)", b, x[9])
		}
	}
	if m.RMS > 3 {
		return nil, fmt.Errorf("the edges and markings disagree (residual %.1f px)", m.RMS)
	}
	return m, nil
}

// levenbergMarquardt minimises the sum of squares of resid over x from
// the start given, with a forward-difference Jacobian (steps of 1e-6
// relative; 1e-9 for parameters 6 and 7, the homography's perspective
// terms) and at most 100 iterations of up to 12 damping tries each; it
// stops when a step no longer lowers the cost by more than 1e-10 of it.
// It returns the parameters and their residuals.
func levenbergMarquardt(resid func(x, out []float64) ([]float64, bool), x []float64) ([]float64, []float64, error) {
	n := len(x)
	r, ok := resid(x, nil)
	if !ok {
		return nil, nil, errors.New("degenerate start")
	}
	cost := sumSq(r)
	lambda := 1e-3
	J := make([][]float64, len(r))
	for i := range J {
		J[i] = make([]float64, n)
	}
	rr := make([]float64, 0, len(r))
	for it := 0; it < 100; it++ {
		if err := jacobian(resid, x, r, rr, J); err != nil {
			return nil, nil, err
		}
		A, g := normalEquations(J, r, n)
		improved := false
		for tries := 0; tries < 12; tries++ {
			m := make([][]float64, n)
			rhs := make([]float64, n)
			for a := 0; a < n; a++ {
				m[a] = make([]float64, n)
				copy(m[a], A[a])
				m[a][a] += lambda * (A[a][a] + 1e-12)
				rhs[a] = -g[a]
			}
			dx, err := camera.Solve(m, rhs)
			if err != nil {
				lambda *= 10
				continue
			}
			xn := make([]float64, n)
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
	return x, r, nil
}

// jacobian fills J with the forward differences of resid at x (whose
// residuals are r), using rr as scratch.
func jacobian(resid func(x, out []float64) ([]float64, bool), x, r, rr []float64, J [][]float64) error {
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
			return errors.New("degenerate fit")
		}
		for i := range r {
			J[i][k] = (r2[i] - r[i]) / step
		}
	}
	return nil
}

// normalEquations returns JᵀJ and Jᵀr for n parameters.
func normalEquations(J [][]float64, r []float64, n int) ([][]float64, []float64) {
	A := make([][]float64, n)
	for a := range A {
		A[a] = make([]float64, n)
	}
	g := make([]float64, n)
	for i := range r {
		for a := 0; a < n; a++ {
			g[a] += J[i][a] * r[i]
			for b := 0; b < n; b++ {
				A[a][b] += J[i][a] * J[i][b]
			}
		}
	}
	return A, g
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
