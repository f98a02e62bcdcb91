package hardware

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/hardware/buttons"
	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/hardware/ht16k33"
	"github.com/boardcam/boardcam/hardware/max7219"
	"github.com/boardcam/boardcam/hardware/signals"
	"gopkg.in/yaml.v3"
	"periph.io/x/conn/v3/physic"
)

// Config is the hardware section of boardcam's configuration file. Every
// section is optional: a device whose section is absent is not used. See
// docs/hardware.md for a full example.
type Config struct {
	MAX7219 *MAX7219Config `yaml:"max7219,omitempty"`
	HT16K33 *HT16K33Config `yaml:"ht16k33,omitempty"`
	GPIO    *GPIOConfig    `yaml:"gpio,omitempty"`
	Blink   BlinkConfig    `yaml:"blink,omitempty"`
}

// MAX7219Config is a scoreboard of 8-digit modules on MAX7219 chips (SPI).
type MAX7219Config struct {
	// Bus is the SPI bus: "SPI0" (default), "0", "/dev/spidev0.0" or
	// "SPI0.1" (with the chip select).
	Bus string `yaml:"bus,omitempty"`
	// ChipSelect is 0 (CE0, default) or 1 (CE1).
	ChipSelect *int `yaml:"chip_select,omitempty"`
	// Cascaded is the number of chips in the chain (default 1).
	Cascaded int `yaml:"cascaded,omitempty"`
	// Brightness is 0 to 15 (default 8).
	Brightness *int `yaml:"brightness,omitempty"`
	// SpeedHz is the SPI clock (default 1 MHz, at most 10 MHz).
	SpeedHz int `yaml:"speed_hz,omitempty"`
	// Layout says which digit shows what (see display.ParseLayout); empty:
	// the default layout on every module.
	Layout string `yaml:"layout,omitempty"`
}

// HT16K33Config is a scoreboard of 7-segment digits on HT16K33 chips (I²C).
type HT16K33Config struct {
	// Bus is the I²C bus: "1" (default), "I2C1" or "/dev/i2c-1".
	Bus string `yaml:"bus,omitempty"`
	// Address is the first chip's address (default 0x70); further
	// backpacks are at the next addresses.
	Address int `yaml:"address,omitempty"`
	// Wiring is "backpack" (Adafruit 4-digit backpacks, default) or "rows".
	Wiring string `yaml:"wiring,omitempty"`
	// Digits is the number of digits (default 8: two backpacks).
	Digits int `yaml:"digits,omitempty"`
	// Brightness is 0 to 15 (default 8).
	Brightness *int `yaml:"brightness,omitempty"`
	// Layout as for the MAX7219.
	Layout string `yaml:"layout,omitempty"`
}

// GPIOConfig is the buzzer, the turn LEDs and the umpire's buttons. Lines
// are named as on a Raspberry Pi: "GPIO17", "BCM17", "17", "PIN11".
type GPIOConfig struct {
	// Chip is the GPIO chip (default "gpiochip0"; "gpiochip4" on a Pi 5
	// with a kernel from before mid-2024).
	Chip string `yaml:"chip,omitempty"`
	// Buzzer is the buzzer's line ("" for none).
	Buzzer          string `yaml:"buzzer,omitempty"`
	BuzzerActiveLow bool   `yaml:"buzzer_active_low,omitempty"`
	// BuzzerPatterns override the patterns, in milliseconds on, off, on …,
	// per alert: foul, queen_pocketed, board_won, match_won.
	BuzzerPatterns map[string][]int `yaml:"buzzer_patterns,omitempty"`
	// TurnLEDs maps seats (S, E, N, W) to lines.
	TurnLEDs      map[string]string `yaml:"turn_leds,omitempty"`
	LEDsActiveLow bool              `yaml:"leds_active_low,omitempty"`
	// Buttons maps commands (confirm, overrule, undo, next_board) to lines.
	Buttons map[string]string `yaml:"buttons,omitempty"`
	// ButtonsActiveLow is true (default) for buttons wired to ground.
	ButtonsActiveLow *bool `yaml:"buttons_active_low,omitempty"`
	// ButtonsPull is "up" (default for active low), "down" (default for
	// active high), "none" or "as-is".
	ButtonsPull string `yaml:"buttons_pull,omitempty"`
	// DebounceMS is how long a button's line must be quiet (default 30).
	DebounceMS int `yaml:"debounce_ms,omitempty"`
	// HoldMS is how long a button must be held, per command (default:
	// next_board 1000, the others 0 = on press).
	HoldMS map[string]int `yaml:"hold_ms,omitempty"`
}

