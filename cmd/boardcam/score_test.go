package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/rules"
)

const logsDir = "../../testdata/logs"

// The demo's result, checked by hand against the ICF laws (see the comments
// in demo.log).
const demoScore = `../../testdata/logs/demo.log: icf, singles, first to 29 points
  Asha (S) v Ravi (N)
board 1  Asha wins 11: Asha cleared their white men, the queen covered by Asha  [icf: Game 2, 3]
board 2  Ravi wins 5 +1 demanded: Asha pocketed their last man with the striker, the queen on the board  [icf: Covering the Queen 31]
board 3  Asha wins 13: Asha cleared their white men, the queen covered by Asha  [icf: Game 2, 3]
board 4  Asha wins 5: Asha cleared their black men, the queen covered by Asha  [icf: Game 2, 3]
match    Asha wins 29-6 (Asha v Ravi, boards 3-1)
`

func TestScoreDemo(t *testing.T) {
	code, out, errOut := runCmd(t, "", "score", filepath.Join(logsDir, "demo.log"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != demoScore {
		t.Errorf("output:\n%s\nwant:\n%s", out, demoScore)
	}
	doc, err := os.ReadFile("../../docs/stroke-log.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), strings.ReplaceAll(out, "../../testdata", "testdata")) {
		t.Error("docs/stroke-log.md does not show the demo's score output")
	}
}

func TestScoreEveryFixture(t *testing.T) {
	want := map[string]string{
		"demo.log":              "match    Asha wins 29-6",
		"icf-doubles.log":       "match    Red Fort wins 29-26",
		"team-3board.log":       "match    Hostel 4 wins 13-11",
		"team-3board-final.log": "match    Hostel 4 wins 41-27",
		"nit-delhi.log":         "match    Tanvi wins 12-12",
		"jamshedpur.log":        "match    Priya wins 29-14",
		"four-break.log":        "match    Ram and Shyam wins 11-8",
		"position.log":          "from     position board=3 turn=N white=3 black=2 queen=covered:S score=28-20",
	}
	paths, _ := filepath.Glob(filepath.Join(logsDir, "*.log"))
	if len(paths) < len(want) {
		t.Fatalf("%d logs in %s, want at least %d", len(paths), logsDir, len(want))
	}
	for _, p := range paths {
		name := filepath.Base(p)
		code, out, errOut := runCmd(t, "", "score", p)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, errOut)
			continue
		}
		if w, ok := want[name]; !ok || !strings.Contains(out, w) {
			t.Errorf("%s: output does not contain %q:\n%s", name, w, out)
		}
		if strings.Count(out, "\nboard ") < 2 && name != "position.log" {
			t.Errorf("%s: fewer than two boards:\n%s", name, out)
		}
	}
}

