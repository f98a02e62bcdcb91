package sim

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// segMode is how a disc moves during one segment of its trajectory.
type segMode uint8

const (
	// segFixed: not moving (rest, pocketed, overboard or off).
	segFixed segMode = iota
	// segSlide: sliding on the surface from p0 with velocity v0, slowed by
	// a constant friction deceleration until it stops.
	segSlide
	// segHeld: in a hand; the position follows the hand's fingertip.
	segHeld
	// segPushed: pushed along the surface by a finger at constant velocity
	// v0 until tEnd (a nudge), then at rest.
	segPushed
	// segFlight: in the air after a scripted jump: straight at v0, height
	// z0 + vz·τ − g·τ²/2, until tEnd; then fixed where it landed.
	segFlight
)

// segment is one piece of a disc's trajectory, valid from t0 until the next
// segment's t0. Positions inside a segment are computed analytically, so the
// scene at any instant is exact (see Trace.At).
type segment struct {
	t0    float64
	mode  segMode
	state scene.State
	p0    board.Vec
	v0    board.Vec
	// decel is the friction deceleration (mm/s²) of a sliding disc.
	decel float64
	// ang0 is the disc's angle at t0; spin is its change per mm travelled
	// (slide) or per second (pushed, flight).
	ang0, spin float64
	// z0 and vz describe a flight.
	z0, vz float64
	// tEnd ends a push or a flight.
	tEnd float64
	// hand indexes the trace's hand tracks for segHeld.
	hand int
	// pocket is set when state is Pocketed.
	pocket    board.Pocket
	hasPocket bool
}

// stopTime is the absolute time at which a sliding segment comes to rest.
func (s *segment) stopTime() float64 {
	sp := s.v0.Len()
	if s.mode != segSlide || sp == 0 {
		return s.t0
	}
	return s.t0 + sp/s.decel
}

// kinematics of a disc at one instant, as the physics needs them.
type kin struct {
	p, v, a board.Vec // position, velocity, acceleration (mm, mm/s, mm/s²)
	moving  bool      // sliding with non-zero speed
	collide bool      // on the surface, able to touch other discs
}

// kinAt evaluates a segment for the physics (slide and fixed segments only).
func (s *segment) kinAt(t float64) kin {
	switch s.mode {
	case segSlide:
		sp := s.v0.Len()
		if sp == 0 {
			return kin{p: s.p0, collide: true}
		}
		u := s.v0.Scale(1 / sp)
		tau := t - s.t0
		ts := sp / s.decel
		if tau >= ts {
			return kin{p: s.p0.Add(u.Scale(sp * sp / (2 * s.decel))), collide: true}
		}
		if tau < 0 {
			tau = 0
		}
		d := sp*tau - 0.5*s.decel*tau*tau
		v := sp - s.decel*tau
		return kin{p: s.p0.Add(u.Scale(d)), v: u.Scale(v), a: u.Scale(-s.decel), moving: true, collide: true}
	case segFlight:
		tau := math.Min(math.Max(t-s.t0, 0), s.tEnd-s.t0)
		return kin{p: s.p0.Add(s.v0.Scale(tau)), v: s.v0, moving: t < s.tEnd}
	case segFixed:
		return kin{p: s.p0, collide: s.state == scene.Rest}
	}
	return kin{p: s.p0}
}

// disc evaluates the segment at time t into a scene disc (ID and Kind are
// filled in by the caller). hands gives the hand tracks for held discs.
func (s *segment) disc(t float64, hands []*handTrack) scene.Disc {
	d := scene.Disc{Pos: s.p0, Angle: s.ang0, State: s.state}
	if s.hasPocket {
		p := s.pocket
		d.Pocket = &p
	}
	tau := t - s.t0
	if tau < 0 {
		tau = 0
	}
	switch s.mode {
	case segSlide:
		sp := s.v0.Len()
		if sp == 0 {
			d.State = scene.Rest
			return d
		}
		u := s.v0.Scale(1 / sp)
		ts := sp / s.decel
		if tau >= ts {
			dist := sp * sp / (2 * s.decel)
			d.Pos = s.p0.Add(u.Scale(dist))
			d.Angle = s.ang0 + s.spin*dist
			d.State = scene.Rest
			return d
		}
		dist := sp*tau - 0.5*s.decel*tau*tau
		d.Pos = s.p0.Add(u.Scale(dist))
		d.Vel = u.Scale(sp - s.decel*tau)
		d.Angle = s.ang0 + s.spin*dist
		d.State = scene.Moving
	case segPushed:
		if t >= s.tEnd {
			tau = s.tEnd - s.t0
			d.State = scene.Rest
		} else {
			d.Vel = s.v0
			d.State = scene.Moving
		}
		d.Pos = s.p0.Add(s.v0.Scale(tau))
		d.Angle = s.ang0 + s.spin*tau
	case segFlight:
		if t >= s.tEnd {
			tau = s.tEnd - s.t0
		} else {
			d.Vel = s.v0
		}
		d.Pos = s.p0.Add(s.v0.Scale(tau))
		d.Angle = s.ang0 + s.spin*tau
		d.Z = math.Max(0, s.z0+s.vz*tau-0.5*gravity*tau*tau)
	case segHeld:
		h := hands[s.hand]
		tip, z := h.tipAt(t)
		d.Pos = tip
		d.Z = math.Max(0, z-holdDepth)
		const dt = 1e-3
		a, _ := h.tipAt(t - dt)
		b, _ := h.tipAt(t + dt)
		d.Vel = b.Sub(a).Scale(1 / (2 * dt))
	}
	return d
}

// track is the whole trajectory of one disc: segments in time order.
type track struct {
	segs []segment
}

func (tr *track) cur() *segment { return &tr.segs[len(tr.segs)-1] }

// push appends a segment; a segment starting at the same instant as the
// last one replaces it, so that At never sees a zero-length segment.
func (tr *track) push(s segment) {
	if n := len(tr.segs); n > 0 {
		switch last := tr.segs[n-1].t0; {
		case last == s.t0:
			tr.segs[n-1] = s
			return
		case last > s.t0:
			panic("sim: segment out of time order")
		}
	}
	tr.segs = append(tr.segs, s)
}

// at returns the segment in force at time t.
func (tr *track) at(t float64) *segment {
	// The last segment whose t0 <= t.
	lo, hi := 0, len(tr.segs)
	for lo < hi {
		m := (lo + hi) / 2
		if tr.segs[m].t0 <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return &tr.segs[0]
	}
	return &tr.segs[lo-1]
}
