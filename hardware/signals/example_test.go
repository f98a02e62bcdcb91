package signals_test

import (
	"fmt"
	"log"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/hardware/gpio/gpiotest"
	"github.com/boardcam/boardcam/hardware/signals"
)

// A buzzer on GPIO18 and the turn LEDs of a singles match (seats S and N)
// of a Raspberry Pi, fed by the daemon through one fan-out sink.
func Example() {
	chip, err := gpio.Open("gpiochip0", nil)
	if err != nil {
		log.Fatal(err)
	}
	defer chip.Close()
	line, err := chip.Output("GPIO18", gpio.LineOptions{})
	if err != nil {
		log.Fatal(err)
	}
	buzzer, err := signals.NewBuzzer(line, signals.BuzzerOptions{Name: "buzzer"})
	if err != nil {
		log.Fatal(err)
	}
	var leds [4]gpio.Output
	for seat, name := range map[board.Side]string{board.S: "GPIO17", board.N: "GPIO22"} {
		if leds[seat], err = chip.Output(name, gpio.LineOptions{}); err != nil {
			log.Fatal(err)
		}
	}
	sink := display.Fanout(buzzer, signals.NewTurnLEDs(leds, signals.LEDOptions{}))
	defer sink.Close()
	sink.Alert(display.Alert{Kind: display.AlertFoul, Team: 0})
}

// The foul pattern, played on a fake line with a fake clock.
func ExampleBuzzer() {
	clk := clocktest.New()
	chip := &gpiotest.Chip{Now: clk.Now}
	line, _ := chip.Output("GPIO18", gpio.LineOptions{})
	ended := make(chan bool)
	b, _ := signals.NewBuzzer(line, signals.BuzzerOptions{Clock: clk, Report: func(r display.Report) {
		if r.Op == "end foul" {
			ended <- true
		}
	}})
	defer b.Close()
	b.Alert(display.Alert{Kind: display.AlertFoul})
	for i := 0; i < 5; i++ {
		clk.Step()
	}
	<-ended
	for _, c := range chip.Line(18).Changes() {
		fmt.Println(c.At.Sub(clocktest.Epoch), c.Active)
	}
	// Output:
	// 0s true
	// 150ms false
	// 250ms true
	// 400ms false
	// 500ms true
	// 650ms false
}
