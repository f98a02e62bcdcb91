package gpio

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Output is an output line.
type Output interface {
	// Set drives the line active (true) or inactive (false); the chip
	// layer takes care of active-low wiring.
	Set(active bool) error
	Close() error
}

// Input is an input line requested with edge detection: its edges go to
// the handler given to Chip.Input.
type Input interface {
	// Active reads the line's current state.
	Active() (bool, error)
	Close() error
}

// Edge is a change of an input's active state.
type Edge struct {
	Active bool
	// At is when the edge was seen.
	At time.Time
}

// Bias is an input's pull resistor.
type Bias uint8

// The biases.
const (
	BiasAsIs Bias = iota // leave as the firmware set it
	BiasPullUp
	BiasPullDown
	BiasDisabled
)

func (b Bias) String() string {
	switch b {
	case BiasAsIs:
		return "as-is"
	case BiasPullUp:
		return "up"
	case BiasPullDown:
		return "down"
	case BiasDisabled:
		return "none"
	}
	return fmt.Sprintf("Bias(%d)", int(b))
}

// ParseBias reads "up", "down", "none" or "as-is".
func ParseBias(s string) (Bias, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "up", "pull-up", "pullup":
		return BiasPullUp, nil
	case "down", "pull-down", "pulldown":
		return BiasPullDown, nil
	case "none", "off", "disabled":
		return BiasDisabled, nil
	case "as-is", "asis", "":
		return BiasAsIs, nil
	}
	return 0, fmt.Errorf("unknown pull %q (want up, down, none or as-is)", s)
}

// LineOptions configure a requested line.
type LineOptions struct {
	// ActiveLow inverts the line: active means low (LEDs wired to 3V3,
	// buttons wired to ground).
	ActiveLow bool
	// Bias is the pull resistor of an input.
	Bias Bias
}

// Chip is a GPIO chip: it hands out lines by name.
type Chip interface {
	// Name is the chip's name, e.g. "gpiochip0".
	Name() string
	// Output requests a line as an output, initially inactive.
	Output(line string, o LineOptions) (Output, error)
	// Input requests a line as an input reporting both edges to edge,
	// which is called from the chip's event goroutine and must return
	// quickly.
	Input(line string, o LineOptions, edge func(Edge)) (Input, error)
	// Close releases the chip (lines stay requested until closed).
	Close() error
}

// Pin is one pin of the Raspberry Pi's 40-pin header.
type Pin struct {
	// Physical is the pin number on the header, 1 to 40.
	Physical int
	// BCM is the Broadcom GPIO number, -1 for power and ground pins.
	BCM int
	// Name is "GPIO17", "3V3", "5V" or "GND".
	Name string
	// Function notes the pin's usual alternate function ("SPI0 MOSI").
	Function string
}

// Header is the Raspberry Pi's 40-pin header (all models since the B+,
// including the Pi 4 and Pi 5), indexed by physical pin number (Header[0]
// is unused).
var Header = func() [41]Pin {
	var h [41]Pin
	power := map[int]string{1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
	for _, p := range []int{6, 9, 14, 20, 25, 30, 34, 39} {
		power[p] = "GND"
	}
	bcm := map[int]int{
		3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24,
		19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12,
		33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
	}
	functions := map[int]string{
		2: "I2C1 SDA", 3: "I2C1 SCL", 4: "GPCLK0", 14: "UART TX", 15: "UART RX", 18: "PCM CLK / PWM0",
		10: "SPI0 MOSI", 9: "SPI0 MISO", 11: "SPI0 SCLK", 8: "SPI0 CE0", 7: "SPI0 CE1",
		0: "ID_SD (HAT EEPROM)", 1: "ID_SC (HAT EEPROM)", 12: "PWM0", 13: "PWM1", 19: "PCM FS / SPI1 MISO",
		16: "SPI1 CE2", 20: "PCM DIN / SPI1 MOSI", 21: "PCM DOUT / SPI1 SCLK",
	}
	for i := 1; i <= 40; i++ {
		if n, ok := power[i]; ok {
			h[i] = Pin{Physical: i, BCM: -1, Name: n}
			continue
		}
		g := bcm[i]
		h[i] = Pin{Physical: i, BCM: g, Name: fmt.Sprintf("GPIO%d", g), Function: functions[g]}
	}
	return h
}()

// PinOf returns the header pin of a Broadcom GPIO number, and false when
// the number is not on the header.
func PinOf(bcm int) (Pin, bool) {
	for _, p := range Header[1:] {
		if p.BCM == bcm {
			return p, true
		}
	}
	return Pin{}, false
}

// ParseLine reads a Raspberry Pi line name: "GPIO17", "BCM17", "17",
// "PIN11", "P1-11" or "pin 11" give offset 17 and ok. A name of another
// form gives ok false (a line name to look up on the chip); a malformed
// number or a physical pin that is power or ground is an error.
func ParseLine(name string) (offset int, ok bool, err error) {
	s := strings.ToUpper(strings.Join(strings.Fields(name), ""))
	if s == "" {
		return 0, false, fmt.Errorf("empty GPIO line name")
	}
	num := func(digits string) (int, error) {
		n, err := strconv.Atoi(digits)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("GPIO line %q: %q is not a number", name, digits)
		}
		return n, nil
	}
	for _, prefix := range []string{"PIN", "P1-"} {
		if d, found := strings.CutPrefix(s, prefix); found {
			n, err := num(d)
			if err != nil {
				return 0, false, err
			}
			if n < 1 || n > 40 {
				return 0, false, fmt.Errorf("GPIO line %q: the header has pins 1 to 40", name)
			}
			if p := Header[n]; p.BCM < 0 {
				return 0, false, fmt.Errorf("GPIO line %q: pin %d is %s, not a GPIO", name, n, p.Name)
			}
			return Header[n].BCM, true, nil
		}
	}
	for _, prefix := range []string{"GPIO", "BCM", ""} {
		if d, found := strings.CutPrefix(s, prefix); found {
			if d == "" || strings.Trim(d, "0123456789") != "" {
				continue
			}
			n, err := num(d)
			if err != nil {
				return 0, false, err
			}
			return n, true, nil
		}
	}
	return 0, false, nil
}

// ChipPath turns "gpiochip0", "/dev/gpiochip0" or "0" into
// "/dev/gpiochip0".
func ChipPath(name string) string {
	name = strings.TrimSpace(name)
	if _, err := strconv.Atoi(name); err == nil {
		return "/dev/gpiochip" + name
	}
	if strings.HasPrefix(name, "/") {
		return name
	}
	return "/dev/" + name
}
