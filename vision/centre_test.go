package vision

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// A red disc alone on the red centre circle, the circle's empty look not
// known yet, is reported as the queen only when the queen lay there in the
// last frame, or it stands up from the board (its rim shaded all around,
// see rimShade) and a game is on the board (the striker, or men of both
// colours); never on an empty board or beside a stray man. The printed
// circle is not, even with a game on the board.
func TestLoneCentreQueen(t *testing.T) {
	s := render.DefaultSettings()
	r := newRenderer(t, s, 9)
	defer r.Close()
	g := board.ICF()
	queen := scene.Disc{ID: "Q", Kind: board.Queen, State: scene.Rest}
	white := scene.Disc{ID: "W1", Kind: board.White, Pos: board.Vec{X: -140, Y: 90}, State: scene.Rest}
	black := scene.Disc{ID: "B1", Kind: board.Black, Pos: board.Vec{X: 150, Y: -110}, State: scene.Rest}
	striker := scene.Disc{ID: "S", Kind: board.Striker, Pos: board.Vec{X: 60, Y: g.BaseCircleY()}, State: scene.Rest}
	queenAt := func(fr Frame) bool {
		for _, d := range fr.Detections {
			if d.Kind == board.Queen && d.MM.Len() < 5 {
				return true
			}
		}
		return false
	}
	opening := func() []scene.Disc { return render.OpeningScene(g, board.S).Discs }
	// the men gone from around the queen: only two left, far from her
	after := []scene.Disc{queen, white, {ID: "W2", Kind: board.White, Pos: board.Vec{X: 170, Y: 150}, State: scene.Rest}}
	// each sequence with a new detector: the scenes in turn, and whether
	// the queen must be reported in each
	for _, c := range []struct {
		name   string
		scenes [][]scene.Disc
		want   []bool
	}{
		{"alone", [][]scene.Disc{{queen}, {queen}}, []bool{false, false}},
		{"a stray man", [][]scene.Disc{{queen, white}}, []bool{false}},
		{"men of both colours", [][]scene.Disc{{queen, white, black}}, []bool{true}},
		{"the striker comes", [][]scene.Disc{{queen, white}, {queen, white, striker}, {queen, white, striker}}, []bool{false, true, true}},
		{"after the opening", [][]scene.Disc{opening(), after, after}, []bool{true, true, true}},
		{"the pack set up around it", [][]scene.Disc{{queen}, opening()}, []bool{false, true}},
		{"the printed circle, a game on", [][]scene.Disc{{white, black, striker}, {white, black, striker}}, []bool{false, false}},
		{"the queen taken away", [][]scene.Disc{{queen, white, black, striker}, {white, black, striker}}, []bool{true, false}},
	} {
		det := truthDetector(t, r)
		scenes := make([]*scene.Scene, len(c.scenes))
		for i, ds := range c.scenes {
			scenes[i] = &scene.Scene{Discs: ds}
		}
		for i, sc := range scenes {
			sc.T = float64(i) / 30
			f := renderScene(t, r, sc)
			fr, err := det.Detect(f, i, sc.T)
			f.Close()
			if err != nil {
				det.Close()
				t.Fatal(err)
			}
			if got := queenAt(fr); got != c.want[i] {
				t.Errorf("%s, frame %d: queen on the centre reported %v, want %v (%+v)", c.name, i, got, c.want[i], fr.Detections)
			}
			fs := score(r, sc, fr)
			if want := c.want[i]; fs.extra > 0 || (want && fs.found < fs.visible) || (!want && fs.found < fs.visible-1) {
				t.Errorf("%s, frame %d: %v; missed %v, extra %+v", c.name, i, fs, fs.missed, fs.extras)
			}
		}
		det.Close()
	}
}
