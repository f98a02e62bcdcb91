package tracker

import (
	"fmt"
	"math"
	"sort"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// strokeState is the bookkeeping of the stroke in progress.
type strokeState struct {
	side        board.Side
	startT      float64
	start       board.Vec
	startBehind bool // the striker started on or behind its front line
	crossed     bool
	strikerPrev float64 // time of the striker's last detection not yet across
	breaks      []brk
	contacts    []contactRec
	// startSeq and armSeq identify the held stroke_start and
	// arm_over_foul_line events; startN is the number of detections of
	// the striker's first slide they were computed from (0: final).
	startSeq, armSeq, startN int
	// crossSeq is the held front_line_crossed; crossLo and crossHi the
	// striker's detections either side of the crossing.
	crossSeq         int
	crossLo, crossHi float64
	// startInferred and startSigma: how the striker's place at the flick
	// was established (see markStart).
	startInferred bool
	startSigma    float64
	// unseen: the stroke was not seen to start (it fell in the frames of
	// unseenGap, not analysed); no stroke_start was emitted.
	unseen    bool
	unseenGap frameGap
	// unseenWhy: the stroke was not seen to start although no frame was
	// missing (see checkStartUnseen): what was seen instead.
	unseenWhy string
	// doubts found during the stroke (see account.go); twoStrikers counts
	// the frames running with two sure strikers (-1: said), from twoFrom.
	doubts      []events.Doubt
	twoStrikers int
	twoFrom     int
}

// brk is a collision seen in one track's motion: its path bent between
// the detections at lo and hi. pre indexes the segment before the bend.
type brk struct {
	i, pre int
	lo, hi float64
	done   bool
}

// contactRec is a contact already reported (b < 0: the frame).
type contactRec struct {
	a, b int
	t    float64
}

func (st *strokeState) dropBreaks(i int) {
	keep := st.breaks[:0]
	for _, b := range st.breaks {
		if b.i != i {
			keep = append(keep, b)
		}
	}
	st.breaks = keep
}

// unseenFlickMM is how far a striker flicked from under the aiming hand
// can slide before it is first seen (the hand and forearm hide it), unless
// it is faster than blurSpeed (mm/s), when motion blur may hide it longer.
const (
	unseenFlickMM = 150.0
	blurSpeed     = 2000.0
)

// maxStroke is the longest a stroke may last before it is ended anyway.
const maxStroke = 30.0

// stillPos is where the striker was last seen standing still.
type stillPos struct {
	p  board.Vec
	t  float64
	ok bool
}

// noteStriker keeps track of where the striker last stood still: its
// resting place whenever it is found at rest between strokes.
func (tk *Tracker) noteStriker(o obs) {
	s := &tk.tracks[idxS]
	if s.state.atRest() && tk.stroke == nil && s.moveStreak == 0 {
		tk.still = stillPos{s.restPos, o.t, true}
	}
	tk.way.note(tk.still, o, tk.occ, s.r)
}

// idle runs the between-strokes logic: lost discs, the arm check cache
// and the start of a stroke.
func (tk *Tracker) idle() {
	tk.placing()
	tk.resolveLost(false)
	tk.armCache.observe(tk)
	if tk.checkFlick() || tk.checkStruck() || tk.checkStartUnseen() || tk.checkVanished() || tk.checkFlickOnce() || tk.checkKnocked() {
		tk.inStroke()
	}
}

// struckFirst returns the disc that started moving first, on its own (no
// hand over it) and fast, since the striker was last seen standing:
// the mark of a stroke whose striker went too fast to be seen. -1: none.
func (tk *Tracker) struckFirst() int {
	var buf [nTracks]int
	if c := tk.struckFirstAll(buf[:0]); len(c) > 0 {
		return c[0]
	}
	return -1
}

// struckFirstAll appends to c the discs that started moving first (within
// half a frame of the first), on their own and fast — a pack shares the
// blow, and its men are seen leaving in the same frame — the one nearest
// where the striker last stood still first.
func (tk *Tracker) struckFirstAll(c []int) []int {
	bt := math.Inf(1)
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if i == idxS || tr.state != Moving || !tr.fromRest || len(tr.hist) <= tr.moveStart || len(tr.segs) == 0 {
			continue
		}
		first := tr.hist[tr.moveStart]
		if tk.t-first.t > 0.5 {
			continue
		}
		if (first.p.Dist(tr.onsetFrom) < 3*tk.cfg.MoveMM || first.p.Dist(tr.onsetFrom)/math.Max(first.t-tr.onsetLo, 1e-3) < 2*tk.cfg.StrikeSpeed) &&
			!tk.slidesFast(tr) {
			continue // a slow push
		}
		if tk.occ != nil && tk.occ.Hidden(tr.onsetFrom, tr.r+30) > 0.02 {
			continue // a hand is there: moved by hand
		}
		switch {
		case first.t < bt-tk.dt/2:
			c, bt = append(c[:0], i), first.t
		case first.t < bt+tk.dt/2:
			c, bt = append(c, i), math.Min(bt, first.t)
		}
	}
	if st := tk.still; st.ok {
		sort.SliceStable(c, func(a, b int) bool {
			return tk.tracks[c[a]].onsetFrom.Dist(st.p) < tk.tracks[c[b]].onsetFrom.Dist(st.p)
		})
	}
	return c
}

// slidesFast reports whether moving track tr, first seen barely off its
// place (struck in the middle of the exposure, or its first sighting
// smeared with the striker's), now slides away from it as a struck disc
// does: a slide fitted to sightings, fast, losing speed, and leading
// away from where it lay.
func (tk *Tracker) slidesFast(tr *track) bool {
	sg := &tr.segs[len(tr.segs)-1]
	if !sg.known || sg.guessed || sg.n < 3 || sg.first < tr.moveStart {
		return false
	}
	last := tr.hist[sg.first+sg.n-1]
	v := tk.mot.vel(sg, last.t)
	if v.Len() < 2*tk.cfg.StrikeSpeed || tk.accelerating(sg, tr.hist) {
		return false
	}
	if tk.mot.residual(sg, tr.hist) > 3+4*tk.cfg.NoiseMM*(1+sg.v0.Len()/2000) {
		return false
	}
	away := last.p.Sub(tr.onsetFrom)
	return away.Len() > 4*tk.cfg.MoveMM && away.Unit().Dot(v.Unit()) > 0.9
}

// handOnBaseLine returns the middle of the stretch of a base line a hand
// has been over since time since — the base line with the longest such
// stretch — or false when no hand was over one.
func (tk *Tracker) handOnBaseLine(since float64) (board.Vec, bool) {
	span := tk.g.BaseCircleX() + tk.g.BaseCircleDiameter/2
	bestN := 0
	var best board.Vec
	for _, side := range board.Sides {
		n := 0
		var sum float64
		for x := -span; x <= span; x += 10 {
			p := board.FromLocal(side, board.V(x, tk.g.BaseCircleY()))
			if tk.hands.near(p, 1, since) {
				n++
				sum += x
			}
		}
		if n > bestN {
			bestN = n
			best = board.FromLocal(side, board.V(sum/float64(n), tk.g.BaseCircleY()))
		}
	}
	return best, bestN > 0
}

