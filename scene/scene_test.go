package scene

import (
	"testing"

	"github.com/boardcam/boardcam/board"
)

func TestHandFootprint(t *testing.T) {
	h := Hand{Elbow: board.V(0, 500), Wrist: board.V(0, 250), Fingertip: board.V(0, 170), ArmWidth: 70, HandWidth: 90}
	cases := []struct {
		p            board.Vec
		hides, touch bool
	}{
		{board.V(0, 300), true, true},     // under the forearm
		{board.V(0, 200), true, true},     // under the hand
		{board.V(40, 200), false, true},   // at the hand's edge
		{board.V(100, 200), false, false}, // beside it
		{board.V(0, 100), false, false},   // beyond the fingertips
	}
	for _, c := range cases {
		if got := h.Hides(c.p, 16); got != c.hides {
			t.Errorf("Hides(%v) = %v", c.p, got)
		}
		if got := h.Touches(c.p, 16); got != c.touch {
			t.Errorf("Touches(%v) = %v", c.p, got)
		}
	}
	s := Scene{Discs: []Disc{{ID: "Q", Kind: board.Queen, State: Rest}}}
	if d, ok := s.Disc("Q"); !ok || d.Kind != board.Queen {
		t.Error("Disc(Q)")
	}
	if _, ok := s.Disc("S"); ok {
		t.Error("Disc(S) found")
	}
	if !Rest.OnBoard() || Pocketed.OnBoard() || Held.OnBoard() {
		t.Error("OnBoard")
	}
}
