package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
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
