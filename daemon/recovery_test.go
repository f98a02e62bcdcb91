package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/referee/refsim"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/web"
)

// The recovery test runs the daemon as a child process (this test binary
// again, see TestMain), kills it with SIGKILL at random moments of a
// simulated full board and starts it again, until the board has been
// played to its end.

const childEnv = "BOARDCAM_DAEMON_CHILD"

// childMain is the daemon child: the source, journal and pace come from
// the environment; every state it announces is printed on standard output
// (one JSON line each), so that the parent can check that what was
// announced was journaled.
func childMain() int {
	pace := os.Getenv("BC_PACE") == "1"
	speed, _ := strconv.ParseFloat(os.Getenv("BC_SPEED"), 64)
	cfg := DefaultConfig()
	cfg.Source.URI = "events:" + os.Getenv("BC_SOURCE")
	cfg.Source.Pace = &pace
	if speed > 0 {
		cfg.Source.Speed = speed
	}
	cfg.Journal.Dir = os.Getenv("BC_JOURNAL")
	off := ""
	cfg.Web.Listen = &off
	zero := 0.0
	cfg.Referee.ToleranceMM, cfg.Referee.TimeToleranceS = &zero, &zero
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	d := &Daemon{Sight: testSight, Config: cfg, Logger: log, Publishers: []Publisher{statePrinter{}}}
	if err := d.Initialize(); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	defer d.Close()
	os.Stdout.WriteString("ready\n")
	if err := d.Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	return 0
}

// fingerprint is what identifies a match state for the test.
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

type statePrinter struct{}

func (statePrinter) Publish(m web.Message) error {
	if s, ok := m.(web.StateUpdate); ok {
		b, _ := json.Marshal(fingerprintOf(rules.State(s)))
		os.Stdout.Write(append(b, '\n')) // unbuffered: written before the next announcement
	}
	return nil
}

// boardEvents writes the physical events of a full simulated board, played
// under the rules by refsim, to a JSON-lines file.
func boardEvents(t testing.TB, dir, scenario string) (string, []events.Event) {
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
	path := filepath.Join(dir, "board.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, e := range res.Trace.Events {
		b, _ := e.Marshal()
		w.Write(append(b, '\n'))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path, res.Trace.Events
}

type child struct {
	cmd    *exec.Cmd
	ready  chan struct{}
	mu     sync.Mutex
	states []fingerprint
	done   chan error
	stderr strings.Builder
}

func startChild(t *testing.T, source, journal string, pace bool, speed float64) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	p := "0"
	if pace {
		p = "1"
	}
	cmd.Env = append(os.Environ(), childEnv+"=1", "BC_SOURCE="+source, "BC_JOURNAL="+journal, "BC_PACE="+p,
		"BC_SPEED="+strconv.FormatFloat(speed, 'f', -1, 64))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan error, 1), ready: make(chan struct{})}
	cmd.Stderr = &c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "ready" {
				close(c.ready)
				continue
			}
			var fp fingerprint
			if json.Unmarshal(sc.Bytes(), &fp) == nil {
				c.mu.Lock()
				c.states = append(c.states, fp)
				c.mu.Unlock()
			}
		}
	}()
	go func() {
		<-read
		c.done <- cmd.Wait()
	}()
	return c
}

// journalStates replays a journal (as a restart would find it) and
// returns the state after every prefix of its events.
func journalStates(t *testing.T, dir string) (map[fingerprint]bool, *match.JournalFile) {
	t.Helper()
	path, err := match.LatestJournal(dir)
	if err != nil || path == "" {
		t.Fatalf("no journal in %s: %v", dir, err)
	}
	jf, err := match.ReadJournal(path, false)
	if err != nil {
		t.Fatal(err)
	}
	m, err := rules.NewMatch(jf.Header)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[fingerprint]bool{fingerprintOf(m.State()): true}
	for _, r := range jf.Records {
		if r.Event == nil {
			continue
		}
		if err := m.Apply(r.Event); err != nil {
			t.Fatalf("journal %s:%d: %v", path, r.Line, err)
		}
		seen[fingerprintOf(m.State())] = true
	}
	return seen, jf
}