// checkStruck starts a stroke that checkFlick could not see: discs were
// set moving, fast and with no hand near them, while the striker — last
// seen on a base line, or not seen — was not seen leaving it. The flick is
// traced back from the first disc struck: its direction is the line of
// centres at the touch, its speed tells the striker's (a striker of mass M
// hitting a man of mass m full sends it at 1.85·M/(M+m) of its speed),
// and the striker came from where it stood (else from the base line that
// line of centres meets going back).
func (tk *Tracker) checkStruck() bool {
	var buf [nTracks]int
	for _, i := range tk.struckFirstAll(buf[:0]) {
		tk.unplaced = unplacedNote{}
		if tk.checkStruckBy(i) {
			return true
		}
	}
	return false
}

// checkStruckBy is checkStruck with disc i the first struck.
func (tk *Tracker) checkStruckBy(i int) bool {
	tr := &tk.tracks[i]
	ms := &tr.segs[len(tr.segs)-1]
	if (!ms.known || ms.n < 2) && !(ms.n == 1 && tr.misses > 0 && ms.v0.Len() > 0) {
		// Wait for its direction — unless it was seen once and lost
		// since (into a pocket, say): the way from its place to that
		// sighting is the line of centres, the speed at least that.
		return false
	}
	s := &tk.tracks[idxS]
	if s.state == Moving && s.seen && s.misses == 0 && len(s.hist) > 0 && s.hist[0].t < tr.hist[tr.moveStart].t && !tk.unplacedStrike(i) {
		return false // the striker is in plain view: checkFlick decides (but see unplaced.go)
	}
	n := ms.v0.Unit()
	vw := ms.v0.Len()
	lam := math.Max(0, ms.p0.Sub(tr.onsetFrom).Dot(n))
	a := tk.cfg.Deceleration
	tOn := ms.t0 + (vw-math.Sqrt(vw*vw+2*a*lam))/a
	tOn = math.Max(tr.onsetLo, math.Min(tOn, tr.hist[tr.moveStart].t))
	vw = math.Sqrt(vw*vw + 2*a*lam) // its speed when struck
	c := tr.onsetFrom.Sub(n.Scale(s.r + tr.r))
	// Where the striker stood.
	var start board.Vec
	known := false
	if st := tk.still; st.ok && tOn-st.t < 5 {
		if _, ok := tk.g.BaseLineSide(st.p, s.r+10); ok {
			start, known = st.p, true
		}
	}
	if !known && (s.state == Occluded && !s.taken || s.state.atRest()) {
		if _, ok := tk.g.BaseLineSide(s.pos, s.r+10); ok {
			start, known = s.pos, true
		}
	}
	seen := known
	if !known && tk.unplaced.ok {
		start, known = tk.unplaced.start, true // its own way, traced back (unplaced.go)
	}
	if !known {
		// Where a hand was over a base line just now: the hand that
		// flicked stays behind the striker's place for a moment.
		start, known = tk.handOnBaseLine(tOn - 1.5)
	}
	if !known {
		best := math.Inf(1)
		span := tk.g.BaseCircleX() + tk.g.BaseCircleDiameter/2
		for _, side := range board.Sides {
			lu, l0 := board.ToLocal(side, n), board.ToLocal(side, c)
			if lu.Y > -0.05 {
				continue
			}
			l := (tk.g.BaseCircleY() - l0.Y) / -lu.Y
			q := c.Sub(n.Scale(l))
			if l >= 0 && l < best && math.Abs(board.ToLocal(side, q).X) <= span {
				best, start, known = l, q, true
			}
		}
	}
	if !known {
		return false
	}
	side, ok := tk.g.BaseLineSide(start, s.r+10)
	if !ok {
		return false
	}
	if tr.onsetFrom.Dist(start) < s.r+tr.r-5 {
		return false // it lay where the striker stood: the striker itself, seen as a man
	}
	u := c.Sub(start)
	dist := u.Len()
	if dist < 1 || u.Scale(1/dist).Dot(n) < 0.2 {
		return false // the striker could not have struck it from there
	}
	u = u.Scale(1 / dist)
	ms2, mm := tk.g.Mass(board.Striker), tk.g.Mass(tr.kind)
	vs := vw / (1.85 * ms2 / (ms2 + mm)) // the striker's speed at the touch
	tau := (-vs + math.Sqrt(vs*vs+2*a*dist)) / a
	tf := tOn - tau
	// (A pack shares the blow, so the speed is low and the flick early:
	// it cannot have been before the striker was last seen standing.)
	if st := tk.still; st.ok && st.p.Dist(start) < 1 && st.t > tf && st.t < tOn {
		tf, tau = st.t, tOn-st.t
	}
	if s.lastSeenT > tf && s.lastSeenT < tOn && s.lastObs.p.Dist(start) < 10 {
		tf, tau = s.lastSeenT, tOn-s.lastSeenT
	}
	// The speed at the flick that covers the way in that time.
	v0 := dist/tau + a*tau/2
	// The striker seen moving since the touch (first seen after it, too
	// far from where it stood to tell its flick): its slides seen are
	// kept, after the one inferred.
	k := -1
	if s.state == Moving && s.seen {
		for m := range s.segs {
			if sg := &s.segs[m]; sg.n > 0 && s.hist[sg.first].t >= tOn-tk.dt/2 {
				k = m
				break
			}
		}
	}
	if k >= 0 {
		tk.flickThrough(i, tf, tOn, c, u.Scale(v0), &s.segs[k], side, start, k, !seen || tk.coarse())
		tr.onsetPending, tr.onsetKnown, tr.onsetT = false, true, tOn
	} else {
		tk.beginStroke(side, start, tf, -1)
		// The striker's slide, as inferred: from start at tf toward the
		// touch.
		s.segs = append(s.segs[:1], seg{from: tf, t0: tf, p0: start, v0: u.Scale(v0), known: true, guessed: true})
		s.segs[0].t0 = tf
	}
	if seen {
		tk.markStart(true, startSeenSigma)
	} else {
		tk.markStart(false, startTracedSigma)
	}
	tk.noteUnplaced(side)
	// The touch that set the first disc moving is the striker's.
	if tr.onsetPending {
		tr.onsetPending, tr.onsetKnown, tr.onsetT = false, true, tOn
		tk.addContactOf(idxS, i, tOn, c, tr.onsetFrom, !seen || tk.coarse())
	}
	// Did it cross its front line on the way?
	st := tk.stroke
	if st.startBehind {
		fl := tk.g.FrontInner()
		f := func(t float64) float64 { return board.ToLocal(side, tk.mot.at(&s.segs[1], t)).Y + s.r - fl }
		if tc, ok := firstCrossing(f, tf, tOn); ok {
			st.crossed = true
			st.crossSeq = tk.emit(events.Event{Type: events.FrontLineCrossed, T: tc, Side: events.SidePtr(side)})
		}
	}
	return true
}

