package rules

import (
	"reflect"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
)

func mustParse(t *testing.T, text string) *Log {
	t.Helper()
	lg, err := ParseLog(strings.NewReader(text))
	if err != nil {
		t.Fatalf("ParseLog: %v", err)
	}
	return lg
}

func mustPlay(t *testing.T, text string) *Match {
	t.Helper()
	m, err := mustParse(t, text).Play(nil)
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	return m
}

// TestFourBreakWorkedExample plays the worked example of
// four-break-queen-3.md: 8 points in the first break (5 men + 3 for the
// queen), 3 in the second (the queen covered by the losers earns nothing).
func TestFourBreakWorkedExample(t *testing.T) {
	m := mustPlay(t, `profile four-break
team "Ram and Shyam" S:Ram N:Shyam
team "Ramesh and Suresh" E:Ramesh W:Suresh
break S
# 1st break: Ram and Shyam white
S ww
S w
S -
E b
E -
N wq        # queen with a white man: covered
N w
N -
W bb
W -
S ww
S -
E b
E -
N w
N w         # the last white man: 5 black men left
# 2nd break: Ramesh breaks, Ramesh and Suresh white
E w
E q
E w         # covered by Ramesh and Suresh
E -
N bb
N -
W www
W -
S bbb
S -
E w
E -
N bb
N bb        # the last black man: 3 white men left
`)
	st := m.State()
	if len(st.Boards) != 2 {
		t.Fatalf("%d boards finished, want 2", len(st.Boards))
	}
	for i, want := range []int{8, 3} {
		if b := st.Boards[i]; b.Winner != 0 || b.Points != want {
			t.Errorf("break %d: winner %d, %d points; want Ram and Shyam, %d", i+1, b.Winner, b.Points, want)
		}
	}
	if st.Teams[0].Score != 11 || st.Teams[1].Score != 0 {
		t.Errorf("score %d-%d, want 11-0", st.Teams[0].Score, st.Teams[1].Score)
	}
	if st.Teams[0].Colour != board.White || st.Board != 3 || st.Turn != board.N {
		t.Errorf("third break: Ram and Shyam %s, board %d, %s breaks; want white, 3, N", st.Teams[0].Colour, st.Board, st.Turn)
	}
	if st.MatchOver {
		t.Error("the match is over after two of four breaks")
	}
}

const singlesHeader = "profile icf\nplayer S Ravi\nplayer N Meena\nbreak S\n"

func TestBreakRotation(t *testing.T) {
	// A board won at once by the breaker: one man, a man and the queen
	// (covered), the other seven.
	for _, tc := range []struct {
		name, header string
		want         []board.Side // breaker of boards 1, 2, 3
	}{
		{"icf singles alternate", singlesHeader, []board.Side{board.S, board.N, board.S}},
		{"icf doubles anticlockwise", "profile icf\nteam A S:a N:b\nteam B E:c W:d\nbreak S\n", []board.Side{board.S, board.E, board.N}},
		{"nit-delhi doubles clockwise", "profile nit-delhi\nteam A S:a N:b\nteam B E:c W:d\nbreak S\n", []board.Side{board.S, board.W, board.N}},
		{"team-3board to the right", "profile team-3board\nteam A S:a N:b\nteam B E:c W:d\nbreak E\n", []board.Side{board.E, board.N, board.W}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustPlay(t, tc.header)
			for i, want := range tc.want {
				st := m.State()
				if st.Breaker != want || st.Turn != want || !st.Breaking {
					t.Fatalf("board %d: breaker %s, turn %s; want %s", i+1, st.Breaker, st.Turn, want)
				}
				if st.Teams[st.TeamOf(want)].Colour != board.White {
					t.Fatalf("board %d: the breaker's side plays %s, want white", i+1, st.Teams[st.TeamOf(want)].Colour)
				}
				if st.MatchOver {
					break
				}
				for _, ev := range []string{want.String() + " w", want.String() + " wq", want.String() + " 7w"} {
					e, _ := ParseEvent(ev)
					if err := m.Apply(e); err != nil {
						t.Fatalf("board %d: %s: %v", i+1, ev, err)
					}
				}
			}
		})
	}
}

