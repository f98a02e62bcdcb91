package displaytest

import (
	"errors"
	"sync"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/display/segment"
)

// Frame is one write to a Panel.
type Frame struct {
	At     time.Time
	Digits []segment.Digit
}

// Panel is a display.Panel that records every frame written to it.
type Panel struct {
	// N is the number of digits.
	N int
	// Clock stamps the frames (nil: zero times).
	Clock clock.Clock
	// Gate, when set, makes each write wait for a value on it (to simulate
	// a hung bus).
	Gate chan struct{}
	// Entered, when set, receives a value each time a write starts (before
	// it waits on Gate).
	Entered chan struct{}

	mu     sync.Mutex
	frames []Frame
	halted bool
	fail   error
}

// Digits returns N.
func (p *Panel) Digits() int { return p.N }

// WriteDigits records d (after waiting on Gate, if set) or returns the
// error set by FailWith.
func (p *Panel) WriteDigits(d []segment.Digit) error {
	if p.Entered != nil {
		p.Entered <- struct{}{}
	}
	if p.Gate != nil {
		<-p.Gate
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail != nil {
		return p.fail
	}
	if len(d) != p.N {
		return errors.New("displaytest: wrong number of digits")
	}
	var at time.Time
	if p.Clock != nil {
		at = p.Clock.Now()
	}
	p.frames = append(p.frames, Frame{at, append([]segment.Digit(nil), d...)})
	return nil
}

// Halt records that the panel was halted.
func (p *Panel) Halt() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.halted = true
	return nil
}

// FailWith makes the following writes fail with err (nil: succeed again).
func (p *Panel) FailWith(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fail = err
}

// Frames returns the frames written so far.
func (p *Panel) Frames() []Frame {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Frame(nil), p.frames...)
}

// Halted reports whether Halt was called.
func (p *Panel) Halted() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.halted
}
