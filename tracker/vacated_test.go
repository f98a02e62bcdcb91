package tracker

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// A stroke is known by what the discs do. With no hand in the picture
// (the player's hand out of view, or not seen as a hand) the striker is
// seen leaving its base line on its own: the stroke, its pocketings and
// its end come out as with the hand in view.
func TestStrokeWithNoHandInView(t *testing.T) {
	for _, file := range []string{"single-pocket.yaml", "striker-pocketed.yaml", "queen-covered.yaml"} {
		t.Run(file, func(t *testing.T) {
			tr, err := sim.RunFile(scenarioPath(t, file), sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 3; seed++ {
				nz := trackertest.Realistic
				nz.Seed, nz.NoHands = seed, true
				r := runTrace(t, tr, nz, Config{})
				st := matchEvents(tr.Events, r.events, strict(tr.FPS))
				for _, typ := range []events.Type{events.StrokeStart, events.Pocketed, events.StrokeEnd} {
					if s := st[typ]; s.fp > 0 || s.fn > 0 {
						t.Errorf("seed %d: %s differ from the truth:\n%s", seed, typ, statsReport(st))
						break
					}
				}
			}
		})
	}
}

// The striker is never seen while it moves (a faint streak at a long
// exposure): the stroke is known from the discs it sets moving.
func TestStrokeWithStrikerNeverSeenMoving(t *testing.T) {
	for _, file := range []string{"single-pocket.yaml", "queen-covered.yaml"} {
		t.Run(file, func(t *testing.T) {
			tr, err := sim.RunFile(scenarioPath(t, file), sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 3; seed++ {
				nz := trackertest.Realistic
				nz.Seed, nz.NoHands, nz.Streak = seed, true, 1000
				r := runTrace(t, tr, nz, Config{})
				st := matchEvents(tr.Events, r.events, strict(tr.FPS))
				for _, typ := range []events.Type{events.StrokeStart, events.Pocketed, events.StrokeEnd} {
					if s := st[typ]; s.fp > 0 || s.fn > 0 {
						t.Errorf("seed %d: %s differ from the truth:\n%s", seed, typ, statsReport(st))
						break
					}
				}
			}
		})
	}
}

// The striker is flicked from a printed circle the detector takes for a
// disc (an unsure queen, every frame) and is too blurred to be seen until
// it slows down, after it struck a man: the circle left behind is not the striker still lying
// there, and the striker is taken up where it is seen again.
func TestStrikerLeavesAPrintedCircle(t *testing.T) {
	tr, err := sim.RunFile(scenarioPath(t, "single-pocket.yaml"), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var start *events.MM
	for _, e := range tr.Events {
		if e.Type == events.StrokeStart {
			start = e.StrikerMM
			break
		}
	}
	if start == nil {
		t.Fatal("no stroke in the scenario")
	}
	for seed := uint64(1); seed <= 3; seed++ {
		nz := trackertest.Realistic
		nz.Seed, nz.NoHands, nz.Streak = seed, true, 300
		// (A second circle at the centre has taken the queen's identity.)
		nz.Markings = []board.Vec{start.Vec(), {}}
		r := runTrace(t, tr, nz, Config{})
		st := matchEvents(tr.Events, r.events, strict(tr.FPS))
		for _, typ := range []events.Type{events.StrokeStart, events.Pocketed, events.StrokeEnd} {
			if s := st[typ]; s.fp > 0 || s.fn > 0 {
				t.Errorf("seed %d: %s differ from the truth:\n%s", seed, typ, statsReport(st))
				break
			}
		}
		// The striker lies where the truth has it at the end.
		var end *events.Event
		for k := range r.events {
			if r.events[k].Type == events.StrokeEnd {
				end = &r.events[k]
			}
		}
		sc := tr.Frame(tr.NumFrames() - 1)
		for _, d := range sc.Discs {
			if d.ID != "S" || end == nil {
				continue
			}
			found := false
			for _, p := range end.Pieces {
				if p.ID == "S" && p.MM.Vec().Dist(d.Pos) < 5 {
					found = true
				}
			}
			if !found {
				t.Errorf("seed %d: the striker is not reported at %v at the end: %+v", seed, d.Pos, end.Pieces)
			}
		}
	}
}

// A printed circle the detector takes for a disc in every frame (a
// fixture) is never where a man lost from sight on its way has gone: a man
// struck toward a pocket, seen once on its way, then lost (too blurred),
// is pocketed, not taken up on a circle beside its way.
func TestLostDiscIgnoresFixtures(t *testing.T) {
	g := board.ICF()
	tk, err := New(Config{Geometry: g})
	if err != nil {
		t.Fatal(err)
	}
	const fps = 60.0
	rest := board.V(235, 14)
	u := g.Pocket(board.NE).C.Sub(rest).Unit()
	const v = 1500.0
	circle := rest.Add(u.Scale(220)).Add(board.V(-u.Y, u.X).Scale(50))
	// The striker, from its base line straight at the man's back.
	start := board.V(0, 253)
	touch := rest.Sub(u.Scale(g.Radius(board.Striker) + g.Radius(board.White)))
	w := touch.Sub(start)
	var got []events.Event
	for i := 0; i < 200; i++ {
		f := sight.Frame{Index: i, T: float64(i) / fps, Calibrated: true}
		det := func(k board.Kind, p board.Vec, cs float64) {
			f.Detections = append(f.Detections, sight.Detection{Kind: k, MM: p, Score: 1, ClassScore: cs})
		}
		switch {
		case i < 90:
			det(board.Striker, start, 0.95)
		case i < 99:
			det(board.Striker, start.Add(w.Scale(float64(i-89)/10)), 0.95)
		default:
			det(board.Striker, touch, 0.95) // it stopped dead
		}
		det(board.Black, board.V(-150, 50), 0.95)
		det(board.Queen, circle, 0.5)
		det(board.Queen, board.Vec{}, 0.5) // the centre circle: taken for the queen
		switch {
		case i <= 99:
			det(board.White, rest, 0.95)
		case i == 100:
			tau := float64(i-99) / fps
			det(board.White, rest.Add(u.Scale(v*tau-tk.cfg.Deceleration*tau*tau/2)), 0.95)
		}
		got = append(got, tk.Update(f).Events...)
	}
	got = append(got, tk.Flush()...)
	pocketed := false
	for _, e := range got {
		if e.Type == events.Pocketed && e.Pocket != nil && *e.Pocket == board.NE && *e.Piece == board.White {
			pocketed = true
		}
	}
	if !pocketed {
		var lines []string
		for _, e := range got {
			lines = append(lines, fmt.Sprint(eventLine(e), e.Pieces))
		}
		t.Errorf("the man was not pocketed NE; events:\n%s", strings.Join(lines, "\n"))
	}
}

// In a stroke, a disc detected surely as another class just beside a disc
// at rest is another disc arriving there, not that disc: the queen knocked
// against a white that is knocked away keeps her identity, and the white
// keeps its own.
func TestArrivingDiscKeepsItsIdentity(t *testing.T) {
	g := board.ICF()
	tk, err := New(Config{Geometry: g})
	if err != nil {
		t.Fatal(err)
	}
	const fps = 30.0
	q0, w0 := board.V(130, 103), board.V(149, 77) // touching
	start := board.V(0, 253)
	hit := q0.Sub(w0.Sub(q0).Unit().Scale(g.Radius(board.Striker) + g.Radius(board.Queen)))
	// The queen, struck toward the white, is seen the next frame almost
	// where the white lay; the white has gone on, fast.
	qv := w0.Sub(q0).Unit().Scale(870)
	wv := w0.Sub(q0).Unit().Scale(1400)
	sv := hit.Sub(start).Unit().Scale(-300) // the striker bounces back slowly
	for i := 0; i < 120; i++ {
		f := sight.Frame{Index: i, T: float64(i) / fps, Calibrated: true}
		det := func(k board.Kind, p board.Vec, cs float64) {
			f.Detections = append(f.Detections, sight.Detection{Kind: k, MM: p, Score: 1, ClassScore: cs})
		}
		det(board.Black, board.V(-150, 50), 0.95)
		const flick, touch = 60, 70
		switch {
		case i < flick:
			det(board.Striker, start, 0.95)
			det(board.Queen, q0, 0.95)
			det(board.White, w0, 0.95)
		case i < touch:
			det(board.Striker, start.Add(hit.Sub(start).Scale(float64(i-flick+1)/float64(touch-flick))), 0.95)
			det(board.Queen, q0, 0.95)
			det(board.White, w0, 0.95)
		default:
			tau := float64(i-touch+1) / fps
			slow := func(v board.Vec) board.Vec {
				sp := v.Len()
				tt := math.Min(tau, sp/tk.cfg.Deceleration)
				return v.Unit().Scale(sp*tt - tk.cfg.Deceleration*tt*tt/2)
			}
			// The striker, bouncing back, is seen as an unsure white.
			det(board.White, hit.Add(slow(sv)), 0.5)
			det(board.Queen, q0.Add(slow(qv)), 0.95)
			det(board.White, w0.Add(slow(wv)), 0.95)
		}
		u := tk.Update(f)
		if i < 70 || i > 90 {
			continue
		}
		// The queen and the white are where their own detections are.
		tau := float64(i-69) / fps
		sp := qv.Len()
		tt := math.Min(tau, sp/tk.cfg.Deceleration)
		q := q0.Add(qv.Unit().Scale(sp*tt - tk.cfg.Deceleration*tt*tt/2))
		for _, p := range u.Pieces {
			if p.ID == "Q" && p.Seen && p.MM.Dist(q) > 5 {
				t.Errorf("frame %d: Q is at %.0f, the queen at %.0f", i, p.MM, q)
			}
		}
	}
}

// A man struck so fast toward the frame that it is seen once on its way
// and never again (in the air, or too blurred) left the board where its
// way crosses the edge: it is reported overboard a frame or two after,
// not taken up later on a detection far behind it (a disc bouncing off
// the cushion would be back in view at once).
func TestFastDiscLostTowardTheFrame(t *testing.T) {
	g := board.ICF()
	tk, err := New(Config{Geometry: g})
	if err != nil {
		t.Fatal(err)
	}
	const fps = 60.0
	man := board.V(0, -150)
	start := board.V(0, 253)
	touch := man.Add(board.V(0, g.Radius(board.Striker)+g.Radius(board.White)))
	var got []events.Event
	var last Update
	for i := 0; i < 200; i++ {
		f := sight.Frame{Index: i, T: float64(i) / fps, Calibrated: true}
		det := func(k board.Kind, p board.Vec, cs float64) {
			f.Detections = append(f.Detections, sight.Detection{Kind: k, MM: p, Score: 1, ClassScore: cs})
		}
		det(board.Black, board.V(-150, 50), 0.95)
		det(board.White, board.V(200, 100), 0.95)
		const flick = 90
		switch {
		case i < flick:
			det(board.Striker, start, 0.95)
		case i < flick+9:
			det(board.Striker, start.Add(touch.Sub(start).Scale(float64(i-flick+1)/10)), 0.95)
		default:
			det(board.Striker, touch, 0.95) // it stopped dead
		}
		switch {
		case i < flick+9:
			det(board.White, man, 0.95)
		case i == flick+10:
			det(board.White, man.Add(board.V(0, -130)), 0.95) // about 5 m/s toward N
		case i >= flick+14:
			// a white seen far behind it, unsure of its class (a man
			// of the pack seen for a moment, a marking)
			det(board.White, man.Add(board.V(40, 160)), 0.4)
		}
		last = tk.Update(f)
		got = append(got, last.Events...)
	}
	got = append(got, tk.Flush()...)
	var over *events.Event
	for k := range got {
		if got[k].Type == events.Overboard {
			over = &got[k]
		}
	}
	if over == nil || over.Piece == nil || *over.Piece != board.White {
		var lines []string
		for _, e := range got {
			lines = append(lines, fmt.Sprint(eventLine(e), e.Pieces))
		}
		t.Fatalf("no white overboard; events:\n%s", strings.Join(lines, "\n"))
	}
	if over.Frame < 101 || over.Frame > 104 {
		t.Errorf("overboard at frame %d, want 101–104 (the way crosses the N edge at about 102)", over.Frame)
	}
	if over.MM == nil || math.Abs(over.MM[0]) > 10 || over.MM[1] > -360 {
		t.Errorf("overboard at %v, want on the N edge at x = 0", over.MM)
	}
}
