package webtest

import (
	"sync"
	"time"

	"github.com/boardcam/boardcam/web"
)

// FakeClock is a web.Clock that moves only when told to.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	tickers []*fakeTicker
}

// NewFakeClock returns a clock standing at t.
func NewFakeClock(t time.Time) *FakeClock { return &FakeClock{now: t} }

// Now returns the clock's time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTicker returns a ticker that fires as Advance passes its periods.
func (c *FakeClock) NewTicker(d time.Duration) web.Ticker {
	if d <= 0 {
		panic("webtest: non-positive ticker period")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTicker{c: c, ch: make(chan time.Time, 1), period: d, next: c.now.Add(d)}
	c.tickers = append(c.tickers, t)
	return t
}

// Advance moves the clock forward by d. A ticker whose period ends on the
// way gets one tick (like time.Ticker, ticks a slow reader misses are
// dropped).
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for _, t := range c.tickers {
		if t.stopped || t.next.After(c.now) {
			continue
		}
		for !t.next.After(c.now) {
			t.next = t.next.Add(t.period)
		}
		select {
		case t.ch <- c.now:
		default:
		}
	}
}

// Tickers counts the running tickers (to wait until a goroutine started
// its ticker before advancing).
func (c *FakeClock) Tickers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.tickers {
		if !t.stopped {
			n++
		}
	}
	return n
}

type fakeTicker struct {
	c       *FakeClock
	ch      chan time.Time
	period  time.Duration
	next    time.Time
	stopped bool
}

func (t *fakeTicker) C() <-chan time.Time { return t.ch }

func (t *fakeTicker) Stop() {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	t.stopped = true
}
