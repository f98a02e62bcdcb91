package hardware_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/hardware"
	"gopkg.in/yaml.v3"
)

// daemonConfig is how the daemon's configuration file embeds the section.
type daemonConfig struct {
	Camera   string          `yaml:"camera"`
	Hardware hardware.Config `yaml:"hardware"`
}

func decode(t *testing.T, src string) (daemonConfig, error) {
	t.Helper()
	var c daemonConfig
	err := yaml.Unmarshal([]byte(src), &c)
	return c, err
}

// The example of docs/hardware.md must decode and validate.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "hardware.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	if !ok {
		t.Fatal("docs/hardware.md has no ```yaml block")
	}
	block, _, _ := strings.Cut(rest, "```")
	c, err := decode(t, block)
	if err != nil {
		t.Fatalf("docs example: %v", err)
	}
	h := c.Hardware
	if h.MAX7219 == nil || h.HT16K33 == nil || h.GPIO == nil {
		t.Fatalf("docs example lacks a section: %+v", h)
	}
	if h.HT16K33.Address != 0x70 || h.GPIO.TurnLEDs["N"] != "GPIO22" || h.GPIO.Buttons["next_board"] != "GPIO19" {
		t.Errorf("decoded %+v %+v", h.HT16K33, h.GPIO)
	}
}

func TestConfigErrorsCarryLines(t *testing.T) {
	src := `camera: /dev/video0
hardware:
  max7219:
    bus: SPI0
    brightness: 17
    layout: "score_a:2 board:2 score_b:2 men_a:4"
  ht16k33:
    address: 0x78
    digits: 6
  gpio:
    buzzer: GPIO10
    turn_leds:
      S: GPIO17
      X: GPIO27
      N: GPIO17
    buttons:
      confirm: PIN2
      reset: GPIO6
    hold_ms:
      next_board: -5
    buttons_pull: sideways
  blink:
    foul_ms: -7
`
	_, err := decode(t, src)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		"line 5: max7219.brightness: 17 is out of range 0–15",
		"line 6: max7219.layout: layout \"score_a:2 board:2 score_b:2 men_a:4\" needs 10 digits, the panel has 8",
		"line 8: ht16k33.address: 0x78: the HT16K33 answers at 0x70 to 0x77",
		"line 9: ht16k33.digits: 6 digits, want a multiple of 4",
		"line 11: gpio.buzzer: GPIO10 is SPI0 MOSI, used by the MAX7219",
		"line 13: gpio.turn_leds.S: GPIO17 is also gpio.turn_leds.N",
		"line 14: gpio.turn_leds.X: unknown seat \"X\"",
		"line 17: gpio.buttons.confirm: GPIO line \"PIN2\": pin 2 is 5V, not a GPIO",
		"line 18: gpio.buttons.reset: unknown button \"reset\"",
		"line 20: gpio.hold_ms.next_board: -5 ms",
		"line 21: gpio.buttons_pull: unknown pull \"sideways\"",
		"line 23: blink.foul_ms: -7 ms",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q", want)
		}
	}
	var fe *hardware.FieldError
	if !errors.As(err, &fe) || fe.Line == 0 {
		t.Errorf("not a FieldError with a line: %#v", err)
	}
}

func TestUnknownKeys(t *testing.T) {
	_, err := decode(t, "hardware:\n  max7219:\n    brightnes: 3\n  gpoi: {}\n")
	if err == nil {
		t.Fatal("accepted misspelt keys")
	}
	for _, want := range []string{"line 3: max7219.brightnes: unknown setting (known: bus, chip_select", "line 4: gpoi: unknown setting"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestValidateDefaults(t *testing.T) {
	if err := (hardware.Config{}).Validate(); err != nil {
		t.Errorf("empty config: %v", err)
	}
	c, err := decode(t, "hardware:\n  max7219: {}\n  ht16k33: {}\n  gpio: {buttons: {confirm: GPIO5}}\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Hardware.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	bad := hardware.Config{MAX7219: &hardware.MAX7219Config{Cascaded: 9}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "max7219.cascaded: 9 chips") {
		t.Errorf("Validate: %v", err)
	}
}