func eventLines(jf *match.JournalFile) []string {
	var out []string
	for _, e := range jf.Events() {
		out = append(out, rules.FormatEvent(e))
	}
	return out
}

func TestKillRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns daemon processes")
	}
	tmp := t.TempDir()
	source, _ := boardEvents(t, tmp, "autoplay-board.yaml")

	// The uninterrupted run.
	ref := filepath.Join(tmp, "uninterrupted")
	c := startChild(t, source, ref, false, 1)
	if err := <-c.done; err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, c.stderr.String())
	}
	_, want := journalStates(t, ref)
	wantLines := eventLines(want)
	wantState, err := want.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if len(wantLines) < 40 || len(wantState.State().Boards) != 1 {
		t.Fatalf("the simulated board is too short to test anything: %d events, boards %+v", len(wantLines), wantState.State().Boards)
	}

	// Killed and restarted. The board lasts about 4.5 minutes of simulated
	// time; at speed 150 a run without kills takes under 2 s.
	seed := uint64(time.Now().UnixNano())
	t.Logf("kill delays seeded with %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	dir := filepath.Join(tmp, "killed")
	kills, finished := 0, false
	for run := 0; run < 80 && !finished; run++ {
		c := startChild(t, source, dir, true, 150)
		// Mostly while it plays; one time in eight while it starts.
		delay := time.Duration(10+rng.IntN(190)) * time.Millisecond
		if rng.IntN(8) != 0 {
			select {
			case <-c.ready:
			case err := <-c.done:
				t.Fatalf("run %d ended before it was ready: %v\n%s", run, err, c.stderr.String())
			}
		} else {
			delay = time.Duration(rng.IntN(100)) * time.Millisecond
		}
		select {
		case err := <-c.done:
			if err != nil {
				t.Fatalf("run %d: %v\n%s", run, err, c.stderr.String())
			}
			finished = true
		case <-time.After(delay):
			c.cmd.Process.Signal(syscall.SIGKILL)
			<-c.done
			kills++
		}
		// Everything the child announced is in the journal it left.
		seen := map[fingerprint]bool{}
		if p, _ := match.LatestJournal(dir); p != "" {
			seen, _ = journalStates(t, dir)
		}
		c.mu.Lock()
		for i, fp := range c.states {
			if !seen[fp] {
				t.Fatalf("run %d (killed after %v): announced state %d %+v is not in the journal", run, delay, i, fp)
			}
		}
		c.mu.Unlock()
	}
	if !finished {
		c := startChild(t, source, dir, false, 1)
		if err := <-c.done; err != nil {
			t.Fatalf("final run: %v\n%s", err, c.stderr.String())
		}
	}
	if kills < 8 {
		t.Fatalf("only %d kills: the test proves little (the board ended too soon)", kills)
	}
	_, got := journalStates(t, dir)
	gotLines := eventLines(got)
	if strings.Join(gotLines, "\n") != strings.Join(wantLines, "\n") {
		t.Fatalf("after %d kills the journal's events differ from the uninterrupted run's:\n got %d: %v\nwant %d: %v",
			kills, len(gotLines), gotLines, len(wantLines), wantLines)
	}
	gotState, err := got.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fingerprintOf(gotState.State()), fingerprintOf(wantState.State()); g != w {
		t.Fatalf("final state %+v, want %+v", g, w)
	}
	sessions := 0
	for _, r := range got.Records {
		if r.Meta.Session > 0 {
			sessions++
		}
	}
	t.Logf("%d kills, %d sessions, %d events; final %s %d-%d", kills, sessions, len(gotLines),
		gotState.State().Teams[0].Name, gotState.State().Teams[0].Score, gotState.State().Teams[1].Score)
}
