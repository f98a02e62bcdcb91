package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
)

// An independent clip's ground truth, written as its renderer writes it:
// two strokes from N then S, a black pocketed and a white over the edge in
// the first, the striker pocketed in the second; the striker placed for N
// well inside a base circle's cut (a firm cut moon) and for S 1.15 mm short
// of the front base line (read either way).
const independentGTJSON = `{
 "fps": 30, "n_frames": 40, "board_style": "standard", "s_side_image_edge": "top",
 "board_model": {"striker_diameter": 41.5},
 "pieces": [{"class": "striker"}, {"class": "white"}, {"class": "white"}, {"class": "black"}, {"class": "black"}, {"class": "black"}, {"class": "queen"}],
 "events": [
  {"type": "stroke_start", "frame": 3, "side": "N", "piece": "striker"},
  {"type": "pocketed", "frame": 6, "piece": "black", "pocket": "SE"},
  {"type": "overboard", "frame": 7, "piece": "white"},
  {"type": "stroke_end", "frame": 12},
  {"type": "stroke_start", "frame": 20, "side": "S", "piece": "striker"},
  {"type": "pocketed", "frame": 25, "piece": "striker", "pocket": "NE"},
  {"type": "stroke_end", "frame": 25}
 ],
 "frames": [
  [], [], [{"class": "striker", "mm": [-191.71, -252.6], "state": "on_board"}], [],
  [], [], [], [], [], [], [], [], [], [], [], [], [], [], [],
  [{"class": "striker", "mm": [83.58, 252.6], "state": "on_board"}, {"class": "white", "mm": [0, 0], "state": "on_board"}]
 ]
}`

func TestIndependentClipJudgedByItsEvents(t *testing.T) {
	var gt independentGT
	if err := json.Unmarshal([]byte(independentGTJSON), &gt); err != nil {
		t.Fatal(err)
	}
	ds, either, first, err := independentDecisions(&gt)
	if err != nil {
		t.Fatal(err)
	}
	if first != board.N {
		t.Errorf("first seat %v, want N", first)
	}
	var logs []string
	for _, d := range ds {
		logs = append(logs, d.Log)
	}
	if got, want := strings.Join(logs, " | "), "N b off:w !cut_moon | S s"; got != want {
		t.Errorf("truth's events %q, want %q", got, want)
	}
	if ds[0].StartFrame != 3 || ds[0].Frame != 12 || ds[1].StartFrame != 20 || ds[1].Frame != 25 {
		t.Errorf("stroke frames %d-%d, %d-%d; want 3-12, 20-25", ds[0].StartFrame, ds[0].Frame, ds[1].StartFrame, ds[1].Frame)
	}
	if len(either) != 1 || either[1] != "S s !placement" {
		t.Errorf("either %v, want the second stroke also as \"S s !placement\"", either)
	}
	// The board of the clip as the position resumed from, N to strike.
	if got := independentLog(&gt, first); !strings.Contains(got, "position turn=N white=2 black=3 queen=on\n") || !strings.Contains(got, "break S\n") {
		t.Errorf("log %q", got)
	}
	// A full set struck from S is the opening: a break, no position.
	full := independentGT{}
	for range board.MenPerColour {
		full.Pieces = append(full.Pieces, struct {
			Class string `json:"class"`
		}{"white"}, struct {
			Class string `json:"class"`
		}{"black"})
	}
	full.Pieces = append(full.Pieces, struct {
		Class string `json:"class"`
	}{"queen"})
	if got := independentLog(&full, board.S); strings.Contains(got, "position") {
		t.Errorf("a full set: %q, want the opening", got)
	}
	// A stroke that never ends is an error, not a truth with a stroke less.
	gt.Events = gt.Events[:len(gt.Events)-1]
	if _, _, _, err := independentDecisions(&gt); err == nil {
		t.Error("a stroke without its end: no error")
	}
}

func TestIndependentSetRecognisedAndPlayed(t *testing.T) {
	dir := t.TempDir()
	if isIndependentSet(dir) {
		t.Error("an empty directory taken for the independent set")
	}
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.json", "[]")
	write("i01_x.json", independentGTJSON)
	write("i01_x.mp4", "")
	if !isIndependentSet(dir) {
		t.Fatal("index.json and no corpus truth: not the independent set")
	}
	cs, err := independentClips(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 {
		t.Fatalf("%d clips, want 1", len(cs))
	}
	c := cs[0]
	defer c.cleanup()
	args := strings.Join(c.Args, " ")
	if !strings.Contains(args, "--south-at top") || !strings.Contains(args, "--resume ") || c.Truth.Clip.Frames != 40 || c.Truth.Clip.FPS != 30 {
		t.Errorf("run %q, truth %+v", args, c.Truth.Clip)
	}
	// A corpus directory is not the independent set.
	write("x.truth.json", "{}")
	if isIndependentSet(dir) {
		t.Error("a directory with a corpus truth taken for the independent set")
	}
}

// A journal's applied event is judged against the truth's or, where the
// truth allows it, the other reading.
func TestJudgeJournalEither(t *testing.T) {
	var gt independentGT
	if err := json.Unmarshal([]byte(independentGTJSON), &gt); err != nil {
		t.Fatal(err)
	}
	c, err := newIndependentRun("x.mp4", "x", &gt)
	if err != nil {
		t.Fatal(err)
	}
	defer c.cleanup()
	journal := func(lines ...string) string {
		p := filepath.Join(t.TempDir(), "j.log")
		s := "profile icf\nplayer S Asha\nplayer N Ravi\nbreak S\nposition turn=N white=2 black=3 queen=on\n" + strings.Join(lines, "\n") + "\n"
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"N b off:w !cut_moon", "S s"}, verdictRight},
		{[]string{"N b off:w !cut_moon", "S s !placement"}, verdictRight},
		{[]string{"N b off:w"}, verdictWrong},
		{[]string{"N b off:w !cut_moon", "S s !cut_moon"}, verdictWrong},
		{[]string{"N b off:w !cut_moon"}, verdictWrong},
	} {
		v, err := judgeJournalEither(journal(tc.lines...), c.Truth, c.Either)
		if err != nil {
			t.Fatal(err)
		}
		if v.Verdict != tc.want {
			t.Errorf("%q: %s (%s), want %s", tc.lines, v.Verdict, v.Why, tc.want)
		}
	}
}
