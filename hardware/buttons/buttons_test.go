package buttons_test

import (
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/hardware/buttons"
	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/hardware/gpio/gpiotest"
)

const ms = time.Millisecond

var t0 = clocktest.Epoch

// at is t0 + n ms.
func at(n int) time.Time { return t0.Add(time.Duration(n) * ms) }

// ev is an edge (kind 'e': active or not) or a check (kind 'a': advance to
// the time and expect a press or not).
type ev struct {
	kind   byte
	ms     int
	active bool // edge: the line's new state; advance: a press fires
}

func TestDebouncer(t *testing.T) {
	for _, c := range []struct {
		name     string
		hold     time.Duration
		startsOn bool
		evs      []ev
		pressAt  int // when the last press that fired began
	}{
		{"clean press fires after 30 ms of quiet", 0, false, []ev{
			{'e', 0, true}, {'a', 29, false}, {'a', 30, true}, {'a', 100, false},
		}, 0},
		{"bounces restart the quiet time", 0, false, []ev{
			{'e', 0, true}, {'e', 2, false}, {'e', 3, true}, {'e', 7, false}, {'e', 9, true},
			{'a', 38, false}, {'a', 39, true},
		}, 9},
		{"a glitch shorter than the debounce is ignored", 0, false, []ev{
			{'e', 0, true}, {'e', 5, false}, {'a', 100, false},
		}, 0},
		{"release and press again fires again", 0, false, []ev{
			{'e', 0, true}, {'a', 30, true}, {'e', 200, false}, {'a', 230, false},
			{'e', 400, true}, {'a', 430, true},
		}, 400},
		{"hold: fires only once held", time.Second, false, []ev{
			{'e', 0, true}, {'a', 30, false}, {'a', 999, false}, {'a', 1000, true}, {'a', 5000, false},
		}, 0},
		{"hold: a short press does nothing", time.Second, false, []ev{
			{'e', 0, true}, {'a', 30, false}, {'e', 500, false}, {'a', 2000, false},
		}, 0},
		{"held at start: no press until released and pressed", 0, true, []ev{
			{'a', 100, false}, {'e', 200, false}, {'a', 230, false}, {'e', 300, true}, {'a', 330, true},
		}, 300},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := buttons.NewDebouncer(30*ms, c.hold, c.startsOn)
			var last time.Time
			for _, e := range c.evs {
				switch e.kind {
				case 'e':
					d.Edge(e.active, at(e.ms))
				case 'a':
					fired, when := d.Advance(at(e.ms))
					if fired != e.active {
						t.Fatalf("at %d ms: fired %v, want %v", e.ms, fired, e.active)
					}
					if fired {
						last = when
					}
				}
			}
			if !last.IsZero() && !last.Equal(at(c.pressAt)) {
				t.Errorf("last press began at %v, want %d ms", last.Sub(t0), c.pressAt)
			}
		})
	}
}

func TestDeadline(t *testing.T) {
	d := buttons.NewDebouncer(30*ms, 500*ms, false)
	if _, ok := d.Deadline(); ok {
		t.Error("deadline while idle")
	}
	d.Edge(true, at(10))
	if dl, ok := d.Deadline(); !ok || !dl.Equal(at(40)) {
		t.Errorf("deadline %v, want 40 ms", dl.Sub(t0))
	}
	d.Advance(at(40))
	if dl, ok := d.Deadline(); !ok || !dl.Equal(at(510)) || !d.Pressed() {
		t.Errorf("hold deadline %v, want 510 ms", dl.Sub(t0))
	}
	d.Advance(at(510))
	if _, ok := d.Deadline(); ok {
		t.Error("deadline after the press fired")
	}
}

