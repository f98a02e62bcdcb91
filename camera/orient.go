package camera

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boardcam/boardcam/board"
)

// Direction is a side of the image: where board side S appears.
type Direction string

// The four image directions, in anticlockwise order as seen on screen.
const (
	Bottom Direction = "bottom"
	Right  Direction = "right"
	Top    Direction = "top"
	Left   Direction = "left"
)

var directions = [4]Direction{Bottom, Right, Top, Left}

// ParseDirection reads bottom, right, top or left (any case).
func ParseDirection(s string) (Direction, error) {
	d := Direction(strings.ToLower(strings.TrimSpace(s)))
	for _, x := range directions {
		if d == x {
			return d, nil
		}
	}
	return "", fmt.Errorf("unknown image direction %q (want bottom, right, top or left)", s)
}

// QuarterTurns is how many quarter turns anticlockwise on screen d is from
// Bottom (0 for an unknown direction).
func (d Direction) QuarterTurns() int {
	for i, x := range directions {
		if d == x {
			return i
		}
	}
	return 0
}

// Orientation says how the board lies in the image and who breaks.
type Orientation struct {
	// SouthAt is the image side nearest board side S ("bottom" unless the
	// camera is turned). The board frame turns with it in quarter turns.
	SouthAt Direction `json:"south_at"`
	// Breaker is the side the first player (the breaker) sits on, in board
	// terms.
	Breaker board.Side `json:"breaker"`
	// BreakerSource says where Breaker came from: "config" (given by the
	// user), "inferred" (from the opening arrangement, see calibrate.InferBreaker)
	// or "default" (S, nobody said otherwise).
	BreakerSource string `json:"breaker_source"`
}

// DefaultOrientation puts side S at the bottom of the image and the breaker
// at S.
func DefaultOrientation() Orientation {
	return Orientation{SouthAt: Bottom, Breaker: board.S, BreakerSource: "default"}
}

// Validate checks that o names a direction, a side and a known source.
func (o Orientation) Validate() error {
	var errs []error
	ok := false
	for _, d := range directions {
		ok = ok || o.SouthAt == d
	}
	if !ok {
		errs = append(errs, fmt.Errorf("south_at: %q (want bottom, right, top or left)", o.SouthAt))
	}
	if o.Breaker < board.S || o.Breaker > board.W {
		errs = append(errs, fmt.Errorf("breaker: %v is not a side", o.Breaker))
	}
	switch o.BreakerSource {
	case "config", "inferred", "default":
	default:
		errs = append(errs, fmt.Errorf("breaker_source: %q (want config, inferred or default)", o.BreakerSource))
	}
	return errors.Join(errs...)
}