// checkFlick starts a stroke when the striker slides away on its own,
// fast, from a base-line area, out from under the hand that flicked it.
func (tk *Tracker) checkFlick() bool {
	s := &tk.tracks[idxS]
	// (Or seen sliding in two frames, then covered: see lowfps.go.)
	lost := tk.lostFlick()
	// (Or seen sliding in two frames with a hand moving along, covered,
	// and found where that slide stops: see lowfps.go.)
	found := tk.watchFlickHand()
	if !lost && !found && (s.state != Moving || !s.seen) || len(s.segs) == 0 {
		return false
	}
	// The first segment of the striker's motion that is a slide fast
	// enough: a single sighting followed at once by a collision counts,
	// with the velocity of the chord to the next sighting.
	for k := range s.segs {
		sg := &s.segs[k]
		if sg.n == 0 || lost && k != tk.flick2.k || found && k != 0 {
			continue
		}
		first := s.hist[sg.first]
		if j := tk.struckFirst(); j >= 0 && tk.tracks[j].hist[tk.tracks[j].moveStart].t <= s.hist[0].t {
			return false // seen only after it struck: checkStruck traces it
		}
		if k == 0 && sg.n == 1 && sg.hit {
			// First seen right after it struck a disc on its way from
			// where it stood: the flick is traced through that touch.
			if tk.flickIntoHit(sg, first) {
				return true
			}
			continue
		}
		guess := sg
		switch {
		case sg.known && sg.n >= 2:
			if tk.mot.vel(sg, s.hist[sg.first+sg.n-1].t).Len() < tk.cfg.StrikeSpeed {
				continue
			}
			if tk.accelerating(sg, s.hist) {
				continue // carried by a hand: it gathers speed; a flicked striker only loses it
			}
			if last := s.hist[sg.first+sg.n-1]; !lost && !found && tk.occ != nil && tk.occ.Hidden(last.p, s.r+25) > 0.22 &&
				!tk.snaps.stayed(tk.occ, tk.t, s.hist, sg.first, last, tk.tracks[idxS].r, tk.g.Half()) {
				// A hand around it: carried (a flicked striker leaves the
				// hand behind) — unless the hand stayed where it was while
				// the striker slid from under it. (Two sightings, then
				// covered: where it is found tells.)
				if sg.n == 2 && k == len(s.segs)-1 && s.state == Moving {
					tk.armFlickHand(k)
				}
				continue
			}
			if sg.n == 2 && k == len(s.segs)-1 && s.state == Moving {
				tk.flick2 = flickWait{frame: tk.frame, k: k}
				continue // one more sighting tells
			}
			if tk.mot.residual(sg, s.hist) > 3+4*tk.cfg.NoiseMM*(1+sg.v0.Len()/2000) {
				continue
			}
		case sg.n == 1 && k+1 < len(s.segs):
			next := s.hist[s.segs[k+1].first]
			gap := next.t - first.t
			v := next.p.Sub(first.p).Scale(1 / gap)
			if gap > 2.5*tk.dt || v.Len() < 2*tk.cfg.StrikeSpeed {
				continue
			}
			// The chord crosses a collision: about half the speed is
			// lost there (a striker on a man head on keeps 0.51 of it),
			// so the speed before it was about (2L − s)/gap where s is
			// the way to the touch.
			if sc, ok := tk.chordTouch(idxS, first.p, next.p); ok {
				L := next.p.Dist(first.p)
				v = v.Unit().Scale((2*L - sc) / gap)
			}
			g := *sg
			g.v0, g.known, g.guessed, g.t0, g.p0 = v, true, true, first.t, first.p
			guess = &g
		default:
			continue
		}
		start, tf, side, anchored, ok := tk.flickOrigin(guess)

		if !ok {
			continue
		}
		// A flick starts from a standstill: where the striker was seen
		// still just before, or — hidden under the aiming hand — from a
		// base line. (A striker carried in by a hand in plain view comes
		// from neither.)
		if !anchored && !(s.unseenBefore >= 0.1 && first.t-s.hist[0].t <= 3.5*tk.dt) {
			continue
		}
		if !anchored && tf < s.hist[0].t-s.unseenBefore {
			// Flicked before it was last seen somewhere else: it was
			// carried here, not flicked.
			continue
		}
		slow := false
		if !anchored && start.Dist(guess.p0) > unseenFlickMM && tk.mot.vel(guess, first.t).Len() < blurSpeed {
			// A striker this slow is seen as it slides: it cannot have
			// come so far from a base line unseen (only a hand hides the
			// first few centimetres). Carried, then set down — unless
			// its slide, traced back, leaves its place after it was last
			// seen there (slowunseen.go).
			p, t, ok := tk.slowFromPlace(guess, first)
			if !ok {
				continue
			}
			start, tf, side, slow = p, t, board.Quadrant(p), true
		}
		if guess != sg {
			*sg = *guess // the best that is known; refined by the first contact
		}
		// Seen only after it struck a disc lying on its way (that disc is
		// gone from its place): the slide seen is the one after the
		// touch, slower. Trace the flick from the touch instead.
		if j, tc, ok := tk.struckUnseen(sg, start, first.t); ok {
			tk.flickBefore(j, tc, sg, side, start, k, !anchored || tk.coarse())
		} else {
			sg.from = tf
			tk.beginStroke(side, start, tf, k)
		}
		if anchored {
			tk.markStart(true, startSeenSigma)
		} else {
			tk.markStart(false, startBandSigma)
		}
		if slow {
			tk.noteSlowFromPlace(start, first)
		}
		if lost {
			tk.noteLostFlick()
		}
		if found {
			tk.noteFoundFlick()
		}
		return true
	}
	return false
}

