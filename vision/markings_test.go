package vision

import (
	"fmt"
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// An arm rests over each corner of the board in turn, in several places
// and at several heights, over the two base circles there and their
// shadows: the empty circles, half hidden and shaded, are never reported,
// and the discs lying on the other circles — the queen, a black man and a
// white man of about the board's colour — are found with their class
// (recall at least 0.99: a disc the arm half covers is sometimes not
// found, never taken for the circle). Before the base circles' core was
// learned, the white man on his circle was taken for the printed circle
// in every frame.
func TestArmOverBaseCircles(t *testing.T) {
	s := render.DefaultSettings()
	r := newRenderer(t, s, 13)
	defer r.Close()
	g := board.ICF()
	det := truthDetector(t, r)
	defer det.Close()
	sc := &scene.Scene{Discs: []scene.Disc{
		{ID: "Q", Kind: board.Queen, Pos: g.BaseCircles(board.S)[0].C, State: scene.Rest},
		{ID: "B1", Kind: board.Black, Pos: g.BaseCircles(board.W)[1].C, State: scene.Rest},
		{ID: "W1", Kind: board.White, Pos: g.BaseCircles(board.N)[0].C, State: scene.Rest},
		{ID: "W2", Kind: board.White, Pos: board.Vec{X: 60, Y: -90}, State: scene.Rest},
		{ID: "B2", Kind: board.Black, Pos: board.Vec{X: -110, Y: 40}, State: scene.Rest},
		{ID: "S", Kind: board.Striker, Pos: board.Vec{X: 30, Y: g.BaseCircleY()}, State: scene.Rest},
	}}
	var all frameScore
	extras := 0
	i := 0
	frame := func() {
		sc.T = float64(i) / 30
		f := renderScene(t, r, sc)
		fr, err := det.Detect(f, i, sc.T)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		fs := score(r, sc, fr)
		if fs.extra+fs.wrongClass > 0 || len(fs.missed) > 0 && testing.Verbose() {
			var ex []string
			for _, e := range fs.extras {
				ex = append(ex, fmt.Sprintf("%v at (%.0f, %.0f) score %.2f", e.Kind, e.MM.X, e.MM.Y, e.Score))
			}
			t.Logf("frame %d: missed %v, wrong %v, extra %v", i, fs.missed, fs.wrongs, ex)
		}
		extras += fs.extra
		all.add(fs)
		i++
	}
	// the board at rest, the queen off the circles (the empty centre
	// circle is learned), then the queen on a base circle
	q := &sc.Discs[0]
	q.Pos = board.Vec{X: 120, Y: 60}
	for k := 0; k < 6; k++ {
		q.Pos = board.Vec{X: 120, Y: 60}
		if k >= 3 {
			q.Pos = g.BaseCircles(board.S)[0].C
		}
		frame()
	}
	h := g.Half()
	for _, corner := range []board.Vec{{X: -1, Y: 1}, {X: -1, Y: -1}, {X: 1, Y: -1}, {X: 1, Y: 1}} {
		dir := corner.Scale(-1 / math.Sqrt2) // from the corner towards the centre
		side := board.Vec{X: -dir.Y, Y: dir.X}
		for step := -3; step <= 3; step += 2 {
			// the arm rests a while in each place, aiming (moving a
			// little)
			for k := 0; k < 6; k++ {
				off := side.Scale(float64(step)*24 + float64(k))
				z := []float64{10, 40, 70}[(step+3)%3]
				elbow := corner.Scale(h + 120).Add(off)
				wrist := corner.Scale(0.45 * h).Add(off)
				tip := corner.Scale(0.2 * h).Add(off)
				sc.Hands = []scene.Hand{{Owner: "S", Elbow: elbow, Wrist: wrist, Fingertip: tip, ArmWidth: 75, HandWidth: 85, Z: z}}
				frame()
			}
		}
		sc.Hands = nil
		for k := 0; k < 4; k++ {
			frame()
		}
	}
	t.Logf("%v", all)
	if extras > 0 {
		t.Errorf("%d empty circles (or other things) reported", extras)
	}
	if recall := float64(all.found) / float64(all.visible); recall < 0.99 || all.wrongClass > 0 {
		t.Errorf("%d of %d visible discs missed %v (recall %.4f, want ≥ 0.99), %d wrong class %v", all.visible-all.found, all.visible, all.missed, recall, all.wrongClass, all.wrongs)
	}
}