// BlinkConfig times the scoreboards' blinking.
type BlinkConfig struct {
	// PeriodMS is one on+off cycle (default 500).
	PeriodMS int `yaml:"period_ms,omitempty"`
	// FoulMS is how long the scoreboard blinks after a foul (default 3000;
	// -1: until the next state).
	FoulMS int `yaml:"foul_ms,omitempty"`
	// WinMS is how long the winner's fields blink (default 10000; -1: until
	// the next state).
	WinMS int `yaml:"win_ms,omitempty"`
}

// Defaults.
const (
	DefaultChip            = "gpiochip0"
	DefaultBrightness      = 8
	DefaultNextBoardHoldMS = 1000
)

// FieldError is a problem with one field of the configuration.
type FieldError struct {
	// Line is the line in the YAML file (0 when the configuration did not
	// come from YAML).
	Line int
	// Field is the field's path below the hardware section, e.g.
	// "max7219.brightness".
	Field string
	Msg   string
}

func (e *FieldError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s: %s", e.Line, e.Field, e.Msg)
	}
	return e.Field + ": " + e.Msg
}

// plan is a validated configuration with every default applied and every
// name resolved.
type plan struct {
	max    *maxPlan
	ht     *htPlan
	gpio   *gpioPlan
	model  display.Options
	period time.Duration
}

type maxPlan struct {
	port   string
	opts   max7219.Opts
	layout display.Layout
}

type htPlan struct {
	bus    string
	opts   ht16k33.Opts
	layout display.Layout
}

type gpioPlan struct {
	chip       string
	buzzer     string
	buzzerOpts gpio.LineOptions
	patterns   map[display.AlertKind]signals.Pattern
	leds       [4]string
	ledOpts    gpio.LineOptions
	buttons    []buttons.Spec
	buttonOpts gpio.LineOptions
	debounce   time.Duration
}

// Validate checks the configuration and returns every problem found, each
// a *FieldError, joined.
func (c Config) Validate() error {
	_, errs := c.plan()
	return joinFieldErrors(errs)
}

func joinFieldErrors(errs []*FieldError) error {
	if len(errs) == 0 {
		return nil
	}
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return errors.Join(out...)
}

// plan checks the configuration and works out what to open, one device
// at a time: every problem found is a FieldError, in the order of the
// configuration file.
func (c Config) plan() (*plan, []*FieldError) {
	pl := &planner{p: &plan{}}
	if m := c.MAX7219; m != nil {
		pl.p.max = pl.max7219(m)
	}
	if h := c.HT16K33; h != nil {
		pl.p.ht = pl.ht16k33(h)
	}
	// After the buses: a GPIO line must not be one of their pins.
	if g := c.GPIO; g != nil {
		pl.p.gpio = pl.gpio(g)
	}
	pl.blink(c.Blink)
	return pl.p, pl.errs
}

// planner collects the plan and the problems found on the way.
type planner struct {
	p    *plan
	errs []*FieldError
}

func (pl *planner) bad(field, format string, a ...any) {
	pl.errs = append(pl.errs, &FieldError{Field: field, Msg: fmt.Sprintf(format, a...)})
}

func (pl *planner) brightness(field string, b *int) int {
	if b == nil {
		return DefaultBrightness
	}
	if *b < 0 || *b > 15 {
		pl.bad(field, "%d is out of range 0–15", *b)
	}
	return *b
}

func (pl *planner) layout(field, s string) display.Layout {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	l, err := display.ParseLayout(s)
	if err != nil {
		pl.bad(field, "%v", err)
	}
	return l
}

func (pl *planner) fitLayout(field string, l display.Layout, digits int) {
	if _, err := l.Fit(digits); err != nil && len(l) > 0 {
		pl.bad(field, "%v", err)
	}
}

