package tracker

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
)

// A striker seen sliding away from its place only partly (a forearm or a
// hand's shadow over part of it all the way) or only briefly (for less
// than frictionSpan before it strikes, or before it is lost) is, to
// checkFlick and slowFromPlace, one a hand carried: its sightings cannot
// show a friction slide, and a hand setting the striker down, partly
// hidden and slowing, looks the same. What the striker does to the men
// tells them apart. A man lying on its line ahead that vanishes from plain
// view by a pocket, or is seen sliding away along the line of centres, just
// when a slide through those sightings reaches him, was struck: a hand
// carrying the striker pushes a man along with it, it does not send him
// into a pocket (knock). The stroke then starts at the striker's place,
// struck when its slide traced back at the board's friction left there,
// and is held for the umpire (start_unseen): its start was not seen, and
// the reason says what was seen. Asked of every knock:
//
//   - the striker stood still at its place in a base-line area of its own
//     quarter, and was seen nowhere else since (strikerWay keeps its
//     sightings since);
//   - at least two sightings before the touch, on a straight line from
//     that place, each farther along it, at StrikeSpeed or more and not
//     gathering speed (a flicked striker only loses it);
//   - the man lay still there for lostSeenTime, on that line ahead (the
//     striker's way overlaps him), with no hand over him or near him;
//   - the slide through the last two sightings, at half to twice the
//     board's friction, reaches him within the frames in which he went;
//   - he went in a way only a blow explains: vanished in plain view
//     (pocketFr frames) lying by a pocket with the line of centres toward
//     it, or seen sliding away along the line of centres;
//   - the slide traced back at twice the friction leaves the place after
//     the striker was last seen there.
//
// While a knock may still be found (knockWindow after the striker left its
// place, knockWait more), events wait behind its last sighting there
// (knockHold) so that the stroke's events leave in time order.

// strikerWay is the striker's sightings since it last stood still (the
// first len(o) of them).
type strikerWay struct {
	since float64
	o     [16]obs
	n     int
	// left[k]: when sighting k was taken, no hand covered any of the
	// place of the first sighting (radius r) any more.
	left [16]bool
}

// note keeps sighting o of the striker (radius r), which last stood still
// as st says; occ is the frame's occlusion.
func (w *strikerWay) note(st stillPos, o obs, occ sight.Occlusion, r float64) {
	if !st.ok {
		w.n = 0
		return
	}
	if w.since != st.t {
		w.since, w.n = st.t, 0
	}
	if o.t <= st.t+1e-9 || w.n == len(w.o) {
		return
	}
	w.o[w.n] = o
	w.left[w.n] = occ == nil || occ.Hidden(w.o[0].p, r) == 0
	w.n++
}

// knockWindow is how long after the striker was last seen at its place a
// knock may come: the aiming hand hides it for a moment before the flick,
// and a slow stroke takes a second to reach a man across the board.
// knockWait is how long after that a man knocked in is found gone (or
// sliding away).
const (
	knockWindow = 2.0
	knockWait   = 0.5
)

// knock is a man struck by the striker unseen (see above).
type knock struct {
	i        int       // the man
	place    board.Vec // where he lay
	c        board.Vec // the striker's centre at the touch
	u        board.Vec // the striker's way from its place
	tc, tf   float64   // the touch and the flick
	pre      int       // the striker's sightings before the touch
	moved    bool      // seen sliding away (else gone)
	pk       board.Pocket
	seenWhat string
}

// knockHold is the time before which events may be released while a
// knock may still be found (+Inf: none may).
func (tk *Tracker) knockHold() float64 {
	st, w := tk.still, &tk.way
	if tk.stroke != nil || !st.ok || w.since != st.t || w.n == 0 || tk.t-st.t > knockWindow+knockWait {
		return math.Inf(1)
	}
	return st.t - tk.dt
}

// checkKnocked starts the stroke of a striker that knocked a man (see
// above), held for the umpire.
func (tk *Tracker) checkKnocked() bool {
	st, w := tk.still, &tk.way
	s := &tk.tracks[idxS]
	if tk.stroke != nil || tk.t-tk.firstT <= tk.cfg.InitTime || !st.ok || w.since != st.t || w.n < 2 ||
		tk.t-st.t > knockWindow+knockWait {
		return false
	}
	if s.state.atRest() && s.seen {
		return false
	}
	if sd, ok := tk.g.BaseLineSide(st.p, s.r+10); !ok || sd != board.Quadrant(st.p) {
		return false
	}
	for i := range tk.tracks {
		if k, ok := tk.knockOf(i); ok {
			tk.beginKnocked(&k)
			return true
		}
	}
	return false
}

