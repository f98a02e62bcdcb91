package evidence

import (
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/overlay"
)

// Disc is a piece drawn on a still.
type Disc struct {
	ID   string
	Kind board.Kind
	MM   board.Vec
}

// Scene is what a still shows over the decisive frame.
type Scene struct {
	Geometry *board.Geometry
	// H maps board millimetres to pixels of a CalW-wide frame (row-major
	// 3×3); a frame of another width (the buffer scales frames down) is
	// drawn on with H scaled to it. Without H (no calibration) only the
	// title is drawn.
	H    *[9]float64
	CalW int
	// Discs are the pieces at the decisive frame, with their identities.
	Discs []Disc
	// Involved are the identities drawn in the foul colour ("S", "W3").
	Involved []string
	// Marking names the line or circle broken, as the referee names it
	// ("front line S", "base circle S left", "arrow NE", "foul line",
	// "imaginary line", "outer circle", "centre circle"), Seat the
	// offender (the foul lines are the seat's).
	Marking string
	Seat    board.Side
	// Hand, when known, is the point of the hand or arm furthest beyond
	// the foul line.
	Hand *board.Vec
	// HandOutlines, when known, are the outlines of the hands and arms in
	// the decisive frame (closed polygons in pixels of the CalW-wide
	// camera frame: the vision's hand stage, sight.HandRegion): drawn
	// shaded. Without them a patch around Hand is shaded.
	HandOutlines [][][2]float64
	// Title is the plain-language heading; Detail a second line (the
	// margin, the frame).
	Title, Detail string
}

// Draw is the drawing of a still of w×h pixels showing the scene, in
// boardcam's one colour key (package overlay, as the live preview and
// `boardcam detect --out`); the writer's [overlay.Painter] paints it.
func Draw(w, h int, s Scene) (d overlay.Drawing) {
	if w <= 0 || h <= 0 {
		return d
	}
	defer func() { d.Caption(s.Title, s.Detail) }() // over everything, whatever returns
	// The frame may be smaller than the calibration's (the buffer scales
	// frames down): k scales pixels of the calibrated frame to it.
	k := 1.0
	if s.CalW > 0 && w != s.CalW {
		k = float64(w) / float64(s.CalW)
	}
	scale := math.Max(1, float64(h)/720)
	th := func(n float64) int { return int(math.Max(1, math.Round(n*scale))) }
	outlined := false
	for _, o := range s.HandOutlines {
		if len(o) < 3 {
			continue
		}
		// The hand's outline, shaded, under everything else.
		pts := make([]image.Point, len(o))
		for i, p := range o {
			pts[i] = image.Pt(int(math.Round(p[0]*k)), int(math.Round(p[1]*k)))
		}
		d.Polygon(pts, overlay.Hand, -1, 0.4)
		d.Polygon(pts, overlay.Hand, th(2), 0)
		outlined = true
	}
	if s.H == nil || s.Geometry == nil {
		return d
	}
	g := s.Geometry
	hm := *s.H
	for i := 0; i < 6; i++ {
		hm[i] *= k
	}
	pt := func(p board.Vec) (image.Point, bool) {
		w := hm[6]*p.X + hm[7]*p.Y + hm[8]
		if math.Abs(w) < 1e-9 {
			return image.Point{}, false
		}
		x, y := (hm[0]*p.X+hm[1]*p.Y+hm[2])/w, (hm[3]*p.X+hm[4]*p.Y+hm[5])/w
		if math.Abs(x) > 1e5 || math.Abs(y) > 1e5 {
			return image.Point{}, false
		}
		return image.Pt(int(math.Round(x)), int(math.Round(y))), true
	}
	b := overlay.Board{D: &d, Project: pt}
	// The markings, thin.
	b.Markings(g, overlay.Marking, th(2), th(1))

	// The marking broken, thick in the foul colour.
	segs, circles := MarkingShape(g, s.Marking, s.Seat)
	for _, sg := range segs {
		b.Line(sg.A, sg.B, overlay.Foul, th(4))
	}
	for _, c := range circles {
		b.Circle(c, overlay.Foul, th(4))
	}

	// The point of the hand or arm furthest beyond the line; without the
	// hand's outline, a shaded patch around it.
	if s.Hand != nil {
		if c, ok := pt(*s.Hand); ok {
			if e, ok2 := pt(s.Hand.Add(board.V(40, 0))); ok2 {
				r := int(math.Hypot(float64(e.X-c.X), float64(e.Y-c.Y)))
				if !outlined {
					d.Polygon(circlePoints(c, r), overlay.Hand, -1, 0.4)
					d.Circle(c, r, overlay.Hand, th(2))
				}
				d.Circle(c, th(3), overlay.Foul, -1)
				d.Text(image.Pt(c.X+r+4, c.Y), "hand", 0.5*scale, overlay.Hand, th(1))
			}
		}
	}

	// The discs with their identities.
	involved := map[string]bool{}
	for _, id := range s.Involved {
		involved[id] = true
	}
	for _, p := range s.Discs {
		c, ok := pt(p.MM)
		e, ok2 := pt(p.MM.Add(board.V(g.Radius(p.Kind), 0)))
		if !ok || !ok2 {
			continue
		}
		r := int(math.Round(math.Hypot(float64(e.X-c.X), float64(e.Y-c.Y))))
		col := overlay.Kind(p.Kind)
		d.Circle(c, r, col, th(2))
		if involved[p.ID] {
			d.Circle(c, r+th(4), overlay.Foul, th(3))
		}
		if p.ID != "" {
			d.Text(image.Pt(c.X-r/2, c.Y+th(4)), p.ID, 0.4*scale, col, th(1))
		}
	}
	d.Legend(append(overlay.Pieces(),
		overlay.Entry{Label: "markings", Colour: overlay.Marking, Swatch: overlay.Line},
		overlay.Entry{Label: "hand", Colour: overlay.Hand, Swatch: overlay.Fill},
		overlay.Entry{Label: "foul", Colour: overlay.Foul, Swatch: overlay.Line}))
	return d
}

