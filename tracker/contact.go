package tracker

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// Contacts are inferred from trajectories, never seen directly: a frame
// shows discs apart, the touch happens between frames.
//
//   - A disc at rest that starts moving was struck: its direction of
//     motion is the line of centres at the touch (the impulse between two
//     smooth discs acts along it), and its path traced back to its resting
//     place gives the moment. The striker is the disc whose own path (as
//     it was before) came within the sum of the radii of the resting place
//     at that moment, or a touching neighbour set moving at the same
//     instant (the pack of the break passes the impulse on).
//   - A moving disc whose path bends hit a cushion (its path before the
//     bend reaches the cushion line in the interval) or another moving
//     disc whose path bent at the same time (their paths before the bend
//     come within the sum of the radii).
//
// The time of a contact is solved on the paths, to a fraction of a frame.

// resolveOnsets finds what struck each disc that was set moving.
func (tk *Tracker) resolveOnsets() {
	if tk.stroke == nil {
		return
	}
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if !tr.onsetPending {
			continue
		}
		if tr.onsetSeg >= len(tr.segs) {
			tr.onsetPending = false
			continue
		}
		ms := &tr.segs[tr.onsetSeg]
		first := tr.hist[ms.first]
		ready := ms.n >= 2 || tr.state != Moving || tr.misses > 0 || tk.t-first.t >= 2.5*tk.dt || tr.onsetSeg < len(tr.segs)-1
		if !ready {
			continue
		}
		tr.onsetPending = false
		tOn := (tr.onsetLo + first.t) / 2
		var dir board.Vec
		if ms.known && ms.v0.Len() > 0 {
			dir = ms.v0.Unit()
			lam := math.Max(0, ms.p0.Sub(tr.onsetFrom).Dot(dir))
			sp := ms.v0.Len()
			a := tk.cfg.Deceleration
			tOn = ms.t0 + (sp-math.Sqrt(sp*sp+2*a*lam))/a
		} else {
			dir = first.p.Sub(tr.onsetFrom).Unit()
		}
		tOn = math.Max(tr.onsetLo, math.Min(tOn, first.t))
		ms.from = tOn
		tr.onsetT, tr.onsetKnown = tOn, true
		if j, tc, _, _ := tk.hitter(i, tr.onsetFrom, dir, tOn, tr.onsetLo, first.t); j >= 0 {
			tk.addContact(j, i, tc, tk.pathAt(j, tc, tr.onsetLo), tr.onsetFrom)
		}
	}
}

// hitterOf finds what struck resting disc i (at p) between lo and hi when
// its direction is unknown.
func (tk *Tracker) hitterOf(i int, p board.Vec, lo, hi float64) (int, float64, board.Vec, float64) {
	return tk.hitter(i, p, board.Vec{}, -1, lo, hi)
}

