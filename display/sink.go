package display

import (
	"errors"
	"sync"
	"time"

	"github.com/boardcam/boardcam/rules"
)

// Sink is an output the daemon calls with every new match state and with
// every alert: the terminal, the LED scoreboards, the buzzer, the turn LEDs,
// or a fan-out to several of them.
//
// Show and Alert never block on a device: each sink hands the work to its
// own goroutine (for Show, the newest state replaces one not yet shown:
// latest state wins) and reports what happened through its Report callback.
// The daemon can therefore time each call and rely on the pipeline never
// stalling on a slow bus. After Close, Show and Alert do nothing.
type Sink interface {
	Show(st rules.State)
	Alert(a Alert)
	// Close stops the sink's goroutine, turns its device off (blank digits,
	// LEDs and buzzer off) and releases it.
	Close() error
}

// Report is what an asynchronous sink says about a piece of work once it is
// done: the daemon logs the errors and can measure the latency from the
// call (Queued) to the device write (Done).
type Report struct {
	// Sink names the device, e.g. "max7219 /dev/spidev0.0".
	Sink string
	// Op is what was done: "show", "blink", "alert foul", "turn", "halt"…
	Op string
	// Queued is when Show or Alert was called (zero for work the sink does
	// on its own, such as a blink).
	Queued time.Time
	// Done is when the device write returned.
	Done time.Time
	// Unchanged is true when the work needed no write (the device already
	// showed it).
	Unchanged bool
	// Err is the device's error, if any.
	Err error
}

// Reporter receives reports. It is called from the sinks' goroutines, so
// it must be safe for concurrent use and return quickly.
type Reporter func(Report)

// Send calls r when it is set.
func (r Reporter) Send(rep Report) {
	if r != nil {
		r(rep)
	}
}

// Fanout returns a sink that passes every call to each of the sinks, in
// order. Its Close closes them all and joins their errors. Nil sinks are
// skipped.
func Fanout(sinks ...Sink) Sink {
	f := fanout{}
	for _, s := range sinks {
		if s != nil {
			f = append(f, s)
		}
	}
	return f
}

type fanout []Sink

func (f fanout) Show(st rules.State) {
	for _, s := range f {
		s.Show(st)
	}
}

func (f fanout) Alert(a Alert) {
	for _, s := range f {
		s.Alert(a)
	}
}

func (f fanout) Close() error {
	var errs []error
	for _, s := range f {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// Mailbox hands scoreboards and alerts from a sink's caller to the sink's
// goroutine without ever blocking the caller: a new scoreboard replaces one
// not yet taken (latest state wins); alerts queue up to a bound, beyond
// which the oldest is dropped (and counted). Sinks in other packages (the
// buzzer, the turn LEDs) use it too.
type Mailbox struct {
	mu        sync.Mutex
	sb        Scoreboard
	sbAt      time.Time
	hasSB     bool
	alerts    []QueuedAlert
	maxAlerts int
	dropped   int
	closed    bool
	wake      chan struct{}
}

// QueuedAlert is an alert and when it was handed over.
type QueuedAlert struct {
	Alert
	At time.Time
}

// Mail is what Take returns.
type Mail struct {
	// Scoreboard is the newest scoreboard put since the last Take, when
	// HasScoreboard; At is when it was put.
	Scoreboard    Scoreboard
	At            time.Time
	HasScoreboard bool
	// Alerts are the alerts put since the last Take, oldest first.
	Alerts []QueuedAlert
	// Dropped counts alerts dropped because the queue was full.
	Dropped int
}

// NewMailbox returns a mailbox that queues up to maxAlerts alerts (0: alerts
// are ignored).
func NewMailbox(maxAlerts int) *Mailbox {
	return &Mailbox{maxAlerts: maxAlerts, wake: make(chan struct{}, 1)}
}

// Wake delivers a signal whenever something was put since the last signal
// was received.
func (m *Mailbox) Wake() <-chan struct{} { return m.wake }

func (m *Mailbox) signal() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// PutScoreboard replaces the pending scoreboard.
func (m *Mailbox) PutScoreboard(sb Scoreboard, at time.Time) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.sb, m.sbAt, m.hasSB = sb, at, true
	m.mu.Unlock()
	m.signal()
}

// PutAlert queues an alert (a copy: the caller may reuse a.Fouls).
func (m *Mailbox) PutAlert(a Alert, at time.Time) {
	m.mu.Lock()
	if m.closed || m.maxAlerts <= 0 {
		m.mu.Unlock()
		return
	}
	if len(m.alerts) >= m.maxAlerts {
		m.alerts = m.alerts[1:]
		m.dropped++
	}
	a.Fouls = append([]string(nil), a.Fouls...)
	m.alerts = append(m.alerts, QueuedAlert{a, at})
	m.mu.Unlock()
	m.signal()
}

// Take empties the mailbox.
func (m *Mailbox) Take() Mail {
	m.mu.Lock()
	defer m.mu.Unlock()
	mail := Mail{Scoreboard: m.sb, At: m.sbAt, HasScoreboard: m.hasSB, Alerts: m.alerts, Dropped: m.dropped}
	m.hasSB, m.sb, m.alerts, m.dropped = false, Scoreboard{}, nil, 0
	return mail
}

// Close makes later puts no-ops; it reports whether it was already closed.
func (m *Mailbox) Close() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	was := m.closed
	m.closed = true
	return was
}
