package tracker

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// At a low frame rate (15 fps) a disc goes twice as far between two
// frames as at 30, and the striker flicked from under a hand is often seen
// sliding in two frames only before that hand covers it again (a backward
// flick draws the hand after it). Two rules keep such strokes:
//
//   - A disc leaving its place is seen first barely off it: a partial
//     detection under a hand within three times MoveMM of its place is
//     taken for noise at rest. When the next sighting is clearly away,
//     on from that one (the same way, in the next frame), that sighting
//     was the slide's first (offPlace).
//   - The striker seen sliding in two frames, fast, leaving a hand that
//     stayed where it was, then covered by that hand in the next frame,
//     was struck: a third sighting would have told, and none will come
//     (flickWait). The stroke starts from those two, and is held for the
//     umpire: two sightings are less than checkFlick asks of a striker in
//     view.
//   - The same slide with the hand moving along (a backward flick draws
//     the hand after the striker within one frame at 15 fps; a hand
//     carrying the striker moves with it too), covered in the next frame:
//     the frames cannot tell a flick from a carry yet. Where the striker
//     is found next does: a flicked striker slides on alone under the
//     hand and stops where that slide stops (on its line, at about the
//     distance its speed and the board's friction give), a carried one
//     lies wherever the hand let it go (flickHand). Found where the slide
//     stops, it was struck: the stroke starts from those two sightings
//     and is held for the umpire; found anywhere else, or not found
//     within flickFindTime, it was carried, as before. While it is
//     awaited, events are held behind the slide (the watermark).
//
// And a stroke may not be seen at all: at 3 m/s the striker goes 200 mm
// between two frames at 15 fps, smeared, under the hand that flicked it
// and then past what it struck. When the striker, last seen at its place,
// is next seen far from it (farther than a flick's first, hidden
// centimetres) soon after, and a disc that lay still has meanwhile
// vanished from its place in plain view, a stroke was played whose start
// was not seen (checkStartUnseen): it is followed from there like one
// that fell in frames not analysed (beginUnseen), and held for the umpire
// with what was seen.

// flickWait is a slide of the striker that passed every test of a flick
// but the third sighting, in frame frame (its segment k).
type flickWait struct {
	frame int
	k     int
}

// flickHand is a slide of the striker seen in two frames, frame the
// second, fast and from its place, with a hand moving along (see
// lowfps.go): the sightings a and b and the slide fitted to them.
// covered: the striker went under the hand moving in the next frame, and
// is awaited.
type flickHand struct {
	frame   int
	a, b    obs
	sg      seg
	still   stillPos // where the striker stood still before the slide
	covered bool
}

// strikerJump is the striker taken up far from where it lay (relocate):
// from is where it lay, last seen there at time t0 (frame frame0).
type strikerJump struct {
	from   board.Vec
	t0     float64
	frame0 int
	ok     bool
}

// flickFindTime is how long a striker that slid under a hand (flickHand)
// is awaited: a hand that stays over it longer is holding it.
const flickFindTime = 2.0

// offPlace returns the previous sighting of resting track tr when it lay
// off its place (beyond MoveMM, though taken for noise) in the frame just
// before o and o lies on from it, away from the place: the first
// sighting of the slide o continues.
func (tk *Tracker) offPlace(tr *track, o obs) (obs, bool) {
	f := tr.offObs
	if f.t == 0 || f.t != tr.lastSeenT || f.frame != o.frame-1 {
		return obs{}, false
	}
	away, on := f.p.Sub(tr.restPos), o.p.Sub(f.p)
	if away.Len() < tk.cfg.MoveMM || on.Len() < tk.cfg.MoveMM || away.Unit().Dot(on.Unit()) < 0.9 {
		return obs{}, false
	}
	return f, true
}

// lostFlick reports whether the striker, seen sliding in two frames and
// waiting for a third (flickWait), went under a hand in this frame.
func (tk *Tracker) lostFlick() bool {
	s := &tk.tracks[idxS]
	w := tk.flick2
	return w.frame > 0 && tk.frame == w.frame+1 && s.state == Occluded && s.occMoving &&
		w.k < len(s.segs) && s.segs[w.k].n == 2
}