// knockOf reports whether man i was knocked by the striker (see above).
func (tk *Tracker) knockOf(i int) (knock, bool) {
	st, w := tk.still, &tk.way
	s := &tk.tracks[idxS]
	tr := &tk.tracks[i]
	k := knock{i: i}
	if i == idxS || tr.provisional {
		return k, false
	}
	var lo, hi float64 // the touch lies between
	var f obs
	switch {
	case tr.state.atRest() && !tr.seen && tr.misses >= tk.pocketFr:
		lo, hi, k.place = tr.lastSeenT, tr.unseenSince, tr.restPos
		if tr.lastSeenT-tr.restSince < lostSeenTime {
			return k, false
		}
	case tr.state == Moving && tr.fromRest && len(tr.hist) > tr.moveStart && tr.onsetLo-tr.restSince >= lostSeenTime:
		f = tr.hist[tr.moveStart]
		lo, hi, k.place, k.moved = tr.onsetLo, f.t, tr.onsetFrom, true
	default:
		return k, false
	}
	if lo < st.t || lo > st.t+knockWindow {
		return k, false
	}
	if tk.occ != nil && tk.occ.Hidden(k.place, tr.r+10) > 0 || tk.hands.near(k.place, tr.r+10, lo-0.5) {
		return k, false // a hand over him, or near: moved by hand
	}
	// The striker's sightings before the touch, on a line from its place.
	var p []obs
	for _, o := range w.o[:w.n] {
		if o.t <= lo+1e-9 {
			p = append(p, o)
		}
	}
	if len(p) < 2 {
		return k, false
	}
	last := p[len(p)-1]
	u := last.p.Sub(st.p)
	if u.Len() < 3*tk.cfg.MoveMM {
		return k, false
	}
	u = u.Unit()
	prev := 0.0
	for _, o := range p {
		rel := o.p.Sub(st.p)
		al := rel.Dot(u)
		if al <= prev || math.Abs(rel.Cross(u)) > 6+3*o.sigma+0.03*al {
			return k, false
		}
		prev = al
	}
	a := tk.cfg.Deceleration
	along := func(o obs) float64 { return o.p.Sub(st.p).Dot(u) }
	chord := func(m int) float64 { return (along(p[m]) - along(p[m-1])) / (p[m].t - p[m-1].t) }
	n := len(p) - 1
	vc := chord(n)
	if vc < tk.cfg.StrikeSpeed {
		return k, false
	}
	for m := 2; m <= n; m++ {
		noise := 4 * math.Max(p[m].sigma, p[m-2].sigma) / (p[m-1].t - p[m-2].t)
		if chord(m) > 1.2*chord(m-1)+noise {
			return k, false // gathering speed: carried
		}
	}
	// Partly hidden from the first sighting to the last, the cover
	// gone from the first sighting's place: a hand moved with it.
	if p[0].partial && last.partial && w.left[len(p)-1] {
		return k, false
	}
	// Seen long enough to tell: losing speed as friction takes it, not
	// carried at a steady pace.
	if len(p) >= 4 && last.t-p[0].t >= frictionSpan {
		if d, ok := fitDecel(p, u); !ok || d < a/4 || d > 4*a {
			return k, false
		}
	}
	vn := vc - a*(last.t-p[n-1].t)/2 // its speed at the last sighting
	// The man on that line ahead, and the touch.
	rel := k.place.Sub(st.p)
	D := s.r + tr.r
	lat := math.Abs(rel.Cross(u))
	if lat > D-2 || rel.Dot(u) <= along(last) {
		return k, false
	}
	ac := rel.Dot(u) - math.Sqrt(D*D-lat*lat)
	if ac < along(last)-2*tk.cfg.MoveMM {
		return k, false
	}
	// Seen since, it got to him (a striker that strikes a man goes on
	// past the touch, or aside): one left short of him was set down.
	for _, o := range w.o[len(p):w.n] {
		if along(o) < ac-2*tk.cfg.MoveMM {
			return k, false
		}
	}
	L := math.Max(0, ac-along(last))
	k.c, k.u = st.p.Add(u.Scale(ac)), u
	reach := func(d float64) float64 { return last.t + (vn-math.Sqrt(math.Max(0, vn*vn-2*d*L)))/d }
	if vn*vn < a*L {
		return k, false // too slow to reach him even at half the friction
	}
	early, late := reach(a/2), reach(math.Min(2*a, vn*vn/(2*L+1e-9)))
	if hi+tk.dt/2 < early || lo-tk.dt/2 > late {
		return k, false
	}
	k.tc = math.Max(lo, math.Min(hi, reach(math.Min(a, vn*vn/(2*L+1e-9)))))
	nc := k.place.Sub(k.c).Unit() // the line of centres
	if k.moved {
		d := f.p.Sub(k.place)
		if d.Len() < 3*tk.cfg.MoveMM || d.Unit().Dot(nc) < 0.8 || d.Len()/math.Max(f.t-k.tc, tk.dt/2) < 2*tk.cfg.StrikeSpeed {
			return k, false
		}
	} else {
		pk, dd := tk.g.NearestPocket(k.place)
		pc := tk.g.Pocket(pk)
		if dd > pc.R+2.5*tr.r || tk.pocketHidden(pk) || pc.C.Sub(k.place).Unit().Dot(nc) < 0.7 {
			return k, false
		}
		k.pk = pk
	}
	// Traced back at up to twice the friction, the slide left the place
	// after the striker was last seen there.
	first := p[0]
	v1 := vn + a*(last.t-first.t)
	b := along(first)
	tau := func(d float64) float64 { return (-v1 + math.Sqrt(v1*v1+2*d*b)) / d }
	if first.t-tau(2*a) < st.t-tk.dt/2 {
		return k, false
	}
	k.tf = math.Max(st.t+tk.dt/2, first.t-tau(a))
	k.pre = len(p)
	partial := 0
	for _, o := range p {
		if o.partial {
			partial++
		}
	}
	k.seenWhat = fmt.Sprintf("in frames %d to %d only (%d sightings over %.2f s)", first.frame, last.frame, len(p), last.t-first.t)
	switch {
	case partial == len(p):
		k.seenWhat += ", each partly hidden"
	case partial > 0:
		k.seenWhat += fmt.Sprintf(", %d partly hidden", partial)
	}
	return k, true
}

