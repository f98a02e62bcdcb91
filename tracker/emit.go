package tracker

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// pendingEvent is an event recognised but not yet released.
type pendingEvent struct {
	ev  events.Event
	seq int
	// keepFrame: the frame index was given (an event from outside).
	keepFrame bool
}

// order ranks event types that share a time: the start of a stroke before
// what happens in it, the end after.
func order(t events.Type) int {
	switch t {
	case events.Calibrated, events.Recalibrated:
		return 0
	case events.StrokeStart:
		return 1
	case events.ArmOverFoulLine:
		return 2
	case events.FrontLineCrossed:
		return 3
	case events.Contact:
		return 4
	case events.Pocketed, events.Overboard:
		return 5
	case events.StrokeEnd:
		return 7
	}
	return 6
}

func before(a, b *pendingEvent) bool {
	if a.ev.T != b.ev.T {
		return a.ev.T < b.ev.T
	}
	if oa, ob := order(a.ev.Type), order(b.ev.Type); oa != ob {
		return oa < ob
	}
	return a.seq < b.seq
}

// emit records an event for release once nothing earlier can still be
// recognised.
func (tk *Tracker) emit(e events.Event) int {
	tk.seq++
	tk.pending = append(tk.pending, pendingEvent{ev: e, seq: tk.seq})
	return tk.seq
}

// Emit queues an event from outside the tracker (the pipeline's
// calibrated and recalibrated) so that it leaves in time order with the
// tracker's own; its Frame and T are kept as given.
func (tk *Tracker) Emit(e events.Event) {
	tk.seq++
	tk.pending = append(tk.pending, pendingEvent{ev: e, seq: tk.seq, keepFrame: true})
}

// pendingEvent returns the held event seq, or nil when it is no longer
// held (or seq is 0).
func (tk *Tracker) pendingEvent(seq int) *events.Event {
	if seq == 0 {
		return nil
	}
	for k := range tk.pending {
		if tk.pending[k].seq == seq {
			return &tk.pending[k].ev
		}
	}
	return nil
}

// placingHold is the longest a placed event is held while the hand that
// put the disc down stays at it (the referee's placing window).
const placingHold = 3.0

// dropPending withdraws the held event seq.
func (tk *Tracker) dropPending(seq int) {
	for k := range tk.pending {
		if tk.pending[k].seq == seq {
			tk.pending = append(tk.pending[:k], tk.pending[k+1:]...)
			return
		}
	}
}

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
	w := tk.t - tk.cfg.EventDelay
	for i := range tk.tracks {
		if tr := &tk.tracks[i]; tr.placedSeq != 0 {
			w = math.Min(w, tr.placedT-tk.dt)
		}
	}
	st := tk.stroke
	if st == nil {
		return w
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
	// Insertion sort: the list is short and mostly in order.
	p := tk.pending
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && before(&p[j], &p[j-1]); j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	w := math.Inf(1)
	if !all {
		w = tk.watermark()
	}
	n := 0
	for n < len(p) && p[n].ev.T <= w {
		e := p[n].ev
		if !p[n].keepFrame {
			e.Frame = tk.frameOf(e.T)
		}
		tk.out = append(tk.out, e)
		n++
	}
	k := copy(p, p[n:])
	tk.pending = p[:k]
}

// frameOf returns the first frame at or after time t (as the simulator
// numbers its ground truth), extrapolating past the current frame.
func (tk *Tracker) frameOf(t float64) int {
	if t > tk.t+1e-6 {
		return tk.frame + int(math.Ceil((t-tk.t)*tk.times.fps()-1e-6))
	}
	return tk.times.frameOf(t)
}
