package tracker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// strokelessScene is a stroke at 15 fps whose whole flight was not seen
// (the striker missed in flight, no hand in view): only a changed board
// tells it. The striker lies on S's base line (seen there unless
// unseenAtPlace) until frame 40 and is seen again from frame 60, at rest
// at to.
type strokelessScene struct {
	to            board.Vec
	unseenAtPlace bool
	manGone       bool // W1 at (-150, -100) vanishes from plain view at frame 40
	manPushed     bool // W1 is pushed 120 mm by a hand over frames 40–60
	hand          bool // a hand over the striker's place and where it is put, and over W1, frames 35–65
}

func (sc strokelessScene) play(t *testing.T) []events.Event {
	t.Helper()
	g := board.ICF()
	place := board.V(100, g.BaseCircleY())
	man := board.V(-150, -100)
	const fps, gone, back, end = 15.0, 40, 60, 110
	return playFrames(t, end, fps, func(i int, f *sight.Frame) {
		f.Detections = append(f.Detections,
			sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9})
		switch {
		case i < gone && !sc.unseenAtPlace:
			f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: place, Score: 1, ClassScore: 1})
		case i >= back:
			f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: sc.to, Score: 1, ClassScore: 1})
		}
		m := man
		if sc.manPushed && i >= gone {
			m = man.Add(board.V(120*min(1, float64(i-gone)/float64(back-gone)), 0))
		}
		if !(sc.manGone && i >= gone) {
			f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: m, Score: 1, ClassScore: 0.9})
		}
		if sc.hand && i >= gone-5 && i < back+5 {
			f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{
				{Owner: "S", Elbow: board.V(100, 640), Wrist: place, Fingertip: sc.to, ArmWidth: 90, HandWidth: 90, Z: 13},
				{Owner: "W", Elbow: board.V(-640, -100), Wrist: man.Sub(board.V(60, 0)), Fingertip: man.Add(board.V(150, 0)), ArmWidth: 90, HandWidth: 90, Z: 13},
			}}
		}
	})
}

// Rest-to-rest accounting between strokes (strokeless.go). Before it,
// nothing at all was said of these scenes and the turn did not pass. Now
// one stroke_end with no stroke before it says what changed while no
// stroke was seen; the referee holds it as the stroke of the seat to play
// (best guess "S -"). A hand carrying the striker to the same place or
// pushing a man aside, or a striker first seen on a base line, is not a
// stroke: no stroke_end (the man's push is `moved`, as before).
func TestStrokelessChangeHeld(t *testing.T) {
	mid := board.V(150, -100) // off every base line
	movedBy := fmt.Sprintf("S moved %.0f mm", mid.Dist(board.V(100, board.ICF().BaseCircleY())))
	for _, c := range []struct {
		name string
		sc   strokelessScene
		says []string
	}{
		{"the striker alone", strokelessScene{to: mid}, []string{movedBy, "no stroke was seen", "a stroke may have been missed"}},
		{"the striker, and a man gone", strokelessScene{to: mid, manGone: true}, []string{movedBy, "W1 was last seen", "vanished there from plain view while the board changed"}},
		{"the striker never seen before, at rest mid-board", strokelessScene{to: mid, unseenAtPlace: true}, []string{"S, with no place known where it lay before, was seen from frame 60", "off every base line", "a stroke may have been missed"}},
	} {
		evs := c.sc.play(t)
		by := checkedByType(t, c.name, evs)
		for _, e := range append(by[events.StrokeStart], by[events.Moved]...) {
			t.Errorf("%s: unexpected %v", c.name, e)
		}
		ends := by[events.StrokeEnd]
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
	g := board.ICF()
	for _, c := range []struct {
		name  string
		sc    strokelessScene
		moved int
	}{
		{"the striker carried, a man pushed aside, by hand", strokelessScene{to: mid, hand: true, manPushed: true}, 1},
		{"the striker never seen before, first seen on N's base line", strokelessScene{to: board.V(-100, -g.BaseCircleY()), unseenAtPlace: true}, 0},
		{"the striker never seen before, put mid-board by hand", strokelessScene{to: mid, unseenAtPlace: true, hand: true}, 0},
	} {
		evs := c.sc.play(t)
		inTimeOrder(t, evs)
		moved := 0
		for _, e := range evs {
			switch e.Type {
			case events.StrokeStart, events.StrokeEnd:
				t.Errorf("%s: want no stroke, got %v", c.name, e)
			case events.Moved:
				moved++
			}
		}
		if moved != c.moved {
			t.Errorf("%s: %d moved events, want %d: %v", c.name, moved, c.moved, evs)
		}
	}
}
