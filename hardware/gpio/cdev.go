package gpio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/warthog618/go-gpiocdev"
)

// Consumer is the name boardcam's lines carry in the kernel (gpioinfo shows
// it).
const Consumer = "boardcam"

// Open opens a GPIO chip of the Linux character device ("gpiochip0",
// "/dev/gpiochip0" or "0"). now stamps the edges of inputs; nil means
// time.Now. Errors say what is missing and how to fix the usual causes.
func Open(name string, now func() time.Time) (Chip, error) {
	if now == nil {
		now = time.Now
	}
	path := ChipPath(name)
	c, err := gpiocdev.NewChip(path, gpiocdev.WithConsumer(Consumer))
	if err != nil {
		return nil, fmt.Errorf("no GPIO chip %s: %w%s", path, err, hint(err))
	}
	return &cdevChip{c: c, name: strings.TrimPrefix(path, "/dev/"), now: now}, nil
}

// hint adds the usual fix to an error opening a device.
func hint(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission) || errors.Is(err, gpiocdev.ErrPermissionDenied):
		return " (add the user to the gpio group: sudo adduser $USER gpio)"
	case errors.Is(err, fs.ErrNotExist):
		return " (not a Raspberry Pi, or the chip has another name: see gpiodetect)"
	}
	return ""
}

type cdevChip struct {
	c    *gpiocdev.Chip
	name string
	now  func() time.Time
}

func (c *cdevChip) Name() string { return c.name }

func (c *cdevChip) offset(line string) (int, error) {
	off, ok, err := ParseLine(line)
	if err != nil {
		return 0, err
	}
	if !ok {
		off, err = c.c.FindLine(strings.TrimSpace(line))
		if err != nil {
			return 0, fmt.Errorf("GPIO line %q: no line of that name on %s", line, c.name)
		}
	}
	if off >= c.c.Lines() {
		return 0, fmt.Errorf("GPIO line %q: %s has lines 0 to %d", line, c.name, c.c.Lines()-1)
	}
	return off, nil
}

func level(activeLow bool) gpiocdev.LevelOption {
	if activeLow {
		return gpiocdev.AsActiveLow
	}
	return gpiocdev.AsActiveHigh
}

func bias(b Bias) gpiocdev.LineBias {
	switch b {
	case BiasPullUp:
		return gpiocdev.WithPullUp
	case BiasPullDown:
		return gpiocdev.WithPullDown
	case BiasDisabled:
		return gpiocdev.WithBiasDisabled
	}
	return gpiocdev.WithBiasAsIs
}

func (c *cdevChip) Output(line string, o LineOptions) (Output, error) {
	off, err := c.offset(line)
	if err != nil {
		return nil, err
	}
	l, err := c.c.RequestLine(off, level(o.ActiveLow), gpiocdev.AsOutput(0))
	if err != nil {
		return nil, fmt.Errorf("request %s line %d (%s) as output: %w%s", c.name, off, line, err, busyHint(err))
	}
	return &cdevLine{l: l}, nil
}

func (c *cdevChip) Input(line string, o LineOptions, edge func(Edge)) (Input, error) {
	off, err := c.offset(line)
	if err != nil {
		return nil, err
	}
	opts := []gpiocdev.LineReqOption{level(o.ActiveLow), gpiocdev.WithBothEdges,
		gpiocdev.WithEventHandler(func(e gpiocdev.LineEvent) {
			edge(Edge{Active: e.Type == gpiocdev.LineEventRisingEdge, At: c.now()})
		})}
	if o.Bias != BiasAsIs {
		opts = append(opts, bias(o.Bias))
	}
	l, err := c.c.RequestLine(off, opts...)
	if err != nil {
		return nil, fmt.Errorf("request %s line %d (%s) as input: %w%s", c.name, off, line, err, busyHint(err))
	}
	return &cdevLine{l: l}, nil
}

func busyHint(err error) string {
	if errors.Is(err, os.ErrPermission) {
		return " (add the user to the gpio group)"
	}
	if strings.Contains(err.Error(), "busy") {
		return " (the line is used by another program or a device-tree overlay)"
	}
	return ""
}

func (c *cdevChip) Close() error { return c.c.Close() }

type cdevLine struct{ l *gpiocdev.Line }

func (l *cdevLine) Set(active bool) error {
	v := 0
	if active {
		v = 1
	}
	return l.l.SetValue(v)
}

func (l *cdevLine) Active() (bool, error) {
	v, err := l.l.Value()
	return v == 1, err
}

func (l *cdevLine) Close() error { return l.l.Close() }
