package tracker

import (
	"fmt"
	"math"
	"sort"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/sight"
)

// maxHist bounds a track's motion history; older detections are dropped
// (only the current segment is kept).
const maxHist = 4096

// updateTracks applies this frame's matches to every track.
func (tk *Tracker) updateTracks() {
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		tr.seen = false
		if j := tk.trkDet[i]; j >= 0 {
			tk.observe(i, &tk.dets[j])
		} else {
			tk.unobserved(i)
		}
	}
	tk.displace()
}

// displace marks the discs at rest that were not seen in this frame and
// over whose resting place a moving disc was seen: discs cannot overlap,
// so the disc was struck away (too fast to be seen).
func (tk *Tracker) displace() {
	for i := range tk.tracks {
		m := &tk.tracks[i]
		if !m.seen || m.state != Moving || m.lastObs.partial {
			continue
		}
		if tk.stroke == nil && m.vel.Len() < 2*tk.cfg.StrikeSpeed && !(i == idxS && m.unseenBefore > 0 && m.segs[len(m.segs)-1].n == 1) {
			// Between strokes only a flick sends discs flying. (The
			// striker taken up far from where it was, unseen on its way,
			// was flicked: the stroke is recognised a little later.)
			continue
		}
		for j := range tk.tracks {
			tr := &tk.tracks[j]
			if j == i || tr.seen || !tr.state.atRest() || tr.displaced {
				continue
			}
			if m.lastObs.p.Dist(tr.restPos) < m.r+tr.r-8-3*m.lastObs.sigma {
				tr.displaced, tr.displacedBy = true, i
				if tr.misses == 0 {
					tr.misses, tr.unseenSince = 1, tk.t
				}
			}
		}
	}
}

// observe applies detection d to track i.
func (tk *Tracker) observe(i int, d *sight.Detection) {
	tr := &tk.tracks[i]
	o := obs{frame: tk.frame, t: tk.t, p: d.MM, px: d.PX, sigma: tk.sigma(d, tr), partial: d.Partial}
	tr.vanishT = 0
	if tr.provisional {
		tr.provHits++
		tr.provisional = tr.provHits < tk.confirmFr
	}
	switch {
	case i == idxS || !sureStriker(d) || !tr.state.atRest():
		tr.strikerSince = 0
	case tr.strikerSince == 0:
		tr.strikerSince = tk.t
	}
	tr.seen = true
	tr.px = d.PX
	tr.misses = 0
	tr.viewMisses, tr.coverMiss = 0, false
	tr.displaced = false
	lim := tk.g.Half() - tr.r + 3
	if math.Abs(o.p.X) > lim || math.Abs(o.p.Y) > lim {
		tr.beyond = true
	}
	switch tr.state {
	case Rest, Placed:
		dist := o.p.Dist(tr.restPos)
		thr := tk.cfg.MoveMM
		if o.partial {
			thr *= 3
		}
		if tk.t < tk.reanchor && tk.stroke == nil && dist < 15 && !o.partial {
			// The calibration changed: the disc did not move, the frame of
			// reference did.
			tr.restPos, tr.restW, tr.anchor, tr.said = o.p, 1, o.p, o.p
			dist = 0
		}
		switch {
		case dist > 3*thr && i == idxS && tk.stroke != nil && tr.restSince < tk.stroke.startT && tr.moveStreak == 0:
			// Struck unseen (the stroke was traced from what it set
			// moving) and found elsewhere: its flight is not known, it
			// is where it is seen.
			tk.relocate(i, o)
		case dist > 3*thr:
			if f := tr.moveFirst; tr.moveStreak > 0 && f.p.Sub(tr.restPos).Dot(o.p.Sub(f.p)) > 0 {
				// Already seen leaving, this way, the frame before.
				tk.startMoving(i, &f, o)
			} else if f, ok := tk.offPlace(tr, o); ok {
				tk.startMoving(i, &f, o)
			} else {
				tk.startMoving(i, nil, o)
			}
		case dist > thr:
			if tr.moveStreak > 0 {
				first := tr.moveFirst
				tk.startMoving(i, &first, o)
			} else if f, ok := tk.offPlace(tr, o); ok {
				tk.startMoving(i, &f, o)
			} else {
				tr.moveStreak, tr.moveFirst = 1, o
			}
		default:
			tr.moveStreak = 0
			if dist > tk.cfg.MoveMM {
				tr.offObs = o
			}
			// A running mean, partial detections (three times the
			// error) counting a ninth.
			w := 1.0
			if o.partial {
				w = 1.0 / 9
			}
			tr.restW = math.Min(tr.restW+w, 50)
			tr.restPos = tr.restPos.Add(o.p.Sub(tr.restPos).Scale(w / tr.restW))
			tr.restLastT = o.t
			if d.Kind == tr.kind {
				tr.restKindT = o.t
			}
		}
		if tr.state.atRest() {
			tr.pos, tr.vel = tr.restPos, board.Vec{}
			if tr.moveStreak > 0 || dist > tk.cfg.MoveMM {
				// Seen away from its place, not yet known to be moving:
				// where it was seen.
				tr.pos = o.p
			}
		}
	case Moving:
		tk.addMoving(i, o)
	case Occluded, Missing:
		if tr.state == Occluded && tr.occMoving && o.t-tr.lastSeenT <= 4.5*tk.dt && len(tr.segs) > 0 {
			// Lost from sight for a moment while moving (a disc leaving
			// the hand that flicked it): the same motion goes on.
			tr.state = Moving
			tr.misses = 0
			tk.addMoving(i, o)
			break
		}
		if !tr.taken && (o.p.Dist(tr.pos) <= 2*tk.cfg.MoveMM || (o.partial && o.p.Dist(tr.pos) <= 6*tk.cfg.MoveMM)) {
			// Found lying where it was hidden: on the board (a striker
			// brought in over the frame and put down under the hand is
			// not over the frame any more).
			tr.state, tr.beyond = Rest, false
			if tr.wasPlaced() {
				tr.state = Placed
			}
			if tr.occMoving {
				// It went out of sight moving: its place was where the
				// slide would end, a guess; it lies where it is seen.
				tr.restPos, tr.restW, tr.occMoving = o.p, 1, false
				if o.partial {
					tr.restW = 1.0 / 9
				}
			}
			tr.restLastT, tr.restKindT = o.t, o.t
			tr.pos = tr.restPos
		} else {
			tk.relocate(i, o)
		}
	default: // Unseen, Pocketed, Overboard: the striker brought back, or a birth
		tk.relocate(i, o)
	}
	if i == idxS {
		tk.noteStriker(o)
	}
	tr.lastObs, tr.lastSeenT, tr.lastSeenFrame = o, o.t, o.frame
	tr.taken = false
	if !o.partial {
		tr.placedWhole = true
	}
}

