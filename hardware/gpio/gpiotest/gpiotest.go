// Package gpiotest is a fake gpio.Chip for tests: outputs record every
// change with the time of a (fake) clock, inputs take edges from the test.
package gpiotest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/boardcam/boardcam/hardware/gpio"
)

// Change is one Set of an output.
type Change struct {
	At     time.Time
	Active bool
}

// Chip is a fake GPIO chip with lines 0 to Lines-1 (54 when Lines is 0).
type Chip struct {
	ChipName string
	Lines    int
	// Now stamps output changes (nil: zero times).
	Now func() time.Time
	// Names maps line names that are not of the GPIO17 kinds to offsets.
	Names map[string]int
	// Busy makes requests of these offsets fail, like a line already used.
	Busy map[int]bool

	mu     sync.Mutex
	lines  map[int]*Line
	closed bool
}

// Line is a requested fake line.
type Line struct {
	chip    *Chip
	Offset  int
	Options gpio.LineOptions
	Output  bool

	mu      sync.Mutex
	active  bool
	changes []Change
	edge    func(gpio.Edge)
	closed  bool
	failSet error
}

var (
	_ gpio.Chip   = (*Chip)(nil)
	_ gpio.Output = (*Line)(nil)
	_ gpio.Input  = (*Line)(nil)
)

// Name returns ChipName or "gpiochip0".
func (c *Chip) Name() string {
	if c.ChipName == "" {
		return "gpiochip0"
	}
	return c.ChipName
}

func (c *Chip) request(name string, o gpio.LineOptions, output bool, edge func(gpio.Edge)) (*Line, error) {
	off, ok, err := gpio.ParseLine(name)
	if err != nil {
		return nil, err
	}
	if !ok {
		off, ok = c.Names[name]
		if !ok {
			return nil, fmt.Errorf("GPIO line %q: no line of that name on %s", name, c.Name())
		}
	}
	n := c.Lines
	if n == 0 {
		n = 54
	}
	if off >= n {
		return nil, fmt.Errorf("GPIO line %q: %s has lines 0 to %d", name, c.Name(), n-1)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errors.New("gpiotest: chip closed")
	}
	if c.Busy[off] {
		return nil, fmt.Errorf("request %s line %d (%s): device or resource busy", c.Name(), off, name)
	}
	if c.lines == nil {
		c.lines = map[int]*Line{}
	}
	if l, dup := c.lines[off]; dup && !l.isClosed() {
		return nil, fmt.Errorf("request %s line %d (%s): device or resource busy", c.Name(), off, name)
	}
	l := &Line{chip: c, Offset: off, Options: o, Output: output, edge: edge}
	c.lines[off] = l
	return l, nil
}

// Output requests an output line, initially inactive.
func (c *Chip) Output(name string, o gpio.LineOptions) (gpio.Output, error) {
	return c.request(name, o, true, nil)
}

// Input requests an input line; edges given to Line.Edge go to edge.
func (c *Chip) Input(name string, o gpio.LineOptions, edge func(gpio.Edge)) (gpio.Input, error) {
	return c.request(name, o, false, edge)
}

// Close marks the chip closed.
func (c *Chip) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return nil
}

// Line returns the line requested at offset, or nil.
func (c *Chip) Line(offset int) *Line {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lines[offset]
}

// Set records the change (or returns the error given to FailSet).
func (l *Line) Set(active bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New("gpiotest: line closed")
	}
	if l.failSet != nil {
		return l.failSet
	}
	var at time.Time
	if l.chip.Now != nil {
		at = l.chip.Now()
	}
	l.active = active
	l.changes = append(l.changes, Change{at, active})
	return nil
}

// Active returns the line's state.
func (l *Line) Active() (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.active, nil
}

// Close releases the line.
func (l *Line) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	return nil
}

func (l *Line) isClosed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// Closed reports whether the line was closed.
func (l *Line) Closed() bool { return l.isClosed() }

// Changes returns every Set so far.
func (l *Line) Changes() []Change {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Change(nil), l.changes...)
}

// IsActive returns the current state.
func (l *Line) IsActive() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.active
}

// FailSet makes later Sets fail with err (nil: succeed again).
func (l *Line) FailSet(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failSet = err
}

// Edge changes an input's state and calls its edge handler synchronously,
// as the chip's event goroutine would.
func (l *Line) Edge(active bool, at time.Time) {
	l.mu.Lock()
	l.active = active
	h := l.edge
	closed := l.closed
	l.mu.Unlock()
	if h != nil && !closed {
		h(gpio.Edge{Active: active, At: at})
	}
}
