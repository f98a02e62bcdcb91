package ht16k33_test

import (
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/display/segment"
	"github.com/boardcam/boardcam/hardware/ht16k33"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

func w(addr uint16, b ...byte) i2ctest.IO { return i2ctest.IO{Addr: addr, W: b} }

func ops(lists ...[]i2ctest.IO) []i2ctest.IO {
	var out []i2ctest.IO
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// clearRAM is one 17-byte write of the whole display RAM.
func clearRAM(addr uint16) i2ctest.IO { return w(addr, make([]byte, 17)...) }

// initTwo is what New sends to two backpacks at brightness 6: periph's
// initialisation of each (oscillator on 0x21, display on 0x81, no blink
// 0x81, brightness 15 0xEF), brightness 6 (0xE6) to each, and a RAM clear
// of each.
var initTwo = []i2ctest.IO{
	w(0x70, 0x21), w(0x70, 0x81), w(0x70, 0x81), w(0x70, 0xEF),
	w(0x71, 0x21), w(0x71, 0x81), w(0x71, 0x81), w(0x71, 0xEF),
	w(0x70, 0xE6), w(0x71, 0xE6),
	clearRAM(0x70), clearRAM(0x71),
}

// score12to7 shows "12- 3- 7" from blank: only the lit digits are written,
// as {RAM address = 2 × column, segments, 0}. Backpack 0x70 holds "12- "
// (columns 0, 1, 3), backpack 0x71 holds "3- 7" (columns 0, 1, 4).
var score12to7 = []i2ctest.IO{
	w(0x70, 0x00, 0x06, 0x00), w(0x70, 0x02, 0x5B, 0x00), w(0x70, 0x06, 0x40, 0x00),
	w(0x71, 0x00, 0x4F, 0x00), w(0x71, 0x02, 0x40, 0x00), w(0x71, 0x08, 0x07, 0x00),
}

// dark12to7 blanks the same digits (the dark half of a blink).
var dark12to7 = []i2ctest.IO{
	w(0x70, 0x00, 0, 0), w(0x70, 0x02, 0, 0), w(0x70, 0x06, 0, 0),
	w(0x71, 0x00, 0, 0), w(0x71, 0x02, 0, 0), w(0x71, 0x08, 0, 0),
}

var halt = []i2ctest.IO{
	clearRAM(0x70), clearRAM(0x71),
	w(0x70, 0x80), w(0x70, 0x20), w(0x71, 0x80), w(0x71, 0x20),
}

func digits(t *testing.T, s string) []segment.Digit {
	t.Helper()
	d, err := segment.Text(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestInitScoreBrightnessHalt(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true, Ops: ops(
		initTwo,
		score12to7,
		[]i2ctest.IO{w(0x71, 0x08, 0x7F, 0x00)}, // team B 7 → 8: one digit
		[]i2ctest.IO{w(0x70, 0xEF), w(0x71, 0xEF)}, // brightness 15
		halt,
		[]i2ctest.IO{w(0x70, 0x21), w(0x70, 0x81), w(0x71, 0x21), w(0x71, 0x81)}, // wake
		score12to7,
	)}
	d, err := ht16k33.New(bus, &ht16k33.Opts{Addr: 0x70, Digits: 8, Wiring: ht16k33.Backpack, Brightness: 6})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []func() error{
		func() error { return d.WriteDigits(digits(t, "12- 3- 7")) },
		func() error { return d.WriteDigits(digits(t, "12- 3- 8")) },
		func() error { return d.WriteDigits(digits(t, "12- 3- 8")) }, // nothing changed: no write
		func() error { return d.SetBrightness(15) },
		d.Halt,
		func() error { return d.WriteDigits(digits(t, "12- 3- 7")) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
}

// Rows wiring: digit i in column i of one chip; the decimal point is bit 7.
func TestRows(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{
		w(0x72, 0x21), w(0x72, 0x81), w(0x72, 0x81), w(0x72, 0xEF), w(0x72, 0xE0),
		clearRAM(0x72),
		w(0x72, 0x00, 0x67|0x80, 0x00), w(0x72, 0x02, 0x5B, 0x00), w(0x72, 0x04, 0x6D, 0x00),
	}}
	d, err := ht16k33.New(bus, &ht16k33.Opts{Addr: 0x72, Digits: 4, Wiring: ht16k33.Rows, Brightness: 0})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteDigits(digits(t, "q.25 ")); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
}

// A foul blinks the scoreboard through display.PanelSink: lit, dark at
// 250 ms, lit at 500 ms (FoulBlink 500 ms), then Close halts the chips.
func TestBlinkOnFoul(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true, Ops: ops(initTwo, score12to7, dark12to7, score12to7, halt)}
	d, err := ht16k33.New(bus, &ht16k33.Opts{Addr: 0x70, Digits: 8, Wiring: ht16k33.Backpack, Brightness: 6})
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
	st.Fouls = []string{"push"}
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
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestMissingChip(t *testing.T) {
	// Nothing answers: the first write of the first chip fails.
	bus := &i2ctest.Playback{DontPanic: true}
	_, err := ht16k33.New(bus, nil)
	if err == nil || !strings.Contains(err.Error(), "no answer at 0x70") {
		t.Errorf("error %v", err)
	}
}

func TestBadOptions(t *testing.T) {
	for _, c := range []struct {
		o   ht16k33.Opts
		err string
	}{
		{ht16k33.Opts{Digits: 6, Wiring: ht16k33.Backpack}, "6 digits on 4-digit backpacks"},
		{ht16k33.Opts{Digits: 9, Wiring: ht16k33.Rows}, "9 digits on one chip"},
		{ht16k33.Opts{Digits: 8, Brightness: 16}, "brightness 16"},
		{ht16k33.Opts{Addr: 0x77, Digits: 8}, "0x77 to 0x78"},
		{ht16k33.Opts{Addr: 0x3c, Digits: 4}, "outside"},
	} {
		if _, err := ht16k33.New(&i2ctest.Playback{DontPanic: true}, &c.o); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%+v: error %v, want %q", c.o, err, c.err)
		}
	}
	for in, want := range map[string]ht16k33.Wiring{"backpack": ht16k33.Backpack, "rows": ht16k33.Rows} {
		if got, err := ht16k33.ParseWiring(in); err != nil || got != want || got.String() != in {
			t.Errorf("ParseWiring(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ht16k33.ParseWiring("matrix"); err == nil {
		t.Error("ParseWiring accepted matrix")
	}
}

var _ display.Panel = (*ht16k33.Dev)(nil)