// max7219 plans the SPI scoreboard.
func (pl *planner) max7219(m *MAX7219Config) *maxPlan {
	mp := &maxPlan{opts: max7219.Opts{Chips: 1, Speed: max7219.DefaultSpeed}}
	port, err := spiPortName(m.Bus, m.ChipSelect)
	if err != nil {
		pl.bad("max7219.bus", "%v", err)
	}
	mp.port = port
	if m.Cascaded != 0 {
		if m.Cascaded < 1 || m.Cascaded > 8 {
			pl.bad("max7219.cascaded", "%d chips, want 1 to 8", m.Cascaded)
		}
		mp.opts.Chips = m.Cascaded
	}
	mp.opts.Brightness = pl.brightness("max7219.brightness", m.Brightness)
	if m.SpeedHz != 0 {
		if m.SpeedHz < 10_000 || m.SpeedHz > 10_000_000 {
			pl.bad("max7219.speed_hz", "%d Hz, want 10000 to 10000000 (the chip's maximum)", m.SpeedHz)
		}
		mp.opts.Speed = physic.Frequency(m.SpeedHz) * physic.Hertz
	}
	mp.layout = pl.layout("max7219.layout", m.Layout)
	pl.fitLayout("max7219.layout", mp.layout, mp.opts.Chips*max7219.DigitsPerChip)
	return mp
}

// ht16k33 plans the I²C scoreboard.
func (pl *planner) ht16k33(h *HT16K33Config) *htPlan {
	hp := &htPlan{opts: ht16k33.DefaultOpts}
	bus, err := i2cBusName(h.Bus)
	if err != nil {
		pl.bad("ht16k33.bus", "%v", err)
	}
	hp.bus = bus
	if h.Address != 0 {
		hp.opts.Addr = uint16(h.Address)
	}
	w, err := ht16k33.ParseWiring(h.Wiring)
	if err != nil {
		pl.bad("ht16k33.wiring", "%v", err)
	}
	hp.opts.Wiring = w
	if h.Digits != 0 {
		hp.opts.Digits = h.Digits
	}
	chips := 1
	switch {
	case w == ht16k33.Backpack && (hp.opts.Digits < 4 || hp.opts.Digits%4 != 0 || hp.opts.Digits > 32):
		pl.bad("ht16k33.digits", "%d digits, want a multiple of 4 (one backpack per 4 digits) up to 32", hp.opts.Digits)
	case w == ht16k33.Backpack:
		chips = hp.opts.Digits / 4
	case w == ht16k33.Rows && (hp.opts.Digits < 1 || hp.opts.Digits > 8):
		pl.bad("ht16k33.digits", "%d digits, want 1 to 8 on one chip", hp.opts.Digits)
	}
	if a := int(hp.opts.Addr); a < 0x70 || a+chips-1 > 0x77 {
		span := fmt.Sprintf("%#02x", a)
		if chips > 1 {
			span = fmt.Sprintf("%#02x to %#02x (%d backpacks)", a, a+chips-1, chips)
		}
		pl.bad("ht16k33.address", "%s: the HT16K33 answers at 0x70 to 0x77", span)
	}
	hp.opts.Brightness = pl.brightness("ht16k33.brightness", h.Brightness)
	hp.layout = pl.layout("ht16k33.layout", h.Layout)
	pl.fitLayout("ht16k33.layout", hp.layout, hp.opts.Digits)
	return hp
}

