package referee_test

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
)

// A man lost from plain view between strokes (the tracker could not say
// whether he is still on the board) doubts the next stroke: its end
// carries an unaccounted doubt, and the stroke is held for the umpire
// with the reason in the tracker's words, its best guess the stroke as
// seen; never applied.
func TestLostBeforeStrokeHeld(t *testing.T) {
	e := end(120, at("W1", -150, -100), at("B1", -120, 150), at("S", 100, -178))
	e.Doubts = []events.Doubt{{Kind: events.DoubtUnaccounted, Frames: [2]int{29, 150}, IDs: []string{"W2"},
		Reason: "W2 was last seen at frame 29 at (-250, -200) mm and vanished there from plain view before this stroke began and has not been seen since: whether it is still on the board is not known"}}
	d := only(t, play(t, midBoard("icf"), false, ev(startAt(100, board.S, 100, baseY)), ev(e)))
	why := strings.Join(d.Reasons(), "; ")
	if !d.Uncertain() || d.Seat != board.S || d.Log != "S -" || !strings.Contains(why, "W2 was last seen at frame 29") {
		t.Errorf("a man lost before the stroke: uncertain %v, reasons %q: %s", d.Uncertain(), why, dump([]referee.Decision{d}))
	}
}
