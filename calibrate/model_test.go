package calibrate

import (
	"math"
	"testing"
)

// syntheticModel is a problem made from a known board view: points on the
// rear base lines at ratio rear, the pockets at ratio pocket (radius r px),
// and the edges of the sides in edges.
func syntheticModel(H Homography, rear, pocket, r float64, edges [4]bool) *modelProblem {
	pr := &modelProblem{b0: 0.8, p0: 0.9, s: localScale(H, Point{})}
	for j := 0; j < 4; j++ {
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
// view, started from a view 3% too large and shifted, with all edges, with
// one and with none: the corners come back within 0.05 px (0.5 px with no
// edge, where the weak pocket insets and the priors on the ratios share the
// scale: 0.3 px on this 600 px board), and the ratios within 0.002.
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
		{"no edge", [4]bool{}},
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
			tol := 0.05
			if tc.edges == [4]bool{} {
				tol = 0.5
			}
			for _, u := range unitSquare() {
				if d := m.H.Apply(u).Dist(truth.Apply(u)); d > tol {
					t.Errorf("corner %v: %.3f px from the truth", u, d)
				}
			}
		})
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
