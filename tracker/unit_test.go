package tracker

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// The assignment is optimal: it agrees with brute force on random gated
// problems, including unmatched rows and columns.
func TestAssignerOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s assigner
	for trial := 0; trial < 300; trial++ {
		n, m := 1+rng.IntN(5), 1+rng.IntN(5)
		s.reset(n, m)
		cost := make([][]float64, n)
		for i := range cost {
			cost[i] = make([]float64, m)
			for j := range cost[i] {
				cost[i][j] = math.Inf(1)
				if rng.Float64() < 0.7 {
					cost[i][j] = 3 * rng.Float64()
					s.set(i, j, cost[i][j])
				}
			}
		}
		missT, missD := make([]float64, n), make([]float64, m)
		for i := range missT {
			missT[i] = 1
		}
		for j := range missD {
			missD[j] = 1
		}
		got := s.solve(missT, missD)
		total := func(a []int) float64 {
			c, used := 0.0, make([]bool, m)
			for i, j := range a {
				if j < 0 {
					c += 1
					continue
				}
				c += cost[i][j]
				used[j] = true
			}
			for j := range used {
				if !used[j] {
					c += 1
				}
			}
			return c
		}
		best := math.Inf(1)
		var rec func(i int, a []int, used []bool)
		rec = func(i int, a []int, used []bool) {
			if i == n {
				best = math.Min(best, total(a))
				return
			}
			a[i] = -1
			rec(i+1, a, used)
			for j := 0; j < m; j++ {
				if !used[j] && !math.IsInf(cost[i][j], 1) {
					used[j], a[i] = true, j
					rec(i+1, a, used)
					used[j] = false
				}
			}
			a[i] = -1
		}
		rec(0, make([]int, n), make([]bool, m))
		for i, j := range got {
			if j >= 0 && math.IsInf(cost[i][j], 1) {
				t.Fatalf("trial %d: a forbidden pair %d-%d", trial, i, j)
			}
		}
		if g := total(got); math.Abs(g-best) > 1e-9 {
			t.Fatalf("trial %d (%dx%d): cost %.4f, the optimum is %.4f", trial, n, m, g, best)
		}
	}
}

// The slide fit recovers a slide with friction from noisy detections, and
// the model stops where friction stops the disc.
func TestSlideFit(t *testing.T) {
	m := motion{decel: 1177}
	p0, v0 := board.V(-100, 200), board.V(900, -1400)
	truth := seg{t0: 1, p0: p0, v0: v0, known: true}
	rng := rand.New(rand.NewPCG(3, 4))
	var h []obs
	for k := 0; k < 8; k++ {
		tt := 1 + float64(k)/30
		p := m.at(&truth, tt).Add(board.V(rng.NormFloat64()*0.8, rng.NormFloat64()*0.8))
		h = append(h, obs{t: tt, p: p, sigma: 0.8})
	}
	s := seg{first: 0, n: len(h)}
	m.fit(&s, h, board.Vec{})
	if d := m.at(&s, 1).Dist(p0); d > 2 {
		t.Errorf("start off by %.2f mm", d)
	}
	if d := s.v0.Dist(v0); d > 60 {
		t.Errorf("velocity %v, want %v", s.v0, v0)
	}
	if d := math.Abs(m.stopTime(&s) - m.stopTime(&truth)); d > 0.05 {
		t.Errorf("stop time off by %.3f s", d)
	}
	far := m.at(&truth, 10)
	if want := p0.Add(v0.Unit().Scale(v0.Len() * v0.Len() / (2 * 1177))); far.Dist(want) > 1e-6 {
		t.Errorf("the slide ends at %v, want %v", far, want)
	}
	// A slide into a pocket mouth is seen going in; one along the middle
	// reflects off the cushions.
	g := board.ICF()
	pk := m.slide(g, board.V(200, 200), board.V(1500, 1500), 15.9, 1)
	if !pk.pocketed || pk.pocket != board.SE {
		t.Errorf("a slide toward SE: %+v", pk)
	}
	bounce := m.slide(g, board.V(0, 300), board.V(0, 1500), 15.9, 0.3)
	if bounce.pocketed || bounce.cushion != 1 || bounce.v.Y >= 0 {
		t.Errorf("a slide into the S cushion: %+v", bounce)
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{NoiseMM: -1}, "noise_mm"},
		{Config{OccludedFraction: 1.5}, "occluded_fraction"},
		{Config{RestMM: 20}, "rest_mm"},
		{Config{Breaker: 7}, "breaker"},
	} {
		if _, err := New(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error about %s", c.cfg, err, c.want)
		}
	}
}

// The identity-switch count of the tests must be able to fail: a tracker
// that swaps two discs at rest is caught.
func TestSwitchCheckCatchesSwaps(t *testing.T) {
	sc := scene.Scene{Discs: []scene.Disc{
		{ID: "W1", Kind: board.White, Pos: board.V(0, 0), State: scene.Rest},
		{ID: "W2", Kind: board.White, Pos: board.V(100, 0), State: scene.Rest},
	}}
	ps := []Piece{
		{ID: "W1", Kind: board.White, State: Rest, MM: board.V(0, 0), Seen: true},
		{ID: "W2", Kind: board.White, State: Rest, MM: board.V(100, 0), Seen: true},
	}
	r := &run{}
	r.checkIDs(ps, sc)
	r.checkIDs(ps, sc)
	if r.switches != 0 {
		t.Fatalf("%d switches with steady identities", r.switches)
	}
	ps[0].MM, ps[1].MM = ps[1].MM, ps[0].MM
	r.checkIDs(ps, sc)
	if r.switches != 2 {
		t.Errorf("%d switches counted for a swap of two discs at rest, want 2", r.switches)
	}
}
