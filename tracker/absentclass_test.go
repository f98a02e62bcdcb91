package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// Under strong glare the white striker reads as the queen (class 0.68 to
// 0.99, h08) while the queen is off the board (covered). Just after it
// struck W1 it is off its old line, a few millimetres from where it
// should be: in flight, close to where the striker must be, a detection
// of a class no disc on the board has is the striker's. The old code left
// the striker's identity without sightings; it took W1's streaks on its
// line instead, and one of the two identities slid on into NW.
func TestStrikerSeenAsAbsentClass(t *testing.T) {
	evs := strikeW1(t, false, "queen")
	by := checkedByType(t, "", evs)
	if len(by[events.Pocketed]) != 0 || len(by[events.StrokeEnd]) != 1 {
		t.Fatalf("want one stroke_end and nothing pocketed, got %v", evs)
	}
	e := by[events.StrokeEnd][0]
	if len(e.Doubts) != 0 {
		t.Errorf("doubts: %v", e.Doubts)
	}
	// Where they stop: W1 40 mm short of NW's mouth, the striker 112 mm
	// from the contact on its slant.
	g := board.ICF()
	k := g.Pocket(board.NW)
	w1 := board.V(-160, -60)
	w := k.C.Sub(w1).Unit()
	contact := w1.Sub(w.Scale(g.Radius(board.Striker) + g.Radius(board.White)))
	u := contact.Sub(board.V(42, g.BaseCircleY())).Unit()
	want := map[string]board.Vec{"W1": k.C.Sub(w.Scale(k.R + 40)), "S": contact.Add(u.Add(w.Scale(-0.6)).Unit().Scale(450 * 450 / 900.0 / 2))}
	for _, p := range e.Pieces {
		if q, ok := want[p.ID]; ok {
			if d := p.MM.Vec().Dist(q); d > 3 {
				t.Errorf("%s at rest at %v, %.1f mm from where it stopped %v", p.ID, p.MM, d, q)
			}
			delete(want, p.ID)
		}
	}
	if len(want) > 0 {
		t.Errorf("not at rest at the end: %v (%v)", want, e.Pieces)
	}
}
