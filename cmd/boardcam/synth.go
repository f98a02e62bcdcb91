//go:build !notools

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/render/synth"
)

func init() {
	register(command{Name: "synth", Summary: "regenerate the synthetic test-video corpus (clips + ground truth) from its specs", Run: cmdSynth})
}

const synthHelp = `
Regenerate the synthetic corpus: for every clip spec DIR/NAME.yaml (a
simulator scenario with render: and expect: sections, see docs/corpus.md)
simulate it, referee its exact events, check that it shows what expect:
says, render it and write DIR/NAME.mp4 and DIR/NAME.truth.json (gzipped as
.truth.json.gz when large). DIR defaults to testdata/videos.

The output is deterministic: the same specs give the same frames and truth
(on the same architecture with the same OpenCV); the truth records the
frames' SHA-256. The video's bytes also depend on the machine's x264:
another CPU may encode the same frames into other bytes. --check
regenerates into a temporary directory and compares each clip with the
committed one: its frames' hash and truth file byte for byte, and that
the committed video is the one its truth describes; a video encoded
differently from identical frames is noted, not a difference (a truth
without the frames' hash is compared by the video's bytes). It exits 1
naming the clips that differ. --dry-run only simulates and checks
the specs (fast: nothing is rendered) and prints what each clip shows.

--lens makes the corpus's lens files instead: for every distinct camera it
renders 15 photos of a printed chessboard (9×6 inner corners, 25 mm)
through the camera's lens, calibrates the lens from them as calibrate
--lens does, and writes DIR/lenses/cam-ID.lens.json and DIR/lenses/index.json
(which clip uses which file). boardcam eval gives each clip its lens file
like a club's lens.json.

Limits: each clip at most 3 MB, the corpus at most 60 MB; a clip over them
is an error. Every regenerated clip adds its size to the git history for
good: change committed clips only when the change is worth it.
`

// Corpus size limits (bytes).
const (
	maxClipBytes   = 3 << 20
	maxCorpusBytes = 60 << 20
)

func cmdSynth(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("synth", "[--check] [--dry-run] [--lens] [--only NAME,…] [--jobs N] [DIR]", synthHelp, s)
	check := fs.Bool("check", false, "regenerate into a temporary directory and compare bytes with the committed files")
	dry := fs.Bool("dry-run", false, "simulate and check the specs only; render nothing")
	only := fs.String("only", "", "comma-separated clip `names` to (re)generate (default: every spec in DIR)")
	jobs := fs.Int("jobs", max(1, runtime.NumCPU()/2), "clips rendered at the same time")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	lensMode := fs.Bool("lens", false, "instead of the clips, (re)make each camera's lens file by a simulated chessboard calibration (see docs/calibration.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *lensMode && (*check || *dry) {
		return usageError("--lens excludes --check and --dry-run")
	}
	if fs.NArg() > 1 {
		return usageError("synth takes at most one directory, got %d arguments", fs.NArg())
	}
	if *jobs < 1 {
		return usageError("--jobs must be at least 1")
	}
	if *check && *dry {
		return usageError("--check and --dry-run exclude each other")
	}
	dir := "testdata/videos"
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	specs, err := synthSpecs(dir, *only)
	if err != nil {
		return err
	}
	all := *only == ""
	if all {
		if miss := corpus.MissingTags(specs); len(miss) > 0 {
			fmt.Fprintf(s.Err, "synth: warning: no clip covers %s\n", strings.Join(miss, ", "))
		}
	}
	if *dry {
		return synthDry(specs, s)
	}
	var mu sync.Mutex
	logf := func(format string, a ...any) {
		if *quiet {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(s.Err, "synth: "+format+"\n", a...)
	}
	if *lensMode {
		return synthLenses(ctx, dir, specs, all, logf, s)
	}
	tmp := ""
	if *check {
		if tmp, err = os.MkdirTemp("", "boardcam-synth-check-"); err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		// Board files the specs refer to are relative to the spec: the
		// specs are read from DIR, so only the outputs go to tmp.
	}
	results := synthClips(ctx, specs, dir, tmp, *jobs, logf)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if *check {
		return synthChecked(specs, results, s)
	}
	return synthWritten(specs, results, dir, s)
}

// synthSpecs reads the clip specs of dir: all of them, or those named in
// only (comma-separated).
func synthSpecs(dir, only string) ([]*corpus.Spec, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory of clip specs", dir)
	}
	specs, err := corpus.LoadDir(dir)
	if err != nil || only == "" {
		return specs, err
	}
	byName := map[string]*corpus.Spec{}
	for _, sp := range specs {
		byName[sp.Name] = sp
	}
	specs = nil
	for _, n := range strings.Split(only, ",") {
		n = strings.TrimSuffix(strings.TrimSpace(n), ".yaml")
		sp, ok := byName[n]
		if !ok {
			return nil, usageError("--only: no clip spec %s.yaml in %s", n, dir)
		}
		specs = append(specs, sp)
	}
	return specs, nil
}

