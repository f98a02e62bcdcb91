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
	for _, tc := range []struct{ pos, events, want, hdr string }{
		// Asha (S, white: she broke) pockets her last man with the queen
		// covered by her: the board is hers, 3 black men and the queen,
		// and Ravi breaks board 2.
		{"turn=S white=1 black=3 queen=covered:S", "S w", "board=2 score=8-0 turn=N w=9 b=9 q=on", ""},
		// The same with the queen on the board: she loses the board
		// (ICF Covering the Queen 29).
		{"turn=S white=1 black=3", "S w", "board=2 score=0-5 turn=N", ""},
		// Board 2: Ravi broke it, so he plays white; Asha clears her
		// black men and scores his 4 white men (the queen is his).
		{"board=2 score=0-6 boards=0-1 turn=S white=4 black=2 queen=covered:N", "S bb", "board=3 score=4-6 turn=S w=9 b=9", ""},
		// Men awaiting placement are placed by the placer; the turn
		// stays with the player to strike.
		{"turn=N white=3 black=5 awaiting-white=2 placer=N", "place ww\nN -", "board=1 turn=S w=5 b=5", ""},
		// Asha pocketed the queen and has to cover it.
		{"turn=S white=4 black=5 queen=pending:S", "S w", "turn=S w=3 b=5 q=covered:0", ""},
		{"turn=S white=4 black=5 queen=pending:S", "S -", "turn=N w=4 b=5 q=out", ""},
		// The queen taken out waits for the umpire to place it.
		{"turn=N white=4 black=5 queen=out strokes=7", "place q\nN -", "turn=S q=on", ""},
		// Score close to the queen cut-off: 5 for the queen below 22.
		{"score=20-0 turn=S white=1 black=2 queen=pending:S", "S w", "board=2 score=27-0", ""},
		// Asha's men all came back as dues, but she pocketed one before:
		// she may pocket and cover the queen (ICF Covering the Queen 6).
		{"turn=S white=9 black=7 recovered=white", "S q", "turn=S q=cover:0", ""},
		{"turn=S white=9 black=7", "S q", "turn=N q=out", ""},
		// A due owed with no man to take it from: taken from the first.
		{"turn=S white=9 black=7 owed-white=1", "S w\nS -", "turn=N w=9", ""},
		// Board 2 not broken yet: three failed attempts, then Asha breaks.
		{"board=2 turn=N broken=no white=9 black=9 score=5-0 boards=1-0 strokes=0", "N - nobreak\nN - nobreak\nN - nobreak", "turn=S board=2", ""},
		{"board=2 turn=N broken=no attempts=2 white=9 black=9 score=5-0 boards=1-0 strokes=2", "N - nobreak", "turn=S", ""},
		// A queen held until the end of the turn (nit-delhi).
		{"turn=S white=8 black=9 queen=held", "S -", "turn=N q=out", "nit-delhi"},
		// A queen left uncovered may still be recorded as covered.
		{"turn=N white=8 black=9 queen=uncovered:S", "cover", "q=covered:0", ""},
		// Men of both colours awaiting placement by different placers.
		{"turn=N white=5 black=5 awaiting-white=1 awaiting-black=1 placer-white=N placer-black=S", "place w\nplace b\nN -", "turn=S w=6 b=6", ""},
		// Passes in a row: the third round of passes replays the board.
		{"turn=N white=5 black=5 passes=S:3,N:2", "N pass", "board=2 turn=S w=9 b=9", ""},
		// Playing on after an unnoticed opponent's man, until noticed.
		{"turn=S white=5 black=5 playing-on=yes", "noticed", "turn=N", ""},
		// Board 1 just ended by Covering the Queen 31: Asha may demand 1.
		{`board=2 turn=N broken=no white=9 black=9 strokes=0 score=5-0 boards=1-0 demand=S:1 demand-rule="icf: Covering the Queen 31"`, "demand", "score=6-0", ""},
		// Time called (four-break), the sides level: the next board decides.
		{"board=5 turn=S white=4 black=4 score=10-10 boards=2-2 time=called", "S www\nS w", "board=5", "four-break"},
	} {
		t.Run(tc.pos, func(t *testing.T) {
			hdr := positionHeader
			if tc.hdr != "" {
				hdr = strings.Replace(hdr, "profile icf", "profile "+tc.hdr, 1)
			}
			lg, err := ParseLog(strings.NewReader(hdr + "position " + tc.pos + "\n" + tc.events + "\n"))
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
		// A finished match is a position too: nothing but "demand" follows.
		{"position turn=S white=2 black=3 score=29-3", "line 6: S -: the match is over (Asha won)"},
		{"position turn=S white=2 black=3 boards=1-1", "board=1 with 2 boards already won"},
		{"position turn=S white=2 black=3 colour=white", "unknown key \"colour\""},
		{"position turn=S white=2 black=3 turn=N", "turn given twice"},
		{"position turn=S white=2 black=3 score=6", "want A-B"},
		{"position turn=S white=2 black=3\nposition turn=S white=2 black=3", "second \"position\" line"},
		{"position turn=S white=9 black=9 broken=maybe", "broken: \"maybe\": want yes or no"},
		{"position turn=S white=8 black=9 broken=no", "before the break every man"},
		{"position turn=S white=2 black=3 attempts=1", "only with broken=no"},
		{"position turn=S white=9 black=9 broken=no attempts=3 strokes=3", "after 3 failed attempts the next player breaks"},
		{"position turn=S white=2 black=3 strokes=0", "strokes=0: the board is broken"},
		{"position turn=S white=2 black=3 awaiting-white=1 awaiting-black=1 placer-white=N", "need placer-black=SEAT"},
		{"position turn=S white=2 black=3 awaiting-white=1 placer=N placer-white=N", "write one or the other"},
		{"position turn=S white=2 black=3 placer-black=N", "placer-black= without black men awaiting"},
		{"position turn=S white=2 black=3 awaiting-black=1 placer-black=E", "placer-black: no player sits at E"},
		{"position turn=S white=2 black=3 deferred=white", "deferred=white without white men awaiting"},
		{"position turn=S white=8 black=3 recovered=white", "the nine are on the board"},
		{"position turn=S white=9 black=3 recovered=red", "want white, black or white,black"},
		{"position turn=S white=2 black=3 queen=held", "queen=held: under icf"},
		{"position turn=S white=2 black=3 queen=uncovered", "say whose"},
		{"position turn=S white=2 black=3 passes=S:3,N:3", "every player has passed three times"},
		{"position turn=S white=2 black=3 passes=E:1", "passes: no player sits at E"},
		{"position turn=S white=2 black=3 passes=S:4", "want a number from 1 to 3"},
		{"position turn=S white=2 black=3 passes=S1", "want SEAT:N"},
		{"position turn=S white=2 black=3 playing-on=perhaps", "want yes or no"},
		{"position turn=S white=2 black=3 time=called", "has no time limit"},
		{"position turn=S white=2 black=3 time=up", "the only value is called"},
		{"position turn=S white=2 black=3 demand=N:1", "go together"},
		{`position board=2 turn=S white=2 black=3 demand=N:1 demand-rule="icf: Game 3"`, "not one of the icf board endings that give points to demand"},
		{`position board=2 turn=S white=2 black=3 demand=N:2 demand-rule="icf: Covering the Queen 31"`, "gives at most 1"},
		{`position turn=S white=2 black=3 demand=N:1 demand-rule="icf: Covering the Queen 31"`, "on the first board"},
		{"position turn=S white=2 black=3 match=resigned:S", "want conceded:SEAT or disqualified:SEAT:REASON"},
		{"position turn=S white=2 black=3 match=disqualified:N:rude", "want conceded:SEAT"},
		{"position turn=S white=2 black=3 match=conceded:S demand=N:1 demand-rule=x", "demand= in a match ended"},
		{"position turn=S white=2 black=3 match=conceded:N", "line 6: S -: the match is over (Asha won)"},
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
		"board=2 turn=N broken=no attempts=2 white=9 black=9 owed-white=1 strokes=3",
		"turn=S white=4 black=5 queen=uncovered:N awaiting-white=1 awaiting-black=2 placer-white=N placer-black=S deferred=black owed-black=1",
		"turn=N white=9 black=6 recovered=white passes=S:2,N:1",
		"turn=S white=4 black=3 playing-on=yes",
		`board=3 turn=N broken=no white=9 black=9 score=5-0 boards=1-0 demand=S:1 demand-rule="icf: Covering the Queen 31"`,
		"turn=S white=2 black=3 match=disqualified:N:late",
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
	for n := 0; n < 3000 && (!m.State().MatchOver || m.State().Demand != nil); n++ {
		st := m.State()
		pos, ok := PositionOf(st)
		if !ok {
			t.Fatalf("%s seed %d: no position for %+v", p.Name, seed, st)
		}
		if r.Intn(3) == 0 {
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
		if st.MatchOver {
			ev = DemandPoints{}
		}
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

// coreState is the whole of a match's state that a position holds: the
// engine's state less the history (the board results, the last event and
// its fouls).
func coreState(m *Match) core {
	c := m.st.clone()
	c.Results, c.Last, c.Fouls = nil, "", nil
	return c
}

// publicState is State less the same history.
func publicState(st State) State {
	st.Boards, st.Last, st.Fouls = nil, "", nil
	return st
}

// TestPositionEveryState: every state of random matches of every profile,
// singles and doubles, has a position (PositionOf), whose line parses back
// to the same Position, and a match started from it is in the same state:
// the engine's whole state (not a few fields), less the history. The
// states are all those reached, whatever they hold; the test counts the
// kinds of state the line must say and fails if one never came up.
func TestPositionEveryState(t *testing.T) {
	kinds := []string{"not broken", "break attempts", "owed with none pocketed", "owed, end of turn",
		"queen held", "queen uncovered", "queen pending", "queen covered", "placers differ", "deferred",
		"recovered", "passes", "playing on", "demand", "time called", "match over", "match ended by concession",
		"match ended by disqualification"}
	// Rounds of one match per profile, singles and doubles. -short stops
	// after 8 rounds once every kind of state came up (rare kinds, such as
	// a disqualification, may need more rounds than 8); the full run plays
	// all 24.
	const rounds, shortRounds = 24, 8
	seen := map[string]int{}
	states := 0
	for i := 0; i < rounds; i++ {
		if testing.Short() && i >= shortRounds && allSeen(seen, kinds) {
			break
		}
		seed := int64(1000*i + 17)
		for _, p := range Profiles() {
			for _, doubles := range []bool{false, true} {
				states += positionEveryState(t, p, doubles, seed, seen)
				if t.Failed() {
					return
				}
			}
		}
	}
	t.Logf("%d states; %v", states, seen)
	for _, k := range kinds {
		if seen[k] == 0 {
			t.Errorf("no state with %s came up: the property did not cover it", k)
		}
	}
}

func allSeen(seen map[string]int, kinds []string) bool {
	for _, k := range kinds {
		if seen[k] == 0 {
			return false
		}
	}
	return true
}

func positionEveryState(t *testing.T, p *Profile, doubles bool, seed int64, seen map[string]int) int {
	t.Helper()
	r := rand.New(rand.NewSource(seed))
	h := randomHeader(p, doubles, r)
	m, err := NewMatch(h)
	if err != nil {
		t.Fatal(err)
	}
	g := &gen{r: r, m: m}
	n := 0
	for {
		st := m.State()
		n++
		classify(st, seen)
		pos, ok := PositionOf(st)
		if !ok {
			t.Fatalf("%s seed %d: no position for %+v", p.Name, seed, st)
		}
		hp := h
		hp.Position = pos
		text := FormatHeader(hp)
		lg, err := ParseLog(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%s seed %d: the position line does not parse: %v\n%s", p.Name, seed, err, text)
		}
		if !reflect.DeepEqual(lg.Header.Position, pos) {
			t.Fatalf("%s seed %d: the position line reads back as\n%+v\nwant\n%+v\n%s", p.Name, seed, lg.Header.Position, pos, text)
		}
		m2, err := NewMatch(lg.Header)
		if err != nil {
			t.Fatalf("%s seed %d: %v\n%s", p.Name, seed, err, text)
		}
		if got, want := coreState(m2), coreState(m); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s seed %d after %q: the match from\n%s\nis in the state\n%+v\nwant\n%+v", p.Name, seed, st.Last, text, got, want)
		}
		if got, want := publicState(m2.State()), publicState(st); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s seed %d after %q: the match from\n%s\nshows\n%+v\nwant\n%+v", p.Name, seed, st.Last, text, got, want)
		}
		if st.MatchOver && (st.Demand == nil || r.Intn(2) == 0) {
			return n
		}
		ev := g.event()
		if st.MatchOver {
			ev = DemandPoints{}
		}
		if err := m.Apply(ev); err != nil {
			t.Fatalf("%s seed %d: %q rejected: %v", p.Name, seed, FormatEvent(ev), err)
		}
	}
}

// classify counts the kinds of state a position line must be able to say.
func classify(st State, seen map[string]int) {
	add := func(k string, b bool) {
		if b {
			seen[k]++
		}
	}
	add("not broken", st.Breaking)
	add("break attempts", st.BreakAttempts > 0)
	for _, ts := range st.Teams {
		add("owed with none pocketed", ts.Owed > 0 && ts.Pocketed == 0)
		add("owed, end of turn", ts.Owed > 0 && ts.Pocketed-ts.AwaitingPlacement > 0)
		add("deferred", ts.Deferred)
		add("recovered", ts.Recovered)
	}
	add("queen held", st.Queen.Held)
	add("queen uncovered", st.Queen.Uncovered)
	add("queen pending", st.Queen.Status == QueenAwaitingCover)
	add("queen covered", st.Queen.Status == QueenCovered)
	add("placers differ", st.Teams[0].AwaitingPlacement > 0 && st.Teams[1].AwaitingPlacement > 0 && st.Teams[0].Placer != st.Teams[1].Placer)
	add("passes", len(st.Passes) > 0)
	add("playing on", st.PlayingOn)
	add("demand", st.Demand != nil)
	add("time called", st.TimeCalled)
	add("match over", st.MatchOver && st.Ended == nil)
	add("match ended by concession", st.Ended != nil && st.Ended.Reason == "")
	add("match ended by disqualification", st.Ended != nil && st.Ended.Reason != "")
}

// A Position built by a program is checked like one read from a line.
func TestPositionBuiltByProgram(t *testing.T) {
	lg, err := ParseLog(strings.NewReader(positionHeader))
	if err != nil {
		t.Fatal(err)
	}
	h := lg.Header
	for _, tc := range []struct {
		p    Position
		want string
	}{
		{Position{Board: 1, Turn: board.S, Men: [2]int{2, 3}, Queen: QueenOnBoard}, "strokes=0: the board is broken"},
		{Position{Board: 1, Turn: board.S, Men: [2]int{2, 3}, Awaiting: [2]int{1, 0}, Placer: board.E, Queen: QueenOnBoard, Strokes: 4}, "placer: no player sits at E"},
		{Position{Board: 1, Turn: board.S, Men: [2]int{8, 3}, Recovered: [2]bool{true, false}, Queen: QueenOnBoard, Strokes: 4}, "the nine are on the board"},
		{Position{Board: 2, Turn: board.N, Men: [2]int{9, 9}, Breaking: true, Queen: QueenOnBoard, Scores: [2]int{5, 0}, BoardsWon: [2]int{1, 0}}, ""},
	} {
		h.Position = &tc.p
		_, err := NewMatch(h)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.p.String(), err, tc.want)
		}
	}
}
