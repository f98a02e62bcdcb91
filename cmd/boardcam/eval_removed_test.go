package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/boardcam/boardcam/corpus"
)

// knownWrongAtLowerFPS are the runs the tracker gets wrong when the clip
// is played as a camera at a lower frame rate would film it (boardcam eval
// --remove fps30,fps15,fps15late testdata/videos, at this commit): nothing is
// missing as far as the daemon can tell (the frames are numbered without
// gaps), so only the tracker can say it is unsure. TestEvalFramesRemoved
// expects exactly these to end wrong (one that ends right or held must
// come off the list: it only shrinks). Empty since the tracker holds a
// slide under a following hand found where it stops, a backward flick
// seen once and found behind its place on that line, and a stroke whose
// start was not seen (tracker/lowfps.go).
var knownWrongAtLowerFPS = map[string]bool{}

// `boardcam eval --remove`: every clip that keeps a score, played through
// boardcam run as cameras at 30 and 15 fps would film it, and the same
// 15 fps camera with its frames half an interval later (nothing is
// missing as far as the daemon can tell: only the tracker can say it is
// unsure). Every run ends right or holds the decisions concerned for the
// umpire with a reason, and every stroke that lost frames is right or
// held — but the known misses at a lower frame rate
// (knownWrongAtLowerFPS), which must still end wrong. Deterministic (the
// same frames every run). It analyses about three quarters of the
// corpus' frames (fps15 and fps15late each a half of the 30 fps clips and
// a quarter of the 60 fps ones, fps30 half of the 60 fps clips); the
// frames are decoded once for both tests (removedCorpus).
// Frames the daemon knows it missed are TestRunSlowerCPU's (the slower
// computers drop and leave out frames as the daemon decides); bursts,
// frames dropped at random (random10, random30) and the wall clock's
// speeds (wall1…wall8) are measurements: boardcam eval --remove runs them
// (docs/eval.md).
func TestEvalFramesRemoved(t *testing.T) {
	if os.Getenv("BOARDCAM_E2E") == "" {
		t.Skip("set BOARDCAM_E2E=1 to play the corpus with frames removed")
	}
	t.Parallel()
	all := removedCorpus(t)
	if len(all.rep.Runs) == 0 {
		t.Skip("the corpus clips are not rendered")
	}
	rep := all.only(all.lost)
	logSummary(t, "frames removed", rep)
	played, wrong := map[string]int{}, 0
	for _, r := range rep.Runs {
		key := r.Removal + " " + r.Clip
		if r.Skipped != "" {
			continue
		}
		played[r.Removal]++
		if r.Error != "" {
			t.Errorf("%s: %s", key, r.Error)
			continue
		}
		if runWrong(r) {
			wrong++
			if !knownWrongAtLowerFPS[key] {
				t.Errorf("%s: silently wrong: %s\napplied %q\nwant    %q", key, r.Why, r.Applied, r.Want)
			}
		} else if knownWrongAtLowerFPS[key] {
			t.Errorf("%s now ends %s: take it off knownWrongAtLowerFPS", key, r.Verdict)
		}
		if r.Removed == 0 {
			t.Errorf("%s: no frame removed", key)
		}
	}
	for _, n := range all.lost {
		if played[n] == 0 {
			t.Errorf("%s: no run played", n)
		}
	}
	all.checkExit(t, wrong)
}

// removedRuns is the corpus played once with the removals of
// TestRunSlowerCPU and TestEvalFramesRemoved: one eval --remove, so that
// each clip is decoded once for its seven runs (the runs are the same as
// in two evals: each is a function of its clip and its removal).
type removedRuns struct {
	rep         removedReportJSON
	code        int
	errOut      string
	wrong       map[string]int // per removal
	err         string         // the eval could not be read
	sweep, lost []string
}

var (
	removedOnce sync.Once
	removedAll  removedRuns
)

