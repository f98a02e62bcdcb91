package gpio_test

import (
	"fmt"
	"log"

	"github.com/boardcam/boardcam/hardware/gpio"
)

// Light the turn LED on GPIO17 (physical pin 11) of a Raspberry Pi.
func Example() {
	chip, err := gpio.Open("gpiochip0", nil)
	if err != nil {
		log.Fatal(err) // e.g. "no GPIO chip /dev/gpiochip0: … (not a Raspberry Pi …)"
	}
	defer chip.Close()
	led, err := chip.Output("PIN11", gpio.LineOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer led.Close()
	if err := led.Set(true); err != nil {
		log.Fatal(err)
	}
}

func ExampleParseLine() {
	for _, name := range []string{"GPIO17", "PIN11", "BCM17", "17"} {
		off, _, _ := gpio.ParseLine(name)
		p, _ := gpio.PinOf(off)
		fmt.Printf("%s: line %d, physical pin %d\n", name, off, p.Physical)
	}
	// Output:
	// GPIO17: line 17, physical pin 11
	// PIN11: line 17, physical pin 11
	// BCM17: line 17, physical pin 11
	// 17: line 17, physical pin 11
}