// hitter finds the disc that struck disc i, resting at from, which then
// moved off in direction dir (zero: unknown) at about time tOn (negative:
// unknown), between its last sighting at rest (lo) and its first sighting
// in motion (hi). It returns the hitter (or -1), the time of the contact,
// the line of centres and an estimate of the struck disc's speed.
func (tk *Tracker) hitter(i int, from, dir board.Vec, tOn, lo, hi float64) (int, float64, board.Vec, float64) {
	tr := &tk.tracks[i]
	dt := tk.dt
	best, bs := -1, math.Inf(1)
	var bt, bspeed float64
	var bn board.Vec
	for j := range tk.tracks {
		if j == i {
			continue
		}
		o := &tk.tracks[j]
		if !o.inStroke || len(o.segs) == 0 {
			continue
		}
		D := tr.r + o.r
		var tc float64
		ok := false
		if sg := tk.segAt(j, lo); tk.movingAt(j, lo) && !(sg.guessed && dir != (board.Vec{}) && tOn >= 0) {
			f := func(t float64) float64 { return tk.pathAt(j, t, lo).Dist(from) - D }
			tc, ok = firstCrossing(f, lo-dt, hi+dt/2)
			if !ok {
				if tm, fm := minimise(f, lo-dt, hi+dt/2); fm < tk.cfg.ContactMM {
					tc, ok = tm, true
				}
			}
		} else if sg := tk.segAt(j, lo); sg != nil && (!sg.known || sg.guessed) && sg.n == 1 && dir != (board.Vec{}) && tOn >= 0 && o.hist[sg.first].t < tOn {
			// The hitter was seen only once before the contact: its path
			// ran from that sighting to the point of contact, which the
			// struck disc's direction gives.
			p1 := o.hist[sg.first]
			c := from.Sub(dir.Scale(D))
			span := tOn - p1.t
			if span > 1e-3 {
				a := tk.cfg.Deceleration
				v1 := (c.Dist(p1.p) + a*span*span/2) / span
				u := c.Sub(p1.p).Unit()
				if v1 > 100 && v1 < tk.cfg.MaxSpeed && u.Dot(dir) > 0.3 && !tk.pathBlocked(j, i, p1.p, c, lo) {
					sg.v0, sg.known, sg.guessed = u.Scale(v1), true, false
					sg.t0, sg.p0 = p1.t, p1.p
					if j == idxS && tk.stroke != nil && tk.stroke.startN > 0 {
						tk.stroke.startN = -1 // the flick can be traced back now
					}
					tc, ok = tOn, true
				}
			}
		} else if o.fromRest && o.onsetSeg < len(o.segs) && o.onsetSeg > 0 {
			// A touching neighbour set moving at the same instant.
			olo := o.onsetLo
			ohi := o.hist[o.segs[o.onsetSeg].first].t
			rest := o.segs[o.onsetSeg-1].p0
			if olo <= hi+dt && ohi >= lo-dt && rest.Dist(from) <= D+tk.cfg.ContactMM {
				tc, ok = (olo+ohi)/2, true
				if o.onsetKnown {
					tc = o.onsetT
				}
				if tOn >= 0 {
					tc = math.Max(tc, math.Min(tOn, ohi))
				}
			}
		}
		if !ok {
			continue
		}
		pj := tk.pathAt(j, tc, lo)
		n := from.Sub(pj).Unit()
		score := 0.0
		if dir == (board.Vec{}) && tOn < 0 {
			// Nothing to check against: the earliest disc that came in
			// touch with a real path, before neighbours set moving.
			score = (tc - lo) / dt
			if !tk.movingAt(j, lo) {
				score += 5
			}
		}
		if dir != (board.Vec{}) {
			c := dir.Dot(n)
			if c < 0.6 {
				continue
			}
			score += (1 - c) * 10
		}
		if tOn >= 0 {
			e := math.Abs(tc - tOn)
			if e > 2.5*dt {
				continue
			}
			score += e / dt
		}
		if score < bs {
			best, bs, bt, bn = j, score, tc, n
			bspeed = 0
			if tk.movingAt(j, lo) {
				k := 0
				for m := range o.segs {
					if o.segs[m].from <= lo {
						k = m
					}
				}
				vh := tk.mot.vel(&o.segs[k], tc).Dot(n)
				mh, ms := tk.g.Mass(o.kind), tk.g.Mass(tr.kind)
				bspeed = math.Max(0, (1+0.85)*mh/(mh+ms)*vh)
			}
		}
	}
	return best, bt, bn, bspeed
}

// pathBlocked reports whether a disc other than i lay, at time ref, across
// the straight path of track j from a to b: j would have struck it first.
func (tk *Tracker) pathBlocked(j, i int, a, b board.Vec, ref float64) bool {
	sgm := board.Segment{A: a, B: b}
	rj := tk.tracks[j].r
	for k := range tk.tracks {
		if k == i || k == j || !tk.tracks[k].state.OnBoard() && !tk.tracks[k].inStroke {
			continue
		}
		if len(tk.tracks[k].segs) == 0 && !tk.tracks[k].state.atRest() {
			continue
		}
		p := tk.pathAt(k, ref, ref)
		if len(tk.tracks[k].segs) == 0 {
			p = tk.tracks[k].restPos
		}
		if sgm.DistTo(p) < rj+tk.tracks[k].r-1 {
			return true
		}
	}
	return false
}

