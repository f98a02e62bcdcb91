package tracker

import (
	"github.com/boardcam/boardcam/board"
)

// State is what the tracker believes one identified disc is doing.
type State string

// The states of a tracked disc.
const (
	// Unseen: not seen since tracking began (not on the board, or hidden
	// from the start).
	Unseen State = "unseen"
	// Rest: on the board and not moving.
	Rest State = "rest"
	// Placed: at rest where a hand put it since the last stroke (a due
	// man, the queen returned, a jumped man put back); it becomes Rest
	// when the next stroke starts.
	Placed State = "placed"
	// Moving: on the board and moving (during a stroke, or pushed).
	Moving State = "moving"
	// Occluded: hidden by a hand or arm; MM is where it was last seen and
	// it is still counted on the board. It is never pocketed while
	// occluded.
	Occluded State = "occluded"
	// Pocketed: fell into Pocket.
	Pocketed State = "pocketed"
	// Overboard: left the playing surface other than by a pocket.
	Overboard State = "overboard"
	// Missing: was on the board in plain view but has not been detected
	// for a while; MM is where it was expected. It keeps its identity and
	// is taken up again when seen near there.
	Missing State = "missing"
)

// OnBoard reports whether a disc in this state lies on the board.
func (s State) OnBoard() bool {
	return s == Rest || s == Placed || s == Moving || s == Occluded
}

// atRest reports whether the state is one of the resting states.
func (s State) atRest() bool { return s == Rest || s == Placed }

// Piece is one identified disc as the tracker sees it after a frame.
type Piece struct {
	// ID is the fixed identity: W1…W9, B1…B9, Q or S.
	ID   string     `json:"id"`
	Kind board.Kind `json:"piece"`
	// State says what the disc is doing.
	State State `json:"state"`
	// MM is the centre in board millimetres: the resting place at rest,
	// the estimate (seen or predicted) while moving, where it was last
	// seen while occluded, missing, pocketed or overboard.
	MM board.Vec `json:"mm"`
	// PX is the centre in the original image of the last detection that
	// was matched to the disc (the pipeline replaces it with MM projected
	// through the calibration).
	PX [2]float64 `json:"px"`
	// Vel is the velocity in mm/s (zero at rest).
	Vel board.Vec `json:"vel"`
	// Seen is true when a detection in this frame was matched to the disc.
	Seen bool `json:"seen"`
	// Pocket is set when State is Pocketed.
	Pocket *board.Pocket `json:"pocket,omitempty"`
}