// noteLostFlick holds the stroke just begun from the two sightings of the
// striker's slide (its history since the flick: beginStroke keeps it from
// that slide on) for the umpire.
func (tk *Tracker) noteLostFlick() {
	s := &tk.tracks[idxS]
	if tk.stroke == nil || len(s.hist) < 2 {
		return
	}
	f1, f2 := s.hist[0].frame, s.hist[1].frame
	tk.stroke.doubts = append(tk.stroke.doubts, events.Doubt{Kind: events.DoubtViewCovered,
		Reason: fmt.Sprintf("the striker was seen sliding from its place in two frames only (%d and %d) before a hand covered it: taken as struck, not carried", f1, f2),
		Frames: [2]int{f1, tk.frame}, IDs: []string{"S"}})
}

// chordStruck reports whether the straight line between a and b (track
// i's way) runs into a disc that lay still and is seen leaving its place
// in this very frame: track i struck it on that way.
func (tk *Tracker) chordStruck(i int, a, b board.Vec) bool {
	return tk.chordThrough(i, a, b, false)
}

// armFlickHand remembers the striker's slide k, seen in two frames with a
// hand moving along it (checkFlick takes it for a carry).
func (tk *Tracker) armFlickHand(k int) {
	s := &tk.tracks[idxS]
	sg := s.segs[k]
	if sg.n != 2 || sg.first+1 >= len(s.hist) {
		return
	}
	tk.flickHand = flickHand{frame: tk.frame, a: s.hist[sg.first], b: s.hist[sg.first+1], sg: sg, still: tk.still}
}

// watchFlickHand follows the slide armFlickHand remembered: it is awaited
// while the striker, covered moving in the very next frame, stays under
// the hand; it reports true in the frame the striker is found again at
// rest where that slide stops, having put it there with the slide as its
// history (segment 0).
func (tk *Tracker) watchFlickHand() bool {
	w := &tk.flickHand
	if w.frame == 0 {
		return false
	}
	s := &tk.tracks[idxS]
	if tk.stroke != nil || !w.covered && tk.frame > w.frame+1 || w.covered && tk.t-w.b.t > flickFindTime {
		*w = flickHand{}
		return false
	}
	if !w.covered {
		if tk.frame == w.frame+1 && s.state == Occluded && s.occMoving {
			w.covered = true
		}
		return false
	}
	if s.state == Occluded && !s.taken {
		return false // still under the hand
	}
	found := *w
	*w = flickHand{}
	if !s.seen || s.lastSeenT != tk.t || s.state == Missing || !s.state.OnBoard() {
		return false // carried off (its place uncovered without it), or gone
	}
	q := s.lastObs
	if !tk.slideStopsAt(&found.sg, found.b.t, q.p) {
		return false // put down elsewhere: carried
	}
	// It lies there (the rest test would say so over the next frames):
	// at rest since its slide stopped.
	stop := math.Min(math.Max(found.b.t, tk.mot.stopTime(&found.sg)), tk.t)
	tk.lieAt(s, q, stop)
	s.hist = append(s.hist[:0], found.a, found.b)
	sg := found.sg
	sg.first = 0
	s.segs = append(s.segs[:0], sg)
	s.moveStart = 0
	// (Found at rest, it was taken for standing still there: it stood
	// where it did before the slide.)
	tk.still = found.still
	return true
}

// lieAt puts s at rest at q, as the rest test would over the next frames,
// since stop (the moment its slide stopped): for a striker found again
// where a flick unseen in flight would have left it (watchFlickHand,
// beginFlickOnce). A partial sighting weighs as a ninth of a whole one.
func (tk *Tracker) lieAt(s *track, q obs, stop float64) {
	s.state, s.occMoving, s.taken, s.misses = Rest, false, false, 0
	s.restPos, s.restW, s.pos, s.vel = q.p, 1, q.p, board.Vec{}
	if q.partial {
		s.restW = 1.0 / 9
	}
	s.restSince, s.stopT, s.settledAt = stop, stop, stop
	s.restLastT, s.restKindT, s.moveStreak = tk.t, tk.t, 0
}

