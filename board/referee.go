package board

import "math"

// The questions a referee asks about a disc of radius r centred at c (world
// coordinates), asked of a board's markings (see [Markings]; a [Geometry]
// asks its own: [Geometry.Marks]). "Touches" means the disc overlaps the
// drawn line or circle, its ink included; a disc exactly tangent to a
// line's edge touches it.

// TouchesFrontLine reports whether the disc overlaps side s's front base line.
func (m *Markings) TouchesFrontLine(s Side, c Vec, r float64) bool {
	l := ToLocal(s, c)
	f := m.Side(s).Front
	return m.inBaseLineSpan(s, l) && l.Y-r <= f.Outer() && l.Y+r >= f.Inner()
}

// TouchesRearLine reports whether the disc overlaps side s's rear base line.
func (m *Markings) TouchesRearLine(s Side, c Vec, r float64) bool {
	l := ToLocal(s, c)
	b := m.Side(s).Rear
	return m.inBaseLineSpan(s, l) && l.Y-r <= b.Outer() && l.Y+r >= b.Inner()
}

// inBaseLineSpan: the base lines run between the base circle centres.
func (m *Markings) inBaseLineSpan(s Side, l Vec) bool {
	lo, hi := m.spanX(s)
	return l.X >= lo && l.X <= hi
}

// TouchesBothBaseLines reports whether the disc overlaps both base lines of s.
func (m *Markings) TouchesBothBaseLines(s Side, c Vec, r float64) bool {
	return m.TouchesFrontLine(s, c, r) && m.TouchesRearLine(s, c, r)
}

// CoversBaseCircle reports whether the disc covers one of side s's base
// circles fully, and which (0 = the player's left, 1 = right).
func (m *Markings) CoversBaseCircle(s Side, c Vec, r float64) (int, bool) {
	for i, k := range m.BaseCircles(s) {
		if k.CoveredBy(c, r) {
			return i, true
		}
	}
	return 0, false
}

// OverlapsBaseCircle reports whether the disc overlaps one of side s's base
// circles at all, and which.
func (m *Markings) OverlapsBaseCircle(s Side, c Vec, r float64) (int, bool) {
	for i, k := range m.BaseCircles(s) {
		if k.Overlaps(c, r) {
			return i, true
		}
	}
	return 0, false
}

// CutsTheMoon reports whether the disc lies partly on one of side s's base
// circles without covering it fully ("cutting the moon").
func (m *Markings) CutsTheMoon(s Side, c Vec, r float64) bool {
	for _, k := range m.BaseCircles(s) {
		if k.Overlaps(c, r) && !k.CoveredBy(c, r) {
			return true
		}
	}
	return false
}

// TouchesArrow reports whether the disc overlaps one of the four arrows, and
// which (named by its pocket). A board without arrows is never touched.
func (m *Markings) TouchesArrow(c Vec, r float64) (Pocket, bool) {
	for _, p := range Pockets {
		a := m.Arrow(p)
		if a == (Segment{}) {
			continue
		}
		if a.DistTo(c) <= r+m.ArrowWidth(p)/2 {
			return p, true
		}
	}
	return 0, false
}

// FrontInner is the local y of side s's front line's edge nearer the
// centre: a disc has crossed the front line when it lies wholly nearer the
// centre than this.
func (m *Markings) FrontInner(s Side) float64 { return m.Side(s).Front.Inner() }

// OnOrBehindFrontLine reports whether the disc touches side s's front base
// line or lies beyond it toward the player's edge, within side s's quarter
// of the board (between the diagonals). Such a piece must not be struck
// before the striker has crossed the front line.
func (m *Markings) OnOrBehindFrontLine(s Side, c Vec, r float64) bool {
	l := ToLocal(s, c)
	return l.Y+r >= m.FrontInner(s) && math.Abs(l.X) <= l.Y+r
}

// PointOnOrBehindFrontLine reports whether the point p lies on side s's
// front base line or beyond it toward the player's edge.
func (m *Markings) PointOnOrBehindFrontLine(s Side, p Vec) bool {
	return ToLocal(s, p).Y >= m.FrontInner(s)
}

