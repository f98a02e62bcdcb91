// Package signals drives what the club hears and sees besides the digits:
// a buzzer that plays a distinct on/off pattern per alert, and a turn LED
// per seat. Both are display.Sinks on gpio.Output lines, with their own
// goroutine and an injected clock.
//
// # Buzzer patterns
//
// A [Pattern] is a list of durations, alternately on and off, starting on.
// The defaults ([DefaultPatterns]):
//
//	foul            3 short beeps   150 on, 100 off, 150 on, 100 off, 150 on
//	queen pocketed  2 medium beeps  400 on, 150 off, 400 on
//	board won       1 long beep     1000 on
//	match won       3 short, 1 long 250 on, 100 off, 250 on, 100 off, 250 on, 100 off, 1500 on
//
// (milliseconds). Alerts play one after the other, each to the end,
// separated by a pause (300 ms). A more important alert (match won > board
// won > queen pocketed > foul) pre-empts: it cuts the pattern playing short
// and drops the less important alerts still waiting, so a stroke that wins
// the board and the match sounds "match won" at once, not a queue of beeps.
// At most four alerts wait; beyond that the oldest is dropped. Every alert
// started or dropped is reported.
//
// An active buzzer (one with its own oscillator, e.g. a 5 V piezo "active
// buzzer" module) is switched on and off by the line through a transistor;
// see docs/hardware.md.
//
// # Turn LEDs
//
// [TurnLEDs] lights the LED of the seat whose player strikes next
// (display.Scoreboard.Turn): one of two seats in singles, one of four in
// doubles; all dark before a match and once it is over. Seats without a
// configured line are skipped.
package signals
