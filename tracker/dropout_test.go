package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// A man that drops out of detection for more than MissingTime just as the
// player picks the striker up (under the hand at its place, then the hand
// leaves with it) is no stroke: he is back at his place before the
// striker is put down again, and nothing struck him. Whatever he lies by
// (a pocket or the middle of the board), and at 15 or 30 fps, no stroke
// and no pocketing; the same vanish followed by the man never coming back
// is TestStrokeBetweenTwoFrames' stroke.
func TestManDropOutAsStrikerPickedUp(t *testing.T) {
	g := board.ICF()
	at := board.V(100, g.BaseCircleY())
	put := board.V(-60, g.BaseCircleY()) // where the striker is put down again
	pk := g.Pocket(board.NE).C
	hand := scene.Hand{Owner: "S", Elbow: board.V(130, 642), Wrist: board.V(110, 372),
		Fingertip: board.V(100, at.Y-5), ArmWidth: 73, HandWidth: 87, Z: 13}
	for _, c := range []struct {
		name string
		man  board.Vec
		fps  float64
		out  float64 // how long the man is not detected, s
	}{
		{"by the NE pocket, 15 fps, 1.5 s", pk.Add(pk.Scale(-1).Unit().Scale(50)), 15, 1.5},
		{"mid-board, 15 fps, 1.5 s", board.V(60, -40), 15, 1.5},
		{"by the NE pocket, 30 fps, 1.3 s", pk.Add(pk.Scale(-1).Unit().Scale(50)), 30, 1.3},
	} {
		fr := func(sec float64) int { return int(sec*c.fps + 0.5) }
		var (
			cover = fr(1.4) // the hand over the striker
			gone  = fr(2)   // the first frame without the striker (in the hand) and the man
			lift  = fr(2.3) // the hand leaves with the striker
			back  = gone + fr(c.out)
			down  = fr(4.2) // the striker put down again
			end   = fr(5.5)
		)
		evs := playFrames(t, end, c.fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9})
			if i < gone || i >= back {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: c.man, Score: 1, ClassScore: 0.9})
			}
			switch {
			case i < gone:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: at, Score: 1, ClassScore: 1, Partial: i >= cover})
			case i >= down:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: put, Score: 1, ClassScore: 1})
			}
			if i >= cover && i < lift {
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{hand}}
			}
		})
		for _, e := range evs {
			switch e.Type {
			case events.StrokeStart, events.StrokeEnd, events.Pocketed, events.Overboard:
				t.Errorf("%s: the man dropped out %.1f s as the striker was picked up: want no stroke, got %v", c.name, c.out, e)
			}
		}
	}
}
