// Package hardware opens the club's physical outputs and inputs from the
// configuration: an LED scoreboard on MAX7219 chips (SPI) and/or HT16K33
// chips (I²C), a buzzer and a turn LED per seat on GPIO lines, and the
// umpire's buttons (confirm, overrule, undo, next board) on GPIO inputs.
//
// [Open] takes a [Config] (the hardware section of boardcam's YAML
// configuration, with the Raspberry Pi's usual names: "SPI0", "/dev/i2c-1",
// "gpiochip0", "GPIO17", "PIN11") and returns [Devices]: one display.Sink
// that drives every output that opened, the buttons' presses, a line per
// device that works and an error per configured device that is missing.
// Without an SPI bus, an I²C bus or a GPIO chip (a laptop, a CI runner, a
// Pi with SPI disabled) Open still succeeds: the daemon logs the errors
// ("scoreboard max7219: no SPI bus /dev/spidev0.0: … (enable SPI: …)")
// and carries on with what is there. Only an invalid configuration is an
// error; [Config.UnmarshalYAML] reports it with the YAML line of each bad
// field.
//
// Every output runs in its own goroutine behind display.Sink, so the
// pipeline never waits for a bus; the reports (display.Report) give the
// daemon each device's errors and the time from its call to the device
// write.
//
// The drivers live in sub-packages: max7219, ht16k33 (both display.Panel
// implementations built on periph.io/x/devices/v3), gpio (the line
// interface on github.com/warthog618/go-gpiocdev, with a fake in
// gpio/gpiotest), signals (buzzer patterns and turn LEDs) and buttons
// (debounced edges to commands). docs/hardware.md has the parts list, the
// wiring for a Raspberry Pi 4/5 and a configuration example.
//
// Dependencies: the panel drivers import only display/segment (the digit
// type and glyphs; they satisfy display.Panel without importing display,
// so they never link the rules) and periph; this package, signals and
// buttons import display (for the Sink and Reporter types), clock and
// go-gpiocdev; display never imports hardware (TestDriversAreLeaves).
package hardware