// beginKnocked starts the stroke of knock k: from the striker's place at
// k.tf, its slide inferred to the touch, the striker's sightings after the
// touch kept; held for the umpire (start_unseen).
func (tk *Tracker) beginKnocked(k *knock) {
	s := &tk.tracks[idxS]
	tr := &tk.tracks[k.i]
	start := tk.still.p
	side := board.Quadrant(start)
	f0 := tk.frameOf(tk.still.t)
	a := tk.cfg.Deceleration
	tau := math.Max(k.tc-k.tf, tk.dt/2)
	dist := k.c.Dist(start)
	v0 := k.u.Scale(dist/tau + a*tau/2)
	// The striker's first slide seen after the touch, if any.
	after := -1
	if s.state == Moving && len(s.hist) > 0 {
		for m := range s.segs {
			if sg := &s.segs[m]; sg.n > 0 && sg.first < len(s.hist) && s.hist[sg.first].t >= k.tc-tk.dt/2 {
				after = m
				break
			}
		}
	}
	if after >= 0 {
		tk.flickThrough(k.i, k.tf, k.tc, k.c, v0, &s.segs[after], side, start, after, true)
	} else {
		tk.beginStroke(side, start, k.tf, -1)
		s.segs = append(s.segs[:1], seg{from: k.tf, t0: k.tf, p0: start, v0: v0, known: true, guessed: true})
		tk.addContactOf(idxS, k.i, k.tc, k.c, k.place, true)
	}
	tk.markStart(false, startBandSigma)
	if k.moved {
		tr.onsetPending, tr.onsetKnown, tr.onsetT = false, true, k.tc
	}
	st := tk.stroke
	if st.startBehind {
		fl := tk.g.FrontInner()
		seg := seg{from: k.tf, t0: k.tf, p0: start, v0: v0, known: true}
		f := func(t float64) float64 { return board.ToLocal(side, tk.mot.at(&seg, t)).Y + s.r - fl }
		if tc, ok := firstCrossing(f, k.tf, k.tc); ok {
			st.crossed = true
			st.crossSeq = tk.emit(events.Event{Type: events.FrontLineCrossed, T: tc, Side: events.SidePtr(side)})
		}
	}
	what := fmt.Sprintf("%s, lying on that line at (%.0f, %.0f) mm", tr.id, k.place.X, k.place.Y)
	if k.moved {
		what += fmt.Sprintf(", was seen sliding away from there at frame %d", tr.hist[tr.moveStart].frame)
	} else {
		what += fmt.Sprintf(" by the %s pocket, vanished from plain view at frame %d", k.pk, tk.frameOf(tr.unseenSince))
	}
	st.doubts = append(st.doubts, events.Doubt{Kind: events.DoubtStartUnseen,
		Reason: fmt.Sprintf("the striker, last seen at its place at frame %d, was seen sliding away on a line from it %s, too little to tell a flick from a hand carrying it; %s just as that slide reached him: taken as struck from its place, though its start was not seen",
			f0, k.seenWhat, what),
		Frames: [2]int{f0, tk.frame}, IDs: []string{"S", tr.id}})
}
