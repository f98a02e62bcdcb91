package display

import (
	"github.com/boardcam/boardcam/display/segment"

	"fmt"
	"strings"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

// QueenMark is what a team's queen digit shows.
type QueenMark uint8

// The queen marks. The legend is in the package documentation.
const (
	QueenNone    QueenMark = iota // dark: the queen is not this team's business
	QueenInPlay                   // "-": the queen is on the board
	QueenPending                  // "q.": this team pocketed the queen and must cover it
	QueenOwned                    // "q": this team covered the queen
	QueenOut                      // "P": the queen waits to be placed back by the umpire
)

var queenGlyph = [...]segment.Digit{
	QueenNone:    segment.Blank,
	QueenInPlay:  segment.G,
	QueenPending: segment.MustText("q.")[0],
	QueenOwned:   segment.MustText("q")[0],
	QueenOut:     segment.MustText("P")[0],
}

func (q QueenMark) String() string {
	switch q {
	case QueenNone:
		return "none"
	case QueenInPlay:
		return "in_play"
	case QueenPending:
		return "pending"
	case QueenOwned:
		return "owned"
	case QueenOut:
		return "out"
	}
	return fmt.Sprintf("QueenMark(%d)", int(q))
}

// Options tune how a state becomes a scoreboard.
type Options struct {
	// FoulBlink is how long every field blinks after a state with fouls:
	// 0 means DefaultFoulBlink, a negative value means until the next state.
	FoulBlink time.Duration
	// WinBlink is how long the winner's fields blink once the match is won:
	// 0 means DefaultWinBlink, a negative value means until the next state.
	WinBlink time.Duration
}

// Default blink durations.
const (
	DefaultFoulBlink = 3 * time.Second
	DefaultWinBlink  = 10 * time.Second
)

func (o Options) withDefaults() Options {
	if o.FoulBlink == 0 {
		o.FoulBlink = DefaultFoulBlink
	}
	if o.WinBlink == 0 {
		o.WinBlink = DefaultWinBlink
	}
	return o
}

// Scoreboard is what the club sees: the numbers and marks of the segment
// display, the turn LEDs, what blinks, plus the names and fouls that the
// text renderer prints. It is computed from a rules.State by FromState and
// holds no reference to it.
type Scoreboard struct {
	// Active is false before a match is set up (no players): every digit
	// then shows "-".
	Active  bool
	Doubles bool
	// Names are the teams' names (the players' names when a team has none).
	Names     [2]string
	Score     [2]int
	BoardsWon [2]int
	// Men counts each team's carrommen still on the board.
	Men [2]int
	// Board is the number of the board in play.
	Board int
	// Queen is each team's queen mark.
	Queen      [2]QueenMark
	QueenState rules.Queen
	// Turn has the turn LED of each seat (indexed by board.Side): on for the
	// seat of the player to strike, off for everyone once the match is over.
	Turn [4]bool
	// TurnSeat, TurnTeam and TurnPlayer say who strikes next (TurnTeam is -1
	// when nobody does).
	TurnSeat   board.Side
	TurnTeam   int
	TurnPlayer string
	// Blink is the set of fields that blink, for BlinkFor (negative: until
	// the next state).
	Blink    FieldSet
	BlinkFor time.Duration
	// Fouls are the foul codes of the last event.
	Fouls     []string
	MatchOver bool
	// Winner is the winning team, -1 while the match goes on.
	Winner int
}

// FromState computes the scoreboard for a match state. It is a pure
// function: the same state and options always give the same scoreboard.
func FromState(st rules.State, o Options) Scoreboard {
	o = o.withDefaults()
	sb := Scoreboard{
		Active:     len(st.Players) > 0,
		Doubles:    st.Doubles,
		Board:      st.Board,
		QueenState: st.Queen,
		MatchOver:  st.MatchOver,
		Winner:     -1,
		TurnSeat:   st.Turn,
		TurnTeam:   -1,
	}
	for t := 0; t < 2; t++ {
		ts := st.Teams[t]
		sb.Score[t] = ts.Score
		sb.BoardsWon[t] = ts.BoardsWon
		sb.Men[t] = ts.OnBoard
		sb.Names[t] = teamName(st, t)
	}
	if !sb.Active {
		return sb
	}
	if st.MatchOver && (st.Winner == 0 || st.Winner == 1) {
		sb.Winner = st.Winner
	}
	sb.Queen = queenMarks(st.Queen)
	if !st.MatchOver {
		for _, p := range st.Players {
			if p.Seat == st.Turn && p.Seat >= board.S && p.Seat <= board.W {
				sb.Turn[p.Seat] = true
				sb.TurnTeam = p.Team
				sb.TurnPlayer = p.Name
				break
			}
		}
	}
	if len(st.Fouls) > 0 {
		sb.Fouls = append([]string(nil), st.Fouls...)
		sb.Blink = AllFields
		sb.BlinkFor = o.FoulBlink
	}
	if sb.Winner >= 0 {
		// The winner's fields blink; this takes precedence over a foul
		// that ended the match.
		sb.Blink = 0
		for f := Field(0); f < numFields; f++ {
			if f.team() == sb.Winner {
				sb.Blink = sb.Blink.With(f)
			}
		}
		sb.BlinkFor = o.WinBlink
	}
	return sb
}

// teamName is the team's name, else its players' names joined by " & ",
// else "A" or "B".
func teamName(st rules.State, t int) string {
	if n := strings.TrimSpace(st.Teams[t].Name); n != "" {
		return n
	}
	names := st.Teams[t].Players
	if len(names) == 0 {
		for _, p := range st.Players {
			if p.Team == t && p.Name != "" {
				names = append(names, p.Name)
			}
		}
	}
	if len(names) > 0 {
		return strings.Join(names, " & ")
	}
	return TeamLetter(t)
}

// TeamLetter is "A" for team 0 and "B" for team 1.
func TeamLetter(t int) string {
	switch t {
	case 0:
		return "A"
	case 1:
		return "B"
	}
	return "?"
}

func queenMarks(q rules.Queen) [2]QueenMark {
	both := func(m QueenMark) [2]QueenMark { return [2]QueenMark{m, m} }
	one := func(m QueenMark) [2]QueenMark {
		var r [2]QueenMark
		if q.Team == 0 || q.Team == 1 {
			r[q.Team] = m
			return r
		}
		return both(m) // team unknown: show it on both sides
	}
	switch q.Status {
	case rules.QueenOnBoard:
		return both(QueenInPlay)
	case rules.QueenAwaitingCover:
		return one(QueenPending)
	case rules.QueenCovered:
		return one(QueenOwned)
	case rules.QueenAwaitingPlacement:
		return both(QueenOut)
	}
	return both(QueenNone)
}

// Digits renders the scoreboard into the digits of a layout. When lit is
// false the blinking fields are dark (the "off" half of a blink).
func (sb Scoreboard) Digits(l Layout, lit bool) []segment.Digit {
	out := make([]segment.Digit, 0, l.Digits())
	for _, c := range l {
		out = append(out, sb.cell(c, lit)...)
	}
	return out
}

func (sb Scoreboard) cell(c Cell, lit bool) []segment.Digit {
	d := make([]segment.Digit, c.Width)
	if c.Field == FieldBlank || (!lit && sb.Blink.Has(c.Field)) {
		return d
	}
	if !sb.Active {
		for i := range d {
			d[i] = segment.G
		}
		return d
	}
	switch c.Field {
	case FieldScoreA:
		number(d, sb.Score[0])
	case FieldScoreB:
		number(d, sb.Score[1])
	case FieldBoard:
		number(d, sb.Board)
	case FieldBoardsWonA:
		number(d, sb.BoardsWon[0])
	case FieldBoardsWonB:
		number(d, sb.BoardsWon[1])
	case FieldMenA:
		number(d, sb.Men[0])
	case FieldMenB:
		number(d, sb.Men[1])
	case FieldQueenA:
		d[len(d)-1] = queenGlyph[sb.Queen[0]]
	case FieldQueenB:
		d[len(d)-1] = queenGlyph[sb.Queen[1]]
	}
	return d
}

// number writes n right-aligned into d with leading blanks; a number too
// wide for d shows as dashes (overflow), like a meter.
func number(d []segment.Digit, n int) {
	s := fmt.Sprintf("%*d", len(d), n)
	if len(s) > len(d) {
		for i := range d {
			d[i] = segment.G
		}
		return
	}
	for i, r := range s {
		d[i], _ = segment.Glyph(r) // digits and blanks all have glyphs
	}
}