// CrossedFrontLine reports whether the whole disc has passed side s's front
// base line toward the centre (how the striker must leave the base line).
func (m *Markings) CrossedFrontLine(s Side, c Vec, r float64) bool {
	return ToLocal(s, c).Y+r < m.FrontInner(s)
}

// InsideOuterCircle reports whether the whole disc lies inside the outer
// circle (its ink included), where due and penalty men are placed.
func (m *Markings) InsideOuterCircle(c Vec, r float64) bool {
	o := m.OuterCircle()
	return c.Dist(o.C)+r <= o.R
}

// OverlapsCentreCircle reports whether the disc covers any part of the
// centre circle (due men must not; the queen is placed there).
func (m *Markings) OverlapsCentreCircle(c Vec, r float64) bool {
	return m.CentreCircle().Overlaps(c, r)
}

// CoversCentreCircle reports whether the disc covers the centre circle fully.
func (m *Markings) CoversCentreCircle(c Vec, r float64) bool {
	return m.CentreCircle().CoveredBy(c, r)
}

// OnSurface reports whether the point lies on the playing surface.
func (g *Geometry) OnSurface(p Vec) bool {
	h := g.Half()
	return math.Abs(p.X) <= h && math.Abs(p.Y) <= h
}

// PlacementKind classifies where a striker was placed for a stroke.
type PlacementKind int

// The placements. Only Baseline and BaseCircle (without touching an arrow)
// are proper.
const (
	// Baseline: touches both base lines, between the base circles, clear of them.
	Baseline PlacementKind = iota
	// BaseCircle: covers a base circle fully.
	BaseCircle
	// CutMoon: partly on a base circle without covering it.
	CutMoon
	// OneLine: between the base circles but touching only one base line.
	OneLine
	// OffBaseLine: touching neither base line nor a base circle of the side.
	OffBaseLine
)

func (k PlacementKind) String() string {
	switch k {
	case Baseline:
		return "baseline"
	case BaseCircle:
		return "base_circle"
	case CutMoon:
		return "cut_moon"
	case OneLine:
		return "one_line"
	case OffBaseLine:
		return "off_base_line"
	}
	return "unknown"
}

// Placement is the referee's reading of a striker placement on side s.
type Placement struct {
	Side Side
	Kind PlacementKind
	// Circle is the base circle covered or cut (0 left, 1 right), when Kind
	// is BaseCircle or CutMoon.
	Circle int
	// Arrow and TouchesArrow: the arrow the disc touches, if any.
	Arrow        Pocket
	TouchesArrow bool
	// Margin is how far, in mm, the disc could move before the reading
	// changes kind: a measure of how close the call is. It is the smallest
	// of the distances to the decisive boundaries.
	Margin float64
}

// Proper reports whether the placement is allowed by the ICF laws: within
// the base line, or covering a base circle without touching an arrow.
func (p Placement) Proper() bool {
	return p.Kind == Baseline || (p.Kind == BaseCircle && !p.TouchesArrow)
}

// StrikerPlacement classifies a striker (disc c, r) placed on side s.
func (m *Markings) StrikerPlacement(s Side, c Vec, r float64) Placement {
	pl := Placement{Side: s}
	pl.Arrow, pl.TouchesArrow = m.TouchesArrow(c, r)
	l := ToLocal(s, c)
	margin := math.Inf(1)
	// Distances to each base circle: covering when d+rc ≤ r, overlapping when d < r+rc.
	for i, k := range m.BaseCircles(s) {
		d := k.C.Dist(c)
		margin = math.Min(margin, math.Abs(d-(r+k.R)))
		if d < r+k.R {
			margin = math.Min(margin, math.Abs(d-(r-k.R)))
			pl.Circle = i
			if d+k.R <= r {
				pl.Kind = BaseCircle
			} else {
				pl.Kind = CutMoon
			}
			pl.Margin = margin
			return pl
		}
	}
	sm := m.Side(s)
	front := m.TouchesFrontLine(s, c, r)
	rear := m.TouchesRearLine(s, c, r)
	margin = math.Min(margin, math.Abs(l.Y-r-sm.Front.Outer()))
	margin = math.Min(margin, math.Abs(l.Y+r-sm.Rear.Inner()))
	switch {
	case front && rear:
		pl.Kind = Baseline
	case front || rear:
		pl.Kind = OneLine
	default:
		pl.Kind = OffBaseLine
	}
	pl.Margin = margin
	return pl
}

