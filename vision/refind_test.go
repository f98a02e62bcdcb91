package vision

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// A hand comes to rest over part of a man at rest and stays there: the man
// stays reported, at the same place, as long as at least half of it shows;
// nothing is invented on the fingers. Then the man is taken away from
// under the hand, which stays: it is no longer reported.
func TestHandOverRestingMan(t *testing.T) {
	s := render.DefaultSettings()
	r := newRenderer(t, s, 11)
	defer r.Close()
	det := truthDetector(t, r)
	defer det.Close()
	target := board.Vec{X: 120, Y: -90}
	sc := &scene.Scene{Discs: []scene.Disc{
		{ID: "W1", Kind: board.White, Pos: target, State: scene.Rest},
		{ID: "B1", Kind: board.Black, Pos: board.Vec{X: -150, Y: 60}, State: scene.Rest},
		{ID: "W2", Kind: board.White, Pos: board.Vec{X: 40, Y: 200}, State: scene.Rest},
	}}
	var all frameScore
	partly := 0
	for i := 0; i < 50; i++ {
		if i == 40 {
			sc.Discs = sc.Discs[1:] // W1 taken away
		}
		sc.T = float64(i) / 30
		sc.Hands = nil
		if i >= 8 {
			// the fingertips come in from side E and stop over the
			// man's eastern part
			reach := min(float64(i-8), 12) * 3.5
			tip := board.Vec{X: target.X + 40 - reach, Y: target.Y}
			sc.Hands = []scene.Hand{{Owner: "E", Elbow: board.Vec{X: tip.X + 450, Y: tip.Y + 60}, Wrist: board.Vec{X: tip.X + 170, Y: tip.Y + 10},
				Fingertip: tip, ArmWidth: 75, HandWidth: 85, Z: 12}}
		}
		f := renderScene(t, r, sc)
		fr, err := det.Detect(f, i, sc.T)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		fs := score(r, sc, fr)
		v, ok := r.Visible(sc)["W1"]
		if !ok {
			v = 0
		}
		if v < 0.95 && v >= 0.5 {
			partly++
		}
		if len(fs.missed)+fs.extra > 0 {
			t.Logf("frame %d: W1 %.0f%% visible; missed %v, extra %+v", i, 100*v, fs.missed, fs.extras)
		}
		all.add(fs)
	}
	t.Logf("%v; %d frames with W1 partly under the hand", all, partly)
	if partly < 10 {
		t.Fatalf("W1 partly under the hand in %d frames only: the test proves nothing", partly)
	}
	if all.found < all.visible || all.extra > 0 {
		t.Errorf("%d of %d visible discs at rest missed %v, %d extra", all.visible-all.found, all.visible, all.missed, all.extra)
	}
	if m := quantile(all.errs, 1); m > 1.5 {
		t.Errorf("position error up to %.2f mm (want ≤ 1.5)", m)
	}
}
