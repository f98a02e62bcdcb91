package tracker

import (
	"github.com/boardcam/boardcam/events"
)

// eventQueue holds the events recognised but not yet released and
// releases them in time order (one concern of the Tracker, embedded in
// it): an event is recognised a little after it happened, and a later
// frame may still refine its time or withdraw it, so each waits until the
// Tracker's watermark has passed it.
type eventQueue struct {
	pending []pendingEvent
	seq     int
	// out are the events released by the current Update or Flush.
	out []events.Event
}

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
// recognised; it returns the event's sequence number (never 0).
func (q *eventQueue) emit(e events.Event) int {
	q.seq++
	q.pending = append(q.pending, pendingEvent{ev: e, seq: q.seq})
	return q.seq
}

// emitAsIs records an event from outside whose Frame and T are kept as
// given.
func (q *eventQueue) emitAsIs(e events.Event) {
	q.seq++
	q.pending = append(q.pending, pendingEvent{ev: e, seq: q.seq, keepFrame: true})
}

// pendingEvent returns the held event seq, or nil when it is no longer
// held (or seq is 0).
func (q *eventQueue) pendingEvent(seq int) *events.Event {
	if seq == 0 {
		return nil
	}
	for k := range q.pending {
		if q.pending[k].seq == seq {
			return &q.pending[k].ev
		}
	}
	return nil
}

// dropPending withdraws the held event seq.
func (q *eventQueue) dropPending(seq int) {
	for k := range q.pending {
		if q.pending[k].seq == seq {
			q.pending = append(q.pending[:k], q.pending[k+1:]...)
			return
		}
	}
}

// releaseUpTo moves the events up to time w to out, in time order, giving
// each (but those from outside) its frame index by frameOf.
func (q *eventQueue) releaseUpTo(w float64, frameOf func(t float64) int) {
	if len(q.pending) == 0 {
		return
	}
	// Insertion sort: the list is short and mostly in order.
	p := q.pending
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && before(&p[j], &p[j-1]); j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	n := 0
	for n < len(p) && p[n].ev.T <= w {
		e := p[n].ev
		if !p[n].keepFrame {
			e.Frame = frameOf(e.T)
		}
		q.out = append(q.out, e)
		n++
	}
	k := copy(p, p[n:])
	q.pending = p[:k]
}
