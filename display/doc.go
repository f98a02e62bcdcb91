// Package display computes what the club sees from the state of a match and
// hands it to the outputs.
//
// # Scoreboard model
//
// [FromState] is a pure function from a [rules.State] to a [Scoreboard]:
// the numbers and marks of a 7-segment scoreboard, the turn LED of each
// seat, which fields blink and for how long, plus the names and fouls that
// the text renderer prints. [Scoreboard.Digits] renders it into the digits
// of a [Layout], one [segment.Digit] byte per digit.
//
// # Layout
//
// A layout is a row of cells, each a [Field] and a width in digits, read by
// [ParseLayout] from text such as "score_a:2 queen_a board:2 queen_b
// score_b:2". The default for one 8-digit panel ([DefaultLayout]) is
//
//	digit   1 2      3       4 5      6       7 8
//	        score A  queen A board    queen B score B
//
//	     _    _        _         _   _
//	  |  _|  |_|       _|        _| |_|
//	  | |_     |.      _|       |_   _|
//
// (above: team A 12, queen pocketed by A and awaiting cover, board 3,
// team B 29). Numbers are right-aligned with leading blanks; a number too
// large for its cell shows as dashes. Cascaded panels repeat the layout
// (every module shows the whole scoreboard). Before a match is set up every
// digit shows "-". The other fields are board (number of the board in
// play), boards_won_a/b, men_a/b (carrommen left on the board) and blank.
//
// # Queen digits
//
// Each team has a queen digit; it shows the queen from that team's point of
// view:
//
//	"-"   on both: the queen is on the board
//	"q."  on one:  that team pocketed the queen and must cover it (the other is dark)
//	"q"   on one:  that team covered the queen (the other is dark)
//	"P"   on both: the queen waits to be placed back in the centre by the umpire
//
// # Blinking
//
// After a state with fouls every field blinks for [Options.FoulBlink]
// (3 s by default); once the match is won the winner's fields blink for
// [Options.WinBlink] (10 s). A blink starts lit and alternates every half
// [PanelOptions.BlinkPeriod] (250 ms lit, 250 ms dark by default), timed by
// an injected [clock.Clock]; a new state restarts it.
//
// # Turn LEDs
//
// [Scoreboard.Turn] lights the LED of the seat (S, E, N, W) whose player
// strikes next: one of two seats in singles, one of four in doubles; all
// are off before a match and once it is over.
//
// # Sinks
//
// The daemon calls a [Sink] with every new state ([Sink.Show]) and every
// alert ([Sink.Alert]; [Alerts] derives them from two successive states:
// foul, queen pocketed, board won, match won). Sinks never block: each has
// its own goroutine and a [Mailbox] in which a newer state replaces one not
// yet shown (latest state wins). They report every write, with the time of
// the call and of the device write, through a [Reporter], so the daemon can
// log errors and measure output latency. Implementations: [Terminal] (text,
// for `boardcam run --display=term` and for tests), [PanelSink] (any
// segment [Panel]: the MAX7219 and HT16K33 drivers of package hardware),
// the buzzer and turn LEDs of package hardware/signals, and [Fanout].
//
// # Text
//
// [RenderText] draws a scoreboard as 7-segment ASCII art (exactly the
// digits an LED panel with the same layout shows, see [SegmentArt]), as
// plain text ([PlainText]) or both.
package display
