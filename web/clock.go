package web

import "time"

// Clock is the server's source of time. Session expiry, the console's
// command rate limit, the throttling of live piece positions, the preview's
// frame rate and the websocket keep-alive pings all read it, so tests drive
// them with a fake clock and never sleep (see webtest.FakeClock).
//
// Network deadlines (read and write timeouts on sockets) are handed to the
// operating system and always use the real time.
type Clock interface {
	Now() time.Time
	// NewTicker returns a ticker that fires every d.
	NewTicker(d time.Duration) Ticker
}

// Ticker delivers ticks on C until Stop is called.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// NewTicker wraps time.NewTicker.
func (SystemClock) NewTicker(d time.Duration) Ticker { return sysTicker{time.NewTicker(d)} }

type sysTicker struct{ t *time.Ticker }

func (t sysTicker) C() <-chan time.Time { return t.t.C }
func (t sysTicker) Stop()               { t.t.Stop() }
