package foul

import (
	"fmt"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// What the camera could not establish is raised as a doubt
// (events.Doubt) by the tracker and by the referee. Each kind is described
// here once: what it means, who raises it, and the words of its reason,
// so that a doubt reads the same wherever it is raised.

// DoubtDesc describes one kind of doubt.
type DoubtDesc struct {
	Kind events.DoubtKind
	// Summary says what the camera could not establish, for the umpire.
	Summary string
	// RaisedBy names who raises it: "tracker", "referee" or both.
	RaisedBy string
}

// DoubtDescs describes every kind of doubt, in the order of
// events.DoubtKinds.
var DoubtDescs = []DoubtDesc{
	{events.DoubtFramesMissing, "frames were not analysed while pieces moved", "tracker, referee (the daemon's gaps)"},
	{events.DoubtStartUnseen, "the board changed between two analysed frames with no stroke seen", "tracker"},
	{events.DoubtUnaccounted, "a piece is neither on the board, nor in a pocket, nor overboard", "tracker"},
	{events.DoubtStrikerAmbiguous, "two discs could be the striker", "tracker"},
	{events.DoubtViewCovered, "the board was covered too long to follow a piece", "tracker"},
	{events.DoubtInferredPosition, "a position a foul depends on was inferred, not seen", "referee"},
	{events.DoubtEndUnseen, "the pieces were not seen coming to rest", "referee"},
}

// Unaccounted is the doubt on a piece last seen at frame at the place
// at, which is now neither on the board, nor in a pocket, nor overboard;
// why ends the sentence with what was seen since ("is not there now, nor
// seen to leave"); now is the current frame.
func Unaccounted(id string, frame, now int, at board.Vec, why string) events.Doubt {
	return events.Doubt{Kind: events.DoubtUnaccounted,
		Reason: fmt.Sprintf("%s was last seen at frame %d at (%.0f, %.0f) mm and %s", id, frame, at.X, at.Y, why),
		Frames: [2]int{frame, now}, IDs: []string{id}}
}

// NotOnBoard is why a piece is unaccounted for at the end of a stroke:
// the words [Unaccounted] takes when nothing more was seen.
const NotOnBoard = "is not on the board, nor seen to leave it"

// Inferred is the doubt on a fact the tracker inferred (what, as seen in
// event e) that a foul check depends on.
func Inferred(what string, e events.Event, ids ...string) events.Doubt {
	d := events.Doubt{Kind: events.DoubtInferredPosition, Frames: [2]int{e.Frame, e.Frame}, IDs: ids}
	sigma := ""
	if e.SigmaMM > 0 {
		sigma = fmt.Sprintf(" (±%.0f mm)", e.SigmaMM)
	}
	d.Reason = fmt.Sprintf("%s (frame %d) was inferred%s, not seen: the camera neither calls nor clears a foul on it", what, e.Frame, sigma)
	return d
}
