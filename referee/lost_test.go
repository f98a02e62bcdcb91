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

// The video ends with a man lost from plain view and no stroke after it:
// the tracker says him on a stroke_end with no stroke_start that carries
// only his unaccounted doubt. No stroke was seen, so none is guessed: the
// decision is a stroke with no outcome (nothing to apply), held for the
// umpire, naming him in the tracker's words and the referee's note. A
// stroke_end with no start whose doubts say a stroke fell unseen is still
// taken as that stroke (its best guess the seat whose turn it is).
func TestLostAtEndHeldWithoutOutcome(t *testing.T) {
	e := end(300, at("W1", -150, -100), at("B1", -120, 150), at("S", 100, -178))
	e.Doubts = []events.Doubt{{Kind: events.DoubtUnaccounted, Frames: [2]int{29, 300}, IDs: []string{"W2"},
		Reason: "W2 was last seen at frame 29 at (-250, -200) mm and vanished there from plain view and was not seen again before the video ended, with no stroke after it: whether it is still on the board, was taken off or fell in a stroke that was not seen is not known"}}
	ds := play(t, midBoard("icf"), true, ev(e))
	d := only(t, ds)
	why := strings.Join(d.Reasons(), "; ")
	if !d.Uncertain() || d.Stroke != nil || d.Event() != nil || d.Log != "" || !strings.Contains(why, "W2 was last seen at frame 29") ||
		len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "W2 lost from view with no stroke seen after") {
		t.Errorf("a man lost with no stroke after: want held with no outcome naming W2, got uncertain %v, reasons %q: %s", d.Uncertain(), why, dump(ds))
	}
	e.Doubts = append(e.Doubts, events.Doubt{Kind: events.DoubtStartUnseen, Frames: [2]int{200, 210}, IDs: []string{"W2"},
		Reason: "frames 200–210 were not analysed and no stroke was seen, but the board changed: W2 not found"})
	d = only(t, play(t, midBoard("icf"), true, ev(e)))
	if !d.Uncertain() || d.Stroke == nil || d.Log != "S -" {
		t.Errorf("an unseen stroke: want its best guess S -, got %s", dump([]referee.Decision{d}))
	}
}
