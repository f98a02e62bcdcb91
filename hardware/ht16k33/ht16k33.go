package ht16k33

import (
	"fmt"

	"github.com/boardcam/boardcam/display/segment"
	"periph.io/x/conn/v3/i2c"
	pht "periph.io/x/devices/v3/ht16k33"
)

// Commands (datasheet "Command Summary").
const (
	cmdStandby    = 0x20 // system setup, oscillator off
	cmdOscillator = 0x21 // system setup, oscillator on
	cmdDisplayOff = 0x80
	cmdDisplayOn  = 0x81 // display on, no blinking
)

// Wiring is how digits are wired to the chip.
type Wiring uint8

// The wirings.
const (
	// Backpack is an Adafruit-style 4-digit backpack (columns 0, 1, 3, 4).
	Backpack Wiring = iota
	// Rows is up to 8 digits, digit i on COM i.
	Rows
)

func (w Wiring) String() string {
	switch w {
	case Backpack:
		return "backpack"
	case Rows:
		return "rows"
	}
	return fmt.Sprintf("Wiring(%d)", int(w))
}

// ParseWiring reads "backpack" or "rows".
func ParseWiring(s string) (Wiring, error) {
	switch s {
	case "backpack", "adafruit", "":
		return Backpack, nil
	case "rows":
		return Rows, nil
	}
	return 0, fmt.Errorf("unknown HT16K33 wiring %q (want backpack or rows)", s)
}

// I2CAddr is the chip's default address.
const I2CAddr uint16 = 0x70

// Opts configure the scoreboard.
type Opts struct {
	// Addr is the address of the first (leftmost) chip; further backpacks
	// are at Addr+1, Addr+2 …
	Addr uint16
	// Digits is the number of digits: a multiple of 4 for Backpack (one
	// backpack per 4 digits, at most 8 backpacks), 1 to 8 for Rows.
	Digits int
	Wiring Wiring
	// Brightness is 0 (1/16 duty) to 15 (16/16 duty).
	Brightness int
}

// DefaultOpts is two backpacks at 0x70 and 0x71 (8 digits) at medium
// brightness.
var DefaultOpts = Opts{Addr: I2CAddr, Digits: 8, Wiring: Backpack, Brightness: 8}

// backpackColumns maps a backpack's digit to its RAM column.
var backpackColumns = [4]int{0, 1, 3, 4}

// Dev is a row of digits on one or more HT16K33 chips. It implements
// display.Panel. It is not safe for concurrent use: display.PanelSink
// calls it from one goroutine.
type Dev struct {
	bus    i2c.Bus
	o      Opts
	chips  []*pht.Dev
	shown  []segment.Digit // what the RAM holds; nil when unknown
	halted bool
}

// New initialises the chips on bus: oscillator on, display on without
// blinking, the brightness, all of the display RAM cleared. With a nil opts
// it uses DefaultOpts.
func New(bus i2c.Bus, opts *Opts) (*Dev, error) {
	o := DefaultOpts
	if opts != nil {
		o = *opts
	}
	if o.Addr == 0 {
		o.Addr = I2CAddr
	}
	if o.Brightness < 0 || o.Brightness > 15 {
		return nil, fmt.Errorf("ht16k33: brightness %d, want 0 to 15", o.Brightness)
	}
	n := 1
	switch o.Wiring {
	case Backpack:
		if o.Digits < 4 || o.Digits%4 != 0 || o.Digits > 32 {
			return nil, fmt.Errorf("ht16k33: %d digits on 4-digit backpacks, want 4, 8 … 32", o.Digits)
		}
		n = o.Digits / 4
	case Rows:
		if o.Digits < 1 || o.Digits > 8 {
			return nil, fmt.Errorf("ht16k33: %d digits on one chip, want 1 to 8", o.Digits)
		}
	default:
		return nil, fmt.Errorf("ht16k33: unknown wiring %d", o.Wiring)
	}
	if last := int(o.Addr) + n - 1; o.Addr < 0x70 || last > 0x77 {
		return nil, fmt.Errorf("ht16k33: addresses %#02x to %#02x outside the chip's 0x70–0x77", o.Addr, last)
	}
	d := &Dev{bus: bus, o: o}
	for i := 0; i < n; i++ {
		addr := o.Addr + uint16(i)
		c, err := pht.NewI2C(bus, addr)
		if err != nil {
			return nil, fmt.Errorf("ht16k33: no answer at %#02x: %w", addr, err)
		}
		d.chips = append(d.chips, c)
	}
	if err := d.SetBrightness(o.Brightness); err != nil {
		return nil, err
	}
	if err := d.clear(); err != nil {
		return nil, err
	}
	return d, nil
}