// gpio plans the buzzer, the turn LEDs and the buttons, each line used
// once and none on a configured bus's pins.
func (pl *planner) gpio(g *GPIOConfig) *gpioPlan {
	p := pl.p
	gp := &gpioPlan{chip: g.Chip, buzzer: strings.TrimSpace(g.Buzzer), patterns: map[display.AlertKind]signals.Pattern{}}
	if gp.chip == "" {
		gp.chip = DefaultChip
	}
	used := map[int]string{} // line offset → field
	line := func(field, name string) string {
		name = strings.TrimSpace(name)
		off, ok, err := gpio.ParseLine(name)
		if err != nil {
			pl.bad(field, "%v", err)
			return name
		}
		if !ok {
			return name // a line name, looked up on the chip at Open
		}
		if prev, dup := used[off]; dup {
			pl.bad(field, "GPIO%d is also %s", off, prev)
		}
		used[off] = field
		if conflict := busPinConflict(off, p); conflict != "" {
			pl.bad(field, "GPIO%d is %s", off, conflict)
		}
		return name
	}
	if gp.buzzer != "" {
		line("gpio.buzzer", gp.buzzer)
	}
	gp.buzzerOpts.ActiveLow = g.BuzzerActiveLow
	for _, name := range sortedKeys(g.BuzzerPatterns) {
		field := "gpio.buzzer_patterns." + name
		k, err := display.ParseAlertKind(name)
		if err != nil {
			pl.bad(field, "%v", err)
			continue
		}
		pat := signals.PatternMS(g.BuzzerPatterns[name]...)
		if err := pat.Validate(); err != nil {
			pl.bad(field, "%v", err)
			continue
		}
		gp.patterns[k] = pat
	}
	for _, name := range sortedKeys(g.TurnLEDs) {
		field := "gpio.turn_leds." + name
		seat, err := board.ParseSide(name)
		if err != nil {
			pl.bad(field, "unknown seat %q (want S, E, N or W)", name)
			continue
		}
		if gp.leds[seat] != "" {
			pl.bad(field, "seat %s is given twice", seat)
			continue
		}
		gp.leds[seat] = line(field, g.TurnLEDs[name])
	}
	gp.ledOpts.ActiveLow = g.LEDsActiveLow
	pl.buttons(g, gp, line)
	return gp
}

// buttons plans the buttons: their commands, hold times, lines (named
// through line), pull and debounce.
func (pl *planner) buttons(g *GPIOConfig, gp *gpioPlan, line func(field, name string) string) {
	for _, name := range sortedKeys(g.HoldMS) {
		if _, err := buttons.ParseCommand(name); err != nil {
			pl.bad("gpio.hold_ms."+name, "%v", err)
		} else if v := g.HoldMS[name]; v < 0 || v > 10000 {
			pl.bad("gpio.hold_ms."+name, "%d ms, want 0 to 10000", v)
		}
	}
	for _, name := range sortedKeys(g.Buttons) {
		field := "gpio.buttons." + name
		cmd, err := buttons.ParseCommand(name)
		if err != nil {
			pl.bad(field, "%v", err)
			continue
		}
		hold, set := g.HoldMS[cmd.String()]
		if !set && cmd == buttons.NextBoard {
			hold = DefaultNextBoardHoldMS
		}
		gp.buttons = append(gp.buttons, buttons.Spec{Command: cmd, Line: line(field, g.Buttons[name]), Hold: time.Duration(hold) * time.Millisecond})
	}
	activeLow := true
	if g.ButtonsActiveLow != nil {
		activeLow = *g.ButtonsActiveLow
	}
	gp.buttonOpts.ActiveLow = activeLow
	gp.buttonOpts.Bias = gpio.BiasPullDown
	if activeLow {
		gp.buttonOpts.Bias = gpio.BiasPullUp
	}
	if g.ButtonsPull != "" {
		b, err := gpio.ParseBias(g.ButtonsPull)
		if err != nil {
			pl.bad("gpio.buttons_pull", "%v", err)
		}
		gp.buttonOpts.Bias = b
	}
	gp.debounce = buttons.DefaultDebounce
	if g.DebounceMS != 0 {
		if g.DebounceMS < 1 || g.DebounceMS > 1000 {
			pl.bad("gpio.debounce_ms", "%d ms, want 1 to 1000", g.DebounceMS)
		}
		gp.debounce = time.Duration(g.DebounceMS) * time.Millisecond
	}
}

// blink plans the blinking of the scoreboards.
func (pl *planner) blink(b BlinkConfig) {
	p := pl.p
	p.period = display.DefaultBlinkPeriod
	if b.PeriodMS != 0 {
		if b.PeriodMS < 100 || b.PeriodMS > 5000 {
			pl.bad("blink.period_ms", "%d ms, want 100 to 5000", b.PeriodMS)
		}
		p.period = time.Duration(b.PeriodMS) * time.Millisecond
	}
	blinkFor := func(field string, v int) time.Duration {
		switch {
		case v == 0:
			return 0 // the display package's default
		case v == -1:
			return -1
		case v < -1 || v > 600_000:
			pl.bad(field, "%d ms, want 1 to 600000, or -1 for until the next state", v)
		}
		return time.Duration(v) * time.Millisecond
	}
	p.model = display.Options{FoulBlink: blinkFor("blink.foul_ms", b.FoulMS), WinBlink: blinkFor("blink.win_ms", b.WinMS)}
}