// slideStopsAt reports whether p is where slide sg, last seen at time tl,
// comes to rest: on its line (within the few degrees two sightings tell
// the heading to) at a distance its speed gives with a friction between
// half and twice the configured one (real boards differ), or, when it
// reaches a cushion first, near where the slide off it stops.
func (tk *Tracker) slideStopsAt(sg *seg, tl float64, p board.Vec) bool {
	s := &tk.tracks[idxS]
	p0, v := tk.mot.at(sg, tl), tk.mot.vel(sg, tl)
	sp := v.Len()
	if sp == 0 {
		return false
	}
	u := v.Scale(1 / sp)
	d := sp * sp / (2 * tk.cfg.Deceleration)
	tol := 6 + 3*tk.cfg.NoiseMM
	rel := p.Sub(p0)
	along, across := rel.Dot(u), math.Abs(rel.Cross(u))
	end := tk.mot.slide(tk.g, p0, v, s.r, 3)
	if end.cushion > 0 || end.pocketed {
		return end.cushion > 0 && p.Dist(end.p) < tol+0.3*d
	}
	return across < tol+0.1*along && along > d/2-tol && along < 2*d+tol
}

// noteFoundFlick holds the stroke just begun from the two sightings of
// the slide flickHand remembered (the striker's history since the flick)
// for the umpire.
func (tk *Tracker) noteFoundFlick() {
	s := &tk.tracks[idxS]
	if tk.stroke == nil || len(s.hist) < 2 {
		return
	}
	f1, f2 := s.hist[0].frame, s.hist[1].frame
	tk.stroke.doubts = append(tk.stroke.doubts, events.Doubt{Kind: events.DoubtViewCovered,
		Reason: fmt.Sprintf("the striker was seen sliding from its place in two frames only (%d and %d), a hand moving along, then under that hand until frame %d, where it lay where that slide would stop: taken as struck, not carried", f1, f2, tk.frame),
		Frames: [2]int{f1, tk.frame}, IDs: []string{"S"}})
}

// noteJump remembers, when the striker is taken up far from where it was
// believed to lie (state, at pos) outside a stroke, where that was.
func (tk *Tracker) noteJump(state State, pos board.Vec) {
	s := &tk.tracks[idxS]
	tk.jump = strikerJump{}
	if tk.stroke == nil && (state.atRest() || state == Occluded) {
		tk.jump = strikerJump{from: pos, t0: s.lastSeenT, frame0: s.lastSeenFrame, ok: true}
	}
}

// startUnseenTime is how soon after the striker was last seen at its
// place it must be seen far from it for checkStartUnseen: a hand carries
// the striker slower than a flick sends it.
const startUnseenTime = 1.0

