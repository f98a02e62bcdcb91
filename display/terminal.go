package display

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/rules"
)

// TerminalOptions configure a Terminal.
type TerminalOptions struct {
	// Layout of the 7-segment art; empty means DefaultLayout.
	Layout Layout
	// Style is what to draw (both by default).
	Style TextStyle
	// ANSI clears the screen before each scoreboard, for an interactive
	// terminal; without it each scoreboard is appended (logs, pipes).
	ANSI bool
	// Model tunes the scoreboard.
	Model Options
	// Clock stamps the reports; nil means the real clock.
	Clock clock.Clock
	// Report receives a report per write.
	Report Reporter
	// MaxAlerts bounds the alerts waiting to be written (default 16).
	MaxAlerts int
}

// Terminal is the Sink of `boardcam run --display=term`: it writes the
// scoreboard as text (7-segment art and plain lines) and a line per alert to
// an io.Writer, from its own goroutine so that a slow terminal never blocks
// the caller. The 7-segment art shows the lit phase; blinking is not
// animated.
type Terminal struct {
	w     io.Writer
	o     TerminalOptions
	clock clock.Clock
	mb    *Mailbox
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
}

// NewTerminal starts a terminal sink writing to w.
func NewTerminal(w io.Writer, o TerminalOptions) *Terminal {
	if len(o.Layout) == 0 {
		o.Layout = DefaultLayout
	}
	if o.MaxAlerts <= 0 {
		o.MaxAlerts = 16
	}
	t := &Terminal{w: w, o: o, clock: clock.Or(o.Clock), mb: NewMailbox(o.MaxAlerts), stop: make(chan struct{}), done: make(chan struct{})}
	go t.run()
	return t
}

// Show queues the state; it never blocks.
func (t *Terminal) Show(st rules.State) {
	t.mb.PutScoreboard(FromState(st, t.o.Model), t.clock.Now())
}

// Alert queues an alert line; it never blocks.
func (t *Terminal) Alert(a Alert) { t.mb.PutAlert(a, t.clock.Now()) }

// Close writes what is pending, then stops.
func (t *Terminal) Close() error {
	t.once.Do(func() {
		t.mb.Close()
		close(t.stop)
		<-t.done
	})
	return nil
}

func (t *Terminal) run() {
	defer close(t.done)
	for {
		select {
		case <-t.stop:
			t.flush() // what was put before Close is still written
			return
		case <-t.mb.Wake():
			t.flush()
		}
	}
}

func (t *Terminal) flush() {
	m := t.mb.Take()
	if m.Dropped > 0 {
		t.write("alerts", m.At, fmt.Sprintf("(%d alerts dropped)\n", m.Dropped))
	}
	for _, a := range m.Alerts {
		t.write("alert "+a.Kind.String(), a.At, "** "+alertText(a.Alert)+" **\n")
	}
	if m.HasScoreboard {
		var b strings.Builder
		if t.o.ANSI {
			b.WriteString("\x1b[H\x1b[2J")
		}
		b.WriteString(RenderText(m.Scoreboard, t.o.Layout, true, t.o.Style))
		if !t.o.ANSI {
			b.WriteString("\n")
		}
		t.write("show", m.At, b.String())
	}
}

func (t *Terminal) write(op string, queued time.Time, s string) {
	_, err := io.WriteString(t.w, s)
	t.o.Report.Send(Report{Sink: "terminal", Op: op, Queued: queued, Done: t.clock.Now(), Err: err})
}

// alertText is the human sentence for an alert.
func alertText(a Alert) string {
	by := ""
	if a.Team >= 0 {
		by = " by " + TeamLetter(a.Team)
	}
	switch a.Kind {
	case AlertFoul:
		s := "FOUL" + by
		if len(a.Fouls) > 0 {
			s += ": " + strings.Join(a.Fouls, ", ")
		}
		return s
	case AlertQueenPocketed:
		return "QUEEN pocketed" + by
	case AlertBoardWon:
		return fmt.Sprintf("BOARD %d won%s (+%d)", a.Board, by, a.Points)
	case AlertMatchWon:
		return "MATCH won" + by
	}
	return a.String()
}
