package refsim

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sim"
)

func config(t *testing.T, name string) referee.Config {
	t.Helper()
	p, err := rules.ProfileByName(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := referee.DefaultConfig(p)
	cfg.Tolerance, cfg.TimeTolerance = 0, 0
	return cfg
}

func load(t *testing.T, name string) *sim.Scenario {
	t.Helper()
	sc, err := sim.Load("../../testdata/scenarios/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// With the engine as the policy the simulated board follows the rules: the
// strokes the policy applied are the strokes the referee decides, fouls
// included, and the board ends with a winner.
func TestPlaySettles(t *testing.T) {
	sc := load(t, "autoplay-board.yaml")
	res, err := Play(sc, DefaultHeader(sc, "icf"), config(t, "icf"), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rejected) != 0 || len(res.Inconsistencies()) != 0 {
		t.Errorf("rejected %v, inconsistent %v", res.Rejected, res.Inconsistencies())
	}
	fouls := 0
	for _, rec := range res.Strokes {
		fouls += len(rec.Decision.Calls)
	}
	// Seed 12 has a foul stroke, so a second run was needed.
	if fouls == 0 || res.Runs < 2 {
		t.Errorf("%d calls in %d runs", fouls, res.Runs)
	}
	if st := res.Match.State(); len(st.Boards) != 1 || st.Boards[0].Winner < 0 {
		t.Errorf("boards %+v", st.Boards)
	}
	if len(res.Trace.Boards) != 1 {
		t.Errorf("the simulator did not stop at the board's end: %+v", res.Trace.Boards)
	}
}

func TestPlayErrors(t *testing.T) {
	// The engine starts every board from the opening.
	sc := load(t, "single-pocket.yaml")
	if _, err := Play(sc, DefaultHeader(sc, "icf"), config(t, "icf"), sim.Options{}); err == nil || !strings.Contains(err.Error(), "nineteen") {
		t.Errorf("mid-board scenario: %v", err)
	}
	sc = load(t, "break.yaml")
	h := DefaultHeader(sc, "icf")
	h.Break = board.N
	h.Players[0].Seat, h.Players[1].Seat = board.N, board.S
	if _, err := Play(sc, h, config(t, "icf"), sim.Options{}); err == nil || !strings.Contains(err.Error(), "breaker") {
		t.Errorf("breaker: %v", err)
	}
	if _, err := Play(sc, DefaultHeader(sc, "icf"), config(t, "nit-delhi"), sim.Options{}); err == nil || !strings.Contains(err.Error(), "profile") {
		t.Errorf("profile: %v", err)
	}
}

func TestInconsistencies(t *testing.T) {
	sc := load(t, "four-sides.yaml")
	res, err := Play(sc, DefaultHeader(sc, "icf"), config(t, "icf"), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Inconsistencies(); len(got) != 0 {
		t.Fatalf("played scenario inconsistent: %v", got)
	}
	// A white man missing at the end of the second stroke.
	rec := &res.Strokes[1]
	for i, p := range rec.Pieces {
		if p.Piece == board.White {
			rec.Pieces = append(rec.Pieces[:i:i], rec.Pieces[i+1:]...)
			break
		}
	}
	got := res.Inconsistencies()
	if len(got) != 1 || !strings.Contains(got[0], "stroke 2") || !strings.Contains(got[0], "white") {
		t.Errorf("inconsistencies %v", got)
	}
}

func TestDefaultHeader(t *testing.T) {
	sc := load(t, "autoplay-match.yaml")
	h := DefaultHeader(sc, "icf")
	if err := h.Validate(); err != nil || !h.Doubles() || h.Break != sc.Breaker {
		t.Errorf("doubles header %+v: %v", h, err)
	}
	sc = load(t, "break.yaml")
	if h := DefaultHeader(sc, "team-3board"); h.Validate() != nil || h.Doubles() || h.Teams != [2]string{"South", "North"} {
		t.Errorf("singles header %+v", h)
	}
}