// checkStartUnseen starts a stroke whose start was not seen: the striker,
// last seen at its place, is seen again far from it (and moving) within
// startUnseenTime, and a disc that lay still has vanished from its place
// in plain view since the striker was last seen there.
func (tk *Tracker) checkStartUnseen() bool {
	s := &tk.tracks[idxS]
	if tk.stroke != nil || tk.t-tk.firstT <= tk.cfg.InitTime || s.state != Moving || len(s.hist) <= s.moveStart {
		return false
	}
	first := s.hist[s.moveStart]
	var from board.Vec
	var t0 float64
	var frame0 int
	switch {
	case s.fromRest:
		from, t0, frame0 = s.onsetFrom, s.onsetLo, tk.frameOf(s.onsetLo)
	case tk.jump.ok && s.motionT <= tk.jump.t0+1e-9:
		from, t0, frame0 = tk.jump.from, tk.jump.t0, tk.jump.frame0
	default:
		return false
	}
	if tk.t-first.t > 0.25 || first.t-t0 > startUnseenTime || first.p.Dist(from) <= unseenFlickMM {
		return false
	}
	var gone, left []int
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if i == idxS || tr.provisional {
			continue
		}
		if tk.leftPlace(i, t0, len(s.hist)-s.moveStart >= 3 || s.misses > 0) {
			left = append(left, i)
			continue
		}
		if !tr.state.atRest() || tr.misses < tk.pocketFr || tr.unseenSince < t0 {
			continue
		}
		if tk.occ != nil && tk.occ.Hidden(tr.restPos, tr.r) >= tk.cfg.OccludedFraction/2 {
			continue // under a hand: perhaps still there
		}
		gone = append(gone, i)
	}
	if len(gone)+len(left) == 0 {
		return false
	}
	// The striker's motion since it was taken up is the stroke's: its
	// way from its place a guess. So is the motion of each disc seen
	// leaving its place.
	var kept [nTracks]motionCopy
	for _, i := range append(left, idxS) {
		if !kept[i].take(&tk.tracks[i]) {
			return false
		}
	}
	g := frameGap{from: frame0 + 1, to: first.frame - 1, t0: t0, t1: first.t}
	tk.beginUnseen(&g)
	st := tk.stroke
	var what []string
	for _, i := range gone {
		tr := &tk.tracks[i]
		// (It vanished in the stroke: its fate is decided at the end,
		// and said.)
		st.startT = math.Min(st.startT, tr.unseenSince-tk.dt/2)
		tr.inStroke = true
		st.strikerPrev = st.startT
		what = append(what, fmt.Sprintf("%s vanished from (%.0f, %.0f) mm at frame %d", tr.id, tr.restPos.X, tr.restPos.Y, tk.frameOf(tr.unseenSince)))
	}
	for _, i := range left {
		tr := &tk.tracks[i]
		kept[i].put(tr)
		tr.inStroke = true
		f := tr.hist[0]
		st.startT = math.Min(st.startT, f.t-tk.dt/2)
		st.strikerPrev = st.startT
		what = append(what, fmt.Sprintf("%s was seen %.0f mm from its place at (%.0f, %.0f) mm at frame %d", tr.id, f.p.Dist(tr.restPos), tr.restPos.X, tr.restPos.Y, f.frame))
	}
	st.unseenWhy = fmt.Sprintf("the striker, last seen at its place at frame %d, was seen %.0f mm from it at frame %d, and %s in plain view: a stroke whose start was not seen",
		frame0, first.p.Dist(from), first.frame, listIDs(what))
	kept[idxS].put(s)
	s.inStroke = true
	if sg := &s.segs[0]; !sg.known && sg.n == 1 {
		sg.v0 = first.p.Sub(from).Scale(1 / math.Max(first.t-t0, tk.dt))
		sg.guessed = true
		s.vel = sg.v0
	}
	return true
}

// leftPlace reports whether disc i, seen at rest at its place after time
// t0, has since been taken up moving away from it (beyond three times
// MoveMM of it, no hand over its place nor over it): it left its place.
// One seen leaving it (fromRest) counts only late, once checkFlick has had
// the striker's third sighting to trace the stroke (with the striker seen
// first, checkStruck leaves the stroke to checkFlick).
func (tk *Tracker) leftPlace(i int, t0 float64, late bool) bool {
	tr := &tk.tracks[i]
	if tr.state != Moving || tr.fromRest && !late || tr.inStroke || len(tr.hist) <= tr.moveStart || tr.restLastT < t0-1e-9 {
		return false
	}
	f := tr.hist[tr.moveStart]
	if f.t < t0 || f.p.Dist(tr.restPos) <= 3*tk.cfg.MoveMM {
		return false
	}
	return tk.occ == nil || tk.occ.Hidden(tr.restPos, tr.r) == 0 && tk.occ.Hidden(tr.pos, tr.r) == 0
}

// motionCopy is a copy of a moving disc's current motion: its detections
// since the motion began, and the segments over them.
type motionCopy struct {
	hist [8]obs
	segs [8]seg
	n    int
	ns   int
}

// take copies tr's current motion; false when it is too long to copy.
func (m *motionCopy) take(tr *track) bool {
	m.n = len(tr.hist) - tr.moveStart
	if m.n > len(m.hist) || len(tr.segs) > len(m.segs) {
		return false
	}
	copy(m.hist[:], tr.hist[tr.moveStart:])
	m.ns = 0
	for _, sg := range tr.segs {
		if sg.first >= tr.moveStart {
			sg.first -= tr.moveStart
			m.segs[m.ns] = sg
			m.ns++
		}
	}
	return true
}

