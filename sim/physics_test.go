package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
)

// runYAML parses and runs an in-memory scenario.
func runYAML(t testing.TB, src string) *Trace {
	t.Helper()
	tr, err := Run(parseYAML(t, src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// parseYAML parses a scenario given as text.
func parseYAML(t testing.TB, src string) *Scenario {
	t.Helper()
	sc, err := Parse([]byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// travelTime is how long a disc launched at v takes to slide s.
func travelTime(v, s, a float64) float64 { return (v - math.Sqrt(v*v-2*a*s)) / a }

func eventsOf(tr *Trace, typ events.Type) []events.Event {
	var out []events.Event
	for _, e := range tr.Events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func TestCollisionConservesMomentumAndNeverAddsEnergy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, e := range []float64{1, 0.85, 0.3, 0} {
		for k := range 200 {
			ph := DefaultPhysics()
			ph.Restitution = e
			w := newWorld(board.ICF(), ph)
			i, j := idxS, rng.IntN(idxQ+1)
			r := w.rad[i] + w.rad[j]
			ang := rng.Float64() * 2 * math.Pi
			pi := board.V(rng.Float64()*100-50, rng.Float64()*100-50)
			pj := pi.Add(board.V(math.Cos(ang), math.Sin(ang)).Scale(r))
			// i heads into j within ±80° of the line of centres; j may move too.
			head := ang + (rng.Float64()-0.5)*math.Pi*0.9
			vi := board.V(math.Cos(head), math.Sin(head)).Scale(200 + 3000*rng.Float64())
			vj := board.V(rng.Float64()*200-100, rng.Float64()*200-100)
			w.setSlide(i, 0, pi, vi, 0, 0)
			w.setSlide(j, 0, pj, vj, 0, 0)
			mi, mj := w.mass[i], w.mass[j]
			p0 := vi.Scale(mi).Add(vj.Scale(mj))
			ke0 := 0.5*mi*vi.Dot(vi) + 0.5*mj*vj.Dot(vj)
			n := pj.Sub(pi).Unit()
			closing := vi.Sub(vj).Dot(n)
			w.collide(i, j, 0, false)
			ui, uj := w.cur(i).v0, w.cur(j).v0
			p1 := ui.Scale(mi).Add(uj.Scale(mj))
			ke1 := 0.5*mi*ui.Dot(ui) + 0.5*mj*uj.Dot(uj)
			if p1.Dist(p0) > 1e-9*p0.Len()+1e-9 {
				t.Fatalf("e=%v case %d: momentum %v → %v", e, k, p0, p1)
			}
			if ke1 > ke0*(1+1e-12) {
				t.Fatalf("e=%v case %d: kinetic energy rose %v → %v", e, k, ke0, ke1)
			}
			if closing > 0 {
				eff := e
				if closing < slowContact {
					eff *= closing / slowContact
				}
				if sep := uj.Sub(ui).Dot(n); math.Abs(sep-eff*closing) > 1e-9*closing {
					t.Fatalf("e=%v case %d: separating speed %v, want e·closing = %v", e, k, sep, eff*closing)
				}
				if e == 1 && closing >= slowContact && math.Abs(ke1-ke0) > 1e-9*ke0 {
					t.Fatalf("elastic collision lost energy: %v → %v", ke0, ke1)
				}
			}
		}
	}
}

func TestSlideDistanceMatchesFriction(t *testing.T) {
	// The striker flicked straight ahead at v on an empty board.
	for _, v := range []float64{0.5, 0.8, 1.1} { // stops short of the far cushion
		tr := runYAML(t, fmt.Sprintf(`
arrangement: {positions: {Q: [300, 0]}}
timeline:
  - strike: {side: S, at: -100, direction: 0, speed: %v}
`, v))
		start := eventsOf(tr, events.StrokeStart)[0]
		end := eventsOf(tr, events.StrokeEnd)[0]
		s := discOf(tr.At(end.T+1e-6), "S")
		want := tr.Physics.SlideDistance(v * 1000)
		if got := start.StrikerMM.Vec().Dist(s.Pos); math.Abs(got-want) > 1e-6 {
			t.Errorf("v=%v m/s: slid %.6f mm, want v²/2μg = %.6f", v, got, want)
		}
		if got, want := end.T-start.T, v*1000/tr.Physics.Deceleration(); math.Abs(got-want) > 1e-9 {
			t.Errorf("v=%v m/s: stopped after %.9f s, want %.9f", v, got, want)
		}
	}
	// The documented figure: a man struck at 1–2 m/s slides about 0.5–1.5 m.
	ph := DefaultPhysics()
	if d1, d2 := ph.SlideDistance(1000), ph.SlideDistance(2000); d1 < 350 || d1 > 600 || d2 < 1300 || d2 > 1800 {
		t.Errorf("slide distances %.0f mm at 1 m/s, %.0f mm at 2 m/s are outside the documented range", d1, d2)
	}
}

func TestCushionRebound(t *testing.T) {
	tr := runYAML(t, `
arrangement: {positions: {Q: [300, 0]}}
timeline:
  - strike: {side: S, at: -100, direction: 0, speed: 2}
`)
	cs := eventsOf(tr, events.Contact)
	if len(cs) == 0 || cs[0].A != "S" || cs[0].B != events.Frame {
		t.Fatalf("want the striker to hit the far cushion first, got %+v", cs)
	}
	c := cs[0]
	before := discOf(tr.At(c.T-1e-7), "S")
	after := discOf(tr.At(c.T+1e-7), "S")
	if before.Vel.Y >= 0 || after.Vel.Y <= 0 {
		t.Fatalf("velocity %v → %v does not reverse", before.Vel, after.Vel)
	}
	if ratio := -after.Vel.Y / before.Vel.Y; math.Abs(ratio-tr.Physics.CushionRestitution) > 1e-4 {
		t.Errorf("rebound ratio %.5f, want %.2f", ratio, tr.Physics.CushionRestitution)
	}
	if y := c.AMM.Vec().Y; math.Abs(y-(-tr.Geometry.Half()+tr.Geometry.StrikerDiameter/2)) > 1e-6 {
		t.Errorf("striker touched the cushion at y=%v", y)
	}
}

func TestFastStrikerNeverTunnels(t *testing.T) {
	// 10 m/s with the longest sub-step allowed (20 ms: 200 mm a step, far
	// more than a man's width): the contact must still happen, exactly
	// when the straight-line motion says.
	tr := runYAML(t, `
physics: {max_step: 0.02}
arrangement: {positions: {W1: [0, 100]}}
timeline:
  - strike: {side: S, at: 0, direction: 0, speed: 10}
`)
	cs := eventsOf(tr, events.Contact)
	if len(cs) == 0 || cs[0].A != "S" || cs[0].B != "W1" {
		t.Fatalf("the striker passed through W1: contacts %+v", cs)
	}
	start := eventsOf(tr, events.StrokeStart)[0]
	g := tr.Geometry
	gap := start.StrikerMM.Vec().Y - 100 - g.StrikerDiameter/2 - g.ManDiameter/2
	want := start.T + travelTime(10000, gap, tr.Physics.Deceleration())
	if math.Abs(cs[0].T-want) > 1e-9 {
		t.Errorf("contact at %.12f, want %.12f", cs[0].T, want)
	}
}

func TestFirstEntryAgainstSampling(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	hits := 0
	for k := range 10000 {
		R := 30 + 10*rng.Float64()
		h := 0.002
		a0 := rng.Float64() * 2 * math.Pi
		d0 := board.V(math.Cos(a0), math.Sin(a0)).Scale(R + 12*rng.Float64())
		w := board.V(rng.Float64()*12000-6000, rng.Float64()*12000-6000)
		c := board.V(rng.Float64()*4000-2000, rng.Float64()*4000-2000)
		f := func(t float64) float64 {
			d := d0.Add(w.Scale(t)).Add(c.Scale(0.5 * t * t))
			return d.Len() - R
		}
		if f(0) <= 1e-6 {
			continue
		}
		// Brute force: the first sample inside.
		first := -1.0
		const n = 5000
		for s := 0; s <= n; s++ {
			if tt := h * float64(s) / n; f(tt) < 0 {
				first = tt
				break
			}
		}
		tau, ok := firstEntry(d0, w, c, R, h, false)
		if first >= 0 && f(first) < -1e-4 {
			hits++
			if !ok {
				t.Fatalf("case %d: missed an entry at %v (depth %v)", k, first, f(first))
			}
			if tau > first || first-tau > h/n+1e-12 {
				t.Fatalf("case %d: entry at %v, sampling says %v", k, tau, first)
			}
		}
		if ok {
			if v := f(tau); v < -1e-9 || v > 1e-6 {
				t.Fatalf("case %d: at the reported entry the gap is %v", k, v)
			}
		}
	}
	if hits < 1000 {
		t.Fatalf("only %d entries exercised", hits)
	}
}

// discOf returns disc id of a scene.
func discOf(s scene.Scene, id string) scene.Disc {
	d, _ := s.Disc(id)
	return *d
}

// kinetic energy of the discs on the surface (mm²/s² · g).
func kinetic(s scene.Scene, g *board.Geometry) float64 {
	e := 0.0
	for _, d := range s.Discs {
		if d.State == scene.Moving && d.Z == 0 {
			e += 0.5 * g.Mass(d.Kind) * d.Vel.Dot(d.Vel)
		}
	}
	return e
}

// autoBoard is a whole automatic board, shared by the invariant tests.
func autoBoard(t testing.TB, seed int) *Trace {
	t.Helper()
	return runYAML(t, fmt.Sprintf(`
seed: %d
timeline:
  - autoplay: {until: board_end}
`, seed))
}

func TestKineticEnergyNeverIncreasesDuringAStroke(t *testing.T) {
	tr := autoBoard(t, 11)
	for _, st := range tr.Strokes {
		prev := math.Inf(1)
		for tt := st.Start + 1e-9; tt <= st.End; tt += 2.5e-4 {
			ke := kinetic(tr.At(tt), tr.Geometry)
			if ke > prev*(1+1e-9)+1e-9 {
				t.Fatalf("stroke %d: kinetic energy rose from %v to %v at t=%.6f", st.Number, prev, ke, tt)
			}
			prev = ke
		}
		if ke := kinetic(tr.At(st.End+1e-9), tr.Geometry); ke != 0 {
			t.Fatalf("stroke %d: energy %v left after stroke_end", st.Number, ke)
		}
	}
}

func TestNoOverlapsAndDiscsStayOnTheSurface(t *testing.T) {
	tr := autoBoard(t, 12)
	g := tr.Geometry
	var times []float64
	for _, st := range tr.Strokes {
		for tt := st.Start; tt <= st.End+0.01; tt += 1e-3 {
			times = append(times, tt)
		}
	}
	for _, e := range tr.Events {
		times = append(times, e.T, e.T+1e-9)
	}
	worst := 0.0
	for _, tt := range times {
		s := tr.At(tt)
		for i, a := range s.Discs {
			if !a.State.OnBoard() || a.Z > 0 {
				continue
			}
			ra := g.Radius(a.Kind)
			if math.Abs(a.Pos.X) > g.Half()-ra+1e-6 || math.Abs(a.Pos.Y) > g.Half()-ra+1e-6 {
				t.Fatalf("t=%.6f: %s at %v is beyond the cushion", tt, a.ID, a.Pos)
			}
			for _, b := range s.Discs[i+1:] {
				if !b.State.OnBoard() || b.Z > 0 {
					continue
				}
				ov := ra + g.Radius(b.Kind) - a.Pos.Dist(b.Pos)
				worst = math.Max(worst, ov)
				if ov > 1e-3 {
					t.Fatalf("t=%.6f: %s and %s overlap by %.6f mm", tt, a.ID, b.ID, ov)
				}
			}
		}
	}
	t.Logf("deepest overlap seen: %.2e mm", worst)
}

func TestDeterministicTrace(t *testing.T) {
	a, b := autoBoard(t, 21), autoBoard(t, 21)
	if ha, hb := a.Hash(), b.Hash(); ha != hb {
		t.Fatalf("same scenario and seed, different traces: %s vs %s", ha, hb)
	}
	if c := autoBoard(t, 22); c.Hash() == a.Hash() {
		t.Fatalf("a different seed gave the same trace")
	}
}
