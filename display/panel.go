package display

import (
	"github.com/boardcam/boardcam/display/segment"

	"errors"
	"io"
	"sync"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/rules"
)

// Panel is a row of 7-segment digits driven synchronously: the MAX7219 and
// HT16K33 drivers implement it and PanelSink drives it from its own
// goroutine.
type Panel interface {
	// Digits is the number of digits, left to right.
	Digits() int
	// WriteDigits shows d (len(d) == Digits()).
	WriteDigits(d []segment.Digit) error
	// Halt blanks the digits and puts the chip in standby.
	Halt() error
}

// PanelOptions configure a PanelSink.
type PanelOptions struct {
	// Name names the panel in reports, e.g. "max7219 /dev/spidev0.0".
	Name string
	// Layout says which digit shows what; empty means the default for the
	// panel's size (see Layout.Fit).
	Layout Layout
	// Model tunes the scoreboard (blink durations).
	Model Options
	// BlinkPeriod is one on+off cycle of a blinking field; 0 means
	// DefaultBlinkPeriod.
	BlinkPeriod time.Duration
	// Clock drives blinking; nil means the real clock.
	Clock clock.Clock
	// Report receives a report for every state shown, every blink phase
	// (Unchanged when it needed no write) and the final halt.
	Report Reporter
	// Closer, if set, is closed after the panel is halted (the bus the
	// panel was opened on).
	Closer io.Closer
}

// DefaultBlinkPeriod is 2 Hz: 250 ms lit, 250 ms dark.
const DefaultBlinkPeriod = 500 * time.Millisecond

// PanelSink is the Sink of a segment panel. It computes the scoreboard in
// the caller's goroutine (a pure function, microseconds) and writes it from
// its own goroutine; a newer state replaces one not yet written. Blinking
// fields (see Scoreboard.Blink) start lit and alternate every half
// BlinkPeriod until BlinkFor has passed, timed by the Clock. A frame equal
// to the one on the panel is not written again. Alerts are ignored: the
// panel shows fouls and wins by blinking, from the state.
type PanelSink struct {
	panel  Panel
	layout Layout
	o      PanelOptions
	clock  clock.Clock
	mb     *Mailbox
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
	err    error
}

// NewPanelSink starts the goroutine that drives p. It fails when the layout
// does not fit the panel.
func NewPanelSink(p Panel, o PanelOptions) (*PanelSink, error) {
	l, err := o.Layout.Fit(p.Digits())
	if err != nil {
		return nil, err
	}
	if o.BlinkPeriod <= 0 {
		o.BlinkPeriod = DefaultBlinkPeriod
	}
	s := &PanelSink{
		panel: p, layout: l, o: o, clock: clock.Or(o.Clock),
		mb: NewMailbox(0), stop: make(chan struct{}), done: make(chan struct{}),
	}
	go s.run()
	return s, nil
}

// Layout is the layout the sink renders.
func (s *PanelSink) Layout() Layout { return s.layout }

// Show queues the state for the panel; it never blocks.
func (s *PanelSink) Show(st rules.State) {
	s.mb.PutScoreboard(FromState(st, s.o.Model), s.clock.Now())
}

// Alert does nothing: the panel blinks from the state.
func (s *PanelSink) Alert(Alert) {}

// Close stops the goroutine, halts the panel and closes o.Closer.
func (s *PanelSink) Close() error {
	s.once.Do(func() {
		s.mb.Close()
		close(s.stop)
		<-s.done
		start := s.clock.Now()
		herr := s.panel.Halt()
		s.o.Report.Send(Report{Sink: s.o.Name, Op: "halt", Queued: start, Done: s.clock.Now(), Err: herr})
		var cerr error
		if s.o.Closer != nil {
			cerr = s.o.Closer.Close()
		}
		s.err = errors.Join(herr, cerr)
	})
	return s.err
}

// blinkPhase says whether the blinking fields are lit at now and when the
// phase changes next (zero: it never does).
func blinkPhase(sb Scoreboard, start, now time.Time, period time.Duration) (lit bool, next time.Time) {
	if sb.Blink == 0 {
		return true, time.Time{}
	}
	elapsed := now.Sub(start)
	if elapsed < 0 {
		elapsed = 0
	}
	if sb.BlinkFor > 0 && elapsed >= sb.BlinkFor {
		return true, time.Time{}
	}
	half := period / 2
	n := elapsed / half
	lit = n%2 == 0
	next = start.Add((n + 1) * half)
	if sb.BlinkFor > 0 {
		if end := start.Add(sb.BlinkFor); next.After(end) {
			next = end
		}
	}
	return lit, next
}

func (s *PanelSink) run() {
	defer close(s.done)
	var (
		sb         Scoreboard
		have       bool
		blinkStart time.Time
		last       []segment.Digit
		timer      clock.Timer
	)
	for {
		var tc <-chan time.Time
		if timer != nil {
			tc = timer.C()
		}
		var op string
		var queued time.Time
		select {
		case <-s.stop:
			if timer != nil {
				timer.Stop()
			}
			return
		case <-s.mb.Wake():
			m := s.mb.Take()
			if !m.HasScoreboard {
				continue
			}
			sb, have, queued, op = m.Scoreboard, true, m.At, "show"
			blinkStart = s.clock.Now()
		case <-tc:
			timer, op = nil, "blink"
		}
		if !have {
			continue
		}
		now := s.clock.Now()
		lit, next := blinkPhase(sb, blinkStart, now, s.o.BlinkPeriod)
		frame := Pad(sb.Digits(s.layout, lit), s.panel.Digits())
		rep := Report{Sink: s.o.Name, Op: op, Queued: queued}
		if equalDigits(frame, last) {
			rep.Unchanged, rep.Done = true, now
		} else {
			rep.Err = s.panel.WriteDigits(frame)
			rep.Done = s.clock.Now()
			if rep.Err != nil {
				last = nil // unknown: write everything next time
			} else {
				last = frame
			}
		}
		if timer != nil {
			timer.Stop()
			timer = nil
		}
		if !next.IsZero() {
			timer = s.clock.NewTimer(next.Sub(now))
		}
		// Reported last, so that whoever waits for the report sees the
		// sink's timer already armed (tests rely on it).
		s.o.Report.Send(rep)
	}
}

func equalDigits(a, b []segment.Digit) bool {
	if len(a) != len(b) || a == nil || b == nil {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Pad returns d extended with blank digits (or cut) to n digits, for
// panels with more digits than the layout uses.
func Pad(d []segment.Digit, n int) []segment.Digit {
	out := make([]segment.Digit, n)
	copy(out, d)
	return out
}