// put makes the copy tr's motion, from its first detection on.
func (m *motionCopy) put(tr *track) {
	tr.hist = append(tr.hist[:0], m.hist[:m.n]...)
	tr.segs = append(tr.segs[:0], m.segs[:m.ns]...)
	tr.moveStart = 0
}

// A backward flick at a low frame rate may be seen once only: the
// striker, standing at its place under the aiming hand, is seen one frame
// later barely off it (a partial detection beside the hand), then the
// hand that follows a backward flick covers it, and it is next seen lying
// behind its place. Two sightings would give the slide's line and speed
// (flickHand); one gives only a direction. A hand carrying the striker
// back looks the same, so the stroke is never applied on this alone: it
// is held for the umpire, with the flick as the best guess, when all of
// these hold (flickOnce):
//
//   - the striker stood still at its place on a base line up to at most
//     0.25 s before that sighting, which lies more than three times MoveMM
//     from it (beyond the noise of a partial detection at rest);
//   - the way from the place to that sighting points behind the place
//     (within 60° of straight back: only a backward flick draws the hand
//     after the striker), fast enough for a flick (at least StrikeSpeed,
//     and reachable from a standstill at up to twice the friction in the
//     time between the two sightings);
//   - then it was not seen for at least one frame, and is next found,
//     within flickFindTime, farther along the same line (within the few
//     degrees one sighting tells the heading to), and found still there
//     in the sighting after.
//
// A striker seen again off that line, or in the very next frame, or not
// within flickFindTime, is left to the other rules: re-placing along the
// base line, lifting it, or a slide seen twice. While it is awaited,
// events are held behind the place's last sighting (the watermark).

// flickOnce is the striker seen once off its place (f), lying still at
// place until placeT, then awaited: missed, a frame passed without it;
// found, its first sighting again, on the line (see above).
type flickOnce struct {
	f      obs
	place  board.Vec
	placeT float64
	side   board.Side
	missed bool
	found  obs
	ok     bool
}

// forgetFlicks drops the slides awaited between strokes: a stroke began.
func (tk *Tracker) forgetFlicks() {
	tk.flickHand = flickHand{}
	tk.flickOnce = flickOnce{}
	tk.way = strikerWay{}
}

// flickOnceHold is the time before which events may be released while a
// striker seen once off its place is awaited (+Inf: none is).
func (tk *Tracker) flickOnceHold() float64 {
	if w := &tk.flickOnce; w.ok && tk.stroke == nil {
		return w.placeT - tk.dt
	}
	return math.Inf(1)
}

// checkFlickOnce follows the striker seen once off its place (see above)
// and starts the stroke, held for the umpire, when it is found where
// such a backward flick leaves it.
func (tk *Tracker) checkFlickOnce() bool {
	w := &tk.flickOnce
	s := &tk.tracks[idxS]
	if tk.stroke != nil || tk.t-tk.firstT <= tk.cfg.InitTime {
		*w = flickOnce{}
		return false
	}
	seen := s.seen && s.lastSeenT == tk.t
	if !w.ok {
		if seen {
			tk.armFlickOnce()
		}
		return false
	}
	switch {
	case !seen && w.found.t == 0:
		w.missed = true
		if tk.t-w.f.t > flickFindTime {
			*w = flickOnce{}
		}
		return false
	case !seen:
		if tk.t-w.found.t > 3.5*tk.dt {
			*w = flickOnce{} // found once, then not: taken up again
		}
		return false
	case w.found.t == 0:
		if !w.missed || !tk.onFlickOnceLine(s.lastObs) {
			*w = flickOnce{}
			tk.armFlickOnce()
			return false
		}
		w.found = s.lastObs
		return false
	}
	q := s.lastObs
	lim := 2 * tk.cfg.MoveMM
	if q.partial || w.found.partial {
		lim *= 3
	}
	found := *w
	*w = flickOnce{}
	if q.p.Dist(found.found.p) > lim {
		return false // still moving: carried
	}
	tk.beginFlickOnce(&found, q)
	return true
}