// wasPlaced reports whether the track was placed since the last stroke
// (before it was hidden).
func (tr *track) wasPlaced() bool { return tr.placedFlag }

// relocate puts track i where detection o says, far from where it was
// believed to be: it starts a fresh motion whose first detection is o
// (the disc may be moving or lying still; the rest test decides).
func (tk *Tracker) relocate(i int, o obs) {
	tr := &tk.tracks[i]
	if i == idxS {
		tk.noteJump(tr.state, tr.pos)
	}
	tr.lost = lostPlace{}
	if tr.state == Missing && tr.lostInView && tk.stroke == nil {
		tr.lost = lostPlace{frame: tr.lastSeenFrame, p: tr.pos, ok: true}
	}
	if tr.seen || tr.lastObs.t == 0 {
		tr.unseenBefore = o.t - tr.lastSeenT
		if tr.lastObs.t == 0 && tr.lastSeenT == 0 {
			tr.unseenBefore = math.Inf(1)
		}
	}
	tr.state = Moving
	tr.motionT = math.Min(o.t, tr.lastSeenT)
	tr.moveStreak = 0
	tr.onsetPending = false
	tr.fromRest = false
	tr.vel = board.Vec{}
	if tk.stroke == nil {
		tr.hist, tr.segs = tr.hist[:0], tr.segs[:0]
	}
	tr.moveStart = len(tr.hist)
	tr.hist = append(tr.hist, o)
	tr.segs = append(tr.segs, seg{first: len(tr.hist) - 1, n: 1, from: o.t})
	tk.mot.fit(&tr.segs[len(tr.segs)-1], tr.hist, board.Vec{})
	tr.pos = o.p
	if tk.stroke != nil {
		tr.inStroke = true
	}
}

// startMoving: resting track i has been seen away from its resting place.
// first is an earlier detection already away from it (nil if none).
func (tk *Tracker) startMoving(i int, first *obs, o obs) {
	tr := &tk.tracks[i]
	tr.moveStreak = 0
	if tk.stroke == nil {
		tr.hist, tr.segs = tr.hist[:0], tr.segs[:0]
	} else if len(tr.segs) == 0 {
		tr.segs = append(tr.segs, seg{first: len(tr.hist), from: math.Inf(-1), t0: tr.restSince, p0: tr.restPos, known: true})
	}
	tr.state = Moving
	tr.motionT = tr.restLastT
	tr.unseenBefore = 0
	if first != nil {
		tr.unseenBefore = math.Max(0, first.t-tr.restLastT)
	} else {
		tr.unseenBefore = math.Max(0, o.t-tr.restLastT)
	}
	tr.fromRest = true
	tr.onsetKnown = false
	tr.onsetPending = tk.stroke != nil
	tr.onsetFrom, tr.onsetLo = tr.restPos, tr.restLastT
	tr.onsetSeg = len(tr.segs)
	tr.moveStart = len(tr.hist)
	n := 1
	if first != nil {
		tr.hist = append(tr.hist, *first)
		n = 2
	}
	tr.hist = append(tr.hist, o)
	gap := math.Max(o.t-tr.restLastT, 1e-3)
	prior := o.p.Sub(tr.restPos).Scale(1 / gap)
	from := (tr.restLastT + tr.hist[len(tr.hist)-n].t) / 2
	tr.segs = append(tr.segs, seg{first: len(tr.hist) - n, n: n, from: from})
	s := &tr.segs[len(tr.segs)-1]
	tk.mot.fit(s, tr.hist, prior)
	if n == 1 && tk.chordHits(i, tr.restPos, o.p) {
		s.hit = true // it struck something on its way: its speed now is anybody's guess
	}
	tr.pos = o.p
	tr.vel = prior
	if s.known {
		tr.vel = tk.mot.vel(s, o.t)
	}
	if tk.stroke != nil {
		tr.inStroke = true
	}
}

