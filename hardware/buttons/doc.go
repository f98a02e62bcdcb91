// Package buttons turns the umpire's push buttons on GPIO inputs into
// commands: confirm, overrule, undo and next board.
//
// Each button's line reports both edges (go-gpiocdev edge events). Contacts
// bounce for a few milliseconds, so the state of a button is only believed
// once its line has been quiet for the debounce time (30 ms by default):
// a [Debouncer] is a pure state machine fed edges with their timestamps
// and asked, at a time, whether a press has completed; [Buttons] runs one
// per line on an injected clock and sends a [Press] on a channel. A
// command fires when the press is debounced or, for a button with a hold
// time, once it has been held that long (a long press guards the
// destructive "next board" by default: 1 s). A button held while boardcam
// starts does not fire until it is released and pressed again.
//
// The usual wiring is a button between the GPIO pin and ground with the
// chip's pull-up enabled (active low), see docs/hardware.md.
package buttons
