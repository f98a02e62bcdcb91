package rules

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
)

const positionHeader = "profile icf\nplayer S Asha\nplayer N Ravi\nbreak S\n"

// A log that starts from a position: one line of position, the events
// after it, and what the match then is (in the rule-case notation of
// harness_test.go: turn, w/b on the board, q, score, board).
func TestPositionLogs(t *testing.T) {
	for _, tc := range []struct{ pos, events, want string }{
		// Asha (S, white: she broke) pockets her last man with the queen
		// covered by her: the board is hers, 3 black men and the queen,
		// and Ravi breaks board 2.
		{"turn=S white=1 black=3 queen=covered:S", "S w", "board=2 score=8-0 turn=N w=9 b=9 q=on"},
		// The same with the queen on the board: she loses the board
		// (ICF Covering the Queen 29).
		{"turn=S white=1 black=3", "S w", "board=2 score=0-5 turn=N"},
		// Board 2: Ravi broke it, so he plays white; Asha clears her
		// black men and scores his 4 white men (the queen is his).
		{"board=2 score=0-6 boards=0-1 turn=S white=4 black=2 queen=covered:N", "S bb", "board=3 score=4-6 turn=S w=9 b=9"},
		// Men awaiting placement are placed by the placer; the turn
		// stays with the player to strike.
		{"turn=N white=3 black=5 awaiting-white=2 placer=N", "place ww\nN -", "board=1 turn=S w=5 b=5"},
		// Asha pocketed the queen and has to cover it.
		{"turn=S white=4 black=5 queen=pending:S", "S w", "turn=S w=3 b=5 q=covered:0"},
		{"turn=S white=4 black=5 queen=pending:S", "S -", "turn=N w=4 b=5 q=out"},
		// The queen taken out waits for the umpire to place it.
		{"turn=N white=4 black=5 queen=out strokes=7", "place q\nN -", "turn=S q=on"},
		// Score close to the queen cut-off: 5 for the queen below 22.
		{"score=20-0 turn=S white=1 black=2 queen=pending:S", "S w", "board=2 score=27-0"},
	} {
		t.Run(tc.pos, func(t *testing.T) {
			lg, err := ParseLog(strings.NewReader(positionHeader + "position " + tc.pos + "\n" + tc.events + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := lg.Play(nil)
			if err != nil {
				t.Fatal(err)
			}
			st := m.State()
			for _, f := range strings.Fields(tc.want) {
				k, v, _ := strings.Cut(f, "=")
				var got string
				switch k {
				case "board":
					got = fmt.Sprint(st.Board)
				case "score":
					got = fmt.Sprintf("%d-%d", st.Teams[0].Score, st.Teams[1].Score)
				case "turn":
					got = st.Turn.String()
				case "w", "b":
					k := board.White
					if f[0] == 'b' {
						k = board.Black
					}
					on, _ := st.Men(k)
					got = fmt.Sprint(on)
				case "q":
					got = queenString(st.Queen)
				default:
					t.Fatalf("bad key %q", k)
				}
				if got != v {
					t.Errorf("%s = %s, want %s (state %+v)", k, got, v, st)
				}
			}
		})
	}
}

func TestPositionErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"position white=2 black=3", "line 5: position: turn= is required"},
		{"position turn=S white=2", "black= is required"},
		{"position turn=S white=10 black=3", "white: \"10\": want a number from 0 to 9"},
		{"position turn=E white=2 black=3", "line 5: position: turn: no player sits at E"},
		{"position turn=S white=2 black=3 queen=covered", "queen: \"covered\": say whose"},
		{"position turn=S white=2 black=3 queen=gone", "want on, out"},
		{"position turn=S white=2 black=3 awaiting-black=1", "need placer=SEAT"},
		{"position turn=S white=2 black=3 placer=N", "placer= without men"},
		{"position turn=S white=7 black=3 awaiting-white=3 placer=N", "7 white men on the board and 3 awaiting"},
		{"position turn=S white=0 black=3 queen=covered:S", "the board is over"},
		{"position turn=S white=0 black=0", "only the queen"},
		{"position turn=N white=2 black=3 queen=pending:S", "awaits Asha's cover, but it is Ravi's turn"},
		{"position turn=S white=2 black=3 score=29-3", "the match is already over"},
		{"position turn=S white=2 black=3 boards=1-1", "board=1 with 2 boards already won"},
		{"position turn=S white=2 black=3 colour=white", "unknown key \"colour\""},
		{"position turn=S white=2 black=3 turn=N", "turn given twice"},
		{"position turn=S white=2 black=3 score=6", "want A-B"},
		{"position turn=S white=2 black=3\nposition turn=S white=2 black=3", "second \"position\" line"},
	} {
		lg, err := ParseLog(strings.NewReader(positionHeader + tc.line + "\nS -\n"))
		if err == nil {
			_, err = lg.Play(nil)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.line, err, tc.want)
		}
	}
}

