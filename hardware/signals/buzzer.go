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
	var (
		queue    []display.QueuedAlert
		cur      *display.QueuedAlert
		step     int
		stepEnd  time.Time
		gapUntil time.Time
		timer    clock.Timer
	)
	// Reports are sent at the end of each round, once the timer is armed,
	// so that whoever waits for a report sees the buzzer's next deadline.
	var reports []display.Report
	report := func(op string, a display.QueuedAlert, err error) {
		reports = append(reports, display.Report{Sink: b.o.Name, Op: op + " " + a.Kind.String(), Queued: a.At, Done: b.clock.Now(), Err: err})
	}
	set := func(on bool, a display.QueuedAlert) {
		if err := b.line.Set(on); err != nil {
			report("set", a, err)
		}
	}
	for {
		var tc <-chan time.Time
		if timer != nil {
			tc = timer.C()
		}
		select {
		case <-b.stop:
			if timer != nil {
				timer.Stop()
			}
			return
		case <-tc:
			timer = nil
		case <-b.mb.Wake():
			m := b.mb.Take()
			now := b.clock.Now()
			for _, a := range m.Alerts {
				if _, ok := b.patterns[a.Kind]; !ok {
					report("unknown", a, fmt.Errorf("buzzer: no pattern for %s", a.Kind))
					continue
				}
				// Pre-emption: a more important alert drops the less
				// important ones waiting and cuts the one playing.
				kept := queue[:0]
				for _, q := range queue {
					if q.Kind < a.Kind {
						report("drop", q, nil)
						continue
					}
					kept = append(kept, q)
				}
				queue = kept
				if cur != nil && cur.Kind < a.Kind {
					set(false, *cur)
					report("drop", *cur, nil)
					cur = nil
					gapUntil = now.Add(b.o.Gap)
				}
				if len(queue) >= b.o.MaxQueue {
					report("drop", queue[0], nil)
					queue = queue[1:]
				}
				queue = append(queue, a)
			}
		}
		now := b.clock.Now()
		// Advance the pattern playing, or start the next one.
		for {
			if cur != nil {
				if now.Before(stepEnd) {
					break
				}
				step++
				p := b.patterns[cur.Kind]
				if step >= len(p) {
					err := b.line.Set(false)
					report("end", *cur, err)
					cur = nil
					gapUntil = now.Add(b.o.Gap)
					continue
				}
				set(step%2 == 0, *cur)
				stepEnd = now.Add(p[step])
				break
			}
			if len(queue) == 0 || now.Before(gapUntil) {
				break
			}
			a := queue[0]
			queue = queue[1:]
			cur, step = &a, 0
			err := b.line.Set(true)
			stepEnd = now.Add(b.patterns[a.Kind][0])
			report("alert", a, err)
			break
		}
		if timer != nil {
			timer.Stop()
			timer = nil
		}
		switch {
		case cur != nil:
			timer = b.clock.NewTimer(stepEnd.Sub(now))
		case len(queue) > 0:
			timer = b.clock.NewTimer(gapUntil.Sub(now))
		}
		for _, r := range reports {
			b.o.Report.Send(r)
		}
		reports = reports[:0]
	}
}