// struckUnseen finds a disc lying across the striker's way from start to
// its first sighting on slide sg (at time t1) that is no longer seen
// where it lay: the striker struck it before it was seen. It returns the
// disc and the moment of the touch on sg.
func (tk *Tracker) struckUnseen(sg *seg, start board.Vec, t1 float64) (int, float64, bool) {
	s := &tk.tracks[idxS]
	p1 := tk.mot.at(sg, t1)
	way := board.Segment{A: start, B: p1}
	best, bd := -1, math.Inf(1)
	for j := range tk.tracks {
		o := &tk.tracks[j]
		if j == idxS || !o.state.atRest() || o.misses == 0 {
			continue
		}
		D := s.r + o.r
		if way.DistTo(o.restPos) < D-2 {
			if d := o.restPos.Dist(start); d < bd {
				best, bd = j, d
			}
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	// The touch: going back along sg from t1, where the striker was one
	// sum of radii from the disc.
	rest := tk.tracks[best].restPos
	D := s.r + tk.tracks[best].r
	f := func(t float64) float64 { return tk.mot.at(sg, t1-t).Dist(rest) - D }
	if f(0) <= 0 {
		return best, t1, true
	}
	tau, ok := firstCrossing(func(t float64) float64 { return -f(t) }, 0, 1)
	if !ok {
		return 0, 0, false
	}
	return best, t1 - tau, true
}

// flickIntoHit starts the stroke of a striker seen still, then first seen
// (observation first, on slide sg) just after it struck a disc lying on
// its way — that disc is gone from its place: the striker was too fast to
// be seen before. It left between its last still sighting and the next
// frame; it went straight to the touch, then on about half as fast (a
// striker keeps ≈ 0.51 of its speed on a man struck full).
func (tk *Tracker) flickIntoHit(sg *seg, first obs) bool {
	s := &tk.tracks[idxS]
	st := tk.still
	if !st.ok || first.t-st.t > 0.5 || first.t <= st.t {
		return false
	}
	start := st.p
	side := board.Quadrant(start)
	if board.ToLocal(side, start).Y < tk.g.FrontInner()-2*s.r {
		return false // not where a player strikes from
	}
	way := board.Segment{A: start, B: first.p}
	best, bd := -1, math.Inf(1)
	for j := range tk.tracks {
		o := &tk.tracks[j]
		if j == idxS || !o.state.atRest() || o.misses == 0 && !o.displaced {
			continue
		}
		if way.DistTo(o.restPos) < s.r+o.r-2 {
			if d := o.restPos.Dist(start); d < bd {
				best, bd = j, d
			}
		}
	}
	if best < 0 {
		return false
	}
	// The touch: the first point of the way one sum of radii from it.
	rest := tk.tracks[best].restPos
	D := s.r + tk.tracks[best].r
	u := first.p.Sub(start)
	L := u.Len()
	if L < 1 {
		return false
	}
	u = u.Scale(1 / L)
	w := start.Sub(rest)
	bq := w.Dot(u)
	disc := bq*bq - (w.Dot(w) - D*D)
	if disc < 0 {
		return false
	}
	l1 := math.Max(0, -bq-math.Sqrt(disc))
	c := start.Add(u.Scale(l1))
	l2 := c.Dist(first.p)
	// The flick: between the last still sighting and the next frame.
	tf := st.t + tk.dt/2
	if n := tk.times.size(); n > 0 {
		for m := 0; m < n; m++ {
			if _, tm := tk.times.at(m); tm > st.t+1e-9 {
				tf = (st.t + tm) / 2
				break
			}
		}
	}
	if tf >= first.t {
		tf = (st.t + first.t) / 2
	}
	v := (l1 + 2*l2) / (first.t - tf)
	if v < 2*tk.cfg.StrikeSpeed {
		return false
	}
	tc := tf + l1/v
	a := tk.cfg.Deceleration
	tau := tc - tf
	tk.flickThrough(best, tf, tc, c, u.Scale(l1/tau+a*tau/2), sg, side, start, 0, tk.coarse())
	tk.markStart(true, startSeenSigma)
	return true
}

// flickBefore starts the stroke of a striker first seen after it struck
// disc j at time tc, with slide sg after the touch: before it, the
// striker came from start, about twice as fast (a striker on a man, full,
// keeps (M − e·m)/(M + m) ≈ 0.51 of its speed).
func (tk *Tracker) flickBefore(j int, tc float64, sg *seg, side board.Side, start board.Vec, k int, inferred bool) {
	c := tk.mot.at(sg, tc)
	ms2, mm := tk.g.Mass(board.Striker), tk.g.Mass(tk.tracks[j].kind)
	keep := (ms2 - 0.85*mm) / (ms2 + mm)
	vs := math.Max(tk.mot.vel(sg, tc).Len()/math.Max(keep, 0.3), tk.cfg.StrikeSpeed)
	u := c.Sub(start)
	dist := u.Len()
	if dist < 1 {
		sg.from = tc
		tk.beginStroke(side, start, tc, k)
		return
	}
	u = u.Scale(1 / dist)
	a := tk.cfg.Deceleration
	tau := (-vs + math.Sqrt(vs*vs+2*a*dist)) / a
	tf := tc - tau
	if st := tk.still; st.ok && st.p.Dist(start) < 1 && st.t > tf && st.t < tc {
		tf, tau = st.t, tc-st.t
	}
	tk.flickThrough(j, tf, tc, c, u.Scale(dist/tau+a*tau/2), sg, side, start, k, inferred)
}

// flickThrough starts the stroke of a striker flicked from start at tf
// with velocity v0, unseen until after it struck disc j at tc (its centre
// then at c); sg is its first slide seen, k its index.
func (tk *Tracker) flickThrough(j int, tf, tc float64, c, v0 board.Vec, sg *seg, side board.Side, start board.Vec, k int, inferred bool) {
	s := &tk.tracks[idxS]
	sg.from = tc
	tk.beginStroke(side, start, tf, k)
	// Insert the inferred slide before the one seen.
	pre := seg{from: tf, t0: tf, p0: start, v0: v0, known: true, guessed: true}
	s.segs = append(s.segs, seg{})
	copy(s.segs[2:], s.segs[1:])
	s.segs[1] = pre
	tk.stroke.startN = 0
	tk.addContactOf(idxS, j, tc, c, tk.tracks[j].restPos, inferred)
}

// accelerating reports whether the detections of slide sg gather speed:
// the last step faster than the first by more than the noise allows.
func (tk *Tracker) accelerating(sg *seg, h []obs) bool {
	if sg.n < 3 {
		return false
	}
	o := h[sg.first : sg.first+sg.n]
	step := func(a, b obs) float64 { return b.p.Dist(a.p) / math.Max(b.t-a.t, 1e-4) }
	first, last := step(o[0], o[1]), step(o[len(o)-2], o[len(o)-1])
	noise := 4 * math.Max(o[0].sigma, o[len(o)-1].sigma) / math.Max(o[1].t-o[0].t, 1e-4)
	return last > 1.2*first+noise
}

// flickOrigin traces the striker's first slide back to where it stood
// when flicked, and when: to where it was last seen standing still if
// that lies on the path behind it, else to the middle of the base line
// band the path comes from.
func (tk *Tracker) flickOrigin(sg *seg) (board.Vec, float64, board.Side, bool, bool) {
	s := &tk.tracks[idxS]
	u := sg.v0.Unit()
	p0 := sg.p0
	var start board.Vec
	anchored := false
	// (Seen still just before: a flick leaves at once; a striker that
	// then vanished under a hand for a while was picked up, not flicked.)
	if st := tk.still; st.ok && sg.t0-st.t < 0.25 && st.t <= sg.t0 {
		// (The direction of a slide fitted to few sightings is known to
		// a few degrees: two sightings far apart at a low frame rate,
		// the second perhaps past a touch.)
		rel := st.p.Sub(p0)
		slack := 0.03
		if sg.n <= 2 {
			slack = 0.1
		}
		if rel.Dot(u) <= 0 && math.Abs(rel.Cross(u)) < 6+3*tk.cfg.NoiseMM+slack*-rel.Dot(u) {
			start, anchored = st.p, true
		}
	}
	if !anchored {
		// A base line band met going back along the path: the one under
		// the hand that flicked (it is still there a frame or two
		// later), else the first.
		start = p0
		best := math.Inf(1)
		span := tk.g.BaseCircleX() + tk.g.BaseCircleDiameter/2
		for _, side := range board.Sides {
			lu, l0 := board.ToLocal(side, u), board.ToLocal(side, p0)
			if math.Abs(lu.Y) < 0.05 {
				continue // running along this side's base line
			}
			lam := (tk.g.BaseCircleY() - l0.Y) / -lu.Y
			if lam < -(6 + 3*tk.cfg.NoiseMM) {
				// The middle of the band lies ahead of it: it did not
				// come from this base line (a striker touching both
				// lines lies within a few millimetres of the middle).
				continue
			}
			q := p0.Sub(u.Scale(math.Max(lam, 0)))
			if math.Abs(board.ToLocal(side, q).X) > span {
				continue
			}
			score := lam
			if tk.occ != nil && tk.occ.Hidden(q, s.r) > 0.2 {
				score -= 1e4
			}
			if score < best {
				best, start = score, q
			}
		}
		if math.IsInf(best, 1) {
			// No base line behind it: it did not come from a player's
			// place (a striker carried onto its base line, say).
			return start, 0, board.Quadrant(start), false, false
		}
	}
	side := board.Quadrant(start)
	if anchored {
		// Placed by hand: perhaps off its base line (a foul the referee
		// calls), but near it.
		if board.ToLocal(side, start).Y < tk.g.FrontInner()-2*s.r {
			return start, 0, side, false, false
		}
	} else if sd, ok := tk.g.BaseLineSide(start, s.r+10); !ok || sd != side {
		return start, 0, side, false, false // not struck from a base line
	}
	lam := math.Max(0, p0.Sub(start).Dot(u))
	sp := sg.v0.Len()
	a := tk.cfg.Deceleration
	tf := sg.t0 + (sp-math.Sqrt(sp*sp+2*a*lam))/a
	if anchored {
		tf = math.Max(tf, tk.still.t)
	}
	return start, math.Min(tf, sg.t0), side, anchored, true
}

// refineStart improves the stroke_start (and arm_over_foul_line) still
// held back as the striker's first slide is seen over more frames.
func (tk *Tracker) refineStart() {
	st := tk.stroke
	s := &tk.tracks[idxS]
	if st.startN == 0 || len(s.segs) < 2 || !s.segs[1].known || st.startN > 0 && s.segs[1].n <= st.startN {
		return
	}
	var ev *events.Event
	for k := range tk.pending {
		if tk.pending[k].seq == st.startSeq {
			ev = &tk.pending[k].ev
		}
	}
	if ev == nil {
		st.startN = 0 // released: too late to change
		return
	}
	sg := &s.segs[1]
	start, tf, side, anchored, ok := tk.flickOrigin(sg)
	if !ok || side != st.side {
		return
	}
	st.startN = sg.n
	sg.from = tf
	if st.strikerPrev == st.startT {
		st.strikerPrev = tf
	}
	old := st.startT
	st.start, st.startT = start, tf
	st.startBehind = !tk.g.CrossedFrontLine(side, start, s.r)
	tk.recross(old)
	ev.T, ev.StrikerMM = tf, events.MMPtr(start)
	if anchored {
		tk.markStart(true, startSeenSigma)
	} else {
		tk.markStart(false, startBandSigma)
	}
	for k := range tk.pending {
		if tk.pending[k].seq == st.armSeq {
			tk.pending[k].ev.T = tf
		}
	}
}

// beginStroke starts a stroke from side at time tf with the striker at start.
func (tk *Tracker) beginStroke(side board.Side, start board.Vec, tf float64, k int) {
	rs := tk.tracks[idxS].r
	st := &strokeState{side: side, startT: tf, start: start,
		startBehind: !tk.g.CrossedFrontLine(side, start, rs), strikerPrev: tf}
	tk.stroke = st
	tk.strokeSeen = true
	tk.forgetFlicks()
	st.startN = 1
	st.startSeq = tk.emit(events.Event{Type: events.StrokeStart, T: tf, Side: events.SidePtr(side), StrikerMM: events.MMPtr(start)})
	if hit, p, reach := tk.armCache.beyond(tk, side, tf); hit {
		// SigmaMM: the mask's reach beyond the hand (the referee holds a
		// crossing less than that beyond the line).
		st.armSeq = tk.emit(events.Event{Type: events.ArmOverFoulLine, T: tf, Side: events.SidePtr(side), MM: events.MMPtr(p), SigmaMM: reach})
	}
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.placedSeq != 0 && tr.placedT > tf {
			// It appeared after the flick (the stroke is recognised a
			// few frames late): not put down by a hand between strokes
			// but found during the stroke, and no event.
			tk.dropPending(tr.placedSeq)
		}
		tr.placedFlag, tr.placedSeq = false, 0
		if tr.state == Placed {
			tr.state = Rest
		}
		tr.inStroke = false
		tr.onAtStart = tr.state.OnBoard()
		switch {
		case i == idxS && k < 0:
			// The striker was not seen leaving: its slide is added by the
			// caller.
			tr.inStroke = true
			tr.onsetPending = false
			tr.hist, tr.moveStart = tr.hist[:0], 0
			tr.segs = append(tr.segs[:0], seg{from: math.Inf(-1), t0: tf, p0: start, known: true})
			st.startN = 0
		case i == idxS:
			tr.inStroke = true
			tr.onsetPending = false
			// Keep only the motion since the flick, after a rest segment
			// at the start.
			off := tr.segs[k].first
			n := copy(tr.hist, tr.hist[off:])
			tr.hist = tr.hist[:n]
			kept := len(tr.segs) - k
			tr.segs = append(tr.segs, seg{})
			copy(tr.segs[1:], tr.segs[k:k+kept])
			tr.segs = tr.segs[:kept+1]
			tr.segs[0] = seg{from: math.Inf(-1), t0: tf, p0: start, known: true}
			for m := 1; m < len(tr.segs); m++ {
				tr.segs[m].first -= off
			}
			tr.moveStart = 0
			if st.startN > 0 {
				st.startN = tr.segs[1].n
			}
		case tr.state == Moving:
			tr.inStroke = true
			if tr.fromRest && len(tr.hist) > 0 && tr.hist[tr.moveStart].t >= tf-2*tk.dt {
				// Set moving since the flick: the stroke's doing.
				tr.onsetPending = true
				rest := seg{from: math.Inf(-1), t0: tr.restSince, p0: tr.onsetFrom, known: true}
				tr.segs = append(tr.segs, seg{})
				copy(tr.segs[1:], tr.segs)
				tr.segs[0] = rest
				tr.onsetSeg = 1
			}
		case tr.state.OnBoard():
			tr.hist, tr.moveStart = tr.hist[:0], 0
			tr.segs = append(tr.segs[:0], seg{from: math.Inf(-1), t0: tr.restSince, p0: tr.restPos, known: true})
		}
	}
}

// inStroke runs the logic of a stroke in progress.
func (tk *Tracker) inStroke() {
	tk.noteStrikers()
	tk.refineStart()
	tk.resolveLost(false)
	tk.frontLine()
	tk.resolveOnsets()
	tk.resolveBreaks()
	tk.resolveGrazes()
	tk.checkEnd()
}

// frontLine reports the moment the whole striker passed its side's front
// base line, from its path between detections.
func (tk *Tracker) frontLine() {
	st := tk.stroke
	if st == nil || !st.startBehind || st.crossed {
		return
	}
	s := &tk.tracks[idxS]
	if !s.seen {
		return
	}
	if !tk.g.CrossedFrontLine(st.side, s.lastObs.p, s.r) {
		st.strikerPrev = s.lastObs.t
		return
	}
	st.crossed = true
	fl := tk.g.FrontInner()
	f := func(t float64) float64 {
		return board.ToLocal(st.side, tk.pathAt(idxS, t, t)).Y + s.r - fl
	}
	st.crossLo, st.crossHi = st.strikerPrev, s.lastObs.t
	tc, ok := firstCrossing(f, st.crossLo, st.crossHi)
	if !ok {
		tc = s.lastObs.t
	}
	st.crossSeq = tk.emit(events.Event{Type: events.FrontLineCrossed, T: tc, Side: events.SidePtr(st.side)})
}

// recross recomputes the held front_line_crossed after the start of the
// stroke was refined.
func (tk *Tracker) recross(oldStart float64) {
	st := tk.stroke
	if !st.crossed {
		return
	}
	s := &tk.tracks[idxS]
	for k := range tk.pending {
		if tk.pending[k].seq != st.crossSeq {
			continue
		}
		if st.crossLo == oldStart {
			st.crossLo = st.startT
		}
		fl := tk.g.FrontInner()
		f := func(t float64) float64 {
			return board.ToLocal(st.side, tk.pathAt(idxS, t, t)).Y + s.r - fl
		}
		if tc, ok := firstCrossing(f, st.crossLo, st.crossHi); ok {
			tk.pending[k].ev.T = tc
		}
		if tk.pending[k].ev.T < st.startT {
			tk.pending[k].ev.T = st.startT
		}
	}
}

// pathAt is where track i was at time t according to the motion in force
// at time ref (the segment that began last at or before ref, extrapolated).
func (tk *Tracker) pathAt(i int, t, ref float64) board.Vec {
	tr := &tk.tracks[i]
	if len(tr.segs) == 0 {
		return tr.pos
	}
	k := 0
	for j := range tr.segs {
		if tr.segs[j].from <= ref {
			k = j
		}
	}
	return tk.mot.at(&tr.segs[k], t)
}

// movingAt reports whether track i's motion in force at ref is a slide.
func (tk *Tracker) movingAt(i int, ref float64) bool {
	tr := &tk.tracks[i]
	k := -1
	for j := range tr.segs {
		if tr.segs[j].from <= ref {
			k = j
		}
	}
	if k < 0 {
		if len(tr.segs) == 0 {
			return false
		}
		k = 0
	}
	return tr.segs[k].v0.Len() > 0
}

// resolveLost decides what became of discs that disappeared in plain
// view: pocketed when their path took them into a pocket mouth, overboard
// when they left the surface elsewhere, missing when they were lost on the
// board. final is set at the end of a stroke, when every disc still lost
// must be decided.
func (tk *Tracker) resolveLost(final bool) {
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		switch {
		case tr.state == Moving && tr.misses > 0:
			tk.resolveLostMoving(i, final)
		case tr.state.atRest() && tr.misses > 0 && tk.stroke != nil && tr.inStrokeVanish(tk):
			if final {
				tk.resolveVanished(i)
			}
		}
	}
}

