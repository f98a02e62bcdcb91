package vision

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// A white man of about the board's colour (natural wood on a honey board)
// lying across the printed lines — the outer circle and the star points
// around the centre, a front base line, an arrow — is found in the first
// picture, where the lines that end at his outline would otherwise spoil
// the symmetry of his faint rim (doubles' W1 on the outer circle and a
// star point: found 44 frames late before); the same places with no man on
// them report nothing. Each picture is the first of a new detector.
func TestManAcrossPrintedLines(t *testing.T) {
	s := render.DefaultSettings()
	s.Camera.Height, s.Camera.Rotation = 1250, 45
	s.Board.Wood, s.Board.Frame, s.Board.Text = "honey", "brown", false
	r := newRenderer(t, s, 9)
	defer r.Close()
	g := r.Geometry()
	var at []board.Vec
	// on the outer circle, its line under the man's rim
	ro := g.OuterCircleDiameter/2 - 0.6*g.Radius(board.White)
	for a := 0; a < 360; a += 15 {
		rad := float64(a) * math.Pi / 180
		at = append(at, board.Vec{X: ro * math.Cos(rad), Y: ro * math.Sin(rad)})
	}
	// across a front base line, between the base circles
	fl := g.FrontLine(board.S)
	for _, f := range []float64{0.3, 0.45, 0.6, 0.75} {
		at = append(at, fl.A.Add(fl.B.Sub(fl.A).Scale(f)))
	}
	// across an arrow
	a := g.Arrow(board.Pockets[0])
	for _, f := range []float64{0.3, 0.5, 0.7} {
		at = append(at, a.A.Add(a.B.Sub(a.A).Scale(f)))
	}
	found := 0
	for i, p := range at {
		for _, man := range []bool{true, false} {
			sc := &scene.Scene{}
			if man {
				sc.Discs = []scene.Disc{{ID: "W1", Kind: board.White, Pos: p, State: scene.Rest}}
			}
			det := truthDetector(t, r)
			f := renderScene(t, r, sc)
			fr, err := det.Detect(f, i, 0)
			f.Close()
			det.Close()
			if err != nil {
				t.Fatal(err)
			}
			fs := score(r, sc, fr)
			if fs.extra > 0 {
				t.Errorf("at (%.0f, %.0f) mm, man %v: %d extra %+v", p.X, p.Y, man, fs.extra, fs.extras)
			}
			if man {
				found += fs.found
				if fs.found < fs.visible {
					t.Logf("at (%.0f, %.0f) mm: the man missed", p.X, p.Y)
				}
			}
		}
	}
	t.Logf("%d of %d men across printed lines found", found, len(at))
	// 24 before the lines ending at the outline were left out of the
	// symmetry; the men still missed are the known limit of a man of the
	// board's very colour (refused as a patch of bare wood, or too faint
	// to vote: see docs/vision.md)
	if found < 25 {
		t.Errorf("%d of %d men across printed lines found, want at least 25", found, len(at))
	}
}