// addMoving adds detection o to moving track i: it continues the current
// segment, or starts a new one when it leaves the predicted path (a
// collision); then the rest test.
func (tk *Tracker) addMoving(i int, o obs) {
	tr := &tk.tracks[i]
	if len(tr.segs) == 0 {
		tk.relocate(i, o)
		return
	}
	s := &tr.segs[len(tr.segs)-1]
	last := tr.lastObs
	gap := math.Max(o.t-last.t, 1e-4)
	bent := tk.chordHits(i, last.p, o.p)
	if !bent && !s.known && s.n == 1 && tr.vel.Len() > 0 {
		// One sighting so far, its heading known from where it lay: had
		// it gone on that way as far as it went, it would have run into
		// a disc lying still — it struck it and turned (at a low frame
		// rate the turn can be too small, and the touch too far back,
		// for the chord to show it).
		L := o.p.Dist(last.p)
		bent = tk.chordHits(i, last.p, last.p.Add(tr.vel.Unit().Scale(L)))
	}
	if !bent && s.known {
		pred := tk.mot.at(s, o.t)
		sp := tk.mot.vel(s, last.t).Len()
		thr := 3 + 3.5*math.Hypot(o.sigma, last.sigma) + 0.06*sp*gap + 0.5*500*gap*gap
		// (Or its predicted way runs into a disc seen leaving its place
		// in this frame: at a low frame rate a glancing touch turns it
		// less than thr.)
		bent = o.p.Dist(pred) > thr || tk.chordStruck(i, last.p, pred)
	}
	if bent {
		prior := o.p.Sub(last.p).Scale(1 / gap)
		pre := len(tr.segs) - 1
		tr.hist = append(tr.hist, o)
		tr.segs = append(tr.segs, seg{first: len(tr.hist) - 1, n: 1, from: o.t})
		tk.mot.fit(&tr.segs[len(tr.segs)-1], tr.hist, prior)
		if tk.stroke != nil {
			tk.stroke.breaks = append(tk.stroke.breaks, brk{i: i, pre: pre, lo: last.t, hi: o.t})
		}
		tr.pos, tr.vel = o.p, prior
		tk.compactHist(i)
		return
	}
	tr.hist = append(tr.hist, o)
	s.n++
	tk.mot.fit(s, tr.hist, s.v0)
	tr.pos = o.p
	tr.vel = tk.mot.vel(s, o.t)
	tk.compactHist(i)
	tk.restTest(i)
}

// chordHits reports whether the straight line between two detections of
// track i passes through a disc lying still: the track cannot have gone
// straight, so a collision happened between the two detections.
func (tk *Tracker) chordHits(i int, a, b board.Vec) bool {
	return tk.chordThrough(i, a, b, true)
}

// chordThrough reports whether the straight line from a to b (track i's
// way) passes through a disc that lay still and is seen leaving its place
// in this very frame, or, with atRest, one still lying there (and not
// missed twice running).
func (tk *Tracker) chordThrough(i int, a, b board.Vec, atRest bool) bool {
	if a.Dist(b) < 5 {
		return false
	}
	tr := &tk.tracks[i]
	seg := board.Segment{A: a, B: b}
	for j := range tk.tracks {
		o := &tk.tracks[j]
		if j == i || (atRest && o.misses >= 2) {
			continue
		}
		p := o.restPos
		switch {
		case atRest && o.state.atRest():
		case o.state == Moving && o.fromRest && len(o.hist) > o.moveStart && o.hist[o.moveStart].t == tk.t:
			p = o.onsetFrom // set moving in this very frame
		default:
			continue
		}
		if seg.DistTo(p) < tr.r+o.r-2 && p.Dist(a) > tr.r+o.r-2 {
			return true
		}
	}
	return false
}

// chordTouch returns how far along the straight line from a to b track i
// first touches a disc lying still, if it does.
func (tk *Tracker) chordTouch(i int, a, b board.Vec) (float64, bool) {
	tr := &tk.tracks[i]
	L := a.Dist(b)
	if L < 1 {
		return 0, false
	}
	u := b.Sub(a).Scale(1 / L)
	best, ok := math.Inf(1), false
	for j := range tk.tracks {
		o := &tk.tracks[j]
		if j == i || o.misses >= 2 || !o.state.OnBoard() {
			continue
		}
		p := o.restPos
		if o.state == Moving {
			if !o.fromRest {
				continue
			}
			p = o.onsetFrom
		}
		D := tr.r + o.r
		// Solve |a + u·s − p| = D for the smaller s.
		w := a.Sub(p)
		bq := w.Dot(u)
		c := w.Dot(w) - D*D
		disc := bq*bq - c
		if disc < 0 || c < 0 {
			continue
		}
		if s := -bq - math.Sqrt(disc); s >= 0 && s <= L && s < best {
			best, ok = s, true
		}
	}
	return best, ok
}

// compactHist keeps the history bounded.
func (tk *Tracker) compactHist(i int) {
	tr := &tk.tracks[i]
	if len(tr.hist) < maxHist {
		return
	}
	s := tr.segs[len(tr.segs)-1]
	n := copy(tr.hist, tr.hist[s.first:])
	tr.hist = tr.hist[:n]
	s.first = 0
	tr.segs = append(tr.segs[:0], s)
	tr.moveStart = 0
	tr.onsetPending = false
	if tk.stroke != nil {
		tk.stroke.dropBreaks(i)
	}
}

// restTest: a moving disc whose recent detections all lie close together
// has stopped.
func (tk *Tracker) restTest(i int) {
	tr := &tk.tracks[i]
	k := tk.restFr
	if tk.stroke == nil && tk.hands.near(tr.pos, tr.r+40, tk.t-0.3) {
		// A hand pushes a disc slowly and unevenly: it rests only when
		// it stayed put three times as long.
		k *= 3
	}
	h := tr.hist[tr.moveStart:]
	if len(h) < k {
		return
	}
	w := h[len(h)-k:]
	var mean board.Vec
	smax := tk.cfg.NoiseMM
	for _, q := range w {
		mean = mean.Add(q.p)
		smax = math.Max(smax, q.sigma)
	}
	mean = mean.Scale(1 / float64(k))
	// Detections under a hand are noisier: widen the test by their error,
	// but not so far that a slow slide passes for rest — the window's
	// ends must also be close (a net drift of RestMM·1.5 over RestTime).
	tol := tk.cfg.RestMM + 1.5*math.Max(0, smax-tk.cfg.NoiseMM)
	for _, q := range w {
		if q.p.Dist(mean) > tol {
			return
		}
	}
	if w[0].p.Dist(w[k-1].p) > 1.5*tk.cfg.RestMM+2*math.Max(0, smax-tk.cfg.NoiseMM) {
		return
	}
	tk.settle(i, w)
}