// inStrokeVanish reports whether a resting disc that is not being seen
// may have been struck: it vanished after the stroke began.
func (tr *track) inStrokeVanish(tk *Tracker) bool {
	return tr.unseenSince >= tk.stroke.startT
}

// lostDeadline is the time by which a disc lost at the last detection
// should have been seen again if it is still on the board.
func (tk *Tracker) lostDeadline(tr *track) float64 {
	if tr.state.atRest() {
		if tr == &tk.tracks[idxS] && tk.stroke != nil && tr.restSince < tk.stroke.startT && len(tr.segs) > 1 {
			// The striker, struck unseen: it slides at most as long as
			// the flick traced back from what it struck lets it.
			if sg := &tr.segs[len(tr.segs)-1]; sg.guessed {
				return math.Max(tr.lastSeenT+0.5, tk.mot.stopTime(sg)+0.3)
			}
		}
		return tr.lastSeenT + 0.5
	}
	v := tr.vel.Len()
	return tr.lastSeenT + math.Max(0.5, math.Min(3, v/tk.cfg.Deceleration+0.3))
}

func (tk *Tracker) lostStart(tr *track) (board.Vec, board.Vec, float64) {
	s := &tr.segs[len(tr.segs)-1]
	tl := tr.lastObs.t
	if s.known {
		return tk.mot.at(s, tl), tk.mot.vel(s, tl), tl
	}
	return tr.lastObs.p, s.v0, tl
}