// FormatHeader writes the position back: parsing it again gives the same
// header.
func TestPositionRoundTrip(t *testing.T) {
	for _, pos := range []string{
		"turn=S white=2 black=3",
		"board=3 breaker=N turn=N white=8 black=1 queen=covered:S awaiting-white=1 awaiting-black=2 placer=S score=13-20 boards=1-1 strokes=40",
		"turn=S white=2 black=3 queen=out",
		"turn=S white=2 black=3 queen=pending:S",
	} {
		lg, err := ParseLog(strings.NewReader(positionHeader + "position " + pos + "\n"))
		if err != nil {
			t.Fatalf("%s: %v", pos, err)
		}
		text := FormatHeader(lg.Header)
		if !strings.Contains(text, "position "+pos+"\n") {
			t.Errorf("FormatHeader wrote\n%s\nwant the line position %s", text, pos)
		}
		back, err := ParseLog(strings.NewReader(text))
		if err != nil || !reflect.DeepEqual(back.Header, lg.Header) {
			t.Errorf("%s: reparsed %+v (%v), want %+v", pos, back, err, lg.Header)
		}
	}
}

// A match started from the position of any state of a random match goes
// on exactly like the match it was taken from: the same events give the
// same states (the boards finished before the position excepted).
func TestPositionContinuesRandomMatches(t *testing.T) {
	checked := 0
	for _, p := range Profiles() {
		for _, doubles := range []bool{false, true} {
			for seed := int64(1); seed <= 6; seed++ {
				checked += continueFromPositions(t, p, doubles, seed)
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d positions checked", checked)
	}
}

func continueFromPositions(t *testing.T, p *Profile, doubles bool, seed int64) int {
	t.Helper()
	r := rand.New(rand.NewSource(seed))
	h := randomHeader(p, doubles, r)
	m, err := NewMatch(h)
	if err != nil {
		t.Fatal(err)
	}
	g := &gen{r: r, m: m}
	type fork struct {
		m      *Match
		boards int
	}
	var forks []fork
	checked := 0
	for n := 0; n < 3000 && !m.State().MatchOver; n++ {
		st := m.State()
		// A position cannot say how many times each player passed or
		// that a failed cover may still be recorded as covered.
		if pos, ok := PositionOf(st); ok && m.st.Passes == [4]int{} && !m.st.Queen.Uncovered && r.Intn(3) == 0 {
			hp := h
			hp.Position = pos
			text := FormatHeader(hp)
			lg, err := ParseLog(strings.NewReader(text))
			if err != nil {
				t.Fatalf("%s seed %d: the position header does not parse: %v\n%s", p.Name, seed, err, text)
			}
			m2, err := NewMatch(lg.Header)
			if err != nil {
				t.Fatalf("%s seed %d: %v\n%s", p.Name, seed, err, text)
			}
			forks = append(forks, fork{m2, len(st.Boards)})
			checked++
		}
		ev := g.event()
		if err := m.Apply(ev); err != nil {
			t.Fatalf("%s seed %d: %q rejected: %v", p.Name, seed, FormatEvent(ev), err)
		}
		want := m.State()
		for i := 0; i < len(forks); i++ {
			f := forks[i]
			if err := f.m.Apply(ev); err != nil {
				t.Fatalf("%s seed %d: from the position, %q is rejected: %v (the original accepted it)", p.Name, seed, FormatEvent(ev), err)
			}
			got := f.m.State()
			w := want
			w.Boards = w.Boards[f.boards:]
			if len(w.Boards) == 0 {
				w.Boards = []BoardResult{}
			}
			if !reflect.DeepEqual(got, w) {
				t.Fatalf("%s seed %d: after %q the match from the position is\n%+v\nwant\n%+v", p.Name, seed, FormatEvent(ev), got, w)
			}
		}
		// Keep the number of forks bounded.
		if len(forks) > 8 {
			forks = forks[1:]
		}
	}
	return checked
}
