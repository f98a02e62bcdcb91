package clocktest_test

import (
	"testing"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/clock/clocktest"
)

var _ clock.Clock = (*clocktest.Clock)(nil)
var _ clock.Clock = clock.Real{}

func fired(ch <-chan time.Time) (time.Time, bool) {
	select {
	case t := <-ch:
		return t, true
	default:
		return time.Time{}, false
	}
}

func TestTimersFireInDeadlineOrderAtTheirDeadline(t *testing.T) {
	c := clocktest.New()
	late := c.NewTimer(3 * time.Second)
	early := c.NewTimer(time.Second)
	stopped := c.NewTimer(2 * time.Second)
	if !stopped.Stop() || stopped.Stop() {
		t.Error("Stop reports a pending timer once")
	}
	if c.Pending() != 2 {
		t.Errorf("pending %d, want 2", c.Pending())
	}
	c.Advance(1500 * time.Millisecond)
	if at, ok := fired(early.C()); !ok || !at.Equal(clocktest.Epoch.Add(time.Second)) {
		t.Errorf("early timer: %v %v", at, ok)
	}
	if _, ok := fired(late.C()); ok {
		t.Error("late timer fired early")
	}
	if got := c.Now(); !got.Equal(clocktest.Epoch.Add(1500 * time.Millisecond)) {
		t.Errorf("now %v", got)
	}
	at, ok := c.AdvanceToNext()
	if !ok || !at.Equal(clocktest.Epoch.Add(3*time.Second)) {
		t.Errorf("AdvanceToNext %v %v", at, ok)
	}
	if _, ok := fired(late.C()); !ok {
		t.Error("late timer did not fire")
	}
	if _, ok := fired(stopped.C()); ok {
		t.Error("a stopped timer fired")
	}
	if _, ok := c.AdvanceToNext(); ok {
		t.Error("AdvanceToNext with nothing armed")
	}
	if now := c.NewTimer(0); now.Stop() {
		t.Error("a zero timer is not pending")
	} else if _, ok := fired(now.C()); !ok {
		t.Error("a zero timer fires at once")
	}
}

func TestTickerTicksOncePerMoveAndStops(t *testing.T) {
	t0 := time.Date(2025, 5, 1, 18, 0, 0, 0, time.UTC)
	c := clocktest.NewAt(t0)
	tk := c.NewTicker(100 * time.Millisecond)
	if c.Tickers() != 1 {
		t.Fatalf("tickers %d", c.Tickers())
	}
	c.Advance(50 * time.Millisecond)
	if _, ok := fired(tk.C()); ok {
		t.Error("tick before the period ended")
	}
	c.Advance(time.Second) // ten periods end: one tick, the rest dropped
	if at, ok := fired(tk.C()); !ok || !at.Equal(t0.Add(100*time.Millisecond)) {
		t.Errorf("tick %v %v", at, ok)
	}
	if _, ok := fired(tk.C()); ok {
		t.Error("a second tick in one move")
	}
	c.Advance(50 * time.Millisecond) // 1.1 s: the next period end
	if at, ok := fired(tk.C()); !ok || !at.Equal(t0.Add(1100*time.Millisecond)) {
		t.Errorf("tick %v %v", at, ok)
	}
	tk.Stop()
	if c.Tickers() != 0 {
		t.Errorf("tickers after Stop %d", c.Tickers())
	}
	c.Advance(time.Second)
	if _, ok := fired(tk.C()); ok {
		t.Error("a stopped ticker ticked")
	}
}

func TestStepWaitsForTheGoroutineToArmItsTimer(t *testing.T) {
	c := clocktest.New()
	done := make(chan bool)
	go func() { done <- clock.Sleep(c, time.Minute, nil) }()
	if at := c.Step(); !at.Equal(clocktest.Epoch.Add(time.Minute)) {
		t.Errorf("step to %v", at)
	}
	if !<-done {
		t.Error("Sleep did not report the full time")
	}
	stop := make(chan struct{})
	close(stop)
	if clock.Sleep(c, time.Minute, stop) || clock.Sleep(c, 0, stop) {
		t.Error("Sleep ignored done")
	}
	if !clock.Sleep(c, 0, nil) {
		t.Error("Sleep(0) is the full time")
	}
	if c.Pending() != 0 {
		t.Errorf("Sleep left %d timers", c.Pending())
	}
}