func (tk *Tracker) pocketHidden(pk board.Pocket) bool {
	if tk.occ == nil {
		return false
	}
	pc := tk.g.Pocket(pk)
	return tk.occ.Hidden(pc.C, pc.R) >= tk.cfg.OccludedFraction
}

func (tk *Tracker) resolveLostMoving(i int, final bool) {
	tr := &tk.tracks[i]
	if len(tr.segs) == 0 {
		return
	}
	p, v, tl := tk.lostStart(tr)
	el := tk.t - tl
	path := tk.mot.slide(tk.g, p, v, tr.r, el+tk.dt)
	if path.pocketed && tr.misses >= tk.pocketFr && path.tp <= el+tk.dt {
		if tk.pocketHidden(path.pocket) {
			tk.occlude(i, tr.pos)
			return
		}
		tk.pocketed(i, path.pocket, tl+path.tp, !tk.fallSeen(tr, path.pocket))
		return
	}
	// A path that grazes a mouth within the error of the prediction: the
	// disc that vanished there went in.
	graze := 3 + 3*tk.cfg.NoiseMM
	if path.gap <= graze && tr.misses >= tk.pocketFr && path.tn <= el+tk.dt {
		if tk.pocketHidden(path.near) {
			tk.occlude(i, tr.pos)
			return
		}
		tk.pocketed(i, path.near, tl+path.tn, !tk.fallSeen(tr, path.near))
		return
	}
	// Seen over the frame, or so fast toward it that it left the
	// surface before it could slow down (a disc that bounced off the
	// cushion would be back in view a frame after) with nothing in its
	// way: overboard where its way crossed the edge, once it has been
	// unseen long enough.
	if tr.misses >= tk.overFr && tr.beyond || tr.misses >= tk.pocketFr && v.Len() > jumpSpeed && tk.measured(tr) {
		if tc, pe, ok := tk.edgeCrossing(p, v, tr.r, tl, tr.beyond); ok && (tr.beyond || tc <= tk.t-tk.dt && !tk.wayBlocked(i, p, pe)) {
			tk.overboard(i, tc, pe, !tr.beyond)
			return
		}
	}
	if !final && tk.t < tk.lostDeadline(tr) {
		return
	}
	// Long gone: the whole path, then a near miss of a pocket.
	full := tk.mot.slide(tk.g, p, v, tr.r, 3)
	if full.pocketed && !tk.pocketHidden(full.pocket) {
		tk.pocketed(i, full.pocket, tl+math.Min(full.tp, el), !tk.fallSeen(tr, full.pocket))
		return
	}
	if pk, tc, ok := tk.nearPocket(p, v, tr.r); ok && !tk.pocketHidden(pk) {
		tk.pocketed(i, pk, tl+math.Min(tc, el), true)
		return
	}
	// Over the frame: only a disc fast enough to jump the cushion.
	if tc, pe, ok := tk.edgeCrossing(p, v, tr.r, tl, tr.beyond); ok && (tr.beyond || v.Len() > 1500) {
		tk.overboard(i, tc, pe, !tr.beyond)
		return
	}
	tr.state = Missing
	tr.pos = full.p
	tr.vel = board.Vec{}
	tr.onsetPending = false
	if tk.stroke != nil {
		why := "was lost from sight moving"
		if c := compass(v); c != "" {
			why += " towards " + c
		}
		tk.noteUnaccounted(i, why+": it is not on the board, nor seen to leave it")
	}
}

