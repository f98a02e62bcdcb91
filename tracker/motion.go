package tracker

import (
	"math"

	"github.com/boardcam/boardcam/board"
)

// obs is one detection matched to a track.
type obs struct {
	frame   int
	t       float64
	p       board.Vec
	px      [2]float64
	sigma   float64 // standard deviation of the centre, mm per axis
	partial bool
}

// seg is a stretch of a disc's motion between two collisions: a straight
// slide slowed by constant friction, p(τ) = p0 + u·(s·τ − a·τ²/2) for
// τ = t − t0 up to the stop at τ = s/a, where s = |v0| and u = v0/s. It is
// fitted by weighted least squares to the observations first…first+n−1
// of the track's history.
type seg struct {
	first, n int
	// from is the time from which the segment describes the motion: the
	// collision or flick that began it (estimated), or its first
	// detection.
	from   float64
	t0     float64
	p0, v0 board.Vec
	// known is false while the segment has a single observation and its
	// velocity is only a guess; guessed marks a single-observation
	// segment whose velocity was taken from the chord to the next
	// sighting across a collision (usable, but to be replaced when a
	// struck disc tells the line of the collision).
	known, guessed bool
	// hit: the segment's single observation came right after a collision
	// (the chord to it passes through a disc lying still, or it overlaps
	// one): its velocity is unknown, anything up to the speed before.
	hit bool
}

// motion evaluates segments with the configured deceleration.
type motion struct{ decel float64 }

// at returns the position on the segment at time t (extrapolating both
// ways; after the stop the disc stays put).
func (m motion) at(s *seg, t float64) board.Vec {
	sp := s.v0.Len()
	if sp == 0 {
		return s.p0
	}
	tau := t - s.t0
	if ts := sp / m.decel; tau > ts {
		tau = ts
	}
	u := s.v0.Scale(1 / sp)
	return s.p0.Add(u.Scale(sp*tau - m.decel*tau*tau/2))
}

// vel returns the velocity on the segment at time t.
func (m motion) vel(s *seg, t float64) board.Vec {
	sp := s.v0.Len()
	if sp == 0 {
		return board.Vec{}
	}
	v := sp - m.decel*(t-s.t0)
	if v <= 0 {
		return board.Vec{}
	}
	return s.v0.Scale(v / sp)
}

// stopTime is when the segment's disc stops.
func (m motion) stopTime(s *seg) float64 { return s.t0 + s.v0.Len()/m.decel }

// fit fits s to the observations h[s.first : s.first+s.n]. prior is the
// velocity to assume when there is a single observation.
func (m motion) fit(s *seg, h []obs, prior board.Vec) {
	o := h[s.first : s.first+s.n]
	s.t0 = o[0].t
	if len(o) == 1 {
		s.p0, s.v0, s.known = o[0].p, prior, false
		return
	}
	s.known = true
	// Initial guess from the chord.
	last := o[len(o)-1]
	dt := last.t - o[0].t
	v := last.p.Sub(o[0].p).Scale(1 / dt)
	var p0 board.Vec
	for iter := 0; iter < 3; iter++ {
		sp := v.Len()
		u := board.Vec{}
		ts := math.Inf(1)
		if sp > 0 {
			u = v.Scale(1 / sp)
			ts = sp / m.decel
		}
		// Weighted least squares of y = p + u·a·τ'²/2 = p0 + v·τ'' where
		// τ' is τ clamped at the stop; past the stop the position is
		// constant, which the clamp expresses as τ'' = τ_s.
		var W, T, TT float64
		var Y, TY board.Vec
		for _, q := range o {
			w := 1 / (q.sigma * q.sigma)
			tau := q.t - s.t0
			tc := math.Min(tau, ts)
			// Position model: p0 + u·(sp·tc − a·tc²/2). Linearise in
			// (p0, v) keeping u and the curvature term from the guess.
			y := q.p.Add(u.Scale(m.decel * tc * tc / 2))
			W += w
			T += w * tc
			TT += w * tc * tc
			Y = Y.Add(y.Scale(w))
			TY = TY.Add(y.Scale(w * tc))
		}
		det := W*TT - T*T
		if det <= 1e-12 {
			p0 = Y.Scale(1 / W)
			v = board.Vec{}
			break
		}
		v = TY.Scale(W).Sub(Y.Scale(T)).Scale(1 / det)
		p0 = Y.Scale(TT).Sub(TY.Scale(T)).Scale(1 / det)
	}
	s.p0, s.v0 = p0, v
}

