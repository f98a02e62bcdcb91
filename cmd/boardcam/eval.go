//go:build !notools

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/boardcam/boardcam/eval"
)

func init() {
	register(command{Name: "eval", Summary: "measure the vision pipeline against the ground truth of the corpus", Run: cmdEval})
}

const evalHelp = `
Run the vision pipeline over every clip of the corpus (each DIR's
*.truth.json files and their videos; default testdata/videos) and compare
what it says with the ground truth: calibration corners, detection recall
and precision, classification, position error, identity switches, the
physical events and the fouls (by type: precision, recall, F1, timing),
and the pipeline's speed. docs/eval.md defines every figure and how to read
the table. Arguments may also be single truth files or videos.

--pipeline picks what to run: "auto" (the vision pipeline when it is
built in, else "none", which sees nothing so that every rate reads zero),
"none", "truth" (reports the ground truth itself: every figure must be
perfect; a check of the harness and of the corpus files), or another
registered name. A pipeline that emits physical events but no fouls is
refereed with the clip's referee setup.

--calibration truth is a diagnostic: the pipeline is handed every frame's
true calibration (corners, homography and lens of the truth's camera)
instead of finding the board, so that vision and the tracker can be
measured apart from calibration. The output says so; its figures are not
the product's ("auto", the default, is).

--orientation says how the pipeline learns which image side board side S
is on: "installed" (default) gives it each clip's installation setting, as
a club configures it once with calibrate --south-at (the camera's rotation
rounded to a quarter turn; a camera turned about 45° is left unset);
"inferred" configures nothing and lets the pipeline take it from the first
stroke.

--lens files (default) gives the pipeline each clip's lens file from
DIR/lenses (made by boardcam synth --lens from simulated chessboard photos,
as a club makes lens.json with calibrate --lens); --lens none gives none.
The true calibration of --calibration truth carries the true lens instead.

--remove PATTERNS plays the clips that keep a score through boardcam run
instead, with frames taken away: "burst" (0.4 s dropped every 2 s),
"random10" and "random30" (that share dropped at random, the same frames
every run), "fps30" and "fps15" (the clip as a camera at that frame rate
would film it), "fps15late" (the same camera's frames half an interval
later: the other frames) — each read unpaced, every frame read —, "speed1",
"speed2", "speed4" and "speed8" (played at its frame rate on a modelled
computer that many times slower than the one the analysis costs were
measured on, boardcam run --slow-cpu N: the daemon drops and leaves out
frames as it would there, the same frames every run and on every machine),
"wall1", "wall2", "wall4" and "wall8" (paced at that many times real time
on the wall clock, boardcam run --speed N: what this machine loses under
its load, a measurement, not repeatable; --jobs 4 suits them, they mostly
wait), a comma-separated list, or "all". Dropped frames reach the daemon
exactly as a slow computer's do. Other phases and seeds, never in "all":
"fpsN+S" (an N fps camera whose first frame is the clip's frame S),
"randomP/S" (P % at random, seed S), "burst@P" (the 0.4 s from P s into
each 2 s), "none" (every frame read unpaced and analysed). DIR may also
be the independent set's clips directory (../shared/independent/clips: an
index.json, iNN_NAME.mp4 and .json), each clip played as a match resumed
from its board and judged by its ground truth's strokes (docs/eval.md).
Each run must end right (the truth's events, score and fouls) or hold the
decisions it could not establish for the umpire, with a reason; the table
counts clips right, held and wrong, and the truth's strokes that lost
frames by how they ended. The exit status is 1 when a run is wrong.
docs/eval.md describes it.

--json prints one JSON object: {"pipeline", "calibration", "orientation",
"lens", "summary", "clips", "targets"}; each clip names its lens_file.
The exit status is 1 when a clip cannot be evaluated, and with
--require-targets also when a target is missed.
`

