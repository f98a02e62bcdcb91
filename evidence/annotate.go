package evidence

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"gocv.io/x/gocv"

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
	// Title is the plain-language heading; Detail a second line (the
	// margin, the frame).
	Title, Detail string
}

// Draw annotates img in place with the scene, in boardcam's one colour key
// (package overlay, as the live preview and `boardcam detect --out`).
func Draw(img *gocv.Mat, s Scene) {
	if img.Empty() {
		return
	}
	defer caption(img, s.Title, s.Detail)
	if s.H == nil || s.Geometry == nil {
		return
	}
	g := s.Geometry
	h := *s.H
	if s.CalW > 0 && img.Cols() != s.CalW {
		k := float64(img.Cols()) / float64(s.CalW)
		for i := 0; i < 6; i++ {
			h[i] *= k
		}
	}
	scale := math.Max(1, float64(img.Rows())/720)
	th := func(n float64) int { return int(math.Max(1, math.Round(n*scale))) }
	pt := func(p board.Vec) (image.Point, bool) {
		w := h[6]*p.X + h[7]*p.Y + h[8]
		if math.Abs(w) < 1e-9 {
			return image.Point{}, false
		}
		x, y := (h[0]*p.X+h[1]*p.Y+h[2])/w, (h[3]*p.X+h[4]*p.Y+h[5])/w
		if math.Abs(x) > 1e5 || math.Abs(y) > 1e5 {
			return image.Point{}, false
		}
		return image.Pt(int(math.Round(x)), int(math.Round(y))), true
	}
	d := overlay.Board{Dst: img, Project: pt}
	line, circle := d.Line, d.Circle
	// The markings, thin.
	d.Markings(g, overlay.Marking, th(2), th(1))

	// The marking broken, thick in the foul colour.
	segs, circles := MarkingShape(g, s.Marking, s.Seat)
	for _, sg := range segs {
		line(sg.A, sg.B, overlay.Foul, th(4))
	}
	for _, c := range circles {
		circle(c, overlay.Foul, th(4))
	}

	// The hand: a shaded red patch around the point furthest beyond the
	// line (the tracker reports that point, not the hand's whole shape).
	if s.Hand != nil {
		if c, ok := pt(*s.Hand); ok {
			e, ok2 := pt(s.Hand.Add(board.V(40, 0)))
			if ok2 {
				r := int(math.Hypot(float64(e.X-c.X), float64(e.Y-c.Y)))
				shadeDisc(img, c, r, overlay.Hand)
				gocv.Circle(img, c, r, overlay.Hand, th(2))
				gocv.Circle(img, c, th(3), overlay.Foul, -1)
				gocv.PutText(img, "hand", image.Pt(c.X+r+4, c.Y), gocv.FontHersheySimplex, 0.5*scale, overlay.Hand, th(1))
			}
		}
	}

	// The discs with their identities.
	involved := map[string]bool{}
	for _, id := range s.Involved {
		involved[id] = true
	}
	for _, d := range s.Discs {
		c, ok := pt(d.MM)
		e, ok2 := pt(d.MM.Add(board.V(g.Radius(d.Kind), 0)))
		if !ok || !ok2 {
			continue
		}
		r := int(math.Round(math.Hypot(float64(e.X-c.X), float64(e.Y-c.Y))))
		col := overlay.Kind(d.Kind)
		gocv.Circle(img, c, r, col, th(2))
		if involved[d.ID] {
			gocv.Circle(img, c, r+th(4), overlay.Foul, th(3))
		}
		if d.ID != "" {
			gocv.PutText(img, d.ID, image.Pt(c.X-r/2, c.Y+th(4)), gocv.FontHersheySimplex, 0.4*scale, col, th(1))
		}
	}
	overlay.Legend(img, append(overlay.Pieces(),
		overlay.Entry{Label: "markings", Colour: overlay.Marking, Swatch: overlay.Line},
		overlay.Entry{Label: "hand", Colour: overlay.Hand, Swatch: overlay.Fill},
		overlay.Entry{Label: "foul", Colour: overlay.Foul, Swatch: overlay.Line}))
}

// shadeDisc blends a filled circle into img.
func shadeDisc(img *gocv.Mat, c image.Point, r int, col color.RGBA) {
	roi := image.Rect(c.X-r, c.Y-r, c.X+r+1, c.Y+r+1).Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
	if roi.Empty() {
		return
	}
	region := img.Region(roi)
	defer region.Close()
	layer := region.Clone()
	defer layer.Close()
	gocv.Circle(&layer, image.Pt(c.X-roi.Min.X, c.Y-roi.Min.Y), r, col, -1)
	gocv.AddWeighted(region, 0.6, layer, 0.4, 0, &region)
}

// caption draws the title and detail in a shaded band at the bottom.
func caption(img *gocv.Mat, title, detail string) {
	if title == "" && detail == "" {
		return
	}
	scale := math.Max(0.6, float64(img.Rows())/720)
	fs := 0.8 * scale
	th := int(math.Max(1, math.Round(2*scale)))
	lineH := int(36 * scale)
	n := 1
	if detail != "" {
		n = 2
	}
	top := img.Rows() - lineH*n - int(10*scale)
	gocv.Rectangle(img, image.Rect(0, top, img.Cols(), img.Rows()), overlay.Shade, -1)
	y := top + lineH - int(8*scale)
	if title != "" {
		gocv.PutText(img, ascii(title), image.Pt(int(12*scale), y), gocv.FontHersheySimplex, fs, overlay.Foul, th)
		y += lineH
	}
	if detail != "" {
		gocv.PutText(img, ascii(detail), image.Pt(int(12*scale), y), gocv.FontHersheySimplex, fs*0.75, overlay.Text, max(1, th-1))
	}
}

// ascii replaces what OpenCV's Hershey fonts cannot draw.
func ascii(s string) string {
	r := strings.NewReplacer("’", "'", "—", "-", "–", "-", "…", "...", "×", "x", "≥", ">=", "≤", "<=")
	s = r.Replace(s)
	b := []rune(s)
	for i, c := range b {
		if c > 126 {
			b[i] = '?'
		}
	}
	return string(b)
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
