package vision

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// TestPrintedCoresNotQueens: a board whose base circles are printed as
// red discs the size of a man (as another renderer and some boards draw
// them), its lines 6 mm from the figures. The board is found by itself,
// which measures where the circles are printed; then a single frame never
// reports a printed core as the queen — on an empty board, with the men
// and the striker about, or with the queen elsewhere — and a queen that
// comes to lie on a base circle is still the queen. Without the measured
// markings (the calibration of version 1) the same frames report prints
// as queens.
func TestPrintedCoresNotQueens(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	g := board.ICF()
	s := render.DefaultSettings()
	s.Board.Lines = render.LineStyle{Offset: 6, Cores: 0.97}
	r := newRenderer(t, s, 41)
	defer r.Close()
	empty := renderScene(t, r, &scene.Scene{})
	cal, _, err := calibrate.Detect(empty, calibrate.Options{Geometry: g})
	empty.Close()
	if err != nil {
		t.Fatal(err)
	}
	onCircle := func(d Detection) bool {
		for _, sd := range board.Sides {
			for _, c := range cal.Markings.BaseCircles(sd) {
				if d.MM.Dist(c.C) < c.R {
					return true
				}
			}
		}
		return false
	}
	scenes := map[string]*scene.Scene{"empty board": {}, "men, queen and striker about": scatterScene(7, 14), "opening": render.OpeningScene(g, board.S)}
	for name, sc := range scenes {
		for _, measured := range []bool{true, false} {
			c := *cal
			if !measured {
				c.Markings = nil
			}
			det, err := New(&c, Config{FullEvery: -1})
			if err != nil {
				t.Fatal(err)
			}
			f := renderScene(t, r, sc)
			fr, err := det.Detect(f, 0, 0)
			f.Close()
			det.Close()
			if err != nil {
				t.Fatal(err)
			}
			prints := 0
			for _, d := range fr.Detections {
				if d.Kind == board.Queen && onCircle(d) {
					prints++
				}
			}
			t.Logf("%s, markings measured %v: %d prints reported as queens", name, measured, prints)
			if measured && prints > 0 {
				t.Errorf("%s: %d printed cores reported as queens", name, prints)
			}
		}
	}
	// The queen rolls onto S's left base circle and stops there.
	det, err := New(cal, Config{FullEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	target := cal.Markings.BaseCircles(board.S)[0].C
	sc := scatterScene(9, 10)
	var qi int
	for i, d := range sc.Discs {
		if d.ID == "Q" {
			qi = i
		}
	}
	var last Frame
	for k, p := range []board.Vec{target.Add(board.V(60, -30)), target.Add(board.V(25, -12)), target.Add(board.V(6, -3)), target, target, target} {
		sc.Discs[qi].Pos = p
		for i, d := range sc.Discs {
			if i != qi && d.Pos.Dist(target) < 60 {
				sc.Discs[i].State = scene.Pocketed // out of the way
			}
		}
		f := renderScene(t, r, sc)
		fr, err := det.Detect(f, k, float64(k)/30)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		last = fr
		for _, d := range fr.Detections {
			if d.MM.Dist(target) < 80 {
				t.Logf("frame %d, queen at %v: %v at %v", k, p, d.Kind, d.MM)
			}
		}
	}
	found := false
	for _, d := range last.Detections {
		if d.Kind == board.Queen && d.MM.Dist(target) < 5 {
			found = true
		}
	}
	if !found {
		t.Errorf("the queen come to rest on a base circle is not reported: %+v", last.Detections)
	}
}
