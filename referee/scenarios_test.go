package referee_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/referee/refsim"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sim"
)

const scenarios = "../testdata/scenarios/"

// logs lists the events of the decisions that have one, and the kinds of
// the others in brackets.
func logs(ds []referee.Decision) string {
	var out []string
	for _, d := range ds {
		if d.Log != "" {
			out = append(out, d.Log)
		} else {
			out = append(out, "["+string(d.Kind)+"]")
		}
	}
	return strings.Join(out, "; ")
}

// checkPlayed checks a scenario played under the rules: every decision
// accepted, the pieces on the board always those the engine counts, men
// conserved.
func checkPlayed(t *testing.T, res *refsim.Result) {
	t.Helper()
	for _, r := range res.Rejected {
		t.Errorf("rejected %q at frame %d: %v", r.Decision.Log, r.Decision.Frame, r.Err)
	}
	for _, s := range res.Inconsistencies() {
		t.Error(s)
	}
	for i, rec := range res.Strokes {
		for _, tm := range rec.After.Teams {
			if tm.OnBoard+tm.Pocketed != board.MenPerColour {
				t.Errorf("stroke %d: %s has %d on the board and %d pocketed", i+1, tm.Name, tm.OnBoard, tm.Pocketed)
			}
		}
	}
}

// The example scenarios that start a board from the opening arrangement
// are played with the rules engine as the simulator's turn policy; the
// referee and the engine together must accept everything and stay in step
// with the board.
var openingExamples = map[string]func(t *testing.T, res *refsim.Result){
	"break.yaml": func(t *testing.T, res *refsim.Result) {
		if got := logs(res.Decisions); got != "S -" {
			t.Errorf("decisions %s", got)
		}
	},
	"four-sides.yaml": func(t *testing.T, res *refsim.Result) {
		if len(res.Strokes) != 4 || len(res.Header.Players) != 4 {
			t.Fatalf("decisions %s", logs(res.Decisions))
		}
		for _, rec := range res.Strokes {
			if len(rec.Decision.Calls) != 0 {
				t.Errorf("foul in %s: %s", rec.Decision.Log, calls(rec.Decision))
			}
		}
		if res.Strokes[2].Decision.Stroke.Placement != "base_circle" {
			t.Errorf("N's placement %s", res.Strokes[2].Decision.Stroke.Placement)
		}
	},
	"jump-overboard.yaml": func(t *testing.T, res *refsim.Result) {
		// W4 jumps and the umpire puts it back: no placement for the engine.
		if got := logs(res.Decisions); got != "S - off:w" {
			t.Errorf("decisions %s", got)
		}
	},
	"autoplay-board.yaml": func(t *testing.T, res *refsim.Result) {
		st := res.Match.State()
		if len(st.Boards) != 1 || st.Boards[0].Winner < 0 || len(res.Strokes) < 20 {
			t.Errorf("boards %+v after %d strokes", st.Boards, len(res.Strokes))
		}
	},
	"autoplay-match.yaml": func(t *testing.T, res *refsim.Result) {
		st := res.Match.State()
		if len(st.Boards) != 3 {
			t.Errorf("boards %+v", st.Boards)
		}
		for _, b := range st.Boards {
			if b.Winner < 0 {
				t.Errorf("board %d has no winner", b.Board)
			}
		}
	},
}

// The example scenarios that start in the middle of a board are refereed
// with a context that says where the board stands (the engine always
// starts a board from the opening, so it cannot be used for them).
var midBoardExamples = map[string]struct {
	ctx  rules.State
	want string
}{
	"single-pocket.yaml":    {midBoard("icf"), "S w"},
	"striker-pocketed.yaml": {midBoard("icf", onBoard(6, 9), awaiting(2, 0, board.N)), "S ws; place w; N -"},
	"queen-covered.yaml":    {midBoard("icf", onBoard(8, 9)), "S q; S w"},
	"queen-returned.yaml": {midBoard("icf", onBoard(8, 9), func(st *rules.State) {
		st.Queen = rules.Queen{Status: rules.QueenAwaitingPlacement, Team: -1}
	}), "S q; S -; place q"},
	"hand-over-pocket.yaml": {midBoard("icf"), "S -; N -"},
	"dues-placed.yaml":      {midBoard("icf", onBoard(7, 9), awaiting(2, 0, board.N), turn(board.N)), "place w; place w; N -"},
	"nudge.yaml":            {midBoard("icf"), "foul S !touched_piece; S -"},
	"arm-foul.yaml":         {midBoard("icf", turn(board.W)), "W - !hand_over_foul_line"},
}

