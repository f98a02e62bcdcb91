package buttons

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/hardware/gpio"
)

// Command is what a button asks the daemon to do.
type Command uint8

// The commands.
const (
	Confirm   Command = iota + 1 // confirm the pending automatic decision
	Overrule                     // overrule it
	Undo                         // undo the last event
	NextBoard                    // start the next board
)

// Commands lists every command.
var Commands = []Command{Confirm, Overrule, Undo, NextBoard}

func (c Command) String() string {
	switch c {
	case Confirm:
		return "confirm"
	case Overrule:
		return "overrule"
	case Undo:
		return "undo"
	case NextBoard:
		return "next_board"
	}
	return fmt.Sprintf("Command(%d)", int(c))
}

// ParseCommand reads "confirm", "overrule", "undo" or "next_board".
func ParseCommand(s string) (Command, error) {
	for _, c := range Commands {
		if strings.EqualFold(s, c.String()) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown button %q (want confirm, overrule, undo or next_board)", s)
}

// Press is a debounced press of a button.
type Press struct {
	Command Command
	// Line is the button's line as configured.
	Line string
	// At is when the press began (its first edge); Fired is when the
	// command was sent (after debouncing, or after the hold time).
	At    time.Time
	Fired time.Time
}

// Spec is one button.
type Spec struct {
	Command Command
	// Line is the GPIO line ("GPIO5", "PIN29" …).
	Line string
	// Hold is how long the button must be held; 0 fires on press.
	Hold time.Duration
}

// Options configure the buttons.
type Options struct {
	// Line options of every button (active low with pull-up for buttons
	// to ground).
	Line gpio.LineOptions
	// Debounce is how long a line must be quiet (DefaultDebounce when 0).
	Debounce time.Duration
	// Clock times debouncing; nil means the real clock.
	Clock clock.Clock
	// Buffer is the capacity of the presses channel (16 when 0); when it is
	// full, presses are dropped (and counted), never blocking.
	Buffer int
}

// DefaultDebounce is the default quiet time of a line.
const DefaultDebounce = 30 * time.Millisecond

type button struct {
	spec  Spec
	input gpio.Input
	deb   *Debouncer
}

// Buttons watches the umpire's buttons and sends their presses on C.
//
// Edges are fed to the debouncers in the chip's event handler, under a
// mutex (no I/O, microseconds), which also arms the timer of the next
// deadline; the goroutine only wakes on that timer to fire presses.
type Buttons struct {
	buttons []*button
	o       Options
	clock   clock.Clock
	out     chan Press
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	err     error

	mu     sync.Mutex
	timer  clock.Timer
	lost   int // presses dropped because C was full
	closed bool
}

// Open requests each button's line as an input with edge events and
// starts watching them. A button whose line cannot be requested is left
// out and its error returned among errs (one per button), while the others
// work.
func Open(chip gpio.Chip, specs []Spec, o Options) (b *Buttons, errs []error) {
	if o.Debounce <= 0 {
		o.Debounce = DefaultDebounce
	}
	if o.Buffer <= 0 {
		o.Buffer = 16
	}
	b = &Buttons{
		o: o, clock: clock.Or(o.Clock), out: make(chan Press, o.Buffer),
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
	}
	for _, s := range specs {
		bt := &button{spec: s}
		// Edges that come before the button is set up are ignored
		// (bt.deb is nil until then); its state is read below.
		in, err := chip.Input(s.Line, o.Line, func(e gpio.Edge) { b.edge(bt, e) })
		if err != nil {
			errs = append(errs, fmt.Errorf("button %s on %s: %w", s.Command, s.Line, err))
			continue
		}
		active, err := in.Active()
		if err != nil {
			errs = append(errs, fmt.Errorf("button %s on %s: read: %w", s.Command, s.Line, err))
			in.Close()
			continue
		}
		b.mu.Lock()
		bt.input, bt.deb = in, NewDebouncer(o.Debounce, s.Hold, active)
		b.buttons = append(b.buttons, bt)
		b.mu.Unlock()
	}
	go b.run()
	return b, errs
}

// C delivers the presses. It is closed by Close.
func (b *Buttons) C() <-chan Press { return b.out }

// Len is the number of buttons watched.
func (b *Buttons) Len() int { return len(b.buttons) }

// Lost counts presses dropped because nobody read C.
func (b *Buttons) Lost() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lost
}

func (b *Buttons) edge(bt *button, e gpio.Edge) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed || bt.deb == nil {
		return
	}
	// Decisions due by now are made on the edges before this one.
	now := b.clock.Now()
	b.advanceLocked(now)
	bt.deb.Edge(e.Active, e.At)
	b.rearmLocked(now)
}

// advanceLocked brings every debouncer up to now and sends the presses
// that completed, never blocking.
func (b *Buttons) advanceLocked(now time.Time) {
	for _, bt := range b.buttons {
		if fired, at := bt.deb.Advance(now); fired {
			select {
			case b.out <- Press{Command: bt.spec.Command, Line: bt.spec.Line, At: at, Fired: now}:
			default:
				b.lost++
			}
		}
	}
}

// rearmLocked arms the timer for the earliest deadline of any button.
func (b *Buttons) rearmLocked(now time.Time) {
	var next time.Time
	for _, bt := range b.buttons {
		if d, ok := bt.deb.Deadline(); ok && (next.IsZero() || d.Before(next)) {
			next = d
		}
	}
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if !next.IsZero() {
		b.timer = b.clock.NewTimer(next.Sub(now))
	}
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// Close stops watching and releases the lines; C is closed.
func (b *Buttons) Close() error {
	b.once.Do(func() {
		b.mu.Lock()
		b.closed = true
		if b.timer != nil {
			b.timer.Stop()
		}
		b.mu.Unlock()
		close(b.stop)
		<-b.done
		var errs []error
		for _, bt := range b.buttons {
			errs = append(errs, bt.input.Close())
		}
		b.err = errors.Join(errs...)
		close(b.out)
	})
	return b.err
}

func (b *Buttons) run() {
	defer close(b.done)
	for {
		b.mu.Lock()
		var tc <-chan time.Time
		if b.timer != nil {
			tc = b.timer.C()
		}
		b.mu.Unlock()
		select {
		case <-b.stop:
			return
		case <-b.wake:
			continue // the timer changed
		case <-tc:
		}
		b.mu.Lock()
		now := b.clock.Now()
		b.advanceLocked(now)
		b.rearmLocked(now)
		b.mu.Unlock()
	}
}