// residual is the largest distance of the segment's observations from
// the fitted path.
func (m motion) residual(s *seg, h []obs) float64 {
	r := 0.0
	for _, q := range h[s.first : s.first+s.n] {
		r = math.Max(r, q.p.Dist(m.at(s, q.t)))
	}
	return r
}

// pathEnd is where a disc sliding freely from p with velocity v, between
// the cushions, would be after dt seconds, and what happened on the way.
type pathEnd struct {
	p, v board.Vec
	// pocket is set when the centre entered a pocket mouth, at time tp
	// (seconds after the start); the path stops there.
	pocketed bool
	pocket   board.Pocket
	tp       float64
	// cushion counts the reflections off the frame.
	cushion int
	// near is the pocket whose mouth the path came closest to, gap how
	// far outside the mouth the centre passed (negative: inside) and tn
	// when.
	near    board.Pocket
	gap, tn float64
	// stopped: the disc came to rest before dt.
	stopped bool
}

// slide moves a disc of radius r from p at velocity v for dt seconds on
// the board g, reflecting off the cushions (restitution 0.7) and stopping
// at a pocket mouth. It steps 1 ms at a time; dt is capped at 3 s.
func (m motion) slide(g *board.Geometry, p, v board.Vec, r, dt float64) pathEnd {
	const step = 0.001
	const restitution = 0.7
	lim := g.Half() - r
	out := pathEnd{p: p, v: v, gap: math.Inf(1)}
	dt = math.Min(dt, 3)
	mouths := [4]board.Circle{g.Pocket(board.SW), g.Pocket(board.SE), g.Pocket(board.NE), g.Pocket(board.NW)}
	for t := 0.0; t < dt; t += step {
		h := math.Min(step, dt-t)
		sp := out.v.Len()
		if sp == 0 {
			out.stopped = true
			break
		}
		dv := m.decel * h
		var nv board.Vec
		if dv >= sp {
			h = sp / m.decel
			nv = board.Vec{}
		} else {
			nv = out.v.Scale((sp - dv) / sp)
		}
		out.p = out.p.Add(out.v.Add(nv).Scale(h / 2))
		out.v = nv
		for k, c := range mouths {
			if d := c.C.Dist(out.p) - c.R; d < out.gap {
				out.gap, out.near, out.tn = d, board.Pockets[k], t+h
			}
		}
		if pk, ok := g.PocketAt(out.p); ok {
			out.pocketed, out.pocket, out.tp = true, pk, t+h
			return out
		}
		if out.p.X > lim || out.p.X < -lim {
			out.p.X = math.Copysign(2*lim-math.Abs(out.p.X), out.p.X)
			out.v.X = -out.v.X * restitution
			out.cushion++
		}
		if out.p.Y > lim || out.p.Y < -lim {
			out.p.Y = math.Copysign(2*lim-math.Abs(out.p.Y), out.p.Y)
			out.v.Y = -out.v.Y * restitution
			out.cushion++
		}
	}
	return out
}

// firstCrossing finds the first t in [lo, hi] where f goes from positive
// to non-positive, to within 1e-5 s; ok is false when f stays positive.
// f(lo) ≤ 0 returns lo.
func firstCrossing(f func(float64) float64, lo, hi float64) (float64, bool) {
	if hi < lo {
		return 0, false
	}
	if f(lo) <= 0 {
		return lo, true
	}
	n := int(math.Ceil((hi - lo) / 0.0005))
	n = max(4, min(n, 4000))
	prev := lo
	for i := 1; i <= n; i++ {
		t := lo + (hi-lo)*float64(i)/float64(n)
		if f(t) <= 0 {
			a, b := prev, t
			for b-a > 1e-5 {
				c := (a + b) / 2
				if f(c) <= 0 {
					b = c
				} else {
					a = c
				}
			}
			return b, true
		}
		prev = t
	}
	return 0, false
}