func TestUndo(t *testing.T) {
	m := mustPlay(t, singlesHeader+"S ww\nS -\n")
	before := m.State()
	ev, _ := ParseEvent("N bbs !push")
	if err := m.Apply(ev); err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(before, m.State()) {
		t.Fatal("the stroke changed nothing")
	}
	if err := m.Undo(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, m.State()) {
		t.Errorf("undo did not restore the state:\n got %+v\nwant %+v", m.State(), before)
	}
	if n := len(m.History()); n != 2 {
		t.Errorf("history has %d events after undo, want 2", n)
	}
	// An undo line does the same.
	m2 := mustPlay(t, singlesHeader+"S ww\nS -\nN bbs !push\nundo\n")
	if !reflect.DeepEqual(before, m2.State()) {
		t.Error("an undo line did not restore the state")
	}
	m3 := mustPlay(t, singlesHeader)
	if err := m3.Undo(); err == nil {
		t.Error("undo with no history: no error")
	}
}

func TestStateIsACopy(t *testing.T) {
	m := mustPlay(t, singlesHeader+"S w !push\n")
	st := m.State()
	st.Players[0].Name = "changed"
	st.Fouls[0] = "changed"
	st.Teams[0].Score = 99
	st2 := m.State()
	if st2.Players[0].Name != "Ravi" || st2.Fouls[0] != "push" || st2.Teams[0].Score != 0 {
		t.Error("State shares memory with the match")
	}
}

func TestApplyErrorLeavesMatchUnchanged(t *testing.T) {
	m := mustPlay(t, singlesHeader+"S ww\nS -\n")
	before := m.State()
	for _, line := range []string{"S w", "N wwwwwwwwww", "N q off:q", "place b", "demand", "cover", "N pass"} {
		ev, err := ParseEvent(line)
		if err != nil {
			continue
		}
		if line == "N pass" {
			continue // legal
		}
		if err := m.Apply(ev); err == nil {
			t.Errorf("%s: no error", line)
		}
		if !reflect.DeepEqual(before, m.State()) {
			t.Fatalf("%s: a rejected event changed the state", line)
		}
	}
}

func TestMatchOver(t *testing.T) {
	m := mustPlay(t, singlesHeader+"concede N match\n")
	st := m.State()
	if !st.MatchOver || st.Winner != 0 || !strings.Contains(st.MatchResult, "conceded") {
		t.Fatalf("after concession: over %v winner %d result %q", st.MatchOver, st.Winner, st.MatchResult)
	}
	ev, _ := ParseEvent("S w")
	if err := m.Apply(ev); err == nil || !strings.Contains(err.Error(), "match is over") {
		t.Errorf("stroke after the match: %v", err)
	}
}