// BaseLineSide returns the side whose base line area (the band from the
// front line's inner edge to the rear line's outer edge, base circles
// included) holds the disc. The side is the quarter of the board (between
// the diagonals) the disc's centre lies in.
func (m *Markings) BaseLineSide(c Vec, r float64) (Side, bool) {
	s := Quadrant(c)
	l := ToLocal(s, c)
	lo, hi := m.areaX(s)
	sm := m.Side(s)
	if l.X >= lo-r && l.X <= hi+r && l.Y+r >= sm.Front.Inner() && l.Y-r <= sm.Rear.Outer() {
		return s, true
	}
	return 0, false
}

// The same questions asked of a geometry are asked of its markings
// ([Geometry.Marks]): the measured ones when calibration set them.

// TouchesFrontLine: see [Markings.TouchesFrontLine].
func (g *Geometry) TouchesFrontLine(s Side, c Vec, r float64) bool {
	return g.Marks().TouchesFrontLine(s, c, r)
}

// TouchesRearLine: see [Markings.TouchesRearLine].
func (g *Geometry) TouchesRearLine(s Side, c Vec, r float64) bool {
	return g.Marks().TouchesRearLine(s, c, r)
}

// TouchesBothBaseLines: see [Markings.TouchesBothBaseLines].
func (g *Geometry) TouchesBothBaseLines(s Side, c Vec, r float64) bool {
	return g.Marks().TouchesBothBaseLines(s, c, r)
}

// CoversBaseCircle: see [Markings.CoversBaseCircle].
func (g *Geometry) CoversBaseCircle(s Side, c Vec, r float64) (int, bool) {
	return g.Marks().CoversBaseCircle(s, c, r)
}

// OverlapsBaseCircle: see [Markings.OverlapsBaseCircle].
func (g *Geometry) OverlapsBaseCircle(s Side, c Vec, r float64) (int, bool) {
	return g.Marks().OverlapsBaseCircle(s, c, r)
}

// CutsTheMoon: see [Markings.CutsTheMoon].
func (g *Geometry) CutsTheMoon(s Side, c Vec, r float64) bool { return g.Marks().CutsTheMoon(s, c, r) }

// TouchesArrow: see [Markings.TouchesArrow].
func (g *Geometry) TouchesArrow(c Vec, r float64) (Pocket, bool) { return g.Marks().TouchesArrow(c, r) }

// OnOrBehindFrontLine: see [Markings.OnOrBehindFrontLine].
func (g *Geometry) OnOrBehindFrontLine(s Side, c Vec, r float64) bool {
	return g.Marks().OnOrBehindFrontLine(s, c, r)
}

// PointOnOrBehindFrontLine: see [Markings.PointOnOrBehindFrontLine].
func (g *Geometry) PointOnOrBehindFrontLine(s Side, p Vec) bool {
	return g.Marks().PointOnOrBehindFrontLine(s, p)
}

// CrossedFrontLine: see [Markings.CrossedFrontLine].
func (g *Geometry) CrossedFrontLine(s Side, c Vec, r float64) bool {
	return g.Marks().CrossedFrontLine(s, c, r)
}

// InsideOuterCircle: see [Markings.InsideOuterCircle].
func (g *Geometry) InsideOuterCircle(c Vec, r float64) bool { return g.Marks().InsideOuterCircle(c, r) }

// OverlapsCentreCircle: see [Markings.OverlapsCentreCircle].
func (g *Geometry) OverlapsCentreCircle(c Vec, r float64) bool {
	return g.Marks().OverlapsCentreCircle(c, r)
}

// CoversCentreCircle: see [Markings.CoversCentreCircle].
func (g *Geometry) CoversCentreCircle(c Vec, r float64) bool {
	return g.Marks().CoversCentreCircle(c, r)
}

// StrikerPlacement: see [Markings.StrikerPlacement].
func (g *Geometry) StrikerPlacement(s Side, c Vec, r float64) Placement {
	return g.Marks().StrikerPlacement(s, c, r)
}

// BaseLineSide: see [Markings.BaseLineSide].
func (g *Geometry) BaseLineSide(c Vec, r float64) (Side, bool) { return g.Marks().BaseLineSide(c, r) }