// synthResult is what making (or checking) one clip gave.
type synthResult struct {
	truth *corpus.Truth
	diffs []string
	notes []string
	err   error
	secs  float64
}

// synthClips renders the clips, jobs at a time, into dir, or with tmp set
// regenerates them there and compares them with dir's (--check). Progress
// goes to logf, a quarter of each clip at a time.
func synthClips(ctx context.Context, specs []*corpus.Spec, dir, tmp string, jobs int, logf func(string, ...any)) []synthResult {
	var mu sync.Mutex
	shown := map[string]int{}
	opt := synth.Options{Context: ctx, Progress: func(name string, done, total int) {
		q := 4 * done / total
		mu.Lock()
		last := shown[name]
		if q > last {
			shown[name] = q
		}
		mu.Unlock()
		if q > last && done < total {
			logf("%s: frame %d/%d", name, done, total)
		}
	}}
	results := make([]synthResult, len(specs))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(jobs, len(specs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				sp := specs[i]
				start := time.Now()
				logf("%s: start (%d×%d, %d fps)", sp.Name, sp.Render.Width, sp.Render.Height, sp.Scenario.FPS)
				var r synthResult
				if tmp != "" {
					var c synth.CheckResult
					c, r.err = synth.Check(sp, dir, tmp, opt)
					r.diffs, r.notes = c.Diffs, c.Notes
				} else {
					r.truth, r.err = synth.Generate(sp, dir, opt)
				}
				r.secs = time.Since(start).Seconds()
				switch {
				case r.err != nil:
					logf("%s: FAILED: %v", sp.Name, r.err)
				case len(r.diffs) > 0:
					logf("%s: DIFFERS (%.0f s)", sp.Name, r.secs)
				default:
					logf("%s: done (%.0f s)", sp.Name, r.secs)
				}
				results[i] = r
			}
		}()
	}
	for i := range specs {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	return results
}

// failedClips lists the clips that could not be made and their errors.
func failedClips(specs []*corpus.Spec, results []synthResult) (failed []string, errs []error) {
	for i, r := range results {
		if r.err != nil {
			failed = append(failed, specs[i].Name)
			errs = append(errs, r.err)
		}
	}
	return failed, errs
}

// synthChecked prints what --check found: the clips that differ from the
// committed files, and those this machine's x264 encodes into other bytes.
func synthChecked(specs []*corpus.Spec, results []synthResult, s stdio) error {
	var differ, encoded []string
	for i, r := range results {
		if len(r.diffs) > 0 {
			differ = append(differ, specs[i].Name)
			for _, d := range r.diffs {
				fmt.Fprintf(s.Out, "%s: %s\n", specs[i].Name, d)
			}
		}
		if len(r.notes) > 0 {
			encoded = append(encoded, specs[i].Name)
			for _, d := range r.notes {
				fmt.Fprintf(s.Out, "%s: note: %s\n", specs[i].Name, d)
			}
		}
	}
	if failed, errs := failedClips(specs, results); len(errs) > 0 {
		return fmt.Errorf("could not regenerate %s: %w", strings.Join(failed, ", "), errors.Join(errs...))
	}
	if len(differ) > 0 {
		return fmt.Errorf("%d of %d clips differ from the committed files: %s", len(differ), len(specs), strings.Join(differ, ", "))
	}
	if len(encoded) > 0 {
		fmt.Fprintf(s.Out, "all %d clips regenerate bit for bit (frames and truth; this machine's x264 encodes the same frames into other bytes for %s)\n", len(specs), strings.Join(encoded, ", "))
		return nil
	}
	fmt.Fprintf(s.Out, "all %d clips regenerate bit for bit\n", len(specs))
	return nil
}

