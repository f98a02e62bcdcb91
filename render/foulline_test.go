package render

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// BeyondFoulLine agrees with the outline the renderer draws: sampling the
// plane every 0.5 mm, the farthest point past a foul line that lies inside
// the drawn hand or forearm is within a sample of it, for hands of every
// side, both thumbs, with and without sleeves, inside and across the lines.
func TestBeyondFoulLineMatchesTheDrawnOutline(t *testing.T) {
	hands := []struct {
		side board.Side
		h    scene.Hand
	}{
		{board.S, scene.Hand{Owner: "S", Elbow: board.V(100, 600), Wrist: board.V(40, 380), Fingertip: board.V(10, 250), ArmWidth: 70, HandWidth: 85, Z: 10}},
		{board.S, scene.Hand{Owner: "S", Elbow: board.V(-420, 520), Wrist: board.V(-250, 330), Fingertip: board.V(-190, 200), ArmWidth: 75, HandWidth: 90, Z: 1}},
		{board.E, scene.Hand{Owner: "E", Elbow: board.V(650, -100), Wrist: board.V(420, -150), Fingertip: board.V(260, -180), Z: 15}},
		{board.W, scene.Hand{Owner: "W", Elbow: board.V(-560, 380), Wrist: board.V(-330, 260), Fingertip: board.V(-220, 200), ArmWidth: 72, HandWidth: 88, Z: 5}},
		{board.N, scene.Hand{Owner: "N", Elbow: board.V(300, -640), Wrist: board.V(230, -400), Fingertip: board.V(200, -260), ArmWidth: 70, HandWidth: 85, Z: 20}},
	}
	crossed, inside := 0, 0
	worst := 0.0
	for seed := int64(1); seed <= 8; seed++ {
		for i, c := range hands {
			hs := newHandShape(c.h, lookFor(c.h.Owner, uint64(seed)))
			got := hs.beyond(c.side)
			want := math.Inf(-1)
			const step = 0.5
			lo, hi := bounds(hs)
			for x := lo.X; x <= hi.X; x += step {
				for y := lo.Y; y <= hi.Y; y += step {
					p := board.V(x, y)
					d, _, _ := hs.handSD(p)
					if d > 0 {
						if ad, _, _, _ := hs.armSD(p); ad > 0 {
							continue
						}
					}
					l := board.ToLocal(c.side, p)
					want = math.Max(want, math.Max(l.X-l.Y, -l.X-l.Y)/math.Sqrt2)
				}
			}
			worst = math.Max(worst, math.Abs(got-want))
			if math.Abs(got-want) > step {
				t.Errorf("seed %d hand %d (%s): BeyondFoulLine %.2f mm, the drawn outline reaches %.2f mm", seed, i, c.side, got, want)
			}
			if got > 0 {
				crossed++
			} else {
				inside++
			}
		}
	}
	t.Logf("%d hands across a foul line, %d inside; largest difference %.2f mm", crossed, inside, worst)
	if crossed == 0 || inside == 0 {
		t.Errorf("the cases do not test both sides of the line: %d across, %d inside", crossed, inside)
	}
}

// bounds is a box around the hand and the forearm.
func bounds(hs *handShape) (lo, hi board.Vec) {
	lo, hi = board.V(math.Inf(1), math.Inf(1)), board.V(math.Inf(-1), math.Inf(-1))
	add := func(p board.Vec, r float64) {
		lo = board.V(math.Min(lo.X, p.X-r), math.Min(lo.Y, p.Y-r))
		hi = board.V(math.Max(hi.X, p.X+r), math.Max(hi.Y, p.Y+r))
	}
	add(hs.cen, hs.rad+5)
	r := 1.2*math.Max(hs.arm.ra, hs.arm.rb) + 5
	add(hs.arm.a, r)
	add(hs.arm.b, r)
	return lo, hi
}