// settle makes moving track i rest; w are its last detections.
func (tk *Tracker) settle(i int, w []obs) {
	tr := &tk.tracks[i]
	last := w[len(w)-1]
	lost := tr.lost
	tr.lost = lostPlace{}
	// Where: the mean of the last two full detections (the earlier ones
	// may still be sliding the last millimetre) of the last RestTime.
	var p board.Vec
	n := 0
	for k := len(w) - 1; k >= max(0, len(w)-tk.restFr) && n < 2; k-- {
		if !w[k].partial {
			p = p.Add(w[k].p)
			n++
		}
	}
	if n == 0 {
		// Only partial ones: their mean.
		for k := len(w) - 1; k >= max(0, len(w)-tk.restFr); k-- {
			p = p.Add(w[k].p)
			n++
		}
	}
	p = p.Scale(1 / float64(n))
	// When: the stop of the current segment's fitted slide; a segment
	// that never really moved stopped when it began.
	stop := w[0].t
	if s := &tr.segs[len(tr.segs)-1]; tk.stroke != nil && s.known && s.n >= 2 && s.v0.Len() > 0 {
		stop = math.Max(s.t0, math.Min(tk.mot.stopTime(s), last.t))
	} else if tk.stroke == nil {
		// Outside a stroke (a hand's push, no friction slide): when it
		// got where it lies, the first of the detections since that all
		// lie there.
		h := tr.hist[tr.moveStart:]
		for k := len(h) - 1; k >= 0; k-- {
			tol := tk.cfg.RestMM
			if h[k].partial {
				tol *= 2
			}
			if h[k].p.Dist(p) > tol {
				break
			}
			stop = h[k].t
		}
	}
	tr.state = Rest
	tr.restPos, tr.restW = p, float64(n)
	tr.restSince, tr.restLastT, tr.restKindT = stop, last.t, last.t
	tr.stopT, tr.settledAt = stop, tk.t
	tr.pos, tr.vel = p, board.Vec{}
	tr.beyond = false
	tr.moveStreak = 0
	if tk.stroke != nil {
		tr.segs = append(tr.segs, seg{first: len(tr.hist), from: stop, t0: stop, p0: p, known: true})
		tr.moveStart = len(tr.hist)
		return
	}
	// Outside a stroke: a disc that settles away from where it lay was
	// moved by a hand (never reported for the striker, which players
	// carry about).
	// (Only a hand moves a disc between strokes: with no hand near it
	// since it began to move, the move is the detector's, not the disc's.)
	// (A small move still held for re-measuring supersedes: the disc
	// moved again, and is judged from where it lay before it.)
	// (And a move back to where the events last put it, from a place it
	// had drifted to unsaid, is no move: see track.said.)
	handWas := tk.supersedeTouch(i)
	if i != idxS && tr.hasAnchor && p.Dist(tr.anchor) > tk.cfg.MovedMM && p.Dist(tr.said) > tk.cfg.MovedMM &&
		(handWas || tk.hands.near(tr.anchor, tr.r+40, tr.motionT-0.5) || tk.hands.near(p, tr.r+40, tr.motionT-0.5)) {
		from := tr.said
		tr.said = p
		if ev := tk.pendingEvent(tr.placedSeq); ev != nil {
			// Still being put down: the placement is where it settles.
			ev.MM = events.MMPtr(p)
		} else {
			e := events.Event{Type: events.Moved, T: stop, Piece: events.KindPtr(tr.kind), ID: tr.id, MM: events.MMPtr(p)}
			if l := lost; l.ok {
				// Lost in plain view, then back elsewhere: where it was
				// meanwhile is not known (see lostPlace).
				e.Doubts = []events.Doubt{foul.Unaccounted(tr.id, l.frame, tk.frame, l.p,
					fmt.Sprintf("was then lost from sight in plain view; it came back at (%.0f, %.0f) mm under a hand: moved there by hand, or put back after a stroke that was not seen", p.X, p.Y))}
				tk.emit(e)
			} else {
				tk.emitMoved(i, e, from)
			}
		}
	}
	tk.noteStrokeless(i, p, w)
	if tr.placedFlag {
		tr.state = Placed
	}
	tr.anchor, tr.hasAnchor = p, true
	tr.hist, tr.segs = tr.hist[:0], tr.segs[:0]
	tr.moveStart = 0
}

