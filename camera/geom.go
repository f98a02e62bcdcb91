package camera

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
)

// Point is a position in image pixels (or, where a function says so, in
// Normalised board units). Pixel centres sit at integer coordinates, as in
// OpenCV: the top-left pixel covers [-0.5, 0.5] × [-0.5, 0.5]. It is the
// board's vector type ([board.Vec]): one type, whose arithmetic is the
// same in pixels and in millimetres.
type Point = board.Vec

// Pt is shorthand for Point{x, y}.
func Pt(x, y float64) Point { return Point{X: x, Y: y} }

// Corners are four image points, in JSON [[x, y], …] (a calibration
// file's corners_px).
type Corners [4]Point

// MarshalJSON writes [[x, y], …].
func (c Corners) MarshalJSON() ([]byte, error) {
	var a [4]jsonPoint
	for i, p := range c {
		a[i] = jsonPoint(p)
	}
	return json.Marshal(a)
}

// UnmarshalJSON reads [[x, y], …].
func (c *Corners) UnmarshalJSON(b []byte) error {
	var a [4]jsonPoint
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	for i, p := range a {
		c[i] = Point(p)
	}
	return nil
}

// jsonPoint is a point written [x, y], rounded to 1e-6 pixel.
type jsonPoint board.Vec

// MarshalJSON writes [x, y].
func (p jsonPoint) MarshalJSON() ([]byte, error) {
	if !Point(p).Finite() {
		return nil, fmt.Errorf("calibrate: point (%v, %v) is not finite", p.X, p.Y)
	}
	return json.Marshal([2]float64{round6(p.X), round6(p.Y)})
}

// UnmarshalJSON reads [x, y].
func (p *jsonPoint) UnmarshalJSON(b []byte) error {
	var a []float64
	if err := json.Unmarshal(b, &a); err != nil {
		return fmt.Errorf("want [x, y]: %w", err)
	}
	if len(a) != 2 {
		return fmt.Errorf("want [x, y], got %d numbers", len(a))
	}
	p.X, p.Y = a[0], a[1]
	return nil
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// Line is the line A·x + B·y + C = 0 with A² + B² = 1, so that Dist is the
// signed distance.
type Line struct {
	A, B, C float64
}

// LineThrough returns the line through p with direction d.
func LineThrough(p, d Point) Line {
	n := d.Unit().Perp()
	return Line{n.X, n.Y, -(n.X*p.X + n.Y*p.Y)}
}

// LineJoining returns the line through p and q.
func LineJoining(p, q Point) Line { return LineThrough(p, q.Sub(p)) }

// Dist returns the signed distance from p to the line.
func (l Line) Dist(p Point) float64 { return l.A*p.X + l.B*p.Y + l.C }

// Normal returns the unit normal (A, B).
func (l Line) Normal() Point { return Pt(l.A, l.B) }

// Dir returns the unit direction of the line.
func (l Line) Dir() Point { return Pt(-l.B, l.A) }

// Project returns the foot of the perpendicular from p.
func (l Line) Project(p Point) Point { return p.Sub(l.Normal().Scale(l.Dist(p))) }

// Intersect returns the crossing point of two lines; ok is false when they
// are (nearly) parallel.
func (l Line) Intersect(m Line) (Point, bool) {
	det := l.A*m.B - l.B*m.A
	if math.Abs(det) < 1e-9 {
		return Point{}, false
	}
	return Pt((l.B*m.C-m.B*l.C)/det, (m.A*l.C-l.A*m.C)/det), true
}

func (l Line) normalised() Line {
	n := math.Hypot(l.A, l.B)
	if n == 0 {
		return l
	}
	return Line{l.A / n, l.B / n, l.C / n}
}

// Homography is a 3×3 projective transform in row-major order, applied to
// column vectors (x, y, 1). In JSON it is three rows of three numbers.
type Homography [3][3]float64

// Identity is the identity transform.
var Identity = Homography{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// Apply maps p. The result is not finite when p maps to infinity.
func (h Homography) Apply(p Point) Point {
	x := h[0][0]*p.X + h[0][1]*p.Y + h[0][2]
	y := h[1][0]*p.X + h[1][1]*p.Y + h[1][2]
	w := h[2][0]*p.X + h[2][1]*p.Y + h[2][2]
	if w == 0 {
		return Pt(math.Inf(1), math.Inf(1))
	}
	return Pt(x/w, y/w)
}

// Mul returns h·g (apply g first, then h).
func (h Homography) Mul(g Homography) Homography {
	var r Homography
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[i][j] += h[i][k] * g[k][j]
			}
		}
	}
	return r
}

