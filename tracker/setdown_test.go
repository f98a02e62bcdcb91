package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// Before the first stroke a hand brings the striker to the base line and
// sets it down. In the fingers it is seen as a white man, off and on (its
// printed rings, the fingers on it: a striker of 38 mm is only 2 px larger
// than a man at 720p), between frames in which it is seen as the striker,
// as in the corpus clip small-striker. No white man is born where the
// striker was seen the frame before: discs cannot overlap (a ghost white
// man was born there and, at the end of the initial second, took a real
// man's number).
func TestStrikerSetDownSeenAsMan(t *testing.T) {
	const fps = 30
	g := board.ICF()
	to := board.V(40, -g.BaseCircleY())
	men := []sight.Detection{
		{Kind: board.White, MM: board.V(-60, 110), Score: 1, ClassScore: 0.5},
		{Kind: board.White, MM: board.V(-150, 20), Score: 1, ClassScore: 0.5},
		{Kind: board.Black, MM: board.V(-20, -60), Score: 1, ClassScore: 0.7},
	}
	// (as the clip's detector saw it: the striker in the fingers far
	// off, then at its place)
	carried := []struct {
		off          board.Vec
		score, class float64
		partial      bool
	}{
		{board.V(-22, -55.5), 0.91, 1, true}, {board.V(-15.5, -37), 0.88, 0, true}, {board.V(-8.6, -22.4), 0.84, 0, false},
		{board.V(-0.9, -2.9), 0.88, 0, true}, {board.V(-0.4, -1.1), 0.91, 0.47, false},
	}
	tk, err := New(Config{Geometry: g})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 60; i++ {
		f := sight.Frame{Index: i, T: float64(i) / fps, Calibrated: true}
		f.Detections = append(f.Detections, men...)
		switch {
		case i >= 10 && i < 15:
			// carried in, a white man in the fingers
			c := carried[i-10]
			f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: to.Add(c.off), Score: c.score, ClassScore: c.class, Partial: c.partial})
		case i == 16:
			f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: to.Add(board.V(-0.1, 0.3)), Score: 0.91, ClassScore: 0.73, Partial: true})
		case i >= 15:
			f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: to, Score: 0.92, ClassScore: 1, Partial: i < 25})
		}
		if i >= 8 && i < 25 {
			f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{{Owner: "N",
				Elbow: to.Add(board.V(-40, -420)), Wrist: to.Add(board.V(-25, -150)), Fingertip: to.Add(board.V(0, 12)),
				ArmWidth: 73, HandWidth: 87, Z: 13}}}
		}
		u := tk.Update(f)
		for _, p := range u.Pieces {
			if p.Kind != board.Striker && p.State.OnBoard() && p.MM.Dist(to) < 30 {
				t.Fatalf("frame %d: %s (%v) at %v, on the striker at %v", i, p.ID, p.State, p.MM, to)
			}
		}
		if i == 59 {
			n := 0
			for _, p := range u.Pieces {
				if p.State.OnBoard() {
					n++
				}
				if p.ID == "S" && (!p.State.OnBoard() || p.MM.Dist(to) > 2) {
					t.Errorf("the striker %v at %v, want at rest at %v", p.State, p.MM, to)
				}
			}
			if n != len(men)+1 {
				t.Errorf("%d discs on the board, want %d", n, len(men)+1)
			}
		}
	}
}