// unobserved handles track i when no detection was matched to it.
func (tk *Tracker) unobserved(i int) {
	tr := &tk.tracks[i]
	if tr.provisional && tr.placedSeq != 0 && tk.pendingEvent(tr.placedSeq) != nil {
		// Taken up early as a disc put down (see awaited): covered
		// again, the hand is still at it; missed in plain view, it was
		// not put down there (a fingertip, the hand's edge) — its placed
		// event is withdrawn and the identity goes back where it was.
		if tk.occ != nil && tk.occ.Hidden(tr.restPos, tr.r) >= tk.cfg.OccludedFraction/2 {
			tr.provisional = false
		} else {
			tk.unplace(i)
			return
		}
	}
	if tr.provisional {
		if tk.stroke == nil {
			tk.withdraw(i) // never there, or moving: a detection elsewhere is a candidate again
			return
		}
		tr.provisional = false
	}
	hidden := func(p board.Vec) float64 {
		if tk.occ == nil {
			return 0
		}
		return tk.occ.Hidden(p, tr.r)
	}
	switch tr.state {
	case Rest, Placed:
		h := hidden(tr.restPos)
		if h >= tk.cfg.OccludedFraction && !tk.goneBeforeCover(tr) {
			tr.placedFlag = tr.placedFlag || tr.state == Placed
			tr.state, tr.pos, tr.misses, tr.occMoving = Occluded, tr.restPos, 0, false
			tr.viewMisses, tr.coverMiss = 0, false
			return
		}
		if tr.misses == 0 {
			tr.unseenSince = tk.t
		}
		tr.misses++
		if h < tk.cfg.OccludedFraction/2 {
			tr.viewMisses++
		} else {
			tr.coverMiss = true
		}
		// A disc that vanished during a stroke is decided at its end.
		if tk.t-tr.unseenSince >= tk.cfg.MissingTime && (tk.stroke == nil || !tr.inStrokeVanish(tk)) {
			tr.state, tr.lostInView = Missing, true
			if tk.stroke == nil {
				tr.vanishT = tk.t
			}
		}
	case Moving:
		if tr.misses == 0 {
			tr.unseenSince = tk.t
		}
		tr.misses++
		p := tk.predict(tr)
		lim := tk.g.Half() - tr.r
		p.X = math.Max(-lim, math.Min(lim, p.X))
		p.Y = math.Max(-lim, math.Min(lim, p.Y))
		tr.pos = p
		if (hidden(p) >= tk.cfg.OccludedFraction || hidden(tr.lastObs.p) >= tk.cfg.OccludedFraction) && tk.handWasAt(p, tr) {
			// Slid under a hand: it rests where its slide would end, when
			// it would end.
			stop, q := tk.t, p
			if len(tr.segs) > 0 {
				p0, v0, tl := tk.lostStart(tr)
				end := tk.mot.slide(tk.g, p0, v0, tr.r, 3)
				stop = math.Max(tk.t, tl+math.Min(3, v0.Len()/tk.cfg.Deceleration))
				if hidden(end.p) >= tk.cfg.OccludedFraction {
					q = end.p
				}
			}
			if hidden(q) < tk.cfg.OccludedFraction {
				q = tr.lastObs.p
			}
			tr.state, tr.misses, tr.occMoving = Occluded, 0, true
			tr.restPos, tr.pos, tr.vel = q, q, board.Vec{}
			tr.restSince, tr.stopT, tr.settledAt = stop, stop, stop
			tr.onsetPending = false
			if tk.stroke != nil {
				tr.segs = append(tr.segs, seg{first: len(tr.hist), from: stop, t0: stop, p0: q, known: true})
				tr.moveStart = len(tr.hist)
			}
		}
	case Occluded:
		if i == idxS && hidden(tr.pos) < tk.cfg.OccludedFraction/2 {
			// Its place uncovered, and it is not there: in the hand,
			// carried off.
			tr.taken = true
		}
		if hidden(tr.pos) >= tk.cfg.OccludedFraction/2 || i == idxS {
			// (The striker that vanished under a hand is in that hand.)
			tr.misses = 0
			return
		}
		if tr.misses == 0 {
			tr.unseenSince = tk.t
		}
		tr.misses++
		if tk.t-tr.unseenSince >= tk.cfg.MissingTime {
			tr.state, tr.lostInView = Missing, false // taken away by the hand that covered it
		}
	}
}

// goneBeforeCover reports whether resting disc tr, now covered, had
// already vanished in plain view during the stroke: missed for
// tk.pocketFr frames or more since the stroke began, its place in plain
// view each time (or a disc was seen on its place). A cover that comes later (a hand, or what the hand
// stage takes for one: a blurred disc against the frame) does not explain
// its absence: it stays lost, and is decided at the stroke's end
// (resolveVanished) — taken to be still where it lay, it would be on the
// board silently when struck into a pocket between two frames.
func (tk *Tracker) goneBeforeCover(tr *track) bool {
	if tk.stroke == nil || tr.misses == 0 || !tr.inStrokeVanish(tk) {
		return false
	}
	return tr.displaced || tr.viewMisses >= tk.pocketFr && !tr.coverMiss
}

// handWasAt reports whether a hand was over moving track tr's predicted
// place p, or its last sighting, already before that sighting (or whether
// the disc is slow: a hand can catch it). A hand that appears where a fast
// disc has just been seen is no hand but the disc itself, in the air or
// blurred.
func (tk *Tracker) handWasAt(p board.Vec, tr *track) bool {
	if tr.vel.Len() < 1500 {
		return true
	}
	best := -1
	for k, po := range tk.pastOcc {
		if po.t < tr.lastObs.t && (best < 0 || po.t > tk.pastOcc[best].t) {
			best = k
		}
	}
	if best < 0 {
		return true // not known
	}
	o := tk.pastOcc[best].occ
	return o != nil && (o.Hidden(p, tr.r) > 0 || o.Hidden(tr.lastObs.p, tr.r) > 0)
}

