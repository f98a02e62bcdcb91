package display_test

import (
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/display/segment"
	"github.com/boardcam/boardcam/rules"
)

// readDigits turns digits back into characters (the inverse of the font;
// '?' for a pattern without a character), with "." for a decimal point.
func readDigits(d []segment.Digit) string {
	rev := map[segment.Digit]rune{}
	for _, r := range " 0123456789-_=AbCcdEFGHhJLnoPqrtUuy" { // not S: same as 5
		g, ok := segment.Glyph(r)
		if !ok {
			panic("no glyph for " + string(r))
		}
		rev[g] = r
	}
	out := []rune{}
	for _, s := range d {
		r, ok := rev[s&^segment.DP]
		if !ok {
			r = '?'
		}
		out = append(out, r)
		if s&segment.DP != 0 {
			out = append(out, '.')
		}
	}
	return string(out)
}

func TestFromStateDigits(t *testing.T) {
	type tc struct {
		name   string
		st     func() rules.State
		digits string // display.DefaultLayout, lit
		dark   string // display.DefaultLayout, blink phase dark
		turn   [4]bool
	}
	cases := []tc{
		{"no match", func() rules.State { return rules.State{} }, "--------", "--------", [4]bool{}},
		{"singles", displaytest.Singles, "12- 3- 7", "12- 3- 7", [4]bool{board.S: true}},
		{"doubles covered by B", displaytest.Doubles, " 3  4q18", " 3  4q18", [4]bool{board.E: true}},
		{"awaiting cover by A", func() rules.State {
			s := displaytest.Singles()
			s.Queen = rules.Queen{Status: rules.QueenAwaitingCover, Team: 0}
			return s
		}, "12q. 3  7", "12q. 3  7", [4]bool{board.S: true}},
		{"covered by A", func() rules.State {
			s := displaytest.Singles()
			s.Queen = rules.Queen{Status: rules.QueenCovered, Team: 0}
			return s
		}, "12q 3  7", "12q 3  7", [4]bool{board.S: true}},
		{"awaiting placement", func() rules.State {
			s := displaytest.Singles()
			s.Queen = rules.Queen{Status: rules.QueenAwaitingPlacement, Team: -1}
			s.Turn = board.N
			return s
		}, "12P 3P 7", "12P 3P 7", [4]bool{board.N: true}},
		{"awaiting cover, team unknown", func() rules.State {
			s := displaytest.Singles()
			s.Queen = rules.Queen{Status: rules.QueenAwaitingCover, Team: -1}
			return s
		}, "12q. 3q. 7", "12q. 3q. 7", [4]bool{board.S: true}},
		{"foul blinks everything", func() rules.State {
			s := displaytest.Singles()
			s.Fouls = []string{"thumbing"}
			s.Turn = board.N
			return s
		}, "12- 3- 7", "        ", [4]bool{board.N: true}},
		{"match won by B: B blinks, LEDs off", func() rules.State {
			s := displaytest.Singles()
			s.Teams[1].Score = 25
			s.MatchOver, s.Winner = true, 1
			s.Fouls = []string{"push"}
			return s
		}, "12- 3-25", "12- 3   ", [4]bool{}},
		{"match over without winner", func() rules.State {
			s := displaytest.Singles()
			s.MatchOver = true
			return s
		}, "12- 3- 7", "12- 3- 7", [4]bool{}},
		{"overflow shows dashes", func() rules.State {
			s := displaytest.Singles()
			s.Teams[0].Score = 123
			s.Board = 100
			return s
		}, "------ 7", "------ 7", [4]bool{board.S: true}},
		{"turn seat without a player lights nothing", func() rules.State {
			s := displaytest.Singles()
			s.Turn = board.E
			return s
		}, "12- 3- 7", "12- 3- 7", [4]bool{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb := display.FromState(c.st(), display.Options{})
			if got := readDigits(sb.Digits(display.DefaultLayout, true)); got != c.digits {
				t.Errorf("lit digits %q, want %q", got, c.digits)
			}
			if got := readDigits(sb.Digits(display.DefaultLayout, false)); got != c.dark {
				t.Errorf("dark-phase digits %q, want %q", got, c.dark)
			}
			if sb.Turn != c.turn {
				t.Errorf("turn LEDs %v, want %v", sb.Turn, c.turn)
			}
		})
	}
}

func TestFromStateBlinkAndNames(t *testing.T) {
	st := displaytest.Singles()
	sb := display.FromState(st, display.Options{})
	if sb.Blink != 0 || sb.BlinkFor != 0 {
		t.Errorf("no foul: blink %b for %v", sb.Blink, sb.BlinkFor)
	}
	if sb.Names != [2]string{"Asha", "Ravi"} || sb.TurnPlayer != "Asha" || sb.TurnTeam != 0 {
		t.Errorf("names %q, turn %q team %d", sb.Names, sb.TurnPlayer, sb.TurnTeam)
	}

	st.Fouls = []string{"thumbing", "push"}
	sb = display.FromState(st, display.Options{})
	if sb.Blink != display.AllFields || sb.BlinkFor != display.DefaultFoulBlink {
		t.Errorf("foul: blink %b for %v", sb.Blink, sb.BlinkFor)
	}
	st.Fouls[0] = "changed"
	if sb.Fouls[0] != "thumbing" {
		t.Error("the scoreboard shares the state's Fouls slice")
	}
	if sb := display.FromState(st, display.Options{FoulBlink: -1}); sb.BlinkFor != -1 {
		t.Errorf("FoulBlink -1 gave BlinkFor %v", sb.BlinkFor)
	}

	st.MatchOver, st.Winner = true, 0
	sb = display.FromState(st, display.Options{WinBlink: 5 * time.Second})
	want := display.FieldSet(0).With(display.FieldScoreA, display.FieldQueenA, display.FieldBoardsWonA, display.FieldMenA)
	if sb.Blink != want || sb.BlinkFor != 5*time.Second || sb.Winner != 0 {
		t.Errorf("won: blink %b for %v winner %d; want %b", sb.Blink, sb.BlinkFor, sb.Winner, want)
	}

	d := displaytest.Doubles()
	d.Teams[0].Name = ""
	sb = display.FromState(d, display.Options{})
	if sb.Names != [2]string{"Asha & Meena", "Delhi"} || !sb.Doubles {
		t.Errorf("doubles names %q", sb.Names)
	}
	d.Teams[0].Players = nil
	if sb := display.FromState(d, display.Options{}); sb.Names[0] != "Asha & Meena" {
		t.Errorf("names from Players: %q", sb.Names[0])
	}
	d.Players = d.Players[1:2]
	if sb := display.FromState(d, display.Options{}); sb.Names[0] != "A" {
		t.Errorf("no names at all: %q", sb.Names[0])
	}
}

func TestOtherFields(t *testing.T) {
	l, err := display.ParseLayout("boards_won_a men_a:2 blank board:3 men_b:2 boards_won_b")
	if err != nil {
		t.Fatal(err)
	}
	got := readDigits(display.FromState(displaytest.Singles(), display.Options{}).Digits(l, true))
	if want := "1 5   3 91"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
