package vision

import (
	"testing"

	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// runClip detects every frame of a clip in order and scores discs at rest
// and moving discs apart.
func runClip(t *testing.T, c *clip, cfg Config, fps float64) (rest, moving frameScore, det *Detector) {
	t.Helper()
	det, err := New(c.cal, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range c.frames {
		fr, err := det.Detect(f, i, float64(i)/fps)
		if err != nil {
			det.Close()
			t.Fatal(err)
		}
		sc := c.scenes[i]
		// split the scene into discs at rest and moving (each scored
		// with the detections of the frame; extras counted once, with
		// the discs at rest)
		restSc, movSc := sc, sc
		restSc.Discs, movSc.Discs = nil, nil
		for _, d := range sc.Discs {
			switch d.State {
			case scene.Moving:
				movSc.Discs = append(movSc.Discs, d)
				restSc.Discs = append(restSc.Discs, scene.Disc{ID: d.ID, Kind: d.Kind, Pos: d.Pos, State: scene.Held}) // not scored, but its detection is no extra
			default:
				restSc.Discs = append(restSc.Discs, d)
			}
		}
		rs := score(c.r, &restSc, fr)
		ms := score(c.r, &movSc, fr)
		ms.extra, ms.extras = 0, nil
		if len(rs.missed)+len(rs.extras)+len(rs.wrongs) > 0 {
			t.Logf("frame %d: at rest missed %v, extra %v, wrong %v", i, rs.missed, rs.extras, rs.wrongs)
		}
		rest.add(rs)
		moving.add(ms)
	}
	return rest, moving, det
}

// The break rendered from the simulator, frame by frame: the striker
// placed by hand and aimed, struck into the pack, everything scattering and
// coming to rest.
func TestBreakClip(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a 4.5 s clip")
	}
	c := simClip(t, "break", render.DefaultSettings(), 30, 0, 0)
	defer c.close()
	rest, moving, det := runClip(t, c, Config{}, 30)
	defer det.Close()
	t.Logf("at rest: %v", rest)
	t.Logf("moving:  %v", moving)
	recall := float64(rest.found) / float64(rest.visible)
	precision := float64(rest.found) / float64(rest.found+rest.extra)
	if recall < 0.995 || precision < 0.995 {
		t.Errorf("discs at rest: recall %.4f, precision %.4f (want ≥ 0.995)", recall, precision)
	}
	if w := float64(rest.wrongClass) / float64(rest.found); w > 0.005 {
		t.Errorf("discs at rest: %.2f%% of the wrong class (want ≤ 0.5%%)", 100*w)
	}
	if m, p := meanOf(rest.errs), quantile(rest.errs, 0.95); m > 1.0 || p > 2.5 {
		t.Errorf("discs at rest: position error mean %.2f mm, p95 %.2f mm (want ≤ 1.0, 2.5)", m, p)
	}
	if r := float64(moving.found) / float64(moving.visible); r < 0.9 {
		t.Errorf("moving discs: recall %.3f (want ≥ 0.9)", r)
	}
	// the class model is learned from the opening arrangement of the
	// first frame, and the breaker's side read from it
	if op := det.Opening(); op == nil || op.Breaker == nil || op.Breaker.Side.String() != "S" {
		t.Errorf("opening: %+v", op)
	}
}

// A hand resting over a pocket hides the men near it: they are reported
// hidden by the Occlusion, never silently missing, and (almost) nothing is
// invented on the hand. Known slips, allowed here: the striker under a
// fingertip while it is being picked up is missed for a few frames, and a
// fingertip at the board's edge was once taken for a man for two frames.
func TestHandOverPocket(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a clip")
	}
	c := simClip(t, "hand-over-pocket", render.DefaultSettings(), 15, 0, 0)
	defer c.close()
	rest, _, det := runClip(t, c, Config{}, 15)
	defer det.Close()
	t.Logf("at rest: %v", rest)
	if rest.hidden == 0 {
		t.Fatal("no disc was ever under the hand: the clip does not test occlusion")
	}
	if rest.occluded < rest.hidden {
		t.Errorf("%d of %d discs under the hand were neither seen nor reported hidden", rest.hidden-rest.occluded, rest.hidden)
	}
	if rest.extra > 2 {
		t.Errorf("%d detections of nothing (on the hand?): %+v", rest.extra, rest.extras)
	}
	if miss := rest.visible - rest.found; float64(miss) > 0.01*float64(rest.visible) {
		t.Errorf("%d of %d visible discs at rest missed: %v", miss, rest.visible, rest.missed)
	}
}
