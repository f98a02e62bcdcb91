package board

import (
	"errors"
	"fmt"
	"math"
)

// Markings say where the lines and circles of one board are drawn: from
// its geometry's figures (Source "nominal") or as calibration measured
// them on the board in view (Source "measured"). Makers place them
// differently, by up to ten millimetres and more, and draw them from 1 to
// 7 mm thick: the referee's questions ([Markings.StrikerPlacement] and
// the others) are asked of the markings, so a board's own lines decide.
//
// Lines parallel to a side are given in that side's local coordinates
// ([ToLocal]: x along the side, from the player's left to right; y from
// the centre toward the player's edge), the arrows along their diagonal.
type Markings struct {
	// Source is "nominal" (from the geometry) or "measured".
	Source string `json:"source"`
	// Sides holds each side's base lines and base circles, in the order
	// of [Sides]: S, E, N, W.
	Sides [4]SideMarkings `json:"sides"`
	// Arrows holds the diagonal arrows (the foul lines), in the order of
	// [Pockets]: SW, SE, NE, NW, each named by the pocket it points at.
	Arrows [4]ArrowMarking `json:"arrows"`
	// Centre is the red centre circle, Outer the outer circle (board
	// coordinates).
	Centre RingMarking `json:"centre"`
	Outer  RingMarking `json:"outer"`
}

// Band is a straight line parallel to a side: the local y of its centre
// line and the width of its ink.
type Band struct {
	Y     float64 `json:"y"`
	Width float64 `json:"width"`
}

// Inner is the local y of the band's edge nearer the centre.
func (b Band) Inner() float64 { return b.Y - b.Width/2 }

// Outer is the local y of the band's edge nearer the player.
func (b Band) Outer() float64 { return b.Y + b.Width/2 }

// RingMarking is a printed circle: its centre, its radius to the outside
// of its ink, the width of its outline's ink (0: not known) and the radius
// of its red core (0: none).
type RingMarking struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	R     float64 `json:"r"`
	Width float64 `json:"width,omitempty"`
	Core  float64 `json:"core,omitempty"`
}

// SideMarkings are one side's base lines and base circles.
type SideMarkings struct {
	// Front is the thin line nearer the centre, Rear the thick one.
	Front Band `json:"front"`
	Rear  Band `json:"rear"`
	// Circles are the base circles, the player's left then right, in the
	// side's local coordinates. The base lines run between their centres.
	Circles [2]RingMarking `json:"circles"`
}

// ArrowMarking is one diagonal arrow: along the diagonal toward its pocket,
// from From to To mm from the centre (To at the pocket's end), its centre
// line Offset mm off the diagonal (positive: turned anticlockwise as seen
// from above, toward the next pocket in [Pockets] order), Width thick.
type ArrowMarking struct {
	Offset float64 `json:"offset"`
	From   float64 `json:"from"`
	To     float64 `json:"to"`
	Width  float64 `json:"width"`
}

// NominalMarkings returns the markings the geometry's figures describe.
func (g *Geometry) NominalMarkings() *Markings {
	m := &Markings{Source: "nominal"}
	front := Band{(g.FrontInner() + g.FrontOuter()) / 2, g.FrontLineThickness}
	rear := Band{(g.RearInner() + g.RearOuter()) / 2, g.RearLineThickness}
	bc := RingMarking{Y: g.BaseCircleY(), R: g.BaseCircleDiameter / 2, Core: g.BaseCircleCoreDiameter / 2}
	for _, s := range Sides {
		l, r := bc, bc
		l.X, r.X = -g.BaseCircleX(), g.BaseCircleX()
		m.Sides[s] = SideMarkings{Front: front, Rear: rear, Circles: [2]RingMarking{l, r}}
	}
	if g.ArrowLength > 0 {
		tip := g.arrowTipDist()
		for _, p := range Pockets {
			m.Arrows[p] = ArrowMarking{From: tip - g.ArrowLength, To: tip, Width: g.ArrowThickness}
		}
	}
	m.Centre = RingMarking{R: g.CentreCircleDiameter / 2}
	m.Outer = RingMarking{R: g.OuterCircleDiameter / 2}
	return m
}

