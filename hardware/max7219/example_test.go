package max7219_test

import (
	"fmt"
	"log"

	"github.com/boardcam/boardcam/display/segment"
	"github.com/boardcam/boardcam/hardware/max7219"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/conn/v3/spi/spitest"
	"periph.io/x/host/v3"
)

// On a Raspberry Pi with SPI enabled, a module wired to SPI0 CE0 shows a
// score.
func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	p, err := spireg.Open("/dev/spidev0.0")
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	d, err := max7219.New(p, &max7219.Opts{Chips: 1, Brightness: 8})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Halt()
	digits, err := segment.Text("12- 3- 7")
	if err != nil {
		log.Fatal(err)
	}
	if err := d.WriteDigits(digits); err != nil {
		log.Fatal(err)
	}
}

// The register writes of one frame, recorded instead of sent.
func ExampleDev_WriteDigits() {
	rec := &spitest.Record{}
	d, err := max7219.New(rec, nil)
	if err != nil {
		log.Fatal(err)
	}
	rec.Ops = nil // forget the initialisation
	digits, _ := segment.Text("12- 3- 7")
	if err := d.WriteDigits(digits); err != nil {
		log.Fatal(err)
	}
	for _, op := range rec.Ops {
		fmt.Printf("digit register %d = %#02x\n", op.W[0], op.W[1])
	}
	// Output:
	// digit register 1 = 0x70
	// digit register 2 = 0x00
	// digit register 3 = 0x01
	// digit register 4 = 0x79
	// digit register 5 = 0x00
	// digit register 6 = 0x01
	// digit register 7 = 0x6d
	// digit register 8 = 0x30
}
