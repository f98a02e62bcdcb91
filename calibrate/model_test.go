package calibrate

import (
	"math"
	"testing"
)

// syntheticModel is a problem made from a known board view: points on the
// rear base lines at ratio rear, the pockets at ratio pocket (radius r px),
// and the edges of the sides in edges.
func syntheticModel(H Homography, rear, pocket, r float64, edges [4]bool) *modelProblem {
	return syntheticModelSides(H, [4]float64{rear, rear, rear, rear}, pocket, r, edges)
}

// syntheticModelSides is syntheticModel with each side's rear base line
// at its own ratio.
func syntheticModelSides(H Homography, rears [4]float64, pocket, r float64, edges [4]bool) *modelProblem {
	pr := &modelProblem{b0: 0.8, p0: 0.9, s: localScale(H, Point{})}
	for j := 0; j < 4; j++ {
		rear := rears[j]
		for i := 0; i < 20; i++ {
			t := -0.9 + 1.8*float64(i)/19
			u := func(v float64) Point {
				switch j {
				case 0:
					return Pt(t, -v)
				case 1:
					return Pt(v, t)
				case 2:
					return Pt(t, v)
				}
				return Pt(-v, t)
			}
			pr.obs = append(pr.obs, modelObs{H.Apply(u(rear)), j, true})
			if edges[j] {
				pr.obs = append(pr.obs, modelObs{H.Apply(u(1)), j, false})
			}
		}
		if edges[j] {
			pr.nEdge++
		}
	}
	for k, u := range unitSquare() {
		pr.pockets[k] = &Circle{C: H.Apply(u.Scale(pocket)), R: r}
	}
	return pr
}

// TestModelFitRecoversView fits the model to observations made from a known
// view, started from a view 3% too large and shifted, with all edges and
// with one: the corners come back within 0.05 px, and the ratios within
// 0.002. (With no edge the pockets' ratio is held to the configured one:
// TestModelNoEdgeFollowsPockets.)
func TestModelFitRecoversView(t *testing.T) {
	truth := Homography{{300, 12, 640}, {-8, 290, 360}, {1e-5, -2e-5, 1}}
	const rear, pocket = 0.78, 0.91
	// A pocket whose radius is its inset from the corner, as the model
	// assumes.
	inset := truth.Apply(Pt(1, 1)).Dist(truth.Apply(Pt(pocket, pocket))) / math.Sqrt2
	start := Homography{{309, 12, 650}, {-8, 299, 352}, {1e-5, -2e-5, 1}}
	for _, tc := range []struct {
		name  string
		edges [4]bool
	}{
		{"four edges", [4]bool{true, true, true, true}},
		{"one edge", [4]bool{false, true, false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr := syntheticModel(truth, rear, pocket, inset, tc.edges)
			x := pr.start(start, [4][]Point{}, [4]float64{})
			if x[8] != pr.b0 || x[9] != pr.p0 {
				t.Fatalf("start ratios %.3f %.3f, want the configured %.3f %.3f", x[8], x[9], pr.b0, pr.p0)
			}
			x, r, err := levenbergMarquardt(pr.resid, x)
			if err != nil {
				t.Fatal(err)
			}
			m, err := pr.result(x, r)
			if err != nil {
				t.Fatal(err)
			}
			// The priors pull the ratios a little toward 0.8 and 0.9.
			if math.Abs(m.RearLine-rear) > 0.002 || math.Abs(m.Pocket-pocket) > 0.002 {
				t.Errorf("ratios %.4f %.4f, want %.2f %.2f", m.RearLine, m.Pocket, rear, pocket)
			}
			const tol = 0.05
			for _, u := range unitSquare() {
				if d := m.H.Apply(u).Dist(truth.Apply(u)); d > tol {
					t.Errorf("corner %v: %.3f px from the truth", u, d)
				}
			}
		})
	}
}

