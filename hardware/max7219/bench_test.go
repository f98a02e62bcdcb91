package max7219_test

import (
	"testing"

	"github.com/boardcam/boardcam/display/segment"
	"github.com/boardcam/boardcam/hardware/max7219"
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// discardPort is an SPI port that accepts everything.
type discardPort struct{}

func (discardPort) String() string { return "discard" }
func (discardPort) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) {
	return discardConn{&conntest.Discard{}}, nil
}

type discardConn struct{ *conntest.Discard }

func (discardConn) TxPackets([]spi.Packet) error { return nil }
func (discardConn) Duplex() conn.Duplex          { return conn.Half }

// BenchmarkWriteDigits is the CPU cost of one frame (the bus time is not
// included: 8 transfers of 16 bits per chip at the SPI clock).
func BenchmarkWriteDigits(b *testing.B) {
	d, err := max7219.New(discardPort{}, &max7219.Opts{Chips: 2, Brightness: 8})
	if err != nil {
		b.Fatal(err)
	}
	lit, _ := segment.Text("12- 3- 712- 3- 7")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := d.WriteDigits(lit); err != nil {
			b.Fatal(err)
		}
	}
}
