package board

import "math"

// Vec is a point or a direction on the board, in millimetres.
type Vec struct {
	X, Y float64
}

// V is shorthand for Vec{x, y}.
func V(x, y float64) Vec { return Vec{x, y} }

// Add returns v+w.
func (v Vec) Add(w Vec) Vec { return Vec{v.X + w.X, v.Y + w.Y} }

// Sub returns v-w.
func (v Vec) Sub(w Vec) Vec { return Vec{v.X - w.X, v.Y - w.Y} }

// Scale returns v*k.
func (v Vec) Scale(k float64) Vec { return Vec{v.X * k, v.Y * k} }

// Dot returns the dot product of v and w.
func (v Vec) Dot(w Vec) float64 { return v.X*w.X + v.Y*w.Y }

// Cross returns the z component of the cross product v×w.
func (v Vec) Cross(w Vec) float64 { return v.X*w.Y - v.Y*w.X }

// Len returns the length of v.
func (v Vec) Len() float64 { return math.Hypot(v.X, v.Y) }

// Dist returns the distance between v and w.
func (v Vec) Dist(w Vec) float64 { return math.Hypot(v.X-w.X, v.Y-w.Y) }

// Unit returns v scaled to length 1 (the zero vector stays zero).
func (v Vec) Unit() Vec {
	l := v.Len()
	if l == 0 {
		return v
	}
	return Vec{v.X / l, v.Y / l}
}

// Perp returns v turned by +90° ((x, y) → (-y, x); in image coordinates,
// y down, that is clockwise).
func (v Vec) Perp() Vec { return Vec{-v.Y, v.X} }

// Finite reports whether both coordinates are finite numbers.
func (v Vec) Finite() bool {
	return !math.IsNaN(v.X) && !math.IsNaN(v.Y) && !math.IsInf(v.X, 0) && !math.IsInf(v.Y, 0)
}

// Segment is a straight piece of line from A to B.
type Segment struct {
	A, B Vec
}

// DistTo returns the distance from p to the nearest point of the segment.
func (s Segment) DistTo(p Vec) float64 {
	d := s.B.Sub(s.A)
	l2 := d.Dot(d)
	if l2 == 0 {
		return p.Dist(s.A)
	}
	t := p.Sub(s.A).Dot(d) / l2
	t = math.Max(0, math.Min(1, t))
	return p.Dist(s.A.Add(d.Scale(t)))
}

// Circle is a circle of radius R around C.
type Circle struct {
	C Vec
	R float64
}

// Overlaps reports whether the disc (c, r) and the circle's disc share any area.
func (k Circle) Overlaps(c Vec, r float64) bool { return k.C.Dist(c) < k.R+r }

// CoveredBy reports whether the disc (c, r) covers the circle's disc entirely.
func (k Circle) CoveredBy(c Vec, r float64) bool { return k.C.Dist(c)+k.R <= r }

// Contains reports whether the point p lies inside the circle.
func (k Circle) Contains(p Vec) bool { return k.C.Dist(p) <= k.R }