// TestModelNoEdgeFollowsPockets: with no edge in view the pockets, at the
// board's configured ratio, place the view, and the rear base lines only
// turn it. Rear lines drawn 2% of the half surface inside the configured
// figure (7 mm on an ICF board), and one side's 1% further still (as makers
// draw them), move no corner by more than 0.5 px on this 600 px board (the
// weak tie between the sides); one ratio for the four lines, as with
// edges in view, puts two corners 2.4 px off.
func TestModelNoEdgeFollowsPockets(t *testing.T) {
	truth := Homography{{300, 12, 640}, {-8, 290, 360}, {1e-5, -2e-5, 1}}
	const pocket = 0.9 // the configured ratio
	inset := truth.Apply(Pt(1, 1)).Dist(truth.Apply(Pt(pocket, pocket))) / math.Sqrt2
	start := Homography{{309, 12, 650}, {-8, 299, 352}, {1e-5, -2e-5, 1}}
	for _, rears := range [][4]float64{{0.78, 0.78, 0.78, 0.78}, {0.79, 0.78, 0.78, 0.78}} {
		pr := syntheticModelSides(truth, rears, pocket, inset, [4]bool{})
		x := pr.start(start, [4][]Point{}, [4]float64{})
		if len(x) != 14 {
			t.Fatalf("the edge-less problem has %d parameters, want 14 (a rear line offset per side)", len(x))
		}
		x, r, err := levenbergMarquardt(pr.resid, x)
		if err != nil {
			t.Fatal(err)
		}
		m, err := pr.result(x, r)
		if err != nil {
			t.Fatal(err)
		}
		for j, b := range m.RearSides {
			if math.Abs(b-rears[j]) > 0.002 {
				t.Errorf("rear lines %v: side %d fitted at %.4f", rears, j, b)
			}
		}
		for _, u := range unitSquare() {
			if d := m.H.Apply(u).Dist(truth.Apply(u)); d > 0.5 {
				t.Errorf("rear lines %v: corner %v: %.3f px from the truth", rears, u, d)
			}
		}
	}
}

// TestModelResultRefuses checks the model's plausibility checks.
func TestModelResultRefuses(t *testing.T) {
	pr := &modelProblem{obs: []modelObs{{}, {}}}
	x := []float64{300, 0, 640, 0, 300, 360, 0, 0, 0.8, 0.9}
	if _, err := pr.result(x, []float64{0.5, 0.5}); err != nil {
		t.Errorf("a plausible fit refused: %v", err)
	}
	if _, err := pr.result(x, []float64{4, 4}); err == nil {
		t.Error("a 4 px residual accepted")
	}
	x[8] = 0.4
	if _, err := pr.result(x, []float64{0, 0}); err == nil {
		t.Error("rear lines at 0.4 of the half surface accepted")
	}
	x[8] = 0.8
	x[0], x[1], x[3], x[4] = 0, 0, 0, 0
	if _, err := pr.result(x, []float64{0, 0}); err == nil {
		t.Error("a singular homography accepted")
	}
}

// TestConfidencePinnedByPockets: with no edge in view, four pockets that
// pin the corners count whole in the confidence, so a view whose markings
// fit well can pass; unpinned (or with only three pockets) they count
// half, which keeps the confidence under the default threshold whatever
// the markings.
func TestConfidencePinnedByPockets(t *testing.T) {
	mm := &markingsMeasured{score: 0.9, pockets: [4]bool{true, true, true, true}}
	q := Quality{Method: Auto}
	none := [4]bool{}
	if c := confidence(mm, q, none, true, 0); math.Abs(c-0.9) > 1e-9 || c < DefaultMinConfidence {
		t.Errorf("four pockets pinning: confidence %.3f, want 0.9", c)
	}
	if c := confidence(mm, q, none, false, 0); math.Abs(c-0.45) > 1e-9 || c >= DefaultMinConfidence {
		t.Errorf("four pockets not pinning: confidence %.3f, want 0.45", c)
	}
	mm.pockets[2] = false
	if c := confidence(mm, q, none, true, 0); c >= DefaultMinConfidence {
		t.Errorf("three pockets: confidence %.3f, want under %.2f", c, DefaultMinConfidence)
	}
	// With edges in view the pockets never count whole.
	rms := 0.5
	q.EdgeRMSpx = &rms
	mm.pockets[2] = true
	two := [4]bool{true, true, false, false}
	if a, b := confidence(mm, q, two, true, 0), confidence(mm, q, two, false, 0); a != b {
		t.Errorf("two edges: pinned changes the confidence (%.3f vs %.3f)", a, b)
	}
}