// busPinConflict says which bus pin a GPIO is when that bus is configured.
func busPinConflict(off int, p *plan) string {
	if p.max != nil && strings.HasPrefix(p.max.port, "/dev/spidev0.") {
		switch off {
		case 8, 7, 9, 10, 11:
			pin, _ := gpio.PinOf(off)
			return pin.Function + ", used by the MAX7219"
		}
	}
	if p.ht != nil && p.ht.bus == "/dev/i2c-1" && (off == 2 || off == 3) {
		pin, _ := gpio.PinOf(off)
		return pin.Function + ", used by the HT16K33"
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var (
	spiName = regexp.MustCompile(`^(?i)(?:/dev/spidev|spi)?(\d+)(?:\.(\d+))?$`)
	i2cName = regexp.MustCompile(`^(?i)(?:/dev/i2c-|i2c-?)?(\d+)$`)
)

// spiPortName turns a bus name and chip select into "/dev/spidevB.C".
func spiPortName(bus string, cs *int) (string, error) {
	bus = strings.TrimSpace(bus)
	if bus == "" {
		bus = "SPI0"
	}
	m := spiName.FindStringSubmatch(bus)
	if m == nil {
		return "", fmt.Errorf("%q is not an SPI bus (want SPI0, 0, /dev/spidev0.0 or SPI0.1)", bus)
	}
	sel := 0
	if m[2] != "" {
		sel, _ = strconv.Atoi(m[2])
		if cs != nil && *cs != sel {
			return "", fmt.Errorf("%q names chip select %d but chip_select is %d", bus, sel, *cs)
		}
	} else if cs != nil {
		sel = *cs
	}
	if sel < 0 || sel > 2 {
		return "", fmt.Errorf("chip select %d, want 0 or 1 (2 on SPI1)", sel)
	}
	return fmt.Sprintf("/dev/spidev%s.%d", m[1], sel), nil
}

// i2cBusName turns a bus name into "/dev/i2c-N".
func i2cBusName(bus string) (string, error) {
	bus = strings.TrimSpace(bus)
	if bus == "" {
		bus = "1"
	}
	m := i2cName.FindStringSubmatch(bus)
	if m == nil {
		return "", fmt.Errorf("%q is not an I2C bus (want 1, I2C1 or /dev/i2c-1)", bus)
	}
	return "/dev/i2c-" + m[1], nil
}

// UnmarshalYAML decodes the section, rejects unknown keys and validates
// it; errors carry the YAML line of the field (the daemon adds the file
// name).
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	type plain Config
	var v plain
	if errs := unknownKeys(n, reflect.TypeOf(v), ""); len(errs) > 0 {
		return joinFieldErrors(errs)
	}
	if err := n.Decode(&v); err != nil {
		return err
	}
	_, errs := Config(v).plan()
	for _, e := range errs {
		e.Line = lineOf(n, e.Field)
	}
	if err := joinFieldErrors(errs); err != nil {
		return err
	}
	*c = Config(v)
	return nil
}

// unknownKeys lists the keys of mapping node n that are not yaml fields of
// struct type t (recursively into struct fields; maps are free-form).
func unknownKeys(n *yaml.Node, t reflect.Type, prefix string) []*FieldError {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind != yaml.MappingNode || t.Kind() != reflect.Struct {
		return nil
	}
	fields := map[string]reflect.Type{}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			fields[name] = t.Field(i).Type
			names = append(names, name)
		}
	}
	var errs []*FieldError
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		ft, ok := fields[k.Value]
		if !ok {
			errs = append(errs, &FieldError{Line: k.Line, Field: prefix + k.Value, Msg: "unknown setting (known: " + strings.Join(names, ", ") + ")"})
			continue
		}
		errs = append(errs, unknownKeys(v, ft, prefix+k.Value+".")...)
	}
	return errs
}

// lineOf finds the line of a dotted field path in mapping node n (the
// deepest key found).
func lineOf(n *yaml.Node, path string) int {
	line := n.Line
	for _, key := range strings.Split(path, ".") {
		if n.Kind != yaml.MappingNode {
			return line
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line, n, found = n.Content[i+1].Line, n.Content[i+1], true
				break
			}
		}
		if !found {
			return line
		}
	}
	return line
}
