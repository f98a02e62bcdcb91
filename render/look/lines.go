package look

import (
	"fmt"

	"github.com/boardcam/boardcam/board"
)

// LineStyle draws a board's markings away from its geometry's figures,
// as makers do: base lines and base circles shifted toward or away from
// the player's edge, base circles spread along the lines, arrows off the
// diagonals, lines of other thicknesses. The calibration must measure
// them where they are drawn, and the referee judge against them.
type LineStyle struct {
	// Offset shifts every side's base lines and base circles by this many
	// mm toward the player's edge (negative: toward the centre); Sides
	// adds a shift per side, in the order S, E, N, W.
	Offset float64    `yaml:"offset"`
	Sides  [4]float64 `yaml:"sides,flow"`
	// Spread moves each side's base circles (and the ends of its base
	// lines) this many mm further apart along the side.
	Spread float64 `yaml:"spread"`
	// Front and Rear are the thicknesses of the front and rear base lines,
	// mm (0: the geometry's).
	Front float64 `yaml:"front"`
	Rear  float64 `yaml:"rear"`
	// ArrowOffset moves every arrow this many mm across its diagonal
	// (positive: anticlockwise, as board.ArrowMarking's Offset); Arrow is
	// the arrows' thickness (0: the geometry's).
	ArrowOffset float64 `yaml:"arrow_offset"`
	Arrow       float64 `yaml:"arrow"`
	// Cores is the radius of the base circles' red cores as a share of
	// the circles' (0: the geometry's; near 1: red discs the size of a
	// man, as some boards print them).
	Cores float64 `yaml:"cores"`
}

func (l LineStyle) validate(bad func(path, format string, a ...any)) {
	for i, v := range append([]float64{l.Offset, l.Spread, l.ArrowOffset}, l.Sides[:]...) {
		if v < -20 || v > 20 {
			bad("board.lines", "shift %d (%v mm) is beyond ±20 mm", i, v)
		}
	}
	if l.Cores < 0 || l.Cores > 1 {
		bad("board.lines.cores", "%v is not a share of the circle (0 to 1)", l.Cores)
	}
	for _, w := range []struct {
		name string
		v    float64
	}{{"front", l.Front}, {"rear", l.Rear}, {"arrow", l.Arrow}} {
		if w.v != 0 && (w.v < 0.5 || w.v > 10) {
			bad("board.lines."+w.name, "%v mm is not a line's thickness (0.5 to 10)", w.v)
		}
	}
}

// DrawnMarkings returns the markings as the renderer draws them for style
// b on geometry g: the truth a calibration's measured markings are
// compared with, and the lines the referee must judge a rendered clip by.
func DrawnMarkings(b BoardStyle, g *board.Geometry) *board.Markings {
	m := g.NominalMarkings()
	if b.Markings == "home" {
		// Plain lines 1.4 mm thick, plain arrows 1.2 mm, no red cores.
		m.Source = "drawn"
		for s := range m.Sides {
			m.Sides[s].Front.Width, m.Sides[s].Rear.Width = 1.4, 1.4
			for i := range m.Sides[s].Circles {
				m.Sides[s].Circles[i].Core = 0
			}
		}
		for p := range m.Arrows {
			if m.Arrows[p] != (board.ArrowMarking{}) {
				m.Arrows[p].Width = 1.2
			}
		}
	}
	l := b.Lines
	if l == (LineStyle{}) {
		return m
	}
	m.Source = "drawn"
	for _, s := range board.Sides {
		sm := &m.Sides[s]
		d := l.Offset + l.Sides[s]
		sm.Front.Y += d
		sm.Rear.Y += d
		if l.Front > 0 {
			sm.Front.Width = l.Front
		}
		if l.Rear > 0 {
			sm.Rear.Width = l.Rear
		}
		sm.Circles[0].X -= l.Spread
		sm.Circles[1].X += l.Spread
		for i := range sm.Circles {
			sm.Circles[i].Y += d
			if l.Cores > 0 {
				sm.Circles[i].Core = l.Cores * sm.Circles[i].R
			}
		}
	}
	for _, p := range board.Pockets {
		a := &m.Arrows[p]
		if *a == (board.ArrowMarking{}) {
			continue
		}
		a.Offset += l.ArrowOffset
		if l.Arrow > 0 {
			a.Width = l.Arrow
		}
	}
	return m
}

// String describes the style for test names.
func (l LineStyle) String() string {
	return fmt.Sprintf("offset %+.0f%v spread %+.0f widths %.0f/%.0f arrows %+.0f/%.0f cores %.2f", l.Offset, l.Sides, l.Spread, l.Front, l.Rear, l.ArrowOffset, l.Arrow, l.Cores)
}
