package tracker

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// A slow striker (under blurSpeed) first seen far from its place is taken
// by checkFlick for one carried there and set down: at that speed it is
// seen as it slides, so only a hand or missing frames can have hidden its
// first centimetres. At 15 fps, or with frames dropped, a hand over the
// place does hide them: the striker, last seen at its place under the
// aiming hand, is next seen 180 mm on, already sliding. What tells the
// two apart is the slide: a struck striker loses speed to the board's
// friction along a line from its place, and that slide, traced back,
// leaves the place after the striker was last seen there, a place on a
// base line; a striker put down by a hand lies still, and one carried
// along moves as the hand does: at a steady pace, or slowing as it is set
// down with the hand on it (seen partly hidden), or accelerating, or with
// the hand around it (checkFlick's other tests).

// slowFromPlace reports whether slide sg of the striker (its first
// segment, first sighting first, at least three sightings fitting a
// friction slide) traced back at the configured deceleration passes
// through where the striker last stood still (tk.still), on its line,
// behind the first sighting, and leaves there after the striker was last
// seen there, the striker not seen between. It returns the place and the
// moment the slide left it.
func (tk *Tracker) slowFromPlace(sg *seg, first obs) (board.Vec, float64, bool) {
	s := &tk.tracks[idxS]
	st := tk.still
	if !st.ok || !sg.known || sg.n < 3 || sg.first != s.moveStart || st.t > first.t {
		return board.Vec{}, 0, false
	}
	// Its place is where a player strikes from: a base line area.
	if sd, ok := tk.g.BaseLineSide(st.p, s.r+10); !ok || sd != board.Quadrant(st.p) {
		return board.Vec{}, 0, false
	}
	// Not seen anywhere since it stood there.
	if first.t-s.unseenBefore > st.t+tk.dt/2 {
		return board.Vec{}, 0, false
	}
	v := tk.mot.vel(sg, first.t)
	sp := v.Len()
	if sp < tk.cfg.StrikeSpeed {
		return board.Vec{}, 0, false
	}
	u := v.Scale(1 / sp)
	rel := st.p.Sub(first.p)
	back := -rel.Dot(u)
	if back <= unseenFlickMM || math.Abs(rel.Cross(u)) > 6+3*tk.cfg.NoiseMM+0.03*back {
		return board.Vec{}, 0, false
	}
	// Losing speed as friction takes it, not carried at a steady pace:
	// the deceleration fitted to the sightings lies between half and
	// twice the board's (real boards differ), over long enough for
	// friction to show (frictionSpan).
	h := s.hist[sg.first : sg.first+sg.n]
	if h[len(h)-1].t-h[0].t < frictionSpan {
		return board.Vec{}, 0, false
	}
	// Out from under the hand: a striker seen partly hidden as it
	// moves has a hand on it (one setting it down slows it too).
	for _, o := range h {
		if o.partial {
			return board.Vec{}, 0, false
		}
	}
	if d, ok := fitDecel(h, u); !ok || d < tk.cfg.Deceleration/2 || d > 2*tk.cfg.Deceleration {
		return board.Vec{}, 0, false
	}
	// The slide at the board's friction from the place to the first
	// sighting: its speed there, and when it left.
	a := tk.cfg.Deceleration
	vs := math.Sqrt(sp*sp + 2*a*back)
	tf := first.t - (vs-sp)/a
	if tf < st.t-tk.dt/2 {
		return board.Vec{}, 0, false // left before it was last seen there
	}
	return st.p, tf, true
}

// noteSlowFromPlace holds the stroke just begun from a slow slide traced
// back to the striker's place (slowFromPlace) for the umpire: its start
// was not seen.
func (tk *Tracker) noteSlowFromPlace(place board.Vec, first obs) {
	if tk.stroke == nil {
		return
	}
	f0 := tk.frameOf(tk.still.t)
	tk.stroke.doubts = append(tk.stroke.doubts, events.Doubt{Kind: events.DoubtStartUnseen,
		Reason: fmt.Sprintf("the striker, last seen at its place at frame %d, was next seen at frame %d, %.0f mm from it, sliding away on the line from its place and slowing as a struck striker does: taken as struck from there, though its start was not seen (a hand or frames not analysed hid it)",
			f0, first.frame, first.p.Dist(place)),
		Frames: [2]int{f0, first.frame}, IDs: []string{"S"}})
}

// frictionSpan is how long a slow slide must be seen before its
// deceleration is told from a steady carry: friction takes 37 mm off the
// way of a steady pace in 0.25 s, far above the detector's noise.
const frictionSpan = 0.25

// fitDecel fits way = a + b·t − d·t²/2 along u to sightings h by least
// squares and returns d.
func fitDecel(h []obs, u board.Vec) (float64, bool) {
	if len(h) < 3 {
		return 0, false
	}
	t0, p0 := h[0].t, h[0].p
	var m [3][4]float64
	for _, o := range h {
		t := o.t - t0
		x := o.p.Sub(p0).Dot(u)
		row := [3]float64{1, t, -t * t / 2}
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				m[i][j] += row[i] * row[j]
			}
			m[i][3] += row[i] * x
		}
	}
	// Gaussian elimination with partial pivoting.
	for c := 0; c < 3; c++ {
		p := c
		for r := c + 1; r < 3; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		if math.Abs(m[c][c]) < 1e-12 {
			return 0, false
		}
		for r := 0; r < 3; r++ {
			if r == c {
				continue
			}
			f := m[r][c] / m[c][c]
			for k := c; k < 4; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	return m[2][3] / m[2][2], true
}
