// Package overlay is the one colour key of the pictures boardcam draws
// over camera frames — `boardcam detect --out`, the live preview
// (/preview.mjpg) and the evidence stills — the legend that explains it,
// and [Drawing], the list of shapes such a picture carries, made here
// without OpenCV and painted by the OpenCV side (package render/paint,
// given to the web server and to the evidence writer as a [Painter]).
package overlay

import (
	"image"
	"image/color"
	"math"

	"github.com/boardcam/boardcam/board"
)

// The key. Each colour stands out on pale and dark wood, on a black frame
// and from the others.
var (
	White   = color.RGBA{255, 235, 120, 255} // white (light) men: light yellow
	Black   = color.RGBA{40, 160, 255, 255}  // black (dark) men: blue
	Queen   = color.RGBA{255, 40, 200, 255}  // the queen: magenta
	Striker = color.RGBA{60, 255, 60, 255}   // the striker: green
	Marking = color.RGBA{0, 200, 255, 255}   // the playing surface and its markings: cyan
	Hand    = color.RGBA{255, 0, 0, 255}     // hands and arms: shaded red
	Foul    = color.RGBA{255, 60, 0, 255}    // a foul's evidence: orange-red, thick
	Text    = color.RGBA{255, 255, 255, 255}
	Shade   = color.RGBA{0, 0, 0, 255}
)

// Kind returns the colour of a kind of piece.
func Kind(k board.Kind) color.RGBA {
	switch k {
	case board.White:
		return White
	case board.Black:
		return Black
	case board.Queen:
		return Queen
	}
	return Striker
}

// Swatch is how an entry of the legend shows its colour.
type Swatch int

// The swatches.
const (
	Disc   Swatch = iota // a circle, as a piece is drawn
	Dashed               // a dashed circle: partly hidden
	Line                 // a line: markings
	Fill                 // a shaded square: hands
)

// Entry is one line of the legend.
type Entry struct {
	Label  string
	Colour color.RGBA
	Swatch Swatch
}

// Pieces are the entries for the four kinds of piece.
func Pieces() []Entry {
	return []Entry{
		{"white man", White, Disc},
		{"black man", Black, Disc},
		{"queen", Queen, Disc},
		{"striker", Striker, Disc},
	}
}

// Board adds board shapes, given in board millimetres, to a drawing
// through Project (board mm to image pixels; ok false where a point
// cannot be drawn): the one way the evidence stills and the preview
// draw the markings.
type Board struct {
	D       *Drawing
	Project func(board.Vec) (image.Point, bool)
}

// Line draws the segment from a to b (nothing when an end cannot be
// drawn).
func (d Board) Line(a, b board.Vec, c color.RGBA, th int) {
	pa, ok1 := d.Project(a)
	pb, ok2 := d.Project(b)
	if ok1 && ok2 {
		d.D.Line(pa, pb, c, th)
	}
}

// Circle draws k as a 48-sided polygon, so that it follows the camera's
// perspective.
func (d Board) Circle(k board.Circle, c color.RGBA, th int) {
	const n = 48
	prev := k.C.Add(board.V(k.R, 0))
	for i := 1; i <= n; i++ {
		a := 2 * math.Pi * float64(i) / n
		cur := k.C.Add(board.V(k.R*math.Cos(a), k.R*math.Sin(a)))
		d.Line(prev, cur, c, th)
		prev = cur
	}
}

// Markings draws the playing surface's outline (outline px thick) and its
// markings (th px): front and rear lines, base circles, pockets, arrows,
// the centre and outer circles.
func (d Board) Markings(g *board.Geometry, c color.RGBA, outline, th int) {
	corners := g.Corners()
	for i := range corners {
		d.Line(corners[i], corners[(i+1)%4], c, outline)
	}
	for _, sd := range board.Sides {
		fl, rl := g.FrontLine(sd), g.RearLine(sd)
		d.Line(fl.A, fl.B, c, th)
		d.Line(rl.A, rl.B, c, th)
		for _, k := range g.BaseCircles(sd) {
			d.Circle(k, c, th)
		}
	}
	for _, pk := range board.Pockets {
		d.Circle(g.Pocket(pk), c, th)
		if g.ArrowLength > 0 {
			a := g.Arrow(pk)
			d.Line(a.A, a.B, c, th)
		}
	}
	d.Circle(g.CentreCircle(), c, th)
	d.Circle(g.OuterCircle(), c, th)
}
