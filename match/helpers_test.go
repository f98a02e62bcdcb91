package match

import (
	"bufio"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/referee/refsim"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sim"
)

// These tests drive the match component directly, frame by frame, as Run
// would, with the umpire's commands in between.

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// defaultHeader is the daemon's default match: S=South, N=North, S breaks.
func defaultHeader() (rules.Header, error) {
	return rules.Header{Profile: "icf", Teams: [2]string{"South", "North"}, Break: board.S,
		Players: []rules.Player{{Name: "South", Seat: board.S, Team: 0}, {Name: "North", Seat: board.N, Team: 1}}}, nil
}

// refereeWith is the referee's configuration with tolerance mm (and none
// in time).
func refereeWith(mm float64) func(*rules.Profile) referee.Config {
	return func(p *rules.Profile) referee.Config {
		rc := referee.DefaultConfig(p)
		rc.Geometry = board.ICF()
		rc.Tolerance, rc.TimeTolerance = mm, 0
		return rc
	}
}

// testConfig is a configuration for the tests: the simulator's exact
// events (no measurement tolerance), the default match.
func testConfig(t *testing.T) Config {
	return Config{Dir: t.TempDir(), Decisions: DecideAuto, Header: defaultHeader, Referee: refereeWith(0), Queue: 1 << 16}
}

// keeperOn initializes a keeper (not run) reading the events file path,
// with its journal started.
func keeperOn(t testing.TB, cfg Config, path string, clk clock.Clock) *Keeper {
	t.Helper()
	cfg.Source = "events:" + path
	if cfg.Queue == 0 {
		cfg.Queue = 1 << 16
	}
	k := &Keeper{Config: cfg, Logger: quietLogger(), Clock: clk}
	if err := k.Initialize(); err != nil {
		t.Fatal(err)
	}
	if err := k.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k
}

// drain returns the items announced so far.
func drain(k *Keeper) []Item {
	var out []Item
	for {
		select {
		case a := <-k.out:
			out = append(out, a.Items...)
		default:
			return out
		}
	}
}

// fingerprint is what identifies a match state for the tests.
type fingerprint struct {
	Board, Strokes int
	Scores, Won    [2]int
	Pocketed       [2]int
	Last           string
}

func fingerprintOf(st rules.State) fingerprint {
	return fingerprint{Board: st.Board, Strokes: st.Strokes, Last: st.Last,
		Scores:   [2]int{st.Teams[0].Score, st.Teams[1].Score},
		Won:      [2]int{st.Teams[0].BoardsWon, st.Teams[1].BoardsWon},
		Pocketed: [2]int{st.Teams[0].Pocketed, st.Teams[1].Pocketed}}
}

// simBoard plays a full board under the rules and returns its events and
// the match state the referee and the rules engine reach on them.
func simBoard(t testing.TB, scenario string) ([]events.Event, rules.State, *refsim.Result) {
	t.Helper()
	sc, err := sim.Load("../testdata/scenarios/" + scenario)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := rules.ProfileByName("icf")
	cfg := referee.DefaultConfig(p)
	cfg.Tolerance, cfg.TimeTolerance = 0, 0
	res, err := refsim.Play(sc, refsim.DefaultHeader(sc, "icf"), cfg, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := refsim.Referee(res.Trace.Events, refsim.DefaultHeader(sc, "icf"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res.Trace.Events, ref.Match.State(), res
}

// boardEvents writes the physical events of a full simulated board to a
// JSON-lines file.
func boardEvents(t testing.TB, dir, scenario string) (string, []events.Event) {
	t.Helper()
	evs, _, _ := simBoard(t, scenario)
	path := filepath.Join(dir, "board.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, e := range evs {
		b, _ := e.Marshal()
		w.Write(append(b, '\n'))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path, evs
}

func eventLines(jf *JournalFile) []string {
	var out []string
	for _, e := range jf.Events() {
		out = append(out, rules.FormatEvent(e))
	}
	return out
}
