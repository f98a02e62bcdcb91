package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// A cut: the striker cuts W1, W1 knocks B1 (65 mm from NE's centre) into
// NE between two frames at 30 fps and follows it in. B1 is seen at rest,
// then gone in plain view; from coverAfter frames later a hand mask lies
// over its place to the end (the hand stage taking a blurred disc against
// the frame, or the striker on the pocket's lip, for a hand). Gone in
// plain view before anything covered it, B1 was struck away: pocketed in
// NE (inferred), not on the board at the stroke's end. The old tracker
// took the late cover for what hid it and kept it at rest at its place: a
// pocketing lost without a word. A cover there from the first missed frame
// still keeps it (the hand over it may hide it).
func TestGoneBeforeCoverNotKeptAtRest(t *testing.T) {
	sc, err := sim.Parse([]byte(`
name: cut double
seed: 119
fps: 30
arrangement:
  positions:
    W1: [295, -232]
    B1: [321, -288]
    B2: [-150, 100]
timeline:
  - strike: {side: S, at: 60, direction: pot B1 NE, speed: 2.0, aim_time: 0.4}
`), "")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := sim.Run(sc, sim.Options{FPS: 30})
	if err != nil {
		t.Fatal(err)
	}
	b1 := board.V(321, -288)
	gone := -1 // the first frame without B1 on the board
	for i := range tr.NumFrames() {
		f := tr.Frame(i)
		if d, ok := f.Disc("B1"); ok && d.State == scene.Pocketed {
			gone = i
			break
		}
	}
	if gone < 0 {
		t.Fatal("B1 never pocketed in the simulation")
	}
	for _, tc := range []struct {
		coverAfter int
		pocketed   bool
	}{
		{2, true},  // gone two frames in plain view, then covered
		{3, true},  // three
		{0, false}, // covered as it vanished: the cover may hide it
	} {
		tk, err := New(Config{Geometry: tr.Geometry})
		if err != nil {
			t.Fatal(err)
		}
		syn := trackertest.NewSynth(tr, trackertest.Noise{Seed: 3, Sigma: 0.5, Hide: 0.6})
		var evs []events.Event
		for i := range tr.NumFrames() {
			f, _ := syn.Frame(i)
			if i >= gone+tc.coverAfter {
				f.Occlusion = discOcclusion{c: b1, r: 30}
				var keep []sight.Detection
				for _, d := range f.Detections {
					if d.MM.Dist(b1) > 30 {
						keep = append(keep, d)
					}
				}
				f.Detections = keep
			}
			evs = append(evs, tk.Update(f).Events...)
		}
		evs = append(evs, tk.Flush()...)
		blackIn, onBoard, ends := false, false, 0
		for _, e := range evs {
			switch e.Type {
			case events.Pocketed:
				if *e.Piece == board.Black && *e.Pocket == board.NE {
					blackIn = true
				}
			case events.StrokeEnd:
				ends++
				for _, p := range e.Pieces {
					if p.Piece == board.Black && board.V(p.MM[0], p.MM[1]).Dist(b1) < 10 {
						onBoard = true
					}
				}
			}
		}
		if ends != 1 {
			t.Errorf("cover %d frames after: %d stroke ends, want 1", tc.coverAfter, ends)
		}
		if tc.pocketed && (!blackIn || onBoard) {
			t.Errorf("cover %d frames after B1 vanished: black into NE %v, on the board at the end %v; want pocketed", tc.coverAfter, blackIn, onBoard)
		}
		if !tc.pocketed && (blackIn || !onBoard) {
			t.Errorf("covered as B1 vanished: black into NE %v, on the board at the end %v; want kept under the cover", blackIn, onBoard)
		}
	}
}
