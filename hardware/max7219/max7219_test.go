package max7219_test

import (
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/display/segment"
	"github.com/boardcam/boardcam/hardware/max7219"
	"github.com/boardcam/boardcam/rules"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/spi/spitest"
)

// w is one SPI transfer that writes b.
func w(b ...byte) conntest.IO { return conntest.IO{W: b} }

// ops concatenates transfer lists.
func ops(lists ...[]conntest.IO) []conntest.IO {
	var out []conntest.IO
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// initOne is what New sends to one chip at brightness 5: periph's
// initialisation (display test off, shutdown, intensity 8, scan limit 7,
// normal operation, Code-B decode, blank digits 8…1 as Code-B 0x0F), then
// no-decode, intensity 5 and blank raw digits 1…8.
var initOne = []conntest.IO{
	w(0x0F, 0x00), w(0x0C, 0x00), w(0x0A, 0x08), w(0x0B, 0x07), w(0x0C, 0x01),
	w(0x09, 0xFF),
	w(0x08, 0x0F), w(0x07, 0x0F), w(0x06, 0x0F), w(0x05, 0x0F), w(0x04, 0x0F), w(0x03, 0x0F), w(0x02, 0x0F), w(0x01, 0x0F),
	w(0x09, 0x00),
	w(0x0A, 0x05),
	w(0x01, 0), w(0x02, 0), w(0x03, 0), w(0x04, 0), w(0x05, 0), w(0x06, 0), w(0x07, 0), w(0x08, 0),
}

// score12to7 is "12- 3- 7" (team A 12, queen on the board, board 3, team B
// 7): digit registers 1 (DIG0, rightmost) to 8 (DIG7, leftmost) in the
// MAX7219's "DP A B C D E F G" bit order: 7=0x70, blank, -=0x01, 3=0x79,
// blank, -=0x01, 2=0x6D, 1=0x30.
var score12to7 = []conntest.IO{
	w(0x01, 0x70), w(0x02, 0x00), w(0x03, 0x01), w(0x04, 0x79), w(0x05, 0x00), w(0x06, 0x01), w(0x07, 0x6D), w(0x08, 0x30),
}

// blank8 writes every digit of one chip dark.
var blank8 = []conntest.IO{w(1, 0), w(2, 0), w(3, 0), w(4, 0), w(5, 0), w(6, 0), w(7, 0), w(8, 0)}

func TestInitScoreBrightnessHalt(t *testing.T) {
	p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: ops(
		initOne,
		score12to7,
		[]conntest.IO{w(0x0A, 0x0F)},         // brightness 15
		blank8, []conntest.IO{w(0x0C, 0x00)}, // halt: blank, shutdown
		[]conntest.IO{w(0x0C, 0x01)}, score12to7, // wake up and show again
	)}}
	d, err := max7219.New(p, &max7219.Opts{Chips: 1, Brightness: 5})
	if err != nil {
		t.Fatal(err)
	}
	sb := display.FromState(displaytest.Singles(), display.Options{})
	if err := d.WriteDigits(sb.Digits(display.DefaultLayout, true)); err != nil {
		t.Fatal(err)
	}
	if err := d.SetBrightness(15); err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteDigits(sb.Digits(display.DefaultLayout, true)); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// Two cascaded chips: every transfer carries one register write per chip,
