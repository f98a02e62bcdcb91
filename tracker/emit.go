package tracker

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// Emit queues an event from outside the tracker (the pipeline's
// calibrated and recalibrated) so that it leaves in time order with the
// tracker's own; its Frame and T are kept as given.
func (tk *Tracker) Emit(e events.Event) { tk.emitAsIs(e) }

// placingHold is the longest a placed event is held while the hand that
// put the disc down stays at it (the referee's placing window).
const placingHold = 3.0

// unplacedTime is how long a disc just placed may go undetected with its
// place in plain view before it is taken as never put down.
const unplacedTime = 0.25

// placing releases the placed events whose hand has let go: no hand over
// the disc for the last 0.2 s and the disc seen at rest, or held
// placingHold. A disc seen only half under the hand that is not there
// when its place is uncovered was never put down: its event is withdrawn.
func (tk *Tracker) placing() {
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.placedSeq == 0 {
			continue
		}
		if tk.pendingEvent(tr.placedSeq) == nil {
			tr.placedSeq = 0
			continue
		}
		p := tr.pos
		if tr.state.atRest() {
			p = tr.restPos
		}
		uncovered := tk.occ == nil || tk.occ.Hidden(p, tr.r) < tk.cfg.OccludedFraction/2
		gone := !tr.seen && tr.misses > 0 && uncovered &&
			tk.t-tr.unseenSince >= math.Max(unplacedTime, 4.5*tk.dt) || tr.state == Missing
		// (While the striker moves, or is gone from where it lay and not
		// under a hand, a stroke may have begun that is not recognised
		// yet: a disc appearing then is no placement.)
		s := &tk.tracks[idxS]
		strikerKnown := s.seen && s.state.atRest() || s.state == Occluded || !s.state.OnBoard()
		release := tk.stroke != nil || tk.t-tr.placedT > placingHold || !tr.state.OnBoard() ||
			!tk.hands.near(p, tr.r+30, tk.t-0.2) && tr.seen && tr.state.atRest() && strikerKnown
		switch {
		case gone && !tr.placedWhole, release && !tr.placedWhole && !tr.seen:
			tk.unplace(i)
		case release:
			tr.placedSeq = 0
		}
	}
}

// unplace withdraws the placed event of track i, held still, and puts the
// track back as it was before: off the board, or never seen.
func (tk *Tracker) unplace(i int) {
	tr := &tk.tracks[i]
	tk.dropPending(tr.placedSeq)
	tr.placedSeq, tr.placedFlag = 0, false
	tr.state, tr.pos, tr.vel = tr.placedPrev, tr.placedPrevPos, board.Vec{}
	tr.restPos, tr.misses, tr.seen = tr.placedPrevPos, 0, false
	tr.hasAnchor = false
	tr.hist, tr.segs, tr.moveStart = tr.hist[:0], tr.segs[:0], 0
}

// watermark is the time before which every event has been recognised: the
// event delay behind the current frame, and no later than the last
// sighting of a disc whose fate is still open.
func (tk *Tracker) watermark() float64 {
	w := math.Min(tk.t-tk.cfg.EventDelay, tk.touchHoldUntil())
	for i := range tk.tracks {
		if tr := &tk.tracks[i]; tr.placedSeq != 0 {
			w = math.Min(w, tr.placedT-tk.dt)
		}
	}
	if fh := &tk.flickHand; fh.covered && tk.stroke == nil {
		// The striker slid under a hand, perhaps struck: a stroke may
		// begin before its slide (see watchFlickHand).
		t0 := fh.a.t - 0.5
		if fh.still.ok {
			t0 = math.Min(fh.a.t, fh.still.t)
		}
		w = math.Min(w, t0-tk.dt)
	}
	// (Or seen once off its place, then covered: see checkFlickOnce.)
	w = math.Min(w, tk.flickOnceHold())
	st := tk.stroke
	if st == nil {
		// A stroke that fell between two frames may still be
		// recognised (see vanish.go).
		// (Or a knock, see knocked.go; or the striker struck unseen,
		// see strikertrail.go.)
		return math.Min(w, math.Min(tk.vanishHold(), math.Min(tk.knockHold(), tk.trailHold())))
	}
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.state == Moving && tr.misses > 0 || tr.state.atRest() && tr.misses > 0 && tr.inStrokeVanish(tk) {
			w = math.Min(w, tr.lastSeenT-tk.dt)
		}
		if tr.onsetPending {
			w = math.Min(w, tr.onsetLo-tk.dt)
		}
	}
	for _, b := range st.breaks {
		if !b.done {
			w = math.Min(w, b.lo-tk.dt)
		}
	}
	// The start of the stroke is still being refined from the striker's
	// first slide (a few more detections make it much better).
	if s := &tk.tracks[idxS]; st.startN > 0 && len(s.segs) > 1 && s.segs[1].n < 4 && len(s.segs) == 2 &&
		s.state == Moving && tk.t-st.startT < 0.4 {
		w = math.Min(w, st.startT-tk.dt)
	}
	return w
}

// release moves the events up to the watermark (all of them when all is
// set) to the output, in time order, giving each its frame index.
func (tk *Tracker) release(all bool) {
	if len(tk.pending) == 0 {
		return
	}
	w := math.Inf(1)
	if !all {
		w = tk.watermark()
	}
	tk.releaseUpTo(w, tk.frameOf)
}