// armFlickOnce starts awaiting the striker when this frame's sighting is
// its first off the place where it stood still (see above).
func (tk *Tracker) armFlickOnce() {
	s := &tk.tracks[idxS]
	st := tk.still
	f := s.lastObs
	if !st.ok || f.t-st.t > 0.25 || f.t <= st.t {
		return
	}
	// (Its first sighting off the place: the one that set it moving, or
	// the one seen away from it and not yet taken for a move.)
	first := s.state == Moving && len(s.hist) == s.moveStart+1 && s.hist[s.moveStart].t == f.t ||
		s.state.atRest() && s.moveStreak == 1 && s.moveFirst.t == f.t
	if !first {
		return
	}
	side, ok := tk.g.BaseLineSide(st.p, s.r+10)
	if !ok {
		return
	}
	away := f.p.Sub(st.p)
	d1, dt := away.Len(), f.t-st.t
	if d1 <= 3*tk.cfg.MoveMM || away.Unit().Dot(side.Normal()) < 0.5 || d1/dt < tk.cfg.StrikeSpeed {
		return
	}
	tk.flickOnce = flickOnce{f: f, place: st.p, placeT: st.t, side: side, ok: true}
}

// onFlickOnceLine reports whether o, the striker's first sighting since
// the one off its place, lies farther along the line from its place
// through that sighting: where a flick that way stops.
func (tk *Tracker) onFlickOnceLine(o obs) bool {
	w := &tk.flickOnce
	away := w.f.p.Sub(w.place)
	d1 := away.Len()
	u := away.Scale(1 / d1)
	rel := o.p.Sub(w.place)
	along, across := rel.Dot(u), math.Abs(rel.Cross(u))
	if o.t-w.f.t > flickFindTime || along < d1+2*tk.cfg.MoveMM {
		return false
	}
	// The heading from one sighting d1 from the place is known to about
	// that sighting's error over d1.
	slack := 2 * math.Max(w.f.sigma, tk.cfg.NoiseMM) / d1
	if across > 6+3*tk.cfg.NoiseMM+slack*along {
		return false
	}
	// A flick that stops at along (at up to twice the friction) passes
	// d1 soonest: it must do so within the time the striker was not seen
	// at either.
	a := 2 * tk.cfg.Deceleration
	v0 := math.Sqrt(2 * a * along)
	tau := (v0 - math.Sqrt(v0*v0-2*a*d1)) / a
	return tau <= w.f.t-w.placeT+tk.dt/2
}

// beginFlickOnce starts the stroke of the backward flick flickOnce found
// (w), the striker lying at q: from its place at the moment a slide at
// the configured friction through the sighting and to q gives, and holds
// it for the umpire.
func (tk *Tracker) beginFlickOnce(w *flickOnce, q obs) {
	s := &tk.tracks[idxS]
	dir := q.p.Sub(w.place)
	D := dir.Len()
	u := dir.Scale(1 / D)
	a := tk.cfg.Deceleration
	v0 := math.Sqrt(2 * a * D)
	d1 := math.Min(w.f.p.Sub(w.place).Dot(u), D)
	tau := (v0 - math.Sqrt(math.Max(0, v0*v0-2*a*d1))) / a
	tf := math.Max(w.placeT, math.Min(w.f.t-tau, w.f.t))
	stop := math.Min(tf+v0/a, tk.t)
	sg := seg{first: 0, n: 1, from: tf, t0: tf, p0: w.place, v0: u.Scale(v0), known: true, guessed: true}
	// It lies at q: at rest since the slide stopped.
	tk.lieAt(s, q, stop)
	s.hist = append(s.hist[:0], w.f)
	s.segs = append(s.segs[:0], sg)
	s.moveStart = 0
	tk.beginStroke(w.side, w.place, tf, 0)
	tk.markStart(true, startSeenSigma)
	tk.stroke.doubts = append(tk.stroke.doubts, events.Doubt{Kind: events.DoubtViewCovered,
		Reason: fmt.Sprintf("the striker was seen once only leaving its place (frame %d, %.0f mm from it), then not until frame %d, where it lay %.0f mm behind its place on that line: taken as flicked backward (a flick that way stops there), though a hand carrying it back looks the same",
			w.f.frame, w.f.p.Dist(w.place), w.found.frame, D),
		Frames: [2]int{w.f.frame, tk.frame}, IDs: []string{"S"}})
}
