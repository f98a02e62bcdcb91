// Package events is the vocabulary of physical events on a carrom board: what
// the tracker sees and what the simulator records as ground truth. The
// referee turns these into fouls and stroke outcomes; the evaluation harness
// compares the tracker's events with the simulator's.
//
// Each event marshals to one JSON object, the line format of
// `boardcam analyze --json`:
//
//	{"type":"calibrated","frame":0,"t":0,"corners_px":[[x,y],[x,y],[x,y],[x,y]]}
//	{"type":"stroke_start","frame":41,"t":1.367,"side":"S","striker_mm":[12.5,246.1]}
//	{"type":"contact","frame":47,"t":1.567,"a":"S","b":"W3","a_mm":[..],"b_mm":[..]}
//	{"type":"front_line_crossed","frame":44,"t":1.467,"side":"S"}
//	{"type":"pocketed","frame":60,"t":2.0,"piece":"white","id":"W3","pocket":"NE"}
//	{"type":"overboard","frame":61,"t":2.033,"piece":"black","id":"B2","mm":[..]}
//	{"type":"stroke_end","frame":90,"t":3.0,"pieces":[{"piece":"white","id":"W1","mm":[x,y]},…]}
//	{"type":"placed","frame":120,"t":4.0,"piece":"black","id":"B2","mm":[x,y]}
//
// Board millimetres: origin at the centre, x right, y down, S at the bottom.
package events

import (
	"encoding/json"
	"fmt"

	"github.com/boardcam/boardcam/board"
)

// Type names an event.
type Type string

// The event types.
const (
	// Calibrated: the board was found; CornersPx holds the playing-surface
	// corners (top-left, top-right, bottom-right, bottom-left) in pixels.
	Calibrated Type = "calibrated"
	// Recalibrated: the camera or board moved and was found again.
	Recalibrated Type = "recalibrated"
	// StrokeStart: the striker left its placement; Side and StrikerMM say
	// where it stood at the moment of the strike.
	StrokeStart Type = "stroke_start"
	// FrontLineCrossed: the whole striker passed its side's front base line.
	FrontLineCrossed Type = "front_line_crossed"
	// Contact: discs A and B touched (B may be "frame" for a cushion).
	Contact Type = "contact"
	// Pocketed: a disc fell into Pocket.
	Pocketed Type = "pocketed"
	// Overboard: a disc left the playing surface other than by a pocket.
	Overboard Type = "overboard"
	// StrokeEnd: everything came to rest; Pieces lists what is on the board.
	StrokeEnd Type = "stroke_end"
	// Placed: a disc appeared on the board between strokes (a due man, the
	// queen returned, a jumped man put back).
	Placed Type = "placed"
	// Moved: a disc at rest moved outside a stroke (touched by a hand);
	// MM is its new position, Side (when known) the seat of the hand.
	Moved Type = "moved"
	// ArmOverFoulLine: during a stroke the player's hand or arm crossed the
	// diagonal foul lines of its side.
	ArmOverFoulLine Type = "arm_over_foul_line"
)

// Types lists every event type.
var Types = []Type{Calibrated, Recalibrated, StrokeStart, FrontLineCrossed, Contact, Pocketed, Overboard, StrokeEnd, Placed, Moved, ArmOverFoulLine}

// Frame is the identity used in contacts for the board's frame (cushions).
const Frame = "frame"

// MM is a point in board millimetres, marshalled as [x, y].
type MM [2]float64

// Vec converts to a board vector.
func (m MM) Vec() board.Vec { return board.Vec{X: m[0], Y: m[1]} }

// FromVec converts a board vector.
func FromVec(v board.Vec) MM { return MM{v.X, v.Y} }

// PieceAt is one disc and where it rests.
type PieceAt struct {
	Piece board.Kind `json:"piece"`
	ID    string     `json:"id,omitempty"`
	MM    MM         `json:"mm"`
	// Inferred: the place was not measured at rest (see doubt.go);
	// SigmaMM its uncertainty in mm (0: not stated).
	Inferred bool    `json:"inferred,omitempty"`
	SigmaMM  float64 `json:"sigma_mm,omitempty"`
}

