package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
)

// A dark disc reported at rest with its centre inside NE's hole (15.6 mm
// from the pocket's centre, toward the corner: the hole itself, shaded,
// taken for a black man on a board small in the frame) is no disc: it is
// not tracked, and when the detector stops reporting it during a stroke
// nothing is pocketed. A black man resting on NE's lip (his centre 22.5 mm
// from the pocket's, just outside the 22.25 mm hole) is a man: tracked,
// and pocketed in NE (inferred) when he vanishes there during a stroke,
// as before. Also measured 2 mm inward (20.5 mm), and at 30 fps.
func TestNothingRestsInPocketMouth(t *testing.T) {
	const (
		flick  = 2.0 // s: the striker is struck (seen sliding north)
		vanish = 2.3 // s: the disc by NE is no longer reported
		end    = 5.0
		v0     = 1000.0 // mm/s
		decel  = 1177.0
	)
	g := board.ICF()
	at := board.V(100, g.BaseCircleY())
	pk := g.Pocket(board.NE)
	out := pk.C.Unit()              // from the board's centre through NE's
	inside := board.V(12.05, -9.95) // the false disc of a small-board clip
	run := func(fps float64, p board.Vec) []events.Event {
		n := int(end * fps)
		return playFrames(t, n, fps, func(i int, f *sight.Frame) {
			ti := float64(i) / fps
			tau := max(0, min(ti-flick, v0/decel))
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Striker, MM: at.Add(board.V(0, -(v0*tau - decel*tau*tau/2))), Score: 1, ClassScore: 1})
			if ti < vanish {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Black, MM: p, Score: 1, ClassScore: 1})
			}
		})
	}
	for _, fps := range []float64{15, 30} {
		for _, c := range []struct {
			name  string
			p     board.Vec
			isMan bool
		}{
			{"inside NE's hole", pk.C.Add(inside), false},
			{"on NE's lip", pk.C.Sub(out.Scale(22.5)), true},
			{"on NE's lip, measured 2 mm inward", pk.C.Sub(out.Scale(20.5)), true},
		} {
			evs := run(fps, c.p)
			by := checkedByType(t, c.name, evs)
			if len(by[events.StrokeEnd]) != 1 {
				t.Errorf("%s at %.0f fps: %d stroke ends, want one: %v", c.name, fps, len(by[events.StrokeEnd]), evs)
				continue
			}
			pocketed := by[events.Pocketed]
			if !c.isMan {
				for _, e := range pocketed {
					t.Errorf("%s at %.0f fps: a sighting in the hole is no disc, want nothing pocketed: %v", c.name, fps, e)
				}
				continue
			}
			if len(pocketed) != 1 || *pocketed[0].Piece != board.Black || pocketed[0].Pocket == nil || *pocketed[0].Pocket != board.NE || !pocketed[0].Inferred {
				t.Errorf("%s at %.0f fps: want the black man pocketed in NE (inferred), got %v", c.name, fps, pocketed)
			}
		}
	}
}
