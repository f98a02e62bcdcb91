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
// circle is not, even with a game on the board: neither ours, a red disc
// inside a star, nor a plain red disc of the queen's size alone on the
// wood with red base circles (render's plain_centre and cores 1, the
// other renderer's print).
func TestLoneCentreQueen(t *testing.T) {
	for _, plain := range []bool{false, true} {
		s := render.DefaultSettings()
		if plain {
			s.Board.PlainCentre, s.Board.Lines.Cores = true, 1
		}
		t.Run(map[bool]string{false: "star", true: "plain print"}[plain], func(t *testing.T) { loneCentreQueen(t, s, plain) })
	}
}

// Whether the queen must be reported on the centre in a frame.
const (
	wantNo  = 0
	wantYes = 1
)

// loneCentreQueen runs the cases of TestLoneCentreQueen on a board drawn
// with s. On the plain print a queen alone on the circle, seen there for
// the first time, has a rim of 13.3 there against 21.2 on the star, whose
// dark points around her add to it, under standingRim 15 (a real board's
// outlined print reads up to 14.4): she is reported because she shades
// the board beside her far more than the board's own base circles do
// (see standsBesidePrints). The print itself never is.
func loneCentreQueen(t *testing.T, s render.Settings, plain bool) {
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
	w2 := scene.Disc{ID: "W2", Kind: board.White, Pos: board.Vec{X: 170, Y: 150}, State: scene.Rest}
	after := []scene.Disc{queen, white, w2}
	// the queen moved off the circle, at rest elsewhere; leaving it, still
	// over part of it
	moved, leaving := queen, queen
	moved.Pos = board.Vec{X: 70, Y: -60}
	leaving.Pos = board.Vec{X: 19.4, Y: 19.4}
	// a lone queen first seen there is reported on both boards (the
	// cases that test the game-on condition alone are not run again on
	// the plain print: it is the star's)
	lone := wantYes
	gameOnly := map[string]bool{"alone": true, "a stray man": true, "the striker comes": true}
	// each sequence with a new detector: the scenes in turn, and whether
	// the queen must be reported in each
	for _, c := range []struct {
		name   string
		scenes [][]scene.Disc
		want   []int
	}{
		{"alone", [][]scene.Disc{{queen}, {queen}}, []int{wantNo, wantNo}},
		{"a stray man", [][]scene.Disc{{queen, white}}, []int{wantNo}},
		{"men of both colours", [][]scene.Disc{{queen, white, black}}, []int{lone}},
		{"the striker comes", [][]scene.Disc{{queen, white}, {queen, white, striker}, {queen, white, striker}}, []int{wantNo, lone, lone}},
		{"after the opening", [][]scene.Disc{opening(), after, after}, []int{wantYes, wantYes, wantYes}},
		{"the pack set up around it", [][]scene.Disc{{queen}, opening()}, []int{wantNo, wantYes}},
		{"the printed circle, a game on", [][]scene.Disc{{white, black, striker}, {white, black, striker}}, []int{wantNo, wantNo}},
		{"the queen taken away", [][]scene.Disc{{queen, white, black, striker}, {white, black, striker}}, []int{lone, wantNo}},
		{"the queen leaves the circle", [][]scene.Disc{opening(), after, {moved, white, w2, black, striker}, {white, w2, black, striker}}, []int{wantYes, wantYes, wantNo, wantNo}},
		{"the queen leaves it slowly", [][]scene.Disc{opening(), after, {leaving, white, w2, black, striker}, {moved, white, w2, black, striker}, {white, w2, black, striker}}, []int{wantYes, wantYes, wantNo, wantNo, wantNo}},
		{"the queen lifted off it", [][]scene.Disc{opening(), after, {white, w2, black, striker}, {white, w2, black, striker}}, []int{wantYes, wantYes, wantNo, wantNo}},
	} {
		if plain && gameOnly[c.name] {
			continue
		}
		// the markings as calibration measures them (here the base
		// circles' cores, red discs of a man's size)
		cal := truthCalibration(t, r, 0)
		if plain {
			cal.Markings = render.DrawnMarkings(s.Board, g)
		}
		det, err := New(cal, Config{})
		if err != nil {
			t.Fatal(err)
		}
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
			got, want := queenAt(fr), c.want[i]
			if got != (want == wantYes) {
				t.Errorf("%s, frame %d: queen on the centre reported %v, want %v (%+v)", c.name, i, got, want == wantYes, fr.Detections)
			}
			// nothing else reported (the print never), and every disc
			// found but a queen that must not be reported
			fs := score(r, sc, fr)
			if fs.extra > 0 || (want == wantYes && fs.found < fs.visible) || (want != wantYes && fs.found < fs.visible-1) {
				t.Errorf("%s, frame %d: %v; missed %v, extra %+v", c.name, i, fs, fs.missed, fs.extras)
			}
		}
		det.Close()
	}
}