// Event is one physical event. Fields that do not apply to the Type are left
// zero and omitted from JSON.
type Event struct {
	Type  Type    `json:"type"`
	Frame int     `json:"frame"`
	T     float64 `json:"t"`

	CornersPx [][2]float64 `json:"corners_px,omitempty"`
	// Markings and Set, on calibrated and recalibrated events: this
	// board's markings as calibration measured them (the referee judges
	// against them) and the set of pieces (their sizes), when known.
	Markings *board.Markings `json:"markings,omitempty"`
	Set      *board.Set      `json:"set,omitempty"`

	Side      *board.Side `json:"side,omitempty"`
	StrikerMM *MM         `json:"striker_mm,omitempty"`

	A   string `json:"a,omitempty"`
	B   string `json:"b,omitempty"`
	AMM *MM    `json:"a_mm,omitempty"`
	BMM *MM    `json:"b_mm,omitempty"`

	Piece  *board.Kind   `json:"piece,omitempty"`
	ID     string        `json:"id,omitempty"`
	Pocket *board.Pocket `json:"pocket,omitempty"`
	MM     *MM           `json:"mm,omitempty"`

	Pieces []PieceAt `json:"pieces,omitempty"`

	// Part says, for ArmOverFoulLine, what crossed the foul line: PartHand
	// or PartArm ("" when the tracker cannot tell). MM, when set on such an
	// event, is the point of the hand or arm furthest beyond the line.
	Part string `json:"part,omitempty"`

	// Inferred marks the event's fact or main position as reconstructed,
	// not measured; SigmaMM is that position's uncertainty in mm (0: not
	// stated). See doubt.go.
	Inferred bool    `json:"inferred,omitempty"`
	SigmaMM  float64 `json:"sigma_mm,omitempty"`

	// Doubts, on a stroke_end, list what the camera could not establish
	// about the stroke; the referee holds such a stroke for the umpire.
	// On a moved event they say why the move itself is not sure (the
	// disc was lost from sight before it came back there); the referee
	// holds what it makes of it.
	Doubts []Doubt `json:"doubts,omitempty"`
}

// What crossed the foul line in an ArmOverFoulLine event (Event.Part).
const (
	PartHand = "hand" // the hand, from the fingers up to the wrist
	PartArm  = "arm"  // the forearm or elbow
)

// Validate checks that the event carries the fields its type needs.
func (e Event) Validate() error {
	need := func(ok bool, what string) error {
		if !ok {
			return fmt.Errorf("events: %s event at frame %d has no %s", e.Type, e.Frame, what)
		}
		return nil
	}
	switch e.Type {
	case Calibrated, Recalibrated:
		if e.Markings != nil {
			if err := e.Markings.Validate(); err != nil {
				return fmt.Errorf("events: %s event at frame %d: markings: %w", e.Type, e.Frame, err)
			}
		}
		if e.Set != nil {
			if err := e.Set.Validate(); err != nil {
				return fmt.Errorf("events: %s event at frame %d: set: %w", e.Type, e.Frame, err)
			}
		}
		return need(len(e.CornersPx) == 4, "corners_px (4 corners)")
	case StrokeStart:
		if err := need(e.Side != nil, "side"); err != nil {
			return err
		}
		return need(e.StrikerMM != nil, "striker_mm")
	case FrontLineCrossed, ArmOverFoulLine:
		return need(e.Side != nil, "side")
	case Contact:
		return need(e.A != "" && e.B != "", "a and b")
	case Pocketed:
		if err := need(e.Piece != nil, "piece"); err != nil {
			return err
		}
		return need(e.Pocket != nil, "pocket")
	case Overboard:
		return need(e.Piece != nil, "piece")
	case Placed, Moved:
		if err := need(e.Piece != nil, "piece"); err != nil {
			return err
		}
		for _, d := range e.Doubts {
			if err := d.Validate(); err != nil {
				return fmt.Errorf("%w (%s at frame %d)", err, e.Type, e.Frame)
			}
		}
		return need(e.MM != nil, "mm")
	case StrokeEnd:
		for _, d := range e.Doubts {
			if err := d.Validate(); err != nil {
				return fmt.Errorf("%w (stroke_end at frame %d)", err, e.Frame)
			}
		}
		return nil
	}
	return fmt.Errorf("events: unknown event type %q at frame %d", e.Type, e.Frame)
}

// Marshal returns the event as one line of JSON (without the newline).
func (e Event) Marshal() ([]byte, error) { return json.Marshal(e) }

// Helpers for building events.

// KindPtr returns a pointer to k.
func KindPtr(k board.Kind) *board.Kind { return &k }

// SidePtr returns a pointer to s.
func SidePtr(s board.Side) *board.Side { return &s }

// PocketPtr returns a pointer to p.
func PocketPtr(p board.Pocket) *board.Pocket { return &p }

// MMPtr returns a pointer to the point v.
func MMPtr(v board.Vec) *MM { m := FromVec(v); return &m }