// circlePoints is a circle as a 32-sided polygon (to shade it).
func circlePoints(c image.Point, r int) []image.Point {
	pts := make([]image.Point, 32)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / 32
		pts[i] = image.Pt(c.X+int(math.Round(float64(r)*math.Cos(a))), c.Y+int(math.Round(float64(r)*math.Sin(a))))
	}
	return pts
}

// MarkingShape returns the segments and circles of a marking named as the
// referee names it (Evidence.Marking), for the offender's seat; nothing
// for a name it does not know.
func MarkingShape(g *board.Geometry, name string, seat board.Side) ([]board.Segment, []board.Circle) {
	name = strings.ToLower(strings.Join(strings.Fields(name), " "))
	f := strings.Fields(name)
	sideOf := func(i int) board.Side {
		if i < len(f) {
			if s, err := board.ParseSide(f[i]); err == nil {
				return s
			}
		}
		return seat
	}
	diagonals := func(s board.Side) []board.Segment {
		half := g.Half()
		return []board.Segment{
			{A: board.FromLocal(s, board.V(0, 0)), B: board.FromLocal(s, board.V(-half, half))},
			{A: board.FromLocal(s, board.V(0, 0)), B: board.FromLocal(s, board.V(half, half))},
		}
	}
	switch {
	case len(f) == 0:
		return nil, nil
	case strings.HasPrefix(name, "front line"):
		return []board.Segment{g.FrontLine(sideOf(2))}, nil
	case strings.HasPrefix(name, "rear line"):
		return []board.Segment{g.RearLine(sideOf(2))}, nil
	case f[0] == "base" && len(f) >= 2 && (f[1] == "lines" || f[1] == "line"):
		s := sideOf(2)
		return []board.Segment{g.FrontLine(s), g.RearLine(s)}, nil
	case f[0] == "base" && len(f) >= 2 && f[1] == "circle":
		s := sideOf(2)
		cs := g.BaseCircles(s)
		switch {
		case len(f) >= 4 && f[3] == "left":
			return nil, []board.Circle{cs[0]}
		case len(f) >= 4 && f[3] == "right":
			return nil, []board.Circle{cs[1]}
		}
		return nil, cs[:]
	case f[0] == "arrow" && len(f) >= 2:
		for _, pk := range board.Pockets {
			if strings.EqualFold(pk.String(), f[1]) {
				return []board.Segment{g.Arrow(pk)}, nil
			}
		}
		return diagonals(seat), nil
	case name == "arrow", name == "foul line", name == "imaginary line":
		return diagonals(seat), nil
	case name == "outer circle":
		return nil, []board.Circle{g.OuterCircle()}
	case name == "centre circle":
		return nil, []board.Circle{g.CentreCircle()}
	}
	return nil, nil
}

// Margin says a margin in words: "17 mm".
func Margin(mm float64) string {
	if math.Abs(mm) < 10 {
		return fmt.Sprintf("%.1f mm", mm)
	}
	return fmt.Sprintf("%.0f mm", mm)
}