func TestExampleScenarios(t *testing.T) {
	files, err := filepath.Glob(scenarios + "*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example scenarios: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			sc, err := sim.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if check, ok := openingExamples[name]; ok {
				res, err := refsim.Play(sc, refsim.DefaultHeader(sc, "icf"), exact(t, "icf"), sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				checkPlayed(t, res)
				check(t, res)
				return
			}
			ex, ok := midBoardExamples[name]
			if !ok {
				t.Fatalf("no check for %s: add one to openingExamples or midBoardExamples", name)
			}
			tr, err := sim.Run(sc, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ds := judge(t, exact(t, "icf"), ex.ctx, tr.Events)
			if got := logs(ds); got != ex.want {
				t.Errorf("decisions %q, want %q\n%s", got, ex.want, dump(ds))
			}
		})
	}
}

// A whole board played by the automatic player under every profile: the
// referee and the rules engine stay in step with the board to its end and
// a side wins it.
func TestAutoplayedBoards(t *testing.T) {
	sc, err := sim.Load(scenarios + "autoplay-board.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{12, 3} // with seed 7 the automatic player never covers the queen under nit-delhi (see docs/referee.md)
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, pn := range rules.ProfileNames() {
		for _, seed := range seeds {
			res, err := refsim.Play(sc, refsim.DefaultHeader(sc, pn), exact(t, pn), sim.Options{Seed: &seed})
			if err != nil {
				t.Errorf("%s seed %d: %v", pn, seed, err)
				continue
			}
			checkPlayed(t, res)
			st := res.Match.State()
			if len(st.Boards) != 1 || st.Boards[0].Winner < 0 {
				t.Errorf("%s seed %d: boards %+v, notes %v", pn, seed, st.Boards, res.Trace.Notes)
				continue
			}
			fouls := 0
			for _, d := range res.Decisions {
				fouls += len(d.Calls)
			}
			t.Logf("%s seed %d: %d strokes, %d calls, %d runs; %s won %d points (%s)", pn, seed, len(res.Strokes), fouls, res.Runs,
				st.Teams[st.Boards[0].Winner].Name, st.Boards[0].Points, st.Boards[0].Rule)
		}
	}
}

// Three failed break attempts (nit-delhi Basic Rules 1, Fouls 8): the
// referee marks each stroke that touches no piece, the engine counts them
// and, after the third, passes the turn with a foul.
func TestThreeFailedBreaks(t *testing.T) {
	sc, err := sim.Parse([]byte(`seed: 4
arrangement: opening
timeline:
  - strike: {side: S, at: -150, direction: 0, speed: 0.8}
  - strike: {side: S, at: -150, direction: 0, speed: 0.8}
  - strike: {side: S, at: -150, direction: 0, speed: 0.8}
`), "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := refsim.Play(sc, refsim.DefaultHeader(sc, "nit-delhi"), exact(t, "nit-delhi"), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPlayed(t, res)
	if got := logs(res.Decisions); got != "S - nobreak; S - nobreak; S - nobreak" {
		t.Fatalf("decisions %s", got)
	}
	after := res.Strokes[2].After
	if after.Turn != board.N || !after.Breaking || strings.Join(after.Fouls, ",") != "break_failed" || after.Teams[0].Owed != 1 {
		t.Errorf("after the third attempt: turn %s, breaking %v, fouls %v, owed %d", after.Turn, after.Breaking, after.Fouls, after.Teams[0].Owed)
	}
	if res.Strokes[1].After.Turn != board.S {
		t.Errorf("the second attempt passed the turn")
	}
}
