package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
)

// A ruleCase is one numbered rule of one document, checked by applying a
// one-line log fragment to a set-up position and comparing the state.
//
// pos sets up the position (space-separated):
//
//	doubles            four players: team A = S+N, team B = E+W (default singles S v N)
//	turn=S             seat to strike (default S; team A plays white unless colour=black)
//	colour=black       team A plays black
//	breaking           the board is not broken yet (default: broken)
//	attempts=N         failed break attempts so far
//	w=N b=N            men of each colour on the board (the rest pocketed)
//	w.owed=N           men owed by white (not taken out); w.await=N taken out
//	recovered=w|b|wb   a man of that colour was pocketed earlier in the board
//	                   and came back as a due (ICF Covering the Queen 6)
//	q=on|out|cover:T|covered:T   the queen (T = 0 for team A, 1 for B)
//	score=A-B          match score; boards=A-B boards won (and decided)
//	format=NAME        match format
//
// line holds events in notation, separated by ";".
//
// want lists expectations (space-separated):
//
//	turn=N breaking=true attempts=N board=N
//	w=N w.p=N w.await=N w.owed=N (and b.)   on board, pocketed, awaiting, owed
//	q=on|out|held|cover:T|covered:T
//	result=T:P         a board ended with team T winning P points (T=-1: replayed)
//	rule=TEXT          the result's rule contains TEXT ("_" stands for a space)
//	demand=N           "if demanded" points available
//	nofinish           no board ended
//	score=A-B over=T   match score; match winner
//	fouls=a,b          fouls of the last event ("" for none)
//	placer=S           who places the men awaiting placement
//	white=T            the team playing white
//	err=TEXT           the last event is rejected with an error containing TEXT
type ruleCase struct {
	name, pos, line, want string
}

func setupMatch(t *testing.T, profile, pos string) *Match {
	t.Helper()
	kv := map[string]string{}
	for _, f := range strings.Fields(pos) {
		k, v, _ := strings.Cut(f, "=")
		kv[k] = v
	}
	turn := board.S
	if v, ok := kv["turn"]; ok {
		s, err := parseSeat(v)
		if err != nil {
			t.Fatalf("pos turn: %v", err)
		}
		turn = s
	}
	h := Header{Profile: profile, Teams: [2]string{"A", "B"}, Break: turn, Format: kv["format"]}
	if _, ok := kv["doubles"]; ok {
		h.Players = []Player{{Name: "s", Seat: board.S, Team: 0}, {Name: "e", Seat: board.E, Team: 1}, {Name: "n", Seat: board.N, Team: 0}, {Name: "w", Seat: board.W, Team: 1}}
	} else {
		h.Players = []Player{{Name: "s", Seat: board.S, Team: 0}, {Name: "n", Seat: board.N, Team: 1}}
		if turn == board.E || turn == board.W {
			t.Fatalf("pos: singles seats are S and N")
		}
	}
	m, err := NewMatch(h)
	if err != nil {
		t.Fatalf("NewMatch: %v", err)
	}
	c := &m.st
	c.Colour = [2]board.Kind{board.White, board.Black}
	if kv["colour"] == "black" {
		c.Colour = [2]board.Kind{board.Black, board.White}
	}
	_, c.Breaking = kv["breaking"]
	if c.Breaking {
		c.Strokes = 0
	} else {
		c.Strokes = 1
	}
	c.Attempts = atoi(t, kv, "attempts", 0)
	for i, k := range []board.Kind{board.White, board.Black} {
		p := "wb"[i : i+1]
		cm := &c.Men[k]
		cm.OnBoard = atoi(t, kv, p, 9)
		cm.Awaiting = atoi(t, kv, p+".await", 0)
		cm.InPocket = 9 - cm.OnBoard - cm.Awaiting
		cm.Owed = atoi(t, kv, p+".owed", 0)
		cm.Opened = cm.InPocket+cm.Awaiting > 0 || strings.Contains(kv["recovered"], p)
		if cm.InPocket < 0 {
			t.Fatalf("pos: too many %s men", k)
		}
		if cm.Awaiting > 0 {
			cm.Placer = m.placerFor(c, k)
		}
	}
	if v, ok := kv["q"]; ok {
		c.Queen = parseQueen(t, v)
	}
	if v, ok := kv["score"]; ok {
		c.Scores = pair(t, v)
	}
	if v, ok := kv["boards"]; ok {
		c.BoardsWon = pair(t, v)
		c.Decided = c.BoardsWon[0] + c.BoardsWon[1]
		c.Board = c.Decided + 1
	}
	return m
}

func atoi(t *testing.T, kv map[string]string, k string, def int) int {
	t.Helper()
	v, ok := kv[k]
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("pos %s=%q: %v", k, v, err)
	}
	return n
}

func pair(t *testing.T, v string) [2]int {
	t.Helper()
	a, b, ok := strings.Cut(v, "-")
	x, e1 := strconv.Atoi(a)
	y, e2 := strconv.Atoi(b)
	if !ok || e1 != nil || e2 != nil {
		t.Fatalf("bad pair %q", v)
	}
	return [2]int{x, y}
}

func parseQueen(t *testing.T, v string) queenCore {
	t.Helper()
	st, tm, _ := strings.Cut(v, ":")
	team := -1
	if tm != "" {
		team, _ = strconv.Atoi(tm)
	}
	switch st {
	case "on":
		return queenCore{Status: QueenOnBoard, Team: -1}
	case "out":
		return queenCore{Status: QueenAwaitingPlacement, Team: team}
	case "cover":
		return queenCore{Status: QueenAwaitingCover, Team: team}
	case "covered":
		return queenCore{Status: QueenCovered, Team: team}
	}
	t.Fatalf("bad queen %q", v)
	return queenCore{}
}

