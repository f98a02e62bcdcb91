package hardware_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/hardware"
	"github.com/boardcam/boardcam/hardware/buttons"
	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/hardware/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
)

// On a machine without SPI, I²C or GPIO (this one, a laptop, CI) Open
// succeeds, says what is missing and the sink works.
func TestOpenWithoutHardware(t *testing.T) {
	cfg := hardware.Config{
		MAX7219: &hardware.MAX7219Config{Bus: "SPI97"},
		HT16K33: &hardware.HT16K33Config{Bus: "97"},
		GPIO:    &hardware.GPIOConfig{Chip: "gpiochip97", Buzzer: "GPIO18", Buttons: map[string]string{"confirm": "GPIO5"}},
	}
	d, err := hardware.Open(cfg, hardware.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Opened) != 0 {
		t.Skipf("this machine has the devices: %v", d.Opened)
	}
	want := []string{
		"scoreboard max7219: no SPI bus /dev/spidev97.0: stat /dev/spidev97.0: no such file or directory (enable SPI: dtparam=spi=on",
		"scoreboard ht16k33: no I2C bus /dev/i2c-97: stat /dev/i2c-97: no such file or directory (enable I2C: dtparam=i2c_arm=on",
		"buzzer, turn LEDs and buttons: no GPIO chip /dev/gpiochip97:",
	}
	if len(d.Missing) != len(want) {
		t.Fatalf("missing %v", d.Missing)
	}
	for i, w := range want {
		if !strings.Contains(d.Missing[i].Error(), w) {
			t.Errorf("missing[%d] = %q, want %q", i, d.Missing[i], w)
		}
	}
	d.Sink.Show(displaytest.Singles())
	d.Sink.Alert(display.Alert{Kind: display.AlertFoul})
	if d.Presses() != nil {
		t.Error("presses channel without buttons")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRejectsInvalidConfig(t *testing.T) {
	two := 20
	_, err := hardware.Open(hardware.Config{HT16K33: &hardware.HT16K33Config{Brightness: &two}}, hardware.Options{})
	if err == nil || !strings.Contains(err.Error(), "ht16k33.brightness: 20") {
		t.Errorf("error %v", err)
	}
}

type i2cBus struct {
	*i2ctest.Record
	mu     sync.Mutex
	closed bool
}

func (b *i2cBus) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

// Everything configured and present (fake buses and chip): one state and
// one alert reach every device, a button press comes out, Close turns
// everything off.
func TestOpenEverything(t *testing.T) {
	clk := clocktest.New()
	spiRec := &spitest.Record{}
	bus := &i2cBus{Record: &i2ctest.Record{}}
	chip := &gpiotest.Chip{Now: clk.Now}
	reports := make(chan display.Report, 100)
	var opened struct{ spi, i2c, gpio string }
	three := 3
	cfg := hardware.Config{
		MAX7219: &hardware.MAX7219Config{Bus: "SPI0", Brightness: &three},
		HT16K33: &hardware.HT16K33Config{Bus: "I2C1", Digits: 4, Layout: "score_a score_b"},
		GPIO: &hardware.GPIOConfig{
			Chip:     "gpiochip4",
			Buzzer:   "PIN12",
			TurnLEDs: map[string]string{"S": "GPIO17", "E": "GPIO27", "N": "GPIO22", "W": "GPIO23"},
			Buttons:  map[string]string{"confirm": "GPIO5", "next_board": "GPIO19"},
		},
	}
	d, err := hardware.Open(cfg, hardware.Options{
		Clock:    clk,
		Report:   func(r display.Report) { reports <- r },
		OpenSPI:  func(n string) (spi.PortCloser, error) { opened.spi = n; return spiRec, nil },
		OpenI2C:  func(n string) (i2c.BusCloser, error) { opened.i2c = n; return bus, nil },
		OpenGPIO: func(n string) (gpio.Chip, error) { opened.gpio = n; return chip, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Missing) > 0 {
		t.Fatalf("missing %v", d.Missing)
	}
	if opened != (struct{ spi, i2c, gpio string }{"/dev/spidev0.0", "/dev/i2c-1", "gpiochip4"}) {
		t.Errorf("opened %+v", opened)
	}
	if len(d.Opened) != 5 {
		t.Errorf("opened %q", d.Opened)
	}

	// A button press (the buttons are active low with pull-ups).
	if l := chip.Line(5); !l.Options.ActiveLow || l.Options.Bias != gpio.BiasPullUp {
		t.Errorf("button line options %+v", l.Options)
	}
	chip.Line(5).Edge(true, clk.Now())
	clk.Step()
	if p := displaytest.Recv(t, d.Presses()); p.Command != buttons.Confirm {
		t.Errorf("press %+v", p)
	}
	chip.Line(5).Edge(false, clk.Now())
	clk.Step()

	st := displaytest.Singles()
	st.Turn = board.N
	spiRec.Ops, bus.Ops = nil, nil
	d.Sink.Show(st)
	d.Sink.Alert(display.Alert{Kind: display.AlertBoardWon, Team: 0})
	got := map[string]bool{}
	for len(got) < 4 {
		r := displaytest.Recv(t, reports)
		if r.Err != nil {
			t.Fatalf("report %+v", r)
		}
		got[r.Sink+": "+r.Op] = true
	}
	for _, w := range []string{"max7219 /dev/spidev0.0: show", "ht16k33 0x70 /dev/i2c-1: show", "turn LEDs: turn", "buzzer PIN12: alert board_won"} {
		if !got[w] {
			t.Errorf("no report %q in %v", w, got)
		}
	}
	if len(spiRec.Ops) != 8 || spiRec.Ops[7].W[0] != 8 || spiRec.Ops[7].W[1] != 0x30 {
		t.Errorf("max7219 frame %v", spiRec.Ops)
	}
	// "12 7" on one backpack: 1, 2, (colon skipped), blank, 7.
	wantI2C := []i2ctest.IO{{Addr: 0x70, W: []byte{0, 0x06, 0}}, {Addr: 0x70, W: []byte{2, 0x5B, 0}}, {Addr: 0x70, W: []byte{8, 0x07, 0}}}
	if len(bus.Ops) != len(wantI2C) {
		t.Errorf("ht16k33 writes %v", bus.Ops)
	}
	for i := range wantI2C {
		if i < len(bus.Ops) && string(bus.Ops[i].W) != string(wantI2C[i].W) {
			t.Errorf("ht16k33 write %d: % x, want % x", i, bus.Ops[i].W, wantI2C[i].W)
		}
	}
	if !chip.Line(22).IsActive() || chip.Line(17).IsActive() || !chip.Line(18).IsActive() {
		t.Errorf("N LED %v, S LED %v, buzzer %v", chip.Line(22).IsActive(), chip.Line(17).IsActive(), chip.Line(18).IsActive())
	}

	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if chip.Line(22).IsActive() || chip.Line(18).IsActive() || !chip.Line(18).Closed() || !chip.Line(5).Closed() {
		t.Error("LEDs or buzzer left on, or lines not released")
	}
	if last := spiRec.Ops[len(spiRec.Ops)-1]; string(last.W) != string([]byte{0x0C, 0}) {
		t.Errorf("max7219 not shut down: last write % x", last.W)
	}
	if !bus.closed {
		t.Error("I2C bus not closed")
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// A chip absent from its I²C address and a busy GPIO line are missing;
// the rest works.
func TestOpenPartial(t *testing.T) {
	chip := &gpiotest.Chip{Busy: map[int]bool{18: true}}
	cfg := hardware.Config{
		HT16K33: &hardware.HT16K33Config{},
		GPIO:    &hardware.GPIOConfig{Buzzer: "GPIO18", TurnLEDs: map[string]string{"S": "GPIO17", "N": "GPIO22"}},
	}
	absent := &i2cBus{Record: &i2ctest.Record{Bus: &i2ctest.Playback{DontPanic: true}}}
	d, err := hardware.Open(cfg, hardware.Options{
		OpenI2C:  func(string) (i2c.BusCloser, error) { return absent, nil },
		OpenGPIO: func(string) (gpio.Chip, error) { return chip, nil },
		OpenSPI:  func(string) (spi.PortCloser, error) { return nil, errors.New("unused") },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if len(d.Missing) != 2 {
		t.Fatalf("missing %v", d.Missing)
	}
	if e := d.Missing[0].Error(); !strings.Contains(e, "scoreboard ht16k33 on /dev/i2c-1: ht16k33: no answer at 0x70") || !strings.Contains(e, "i2cdetect -y 1") {
		t.Errorf("missing[0] = %q", e)
	}
	if e := d.Missing[1].Error(); !strings.Contains(e, "buzzer on GPIO18") || !strings.Contains(e, "busy") {
		t.Errorf("missing[1] = %q", e)
	}
	if !absent.closed {
		t.Error("the bus of the absent chip was not closed")
	}
	if len(d.Opened) != 1 || !strings.Contains(d.Opened[0], "turn LEDs on gpiochip0 S=GPIO17 N=GPIO22") {
		t.Errorf("opened %q", d.Opened)
	}
}
