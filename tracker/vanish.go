package tracker

import (
	"fmt"
	"math"
)

// A stroke may fall wholly between two frames: at 15 fps a striker flicked
// at 3 m/s covers 200 mm in one frame interval, and it can strike a man by
// a pocket and go in with it before the next frame. Nothing is then seen
// moving: the man is gone from where it lay, and so is the striker. A
// resting disc missed in plain view for a moment is a detector drop-out;
// one missed for MissingTime, its place in plain view all along (no hand
// over it), is gone, and when the striker too vanished from its place
// (missed in plain view, or its place seen empty once the hand over it
// left) since at most startUnseenTime before, a stroke was played whose
// start and flight were not seen (checkVanished). It is followed like one
// that fell in frames not analysed (beginUnseen) and ends at once: each
// vanished disc pocketed when it lay by a pocket (inferred), else
// unaccounted for, the striker likewise, and the stroke_end says what was
// seen (start_unseen) so that the referee holds it for the umpire. A disc
// back at its place within MissingTime was a drop-out: nothing is said.
// So is one back within vanishConfirm more while the striker is still
// away: a player picking the striker up holds it for a few seconds, and a
// man that drops out of detection meanwhile (an arm's shadow, glare) for
// over MissingTime had made a held stroke naming him. The stroke is
// decided once the disc has stayed gone that much longer; if the striker
// is seen again first, nothing is decided here, and a disc still missing
// is said unaccounted for at the next stroke's end (account.go).
// While such a stroke may still be recognised, events wait behind the
// first vanished disc's last sighting (vanishHold), so that the stroke's
// events still leave in time order.

// vanishWait is how long after a disc went missing in plain view the
// striker's place, still under a hand, is awaited to be seen empty.
const vanishWait = 2.0

// vanishConfirm is how much longer than MissingTime a disc that vanished
// with the striker must stay gone before a stroke between two frames is
// taken to have happened (see above).
const vanishConfirm = 1.0

// vanishSuspect reports whether resting (or just missed) disc i, not the
// striker, is missed in plain view since after the striker was last seen
// (within startUnseenTime), the striker not seen since: the beginning of a
// stroke that fell between two frames, or a drop-out.
func (tk *Tracker) vanishSuspect(i int) bool {
	tr := &tk.tracks[i]
	s := &tk.tracks[idxS]
	if i == idxS || tr.misses == 0 || tr.provisional || tr.misses < tk.pocketFr || s.seen || s.lastSeenT <= 0 {
		return false
	}
	switch {
	case tr.state.atRest():
	case tr.state == Missing && tr.vanishT > 0 && tk.t-tr.vanishT <= vanishWait+vanishConfirm:
	default:
		return false
	}
	if tr.unseenSince < s.lastSeenT-1e-9 || tr.unseenSince-s.lastSeenT > startUnseenTime {
		return false
	}
	return tk.occ == nil || tk.occ.Hidden(tr.restPos, tr.r) < tk.cfg.OccludedFraction/2
}

// strikerVanished reports whether the striker is gone from its place: it
// lay there (at rest, or under a hand) and is not seen; its place is in
// plain view (or was seen empty once the hand left it). covered: it is
// still under a hand, perhaps still there.
func (tk *Tracker) strikerVanished() (gone, covered bool) {
	s := &tk.tracks[idxS]
	if s.seen {
		return false, false
	}
	switch {
	case s.state == Occluded && s.taken:
		return true, false
	case s.state == Occluded:
		return false, true
	case s.state.atRest() && s.misses > 0:
		return tk.occ == nil || tk.occ.Hidden(s.restPos, s.r) < tk.cfg.OccludedFraction/2, false
	case s.state == Missing && s.vanishT > 0:
		return true, false
	}
	return false, false
}

// vanishHold is the time before which events may be released while a
// stroke that fell between two frames may still be recognised (+Inf: no
// such stroke awaited).
func (tk *Tracker) vanishHold() float64 {
	w := math.Inf(1)
	if tk.stroke != nil {
		return w
	}
	for i := range tk.tracks {
		if tk.vanishSuspect(i) {
			w = math.Min(w, math.Min(tk.tracks[i].lastSeenT, tk.tracks[idxS].lastSeenT)-tk.dt)
		}
	}
	return w
}

// checkVanished starts and ends a stroke that fell between two frames
// (see above): the discs missed in plain view for MissingTime and
// vanishConfirm since the striker was last seen, the striker gone from its
// place.
func (tk *Tracker) checkVanished() bool {
	if tk.stroke != nil || tk.t-tk.firstT <= tk.cfg.InitTime {
		return false
	}
	sGone, _ := tk.strikerVanished()
	if !sGone {
		return false
	}
	var buf [nTracks]int
	gone := buf[:0]
	for i := range tk.tracks {
		if tk.vanishSuspect(i) && tk.t-tk.tracks[i].unseenSince >= tk.cfg.MissingTime+vanishConfirm-1e-9 {
			gone = append(gone, i)
		}
	}
	if len(gone) == 0 {
		return false
	}
	s := &tk.tracks[idxS]
	from, to := s.lastSeenFrame, tk.frameOf(s.lastSeenT+tk.dt)
	t0, t1 := s.lastSeenT, s.lastSeenT+tk.dt
	for _, i := range gone {
		tr := &tk.tracks[i]
		from = min(from, tr.lastSeenFrame)
		to = max(to, tk.frameOf(tr.unseenSince))
		t0, t1 = math.Min(t0, tr.lastSeenT), math.Max(t1, tr.unseenSince)
	}
	// Each vanished disc, and the striker, back at rest where it lay:
	// it vanished in the stroke, and its fate is decided at the end
	// (resolveVanished), and said.
	var what []string
	for _, i := range gone {
		tr := &tk.tracks[i]
		tr.state, tr.pos, tr.vanishT = Rest, tr.restPos, 0
		what = append(what, fmt.Sprintf("%s (at (%.0f, %.0f) mm)", tr.id, tr.restPos.X, tr.restPos.Y))
	}
	s.state, s.pos, s.occMoving, s.taken, s.vanishT = Rest, s.restPos, false, false, 0
	if s.misses == 0 {
		s.misses, s.unseenSince = 1, s.lastSeenT+tk.dt
	}
	g := frameGap{from: from, to: to, t0: t0, t1: t1}
	tk.beginUnseen(&g)
	st := tk.stroke
	st.startT = t0 + tk.dt/2
	st.strikerPrev = st.startT
	for _, i := range append(gone, idxS) {
		tr := &tk.tracks[i]
		tr.inStroke = true
		tr.unseenSince = math.Max(tr.unseenSince, st.startT)
	}
	what = append(what, fmt.Sprintf("the striker (at (%.0f, %.0f) mm)", s.restPos.X, s.restPos.Y))
	st.unseenWhy = fmt.Sprintf("between frames %d and %d %s vanished from plain view and nothing was seen moving: a stroke whose start and flight were not seen", from, to, listIDs(what))
	return true
}
