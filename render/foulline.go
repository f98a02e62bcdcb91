package render

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// BeyondFoulLine returns how far, in mm, the hand and forearm h reach
// beyond the diagonal foul lines (the arrows, extended) that bound side
// s's quarter of the board, seen from directly above, drawn exactly as
// this package draws them in a clip of the given seed (the seed given to
// [New]; it decides which hand it is and the sleeve): the largest distance
// of any part of the outline past either line, negative when everything
// lies inside by that much.
//
// The ground truth of a rendered clip judges the arm-over-the-foul-line
// foul with it, so that the truth calls the foul exactly when the picture
// shows it (the simulator's own hand model, two capsules, is coarser: the
// rendered fingers end where its capsule's round end begins, and the
// thumb stands out to one side).
func BeyondFoulLine(h scene.Hand, s board.Side, seed int64) float64 {
	return newHandShape(h, lookFor(h.Owner, uint64(seed))).beyond(s)
}

// beyond is [BeyondFoulLine] for a built shape. Every part of the outline
// is convex (the palm a trapezoid with rounded corners inside it, the
// fingers, the thumb and the forearm tapered capsules), so the largest
// value of the linear distance past a line is reached at a corner or at a
// capsule's end.
func (hs *handShape) beyond(s board.Side) float64 {
	best := math.Inf(-1)
	for _, sg := range [2]float64{1, -1} {
		past := func(p board.Vec) float64 {
			l := board.ToLocal(s, p)
			return (sg*l.X - l.Y) / math.Sqrt2
		}
		capsuleMax := func(c capsule, grow float64) float64 {
			return math.Max(past(c.a)+c.ra*grow, past(c.b)+c.rb*grow)
		}
		for _, c := range [][2]float64{{0, 0.4}, {0, -0.4}, {hs.lp, 0.5}, {hs.lp, -0.5}} {
			best = math.Max(best, past(hs.w.Add(hs.u.Scale(c[0])).Add(hs.v.Scale(c[1]*hs.hw))))
		}
		for _, f := range hs.fing {
			best = math.Max(best, capsuleMax(f, 1))
		}
		// The sleeve (from the arm's start to slT along it) is drawn 10 %
		// wider than the bare forearm.
		arm := hs.arm
		if t := math.Min(hs.slT, 1); t > 0 {
			m := arm.a.Add(arm.b.Sub(arm.a).Scale(t))
			rm := arm.ra + (arm.rb-arm.ra)*t
			best = math.Max(best, capsuleMax(capsule{arm.a, m, arm.ra, rm}, 1.1))
			arm = capsule{m, arm.b, rm, arm.rb}
		}
		best = math.Max(best, capsuleMax(arm, 1))
	}
	return best
}
