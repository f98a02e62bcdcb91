package display_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/rules"
)

type closer struct{ closed int }

func (c *closer) Close() error { c.closed++; return nil }

// newPanelSink returns a sink on a fake 8-digit panel, the fake clock and a
// channel of its reports.
func newPanelSink(t *testing.T, p *displaytest.Panel, c *closer) (*display.PanelSink, *clocktest.Clock, chan display.Report) {
	t.Helper()
	clk := clocktest.New()
	p.Clock = clk
	reports := make(chan display.Report, 1000)
	o := display.PanelOptions{Name: "fake", Clock: clk, Report: func(r display.Report) { reports <- r }}
	if c != nil {
		o.Closer = c
	}
	s, err := display.NewPanelSink(p, o)
	if err != nil {
		t.Fatal(err)
	}
	return s, clk, reports
}

func TestPanelSinkBlinksOnFoulWithClock(t *testing.T) {
	p := &displaytest.Panel{N: 8}
	c := &closer{}
	s, clk, reports := newPanelSink(t, p, c)

	s.Show(displaytest.Singles())
	if r := displaytest.Recv(t, reports); r.Op != "show" || r.Unchanged || r.Err != nil || !r.Queued.Equal(clocktest.Epoch) {
		t.Fatalf("first report %+v", r)
	}
	if n := clk.Pending(); n != 0 {
		t.Fatalf("%d timers armed without anything blinking", n)
	}

	foul := displaytest.Singles()
	foul.Fouls = []string{"thumbing"}
	foul.Turn = board.N
	s.Show(foul)
	// Same digits, blinking starts lit: no write, but a report.
	if r := displaytest.Recv(t, reports); r.Op != "show" || !r.Unchanged {
		t.Fatalf("foul report %+v", r)
	}
	// 3 s of blinking at 2 Hz: dark at 250 ms, lit at 500 ms, … dark at
	// 2750 ms, lit for good at 3000 ms.
	for i := 1; i <= 12; i++ {
		at := clk.Step()
		if want := clocktest.Epoch.Add(time.Duration(i) * 250 * time.Millisecond); !at.Equal(want) {
			t.Fatalf("step %d at %v, want %v", i, at, want)
		}
		if r := displaytest.Recv(t, reports); r.Op != "blink" || r.Err != nil {
			t.Fatalf("step %d report %+v", i, r)
		}
	}
	if n := clk.Pending(); n != 0 {
		t.Fatalf("%d timers still armed after the blink ended", n)
	}

	frames := p.Frames()
	if len(frames) != 13 {
		t.Fatalf("%d frames, want 13", len(frames))
	}
	lit := "12- 3- 7"
	for i, f := range frames {
		want := lit
		if i%2 == 1 {
			want = "        "
		}
		if got := readDigits(f.Digits); got != want {
			t.Errorf("frame %d at %v: %q, want %q", i, f.At.Sub(clocktest.Epoch), got, want)
		}
		if wantAt := clocktest.Epoch.Add(time.Duration(i) * 250 * time.Millisecond); !f.At.Equal(wantAt) {
			t.Errorf("frame %d at %v, want %v", i, f.At, wantAt)
		}
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !p.Halted() || c.closed != 1 {
		t.Errorf("halted %v, closer closed %d times", p.Halted(), c.closed)
	}
	if r := displaytest.Recv(t, reports); r.Op != "halt" {
		t.Errorf("last report %+v", r)
	}
	s.Show(displaytest.Doubles()) // after Close: ignored, no panic
	if err := s.Close(); err != nil || c.closed != 1 {
		t.Errorf("second Close: %v, closed %d times", err, c.closed)
	}
	if len(p.Frames()) != 13 {
		t.Error("a frame was written after Close")
	}
}

// A new state during a blink restarts it from the new state's time.
func TestPanelSinkNewStateRestartsBlink(t *testing.T) {
	p := &displaytest.Panel{N: 8}
	s, clk, reports := newPanelSink(t, p, nil)
	defer s.Close()
	foul := displaytest.Singles()
	foul.Fouls = []string{"push"}
	s.Show(foul)
	displaytest.Recv(t, reports)
	clk.Step() // dark at 250 ms
	displaytest.Recv(t, reports)
	clk.Advance(100 * time.Millisecond)
	next := displaytest.Singles()
	next.Teams[0].Score = 13
	s.Show(next) // no foul: steady
	if r := displaytest.Recv(t, reports); r.Op != "show" || r.Unchanged {
		t.Fatalf("report %+v", r)
	}
	if n := clk.Pending(); n != 0 {
		t.Fatalf("%d timers armed for a steady state", n)
	}
	f := p.Frames()
	if got := readDigits(f[len(f)-1].Digits); got != "13- 3- 7" {
		t.Errorf("last frame %q", got)
	}
}

// Show never blocks, even while the bus hangs, and the newest state wins.
func TestPanelSinkLatestStateWinsAndNeverBlocks(t *testing.T) {
	gate := make(chan struct{})
	entered := make(chan struct{})
	p := &displaytest.Panel{N: 8, Gate: gate, Entered: entered}
	s, _, reports := newPanelSink(t, p, nil)
	st := displaytest.Singles()
	s.Show(st)
	displaytest.Recv(t, entered) // the goroutine took it and hangs in the write
	for i := 0; i < 1000; i++ {
		st.Teams[1].Score = i % 30
		s.Show(st) // must return at once although the panel hangs
	}
	st.Teams[1].Score = 21
	s.Show(st)
	gate <- struct{}{} // first write completes
	displaytest.Recv(t, reports)
	displaytest.Recv(t, entered)
	gate <- struct{}{} // the only other write: the newest state
	displaytest.Recv(t, reports)
	close(gate)
	close(entered) // a third write would panic
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	frames := p.Frames()
	if len(frames) != 2 {
		t.Fatalf("%d frames written, want 2 (first and latest)", len(frames))
	}
	if got := readDigits(frames[1].Digits); got != "12- 3-21" {
		t.Errorf("second frame %q, want the latest state", got)
	}
}

func TestPanelSinkReportsErrorsAndRetries(t *testing.T) {
	p := &displaytest.Panel{N: 8}
	s, _, reports := newPanelSink(t, p, nil)
	defer s.Close()
	busErr := errors.New("bus gone")
	p.FailWith(busErr)
	s.Show(displaytest.Singles())
	if r := displaytest.Recv(t, reports); !errors.Is(r.Err, busErr) {
		t.Fatalf("report %+v, want the bus error", r)
	}
	p.FailWith(nil)
	s.Show(displaytest.Singles()) // same state: must be written again
	if r := displaytest.Recv(t, reports); r.Err != nil || r.Unchanged {
		t.Fatalf("retry report %+v", r)
	}
	if len(p.Frames()) != 1 {
		t.Errorf("%d frames, want 1", len(p.Frames()))
	}
}

func TestPanelSinkLayout(t *testing.T) {
	p := &displaytest.Panel{N: 16}
	s, _, reports := newPanelSink(t, p, nil)
	if s.Layout().Digits() != 16 {
		t.Errorf("default layout for 16 digits: %q", s.Layout())
	}
	s.Show(rules.State{})
	displaytest.Recv(t, reports)
	s.Close()
	if got := readDigits(p.Frames()[0].Digits); got != strings.Repeat("-", 16) {
		t.Errorf("no match on 16 digits: %q", got)
	}
	if _, err := display.NewPanelSink(&displaytest.Panel{N: 4}, display.PanelOptions{Layout: display.DefaultLayout}); err == nil {
		t.Error("an 8-digit layout was accepted for a 4-digit panel")
	}
	// A short layout leaves the rest dark.
	p = &displaytest.Panel{N: 8}
	reports2 := make(chan display.Report, 10)
	s2, err := display.NewPanelSink(p, display.PanelOptions{Layout: display.ShortLayout, Report: func(r display.Report) { reports2 <- r }})
	if err != nil {
		t.Fatal(err)
	}
	s2.Show(displaytest.Singles())
	displaytest.Recv(t, reports2)
	s2.Close()
	if got := readDigits(p.Frames()[0].Digits); got != "12 7    " {
		t.Errorf("short layout: %q", got)
	}
}