func TestHeaderValidation(t *testing.T) {
	base := func() Header {
		return Header{Profile: "icf", Teams: [2]string{"A", "B"}, Break: board.S,
			Players: []Player{{Name: "a", Seat: board.S, Team: 0}, {Name: "b", Seat: board.N, Team: 1}}}
	}
	for _, tc := range []struct {
		name string
		mod  func(*Header)
		want string
	}{
		{"ok", func(*Header) {}, ""},
		{"no profile", func(h *Header) { h.Profile = "" }, "no profile"},
		{"bad profile", func(h *Header) { h.Profile = "pool" }, "unknown profile"},
		{"bad format", func(h *Header) { h.Format = "points-15" }, "no format"},
		{"team-3board final", func(h *Header) { h.Profile, h.Format = "team-3board", "points-29" }, ""},
		{"singles not opposite", func(h *Header) { h.Players[1].Seat = board.E }, "opposite"},
		{"same seat", func(h *Header) { h.Players[1].Seat = board.S }, "two players sit at S"},
		{"three players", func(h *Header) { h.Players = append(h.Players, Player{Name: "c", Seat: board.E, Team: 1}) }, "3 players"},
		{"break at empty seat", func(h *Header) { h.Break = board.E }, "no player sits at E"},
		{"doubles partners adjacent", func(h *Header) {
			h.Players = []Player{{"a", board.S, 0}, {"b", board.E, 0}, {"c", board.N, 1}, {"d", board.W, 1}}
		}, "partners sit opposite"},
		{"quote in name", func(h *Header) { h.Players[0].Name = `a"b` }, "double quote"},
		{"same team names", func(h *Header) { h.Teams[1] = "A" }, "both teams"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := base()
			tc.mod(&h)
			_, err := NewMatch(h)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestProfiles(t *testing.T) {
	want := map[string]struct {
		queen, cutoff int
		format        string
		dir           Direction
	}{
		"icf":         {5, 24, "points-29", Anticlockwise},
		"team-3board": {5, 23, "three-boards", Anticlockwise},
		"nit-delhi":   {5, 24, "best-of-three", Clockwise},
		"jamshedpur":  {5, 24, "points-29", Anticlockwise},
		"four-break":  {3, 22, "four-breaks", Anticlockwise},
	}
	ps := Profiles()
	if len(ps) != len(want) {
		t.Fatalf("%d profiles, want %d", len(ps), len(want))
	}
	for _, p := range ps {
		w, ok := want[p.Name]
		if !ok {
			t.Errorf("unexpected profile %s", p.Name)
			continue
		}
		if p.QueenValue != w.queen || p.QueenCutoff != w.cutoff || p.Formats[0].Name != w.format || p.Direction != w.dir {
			t.Errorf("%s: queen %d cut-off %d format %s %s", p.Name, p.QueenValue, p.QueenCutoff, p.Formats[0].Name, p.Direction)
		}
		q, err := ProfileByName(p.Name)
		if err != nil || q != p {
			t.Errorf("ProfileByName(%s): %v", p.Name, err)
		}
		// Every foul has a reference to its document (or the ICF fallback).
		for _, f := range p.Fouls {
			if !strings.HasPrefix(f.Ref, p.Document+": ") && !(f.Fallback && strings.HasPrefix(f.Ref, "icf-laws-of-carrom.md: ")) {
				t.Errorf("%s: foul %s has reference %q", p.Name, f.Code, f.Ref)
			}
		}
		// Every finish rule names its profile or the ICF.
		for _, r := range p.Finish {
			if !strings.HasPrefix(r.Ref, p.Name+": ") && !strings.HasPrefix(r.Ref, "icf: ") {
				t.Errorf("%s: finish rule %q", p.Name, r.Ref)
			}
		}
	}
	if _, err := ProfileByName("snooker"); err == nil {
		t.Error("ProfileByName(snooker): no error")
	}
	// The fouls the task names exist with these exact codes.
	for _, code := range []string{"placement", "cut_moon", "arrow", "wrong_side", "backward_flick", "behind_line_first",
		"no_contact", "adjacent_arrow_coin", "red_circle_coin", "opponent_coin_only", "last_two_direct_hit", "thumbing",
		"push", "touched_piece", "hand_over_foul_line", "stopped_striker", "striker_overboard", "piece_overboard",
		"due_outside_outer_circle", "due_on_centre_circle", "break_failed", "got_up", "talking"} {
		if !Foul(code).Known() {
			t.Errorf("foul code %s missing", code)
		}
	}
	// Which profiles recognise which fouls.
	icf, _ := ProfileByName("icf")
	team, _ := ProfileByName("team-3board")
	nit, _ := ProfileByName("nit-delhi")
	if icf.Recognises(FoulThumbing) || !team.Recognises(FoulThumbing) || icf.Recognises(FoulNoContact) || !team.Recognises(FoulNoContact) {
		t.Error("thumbing and no_contact are team-3board fouls only")
	}
	if icf.Recognises(FoulStrikerOverboard) || !team.Recognises(FoulStrikerOverboard) || !nit.Recognises(FoulStrikerOverboard) {
		t.Error("a jumping striker is a foul in team-3board and nit-delhi, not under ICF General Rules 1")
	}
	if !team.FoulsCalledByPlayers || icf.FoulsCalledByPlayers {
		t.Error("only team-3board has fouls called by the players (Additional Rules 11)")
	}
	if r, _ := team.Foul(FoulPieceOverboard); r.Effect != EffectFine {
		t.Error("team-3board: a jumped piece is a fine")
	}
	if r, _ := icf.Foul(FoulGotUp); r.Effect != EffectBoard || r.Ref != "icf-laws-of-carrom.md: Dues and Penalties 31" {
		t.Errorf("icf got_up: %+v", r)
	}
}
