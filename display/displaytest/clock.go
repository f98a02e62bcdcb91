// Package displaytest provides test doubles for the display and hardware
// packages: a fake Clock whose time only moves when a test says so, and a
// Panel that records what it was asked to show.
package displaytest

import (
	"sort"
	"sync"
	"time"

	"github.com/boardcam/boardcam/display"
)

// Clock is a fake display.Clock. Time stands still until Advance or
// AdvanceToNext moves it; timers whose deadline is reached then fire, in
// deadline order. WaitTimers lets a test wait, without sleeping, until the
// goroutine under test has armed its timers.
type Clock struct {
	mu     sync.Mutex
	cond   *sync.Cond
	now    time.Time
	timers []*timer
}

// Epoch is the time a new fake Clock starts at.
var Epoch = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

// NewClock returns a fake clock set to Epoch.
func NewClock() *Clock {
	c := &Clock{now: Epoch}
	c.cond = sync.NewCond(&c.mu)
	return c
}

type timer struct {
	c        *Clock
	ch       chan time.Time
	deadline time.Time
	active   bool
}

func (t *timer) C() <-chan time.Time { return t.ch }

func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.active = false
	t.c.removeLocked(t)
	return was
}

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer arms a timer d from the fake now. A timer with d <= 0 fires at
// once.
func (c *Clock) NewTimer(d time.Duration) display.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, ch: make(chan time.Time, 1), deadline: c.now.Add(d), active: true}
	if d <= 0 {
		t.active = false
		t.ch <- c.now
		return t
	}
	c.timers = append(c.timers, t)
	c.cond.Broadcast()
	return t
}

func (c *Clock) removeLocked(t *timer) {
	for i, x := range c.timers {
		if x == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			break
		}
	}
	c.cond.Broadcast()
}

// Pending returns the number of armed timers.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// WaitTimers blocks until at least n timers are armed.
func (c *Clock) WaitTimers(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.timers) < n {
		c.cond.Wait()
	}
}

// Advance moves the time forward by d, firing every timer reached on the
// way in deadline order (the clock reads each deadline while its timer
// fires).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	c.advanceTo(end)
}

// AdvanceToNext moves the time to the earliest armed timer and fires it. It
// returns the new time and false when no timer was armed (time stays put).
func (c *Clock) AdvanceToNext() (time.Time, bool) {
	c.mu.Lock()
	if len(c.timers) == 0 {
		now := c.now
		c.mu.Unlock()
		return now, false
	}
	c.sortLocked()
	end := c.timers[0].deadline
	c.mu.Unlock()
	c.advanceTo(end)
	return end, true
}

// Step waits until a timer is armed, then advances to it: the usual way a
// test walks an asynchronous pattern one step at a time.
func (c *Clock) Step() time.Time {
	c.WaitTimers(1)
	t, _ := c.AdvanceToNext()
	return t
}

func (c *Clock) sortLocked() {
	sort.SliceStable(c.timers, func(i, j int) bool { return c.timers[i].deadline.Before(c.timers[j].deadline) })
}

func (c *Clock) advanceTo(end time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		c.sortLocked()
		if len(c.timers) == 0 || c.timers[0].deadline.After(end) {
			break
		}
		t := c.timers[0]
		c.timers = c.timers[1:]
		if t.deadline.After(c.now) {
			c.now = t.deadline
		}
		t.active = false
		t.ch <- c.now
	}
	if end.After(c.now) {
		c.now = end
	}
	c.cond.Broadcast()
}