// Det returns the determinant.
func (h Homography) Det() float64 {
	return h[0][0]*(h[1][1]*h[2][2]-h[1][2]*h[2][1]) -
		h[0][1]*(h[1][0]*h[2][2]-h[1][2]*h[2][0]) +
		h[0][2]*(h[1][0]*h[2][1]-h[1][1]*h[2][0])
}

// Inverse returns the inverse transform, normalised so that [2][2] is 1
// where possible.
func (h Homography) Inverse() (Homography, error) {
	d := h.Det()
	if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return Homography{}, errors.New("calibrate: homography is singular")
	}
	var r Homography
	r[0][0] = (h[1][1]*h[2][2] - h[1][2]*h[2][1]) / d
	r[0][1] = (h[0][2]*h[2][1] - h[0][1]*h[2][2]) / d
	r[0][2] = (h[0][1]*h[1][2] - h[0][2]*h[1][1]) / d
	r[1][0] = (h[1][2]*h[2][0] - h[1][0]*h[2][2]) / d
	r[1][1] = (h[0][0]*h[2][2] - h[0][2]*h[2][0]) / d
	r[1][2] = (h[0][2]*h[1][0] - h[0][0]*h[1][2]) / d
	r[2][0] = (h[1][0]*h[2][1] - h[1][1]*h[2][0]) / d
	r[2][1] = (h[0][1]*h[2][0] - h[0][0]*h[2][1]) / d
	r[2][2] = (h[0][0]*h[1][1] - h[0][1]*h[1][0]) / d
	return r.Normalised(), nil
}

// Normalised scales h so that h[2][2] is 1 (when it is not zero).
func (h Homography) Normalised() Homography {
	s := h[2][2]
	if math.Abs(s) < 1e-12 {
		return h
	}
	for i := range h {
		for j := range h[i] {
			h[i][j] /= s
		}
	}
	return h
}

// Finite reports whether every entry of h is a finite number.
func (h Homography) Finite() bool {
	for i := range h {
		for j := range h[i] {
			if math.IsNaN(h[i][j]) || math.IsInf(h[i][j], 0) {
				return false
			}
		}
	}
	return true
}

// MapLine returns the image under h of the line l: the line through the
// images of l's points.
func (h Homography) MapLine(l Line) (Line, error) {
	inv, err := h.Inverse()
	if err != nil {
		return Line{}, err
	}
	// l' = h^-T l
	a := inv[0][0]*l.A + inv[1][0]*l.B + inv[2][0]*l.C
	b := inv[0][1]*l.A + inv[1][1]*l.B + inv[2][1]*l.C
	c := inv[0][2]*l.A + inv[1][2]*l.B + inv[2][2]*l.C
	return Line{a, b, c}.normalised(), nil
}

// HomographyFrom4 returns the transform that maps src[i] to dst[i] exactly.
func HomographyFrom4(src, dst [4]Point) (Homography, error) {
	return FitHomography(src[:], dst[:])
}

