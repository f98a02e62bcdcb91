package events

import "fmt"

// How an event's position or fact was established. Every position the
// tracker reports is either measured in the frames of the event or
// reconstructed from other evidence (a path, a last place at rest, the
// base-line band); the referee never calls or clears a foul on an inferred
// position.
//
// On an Event, Inferred and SigmaMM describe the event's own fact and its
// main position (StrikerMM for stroke_start, MM for placed, moved and
// overboard, the pocketing itself for pocketed: a piece that vanished near a
// pocket without its fall being seen is an inferred pocketing). On a PieceAt
// they describe that piece's place at rest.
//
// SigmaMM is the standard deviation of the position, in board millimetres,
// as well as the tracker can tell (0: not stated).

// DoubtKind names what the camera could not establish about a stroke.
type DoubtKind string

// The kinds of doubt.
const (
	// DoubtFramesMissing: frames were not analysed (dropped, or the
	// picture lost) while pieces moved.
	DoubtFramesMissing DoubtKind = "frames_missing"
	// DoubtStartUnseen: the board changed between two analysed frames
	// with no stroke seen in between (the whole flight fell in a gap).
	DoubtStartUnseen DoubtKind = "start_unseen"
	// DoubtUnaccounted: at rest, an identity is neither on the board, nor
	// in a pocket, nor overboard as far as the camera can tell.
	DoubtUnaccounted DoubtKind = "unaccounted"
	// DoubtStrikerAmbiguous: two or more discs could be the striker.
	DoubtStrikerAmbiguous DoubtKind = "striker_ambiguous"
	// DoubtViewCovered: the board (or the part of it that matters) was
	// covered too long to follow the pieces.
	DoubtViewCovered DoubtKind = "view_covered"
	// DoubtInferredPosition: a position a foul depends on was inferred,
	// not seen.
	DoubtInferredPosition DoubtKind = "inferred_position"
	// DoubtEndUnseen: the pieces were not seen coming to rest (the video
	// ended, or the next stroke began, during the stroke).
	DoubtEndUnseen DoubtKind = "end_unseen"
)

// DoubtKinds lists every kind of doubt.
var DoubtKinds = []DoubtKind{DoubtFramesMissing, DoubtStartUnseen, DoubtUnaccounted, DoubtStrikerAmbiguous, DoubtViewCovered, DoubtInferredPosition, DoubtEndUnseen}

// Doubt is one thing the camera could not establish about a stroke. A
// stroke_end with doubts is never decided by the camera alone: the referee
// holds it for the umpire with each Reason and its best guess.
type Doubt struct {
	Kind DoubtKind `json:"kind"`
	// Reason says in plain words what was not seen, for the umpire:
	// "frames 512–530 were not analysed while W4 moved towards NE".
	Reason string `json:"reason"`
	// Frames is the first and last video frame concerned (0, 0 when none).
	Frames [2]int `json:"frames,omitempty"`
	// IDs are the identities concerned ("W4", "S").
	IDs []string `json:"ids,omitempty"`
}

// Validate checks that the doubt names a known kind and says why.
func (d Doubt) Validate() error {
	known := false
	for _, k := range DoubtKinds {
		if d.Kind == k {
			known = true
		}
	}
	if !known {
		return fmt.Errorf("events: unknown doubt kind %q", d.Kind)
	}
	if d.Reason == "" {
		return fmt.Errorf("events: %s doubt without a reason", d.Kind)
	}
	return nil
}

// Uncertain reports whether the event, or any piece it lists, rests on
// something the camera did not measure.
func (e Event) Uncertain() bool {
	if e.Inferred || len(e.Doubts) > 0 {
		return true
	}
	for _, p := range e.Pieces {
		if p.Inferred {
			return true
		}
	}
	return false
}