func queenString(q Queen) string {
	switch q.Status {
	case QueenOnBoard:
		return "on"
	case QueenAwaitingPlacement:
		if q.Held {
			return "held"
		}
		return "out"
	case QueenAwaitingCover:
		return fmt.Sprintf("cover:%d", q.Team)
	case QueenCovered:
		return fmt.Sprintf("covered:%d", q.Team)
	}
	return "?"
}

// runRuleCases runs cases for one profile.
func runRuleCases(t *testing.T, profile string, cases []ruleCase) {
	t.Helper()
	names := map[string]bool{}
	for _, tc := range cases {
		if names[tc.name] {
			t.Errorf("duplicate case name %s", tc.name)
		}
		names[tc.name] = true
		t.Run(tc.name, func(t *testing.T) { runRuleCase(t, profile, tc) })
	}
}

func runRuleCase(t *testing.T, profile string, tc ruleCase) {
	m := setupMatch(t, profile, tc.pos)
	before := m.State()
	want := map[string]string{}
	var order []string
	for _, f := range strings.Fields(tc.want) {
		k, v, _ := strings.Cut(f, "=")
		want[k] = v
		order = append(order, k)
	}
	lines := strings.Split(tc.line, ";")
	var applyErr error
	for i, l := range lines {
		ev, err := ParseEvent(strings.TrimSpace(l))
		if err != nil {
			t.Fatalf("parse %q: %v", l, err)
		}
		if err := m.Apply(ev); err != nil {
			if i == len(lines)-1 {
				applyErr = err
				break
			}
			t.Fatalf("apply %q: %v", l, err)
		}
	}
	if w, ok := want["err"]; ok {
		if applyErr == nil {
			t.Fatalf("want an error containing %q, got none", w)
		}
		if !strings.Contains(applyErr.Error(), strings.ReplaceAll(w, "_", " ")) {
			t.Fatalf("error %q does not contain %q", applyErr, w)
		}
		return
	}
	if applyErr != nil {
		t.Fatalf("apply: %v", applyErr)
	}
	st := m.State()
	var newBoards []BoardResult
	if len(st.Boards) > len(before.Boards) {
		newBoards = st.Boards[len(before.Boards):]
	}
	got := func(k string) string {
		men := func(kind board.Kind) *TeamState {
			for i := range st.Teams {
				if st.Teams[i].Colour == kind {
					return &st.Teams[i]
				}
			}
			return nil
		}
		switch k {
		case "turn":
			return st.Turn.String()
		case "breaking":
			return strconv.FormatBool(st.Breaking)
		case "attempts":
			return strconv.Itoa(st.BreakAttempts)
		case "board":
			return strconv.Itoa(st.Board)
		case "q":
			return queenString(st.Queen)
		case "score":
			return fmt.Sprintf("%d-%d", st.Teams[0].Score, st.Teams[1].Score)
		case "over":
			if !st.MatchOver {
				return "no"
			}
			return strconv.Itoa(st.Winner)
		case "fouls":
			fs := append([]string(nil), st.Fouls...)
			sort.Strings(fs)
			return strings.Join(fs, ",")
		case "placer":
			return st.Placer
		case "white":
			if st.Teams[0].Colour == board.White {
				return "0"
			}
			return "1"
		case "nofinish":
			if len(newBoards) == 0 {
				return ""
			}
			return fmt.Sprintf("board ended: %+v", newBoards)
		case "result", "rule", "demand":
			if len(newBoards) == 0 {
				return "(no board ended)"
			}
			r := newBoards[len(newBoards)-1]
			switch k {
			case "result":
				return fmt.Sprintf("%d:%d", r.Winner, r.Points)
			case "rule":
				return r.Rule
			default:
				return strconv.Itoa(r.Demandable)
			}
		}
		if len(k) >= 1 && (k[0] == 'w' || k[0] == 'b') {
			kind := board.White
			if k[0] == 'b' {
				kind = board.Black
			}
			ts := men(kind)
			if newBoards != nil && st.Board != before.Board {
				return "(board over)"
			}
			switch k[1:] {
			case "":
				return strconv.Itoa(ts.OnBoard)
			case ".p":
				return strconv.Itoa(ts.Pocketed)
			case ".await":
				return strconv.Itoa(ts.AwaitingPlacement)
			case ".owed":
				return strconv.Itoa(ts.Owed)
			}
		}
		t.Fatalf("unknown expectation %q", k)
		return ""
	}
	for _, k := range order {
		w := want[k]
		g := got(k)
		switch k {
		case "rule":
			if !strings.Contains(g, strings.ReplaceAll(w, "_", " ")) {
				t.Errorf("rule = %q, want it to contain %q", g, strings.ReplaceAll(w, "_", " "))
			}
		default:
			if g != w {
				t.Errorf("%s = %q, want %q", k, g, w)
			}
		}
	}
	// Men are conserved after every case.
	for _, ts := range st.Teams {
		if ts.OnBoard+ts.Pocketed != 9 {
			t.Errorf("%s: %d on board + %d pocketed != 9", ts.Colour, ts.OnBoard, ts.Pocketed)
		}
	}
}
