package hardware

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/hardware/buttons"
	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/hardware/ht16k33"
	"github.com/boardcam/boardcam/hardware/max7219"
	"github.com/boardcam/boardcam/hardware/signals"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"
)

// Options are what Open needs besides the configuration. The openers
// default to the real buses (periph's host drivers and the GPIO character
// device); tests replace them with fakes.
type Options struct {
	// Clock drives blinking, buzzer patterns and debouncing; nil means the
	// real clock.
	Clock clock.Clock
	// Report receives every report of every sink (errors and output
	// latency); nil drops them.
	Report display.Reporter
	// OpenSPI opens an SPI port by name ("/dev/spidev0.0").
	OpenSPI func(name string) (spi.PortCloser, error)
	// OpenI2C opens an I²C bus by name ("/dev/i2c-1").
	OpenI2C func(name string) (i2c.BusCloser, error)
	// OpenGPIO opens a GPIO chip by name ("gpiochip0").
	OpenGPIO func(name string) (gpio.Chip, error)
}

// Devices is what Open could open.
type Devices struct {
	// Sink drives every output that opened (scoreboards, buzzer, turn
	// LEDs); with none it does nothing. It never blocks.
	Sink display.Sink
	// Buttons are the umpire's buttons, nil when none opened.
	Buttons *buttons.Buttons
	// Opened describes each device that works, for the log.
	Opened []string
	// Missing has an error for each configured device that could not be
	// opened; the rest works without it.
	Missing []error

	chip gpio.Chip
	once sync.Once
	err  error
}

// Presses delivers the buttons' presses; with no buttons it is a channel
// that never delivers.
func (d *Devices) Presses() <-chan buttons.Press {
	if d.Buttons == nil {
		return nil
	}
	return d.Buttons.C()
}

// Close turns every output off and releases every device.
func (d *Devices) Close() error {
	d.once.Do(func() {
		var errs []error
		errs = append(errs, d.Sink.Close())
		if d.Buttons != nil {
			errs = append(errs, d.Buttons.Close())
		}
		if d.chip != nil {
			errs = append(errs, d.chip.Close())
		}
		d.err = errors.Join(errs...)
	})
	return d.err
}

// Open opens every configured device. It fails only on an invalid
// configuration; a device that is absent or broken (no SPI bus, no chip
// at the I²C address, no GPIO chip, a busy line…) is listed in Missing
// with an error saying what is missing, and everything else works, so the
// daemon logs the errors and carries on.
func Open(cfg Config, o Options) (*Devices, error) {
	p, errs := cfg.plan()
	if err := joinFieldErrors(errs); err != nil {
		return nil, fmt.Errorf("hardware: %w", err)
	}
	if o.OpenSPI == nil {
		o.OpenSPI = openSPI
	}
	if o.OpenI2C == nil {
		o.OpenI2C = openI2C
	}
	if o.OpenGPIO == nil {
		var now func() time.Time
		if o.Clock != nil {
			now = o.Clock.Now
		}
		o.OpenGPIO = func(name string) (gpio.Chip, error) { return gpio.Open(name, now) }
	}
	op := &opener{p: p, o: o, d: &Devices{}}
	op.max7219()
	op.ht16k33()
	op.gpio()
	op.d.Sink = display.Fanout(op.sinks...)
	return op.d, nil
}

// opener opens the devices of a plan one kind at a time, noting what it
// opened and what is missing.
type opener struct {
	p     *plan
	o     Options
	d     *Devices
	sinks []display.Sink
}

func (op *opener) missing(err error) { op.d.Missing = append(op.d.Missing, err) }

func (op *opener) opened(format string, a ...any) {
	op.d.Opened = append(op.d.Opened, fmt.Sprintf(format, a...))
}

// panel makes a scoreboard sink of an opened display driver.
func (op *opener) panel(name string, pn display.Panel, layout display.Layout, closer interface{ Close() error }, note string) {
	s, err := display.NewPanelSink(pn, display.PanelOptions{
		Name: name, Layout: layout, Model: op.p.model, BlinkPeriod: op.p.period,
		Clock: op.o.Clock, Report: op.o.Report, Closer: closer,
	})
	if err != nil { // the layout was checked by plan: not expected
		pn.Halt()
		closer.Close()
		op.missing(fmt.Errorf("scoreboard %s: %w", name, err))
		return
	}
	op.sinks = append(op.sinks, s)
	op.opened("scoreboard %s, %d digits: %s%s", name, pn.Digits(), s.Layout(), note)
}

func (op *opener) max7219() {
	m := op.p.max
	if m == nil {
		return
	}
	port, err := op.o.OpenSPI(m.port)
	if err != nil {
		op.missing(fmt.Errorf("scoreboard max7219: no SPI bus %s: %w%s", m.port, err, deviceHint(m.port, err, "SPI")))
	} else if dev, err := max7219.New(port, &m.opts); err != nil {
		port.Close()
		op.missing(fmt.Errorf("scoreboard max7219 on %s: %w", m.port, err))
	} else {
		op.panel("max7219 "+m.port, dev, m.layout, port, " (SPI cannot tell whether the modules are connected)")
	}
}