// births turns detections no track explains into candidates, and
// confirmed candidates into discs: taken up by a lost track of their kind,
// or given a free identity (then placed, between strokes).
func (tk *Tracker) births() {
	// Forget candidates not seen for two frames.
	keep := tk.cands[:0]
	for _, c := range tk.cands {
		if tk.t-c.lastT <= 2.5*tk.dt && !c.used {
			keep = append(keep, c)
		}
	}
	tk.cands = keep
	for j := range tk.dets {
		if tk.detUsed[j] != -1 {
			continue
		}
		d := &tk.dets[j]
		best, bd := -1, 10.0
		if d.Partial {
			bd = 15
		}
		for k := range tk.cands {
			c := &tk.cands[k]
			if c.lastT == tk.t {
				continue
			}
			if dist := c.p.Dist(d.MM); dist < bd {
				best, bd = k, dist
			}
		}
		if best < 0 {
			tk.cands = append(tk.cands, candidate{p: d.MM, p0: d.MM, px: d.PX, firstT: tk.t, first: tk.frame, score: d.Score})
			best = len(tk.cands) - 1
		}
		c := &tk.cands[best]
		c.hits++
		c.score = math.Min(c.score, d.Score)
		c.whole = c.whole || !d.Partial
		c.votes[d.Kind&3] += 0.5 + d.ClassScore
		if d.Kind == board.Striker {
			c.sure = math.Max(c.sure, d.ClassScore)
		}
		if c.hits > 1 {
			c.p = c.p.Add(d.MM.Sub(c.p).Scale(1 / float64(c.hits)))
		}
		c.px, c.lastT, c.last = d.PX, tk.t, tk.frame
	}
	// Confirmed candidates, in a fixed order (the opening numbering).
	idx := tk.sortBuf[:0]
	for k := range tk.cands {
		if tk.cands[k].lastT == tk.t && (tk.cands[k].hits >= tk.confirmFr || tk.instant(&tk.cands[k]) || tk.awaited(&tk.cands[k])) {
			idx = append(idx, k)
		}
	}
	tk.sortBuf = idx
	if len(idx) == 0 {
		return
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return tk.openingOrder(tk.cands[idx[a]].p) < tk.openingOrder(tk.cands[idx[b]].p)
	})
	for _, k := range idx {
		c := &tk.cands[k]
		if tk.overlapsTrack(c.p) {
			continue // a disc already tracked there, seen as another class
		}
		if tk.inMouth(c.p) {
			continue // a pocket's hole, not a disc: nothing rests there (mouth.go)
		}
		kind := board.Kind(0)
		for q := range c.votes {
			if c.votes[q] > c.votes[kind] {
				kind = board.Kind(q)
			}
		}
		if kind == board.Striker && c.sure < 0.6 {
			// The striker is one disc in twenty: an unsure striker is
			// more likely a man the detector could not size.
			kind = board.White
			for _, q := range [2]board.Kind{board.Black, board.Queen} {
				if c.votes[q] > c.votes[kind] {
					kind = q
				}
			}
		}
		i, mode := tk.pickID(kind, c.p)
		if i < 0 {
			continue
		}
		if mode == bornOffBoard && i != idxS && tk.stroke == nil && tk.strokeSeen && c.lastT-c.firstT < 1 &&
			!tk.hands.near(c.p, tk.g.Radius(kind)+30, c.firstT-3) {
			continue // no hand put it there: a disc missed so far, or nothing; wait and see
		}
		if c.hits < tk.confirmFr && c.hits > 1 && (mode != bornOffBoard || i == idxS) {
			continue // taken up early only as a disc put down (see awaited)
		}
		c.used = true
		tk.born(i, c, mode)
		if c.hits < tk.confirmFr {
			tk.tracks[i].provisional, tk.tracks[i].provHits = true, c.hits
		}
	}
}

// instantScore is the least detection score of a disc taken up at once
// in the first frame (see instant).
const instantScore = 0.9

// instant reports whether candidate c is taken up at once, without
// waiting ConfirmTime: a man or the queen detected confidently and whole,
// with no hand near it and no other detection overlapping it, in the
// first frame in which the board is found, outside a stroke. The wait
// guards against what hands and motion make the detector see for a frame
// or two; the still picture of a board just found has neither near the
// disc. (Moving discs cannot be told from one frame: the disc is
// provisional until seen in ConfirmTime's worth of frames, and withdrawn
// when missed before — see unobserved.) The striker, usually in a hand at
// first and the class the detector confuses most, always waits.
func (tk *Tracker) instant(c *candidate) bool {
	if c.hits != 1 || c.first != tk.frame || tk.t != tk.firstT || tk.stroke != nil || !c.whole {
		return false
	}
	var kind board.Kind
	for q := range c.votes {
		if c.votes[q] > c.votes[kind] {
			kind = board.Kind(q)
		}
	}
	if kind == board.Striker {
		return false
	}
	least := instantScore
	if kind == board.Queen && c.p.Len() < tk.g.CentreCircleDiameter/2 {
		// Vision halves the score of a queen alone on the centre circle
		// whose empty look it does not know yet, and reports her only
		// when the board says a queen lies there; waiting would not tell
		// her from the circle either.
		least /= 2
	}
	if c.score < least {
		return false
	}
	r := tk.g.Radius(kind)
	if tk.occ != nil && tk.occ.Hidden(c.p, r+30) > 0 {
		return false
	}
	for j := range tk.dets {
		d := &tk.dets[j]
		if dist := d.MM.Dist(c.p); dist > 1e-9 && dist < r+tk.g.Radius(d.Kind)-6 {
			return false // two discs cannot lie there: one is not what it seems
		}
	}
	return true
}

// awaitedScore is the least detection score of a disc taken up early as
// put down by a hand (see awaited).
const awaitedScore = 0.45

// awaitedClass is the least mean class confidence of its sightings (a
// disc in the fingers seen off its place is often of an unsure colour).
const awaitedClass = 0.5

