package signals

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/rules"
)

// Pattern is a buzzer pattern: durations alternately on and off, starting
// on.
type Pattern []time.Duration

// MaxPatternLength bounds a pattern's total duration.
const MaxPatternLength = 10 * time.Second

// Validate checks that the pattern has an odd number of positive steps (it
// starts and ends on) lasting at most MaxPatternLength in all.
func (p Pattern) Validate() error {
	if len(p) == 0 {
		return errors.New("empty pattern")
	}
	if len(p)%2 == 0 {
		return fmt.Errorf("pattern of %d steps ends with a pause: give an odd number of steps (on, off, …, on)", len(p))
	}
	var total time.Duration
	for i, d := range p {
		if d <= 0 {
			return fmt.Errorf("pattern step %d is %v, want a positive duration", i+1, d)
		}
		total += d
	}
	if total > MaxPatternLength {
		return fmt.Errorf("pattern lasts %v, more than %v", total, MaxPatternLength)
	}
	return nil
}

// PatternMS makes a pattern from milliseconds.
func PatternMS(ms ...int) Pattern {
	p := make(Pattern, len(ms))
	for i, m := range ms {
		p[i] = time.Duration(m) * time.Millisecond
	}
	return p
}

// DefaultPatterns are the buzzer's patterns per alert.
var DefaultPatterns = map[display.AlertKind]Pattern{
	display.AlertFoul:          PatternMS(150, 100, 150, 100, 150),
	display.AlertQueenPocketed: PatternMS(400, 150, 400),
	display.AlertBoardWon:      PatternMS(1000),
	display.AlertMatchWon:      PatternMS(250, 100, 250, 100, 250, 100, 1500),
}

// Defaults of BuzzerOptions.
const (
	DefaultGap      = 300 * time.Millisecond
	DefaultMaxQueue = 4
)

// BuzzerOptions configure a Buzzer.
type BuzzerOptions struct {
	// Name names the buzzer in reports.
	Name string
	// Patterns override DefaultPatterns per alert.
	Patterns map[display.AlertKind]Pattern
	// Gap is the pause between two alerts (DefaultGap when 0).
	Gap time.Duration
	// MaxQueue bounds the alerts waiting (DefaultMaxQueue when 0).
	MaxQueue int
	// Clock times the patterns; nil means the real clock.
	Clock clock.Clock
	// Report receives a report per alert started ("alert foul"), ended
	// ("end foul") or dropped ("drop foul"), and for the final "halt".
	Report display.Reporter
}

// Buzzer is the display.Sink of a buzzer on a GPIO line: Alert queues a
// pattern and returns at once; Show does nothing.
type Buzzer struct {
	line     gpio.Output
	o        BuzzerOptions
	patterns map[display.AlertKind]Pattern
	clock    clock.Clock
	mb       *display.Mailbox
	stop     chan struct{}
	done     chan struct{}
	once     sync.Once
	err      error
}

// NewBuzzer starts the buzzer's goroutine. It fails on an invalid pattern.
func NewBuzzer(line gpio.Output, o BuzzerOptions) (*Buzzer, error) {
	b := &Buzzer{line: line, o: o, patterns: map[display.AlertKind]Pattern{}, stop: make(chan struct{}), done: make(chan struct{})}
	for k, p := range DefaultPatterns {
		b.patterns[k] = p
	}
	for k, p := range o.Patterns {
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("buzzer: %s: %w", k, err)
		}
		b.patterns[k] = p
	}
	if b.o.Gap <= 0 {
		b.o.Gap = DefaultGap
	}
	if b.o.MaxQueue <= 0 {
		b.o.MaxQueue = DefaultMaxQueue
	}
	b.clock = clock.Or(o.Clock)
	// The mailbox itself holds more than MaxQueue so that pre-emption can
	// see every alert that arrived; the queue bound is applied in run.
	b.mb = display.NewMailbox(4 * b.o.MaxQueue)
	go b.run()
	return b, nil
}

// Show does nothing: the buzzer only sounds alerts.
func (b *Buzzer) Show(rules.State) {}

// Alert queues the alert's pattern; it never blocks.
func (b *Buzzer) Alert(a display.Alert) { b.mb.PutAlert(a, b.clock.Now()) }