// FitHomography returns the least-squares transform mapping src onto dst
// (at least four correspondences, no three of the first four collinear).
// The points are normalised first (Hartley), so pixel and millimetre
// coordinates of any size give a well-conditioned system.
func FitHomography(src, dst []Point) (Homography, error) {
	if len(src) != len(dst) || len(src) < 4 {
		return Homography{}, fmt.Errorf("calibrate: need at least 4 point pairs, got %d and %d", len(src), len(dst))
	}
	ts, err := normaliser(src)
	if err != nil {
		return Homography{}, err
	}
	td, err := normaliser(dst)
	if err != nil {
		return Homography{}, err
	}
	// Unknowns h00..h21 with h22 = 1: normal equations of the DLT rows.
	var ata [8][8]float64
	var atb [8]float64
	for i := range src {
		s := ts.Apply(src[i])
		d := td.Apply(dst[i])
		rows := [2][8]float64{
			{s.X, s.Y, 1, 0, 0, 0, -d.X * s.X, -d.X * s.Y},
			{0, 0, 0, s.X, s.Y, 1, -d.Y * s.X, -d.Y * s.Y},
		}
		rhs := [2]float64{d.X, d.Y}
		for r := 0; r < 2; r++ {
			for a := 0; a < 8; a++ {
				atb[a] += rows[r][a] * rhs[r]
				for b := 0; b < 8; b++ {
					ata[a][b] += rows[r][a] * rows[r][b]
				}
			}
		}
	}
	m := make([][]float64, 8)
	for i := range m {
		m[i] = ata[i][:]
	}
	x, err := Solve(m, atb[:])
	if err != nil {
		return Homography{}, fmt.Errorf("calibrate: points are degenerate (collinear or repeated): %w", err)
	}
	hn := Homography{{x[0], x[1], x[2]}, {x[3], x[4], x[5]}, {x[6], x[7], 1}}
	tdi, err := td.Inverse()
	if err != nil {
		return Homography{}, err
	}
	h := tdi.Mul(hn).Mul(ts).Normalised()
	if !h.Finite() || math.Abs(h.Det()) < 1e-15 {
		return Homography{}, errors.New("calibrate: points are degenerate (collinear or repeated)")
	}
	return h, nil
}

// normaliser moves the points' centroid to the origin and scales their mean
// distance from it to √2.
func normaliser(p []Point) (Homography, error) {
	var c Point
	for _, q := range p {
		if !q.Finite() {
			return Homography{}, fmt.Errorf("calibrate: point (%v, %v) is not finite", q.X, q.Y)
		}
		c = c.Add(q)
	}
	c = c.Scale(1 / float64(len(p)))
	var d float64
	for _, q := range p {
		d += q.Dist(c)
	}
	d /= float64(len(p))
	if d == 0 {
		return Homography{}, errors.New("calibrate: all points coincide")
	}
	s := math.Sqrt2 / d
	return Homography{{s, 0, -s * c.X}, {0, s, -s * c.Y}, {0, 0, 1}}, nil
}

// Solve solves the square system m·x = b by Gaussian elimination with
// partial pivoting. m and b are modified.
func Solve(m [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	var scale float64
	for i := range m {
		for _, v := range m[i] {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	if scale == 0 {
		return nil, errors.New("singular system")
	}
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[piv][col]) {
				piv = r
			}
		}
		if math.Abs(m[piv][col]) <= 1e-13*scale {
			return nil, errors.New("singular system")
		}
		m[col], m[piv] = m[piv], m[col]
		b[col], b[piv] = b[piv], b[col]
		for r := col + 1; r < n; r++ {
			f := m[r][col] / m[col][col]
			if f == 0 {
				continue
			}
			for c := col; c < n; c++ {
				m[r][c] -= f * m[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < n; c++ {
			s -= m[r][c] * x[c]
		}
		x[r] = s / m[r][r]
	}
	return x, nil
}

// QuadConvex reports whether the four points, in order, form a convex
// quadrilateral, and its winding: +1 clockwise in image coordinates (y
// down), -1 anticlockwise.
func QuadConvex(q [4]Point) (bool, int) {
	sign := 0
	for i := 0; i < 4; i++ {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		cr := b.Sub(a).Cross(c.Sub(b))
		s := 1
		if cr < 0 {
			s = -1
		} else if cr == 0 {
			return false, 0
		}
		if sign == 0 {
			sign = s
		} else if s != sign {
			return false, 0
		}
	}
	return true, sign
}

// QuadArea returns the area of a simple quadrilateral.
func QuadArea(q [4]Point) float64 {
	var a float64
	for i := 0; i < 4; i++ {
		a += q[i].Cross(q[(i+1)%4])
	}
	return math.Abs(a) / 2
}
