package ht16k33_test

import (
	"testing"

	"github.com/boardcam/boardcam/display/segment"
	"github.com/boardcam/boardcam/hardware/ht16k33"
	"periph.io/x/conn/v3/physic"
)

// discardBus is an I²C bus that accepts everything and counts transfers.
type discardBus struct{ tx int }

func (*discardBus) String() string                    { return "discard" }
func (d *discardBus) Tx(uint16, []byte, []byte) error { d.tx++; return nil }
func (*discardBus) SetSpeed(physic.Frequency) error   { return nil }

// BenchmarkWriteDigitsBlink alternates a lit and a dark frame (the worst
// case: every lit digit is written) and reports the I²C transfers per frame.
func BenchmarkWriteDigitsBlink(b *testing.B) {
	bus := &discardBus{}
	d, err := ht16k33.New(bus, &ht16k33.Opts{Addr: 0x70, Digits: 8, Wiring: ht16k33.Backpack, Brightness: 8})
	if err != nil {
		b.Fatal(err)
	}
	lit, _ := segment.Text("12- 3- 7")
	dark := make([]segment.Digit, 8)
	bus.tx = 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f := lit
		if i%2 == 1 {
			f = dark
		}
		if err := d.WriteDigits(f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(bus.tx)/float64(b.N), "transfers/frame")
}
