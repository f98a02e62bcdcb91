package ht16k33_test

import (
	"fmt"
	"log"

	"github.com/boardcam/boardcam/display/segment"
	"github.com/boardcam/boardcam/hardware/ht16k33"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/host/v3"
)

// On a Raspberry Pi with I²C enabled, two Adafruit backpacks at 0x70 and
// 0x71 show a score.
func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	bus, err := i2creg.Open("/dev/i2c-1")
	if err != nil {
		log.Fatal(err)
	}
	defer bus.Close()
	d, err := ht16k33.New(bus, &ht16k33.Opts{Addr: 0x70, Digits: 8, Wiring: ht16k33.Backpack, Brightness: 8})
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

// Only changed digits are written: a score going from 7 to 8 is one write.
func ExampleDev_WriteDigits() {
	bus := &i2ctest.Record{}
	d, err := ht16k33.New(bus, &ht16k33.Opts{Addr: 0x70, Digits: 4, Wiring: ht16k33.Backpack, Brightness: 8})
	if err != nil {
		log.Fatal(err)
	}
	before, _ := segment.Text("12 7")
	after, _ := segment.Text("12 8")
	_ = d.WriteDigits(before)
	bus.Ops = nil
	_ = d.WriteDigits(after)
	for _, op := range bus.Ops {
		fmt.Printf("to %#x: % x\n", op.Addr, op.W)
	}
	// Output:
	// to 0x70: 08 7f 00
}