// the farthest chip's first. Chip 0 (wired to the Pi) shows digits 1–8.
func TestCascaded(t *testing.T) {
	two := func(reg, v byte) conntest.IO { return w(reg, v, reg, v) }
	p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: []conntest.IO{
		two(0x0F, 0), two(0x0C, 0), two(0x0A, 8), two(0x0B, 7), two(0x0C, 1),
		two(0x09, 0), // periph chooses no-decode for cascades
		two(1, 0), two(2, 0), two(3, 0), two(4, 0), two(5, 0), two(6, 0), two(7, 0), two(8, 0),
		two(0x09, 0), two(0x0A, 8),
		two(1, 0), two(2, 0), two(3, 0), two(4, 0), two(5, 0), two(6, 0), two(7, 0), two(8, 0),
		// "12- 3- 7" on chip 0 and "--------" (no match) on chip 1:
		w(1, 0x01, 1, 0x70), w(2, 0x01, 2, 0x00), w(3, 0x01, 3, 0x01), w(4, 0x01, 4, 0x79),
		w(5, 0x01, 5, 0x00), w(6, 0x01, 6, 0x01), w(7, 0x01, 7, 0x6D), w(8, 0x01, 8, 0x30),
	}}}
	d, err := max7219.New(p, &max7219.Opts{Chips: 2, Brightness: 8})
	if err != nil {
		t.Fatal(err)
	}
	if d.Digits() != 16 {
		t.Fatalf("digits %d", d.Digits())
	}
	left := display.FromState(displaytest.Singles(), display.Options{}).Digits(display.DefaultLayout, true)
	right := display.FromState(rules.State{}, display.Options{}).Digits(display.DefaultLayout, true)
	if err := d.WriteDigits(append(left, right...)); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// A foul makes the scoreboard blink: lit, dark at 250 ms, lit again at
// 500 ms (FoulBlink 500 ms), driven through display.PanelSink with a fake
// clock.
func TestBlinkOnFoul(t *testing.T) {
	p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: ops(
		initOne, score12to7, blank8, score12to7,
		blank8, []conntest.IO{w(0x0C, 0x00)}, // Close: halt
	)}}
	d, err := max7219.New(p, &max7219.Opts{Chips: 1, Brightness: 5})
	if err != nil {
		t.Fatal(err)
	}
	clk := clocktest.New()
	reports := make(chan display.Report, 10)
	sink, err := display.NewPanelSink(d, display.PanelOptions{
		Name: d.String(), Clock: clk, Model: display.Options{FoulBlink: 500 * time.Millisecond},
		Report: func(r display.Report) { reports <- r },
	})
	if err != nil {
		t.Fatal(err)
	}
	st := displaytest.Singles()
	st.Fouls = []string{"thumbing"}
	st.Turn = board.N
	sink.Show(st)
	for _, op := range []string{"show", "blink", "blink"} {
		if op == "blink" {
			clk.Step()
		}
		if r := displaytest.Recv(t, reports); r.Op != op || r.Err != nil {
			t.Fatalf("report %+v, want %s without error", r, op)
		}
	}
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	if r := displaytest.Recv(t, reports); r.Op != "halt" || r.Err != nil {
		t.Fatalf("halt report %+v", r)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRawBitOrder(t *testing.T) {
	for _, c := range []struct {
		s    segment.Digit
		want byte
	}{
		{segment.A, 0x40}, {segment.B, 0x20}, {segment.C, 0x10}, {segment.D, 0x08},
		{segment.E, 0x04}, {segment.F, 0x02}, {segment.G, 0x01}, {segment.DP, 0x80},
		{0xFF, 0xFF}, {0, 0},
	} {
		if got := max7219.Raw(c.s); got != c.want {
			t.Errorf("Raw(%#02x) = %#02x, want %#02x", c.s, got, c.want)
		}
	}
}

func TestBadOptionsAndDigits(t *testing.T) {
	if _, err := max7219.New(&spitest.Playback{}, &max7219.Opts{Chips: 0}); err == nil || !strings.Contains(err.Error(), "cascaded") {
		t.Errorf("0 chips: %v", err)
	}
	if _, err := max7219.New(&spitest.Playback{}, &max7219.Opts{Chips: 1, Brightness: 16}); err == nil || !strings.Contains(err.Error(), "brightness 16") {
		t.Errorf("brightness 16: %v", err)
	}
	p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: initOne}}
	d, err := max7219.New(p, &max7219.Opts{Chips: 1, Brightness: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteDigits(make([]segment.Digit, 4)); err == nil {
		t.Error("4 digits accepted by an 8-digit chip")
	}
	if err := d.SetBrightness(-1); err == nil {
		t.Error("brightness -1 accepted")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// A bus that fails during periph's initialisation (which only logs) must
// make New fail.
func TestInitErrorIsReturned(t *testing.T) {
	p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true}} // every Tx fails
	if _, err := max7219.New(p, nil); err == nil || !strings.Contains(err.Error(), "initialise") {
		t.Errorf("New on a failing bus: %v", err)
	}
}

var _ display.Panel = (*max7219.Dev)(nil)