// awaited reports whether candidate c is taken up early, in its second
// frame, as a man or the queen just put down by a hand: between strokes
// after the opening, seen in the last two frames running at one place
// (within RestMM: at rest), both times as the same class and not unsure
// of it (a mean class confidence of at least awaitedClass), mostly
// uncovered, where the camera saw the board bare before and a hand was
// over it in the last 3 s — what makes a placed event. births takes it up
// only for an identity off the board (pocketed, overboard, never seen).
// It is provisional: missed in plain view before it has been seen in
// ConfirmTime's worth of frames, its placed event is withdrawn (see
// unobserved).
func (tk *Tracker) awaited(c *candidate) bool {
	if c.hits != 2 || c.first != tk.frame-1 || tk.stroke != nil || c.score < awaitedScore ||
		2*c.p.Dist(c.p0) > tk.cfg.RestMM {
		return false
	}
	if !tk.strokeSeen && tk.t-tk.firstT < tk.cfg.InitTime {
		return false
	}
	kind, n := board.Kind(0), 0
	for q := range c.votes {
		if c.votes[q] > 0 {
			kind, n = board.Kind(q), n+1
		}
	}
	if n != 1 || kind == board.Striker || c.votes[kind] < float64(c.hits)*(0.5+awaitedClass) {
		return false
	}
	r := tk.g.Radius(kind)
	if tk.occ != nil && tk.occ.Hidden(c.p, r) >= tk.cfg.OccludedFraction/2 {
		return false
	}
	if !tk.empty.seenEmpty(c.p, r, c.firstT) || !tk.hands.near(c.p, r+30, c.firstT-3) {
		return false
	}
	for j := range tk.dets {
		d := &tk.dets[j]
		if dist := d.MM.Dist(c.p); dist > 2*tk.cfg.RestMM && dist < r+tk.g.Radius(d.Kind)-6 {
			return false // two discs cannot lie there: one is not what it seems
		}
	}
	return true
}

// withdraw gives back the identity of provisional track i, missed before
// it was confirmed: it was never seen.
func (tk *Tracker) withdraw(i int) {
	tr := &tk.tracks[i]
	*tr = track{id: tr.id, kind: tr.kind, r: tr.r, state: Unseen, hist: tr.hist[:0], segs: tr.segs[:0]}
}

// overlapsTrack reports whether a disc at p would overlap a disc on the
// board: discs cannot overlap, so a detection there is that disc seen
// under another class (or a false detection). The striker counts only
// where it was seen in this frame or the last: it comes and goes in the
// hand (a man put down where it was last seen is no striker), but the
// striker being set down, or lying still, is often seen as a man in some
// frames (its printed rings, the fingers on it).
func (tk *Tracker) overlapsTrack(p board.Vec) bool {
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if !tr.state.OnBoard() || i == idxS && tr.misses > 1 {
			continue
		}
		if tr.misses > 1 && (tk.stroke != nil || tk.hands.near(tr.pos, tr.r, tr.lastSeenT)) {
			continue // not seen since, and it may have left its place (struck, or taken by a hand)
		}
		q := tr.pos
		if tr.state.atRest() {
			q = tr.restPos
		}
		if q.Dist(p) < tr.r+tk.g.ManDiameter/2-6 {
			return true
		}
	}
	return false
}

// openingOrder sorts positions as the opening arrangement numbers its men:
// inner ring before outer, then by angle from the breaker's direction.
func (tk *Tracker) openingOrder(p board.Vec) float64 {
	ring := math.Floor(p.Len() / (1.35 * tk.g.ManDiameter))
	n := tk.breaker.Normal()
	a := math.Atan2(p.Y, p.X) - math.Atan2(n.Y, n.X)
	for a < -1e-6 {
		a += 2 * math.Pi
	}
	return ring*10 + a
}

// How a confirmed candidate becomes a disc.
const (
	bornAgain    = iota // a lost or missing track of its kind, seen elsewhere
	bornOffBoard        // an identity not on the board: placed (or the first sighting)
)

// pickID chooses the identity for a new disc of kind k at p, or -1.
func (tk *Tracker) pickID(k board.Kind, p board.Vec) (int, int) {
	best, bd := -1, math.Inf(1)
	// A disc of its kind on the board that is not where it was believed
	// to be (lost, or not seen at its resting place), nearest first.
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.kind != k {
			continue
		}
		// (A disc at rest that is merely not detected for a moment
		// outside a stroke cannot be elsewhere: only one that vanished
		// during a stroke, a lost moving one or a missing one is looked
		// for.)
		lost := tr.state == Moving && tr.misses >= 2 || tr.state == Missing ||
			tr.state.atRest() && tr.misses >= 2 && tk.stroke != nil && tr.inStrokeVanish(tk)
		if lost {
			if d := tr.pos.Dist(p); d < bd {
				best, bd = i, d
			}
		}
	}
	if best >= 0 {
		return best, bornAgain
	}
	// An identity off the board: the most recently pocketed or overboard
	// first (a due man, the queen returned), then one never seen.
	bt := math.Inf(-1)
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.kind != k {
			continue
		}
		if (tr.state == Pocketed || tr.state == Overboard) && tr.offT > bt {
			best, bt = i, tr.offT
		}
	}
	if best >= 0 {
		return best, bornOffBoard
	}
	for i := range tk.tracks {
		if tk.tracks[i].kind == k && tk.tracks[i].state == Unseen {
			return i, bornOffBoard
		}
	}
	return -1, 0
}

