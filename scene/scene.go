// Package scene is a snapshot of what is physically on and above a carrom
// board at one instant: the discs, where they are and what they are doing,
// and the hands and arms reaching over the board. The simulator produces a
// Scene per video frame, the renderer draws it, and the ground truth of a
// clip records it.
//
// All positions are board millimetres (see package board): origin at the
// centre, x right, y down, S at the bottom.
package scene

import (
	"github.com/boardcam/boardcam/board"
)

// State is what a disc is doing.
type State string

// The disc states.
const (
	// Rest: on the playing surface, not moving.
	Rest State = "rest"
	// Moving: on the playing surface (or in the air over it, Z > 0), moving.
	Moving State = "moving"
	// Held: in a hand above the board (being placed); Pos is where the hand
	// holds it, Z its height.
	Held State = "held"
	// Pocketed: fell into Pocket; no longer on the board.
	Pocketed State = "pocketed"
	// Overboard: left the playing surface other than by a pocket.
	Overboard State = "overboard"
	// Off: not in play (not yet placed, or taken away), never drawn.
	Off State = "off"
)

// OnBoard reports whether a disc in this state lies on (or just above) the
// playing surface and can be seen there.
func (s State) OnBoard() bool { return s == Rest || s == Moving }

// Disc is one carromman, the queen or the striker.
type Disc struct {
	ID   string     `json:"id"` // W1…W9, B1…B9, Q, S (see board.PieceIDs)
	Kind board.Kind `json:"piece"`
	// Pos is the centre in board millimetres.
	Pos board.Vec `json:"pos"`
	// Vel is the velocity in mm/s (zero at rest).
	Vel board.Vec `json:"vel"`
	// Angle is the disc's rotation about its axis, radians (for its texture).
	Angle float64 `json:"angle"`
	// Z is the height of the disc's underside above the surface in mm
	// (zero on the board; positive while jumping or held).
	Z      float64       `json:"z,omitempty"`
	State  State         `json:"state"`
	Pocket *board.Pocket `json:"pocket,omitempty"`
}

// Hand is a player's or umpire's forearm and hand reaching over the board,
// modelled as a tapered capsule from Elbow to Wrist and a rounded hand from
// Wrist to Fingertip, at height Z above the surface. Elbow may lie outside
// the playing surface (the arm comes in over the frame).
type Hand struct {
	Owner     string    `json:"owner"` // e.g. "S" for the player at S, "umpire"
	Elbow     board.Vec `json:"elbow"`
	Wrist     board.Vec `json:"wrist"`
	Fingertip board.Vec `json:"fingertip"`
	// ArmWidth and HandWidth are the widths in mm (about 70 and 85).
	ArmWidth  float64 `json:"arm_width"`
	HandWidth float64 `json:"hand_width"`
	// Z is the hand's height above the surface, mm (0 = resting on it).
	Z float64 `json:"z"`
	// Holding is the ID of the disc the hand holds, if any.
	Holding string `json:"holding,omitempty"`
}

// Scene is everything physical at time T (seconds from the clip's start).
type Scene struct {
	T     float64 `json:"t"`
	Discs []Disc  `json:"discs"`
	Hands []Hand  `json:"hands,omitempty"`
}

// Disc returns the disc with identity id.
func (s *Scene) Disc(id string) (*Disc, bool) {
	for i := range s.Discs {
		if s.Discs[i].ID == id {
			return &s.Discs[i], true
		}
	}
	return nil, false
}

// Depth returns how deep the point p lies inside the hand's footprint as
// seen from directly above, in mm: positive inside (the distance to the
// footprint's edge), negative outside.
func (h Hand) Depth(p board.Vec) float64 {
	arm := h.ArmWidth/2 - (board.Segment{A: h.Elbow, B: h.Wrist}).DistTo(p)
	hand := h.HandWidth/2 - (board.Segment{A: h.Wrist, B: h.Fingertip}).DistTo(p)
	if arm > hand {
		return arm
	}
	return hand
}

// Hides reports whether the hand's footprint covers the whole disc (p, r).
func (h Hand) Hides(p board.Vec, r float64) bool { return h.Depth(p) >= r }

// Touches reports whether the hand's footprint overlaps the disc (p, r) at all.
func (h Hand) Touches(p board.Vec, r float64) bool { return h.Depth(p) > -r }