// segAt returns the segment of track j in force at time ref.
func (tk *Tracker) segAt(j int, ref float64) *seg {
	tr := &tk.tracks[j]
	if len(tr.segs) == 0 {
		return nil
	}
	k := 0
	for m := range tr.segs {
		if tr.segs[m].from <= ref {
			k = m
		}
	}
	return &tr.segs[k]
}

// minimise samples f over [lo, hi] and returns the smallest value found.
func minimise(f func(float64) float64, lo, hi float64) (float64, float64) {
	bt, bv := lo, math.Inf(1)
	const n = 60
	for k := 0; k <= n; k++ {
		t := lo + (hi-lo)*float64(k)/n
		if v := f(t); v < bv {
			bt, bv = t, v
		}
	}
	return bt, bv
}

// grazeMM: a moving disc whose path passes this close to touching a
// resting disc touched it (they cannot overlap, and a thin cut hardly
// moves either).
const grazeMM = 1.0

// resolveGrazes finds thin contacts: a moving disc whose path, between its
// last two detections, came within the sum of the radii (plus grazeMM) of a
// disc at rest.
func (tk *Tracker) resolveGrazes() {
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.state != Moving || !tr.seen || len(tr.segs) == 0 {
			continue
		}
		s := &tr.segs[len(tr.segs)-1]
		if !s.known || s.n < 3 {
			continue
		}
		lo, hi := tr.hist[s.first+s.n-2].t, tr.hist[s.first+s.n-1].t
		for j := range tk.tracks {
			o := &tk.tracks[j]
			if j == i || !o.state.atRest() || o.misses > 0 {
				continue
			}
			D := tr.r + o.r
			rest := o.restPos
			if tk.mot.at(s, hi).Dist(rest) > D+60 {
				continue
			}
			f := func(t float64) float64 { return tk.mot.at(s, t).Dist(rest) - D - grazeMM }
			tc, ok := firstCrossing(f, lo, hi)
			if !ok || tk.hasPair(i, j, tc) {
				continue
			}
			// The moment of touching: where the path reaches D.
			if t2, ok2 := firstCrossing(func(t float64) float64 { return tk.mot.at(s, t).Dist(rest) - D }, lo-tk.dt, hi); ok2 {
				tc = t2
			}
			tk.addContact(i, j, tc, tk.mot.at(s, tc), rest)
		}
	}
}

// hasPair reports whether a contact of a and b was reported near time t.
func (tk *Tracker) hasPair(a, b int, t float64) bool {
	for _, c := range tk.stroke.contacts {
		if ((c.a == a && c.b == b) || (c.a == b && c.b == a)) && math.Abs(c.t-t) < 3*tk.dt {
			return true
		}
	}
	return false
}

