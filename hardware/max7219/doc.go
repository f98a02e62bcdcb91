// Package max7219 drives a boardcam scoreboard made of 8-digit 7-segment
// modules on a chain of Maxim MAX7219 (or MAX7221) LED drivers over SPI.
//
// It builds on periph.io/x/devices/v3/max7219 for the chip's
// initialisation, intensity and cascaded register writes, and adds what a
// scoreboard needs: raw segment patterns (the chip's Code-B font cannot
// show the queen marks, so every digit is written undecoded, re-ordering
// boardcam's "gfedcba" bits to the chip's "DP A B C D E F G"), a
// configurable SPI clock (1 MHz by default: scoreboards sit at the end of
// long wires, and the chip's 10 MHz maximum is for short PCB traces),
// errors from the initialisation (periph's NewSPI logs and swallows them),
// and a Halt that blanks the digits and puts the chips in shutdown.
//
// # Digits and chips
//
// Chip 0 is the one whose DIN is wired to the Pi's MOSI; it shows the
// leftmost eight digits, chip 1 (fed from chip 0's DOUT) the next eight,
// and so on. On each module DIG7 is the leftmost digit and DIG0 the
// rightmost, as on the common red 8-digit modules.
//
// # Datasheets
//
// https://www.analog.com/media/en/technical-documentation/data-sheets/MAX7219-MAX7221.pdf
//
// The supply is 4.0–5.5 V and a logic high must be at least 3.5 V: driven
// from a Raspberry Pi's 3.3 V pins most modules work, but a 74AHCT125
// level shifter on DIN, CLK and LOAD (CS) makes it reliable; see
// docs/hardware.md.
package max7219
