package overlay

import (
	"image"
	"image/color"

	"github.com/boardcam/boardcam/sight"
)

// Drawing is what a picture carries over the camera's frame, in the
// frame's pixels, in the order drawn. It is made without OpenCV (the
// preview, the evidence stills) and painted by a [Painter].
type Drawing struct {
	Ops []Op
}

// OpKind says what an [Op] draws.
type OpKind int

// The shapes.
const (
	OpLine    OpKind = iota // Pts[0]–Pts[1], Th thick
	OpCircle                // centre Pts[0], radius R; Th < 0 fills; Dashed for a partly hidden piece
	OpPolygon               // Pts, closed; Th < 0 fills; Alpha blends a fill (0: opaque)
	OpText                  // Text from baseline point Pts[0], font Scale, Th thick
	OpTextBox               // Text in a Shade box at the top-left (Bottom: bottom-left) corner of the picture
	OpLegend                // Entries in a shaded box in the top-right corner
	OpCaption               // Text (the title) and Detail in a shaded band at the bottom
)

// Op is one shape of a [Drawing].
type Op struct {
	Kind    OpKind
	Pts     []image.Point
	R       int
	Colour  color.RGBA
	Th      int
	Dashed  bool
	Alpha   float64
	Text    string
	Detail  string
	Scale   float64
	Bottom  bool
	Shade   color.RGBA
	Entries []Entry
}

// Line adds a segment.
func (d *Drawing) Line(a, b image.Point, c color.RGBA, th int) {
	d.Ops = append(d.Ops, Op{Kind: OpLine, Pts: []image.Point{a, b}, Colour: c, Th: th})
}

// Circle adds a circle (th < 0: filled).
func (d *Drawing) Circle(c image.Point, r int, col color.RGBA, th int) {
	d.Ops = append(d.Ops, Op{Kind: OpCircle, Pts: []image.Point{c}, R: r, Colour: col, Th: th})
}

// Disc adds a piece's circle: solid, or dashed when partly hidden.
func (d *Drawing) Disc(c image.Point, r int, col color.RGBA, th int, dashed bool) {
	d.Ops = append(d.Ops, Op{Kind: OpCircle, Pts: []image.Point{c}, R: r, Colour: col, Th: th, Dashed: dashed})
}

// Polygon adds a closed polygon: its outline th thick, or (th < 0) filled
// and blended into the picture with alpha (0: opaque).
func (d *Drawing) Polygon(pts []image.Point, c color.RGBA, th int, alpha float64) {
	d.Ops = append(d.Ops, Op{Kind: OpPolygon, Pts: append([]image.Point(nil), pts...), Colour: c, Th: th, Alpha: alpha})
}

// Text adds a line of text (Hershey simplex; characters beyond ASCII are
// replaced) from its baseline's left end.
func (d *Drawing) Text(at image.Point, s string, scale float64, c color.RGBA, th int) {
	d.Ops = append(d.Ops, Op{Kind: OpText, Pts: []image.Point{at}, Text: ASCII(s), Scale: scale, Colour: c, Th: th})
}

// TextBox adds a line of text on a shade box in the top-left corner (or
// the bottom-left one).
func (d *Drawing) TextBox(s string, scale float64, c color.RGBA, th int, shade color.RGBA, bottom bool) {
	d.Ops = append(d.Ops, Op{Kind: OpTextBox, Text: ASCII(s), Scale: scale, Colour: c, Th: th, Shade: shade, Bottom: bottom})
}

// Legend adds the key's legend in the top-right corner.
func (d *Drawing) Legend(entries []Entry) {
	d.Ops = append(d.Ops, Op{Kind: OpLegend, Entries: append([]Entry(nil), entries...)})
}

// Caption adds a title (in the foul colour) and a detail line in a band
// at the bottom.
func (d *Drawing) Caption(title, detail string) {
	if title == "" && detail == "" {
		return
	}
	d.Ops = append(d.Ops, Op{Kind: OpCaption, Text: ASCII(title), Detail: ASCII(detail)})
}

// ASCII replaces what the Hershey fonts cannot draw.
func ASCII(s string) string {
	var out []rune
	for _, c := range s {
		switch c {
		case '’':
			out = append(out, '\'')
		case '—', '–':
			out = append(out, '-')
		case '…':
			out = append(out, '.', '.', '.')
		case '×':
			out = append(out, 'x')
		case '≥':
			out = append(out, '>', '=')
		case '≤':
			out = append(out, '<', '=')
		default:
			if c > 126 {
				c = '?'
			}
			out = append(out, c)
		}
	}
	return string(out)
}

// Painter does the pixel work of pictures on the OpenCV side (package
// render/paint implements it; cmd/boardcam gives it to the daemon, which
// gives it to the web server and the evidence keeper). Pictures are the
// opaque handles of package sight; JPEGs are 8-bit colour.
type Painter interface {
	// NewImage makes an empty picture to copy frames into.
	NewImage() sight.Image
	// Copy copies src into dst (reallocated as needed): the one cost the
	// replay buffer puts on the pipeline's goroutine.
	Copy(dst, src sight.Image)
	// Encode scales img down to at most maxWidth pixels wide (0: as it
	// is), paints on it the drawing draw makes for the scaled size (draw
	// may be nil) and compresses it as JPEG at quality 1–100. img is left
	// as it was.
	Encode(img sight.Image, maxWidth, quality int, draw func(w, h int) Drawing) (jpeg []byte, w, h int, err error)
	// Repaint decodes a JPEG, paints the drawing draw makes for its size
	// and compresses it again.
	Repaint(jpeg []byte, quality int, draw func(w, h int) Drawing) ([]byte, error)
	// Fill paints a w×h picture of colour bg with a drawing into dst
	// (reallocated as needed): a fake camera's frame.
	Fill(dst sight.Image, w, h int, bg color.RGBA, d Drawing)
}