// resolveBreaks explains the bends in the paths of moving discs: the
// cushion, or another moving disc.
func (tk *Tracker) resolveBreaks() {
	st := tk.stroke
	if st == nil {
		return
	}
	dt := tk.dt
	for k := range st.breaks {
		b := &st.breaks[k]
		if b.done {
			continue
		}
		tr := &tk.tracks[b.i]
		if b.pre+1 >= len(tr.segs) || b.pre >= len(tr.segs) {
			b.done = true
			continue
		}
		post := &tr.segs[b.pre+1]
		if post.n < 2 && tr.state == Moving && tr.misses == 0 && tk.t-b.hi < 2.5*dt {
			continue
		}
		b.done = true
		if tk.hasContactNear(b.i, b.lo-dt, b.hi+dt) {
			continue
		}
		pre := &tr.segs[b.pre]
		lim := tk.g.Half() - tr.r
		f := func(t float64) float64 {
			p := tk.mot.at(pre, t)
			return lim - math.Max(math.Abs(p.X), math.Abs(p.Y))
		}
		if tc, ok := firstCrossing(f, b.lo, b.hi+dt/2); ok {
			p := tk.mot.at(pre, tc)
			w := p
			h := tk.g.Half()
			if math.Abs(p.X) >= math.Abs(p.Y) {
				p.X = math.Copysign(lim, p.X)
				w = board.V(math.Copysign(h, p.X), p.Y)
			} else {
				p.Y = math.Copysign(lim, p.Y)
				w = board.V(p.X, math.Copysign(h, p.Y))
			}
			tk.addContact(b.i, -1, tc, p, w)
			continue
		}
		for m := range st.breaks {
			c := &st.breaks[m]
			if m == k || c.i == b.i || c.lo > b.hi+dt || c.hi < b.lo-dt {
				continue
			}
			o := &tk.tracks[c.i]
			if c.pre >= len(o.segs) {
				continue
			}
			pc := &o.segs[c.pre]
			D := tr.r + o.r
			g := func(t float64) float64 { return tk.mot.at(pre, t).Dist(tk.mot.at(pc, t)) - D }
			lo, hi := math.Min(b.lo, c.lo)-dt/2, math.Max(b.hi, c.hi)
			tc, ok := firstCrossing(g, lo, hi)
			if !ok {
				if tm, fm := minimise(g, lo, hi); fm < tk.cfg.ContactMM {
					tc, ok = tm, true
				}
			}
			if ok {
				tk.addContact(b.i, c.i, tc, tk.mot.at(pre, tc), tk.mot.at(pc, tc))
				c.done = true
				break
			}
		}
	}
}

// hasContactNear reports whether a contact of track i was reported between lo and hi.
func (tk *Tracker) hasContactNear(i int, lo, hi float64) bool {
	for _, c := range tk.stroke.contacts {
		if (c.a == i || c.b == i) && c.t >= lo && c.t <= hi {
			return true
		}
	}
	return false
}

// addContact reports a contact between tracks a and b (b < 0: the frame)
// at time t with the centres at pa and pb.
func (tk *Tracker) addContact(a, b int, t float64, pa, pb board.Vec) {
	tk.addContactOf(a, b, t, pa, pb, tk.guessedAt(a, t) || b >= 0 && tk.guessedAt(b, t))
}

// guessedAt reports whether track i's motion at time t is a guess (a slide
// traced back, not fitted to sightings).
//
// The striker's flick traced from where it was seen standing to the disc
// it was seen to set moving is not a guess: both ends were seen, and a
// slide between them is straight.
func (tk *Tracker) guessedAt(i int, t float64) bool {
	sg := tk.segAt(i, t)
	if sg == nil {
		return false
	}
	if i == idxS && tk.stroke != nil && !tk.stroke.startInferred && !tk.stroke.unseen && !tk.coarse() && len(tk.tracks[i].segs) > 1 && sg == &tk.tracks[i].segs[1] {
		return false
	}
	return sg.guessed || !sg.known && sg.n <= 1 && sg.v0.Len() > 0
}

// coarse reports whether the frames come too far apart (under 20 a
// second) for a flick traced between two sightings to be taken as seen:
// a flick and its first touch fit between two frames, and which disc it
// touched first, and where, is a guess.
func (tk *Tracker) coarse() bool { return tk.dt > 1.0/20 }

// addContactOf is addContact saying whether the contact was inferred
// (from paths guessed, not fitted to sightings either side).
func (tk *Tracker) addContactOf(a, b int, t float64, pa, pb board.Vec, inferred bool) {
	st := tk.stroke
	if st == nil {
		return
	}
	for _, c := range st.contacts {
		if ((c.a == a && c.b == b) || (c.a == b && c.b == a)) && math.Abs(c.t-t) < 3*tk.dt {
			return
		}
	}
	st.contacts = append(st.contacts, contactRec{a, b, t})
	// The striker first, as the simulator writes them; else the hitter.
	if b == idxS {
		a, b, pa, pb = b, a, pb, pa
	}
	e := events.Event{Type: events.Contact, T: t, A: tk.tracks[a].id, AMM: events.MMPtr(pa), BMM: events.MMPtr(pb), Inferred: inferred}
	if b < 0 {
		e.B = events.Frame
	} else {
		e.B = tk.tracks[b].id
	}
	tk.emit(e)
}
