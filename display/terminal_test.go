package display_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestTerminal(t *testing.T) {
	var out syncBuffer
	reports := make(chan display.Report, 10)
	term := display.NewTerminal(&out, display.TerminalOptions{Style: display.StylePlain, Clock: clocktest.New(), Report: func(r display.Report) { reports <- r }})
	prev := displaytest.Singles()
	next := displaytest.Singles()
	next.Fouls = []string{"thumbing"}
	for _, a := range display.Alerts(prev, next) {
		term.Alert(a)
	}
	if r := displaytest.Recv(t, reports); r.Op != "alert foul" || r.Err != nil {
		t.Fatalf("report %+v", r)
	}
	term.Show(next)
	if r := displaytest.Recv(t, reports); r.Op != "show" || !r.Queued.Equal(clocktest.Epoch) {
		t.Fatalf("report %+v", r)
	}
	if err := term.Close(); err != nil {
		t.Fatal(err)
	}
	want := "** FOUL by A: thumbing **\n" + display.PlainText(display.FromState(next, display.Options{})) + "\n"
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	term.Show(next) // after Close: nothing
	if out.String() != want {
		t.Error("wrote after Close")
	}
}

func TestTerminalANSIAndFlushOnClose(t *testing.T) {
	var out syncBuffer
	term := display.NewTerminal(&out, display.TerminalOptions{ANSI: true, Style: display.StyleSegments})
	term.Show(displaytest.Singles())
	term.Alert(display.Alert{Kind: display.AlertMatchWon, Team: 1, Board: 5})
	term.Close() // everything put before Close is written
	got := out.String()
	if !strings.Contains(got, "** MATCH won by B **") || !strings.Contains(got, "\x1b[H\x1b[2J") {
		t.Errorf("output %q", got)
	}
	if !strings.HasSuffix(got, display.SegmentArt(display.FromState(displaytest.Singles(), display.Options{}).Digits(display.DefaultLayout, true), display.DefaultLayout)) {
		t.Errorf("output does not end with the scoreboard: %q", got)
	}
}

func TestFanout(t *testing.T) {
	var a, b syncBuffer
	ta := display.NewTerminal(&a, display.TerminalOptions{Style: display.StylePlain})
	tb := display.NewTerminal(&b, display.TerminalOptions{Style: display.StylePlain})
	f := display.Fanout(ta, nil, tb)
	f.Show(displaytest.Doubles())
	f.Alert(display.Alert{Kind: display.AlertQueenPocketed, Team: 0, Board: 4})
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{a.String(), b.String()} {
		if !strings.Contains(out, "QUEEN pocketed by A") || !strings.Contains(out, "Mumbai") {
			t.Errorf("fan-out output %q", out)
		}
	}
}

func TestMailboxDropsOldestAlerts(t *testing.T) {
	m := display.NewMailbox(2)
	for k := range display.AlertKinds {
		m.PutAlert(display.Alert{Kind: display.AlertKinds[k]}, clocktest.Epoch)
	}
	mail := m.Take()
	if mail.Dropped != 2 || len(mail.Alerts) != 2 || mail.Alerts[0].Kind != display.AlertBoardWon {
		t.Errorf("mail %+v", mail)
	}
	if m.Close() || !m.Close() {
		t.Error("Close did not report the second close")
	}
	m.PutScoreboard(display.Scoreboard{}, clocktest.Epoch)
	if m.Take().HasScoreboard {
		t.Error("put after close")
	}
}
