package board

import (
	"fmt"
	"strings"
)

// Side is one of the four sides of the board, where a player sits.
//
// The order S, E, N, W is anticlockwise as seen from above (with S at the
// bottom), which is also the order of play when the turn passes to the
// player on the right ([Side.Right]).
type Side int

// The four sides.
const (
	S Side = iota // bottom, y > 0
	E             // right, x > 0
	N             // top, y < 0
	W             // left, x < 0
)

// Sides lists the four sides in anticlockwise order.
var Sides = [4]Side{S, E, N, W}

func (s Side) String() string {
	switch s {
	case S:
		return "S"
	case E:
		return "E"
	case N:
		return "N"
	case W:
		return "W"
	}
	return fmt.Sprintf("Side(%d)", int(s))
}

// ParseSide reads "S", "E", "N" or "W" (any case; "south" etc. also accepted).
func ParseSide(s string) (Side, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "S", "SOUTH":
		return S, nil
	case "E", "EAST":
		return E, nil
	case "N", "NORTH":
		return N, nil
	case "W", "WEST":
		return W, nil
	}
	return 0, fmt.Errorf("board: unknown side %q (want S, E, N or W)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (s Side) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Side) UnmarshalText(b []byte) error {
	v, err := ParseSide(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Right returns the side of the player sitting on the right hand of a player
// at s (facing the centre): S→E→N→W→S, anticlockwise seen from above.
func (s Side) Right() Side { return (s + 1) % 4 }

// Left returns the side of the player sitting on the left hand of a player at s.
func (s Side) Left() Side { return (s + 3) % 4 }

// Opposite returns the side across the board.
func (s Side) Opposite() Side { return (s + 2) % 4 }

// Normal is the unit vector from the centre toward the side's edge.
func (s Side) Normal() Vec { return FromLocal(s, Vec{0, 1}) }

// ToLocal expresses the world point p in the frame of side s: the frame in
// which s is at the bottom, so that local y grows toward the player sitting
// at s and local x grows to that player's right.
func ToLocal(s Side, p Vec) Vec {
	for i := 0; i < int(s)%4; i++ {
		p = Vec{-p.Y, p.X}
	}
	return p
}

// FromLocal is the inverse of [ToLocal].
func FromLocal(s Side, p Vec) Vec {
	for i := 0; i < int(s)%4; i++ {
		p = Vec{p.Y, -p.X}
	}
	return p
}

// Quadrant returns the side whose quarter of the board (between the two
// diagonals) holds p. Points on a diagonal go to the earlier side in S, E, N,
// W order.
func Quadrant(p Vec) Side {
	for _, s := range Sides {
		l := ToLocal(s, p)
		if l.Y >= l.X && l.Y >= -l.X {
			return s
		}
	}
	return S // only the exact centre could fall through, and S claims it above
}
