package signals

import (
	"errors"
	"sync"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/rules"
)

// LEDOptions configure TurnLEDs.
type LEDOptions struct {
	// Name names the LEDs in reports.
	Name string
	// Clock stamps the reports; nil means the real clock.
	Clock clock.Clock
	// Report receives a report per state shown ("turn") and the final
	// "halt".
	Report display.Reporter
}

// TurnLEDs is the display.Sink of the turn LEDs, one per seat, indexed by
// board.Side (nil for a seat without an LED). Show never blocks; only
// LEDs that change are written.
type TurnLEDs struct {
	lines [4]gpio.Output
	o     LEDOptions
	clock clock.Clock
	mb    *display.Mailbox
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
	err   error
}

// NewTurnLEDs starts the LEDs' goroutine; the LEDs stay as they are (off:
// lines are requested inactive) until the first Show.
func NewTurnLEDs(lines [4]gpio.Output, o LEDOptions) *TurnLEDs {
	l := &TurnLEDs{lines: lines, o: o, clock: clock.Or(o.Clock), mb: display.NewMailbox(0), stop: make(chan struct{}), done: make(chan struct{})}
	go l.run()
	return l
}

// Show queues the state; it never blocks.
func (l *TurnLEDs) Show(st rules.State) {
	l.mb.PutScoreboard(display.FromState(st, display.Options{}), l.clock.Now())
}

// Alert does nothing.
func (l *TurnLEDs) Alert(display.Alert) {}

// Close stops the goroutine, switches every LED off and releases the lines.
func (l *TurnLEDs) Close() error {
	l.once.Do(func() {
		l.mb.Close()
		close(l.stop)
		<-l.done
		start := l.clock.Now()
		var errs []error
		for _, line := range l.lines {
			if line != nil {
				errs = append(errs, line.Set(false))
			}
		}
		err := errors.Join(errs...)
		l.o.Report.Send(display.Report{Sink: l.o.Name, Op: "halt", Queued: start, Done: l.clock.Now(), Err: err})
		for _, line := range l.lines {
			if line != nil {
				errs = append(errs, line.Close())
			}
		}
		l.err = errors.Join(errs...)
	})
	return l.err
}

func (l *TurnLEDs) run() {
	defer close(l.done)
	var (
		lit   [4]bool
		known [4]bool // false until the line was written successfully
	)
	for {
		select {
		case <-l.stop:
			return
		case <-l.mb.Wake():
		}
		m := l.mb.Take()
		if !m.HasScoreboard {
			continue
		}
		rep := display.Report{Sink: l.o.Name, Op: "turn", Queued: m.At, Unchanged: true}
		var errs []error
		for _, seat := range board.Sides {
			want := m.Scoreboard.Turn[seat]
			line := l.lines[seat]
			if line == nil || (known[seat] && lit[seat] == want) {
				continue
			}
			rep.Unchanged = false
			if err := line.Set(want); err != nil {
				errs = append(errs, err)
				known[seat] = false
				continue
			}
			lit[seat], known[seat] = want, true
		}
		rep.Err = errors.Join(errs...)
		rep.Done = l.clock.Now()
		l.o.Report.Send(rep)
	}
}
