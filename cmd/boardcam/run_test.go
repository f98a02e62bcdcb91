package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/eval"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
)

// simulated writes the ground-truth events of a scenario as JSON lines.
func simulated(t *testing.T, scenario string) string {
	t.Helper()
	code, out, errOut := runCmd(t, "", "simulate", "--json", "../../testdata/scenarios/"+scenario)
	if code != 0 {
		t.Fatalf("simulate: %s", errOut)
	}
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var journalLine = regexp.MustCompile(`journal: (\S+)`)

func journalState(t *testing.T, out string) (string, rules.State) {
	t.Helper()
	m := journalLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no journal in the output:\n%s", out)
	}
	jf, err := match.ReadJournal(m[1], false)
	if err != nil {
		t.Fatal(err)
	}
	match, err := jf.Replay()
	if err != nil {
		t.Fatal(err)
	}
	return m[1], match.State()
}

// `boardcam run` on a file of events: it prints the final score, the
// journal and the pipeline's figures; `boardcam score` replays the journal
// to the same score.
func TestRunEvents(t *testing.T) {
	src := simulated(t, "autoplay-board.yaml")
	dir := t.TempDir()
	code, out, errOut := runCmd(t, "", "run", "--source", "events:"+src, "--no-pace", "--listen", "", "--journal-dir", dir,
		"--players", "S=Asha,N=Ravi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"score: Asha ", "board 1  Asha wins", "journal: " + dir, "pipeline: ", "frame → journal", "pocket → sink"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	path, st := journalState(t, out)
	if len(st.Boards) != 1 || st.Teams[0].Name != "Asha" {
		t.Errorf("journal state %+v", st)
	}
	code, score, errOut := runCmd(t, "", "score", path)
	if code != 0 || !strings.Contains(score, "board 1  Asha wins") {
		t.Errorf("score of the journal: exit %d %s %s", code, score, errOut)
	}
	// the match sheet of the journal says who decided each line
	sheetPath := filepath.Join(dir, "sheet.csv")
	if code, _, errOut := runCmd(t, "", "score", "--sheet", sheetPath, path); code != 0 {
		t.Fatalf("score --sheet: exit %d %s", code, errOut)
	}
	b, err := os.ReadFile(sheetPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\nstroke,1,") || !strings.Contains(string(b), ",camera\n") || strings.Contains(string(b), ",log\n") {
		t.Errorf("the sheet of a journal:\n%s", b)
	}
}

// --display term draws the scoreboard on standard output.
func TestRunDisplayTerm(t *testing.T) {
	src := simulated(t, "autoplay-board.yaml")
	code, out, errOut := runCmd(t, "", "run", "--source", "events:"+src, "--no-pace", "--listen", "", "--journal-dir", t.TempDir(), "--display", "term")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"A  South", "B  North", "board 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal scoreboard lacks %q", want)
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("source:\n  uri: x.mp4\nmatch:\n  profil: icf\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--config", bad}, 1, "bad.yaml:4: match.profil: unknown key"},
		{[]string{"--display", "lcd"}, 1, "--display: unknown display"},
		{[]string{"--south-at", "sideways"}, 1, "--south-at: \"sideways\": want bottom, right, top, left or first-stroke"},
		{[]string{"--lens-file", filepath.Join(dir, "none.lens.json")}, 1, "--lens-file: "},
		{[]string{"--players", "S=Asha,E=Ravi"}, 1, "--players:"},
		{[]string{"--source", filepath.Join(dir, "none.mp4"), "--listen", ""}, 1, "none.mp4"},
		{[]string{"extra"}, 2, "takes no arguments"},
	}
	for _, c := range cases {
		code, _, errOut := runCmd(t, "", append([]string{"run", "--journal-dir", dir}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("run %v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	// Without the demo clip (another working directory), the error says
	// what to do.
	t.Chdir(dir)
	code, _, errOut := runCmd(t, "", "run", "--journal-dir", dir, "--listen", "")
	if code != 1 || !strings.Contains(errOut, "demo clip is missing") || !strings.Contains(errOut, "--source") {
		t.Errorf("no demo clip: exit %d %q", code, errOut)
	}
}

// runCorpusClip plays one clip through boardcam run and compares the end
// with the truth. southAt "" is the installation's orientation.
func runCorpusClip(t *testing.T, dir, v, name string, truth *corpus.Truth, lenses *corpus.LensIndex, southAt string) (diffs []string) {
	c, err := newClipRun(dir, v, name, truth, lenses, southAt)
	if err != nil {
		t.Fatal(err)
	}
	defer c.cleanup()
	args := append(append([]string{"run"}, c.Args...), "--no-pace", "--listen", "", "--journal-dir", t.TempDir(), "--quiet=false", "--no-evidence")
	code, out, errOut := runCmd(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	jpath, got := journalState(t, out)
	want := *truth.Judgement.Final
	// Every frame analysed: nothing may wait for the umpire.
	if v, err := judgeJournal(jpath, truth); err != nil {
		t.Fatal(err)
	} else if v.Verdict != verdictRight {
		diffs = append(diffs, fmt.Sprintf("%s: %s %+v", v.Verdict, v.Why, v.Held))
	}
	// The same fouls, by type.
	jf, err := match.ReadJournal(jpath, false)
	if err != nil {
		t.Fatal(err)
	}
	var gotF, wantF []string
	for _, r := range jf.Records {
		if r.Event != nil && r.Meta.By != match.ByLog { // not the fouls of the log resumed from
			gotF = append(gotF, foulsOf(r.Event)...)
		}
	}
	for _, d := range truth.Judgement.Decisions {
		if e := d.Event(); e != nil {
			wantF = append(wantF, foulsOf(e)...)
		}
	}
	sort.Strings(gotF)
	sort.Strings(wantF)
	if strings.Join(gotF, " ") != strings.Join(wantF, " ") {
		diffs = append(diffs, fmt.Sprintf("fouls %v, want %v", gotF, wantF))
	}
	for i := 0; i < 2; i++ {
		if got.Teams[i].Score != want.Teams[i].Score || got.Teams[i].Pocketed != want.Teams[i].Pocketed || got.Teams[i].BoardsWon != want.Teams[i].BoardsWon {
			diffs = append(diffs, fmt.Sprintf("team %d: got %+v, want %+v", i, got.Teams[i], want.Teams[i]))
		}
	}
	if got.Board != want.Board || got.Strokes != want.Strokes || got.Queen != want.Queen {
		diffs = append(diffs, fmt.Sprintf("board %d strokes %d queen %+v; want %d %d %+v", got.Board, got.Strokes, got.Queen, want.Board, want.Strokes, want.Queen))
	}
	return diffs
}

// With no orientation configured, the daemon learns it from the first
// stroke (--south-at first-stroke): clips filmed with side S at the top
// and at the side end as the truth has them.
func TestRunFirstStrokeOrientation(t *testing.T) {
	if os.Getenv("BOARDCAM_E2E") == "" {
		t.Skip("set BOARDCAM_E2E=1 to run corpus clips through boardcam run")
	}
	const dir = "../../testdata/videos"
	lenses, err := corpus.ReadLensIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"queen-returned", "placement-both-lines"} {
		v := filepath.Join(dir, name+".mp4")
		tp, err := corpus.FindTruth(dir, name)
		if err != nil {
			t.Fatal(err)
		}
		truth, err := corpus.ReadTruth(tp)
		if err != nil {
			t.Fatal(err)
		}
		if d, _ := eval.SouthAtOf(&truth.Cameras[0], board.ICF()); d == "bottom" {
			t.Fatalf("%s: side S is at the bottom: not a test of the orientation", name)
		}
		t.Run(name, func(t *testing.T) {
			for _, d := range runCorpusClip(t, dir, v, name, truth, lenses, daemon.SouthAtFirstStroke) {
				t.Error(d)
			}
		})
	}
}

func foulsOf(e rules.Event) []string {
	var fs []rules.Foul
	switch v := e.(type) {
	case rules.Stroke:
		fs = v.Fouls
	case rules.Place:
		fs = v.Fouls
	case rules.FoulCall:
		fs = v.Fouls
	}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}