// synthWritten prints a table of the clips written and checks the size
// limits.
func synthWritten(specs []*corpus.Spec, results []synthResult, dir string, s stdio) error {
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "clip\tsize\tfps\tframes\tseconds\tvideo MB\ttruth kB\t\n")
	var over []string
	for i, r := range results {
		if r.truth == nil {
			continue
		}
		c := r.truth.Clip
		tsize := int64(0)
		if p, err := corpus.FindTruth(dir, c.Name); err == nil {
			if st, err := os.Stat(p); err == nil {
				tsize = st.Size()
			}
		}
		fmt.Fprintf(tw, "%s\t%dx%d\t%d\t%d\t%.2f\t%.2f\t%.0f\t\n", specs[i].Name, c.Width, c.Height, c.FPS, c.Frames, c.Duration,
			float64(c.Bytes)/(1<<20), float64(tsize)/1024)
		if c.Bytes > maxClipBytes {
			over = append(over, fmt.Sprintf("%s is %.2f MB (at most 3 MB)", c.Name, float64(c.Bytes)/(1<<20)))
		}
	}
	tw.Flush()
	total, files, err := corpusBytes(dir)
	if err == nil {
		fmt.Fprintf(s.Out, "corpus: %d clips, %.1f MB of video and truth in %s\n", files, float64(total)/(1<<20), dir)
		if total > maxCorpusBytes {
			over = append(over, fmt.Sprintf("the corpus is %.1f MB (at most 60 MB)", float64(total)/(1<<20)))
		}
	}
	if failed, errs := failedClips(specs, results); len(errs) > 0 {
		return fmt.Errorf("%d clips failed: %s: %w", len(failed), strings.Join(failed, ", "), errors.Join(errs...))
	}
	if len(over) > 0 {
		return fmt.Errorf("size limits exceeded: %s", strings.Join(over, "; "))
	}
	return nil
}

// corpusBytes adds up the videos and truth files in dir.
func corpusBytes(dir string) (int64, int, error) {
	var total int64
	vids, err := filepath.Glob(filepath.Join(dir, "*.mp4"))
	if err != nil {
		return 0, 0, err
	}
	truths, _ := filepath.Glob(filepath.Join(dir, "*.truth.json*"))
	for _, f := range append(vids, truths...) {
		if st, err := os.Stat(f); err == nil {
			total += st.Size()
		}
	}
	return total, len(vids), nil
}

// synthDry simulates and verifies every spec and prints what it shows.
func synthDry(specs []*corpus.Spec, s stdio) error {
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "clip\tsize\tfps\tseconds\tstrokes\tpocketed\tfouls\tcovers\n")
	var errs []error
	for _, sp := range specs {
		sim, err := synth.Simulate(sp)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := sim.Verify(); err != nil {
			errs = append(errs, err)
		}
		var sides, pockets, fouls []string
		for _, st := range sim.Trace.Strokes {
			sides = append(sides, st.Side.String())
			for _, p := range st.Pocketed {
				pockets = append(pockets, p.ID+"@"+p.Pocket.String())
			}
		}
		for _, f := range sim.Judgement.Fouls {
			fouls = append(fouls, string(f.Foul)+"@"+f.Seat.String())
		}
		cov := append([]string(nil), sp.Expect.Covers...)
		sort.Strings(cov)
		fmt.Fprintf(tw, "%s\t%dx%d\t%d\t%.2f\t%s\t%s\t%s\t%s\n", sp.Name, sp.Render.Width, sp.Render.Height, sim.Trace.FPS, sim.Trace.Duration,
			dash(strings.Join(sides, " ")), dash(strings.Join(pockets, " ")), dash(strings.Join(fouls, " ")), strings.Join(cov, " "))
	}
	tw.Flush()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
