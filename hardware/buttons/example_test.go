package buttons_test

import (
	"fmt"
	"log"
	"time"

	"github.com/boardcam/boardcam/hardware/buttons"
	"github.com/boardcam/boardcam/hardware/gpio"
)

// The umpire's four buttons on a Raspberry Pi, wired to ground.
func Example() {
	chip, err := gpio.Open("gpiochip0", nil)
	if err != nil {
		log.Fatal(err)
	}
	defer chip.Close()
	b, errs := buttons.Open(chip, []buttons.Spec{
		{Command: buttons.Confirm, Line: "GPIO5"},
		{Command: buttons.Overrule, Line: "GPIO6"},
		{Command: buttons.Undo, Line: "GPIO13"},
		{Command: buttons.NextBoard, Line: "GPIO19", Hold: time.Second},
	}, buttons.Options{Line: gpio.LineOptions{ActiveLow: true, Bias: gpio.BiasPullUp}})
	for _, err := range errs {
		log.Print(err) // the other buttons still work
	}
	defer b.Close()
	for p := range b.C() {
		fmt.Println(p.Command, "pressed")
	}
}

// Edges with their timestamps, then the question "has a press completed?".
func ExampleDebouncer() {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	d := buttons.NewDebouncer(30*time.Millisecond, 0, false)
	d.Edge(true, ms(0)) // contact…
	d.Edge(false, ms(2))
	d.Edge(true, ms(3)) // …bounces
	for _, now := range []int{20, 32, 33} {
		fired, _ := d.Advance(ms(now))
		fmt.Printf("at %d ms: %v\n", now, fired)
	}
	// Output:
	// at 20 ms: false
	// at 32 ms: false
	// at 33 ms: true
}