// born gives candidate c the identity i.
func (tk *Tracker) born(i int, c *candidate, mode int) {
	tr := &tk.tracks[i]
	o := obs{frame: tk.frame, t: tk.t, p: c.p, px: c.px, sigma: tk.cfg.NoiseMM}
	if mode == bornAgain || i == idxS {
		tk.relocate(i, o)
		if i == idxS {
			tk.noteStriker(o)
		}
		tr.lastObs, tr.lastSeenT, tr.lastSeenFrame, tr.seen, tr.misses = o, tk.t, tk.frame, true, 0
		return
	}
	initial := tk.stroke == nil && !tk.strokeSeen && tk.t-tk.firstT < tk.cfg.InitTime
	prev, prevPos := tr.state, tr.pos
	tr.restPos, tr.restW, tr.pos, tr.vel = c.p, float64(c.hits), c.p, board.Vec{}
	tr.restSince, tr.restLastT, tr.stopT, tr.settledAt = c.firstT, tk.t, c.firstT, tk.t
	tr.restKindT = tk.t
	tr.lastObs, tr.lastSeenT, tr.lastSeenFrame, tr.seen, tr.misses = o, tk.t, tk.frame, true, 0
	tr.px = c.px
	tr.anchor, tr.said, tr.hasAnchor = c.p, c.p, true
	tr.hist, tr.segs, tr.moveStart = tr.hist[:0], tr.segs[:0], 0
	tr.beyond, tr.displaced, tr.taken, tr.occMoving, tr.strikerSince = false, false, false, false, 0
	switch {
	case initial || tk.stroke != nil || !tk.empty.seenEmpty(c.p, tr.r, c.firstT) || !tk.hands.near(c.p, tr.r+30, c.firstT-3):
		// The opening position, a disc that was there all along (hidden
		// since the start, or missed by the detector: no hand put it
		// there), or one found during a stroke: no event.
		tr.state = Rest
		if tk.stroke != nil {
			tr.inStroke = true
			tr.segs = append(tr.segs, seg{first: 0, from: c.firstT, t0: c.firstT, p0: c.p, known: true})
		}
	default:
		tr.state, tr.placedFlag = Placed, true
		tr.placedSeq = tk.emit(events.Event{Type: events.Placed, T: c.firstT, Piece: events.KindPtr(tr.kind), ID: tr.id, MM: events.MMPtr(c.p)})
		tr.placedT, tr.placedWhole = c.firstT, c.whole
		tr.placedPrev, tr.placedPrevPos = prev, prevPos
	}
}

// emptyGrid remembers, for each cell of the surface, when the camera first
// saw it uncovered. A disc that appears where the camera had a clear view
// before was put there; one that appears where a hand has been since the
// start was there all along.
type emptyGrid struct {
	half, cell float64
	n          int
	t          []float64 // first time seen uncovered (+Inf: not yet)
	left       int       // cells not yet seen
}

const emptyCell = 24.0 // mm

func (e *emptyGrid) init(g *board.Geometry) {
	e.half, e.cell = g.Half(), emptyCell
	e.n = int(math.Ceil(g.Surface / emptyCell))
	e.t = make([]float64, e.n*e.n)
	for i := range e.t {
		e.t[i] = math.Inf(1)
	}
	e.left = len(e.t)
}

func (e *emptyGrid) update(occ sight.Occlusion, t float64) {
	if e.left == 0 {
		return
	}
	for k, v := range e.t {
		if !math.IsInf(v, 1) {
			continue
		}
		c := board.V(-e.half+(float64(k%e.n)+0.5)*e.cell, -e.half+(float64(k/e.n)+0.5)*e.cell)
		if occ == nil || occ.Hidden(c, e.cell/2) < 0.2 {
			e.t[k] = t
			e.left--
		}
	}
}

// seenEmpty reports whether every cell under the disc (p, r) was seen
// uncovered before time t.
func (e *emptyGrid) seenEmpty(p board.Vec, r, t float64) bool {
	if e.n == 0 {
		return false
	}
	i0 := int(math.Floor((p.X - r + e.half) / e.cell))
	i1 := int(math.Floor((p.X + r + e.half) / e.cell))
	j0 := int(math.Floor((p.Y - r + e.half) / e.cell))
	j1 := int(math.Floor((p.Y + r + e.half) / e.cell))
	for j := max(0, j0); j <= min(e.n-1, j1); j++ {
		for i := max(0, i0); i <= min(e.n-1, i1); i++ {
			if !(e.t[j*e.n+i] < t) {
				return false
			}
		}
	}
	return true
}

// handGrid remembers when a hand was last over each part of the surface:
// discs move between strokes, and appear, only by hand.
type handGrid struct {
	half, cell float64
	n          int
	t          []float64 // last time a hand covered part of the cell (-Inf: never)
	last       float64   // last refresh
}

const handCell = 40.0 // mm

func (h *handGrid) init(g *board.Geometry) {
	h.half, h.cell, h.last = g.Half(), handCell, math.Inf(-1)
	h.n = int(math.Ceil(g.Surface / handCell))
	h.t = make([]float64, h.n*h.n)
	for i := range h.t {
		h.t[i] = math.Inf(-1)
	}
}

// handEvery is how often (s) the hand grid is refreshed: hands move
// slowly next to the half-second windows it answers for, and each
// refresh asks the occlusion about every cell.
const handEvery = 0.1

// update marks the cells a hand covers in this frame (at most every
// handEvery seconds).
func (h *handGrid) update(occ sight.Occlusion, t float64) {
	if occ == nil || t-h.last < handEvery-1e-9 {
		return
	}
	h.last = t
	for k := range h.t {
		c := board.V(-h.half+(float64(k%h.n)+0.5)*h.cell, -h.half+(float64(k/h.n)+0.5)*h.cell)
		if occ.Hidden(c, h.cell/2) > 0.05 {
			h.t[k] = t
		}
	}
}

// near reports whether a hand was over the disc (p, r) at or after time since.
func (h *handGrid) near(p board.Vec, r, since float64) bool {
	if h.n == 0 {
		return true
	}
	i0 := int(math.Floor((p.X - r + h.half) / h.cell))
	i1 := int(math.Floor((p.X + r + h.half) / h.cell))
	j0 := int(math.Floor((p.Y - r + h.half) / h.cell))
	j1 := int(math.Floor((p.Y + r + h.half) / h.cell))
	for j := max(0, j0); j <= min(h.n-1, j1); j++ {
		for i := max(0, i0); i <= min(h.n-1, i1); i++ {
			if h.t[j*h.n+i] >= since {
				return true
			}
		}
	}
	return false
}
