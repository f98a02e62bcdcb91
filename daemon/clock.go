package daemon

import (
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/display"
)

// Clock is the daemon's source of time: stall detection, reconnect backoff,
// the auto-apply delay of pending decisions, file pacing and every latency
// figure read it, so tests drive them with a fake clock and never sleep.
// It is the same interface as display.Clock, so one clock (and one fake,
// display/displaytest.Clock) serves the daemon and its output sinks.
type Clock = display.Clock

// Timer is a one-shot timer made by a Clock.
type Timer = display.Timer

// RealClock is the wall clock.
type RealClock = display.RealClock

// sleep waits for d on clock c, or until done is closed; it reports whether
// the full time passed.
func sleep(c Clock, d time.Duration, done <-chan struct{}) bool {
	if d <= 0 {
		select {
		case <-done:
			return false
		default:
			return true
		}
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return true
	case <-done:
		return false
	}
}

// clockOf adapts the daemon's clock to package clock's (until the
// daemon's clock is package clock's).
func clockOf(c Clock) clock.Clock { return clockAdapter{c} }

type clockAdapter struct{ c Clock }

func (a clockAdapter) Now() time.Time                         { return a.c.Now() }
func (a clockAdapter) NewTimer(d time.Duration) clock.Timer   { return a.c.NewTimer(d) }
func (a clockAdapter) NewTicker(d time.Duration) clock.Ticker { panic("daemon: no ticker") }
