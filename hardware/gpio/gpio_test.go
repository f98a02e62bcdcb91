package gpio_test

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/hardware/gpio/gpiotest"
)

func TestParseLine(t *testing.T) {
	for _, c := range []struct {
		in  string
		off int
		ok  bool
		err string
	}{
		{"GPIO17", 17, true, ""},
		{"gpio17", 17, true, ""},
		{"BCM27", 27, true, ""},
		{"17", 17, true, ""},
		{" 4 ", 4, true, ""},
		{"PIN11", 17, true, ""},
		{"pin 12", 18, true, ""},
		{"P1-40", 21, true, ""},
		{"PIN3", 2, true, ""},
		{"STATUS_LED", 0, false, ""},
		{"GPIO", 0, false, ""},
		{"PIN2", 0, false, "pin 2 is 5V"},
		{"PIN39", 0, false, "pin 39 is GND"},
		{"PIN41", 0, false, "pins 1 to 40"},
		{"PINx", 0, false, "not a number"},
		{"", 0, false, "empty"},
	} {
		off, ok, err := gpio.ParseLine(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseLine(%q) error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || off != c.off || ok != c.ok {
			t.Errorf("ParseLine(%q) = %d, %v, %v; want %d, %v", c.in, off, ok, err, c.off, c.ok)
		}
	}
}

func TestHeader(t *testing.T) {
	gpios := 0
	for i, p := range gpio.Header[1:] {
		if p.Physical != i+1 {
			t.Errorf("Header[%d].Physical = %d", i+1, p.Physical)
		}
		if p.BCM >= 0 {
			gpios++
			if back, ok := gpio.PinOf(p.BCM); !ok || back.Physical != p.Physical {
				t.Errorf("PinOf(%d) = %v", p.BCM, back)
			}
		}
	}
	if gpios != 28 {
		t.Errorf("%d GPIOs on the header, want 28 (GPIO0–GPIO27)", gpios)
	}
	if p := gpio.Header[19]; p.Name != "GPIO10" || p.Function != "SPI0 MOSI" {
		t.Errorf("pin 19 = %+v", p)
	}
	if _, ok := gpio.PinOf(40); ok {
		t.Error("GPIO40 is not on the header")
	}
}

func TestParseBiasAndChipPath(t *testing.T) {
	for in, want := range map[string]gpio.Bias{"up": gpio.BiasPullUp, "down": gpio.BiasPullDown, "none": gpio.BiasDisabled, "": gpio.BiasAsIs} {
		if got, err := gpio.ParseBias(in); err != nil || got != want {
			t.Errorf("ParseBias(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := gpio.ParseBias("sideways"); err == nil {
		t.Error("ParseBias accepted sideways")
	}
	for in, want := range map[string]string{"gpiochip0": "/dev/gpiochip0", "4": "/dev/gpiochip4", "/dev/gpiochip1": "/dev/gpiochip1"} {
		if got := gpio.ChipPath(in); got != want {
			t.Errorf("ChipPath(%q) = %q", in, got)
		}
	}
}

// Without a GPIO chip (as on a laptop or a CI runner) Open says what is
// missing.
func TestOpenMissingChip(t *testing.T) {
	_, err := gpio.Open("gpiochip97", nil)
	if err == nil {
		t.Skip("this machine has a gpiochip97")
	}
	if !strings.Contains(err.Error(), "no GPIO chip /dev/gpiochip97") {
		t.Errorf("error %q", err)
	}
}

func TestFakeChip(t *testing.T) {
	c := &gpiotest.Chip{Names: map[string]int{"BUZZER": 18}}
	out, err := c.Output("BUZZER", gpio.LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Output("GPIO18", gpio.LineOptions{}); err == nil {
		t.Error("the same line was requested twice")
	}
	if err := out.Set(true); err != nil || !c.Line(18).IsActive() {
		t.Errorf("Set: %v", err)
	}
	if _, err := c.Input("NOPE", gpio.LineOptions{}, nil); err == nil {
		t.Error("unknown name accepted")
	}
	if _, err := c.Input("GPIO60", gpio.LineOptions{}, nil); err == nil {
		t.Error("line 60 accepted on a 54-line chip")
	}
}