// Close stops the goroutine (cutting a pattern short), switches the buzzer
// off and releases the line.
func (b *Buzzer) Close() error {
	b.once.Do(func() {
		b.mb.Close()
		close(b.stop)
		<-b.done
		start := b.clock.Now()
		err := b.line.Set(false)
		b.o.Report.Send(display.Report{Sink: b.o.Name, Op: "halt", Queued: start, Done: b.clock.Now(), Err: err})
		b.err = errors.Join(err, b.line.Close())
	})
	return b.err
}

func (b *Buzzer) run() {
	defer close(b.done)
	st := &buzzerState{b: b}
	for {
		var tc <-chan time.Time
		if st.timer != nil {
			tc = st.timer.C()
		}
		select {
		case <-b.stop:
			if st.timer != nil {
				st.timer.Stop()
			}
			return
		case <-tc:
			st.timer = nil
		case <-b.mb.Wake():
			st.enqueue(b.mb.Take().Alerts, b.clock.Now())
		}
		now := b.clock.Now()
		st.advance(now)
		st.arm(now)
		// Reports are sent at the end of each round, once the timer is
		// armed, so that whoever waits for a report sees the buzzer's next
		// deadline.
		for _, r := range st.reports {
			b.o.Report.Send(r)
		}
		st.reports = st.reports[:0]
	}
}

// buzzerState is the buzzer goroutine's state: the alerts waiting, the one
// playing (cur) and where its pattern is, the quiet gap after it.
type buzzerState struct {
	b        *Buzzer
	queue    []display.QueuedAlert
	cur      *display.QueuedAlert
	step     int
	stepEnd  time.Time
	gapUntil time.Time
	timer    clock.Timer
	reports  []display.Report
}

func (st *buzzerState) report(op string, a display.QueuedAlert, err error) {
	st.reports = append(st.reports, display.Report{Sink: st.b.o.Name, Op: op + " " + a.Kind.String(), Queued: a.At, Done: st.b.clock.Now(), Err: err})
}

func (st *buzzerState) set(on bool, a display.QueuedAlert) {
	if err := st.b.line.Set(on); err != nil {
		st.report("set", a, err)
	}
}

// enqueue queues new alerts. Pre-emption: a more important alert drops the
// less important ones waiting and cuts the one playing.
func (st *buzzerState) enqueue(alerts []display.QueuedAlert, now time.Time) {
	for _, a := range alerts {
		if _, ok := st.b.patterns[a.Kind]; !ok {
			st.report("unknown", a, fmt.Errorf("buzzer: no pattern for %s", a.Kind))
			continue
		}
		kept := st.queue[:0]
		for _, q := range st.queue {
			if q.Kind < a.Kind {
				st.report("drop", q, nil)
				continue
			}
			kept = append(kept, q)
		}
		st.queue = kept
		if st.cur != nil && st.cur.Kind < a.Kind {
			st.set(false, *st.cur)
			st.report("drop", *st.cur, nil)
			st.cur = nil
			st.gapUntil = now.Add(st.b.o.Gap)
		}
		if len(st.queue) >= st.b.o.MaxQueue {
			st.report("drop", st.queue[0], nil)
			st.queue = st.queue[1:]
		}
		st.queue = append(st.queue, a)
	}
}

// advance moves the pattern playing on, or starts the next one.
func (st *buzzerState) advance(now time.Time) {
	for {
		if st.cur != nil {
			if now.Before(st.stepEnd) {
				return
			}
			st.step++
			p := st.b.patterns[st.cur.Kind]
			if st.step >= len(p) {
				err := st.b.line.Set(false)
				st.report("end", *st.cur, err)
				st.cur = nil
				st.gapUntil = now.Add(st.b.o.Gap)
				continue
			}
			st.set(st.step%2 == 0, *st.cur)
			st.stepEnd = now.Add(p[st.step])
			return
		}
		if len(st.queue) == 0 || now.Before(st.gapUntil) {
			return
		}
		a := st.queue[0]
		st.queue = st.queue[1:]
		st.cur, st.step = &a, 0
		err := st.b.line.Set(true)
		st.stepEnd = now.Add(st.b.patterns[a.Kind][0])
		st.report("alert", a, err)
		return
	}
}

// arm sets the timer for the next step, or for the end of the gap.
func (st *buzzerState) arm(now time.Time) {
	if st.timer != nil {
		st.timer.Stop()
		st.timer = nil
	}
	switch {
	case st.cur != nil:
		st.timer = st.b.clock.NewTimer(st.stepEnd.Sub(now))
	case len(st.queue) > 0:
		st.timer = st.b.clock.NewTimer(st.gapUntil.Sub(now))
	}
}