// Marks returns the markings the referee judges against: the measured
// ones when calibration set them ([Geometry.WithMarkings]), else the
// nominal ones.
func (g *Geometry) Marks() *Markings {
	if g.Measured != nil {
		return g.Measured
	}
	return g.NominalMarkings()
}

// WithMarkings returns a copy of the geometry whose markings are m (nil:
// the nominal ones again).
func (g *Geometry) WithMarkings(m *Markings) *Geometry {
	c := *g
	c.Measured = m
	return &c
}

// Validate checks that the markings describe a board the rules can be
// played on: positive widths, the front line nearer the centre than the
// rear line, base circles between the lines, arrows along the diagonals.
func (m *Markings) Validate() error {
	if m == nil {
		return errors.New("no markings")
	}
	var errs []error
	finite := func(what string, vs ...float64) {
		for _, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				errs = append(errs, fmt.Errorf("%s is not a number", what))
				return
			}
		}
	}
	for _, s := range Sides {
		sm := m.Sides[s]
		finite(fmt.Sprintf("side %v", s), sm.Front.Y, sm.Front.Width, sm.Rear.Y, sm.Rear.Width)
		if !(sm.Front.Width > 0) || !(sm.Rear.Width > 0) {
			errs = append(errs, fmt.Errorf("side %v: line widths must be positive", s))
		}
		if !(sm.Front.Outer() < sm.Rear.Inner()) {
			errs = append(errs, fmt.Errorf("side %v: the front line (y %.1f) must lie nearer the centre than the rear line (y %.1f)", s, sm.Front.Y, sm.Rear.Y))
		}
		for i, c := range sm.Circles {
			finite(fmt.Sprintf("side %v circle %d", s, i), c.X, c.Y, c.R, c.Core)
			if !(c.R > 0) || c.Core < 0 || c.Core > c.R {
				errs = append(errs, fmt.Errorf("side %v circle %d: radius %.1f, core %.1f", s, i, c.R, c.Core))
			}
		}
		if !(sm.Circles[0].X < sm.Circles[1].X) {
			errs = append(errs, fmt.Errorf("side %v: the left base circle must lie left of the right one", s))
		}
	}
	for _, p := range Pockets {
		a := m.Arrows[p]
		finite(fmt.Sprintf("arrow %v", p), a.Offset, a.From, a.To, a.Width)
		if a != (ArrowMarking{}) && (!(a.To > a.From) || a.From < 0 || !(a.Width > 0)) {
			errs = append(errs, fmt.Errorf("arrow %v: from %.1f to %.1f mm, width %.1f", p, a.From, a.To, a.Width))
		}
	}
	finite("centre circle", m.Centre.X, m.Centre.Y, m.Centre.R)
	if !(m.Centre.R > 0) || !(m.Outer.R > m.Centre.R) {
		errs = append(errs, fmt.Errorf("centre circle radius %.1f, outer circle %.1f", m.Centre.R, m.Outer.R))
	}
	return errors.Join(errs...)
}

// Side returns side s's base lines and circles.
func (m *Markings) Side(s Side) SideMarkings { return m.Sides[int(s)%4] }

// FrontLine returns side s's front base line as a segment along its
// centre line, running between the base circle centres.
func (m *Markings) FrontLine(s Side) Segment { return m.band(s, m.Side(s).Front) }

// RearLine returns side s's rear base line likewise.
func (m *Markings) RearLine(s Side) Segment { return m.band(s, m.Side(s).Rear) }

func (m *Markings) band(s Side, b Band) Segment {
	sm := m.Side(s)
	return Segment{FromLocal(s, Vec{sm.Circles[0].X, b.Y}), FromLocal(s, Vec{sm.Circles[1].X, b.Y})}
}

// BaseCircles returns side s's two base circles (the player's left first)
// in board coordinates.
func (m *Markings) BaseCircles(s Side) [2]Circle {
	var out [2]Circle
	for i, c := range m.Side(s).Circles {
		out[i] = Circle{FromLocal(s, Vec{c.X, c.Y}), c.R}
	}
	return out
}