func (op *opener) ht16k33() {
	h := op.p.ht
	if h == nil {
		return
	}
	bus, err := op.o.OpenI2C(h.bus)
	if err != nil {
		op.missing(fmt.Errorf("scoreboard ht16k33: no I2C bus %s: %w%s", h.bus, err, deviceHint(h.bus, err, "I2C")))
	} else if dev, err := ht16k33.New(bus, &h.opts); err != nil {
		bus.Close()
		op.missing(fmt.Errorf("scoreboard ht16k33 on %s: %w (check the wiring and the address: i2cdetect -y %s)", h.bus, err, strings.TrimPrefix(h.bus, "/dev/i2c-")))
	} else {
		op.panel(fmt.Sprintf("ht16k33 %#02x %s", h.opts.Addr, h.bus), dev, h.layout, bus, "")
	}
}

// gpio opens the chip when a buzzer, turn LED or button is configured,
// then each of them.
func (op *opener) gpio() {
	g := op.p.gpio
	if g == nil {
		return
	}
	var leds [4]string
	copy(leds[:], g.leds[:])
	if g.buzzer == "" && len(g.buttons) == 0 && leds == [4]string{} {
		return
	}
	chip, err := op.o.OpenGPIO(g.chip)
	if err != nil {
		op.missing(fmt.Errorf("buzzer, turn LEDs and buttons: %w", err))
	}
	if chip == nil {
		return
	}
	op.d.chip = chip
	op.buzzer(chip, g)
	op.turnLEDs(chip, g)
	op.buttons(chip, g)
}

func (op *opener) buzzer(chip gpio.Chip, g *gpioPlan) {
	if g.buzzer == "" {
		return
	}
	line, err := chip.Output(g.buzzer, g.buzzerOpts)
	if err != nil {
		op.missing(fmt.Errorf("buzzer on %s: %w", g.buzzer, err))
		return
	}
	b, err := signals.NewBuzzer(line, signals.BuzzerOptions{
		Name: "buzzer " + g.buzzer, Patterns: g.patterns, Clock: op.o.Clock, Report: op.o.Report,
	})
	if err != nil {
		line.Close()
		op.missing(fmt.Errorf("buzzer on %s: %w", g.buzzer, err))
		return
	}
	op.sinks = append(op.sinks, b)
	op.opened("buzzer on %s %s", chip.Name(), g.buzzer)
}

func (op *opener) turnLEDs(chip gpio.Chip, g *gpioPlan) {
	var lines [4]gpio.Output
	var names []string
	for seat, name := range g.leds {
		if name == "" {
			continue
		}
		line, err := chip.Output(name, g.ledOpts)
		if err != nil {
			op.missing(fmt.Errorf("turn LED of seat %s on %s: %w", seatName(seat), name, err))
			continue
		}
		lines[seat] = line
		names = append(names, seatName(seat)+"="+name)
	}
	if len(names) > 0 {
		op.sinks = append(op.sinks, signals.NewTurnLEDs(lines, signals.LEDOptions{Name: "turn LEDs", Clock: op.o.Clock, Report: op.o.Report}))
		op.opened("turn LEDs on %s %s", chip.Name(), strings.Join(names, " "))
	}
}

func (op *opener) buttons(chip gpio.Chip, g *gpioPlan) {
	if len(g.buttons) == 0 {
		return
	}
	b, errs := buttons.Open(chip, g.buttons, buttons.Options{Line: g.buttonOpts, Debounce: g.debounce, Clock: op.o.Clock})
	op.d.Missing = append(op.d.Missing, errs...)
	if b.Len() == 0 {
		b.Close()
		return
	}
	op.d.Buttons = b
	var names []string
	for _, s := range g.buttons {
		names = append(names, s.Command.String()+"="+s.Line)
	}
	op.opened("buttons on %s (%d of %d): %s", chip.Name(), b.Len(), len(g.buttons), strings.Join(names, " "))
}

func seatName(seat int) string { return board.Side(seat).String() }

// deviceHint adds the usual fix to an error opening a bus device.
func deviceHint(path string, err error, kind string) string {
	if _, serr := os.Stat(path); serr != nil && errors.Is(serr, fs.ErrNotExist) {
		if kind == "SPI" {
			return " (enable SPI: dtparam=spi=on in /boot/firmware/config.txt, or raspi-config → Interface Options → SPI)"
		}
		return " (enable I2C: dtparam=i2c_arm=on in /boot/firmware/config.txt, or raspi-config → Interface Options → I2C)"
	}
	if errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "permission denied") {
		return fmt.Sprintf(" (add the user to the %s group: sudo adduser $USER %s)", strings.ToLower(kind), strings.ToLower(kind))
	}
	return ""
}

var (
	hostOnce sync.Once
	hostErr  error
)

func initHost() error {
	hostOnce.Do(func() { _, hostErr = host.Init() })
	return hostErr
}

func openSPI(name string) (spi.PortCloser, error) {
	if _, err := os.Stat(name); err != nil {
		return nil, err
	}
	if err := initHost(); err != nil {
		return nil, fmt.Errorf("periph host drivers: %w", err)
	}
	return spireg.Open(name)
}

func openI2C(name string) (i2c.BusCloser, error) {
	if _, err := os.Stat(name); err != nil {
		return nil, err
	}
	if err := initHost(); err != nil {
		return nil, fmt.Errorf("periph host drivers: %w", err)
	}
	return i2creg.Open(name)
}