func cmdEval(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("eval", "[--json] [--pipeline NAME] [--calibration auto|truth] [--orientation installed|inferred] [--lens files|none] [DIR|FILE…] | --remove PATTERNS [DIR]", evalHelp, s)
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	name := fs.String("pipeline", "auto", "pipeline to evaluate: auto, "+strings.Join(eval.Names(), ", "))
	require := fs.Bool("require-targets", false, "exit 1 when a target is missed")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	window := fs.Int("event-window", eval.DefaultEventWindow, "frames within which a reported event matches a true one")
	calSrc := fs.String("calibration", string(eval.CalibrationAuto), "where the calibration comes from: auto (the pipeline finds the board) or truth (diagnostic: each frame's true calibration)")
	lensSrc := fs.String("lens", string(eval.LensFiles), "lens model: files (each clip's lens file in DIR/lenses, as a club's lens.json) or none")
	oriSrc := fs.String("orientation", string(eval.OrientationInstalled), "where side S is: installed (each clip's installation setting) or inferred (from the first stroke)")
	remove := fs.String("remove", "", "play the corpus through boardcam run with frames removed: "+strings.Join(removalNames(), ", ")+" (comma-separated), or all")
	jobs := fs.Int("jobs", defaultJobs(), "clips played at once (--remove)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *remove != "" {
		return evalRemovedArgs(ctx, s, *remove, fs.Args(), *jobs, *asJSON, *quiet)
	}
	cs, err := eval.ParseCalibrationSource(*calSrc)
	if err != nil {
		return usageError("--calibration: %v", err)
	}
	osrc, err := eval.ParseOrientationSource(*oriSrc)
	if err != nil {
		return usageError("--orientation: %v", err)
	}
	ls, err := eval.ParseLensSource(*lensSrc)
	if err != nil {
		return usageError("--lens: %v", err)
	}
	if cs == eval.CalibrationTruth && *require {
		return usageError("--require-targets measures the product: not with --calibration truth (a diagnostic)")
	}
	if *window < 1 {
		return usageError("--event-window must be at least 1 frame")
	}
	dirs := fs.Args()
	if len(dirs) == 0 {
		dirs = []string{"testdata/videos"}
	}
	files, err := eval.TruthFiles(dirs)
	if err != nil {
		return err
	}
	p, err := evalPipeline(*name, s)
	if err != nil {
		return err
	}
	opt := eval.Options{EventWindow: *window, Calibration: cs, Orientation: osrc, Lens: ls, Video: evalVideo}
	if !*quiet {
		if cs == eval.CalibrationTruth {
			fmt.Fprintf(s.Err, "eval: calibration: truth — diagnostic, not the product's figure\n")
		}
		opt.Progress = evalProgress(s)
	}
	rep, runErr := eval.Run(ctx, files, eval.Refereed(p), opt)
	if rep == nil {
		return runErr
	}
	if *asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(s.Out, "%s\n", b)
	} else if err := rep.WriteTable(s.Out); err != nil {
		return err
	}
	if runErr != nil {
		return runErr
	}
	if *require {
		return missedTargets(rep)
	}
	return nil
}

// evalRemovedArgs reads --remove's patterns (comma-separated, or all) and
// its one corpus directory, and plays them.
func evalRemovedArgs(ctx context.Context, s stdio, remove string, dirs []string, jobs int, asJSON, quiet bool) error {
	names := removalNames()
	if remove != "all" {
		names = nil
		for _, n := range strings.Split(remove, ",") {
			n = strings.TrimSpace(n)
			if _, ok := findRemoval(n); !ok {
				return usageError("--remove: no pattern %q (have %s, all)", n, strings.Join(removalNames(), ", "))
			}
			names = append(names, n)
		}
	}
	if len(dirs) > 1 {
		return usageError("--remove takes one corpus directory")
	}
	dir := "testdata/videos"
	if len(dirs) == 1 {
		dir = dirs[0]
	}
	return evalRemoved(ctx, s, dir, names, jobs, asJSON, quiet)
}

// evalPipeline makes the pipeline named (auto: the vision pipeline, or
// none when no vision pipeline is built in, said on stderr).
func evalPipeline(name string, s stdio) (eval.Pipeline, error) {
	pn := name
	if pn == "auto" {
		pn = "none"
		if eval.Registered(eval.DefaultPipeline) {
			pn = eval.DefaultPipeline
		} else {
			fmt.Fprintf(s.Err, "eval: no vision pipeline is built in yet: evaluating %q, which sees nothing (every rate reads zero)\n", pn)
		}
	}
	if !eval.Registered(pn) {
		return nil, usageError("--pipeline: no pipeline %q (have auto, %s)", pn, strings.Join(eval.Names(), ", "))
	}
	return eval.New(pn)
}

// evalProgress says on stderr when each clip starts and ends.
func evalProgress(s stdio) func(clip string, done, total int) {
	var mu sync.Mutex
	last := ""
	return func(clip string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if done == total || clip != last {
			fmt.Fprintf(s.Err, "eval: %s: %d/%d frames\n", clip, done, total)
			last = clip
		}
	}
}

// missedTargets is an error naming the targets the report misses.
func missedTargets(rep *eval.Report) error {
	var missed []string
	for _, t := range rep.Targets {
		if !t.Pass {
			missed = append(missed, t.Name)
		}
	}
	if len(missed) > 0 {
		return fmt.Errorf("%d targets missed: %s", len(missed), strings.Join(missed, ", "))
	}
	return nil
}
