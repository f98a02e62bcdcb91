package overlay

import (
	"image"
	"testing"

	"github.com/boardcam/boardcam/board"
)

// TestKeyDistinct: the four kinds, the markings and the hands each have
// their own colour.
func TestKeyDistinct(t *testing.T) {
	seen := map[[3]uint8]string{}
	for name, c := range map[string][3]uint8{
		"white": {White.R, White.G, White.B}, "black": {Black.R, Black.G, Black.B},
		"queen": {Queen.R, Queen.G, Queen.B}, "striker": {Striker.R, Striker.G, Striker.B},
		"marking": {Marking.R, Marking.G, Marking.B}, "hand": {Hand.R, Hand.G, Hand.B}, "foul": {Foul.R, Foul.G, Foul.B},
	} {
		if o, ok := seen[c]; ok {
			t.Errorf("%s and %s share a colour", name, o)
		}
		seen[c] = name
	}
	for _, k := range board.Kinds {
		if Kind(k) != Pieces()[k].Colour {
			t.Errorf("%v: the legend's colour is not the key's", k)
		}
	}
}

// TestDrawingOps: the shapes are recorded in order, in pixels, with texts
// the Hershey fonts can draw.
func TestDrawingOps(t *testing.T) {
	var d Drawing
	d.Line(image.Pt(1, 2), image.Pt(3, 4), Marking, 2)
	d.Disc(image.Pt(5, 6), 7, White, 1, true)
	d.Polygon([]image.Point{{0, 0}, {10, 0}, {0, 10}}, Hand, -1, 0.4)
	d.Caption("Asha’s hand crossed the foul line — 17 mm", "")
	d.Caption("", "")
	if len(d.Ops) != 4 {
		t.Fatalf("%d ops, want 4 (an empty caption adds none)", len(d.Ops))
	}
	if op := d.Ops[1]; op.Kind != OpCircle || !op.Dashed || op.R != 7 || op.Pts[0] != image.Pt(5, 6) {
		t.Errorf("disc: %+v", op)
	}
	if op := d.Ops[2]; op.Kind != OpPolygon || len(op.Pts) != 3 || op.Alpha != 0.4 || op.Th != -1 {
		t.Errorf("polygon: %+v", op)
	}
	if got := d.Ops[3].Text; got != "Asha's hand crossed the foul line - 17 mm" {
		t.Errorf("caption %q", got)
	}
}

// TestBoardMarkings: the markings are projected into the drawing; a
// point that cannot be drawn drops its segments only.
func TestBoardMarkings(t *testing.T) {
	var d Drawing
	g := board.ICF()
	b := Board{D: &d, Project: func(p board.Vec) (image.Point, bool) {
		return image.Pt(int(p.X)+500, int(p.Y)+500), p.X > -1000
	}}
	b.Markings(g, Marking, 2, 1)
	if len(d.Ops) < 4+8+8*48 {
		t.Fatalf("%d ops for the markings", len(d.Ops))
	}
	for _, op := range d.Ops {
		if op.Kind != OpLine || op.Colour != Marking {
			t.Fatalf("a marking drawn as %+v", op)
		}
	}
	var none Drawing
	Board{D: &none, Project: func(board.Vec) (image.Point, bool) { return image.Point{}, false }}.Markings(g, Marking, 2, 1)
	if len(none.Ops) != 0 {
		t.Fatalf("%d ops drawn through a projection that draws nothing", len(none.Ops))
	}
}
