package tracker

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/sight"
)

// The diagonal foul lines of a side run from the centre through the two
// pockets at its ends: the side's quarter is local y ≥ |x|. A player's hand
// or arm over the board beyond them while striking is a foul. The tracker
// reads it from the occlusion mask: it probes small discs in two bands
// just beyond the lines, from a little in front of the base lines out over
// the frame; any probe mostly covered by a foreign object means the hand
// or arm reached across.

// armProbe is one probe: a point and how far beyond the foul line it lies.
type armProbe struct {
	p      board.Vec
	beyond float64 // perpendicular distance past the line, mm
}

// armResult is the reading of one frame for one side.
type armResult struct {
	frame int
	t     float64
	side  board.Side
	hit   bool
	p     board.Vec
	// reach is how far the occlusion's mask may reach beyond the hand
	// (sight.OcclusionReach; 0 when it does not say): a hit less than
	// that beyond the line does not show that the hand crossed it.
	reach float64
}

// armCache holds the probes and each side's last few readings.
type armCache struct {
	probes [4][]armProbe
	last   [4][8]armResult
	n      [4]int
}

// Probe geometry.
const (
	armProbeR      = 3.0  // probe disc radius, mm
	armProbeHidden = 0.6  // covered fraction that counts
	armProbeStep   = 12.0 // spacing along the line, mm
	armProbeInner  = 40.0 // how far in front of the front line the bands start, mm
)

var armProbeOffsets = [...]float64{9, 24, 45} // |x| − y of the probe rows, mm

func (a *armCache) init(g *board.Geometry) {
	y0 := g.FrontInner() - armProbeInner
	y1 := g.Half() + 0.8*g.FrameWidth
	lim := g.Half() + g.FrameWidth
	for _, s := range board.Sides {
		var ps []armProbe
		for y := y0; y <= y1; y += armProbeStep {
			for _, d := range armProbeOffsets {
				for _, sg := range [2]float64{1, -1} {
					x := sg * (y + d)
					if math.Abs(x) > lim {
						continue
					}
					ps = append(ps, armProbe{p: board.FromLocal(s, board.V(x, y)), beyond: d / math.Sqrt2})
				}
			}
		}
		a.probes[s] = ps
		for i := range a.last[s] {
			a.last[s][i].frame = -1
		}
	}
}

// read probes the current frame's occlusion for side s.
func (a *armCache) read(tk *Tracker, s board.Side) armResult {
	for _, r := range a.last[s] {
		if r.frame == tk.frame && r.t == tk.t {
			return r
		}
	}
	res := armResult{frame: tk.frame, t: tk.t, side: s}
	if tk.occ != nil {
		if or, ok := tk.occ.(sight.OcclusionReach); ok {
			res.reach = or.ReachMM()
		}
		best := -1.0
		for _, pr := range a.probes[s] {
			if pr.beyond <= best {
				continue
			}
			if tk.occ.Hidden(pr.p, armProbeR) >= armProbeHidden {
				best, res.hit, res.p = pr.beyond, true, pr.p
			}
		}
	}
	a.last[s][a.n[s]%len(a.last[s])] = res
	a.n[s]++
	return res
}

// observe reads, between strokes, the sides whose base line area a hand
// reaches over, so that the frame of a flick is at hand when the flick is
// recognised a frame or two later.
func (a *armCache) observe(tk *Tracker) {
	if tk.occ == nil || tk.tracks[idxS].state == Moving && tk.tracks[idxS].misses == 0 {
		return // no hand, or the striker in plain motion (carried): no flick this frame
	}
	g := tk.g
	for _, s := range board.Sides {
		c := board.FromLocal(s, board.V(0, g.BaseCircleY()))
		if tk.occ.Hidden(c, g.BaseCircleX()+g.BaseCircleDiameter) > 0.01 {
			a.read(tk, s)
		}
	}
}

// beyond reports whether the hand or arm of side s was beyond its foul
// lines at the flick (time tf): the last reading at or before tf, else
// the first after it; the probe furthest across, and how far the mask
// may reach beyond the hand (armResult.reach).
func (a *armCache) beyond(tk *Tracker, s board.Side, tf float64) (bool, board.Vec, float64) {
	a.read(tk, s)
	var before, after *armResult
	for k := range a.last[s] {
		r := &a.last[s][k]
		if r.frame < 0 || r.t < tf-3*tk.dt {
			continue
		}
		if r.t <= tf+0.25*tk.dt {
			if before == nil || r.t > before.t {
				before = r
			}
		} else if after == nil || r.t < after.t {
			after = r
		}
	}
	switch {
	case before != nil:
		return before.hit, before.p, before.reach
	case after != nil:
		return after.hit, after.p, after.reach
	}
	return false, board.Vec{}, 0
}