func TestScoreJSON(t *testing.T) {
	code, out, errOut := runCmd(t, "", "score", "--json", filepath.Join(logsDir, "demo.log"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Profile string `json:"profile"`
		Format  string `json:"format"`
		Teams   [2]struct {
			Name      string `json:"name"`
			Score     int    `json:"score"`
			BoardsWon int    `json:"boards_won"`
		} `json:"teams"`
		Boards    []rules.BoardResult `json:"boards"`
		MatchOver bool                `json:"match_over"`
		Winner    *string             `json:"winner"`
		State     rules.State         `json:"state"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if got.Profile != "icf" || got.Format != "points-29" || !got.MatchOver || got.Winner == nil || *got.Winner != "Asha" ||
		got.Teams[0].Score != 29 || got.Teams[1].Score != 6 || len(got.Boards) != 4 || got.Boards[1].Demanded != 1 ||
		got.State.Teams[0].Score != 29 {
		t.Errorf("JSON summary %+v", got)
	}
}

func TestScoreTrace(t *testing.T) {
	log := "profile icf\nplayer S a\nplayer N b\nbreak S\nS ww\nS s\nplace w\n"
	code, out, errOut := runCmd(t, log, "score", "--trace", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "   5  S ww") || !strings.Contains(lines[1], "N to play") || !strings.Contains(lines[1], "(1 to place)") {
		t.Errorf("trace:\n%s", out)
	}
	if !strings.Contains(out, "match    not finished: a 0-0 b (boards 0-0); board 1 in play, N to strike") {
		t.Errorf("no unfinished summary:\n%s", out)
	}
	code, out, _ = runCmd(t, log, "score", "--trace", "--json", "-")
	if code != 0 {
		t.Fatal("exit", code)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var first struct {
		Line  int         `json:"line"`
		Event string      `json:"event"`
		State rules.State `json:"state"`
	}
	if err := dec.Decode(&first); err != nil || first.Line != 5 || first.Event != "S ww" || first.State.Teams[0].OnBoard != 7 {
		t.Errorf("first trace object %+v (%v)", first, err)
	}
}

func TestScoreErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.log")
	if err := os.WriteFile(bad, []byte("profile icf\nplayer S a\nplayer N b\nbreak S\nS w\nN b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd(t, "", "score", bad)
	if code != 1 || !strings.Contains(errOut, bad+":6: N b: it is a (S)'s turn to strike") {
		t.Errorf("illegal event: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "profile icf\nplayer S a\n", "score", "-")
	if code != 1 || !strings.Contains(errOut, "(stdin):3: the header needs two sides") {
		t.Errorf("parse error: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "player S a\nplayer N b\nbreak S\n", "score", "-")
	if code != 1 || !strings.Contains(errOut, "no profile line") {
		t.Errorf("no profile: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "", "score")
	if code != 2 || !strings.Contains(errOut, "one log file") {
		t.Errorf("no file: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "", "score", "--profile", "pool", "-")
	if code != 2 || !strings.Contains(errOut, "unknown profile") {
		t.Errorf("bad profile: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "", "score", filepath.Join(dir, "missing.log"))
	if code != 1 || !strings.Contains(errOut, "missing.log") {
		t.Errorf("missing file: exit %d, %q", code, errOut)
	}
}

func TestScoreProfileOverride(t *testing.T) {
	// Under ICF a jumping striker is no foul; under nit-delhi it is.
	log := "profile icf\nplayer S a\nplayer N b\nbreak S\nS w off:s\n"
	_, out, _ := runCmd(t, log, "score", "--trace", "-")
	if !strings.Contains(out, "S to play") {
		t.Errorf("icf: %s", out)
	}
	code, out, errOut := runCmd(t, log, "score", "--trace", "--profile", "nit-delhi", "-")
	if code != 0 || !strings.Contains(out, "N to play") || !strings.Contains(out, "striker_overboard") || !strings.Contains(errOut, "not icf") {
		t.Errorf("nit-delhi: exit %d\n%s\n%s", code, out, errOut)
	}
	// --profile supplies a missing profile; --format chooses the format.
	code, out, errOut = runCmd(t, "player S a\nplayer N b\nbreak S\n", "score", "--profile", "team-3board", "--format", "points-29", "-")
	if code != 0 || !strings.Contains(out, "team-3board, singles, first to 29 points") {
		t.Errorf("team-3board final: exit %d\n%s\n%s", code, out, errOut)
	}
}

// --sheet writes the match sheet (package sheet tests its content).
func TestScoreSheet(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"sheet.pdf", "sheet.csv"} {
		p := filepath.Join(dir, name)
		code, out, errOut := runCmd(t, "", "score", "--sheet", p, filepath.Join(logsDir, "demo.log"))
		if code != 0 || out != demoScore {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{"sheet.pdf": "%PDF-", "sheet.csv": "record,board,"}[name]; !strings.HasPrefix(string(b), want) {
			t.Errorf("%s starts %q", name, b[:min(len(b), 20)])
		}
	}
	p := filepath.Join(dir, "sheet.txt")
	if code, _, errOut := runCmd(t, "", "score", "--sheet", p, filepath.Join(logsDir, "demo.log")); code != 2 || !strings.Contains(errOut, "want a .pdf or .csv") {
		t.Errorf("--sheet sheet.txt: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("wrote a refused sheet")
	}
}
