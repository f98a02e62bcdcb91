package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// At 15 fps (v-plain-print-queen at fps15) the striker, struck from N's
// base line towards SW's corner, is seen one frame before it bounces off
// the cushion and one frame after; the two sightings lie on a line that
// runs on into SW's mouth. It is not seen again there (it came back off
// the cushion, its image taken for other discs), and comes to rest
// mid-board. The old code took its fall as seen (its last sighting on a
// measured slide within two diameters of the mouth): a striker pocketed,
// a foul, applied without a word. Now a striker's fall counts as seen only
// when its way reaches the mouth by the first frame it was missed in;
// otherwise the pocketing is inferred (the referee holds it). A striker
// seen one frame short of the mouth, heading in, is seen going in, even
// fast and farther than two diameters from it.
func TestStrikerFallSeenOnlyGoingIn(t *testing.T) {
	const (
		fps   = 15
		flick = 30
		end   = 75
	)
	g := board.ICF()
	k := g.Pocket(board.SW).C
	place := board.V(40, -g.BaseCircleY())
	hand := scene.Hand{Owner: "N", Elbow: board.V(70, -642), Wrist: board.V(50, -372),
		Fingertip: board.V(40, place.Y+5), ArmWidth: 73, HandWidth: 87, Z: 13}
	// play: the striker seen on its way from its place to the sightings
	// given last (one a frame from flick+n on), then not at all, or at
	// rest at rest (when set) from frame flick+n+gone on.
	play := func(last []board.Vec, rest *board.Vec, gone int) []events.Event {
		first := last[0]
		const n = 6 // frames from the flick to the first of last
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.Black, MM: board.V(150, 60), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.White, MM: board.V(230, -160), Score: 1, ClassScore: 0.9})
			var p *board.Vec
			switch j := i - flick; {
			case j <= 0:
				p = &place
			case j < n:
				q := place.Add(first.Sub(place).Scale(float64(j) / n))
				p = &q
			case j-n < len(last):
				p = &last[j-n]
			case rest != nil && j-n-len(last) >= gone:
				p = rest
			}
			if p != nil {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: *p, Score: 1, ClassScore: 1})
			}
			if i < 12 {
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{hand}}
			}
		})
	}
	rest := board.V(-260, 60)
	u := board.V(0.9, -0.43).Unit() // from SW's mouth into the board
	cases := []struct {
		name     string
		last     []board.Vec
		rest     *board.Vec
		inferred bool
	}{
		// 40 mm a frame along the cushion from 110 mm off the mouth's
		// centre: two frames short of the mouth when it was last seen.
		{"bounce between two frames", []board.Vec{k.Add(board.V(150, -43)), k.Add(board.V(110, -35)), k.Add(board.V(70, -27))}, &rest, true},
		{"bounce, never seen again", []board.Vec{k.Add(board.V(150, -43)), k.Add(board.V(110, -35)), k.Add(board.V(70, -27))}, nil, true},
		// last seen 45 mm off the mouth's centre, 45 mm a frame towards it.
		{"seen one frame short of the mouth", []board.Vec{k.Add(board.V(135, -42)), k.Add(board.V(90, -28)), k.Add(board.V(45, -14))}, nil, false},
		// 1.6 m/s (h06 at fps15late): last seen 110 mm from the mouth's
		// centre, farther than two diameters from the mouth, and in it by
		// the next frame.
		{"fast, one frame short of the mouth", []board.Vec{k.Add(u.Scale(335)), k.Add(u.Scale(220)), k.Add(u.Scale(110))}, nil, false},
	}
	for _, c := range cases {
		evs := play(c.last, c.rest, 5)
		by := checkedByType(t, c.name, evs)
		var pk *events.Event
		for i, e := range by[events.Pocketed] {
			if e.ID == "S" {
				pk = &by[events.Pocketed][i]
			}
		}
		if len(by[events.StrokeStart]) != 1 || pk == nil || *pk.Pocket != board.SW {
			t.Errorf("%s: want one stroke and the striker pocketed in SW, got %v", c.name, evs)
			continue
		}
		if pk.Inferred != c.inferred {
			t.Errorf("%s: the striker's pocketing inferred %v, want %v (%+v)", c.name, pk.Inferred, c.inferred, *pk)
		}
	}
}
