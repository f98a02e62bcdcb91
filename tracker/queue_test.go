package tracker

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/events"
)

// The event queue releases what the watermark has passed, in time order,
// ranking events of one instant (stroke_start first, stroke_end last),
// numbers their frames, keeps the frame of an event from outside, and
// forgets withdrawn events.
func TestEventQueue(t *testing.T) {
	var q eventQueue
	end := q.emit(events.Event{Type: events.StrokeEnd, T: 1.0})
	contact := q.emit(events.Event{Type: events.Contact, T: 1.0})
	start := q.emit(events.Event{Type: events.StrokeStart, T: 1.0})
	late := q.emit(events.Event{Type: events.Pocketed, T: 2.0})
	q.emitAsIs(events.Event{Type: events.Recalibrated, T: 0.5, Frame: 99})
	gone := q.emit(events.Event{Type: events.Moved, T: 0.2})
	if start == 0 || end == start || contact == start {
		t.Fatalf("sequence numbers %d %d %d", end, contact, start)
	}
	if e := q.pendingEvent(late); e == nil || e.Type != events.Pocketed {
		t.Fatalf("pendingEvent(%d) = %v", late, e)
	}
	if q.pendingEvent(0) != nil {
		t.Error("pendingEvent(0) is not nil")
	}
	q.dropPending(gone)
	if q.pendingEvent(gone) != nil {
		t.Error("a withdrawn event is still held")
	}
	frameOf := func(t float64) int { return int(math.Round(t * 30)) }
	q.releaseUpTo(1.5, frameOf)
	want := []struct {
		typ   events.Type
		frame int
	}{{events.Recalibrated, 99}, {events.StrokeStart, 30}, {events.Contact, 30}, {events.StrokeEnd, 30}}
	if len(q.out) != len(want) {
		t.Fatalf("released %v, want %d events", q.out, len(want))
	}
	for i, w := range want {
		if q.out[i].Type != w.typ || q.out[i].Frame != w.frame {
			t.Errorf("event %d: %s at frame %d, want %s at %d", i, q.out[i].Type, q.out[i].Frame, w.typ, w.frame)
		}
	}
	if len(q.pending) != 1 || q.pendingEvent(late) == nil {
		t.Errorf("held after the release: %v, want the pocketing at 2 s", q.pending)
	}
	q.out = q.out[:0]
	q.releaseUpTo(math.Inf(1), frameOf)
	if len(q.out) != 1 || q.out[0].Frame != 60 || len(q.pending) != 0 {
		t.Errorf("final release %v, held %v", q.out, q.pending)
	}
}

// The frame clock numbers a time by the first frame at or after it, and
// extrapolates past the current frame at the recent frame rate (frames
// 10, 11, 13 and 14 analysed: 12 was dropped).
func TestFrameClock(t *testing.T) {
	var c frameClock
	c.times.init(8)
	for _, i := range []int{10, 11, 13, 14} {
		c.frame, c.t = i, float64(i)/30
		c.times.push(i, c.t)
	}
	for _, tc := range []struct {
		t    float64
		want int
	}{
		{10.0 / 30, 10}, {10.5 / 30, 11}, {12.0 / 30, 13}, {14.0 / 30, 14}, {0, 10},
		{16.0 / 30, 16}, // past the current frame, at the measured rate: 22.5 fps (3 frames in 4/30 s), so 1.5 frames on, rounded up
	} {
		if got := c.frameOf(tc.t); got != tc.want {
			t.Errorf("frameOf(%.4f) = %d, want %d", tc.t, got, tc.want)
		}
	}
}
