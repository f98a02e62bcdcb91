package max7219

import (
	"fmt"

	"github.com/boardcam/boardcam/display/segment"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	pmax "periph.io/x/devices/v3/max7219"
)

// Register addresses (datasheet table 2).
const (
	regShutdown = 0x0C
)

// DigitsPerChip is what one MAX7219 drives.
const DigitsPerChip = 8

// Opts configure a chain of MAX7219 chips.
type Opts struct {
	// Chips is the number of cascaded chips (1 to 8).
	Chips int
	// Brightness is the intensity, 0 (1/32 duty) to 15 (31/32 duty).
	Brightness int
	// Speed is the SPI clock; 0 means DefaultSpeed. It is capped at the
	// chip's 10 MHz.
	Speed physic.Frequency
}

// DefaultSpeed is the SPI clock used when Opts.Speed is 0.
const DefaultSpeed = physic.MegaHertz

// DefaultOpts is one chip at medium brightness.
var DefaultOpts = Opts{Chips: 1, Brightness: 8, Speed: DefaultSpeed}

// Dev is a scoreboard on a chain of MAX7219 chips. It implements
// display.Panel. It is not safe for concurrent use: display.PanelSink
// calls it from one goroutine.
type Dev struct {
	name   string
	dev    *pmax.Dev
	port   *port
	chips  int
	halted bool
}

// New initialises the chips on the SPI port p: normal operation, scan of
// all eight digits, no decoding, the brightness, every digit blank. With a
// nil opts it uses DefaultOpts.
func New(p spi.Port, opts *Opts) (*Dev, error) {
	o := DefaultOpts
	if opts != nil {
		o = *opts
	}
	if o.Chips < 1 || o.Chips > 8 {
		return nil, fmt.Errorf("max7219: %d cascaded chips, want 1 to 8", o.Chips)
	}
	if o.Brightness < 0 || o.Brightness > 15 {
		return nil, fmt.Errorf("max7219: brightness %d, want 0 to 15", o.Brightness)
	}
	if o.Speed <= 0 {
		o.Speed = DefaultSpeed
	}
	if o.Speed > 10*physic.MegaHertz {
		o.Speed = 10 * physic.MegaHertz
	}
	wp := &port{Port: p, speed: o.Speed}
	pd, err := pmax.NewSPI(wp, o.Chips, DigitsPerChip)
	if err != nil {
		return nil, err // already says "max7219: …"
	}
	if err := wp.conn.firstErr(); err != nil {
		return nil, fmt.Errorf("max7219: initialise: %w", err)
	}
	d := &Dev{name: p.String(), dev: pd, port: wp, chips: o.Chips}
	if err := pd.SetDecode(pmax.DecodeNone); err != nil {
		return nil, fmt.Errorf("max7219: set no-decode mode: %w", err)
	}
	if err := d.SetBrightness(o.Brightness); err != nil {
		return nil, err
	}
	if err := d.WriteDigits(make([]segment.Digit, d.Digits())); err != nil {
		return nil, err
	}
	return d, nil
}

// String names the device and its port.
func (d *Dev) String() string { return fmt.Sprintf("max7219 ×%d on %s", d.chips, d.name) }

// Digits is 8 per chip.
func (d *Dev) Digits() int { return d.chips * DigitsPerChip }

// SetBrightness sets the intensity of every chip, 0 to 15.
func (d *Dev) SetBrightness(b int) error {
	if b < 0 || b > 15 {
		return fmt.Errorf("max7219: brightness %d, want 0 to 15", b)
	}
	if err := d.dev.SetIntensity(byte(b)); err != nil {
		return fmt.Errorf("max7219: set brightness: %w", err)
	}
	return nil
}

// WriteDigits shows digits[0] on the leftmost digit of chip 0 through
// digits[Digits()-1] on the rightmost digit of the last chip. After Halt it
// first wakes the chips from shutdown.
func (d *Dev) WriteDigits(digits []segment.Digit) error {
	if len(digits) != d.Digits() {
		return fmt.Errorf("max7219: %d digits given, the chain has %d", len(digits), d.Digits())
	}
	if d.halted {
		if err := d.shutdown(false); err != nil {
			return err
		}
		d.halted = false
	}
	units := make([][]byte, d.chips)
	for u := range units {
		units[u] = make([]byte, DigitsPerChip)
		for i := range units[u] {
			units[u][i] = Raw(digits[u*DigitsPerChip+i])
		}
	}
	if err := d.dev.WriteCascadedUnits(units); err != nil {
		return fmt.Errorf("max7219: write digits: %w", err)
	}
	return nil
}

// Halt blanks every digit and puts the chips in shutdown mode (a few µA);
// the next WriteDigits wakes them.
func (d *Dev) Halt() error {
	if err := d.WriteDigits(make([]segment.Digit, d.Digits())); err != nil {
		return err
	}
	if err := d.shutdown(true); err != nil {
		return err
	}
	d.halted = true
	return nil
}

func (d *Dev) shutdown(on bool) error {
	v := byte(1)
	if on {
		v = 0
	}
	w := make([]byte, 0, 2*d.chips)
	for i := 0; i < d.chips; i++ {
		w = append(w, regShutdown, v)
	}
	if err := d.port.conn.Tx(w, nil); err != nil {
		return fmt.Errorf("max7219: shutdown register: %w", err)
	}
	return nil
}

// Raw converts boardcam's segment bits ("gfedcba", bit 7 the decimal
// point) to the MAX7219's undecoded digit register ("DP A B C D E F G",
// datasheet table 6).
func Raw(s segment.Digit) byte {
	var b byte
	if s&segment.DP != 0 {
		b |= 0x80
	}
	for i, seg := range [...]segment.Digit{segment.A, segment.B, segment.C, segment.D, segment.E, segment.F, segment.G} {
		if s&seg != 0 {
			b |= 0x40 >> i
		}
	}
	return b
}

// port caps the SPI clock that periph's driver asks for and keeps the
// connection, so that errors it swallows during initialisation are seen.
type port struct {
	spi.Port
	speed physic.Frequency
	conn  *conn
}

func (p *port) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	if f > p.speed {
		f = p.speed
	}
	c, err := p.Port.Connect(f, mode, bits)
	if err != nil {
		return nil, err
	}
	p.conn = &conn{Conn: c}
	return p.conn, nil
}

// conn remembers the first error of any transfer.
type conn struct {
	spi.Conn
	err error
}

func (c *conn) Tx(w, r []byte) error {
	err := c.Conn.Tx(w, r)
	if err != nil && c.err == nil {
		c.err = err
	}
	return err
}

func (c *conn) firstErr() error {
	if c == nil {
		return nil
	}
	return c.err
}