// Buttons on a fake chip, edges fed with timestamps of a fake clock.
func TestButtons(t *testing.T) {
	clk := clocktest.New()
	chip := &gpiotest.Chip{}
	specs := []buttons.Spec{
		{Command: buttons.Confirm, Line: "GPIO5"},
		{Command: buttons.Overrule, Line: "PIN31"}, // GPIO6
		{Command: buttons.Undo, Line: "GPIO13"},
		{Command: buttons.NextBoard, Line: "GPIO19", Hold: time.Second},
	}
	b, errs := buttons.Open(chip, specs, buttons.Options{Clock: clk, Line: gpio.LineOptions{ActiveLow: true, Bias: gpio.BiasPullUp}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if b.Len() != 4 || !chip.Line(6).Options.ActiveLow || chip.Line(6).Options.Bias != gpio.BiasPullUp {
		t.Fatalf("%d buttons, line options %+v", b.Len(), chip.Line(6).Options)
	}
	confirm, overrule, next := chip.Line(5), chip.Line(6), chip.Line(19)

	// A bouncing press of confirm.
	confirm.Edge(true, clk.Now())
	clk.Advance(2 * ms)
	confirm.Edge(false, clk.Now())
	clk.Advance(1 * ms)
	confirm.Edge(true, clk.Now())
	clk.Step() // 30 ms after the last bounce
	p := displaytest.Recv(t, b.C())
	if p.Command != buttons.Confirm || p.Line != "GPIO5" || !p.At.Equal(at(3)) || !p.Fired.Equal(at(33)) {
		t.Errorf("press %+v", p)
	}
	confirm.Edge(false, clk.Now())
	clk.Step() // release debounced: nothing sent

	// A glitch on overrule: no press, no timer left.
	overrule.Edge(true, clk.Now())
	clk.Advance(1 * ms)
	overrule.Edge(false, clk.Now())
	if n := clk.Pending(); n != 0 {
		t.Errorf("%d timers pending after a glitch", n)
	}

	// Next board needs a 1 s hold.
	start := clk.Now()
	next.Edge(true, start)
	clk.Step() // debounced at +30 ms: not yet
	clk.Step() // held 1 s
	p = displaytest.Recv(t, b.C())
	if p.Command != buttons.NextBoard || !p.Fired.Equal(start.Add(time.Second)) {
		t.Errorf("press %+v, want next_board fired 1 s after %v", p, start)
	}
	select {
	case p := <-b.C():
		t.Errorf("unexpected press %+v", p)
	default:
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-b.C(); ok {
		t.Error("C not closed")
	}
	if !confirm.Closed() || !next.Closed() {
		t.Error("lines not released")
	}
}

// A button whose line is busy is reported; the others work.
func TestButtonsPartialFailure(t *testing.T) {
	clk := clocktest.New()
	chip := &gpiotest.Chip{Busy: map[int]bool{13: true}}
	b, errs := buttons.Open(chip, []buttons.Spec{
		{Command: buttons.Undo, Line: "GPIO13"},
		{Command: buttons.Confirm, Line: "GPIO5"},
		{Command: buttons.Overrule, Line: "PIN2"},
	}, buttons.Options{Clock: clk})
	defer b.Close()
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "button undo on GPIO13") || !strings.Contains(errs[1].Error(), "pin 2 is 5V") {
		t.Fatalf("errors %v", errs)
	}
	if b.Len() != 1 {
		t.Fatalf("%d buttons", b.Len())
	}
	chip.Line(5).Edge(true, clk.Now())
	clk.Step()
	if p := displaytest.Recv(t, b.C()); p.Command != buttons.Confirm {
		t.Errorf("press %+v", p)
	}
}

// Presses nobody reads are counted and dropped, never blocking.
func TestButtonsNeverBlock(t *testing.T) {
	clk := clocktest.New()
	chip := &gpiotest.Chip{}
	b, _ := buttons.Open(chip, []buttons.Spec{{Command: buttons.Confirm, Line: "GPIO5"}}, buttons.Options{Clock: clk, Buffer: 1})
	line := chip.Line(5)
	for i := 0; i < 3; i++ {
		line.Edge(true, clk.Now())
		clk.Step()
		line.Edge(false, clk.Now())
		clk.Step()
	}
	b.Close()
	if b.Lost() != 2 {
		t.Errorf("lost %d presses, want 2", b.Lost())
	}
}

func TestParseCommand(t *testing.T) {
	for _, c := range buttons.Commands {
		if got, err := buttons.ParseCommand(c.String()); err != nil || got != c {
			t.Errorf("ParseCommand(%q) = %v, %v", c, got, err)
		}
	}
	if _, err := buttons.ParseCommand("reset"); err == nil {
		t.Error("accepted reset")
	}
}
