// Package clocktest provides the fake clock.Clock that every boardcam test
// uses: its time stands still until the test moves it, so no test sleeps.
package clocktest

import (
	"sort"
	"sync"
	"time"

	"github.com/boardcam/boardcam/clock"
)

// Epoch is the time a clock made by New starts at.
var Epoch = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

// Clock is a fake clock.Clock. Time stands still until Advance,
// AdvanceToNext or Step moves it; the timers and tickers whose deadline is
// reached then fire, in deadline order, and the clock reads each deadline
// while its timer or ticker fires. Because the fake time jumps, a ticker
// whose period ends more than once in one move ticks once (like a
// time.Ticker whose reader was slow: the missed ticks are dropped).
// WaitTimers and Tickers let a test wait, without sleeping, until the
// goroutine under test has armed its timers or started its tickers.
type Clock struct {
	mu      sync.Mutex
	cond    *sync.Cond
	now     time.Time
	timers  []*timer
	tickers []*ticker
}

// New returns a fake clock set to Epoch.
func New() *Clock { return NewAt(Epoch) }

// NewAt returns a fake clock set to t.
func NewAt(t time.Time) *Clock {
	c := &Clock{now: t}
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

type ticker struct {
	c       *Clock
	ch      chan time.Time
	period  time.Duration
	next    time.Time
	stopped bool
}

func (t *ticker) C() <-chan time.Time { return t.ch }

func (t *ticker) Stop() {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	t.stopped = true
	for i, x := range t.c.tickers {
		if x == t {
			t.c.tickers = append(t.c.tickers[:i], t.c.tickers[i+1:]...)
			break
		}
	}
	t.c.cond.Broadcast()
}

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer arms a timer d from the fake now. A timer with d <= 0 fires at
// once.
func (c *Clock) NewTimer(d time.Duration) clock.Timer {
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

// NewTicker starts a ticker whose first tick is d from the fake now. It
// panics when d <= 0, as time.NewTicker does.
func (c *Clock) NewTicker(d time.Duration) clock.Ticker {
	if d <= 0 {
		panic("clocktest: non-positive ticker period")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &ticker{c: c, ch: make(chan time.Time, 1), period: d, next: c.now.Add(d)}
	c.tickers = append(c.tickers, t)
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

// Tickers returns the number of running tickers.
func (c *Clock) Tickers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.tickers)
}

// WaitTimers blocks until at least n timers are armed.
func (c *Clock) WaitTimers(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.timers) < n {
		c.cond.Wait()
	}
}

// Advance moves the time forward by d, firing every timer and ticker
// reached on the way in deadline order.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	c.advanceTo(end)
}

// AdvanceToNext moves the time to the earliest deadline of an armed timer
// or a running ticker and fires what is due then. It returns the new time,
// and false when nothing was armed (time stays put).
func (c *Clock) AdvanceToNext() (time.Time, bool) {
	c.mu.Lock()
	end, ok := c.nextLocked()
	if !ok {
		end = c.now
	}
	c.mu.Unlock()
	if ok {
		c.advanceTo(end)
	}
	return end, ok
}

// Step waits until a timer is armed, then advances to the next deadline:
// the usual way a test walks an asynchronous pattern one step at a time.
func (c *Clock) Step() time.Time {
	c.WaitTimers(1)
	t, _ := c.AdvanceToNext()
	return t
}

// nextLocked returns the earliest deadline of the timers and tickers.
func (c *Clock) nextLocked() (time.Time, bool) {
	var next time.Time
	ok := false
	for _, t := range c.timers {
		if !ok || t.deadline.Before(next) {
			next, ok = t.deadline, true
		}
	}
	for _, t := range c.tickers {
		if !ok || t.next.Before(next) {
			next, ok = t.next, true
		}
	}
	return next, ok
}

func (c *Clock) advanceTo(end time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		// Timers first at equal deadlines (stable: in the order armed),
		// then tickers in the order started.
		sort.SliceStable(c.timers, func(i, j int) bool { return c.timers[i].deadline.Before(c.timers[j].deadline) })
		var tk *ticker
		for _, t := range c.tickers {
			if tk == nil || t.next.Before(tk.next) {
				tk = t
			}
		}
		timerDue := len(c.timers) > 0 && !c.timers[0].deadline.After(end)
		tickerDue := tk != nil && !tk.next.After(end)
		switch {
		case timerDue && (!tickerDue || !tk.next.Before(c.timers[0].deadline)):
			t := c.timers[0]
			c.timers = c.timers[1:]
			if t.deadline.After(c.now) {
				c.now = t.deadline
			}
			t.active = false
			t.ch <- c.now
		case tickerDue:
			if tk.next.After(c.now) {
				c.now = tk.next
			}
			// One tick for every period that ends in this move; the
			// next tick is the first period end after it.
			for !tk.next.After(end) {
				tk.next = tk.next.Add(tk.period)
			}
			select {
			case tk.ch <- c.now:
			default:
			}
		default:
			if end.After(c.now) {
				c.now = end
			}
			c.cond.Broadcast()
			return
		}
	}
}