// String names the device.
func (d *Dev) String() string {
	return fmt.Sprintf("ht16k33 %s ×%d at %#02x on %s", d.o.Wiring, len(d.chips), d.o.Addr, d.bus)
}

// Digits is the number of digits.
func (d *Dev) Digits() int { return d.o.Digits }

// SetBrightness sets the brightness of every chip, 0 to 15.
func (d *Dev) SetBrightness(b int) error {
	for i, c := range d.chips {
		if err := c.SetBrightness(b); err != nil {
			return fmt.Errorf("ht16k33 %#02x: set brightness: %w", d.o.Addr+uint16(i), err)
		}
	}
	return nil
}

// WriteDigits shows digits[0] on the leftmost digit; only the digits that
// differ from what the chips show are written. After Halt it first wakes
// the chips.
func (d *Dev) WriteDigits(digits []segment.Digit) error {
	if len(digits) != d.o.Digits {
		return fmt.Errorf("ht16k33: %d digits given, the display has %d", len(digits), d.o.Digits)
	}
	if d.halted {
		for i := range d.chips {
			if err := d.command(i, cmdOscillator, cmdDisplayOn); err != nil {
				return err
			}
		}
		d.halted = false
	}
	for i, s := range digits {
		if d.shown != nil && d.shown[i] == s {
			continue
		}
		chip, col := i, i
		if d.o.Wiring == Backpack {
			chip, col = i/4, backpackColumns[i%4]
		} else {
			chip = 0
		}
		if err := d.chips[chip].WriteColumn(col, uint16(s)); err != nil {
			d.shown = nil
			return fmt.Errorf("ht16k33 %#02x: write digit %d: %w", d.o.Addr+uint16(chip), i+1, err)
		}
		if d.shown != nil {
			d.shown[i] = s
		}
	}
	if d.shown == nil {
		d.shown = append([]segment.Digit(nil), digits...)
	}
	return nil
}

// Halt clears the display RAM, turns the display off and puts the chips in
// standby; the next WriteDigits wakes them.
func (d *Dev) Halt() error {
	if err := d.clear(); err != nil {
		return err
	}
	for i := range d.chips {
		if err := d.command(i, cmdDisplayOff, cmdStandby); err != nil {
			return err
		}
	}
	d.halted = true
	return nil
}

// clear writes the whole 16-byte display RAM of every chip in one
// transfer each.
func (d *Dev) clear() error {
	for i := range d.chips {
		dev := i2c.Dev{Bus: d.bus, Addr: d.o.Addr + uint16(i)}
		if _, err := dev.Write(make([]byte, 17)); err != nil {
			d.shown = nil
			return fmt.Errorf("ht16k33 %#02x: clear: %w", dev.Addr, err)
		}
	}
	d.shown = make([]segment.Digit, d.o.Digits)
	return nil
}

func (d *Dev) command(chip int, cmds ...byte) error {
	dev := i2c.Dev{Bus: d.bus, Addr: d.o.Addr + uint16(chip)}
	for _, c := range cmds {
		if _, err := dev.Write([]byte{c}); err != nil {
			return fmt.Errorf("ht16k33 %#02x: command %#02x: %w", dev.Addr, c, err)
		}
	}
	return nil
}