// Arrow returns the arrow pointing at pocket p as a segment along its
// centre line (zero when the board has none). A is the end nearer the
// centre, B the tip by the pocket.
func (m *Markings) Arrow(p Pocket) Segment {
	a := m.Arrows[int(p)%4]
	if a == (ArrowMarking{}) {
		return Segment{}
	}
	d := p.dir()
	n := Vec{-d.Y, d.X}
	o := n.Scale(a.Offset)
	return Segment{d.Scale(a.From).Add(o), d.Scale(a.To).Add(o)}
}

// ArrowWidth is the width of the arrow pointing at p.
func (m *Markings) ArrowWidth(p Pocket) float64 { return m.Arrows[int(p)%4].Width }

// HasArrows reports whether the board has arrows.
func (m *Markings) HasArrows() bool {
	for _, a := range m.Arrows {
		if a != (ArrowMarking{}) {
			return true
		}
	}
	return false
}

// CentreCircle returns the red centre circle.
func (m *Markings) CentreCircle() Circle { return Circle{Vec{m.Centre.X, m.Centre.Y}, m.Centre.R} }

// OuterCircle returns the outer circle.
func (m *Markings) OuterCircle() Circle { return Circle{Vec{m.Outer.X, m.Outer.Y}, m.Outer.R} }

// spanX is the local x range of side s's base lines (between the base
// circle centres).
func (m *Markings) spanX(s Side) (float64, float64) {
	sm := m.Side(s)
	return sm.Circles[0].X, sm.Circles[1].X
}

// areaX is the local x range of side s's base line area, its base circles
// included.
func (m *Markings) areaX(s Side) (float64, float64) {
	sm := m.Side(s)
	return sm.Circles[0].X - sm.Circles[0].R, sm.Circles[1].X + sm.Circles[1].R
}

// Offsets compares m with other (usually the nominal markings): for each
// marking, how far it lies from where other puts it, in mm.
func (m *Markings) Offsets(other *Markings) []MarkingOffset {
	var out []MarkingOffset
	add := func(kind, name string, d, dw float64) {
		out = append(out, MarkingOffset{Kind: kind, Name: name, OffsetMM: round2(d), WidthMM: round2(dw)})
	}
	for _, s := range Sides {
		a, b := m.Side(s), other.Side(s)
		add("front_line", s.String(), a.Front.Y-b.Front.Y, a.Front.Width)
		add("rear_line", s.String(), a.Rear.Y-b.Rear.Y, a.Rear.Width)
		for i := range a.Circles {
			p, q := a.Circles[i], b.Circles[i]
			add("base_circle", fmt.Sprintf("%v %s", s, [2]string{"left", "right"}[i]), math.Hypot(p.X-q.X, p.Y-q.Y), 0)
		}
	}
	for _, p := range Pockets {
		a, b := m.Arrows[p], other.Arrows[p]
		if a == (ArrowMarking{}) || b == (ArrowMarking{}) {
			continue
		}
		add("arrow", p.String(), a.Offset-b.Offset, a.Width)
	}
	add("centre_circle", "centre", math.Hypot(m.Centre.X-other.Centre.X, m.Centre.Y-other.Centre.Y), 0)
	return out
}

// MarkingOffset is one marking's offset from another placement of it: for
// lines the signed shift of the centre line (local y, positive toward the
// player's edge; for arrows across the diagonal), for circles the distance
// between centres. WidthMM is the line's width when known.
type MarkingOffset struct {
	Kind     string  `json:"kind"`
	Name     string  `json:"name"`
	OffsetMM float64 `json:"offset_mm"`
	WidthMM  float64 `json:"width_mm,omitempty"`
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Rotated returns the markings with the sides renamed by k quarter turns,
// as [calibrate.Calibration.Rotate] renames them: side S becomes S+k in
// the order S, E, N, W, each pocket likewise, and points in board
// coordinates turn with them. A side's own lines keep their local figures.
func (m *Markings) Rotated(k int) *Markings {
	k = ((k % 4) + 4) % 4
	out := *m
	for i := 0; i < 4; i++ {
		out.Sides[(i+k)%4] = m.Sides[i]
		out.Arrows[(i+k)%4] = m.Arrows[i]
	}
	turn := func(r RingMarking) RingMarking {
		p := FromLocal(Side(k), Vec{r.X, r.Y})
		r.X, r.Y = p.X, p.Y
		return r
	}
	out.Centre, out.Outer = turn(m.Centre), turn(m.Outer)
	return &out
}