// removedCorpus runs `boardcam eval --remove speed1,speed2,speed4,speed8,
// fps30,fps15,fps15late --json` on the corpus, once per test binary.
func removedCorpus(t *testing.T) *removedRuns {
	t.Helper()
	removedOnce.Do(func() {
		r := &removedAll
		r.sweep, r.lost = []string{"speed1", "speed2", "speed4", "speed8"}, []string{"fps30", "fps15", "fps15late"}
		code, out, errOut := runCmd(t, "", "eval", "--remove", strings.Join(append(append([]string(nil), r.sweep...), r.lost...), ","), "--json", "--quiet", "../../testdata/videos")
		r.code, r.errOut, r.wrong = code, errOut, map[string]int{}
		if err := json.Unmarshal([]byte(out), &r.rep); err != nil {
			r.err = fmt.Sprintf("exit %d, %v: %s\n%s", code, err, out, errOut)
			return
		}
		for _, run := range r.rep.Runs {
			if run.Skipped == "" && (run.Error != "" || runWrong(run)) {
				r.wrong[run.Removal]++
			}
		}
	})
	if removedAll.err != "" {
		t.Fatal(removedAll.err)
	}
	return &removedAll
}

// only is the report of the named removals alone.
func (r *removedRuns) only(names []string) removedReportJSON {
	var out removedReportJSON
	for _, s := range r.rep.Summary {
		if slices.Contains(names, s.Removal) {
			out.Summary = append(out.Summary, s)
		}
	}
	for _, run := range r.rep.Runs {
		if slices.Contains(names, run.Removal) {
			out.Runs = append(out.Runs, run)
		}
	}
	return out
}

// checkExit checks eval's exit status: 1 when a run of any removal ended
// wrong (wrong of this test's, the others' as counted by the eval), else 0.
func (r *removedRuns) checkExit(t *testing.T, wrong int) {
	t.Helper()
	total := 0
	for _, n := range r.wrong {
		total += n
	}
	if wrong > total {
		t.Errorf("%d runs wrong here, %d in all", wrong, total)
	}
	if want := min(total, 1); r.code != want {
		t.Errorf("%d runs wrong (%d here), exit %d (want %d): %s", total, wrong, r.code, want, r.errOut)
	}
}

// The harness can fail: a run that ends otherwise than its truth says is
// reported wrong, and eval exits 1. A clip the tracker gets right as a
// 15 fps camera films it, judged against its truth with one more stroke
// appended (the last one again, deliberately broken): the run applies one
// event fewer than that truth wants and holds nothing. One short clip,
// half its frames analysed: a few seconds.
func TestEvalRemovedHarnessFails(t *testing.T) {
	const src, name = "../../testdata/videos", "placement-arrow"
	if _, err := os.Stat(filepath.Join(src, name+".mp4")); err != nil {
		t.Skip("the corpus clips are not rendered")
	}
	// a corpus of one clip: its video, the lens index and the broken truth
	dir := t.TempDir()
	for _, f := range []string{name + ".mp4", corpus.LensDir} {
		abs, err := filepath.Abs(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(src, name+".truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var truth map[string]any
	if err := json.Unmarshal(b, &truth); err != nil {
		t.Fatal(err)
	}
	j, _ := truth["judgement"].(map[string]any)
	ds, _ := j["decisions"].([]any)
	if len(ds) == 0 {
		t.Fatalf("%s: the truth has no decision", name)
	}
	j["decisions"] = append(ds, ds[len(ds)-1])
	if b, err = json.Marshal(truth); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".truth.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "", "eval", "--remove", "fps15", "--json", "--quiet", dir)
	rep := removedReport(t, code, out, errOut)
	if len(rep.Runs) != 1 || rep.Runs[0].Clip != name || rep.Runs[0].Error != "" {
		t.Fatalf("runs %+v", rep.Runs)
	}
	r := rep.Runs[0]
	switch {
	case !runWrong(r) && len(r.Held) > 0:
		t.Errorf("fps15 %s now ends held (%v): play a clip the tracker gets right at 15 fps here", name, r.Held[0].Reasons)
	case !runWrong(r):
		t.Errorf("fps15 %s against a truth with one more stroke ends %s: the harness cannot fail", name, r.Verdict)
	case code != 1:
		t.Errorf("a wrong run, exit %d: want 1", code)
	}
}

type removedReportJSON struct {
	Summary []removedSummary `json:"summary"`
	Runs    []removedRun     `json:"runs"`
}

func removedReport(t *testing.T, code int, out, errOut string) removedReportJSON {
	t.Helper()
	var rep removedReportJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d, %v: %s\n%s", code, err, out, errOut)
	}
	return rep
}

// runWrong reports whether a run or one of its strokes that lost frames
// ended wrong.
func runWrong(r removedRun) bool {
	if r.Verdict == verdictWrong {
		return true
	}
	for _, s := range r.Strokes {
		if s.Fate == verdictWrong {
			return true
		}
	}
	return false
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