// fallSeen reports whether track tr, lost on its way into pocket pk, was
// seen close enough to the mouth (within two diameters, on a measured
// slide) that its fall is as good as seen.
func (tk *Tracker) fallSeen(tr *track, pk board.Pocket) bool {
	if tr == &tk.tracks[idxS] {
		return tk.measured(tr) && tk.strikerFallSeen(tr, pk) // seen going in (fall.go)
	}
	pc := tk.g.Pocket(pk)
	return tk.measured(tr) && tr.lastObs.p.Dist(pc.C)-pc.R < 4*tr.r
}

// measured reports whether moving track tr's current slide was measured:
// fitted to two sightings or more, or the first sighting of a disc struck
// from rest (its way from its place), not guessed.
func (tk *Tracker) measured(tr *track) bool {
	if len(tr.segs) == 0 {
		return false
	}
	s := &tr.segs[len(tr.segs)-1]
	return !s.guessed && !s.hit && (s.known && s.n >= 2 || s.n == 1 && tr.fromRest && s.first == tr.moveStart)
}

// wayBlocked reports whether a disc on the board (other than i) lies
// across the straight way from a to b.
func (tk *Tracker) wayBlocked(i int, a, b board.Vec) bool {
	sg := board.Segment{A: a, B: b}
	for j := range tk.tracks {
		o := &tk.tracks[j]
		if j == i || !o.state.OnBoard() {
			continue
		}
		if sg.DistTo(o.pos) < tk.tracks[i].r+o.r {
			return true
		}
	}
	return false
}

// jumpSpeed (mm/s) is the speed at which a disc lost on its way to the
// cushion is taken to have left the board rather than bounced back
// unseen.
const jumpSpeed = 3000.0

// occlude marks track i hidden at p.
func (tk *Tracker) occlude(i int, p board.Vec) {
	tr := &tk.tracks[i]
	tr.state, tr.misses, tr.occMoving = Occluded, 0, false
	tr.restPos, tr.pos, tr.vel = p, p, board.Vec{}
	tr.restSince, tr.stopT, tr.settledAt = tk.t, tk.t, tk.t
	tr.onsetPending = false
}

// nearPocket: the straight path from p at velocity v passes close enough to
// a pocket's mouth that a small error in the prediction would put it in.
func (tk *Tracker) nearPocket(p, v board.Vec, r float64) (board.Pocket, float64, bool) {
	sp := v.Len()
	if sp == 0 {
		return 0, 0, false
	}
	u := v.Scale(1 / sp)
	ts := sp / tk.cfg.Deceleration
	best, bd, bt := board.Pocket(0), math.Inf(1), 0.0
	for _, pk := range board.Pockets {
		c := tk.g.Pocket(pk)
		// Closest approach along the (straight) path, before the stop.
		along := math.Max(0, math.Min(c.C.Sub(p).Dot(u), sp*ts/2))
		q := p.Add(u.Scale(along))
		if d := q.Dist(c.C) - c.R; d < bd {
			bd, best = d, pk
			// time to travel along: solve sp·τ − a·τ²/2 = along
			disc := sp*sp - 2*tk.cfg.Deceleration*along
			bt = (sp - math.Sqrt(math.Max(0, disc))) / tk.cfg.Deceleration
		}
	}
	return best, bt, bd < r/2+8
}

// edgeCrossing finds where the straight path from p (at time tl, velocity
// v) takes the disc's centre off the playing surface, when it does so away
// from the pockets. beyond says the disc was already seen over the frame.
func (tk *Tracker) edgeCrossing(p, v board.Vec, r, tl float64, beyond bool) (float64, board.Vec, bool) {
	h := tk.g.Half()
	out := func(q board.Vec) float64 { return h - math.Max(math.Abs(q.X), math.Abs(q.Y)) }
	sp := v.Len()
	at := func(tau float64) board.Vec {
		if sp == 0 {
			return p
		}
		ts := sp / tk.cfg.Deceleration
		tau = math.Min(tau, ts)
		return p.Add(v.Scale(1 / sp).Scale(sp*tau - tk.cfg.Deceleration*tau*tau/2))
	}
	clampEdge := func(q board.Vec) board.Vec {
		q.X = math.Max(-h, math.Min(h, q.X))
		q.Y = math.Max(-h, math.Min(h, q.Y))
		return q
	}
	if out(p) <= 0 {
		return tl, clampEdge(p), true
	}
	if sp > 0 {
		if tc, ok := firstCrossing(func(t float64) float64 { return out(at(t)) }, 0, math.Min(3, sp/tk.cfg.Deceleration)); ok {
			q := clampEdge(at(tc))
			if _, in := tk.g.PocketAt(q); !in {
				return tl + tc, q, true
			}
		}
	}
	if beyond {
		return tl, clampEdge(p), true
	}
	return 0, board.Vec{}, false
}

