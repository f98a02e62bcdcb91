package board

import "math"

// The questions a referee asks about a disc of radius r centred at c (world
// coordinates). "Touches" means the disc overlaps the drawn line or circle,
// its ink included; a disc exactly tangent to a line's edge touches it.

// TouchesFrontLine reports whether the disc overlaps side s's front base line.
func (g *Geometry) TouchesFrontLine(s Side, c Vec, r float64) bool {
	l := ToLocal(s, c)
	return g.inBaseLineSpan(l) && l.Y-r <= g.FrontOuter() && l.Y+r >= g.FrontInner()
}

// TouchesRearLine reports whether the disc overlaps side s's rear base line.
func (g *Geometry) TouchesRearLine(s Side, c Vec, r float64) bool {
	l := ToLocal(s, c)
	return g.inBaseLineSpan(l) && l.Y-r <= g.RearOuter() && l.Y+r >= g.RearInner()
}

// inBaseLineSpan: the base lines run between the base circle centres.
func (g *Geometry) inBaseLineSpan(l Vec) bool { return math.Abs(l.X) <= g.BaseCircleX() }

// TouchesBothBaseLines reports whether the disc overlaps both base lines of s.
func (g *Geometry) TouchesBothBaseLines(s Side, c Vec, r float64) bool {
	return g.TouchesFrontLine(s, c, r) && g.TouchesRearLine(s, c, r)
}

// CoversBaseCircle reports whether the disc covers one of side s's base
// circles fully, and which (0 = the player's left, 1 = right).
func (g *Geometry) CoversBaseCircle(s Side, c Vec, r float64) (int, bool) {
	for i, k := range g.BaseCircles(s) {
		if k.CoveredBy(c, r) {
			return i, true
		}
	}
	return 0, false
}

// OverlapsBaseCircle reports whether the disc overlaps one of side s's base
// circles at all, and which.
func (g *Geometry) OverlapsBaseCircle(s Side, c Vec, r float64) (int, bool) {
	for i, k := range g.BaseCircles(s) {
		if k.Overlaps(c, r) {
			return i, true
		}
	}
	return 0, false
}

// CutsTheMoon reports whether the disc lies partly on one of side s's base
// circles without covering it fully ("cutting the moon").
func (g *Geometry) CutsTheMoon(s Side, c Vec, r float64) bool {
	for _, k := range g.BaseCircles(s) {
		if k.Overlaps(c, r) && !k.CoveredBy(c, r) {
			return true
		}
	}
	return false
}

// TouchesArrow reports whether the disc overlaps one of the four arrows, and
// which (named by its pocket). A board without arrows is never touched.
func (g *Geometry) TouchesArrow(c Vec, r float64) (Pocket, bool) {
	if g.ArrowLength <= 0 {
		return 0, false
	}
	for _, p := range Pockets {
		if g.Arrow(p).DistTo(c) <= r+g.ArrowThickness/2 {
			return p, true
		}
	}
	return 0, false
}

// OnOrBehindFrontLine reports whether the disc touches side s's front base
// line or lies beyond it toward the player's edge, within side s's quarter
// of the board (between the diagonals). Such a piece must not be struck
// before the striker has crossed the front line.
func (g *Geometry) OnOrBehindFrontLine(s Side, c Vec, r float64) bool {
	l := ToLocal(s, c)
	return l.Y+r >= g.FrontInner() && math.Abs(l.X) <= l.Y+r
}

// PointOnOrBehindFrontLine reports whether the point p lies on side s's
// front base line or beyond it toward the player's edge.
func (g *Geometry) PointOnOrBehindFrontLine(s Side, p Vec) bool {
	return ToLocal(s, p).Y >= g.FrontInner()
}

// CrossedFrontLine reports whether the whole disc has passed side s's front
// base line toward the centre (how the striker must leave the base line).
func (g *Geometry) CrossedFrontLine(s Side, c Vec, r float64) bool {
	return ToLocal(s, c).Y+r < g.FrontInner()
}

// InsideOuterCircle reports whether the whole disc lies inside the outer
// circle (its ink included), where due and penalty men are placed.
func (g *Geometry) InsideOuterCircle(c Vec, r float64) bool {
	return c.Len()+r <= g.OuterCircleDiameter/2
}

// OverlapsCentreCircle reports whether the disc covers any part of the
// centre circle (due men must not; the queen is placed there).
func (g *Geometry) OverlapsCentreCircle(c Vec, r float64) bool {
	return g.CentreCircle().Overlaps(c, r)
}

// CoversCentreCircle reports whether the disc covers the centre circle fully.
func (g *Geometry) CoversCentreCircle(c Vec, r float64) bool {
	return g.CentreCircle().CoveredBy(c, r)
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
func (g *Geometry) StrikerPlacement(s Side, c Vec, r float64) Placement {
	pl := Placement{Side: s}
	pl.Arrow, pl.TouchesArrow = g.TouchesArrow(c, r)
	l := ToLocal(s, c)
	margin := math.Inf(1)
	// Distances to each base circle: covering when d+rc ≤ r, overlapping when d < r+rc.
	for i, k := range g.BaseCircles(s) {
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
	front := g.TouchesFrontLine(s, c, r)
	rear := g.TouchesRearLine(s, c, r)
	margin = math.Min(margin, math.Abs(l.Y-r-g.FrontOuter()))
	margin = math.Min(margin, math.Abs(l.Y+r-g.RearInner()))
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
func (g *Geometry) BaseLineSide(c Vec, r float64) (Side, bool) {
	s := Quadrant(c)
	l := ToLocal(s, c)
	if math.Abs(l.X) <= g.BaseCircleX()+g.BaseCircleDiameter/2+r &&
		l.Y+r >= g.FrontInner() && l.Y-r <= g.RearOuter() {
		return s, true
	}
	return 0, false
}
