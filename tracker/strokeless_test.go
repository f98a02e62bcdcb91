package tracker

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// A stroke whose whole flight was not seen (15 fps, the striker missed at
// its place and in flight, no hand in view) leaves only a changed board:
// the striker at rest 500 mm from where it lay, and, in one case, a man
// gone from plain view by a pocket. Before strokeless.go nothing at all
// was said and the turn did not pass. Now one stroke_end with no stroke
// before it says what moved while no stroke was seen; the referee holds it
// as the stroke of the seat to play (best guess "S -"). A hand carrying the
// striker to the same place, or pushing a man aside, is not a stroke: no
// stroke_end (the man's push is `moved`, as before).
func TestStrokelessChangeHeld(t *testing.T) {
	g := board.ICF()
	place := board.V(100, g.BaseCircleY())
	to := board.V(150, -250)
	man := board.V(-150, -100)
	const fps, gone, back, end = 15.0, 40, 60, 110
	play := func(hand, manGone, manPushed bool) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9})
			switch {
			case i < gone:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: place, Score: 1, ClassScore: 1})
			case i >= back:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: to, Score: 1, ClassScore: 1})
			}
			m := man
			if manPushed && i >= gone {
				m = man.Add(board.V(120*min(1, float64(i-gone)/float64(back-gone)), 0))
			}
			if !(manGone && i >= gone) {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: m, Score: 1, ClassScore: 0.9})
			}
			if hand && i >= gone-5 && i < back+5 {
				// A hand over the striker's place and where it is put,
				// over the man too.
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{
					{Owner: "S", Elbow: board.V(100, 640), Wrist: place, Fingertip: to, ArmWidth: 90, HandWidth: 90, Z: 13},
					{Owner: "W", Elbow: board.V(-640, -100), Wrist: man.Sub(board.V(60, 0)), Fingertip: man.Add(board.V(150, 0)), ArmWidth: 90, HandWidth: 90, Z: 13},
				}}
			}
		})
	}
	for _, c := range []struct {
		name    string
		manGone bool
		says    []string
	}{
		{"the striker alone", false, []string{"S moved 499 mm", "no stroke was seen", "a stroke may have been missed"}},
		{"the striker, and a man gone", true, []string{"S moved 499 mm", "W1 was last seen", "vanished there from plain view while the board changed"}},
	} {
		evs := play(false, c.manGone, false)
		inTimeOrder(t, evs)
		var ends []events.Event
		for _, e := range evs {
			if err := e.Validate(); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			switch e.Type {
			case events.StrokeStart, events.Moved:
				t.Errorf("%s: unexpected %v", c.name, e)
			case events.StrokeEnd:
				ends = append(ends, e)
			}
		}
		if len(ends) != 1 {
			t.Errorf("%s: %d stroke ends, want one: %v", c.name, len(ends), evs)
			continue
		}
		var reasons []string
		for _, d := range ends[0].Doubts {
			reasons = append(reasons, d.Reason)
		}
		all := strings.Join(reasons, "; ")
		for _, w := range c.says {
			if !strings.Contains(all, w) {
				t.Errorf("%s: doubts %q: want %q said", c.name, all, w)
			}
		}
		ds := refereeStrokes(t, evs)
		if len(ds) != 1 {
			t.Errorf("%s: %d stroke decisions, want one", c.name, len(ds))
			continue
		}
		if d := ds[0]; !d.Uncertain() || d.Seat != board.S || !strings.HasPrefix(d.Log, "S -") {
			t.Errorf("%s: decision held %v, seat %v, log %q: want held, S, \"S -\"", c.name, d.Uncertain(), d.Seat, d.Log)
		}
	}
	// Hands: the striker carried, a man pushed aside. No stroke_end.
	evs := play(true, false, true)
	inTimeOrder(t, evs)
	moved := 0
	for _, e := range evs {
		switch e.Type {
		case events.StrokeStart, events.StrokeEnd:
			t.Errorf("carried by hand: want no stroke, got %v", e)
		case events.Moved:
			moved++
		}
	}
	if moved != 1 {
		t.Errorf("carried by hand: %d moved events, want the man's: %v", moved, evs)
	}
}