// resolveVanished decides about a resting disc that vanished during the
// stroke and was never seen again: when something came near enough to
// strike it, it was struck off the board too fast to be seen — into a
// pocket, or over the frame; else it is missing. The line of centres with
// what struck it gives its way, the striker's speed its speed (at least
// 3 m/s: slower, it would have been seen); the pocket its way leads into
// (or passes close to), else the nearest pocket if it lay by one, else
// over the frame where its way leaves the surface.
func (tk *Tracker) resolveVanished(i int) {
	tr := &tk.tracks[i]
	p := tr.restPos
	tv := (tr.lastSeenT + tr.unseenSince) / 2
	j, tc, n, speed := tk.hitterOf(i, p, tr.lastSeenT, tr.unseenSince)
	if j < 0 && tr.displaced {
		// Nothing seen coming, but a disc was seen on its place after
		// it vanished (discs cannot overlap): struck away by it, which
		// way not seen.
		j, tc, n, speed = tr.displacedBy, tv, board.Vec{}, 0
	}
	if j < 0 {
		// Nothing was seen coming near it. By a pocket (the stroke's
		// flight, or all of it, unseen), it went in; elsewhere the
		// detector lost it (or it never was a disc): missing, and said.
		pk, d := tk.g.NearestPocket(p)
		if pc := tk.g.Pocket(pk); d <= pc.R+2.5*tr.r && !tk.pocketHidden(pk) {
			tk.pocketed(i, pk, tv, true)
			return
		}
		tr.state, tr.pos = Missing, p
		tk.noteUnaccounted(i, "is not there now, nor seen to leave")
		return
	}
	tv = tc
	tk.addContactOf(j, i, tc, tk.pathAt(j, tc, tr.lastSeenT), p, true)
	speed = math.Max(speed, 3000)
	at := func(dt float64) float64 { return math.Max(tv+dt, tr.lastSeenT) }
	h := tk.g.Half()
	if n != (board.Vec{}) {
		// Only as far as the frame: a disc that came back off a cushion
		// (slowed by it) and went in later would have been seen on the
		// way; one that reached the cushion unseen, that fast, left the
		// board over it.
		lam := math.Inf(1)
		if n.X != 0 {
			lam = math.Min(lam, (math.Copysign(h, n.X)-p.X)/n.X)
		}
		if n.Y != 0 {
			lam = math.Min(lam, (math.Copysign(h, n.Y)-p.Y)/n.Y)
		}
		path := tk.mot.slide(tk.g, p, n.Scale(speed), tr.r, math.Min(1, 1.5*lam/speed))
		if path.pocketed && !tk.pocketHidden(path.pocket) {
			tk.pocketed(i, path.pocket, at(path.tp), true)
			return
		}
		if path.gap < 30 && !tk.pocketHidden(path.near) {
			tk.pocketed(i, path.near, at(path.tn), true)
			return
		}
	}
	pk, d := tk.g.NearestPocket(p)
	pc := tk.g.Pocket(pk)
	if d <= pc.R+2.5*tr.r && !tk.pocketHidden(pk) {
		tk.pocketed(i, pk, at(math.Max(0, d-pc.R)/speed), true)
		return
	}
	// Over the frame where its way leaves the surface (the nearest edge
	// when the way is not known), soon after it vanished: a disc crossing
	// the board unseen for more than two frames is unlikely.
	if n == (board.Vec{}) {
		q := p
		lam := h - math.Abs(p.X)
		q.X = math.Copysign(h, p.X)
		if dy := h - math.Abs(p.Y); dy < lam {
			lam, q = dy, board.V(p.X, math.Copysign(h, p.Y))
		}
		tk.overboard(i, at(math.Min(lam/speed, 2*tk.dt)), q, true)
		tk.noteUnaccounted(i, fmt.Sprintf("was struck away unseen (its way not seen): taken to have left the board over the %s edge", compass(q)))
		return
	}
	lam := math.Inf(1)
	if n.X != 0 {
		lam = math.Min(lam, (math.Copysign(h, n.X)-p.X)/n.X)
	}
	if n.Y != 0 {
		lam = math.Min(lam, (math.Copysign(h, n.Y)-p.Y)/n.Y)
	}
	tk.overboard(i, at(math.Min(lam/speed, 2*tk.dt)), p.Add(n.Scale(lam)), true)
}

// pocketed takes track i off the board into pocket pk at time t; inferred:
// its fall was not seen (it vanished far from the mouth, or its way there
// was guessed).
func (tk *Tracker) pocketed(i int, pk board.Pocket, t float64, inferred bool) {
	tk.doubtWayTaken(i, pk)
	tr := &tk.tracks[i]
	tr.state, tr.pocket, tr.offT, tr.stopT = Pocketed, pk, t, t
	tr.pos, tr.vel, tr.misses = tk.g.Pocket(pk).C, board.Vec{}, 0
	tr.onsetPending, tr.hasAnchor, tr.placedFlag = false, false, false
	tk.emit(events.Event{Type: events.Pocketed, T: t, Piece: events.KindPtr(tr.kind), ID: tr.id, Pocket: events.PocketPtr(pk), Inferred: inferred})
}

// overboard takes track i off the board over the frame at time t, at p;
// inferred: it was not seen over the frame.
func (tk *Tracker) overboard(i int, t float64, p board.Vec, inferred bool) {
	tr := &tk.tracks[i]
	tr.state, tr.offT, tr.stopT = Overboard, t, t
	tr.pos, tr.vel, tr.misses = p, board.Vec{}, 0
	tr.onsetPending, tr.hasAnchor, tr.placedFlag = false, false, false
	e := events.Event{Type: events.Overboard, T: t, Piece: events.KindPtr(tr.kind), ID: tr.id, MM: events.MMPtr(p), Inferred: inferred}
	if inferred {
		e.SigmaMM = 50 // where along the edge: the way was not seen to the end
	}
	tk.emit(e)
}

// checkEnd ends the stroke when every disc on the board has rested for
// StrokeEndTime and every lost disc has been given time to reappear.
func (tk *Tracker) checkEnd() {
	st := tk.stroke
	if st == nil {
		return
	}
	force := tk.t-st.startT > maxStroke
	if !force {
		if tk.t-st.startT < tk.cfg.StrokeEndTime {
			return
		}
		for i := range tk.tracks {
			tr := &tk.tracks[i]
			switch {
			case tr.state == Moving && tr.misses == 0:
				return
			case tr.state == Moving || tr.state.atRest() && tr.misses > 0 && tr.inStrokeVanish(tk):
				if tk.t < tk.lostDeadline(tr) {
					return
				}
			case (tr.state.atRest() || tr.state == Occluded) && tr.inStroke && tk.t-tr.settledAt < tk.cfg.StrokeEndTime-1e-9:
				return
			}
		}
		// Collisions still being worked out.
		for i := range tk.tracks {
			if tk.tracks[i].onsetPending {
				return
			}
		}
	}
	tk.resolveLost(true)
	tk.resolveOnsets()
	// The moment the last disc stopped or left the board (each disc's
	// latest estimate: an earlier guess for a disc that slid under a
	// hand and came out again no longer counts).
	end := st.startT
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		switch {
		case !tr.inStroke:
		case tr.state.OnBoard():
			end = math.Max(end, tr.stopT)
		case (tr.state == Pocketed || tr.state == Overboard) && tr.offT >= st.startT:
			end = math.Max(end, tr.offT)
		}
	}
	for i := range tk.tracks {
		if tr := &tk.tracks[i]; tr.state == Occluded && tr.occMoving && tr.inStroke {
			tk.noteCovered(i, "where it stopped was not seen")
		}
	}
	tk.noteStoppedDead() // (a carry set down, see stoppeddead.go)
	tk.emit(events.Event{Type: events.StrokeEnd, T: end, Pieces: tk.restPieces(), Doubts: tk.strokeDoubts(end)})
	tk.stroke = nil
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		tr.inStroke, tr.onsetPending = false, false
		if tr.state.atRest() || tr.state == Occluded {
			tr.anchor, tr.said, tr.hasAnchor = tr.restPos, tr.restPos, true
			tr.hist, tr.segs, tr.moveStart = tr.hist[:0], tr.segs[:0], 0
		}
	}
	tk.release(true)
}
