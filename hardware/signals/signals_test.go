package signals_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/hardware/gpio/gpiotest"
	"github.com/boardcam/boardcam/hardware/signals"
	"github.com/boardcam/boardcam/rules"
)

const ms = time.Millisecond

// rig is a buzzer on a fake line of a fake chip, timed by a fake clock.
type rig struct {
	clk     *clocktest.Clock
	line    *gpiotest.Line
	buzzer  *signals.Buzzer
	reports chan display.Report
}

func newRig(t *testing.T, o signals.BuzzerOptions) *rig {
	t.Helper()
	clk := clocktest.New()
	chip := &gpiotest.Chip{Now: clk.Now}
	out, err := chip.Output("GPIO18", gpio.LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{clk: clk, line: chip.Line(18), reports: make(chan display.Report, 100)}
	o.Clock = clk
	o.Report = func(rep display.Report) { r.reports <- rep }
	r.buzzer, err = signals.NewBuzzer(out, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// expect reads the next report and checks its Op.
func (r *rig) expect(t *testing.T, op string) display.Report {
	t.Helper()
	rep := displaytest.Recv(t, r.reports)
	if rep.Op != op || rep.Err != nil {
		t.Fatalf("report %q (err %v), want %q", rep.Op, rep.Err, op)
	}
	return rep
}

// timeline writes the line's changes as "+0 on, +150 off, …" (ms after
// the epoch).
func timeline(ch []gpiotest.Change) string {
	var parts []string
	for _, c := range ch {
		s := "off"
		if c.Active {
			s = "on"
		}
		parts = append(parts, "+"+itoa(int(c.At.Sub(clocktest.Epoch)/ms))+" "+s)
	}
	return strings.Join(parts, ", ")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

func TestFoulPattern(t *testing.T) {
	r := newRig(t, signals.BuzzerOptions{Name: "buzzer"})
	r.buzzer.Alert(display.Alert{Kind: display.AlertFoul, Team: 0})
	if rep := r.expect(t, "alert foul"); !rep.Queued.Equal(clocktest.Epoch) || !rep.Done.Equal(clocktest.Epoch) {
		t.Errorf("queued %v done %v", rep.Queued, rep.Done)
	}
	for i := 0; i < 5; i++ {
		r.clk.Step()
	}
	r.expect(t, "end foul")
	if err := r.buzzer.Close(); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "halt")
	want := "+0 on, +150 off, +250 on, +400 off, +500 on, +650 off, +650 off"
	if got := timeline(r.line.Changes()); got != want {
		t.Errorf("buzzer line:\n got %s\nwant %s", got, want)
	}
	if !r.line.Closed() {
		t.Error("line not closed")
	}
}

// Every alert has its own pattern.
func TestPatternsAreDistinct(t *testing.T) {
	seen := map[string]display.AlertKind{}
	for _, k := range display.AlertKinds {
		p, ok := signals.DefaultPatterns[k]
		if !ok {
			t.Fatalf("no pattern for %s", k)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", k, err)
		}
		key := ""
		for _, d := range p {
			key += d.String() + " "
		}
		if other, dup := seen[key]; dup {
			t.Errorf("%s and %s sound the same", k, other)
		}
		seen[key] = k
	}
}

// Alerts queue behind each other with a gap; a more important one cuts the
// playing pattern and drops less important waiting ones.
func TestQueueAndPreemption(t *testing.T) {
	r := newRig(t, signals.BuzzerOptions{Patterns: map[display.AlertKind]signals.Pattern{
		display.AlertFoul:          signals.PatternMS(100),
		display.AlertQueenPocketed: signals.PatternMS(200, 100, 200),
		display.AlertBoardWon:      signals.PatternMS(500),
		display.AlertMatchWon:      signals.PatternMS(1000),
	}})
	r.buzzer.Alert(display.Alert{Kind: display.AlertQueenPocketed, Team: 1})
	r.expect(t, "alert queen_pocketed") // on at 0
	r.buzzer.Alert(display.Alert{Kind: display.AlertFoul})
	r.clk.Step() // off at 200
	r.clk.Step() // on at 300
	r.clk.Step() // off at 500: end
	r.expect(t, "end queen_pocketed")
	r.clk.Step() // gap: foul at 800
	r.expect(t, "alert foul")
	r.clk.Step() // foul ends at 900
	r.expect(t, "end foul")

	// Pre-emption: a foul plays, a board win and a foul wait; a match win
	// cuts the foul, drops the waiting foul (less important) but not the
	// board win… which it then also outranks: both go, the match win plays.
	r.clk.Advance(1000 * ms) // at 1900
	r.buzzer.Alert(display.Alert{Kind: display.AlertFoul})
	r.expect(t, "alert foul") // on at 1900
	r.buzzer.Alert(display.Alert{Kind: display.AlertFoul})
	r.buzzer.Alert(display.Alert{Kind: display.AlertMatchWon, Team: 0})
	// The two alerts may arrive together or one by one: either way the
	// waiting foul and the playing foul are dropped.
	drops := 0
	for drops < 2 {
		rep := displaytest.Recv(t, r.reports)
		if rep.Op != "drop foul" {
			t.Fatalf("report %q, want drop foul", rep.Op)
		}
		drops++
	}
	r.clk.Step() // gap: match won at 2200
	r.expect(t, "alert match_won")
	r.clk.Step() // off at 3200
	r.expect(t, "end match_won")
	r.buzzer.Close()
	want := "+0 on, +200 off, +300 on, +500 off, +800 on, +900 off, +1900 on, +1900 off, +2200 on, +3200 off, +3200 off"
	if got := timeline(r.line.Changes()); got != want {
		t.Errorf("buzzer line:\n got %s\nwant %s", got, want)
	}
}

func TestQueueBound(t *testing.T) {
	r := newRig(t, signals.BuzzerOptions{MaxQueue: 2})
	r.buzzer.Alert(display.Alert{Kind: display.AlertFoul, Board: 1})
	r.expect(t, "alert foul")
	for b := 2; b <= 4; b++ {
		r.buzzer.Alert(display.Alert{Kind: display.AlertFoul, Board: b})
	}
	if rep := displaytest.Recv(t, r.reports); rep.Op != "drop foul" {
		t.Fatalf("report %q, want drop foul", rep.Op)
	}
	r.buzzer.Close()
	select {
	case rep := <-r.reports:
		if rep.Op != "halt" {
			t.Errorf("report %q after the drop, want only the halt", rep.Op)
		}
	default:
		t.Error("no halt report")
	}
}

func TestBadPatternAndLineError(t *testing.T) {
	for _, p := range []signals.Pattern{nil, signals.PatternMS(100, 100), signals.PatternMS(100, 0, 100), signals.PatternMS(11000)} {
		if err := p.Validate(); err == nil {
			t.Errorf("pattern %v accepted", p)
		}
		chip := &gpiotest.Chip{}
		out, _ := chip.Output("GPIO18", gpio.LineOptions{})
		if _, err := signals.NewBuzzer(out, signals.BuzzerOptions{Patterns: map[display.AlertKind]signals.Pattern{display.AlertFoul: p}}); err == nil || !strings.Contains(err.Error(), "buzzer: foul") {
			t.Errorf("NewBuzzer with pattern %v: %v", p, err)
		}
	}
	r := newRig(t, signals.BuzzerOptions{})
	gone := errors.New("line gone")
	r.line.FailSet(gone)
	r.buzzer.Alert(display.Alert{Kind: display.AlertBoardWon})
	if rep := displaytest.Recv(t, r.reports); !errors.Is(rep.Err, gone) {
		t.Errorf("report %+v, want the line error", rep)
	}
	if err := r.buzzer.Close(); !errors.Is(err, gone) {
		t.Errorf("Close: %v", err)
	}
}

func TestTurnLEDs(t *testing.T) {
	clk := clocktest.New()
	chip := &gpiotest.Chip{Now: clk.Now}
	var lines [4]gpio.Output
	offsets := map[board.Side]int{board.S: 17, board.E: 27, board.N: 22, board.W: 23}
	for seat, off := range offsets {
		l, err := chip.Output("GPIO"+itoa(off), gpio.LineOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lines[seat] = l
	}
	reports := make(chan display.Report, 10)
	leds := signals.NewTurnLEDs(lines, signals.LEDOptions{Name: "turn", Clock: clk, Report: func(r display.Report) { reports <- r }})
	state := func() [4]bool {
		var s [4]bool
		for seat, off := range offsets {
			s[seat] = chip.Line(off).IsActive()
		}
		return s
	}
	writes := func() int {
		n := 0
		for _, off := range offsets {
			n += len(chip.Line(off).Changes())
		}
		return n
	}
	step := func(st rules.State, want [4]bool, wantWrites int) {
		t.Helper()
		leds.Show(st)
		if r := displaytest.Recv(t, reports); r.Op != "turn" || r.Err != nil {
			t.Fatalf("report %+v", r)
		}
		if got := state(); got != want {
			t.Errorf("LEDs %v, want %v", got, want)
		}
		if got := writes(); got != wantWrites {
			t.Errorf("%d line writes so far, want %d", got, wantWrites)
		}
	}
	step(rules.State{}, [4]bool{}, 4) // first state: every LED written (off)
	s := displaytest.Singles()
	step(s, [4]bool{board.S: true}, 5)
	s.Turn = board.N
	step(s, [4]bool{board.N: true}, 7)
	step(s, [4]bool{board.N: true}, 7) // unchanged: no write
	d := displaytest.Doubles()
	step(d, [4]bool{board.E: true}, 9)
	d.Turn = board.W
	step(d, [4]bool{board.W: true}, 11)
	d.MatchOver, d.Winner = true, 1
	step(d, [4]bool{}, 12)
	if err := leds.Close(); err != nil {
		t.Fatal(err)
	}
	for _, off := range offsets {
		if !chip.Line(off).Closed() {
			t.Errorf("line %d not closed", off)
		}
	}
}

// A seat without an LED is skipped.
func TestTurnLEDsMissingSeat(t *testing.T) {
	chip := &gpiotest.Chip{}
	s, _ := chip.Output("GPIO17", gpio.LineOptions{})
	reports := make(chan display.Report, 10)
	leds := signals.NewTurnLEDs([4]gpio.Output{board.S: s}, signals.LEDOptions{Report: func(r display.Report) { reports <- r }})
	st := displaytest.Singles()
	st.Turn = board.N
	leds.Show(st)
	displaytest.Recv(t, reports)
	leds.Close()
	if chip.Line(17).IsActive() {
		t.Error("S lit while N has the turn")
	}
}
