package referee_test

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// A moved man measured only beside a hand (the tracker's SigmaMM, see
// tracker/touch.go): a move within twice that may be the camera's, and
// the touched-piece call is offered to the umpire, not applied; a larger
// one, or one measured again in plain view (no SigmaMM), is applied.
func TestFoulTouchedPieceBesideHand(t *testing.T) {
	for _, c := range []struct {
		name   string
		to     [2]float64
		sigma  float64
		status referee.Status
	}{
		{"2.9 mm beside a hand", [2]float64{-117.5, 41.5}, 3, referee.Offered},
		{"2.9 mm measured again in plain view", [2]float64{-117.5, 41.5}, 0, referee.Applied},
		{"8 mm beside a hand", [2]float64{-112, 40}, 3, referee.Applied},
	} {
		r, err := referee.New(referee.DefaultConfig(profile(t, "icf")))
		if err != nil {
			t.Fatal(err)
		}
		st := midBoard("icf")
		if _, err := r.Observe(end(1, at("W1", -120, 40), at("B1", 100, -80)), st); err != nil {
			t.Fatal(err)
		}
		mm := events.MM(c.to)
		ds, err := r.Observe(events.Event{Type: events.Moved, Frame: 120, T: 2, Piece: events.KindPtr(board.White), ID: "W1", MM: &mm, SigmaMM: c.sigma}, st)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != 1 || ds[0].Kind != referee.KindFoul {
			t.Fatalf("%s: decisions:\n%s", c.name, dump(ds))
		}
		call := findCall(t, ds[0], rules.FoulTouchedPiece)
		if call.Status != c.status {
			t.Errorf("%s: %s, want %s: %+v", c.name, call.Status, c.status, call)
		}
		if said := strings.Contains(call.Reason, "offered to the umpire, not applied"); said != (c.status == referee.Offered) {
			t.Errorf("%s: reason %q", c.name, call.Reason)
		}
	}
}
