package referee_test

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
)

// A striker pocketed is a foul: it counts when the tracker saw it going in.
// A pocketing of the striker the tracker inferred (it lost the striker on
// its way, tracker/fall.go) holds the stroke with the reason, its best
// guess the stroke as reported (v-plain-print-queen at 15 fps: "N qs"
// applied, the truth "N q"); a seen one is applied as before.
func TestStrikerPocketingInferredHeld(t *testing.T) {
	for _, inferred := range []bool{true, false} {
		pk := pocketed(120, "S", board.SW)
		pk.Inferred = inferred
		d := only(t, play(t, midBoard("icf"), false, ev(startAt(100, board.S, 0, baseY)), ev(crossed(104, board.S)), ev(pk), ev(end(140, at("W1", -150, -100)))))
		why := strings.Join(d.Reasons(), "; ")
		if d.Log != "S s" || d.Uncertain() != inferred || inferred && !strings.Contains(why, "the striker was not seen going into SW (frame 120)") {
			t.Errorf("striker pocketing inferred %v: got %q uncertain %v: %s", inferred, d.Log, d.Uncertain(), why)
		}
	}
}
