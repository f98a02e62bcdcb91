package board

import (
	"fmt"
	"math"
	"strings"
)

// Pocket is one of the four corner pockets.
type Pocket int

// The four pockets, anticlockwise from the bottom left.
const (
	SW Pocket = iota
	SE
	NE
	NW
)

// Pockets lists the four pockets.
var Pockets = [4]Pocket{SW, SE, NE, NW}

func (p Pocket) String() string {
	switch p {
	case SW:
		return "SW"
	case SE:
		return "SE"
	case NE:
		return "NE"
	case NW:
		return "NW"
	}
	return fmt.Sprintf("Pocket(%d)", int(p))
}

// ParsePocket reads "SW", "SE", "NE" or "NW" (any case).
func ParsePocket(s string) (Pocket, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "SW":
		return SW, nil
	case "SE":
		return SE, nil
	case "NE":
		return NE, nil
	case "NW":
		return NW, nil
	}
	return 0, fmt.Errorf("board: unknown pocket %q (want SW, SE, NE or NW)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (p Pocket) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Pocket) UnmarshalText(b []byte) error {
	v, err := ParsePocket(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// dir is the unit vector from the centre toward the pocket.
func (p Pocket) dir() Vec {
	switch p {
	case SW:
		return Vec{-math.Sqrt2 / 2, math.Sqrt2 / 2}
	case SE:
		return Vec{math.Sqrt2 / 2, math.Sqrt2 / 2}
	case NE:
		return Vec{math.Sqrt2 / 2, -math.Sqrt2 / 2}
	}
	return Vec{-math.Sqrt2 / 2, -math.Sqrt2 / 2}
}

// Pocket returns the hole of pocket p.
func (g *Geometry) Pocket(p Pocket) Circle {
	c := g.Half() - g.pocketInset()
	d := p.dir()
	return Circle{Vec{math.Copysign(c, d.X), math.Copysign(c, d.Y)}, g.PocketDiameter / 2}
}

// PocketAt reports which pocket's mouth holds the point p (a disc falls when
// its centre passes into the mouth).
func (g *Geometry) PocketAt(p Vec) (Pocket, bool) {
	for _, k := range Pockets {
		if g.Pocket(k).Contains(p) {
			return k, true
		}
	}
	return 0, false
}

// NearestPocket returns the pocket whose centre is nearest p, and the distance.
func (g *Geometry) NearestPocket(p Vec) (Pocket, float64) {
	best, bd := SW, math.Inf(1)
	for _, k := range Pockets {
		if d := g.Pocket(k).C.Dist(p); d < bd {
			best, bd = k, d
		}
	}
	return best, bd
}
