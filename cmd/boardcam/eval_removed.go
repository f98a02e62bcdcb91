package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/vision/analysis"
)

// boardcam eval --remove: the corpus played through `boardcam run` (every
// frame read, none paced) with frames taken away, as a slow computer or a
// slower camera would: every clip must end right, or with the decisions it
// could not establish held for the umpire, never with a different score.

// removal is one way of taking frames away.
type removal struct {
	Name string
	// Help says what it does.
	Help string
	// drop names the frames dropped as if the analysis were busy (the
	// daemon knows it missed them); fps, instead, plays the clip as a
	// camera at that frame rate would have filmed it (every k-th frame,
	// numbered without gaps: nothing is missing as far as the daemon can
	// tell).
	drop func(clip string, fps, frames int) func(int64) bool
	fps  int
	// late: the slower camera's frames are taken half its frame interval
	// later (the clip's odd frames at 30 fps, frames 2, 6, 10 … at 60):
	// what happens between a camera's frames depends on where they fall.
	late bool
	// phase, when phased, is the clip's frame the slower camera's first
	// frame is (eval_phases.go: fpsN+S).
	phase  int
	phased bool
	// slow, instead, plays the clip at its frame rate on a modelled
	// computer that many times slower than the one the analysis costs
	// were measured on (boardcam run --slow-cpu; daemon.SlowCPU): the
	// daemon drops, leaves out and reports frames as it would there, the
	// same frames on every run and every machine.
	slow float64
	// speed, instead, plays the clip paced at that many times real time
	// on the wall clock (boardcam run --speed): this computer made that
	// many times slower. What is lost then depends on the machine and its
	// load, not on the clip: such runs are measurements, not repeatable.
	speed float64
}

var removals = []removal{
	{Name: "burst", Help: "0.4 s of frames dropped every 2 s (a stall of the analysis)", drop: func(clip string, fps, _ int) func(int64) bool {
		return func(i int64) bool {
			t := float64(i) / float64(fps)
			ph := t - 2*float64(int(t/2))
			return ph >= 0.7 && ph < 1.1
		}
	}},
	{Name: "random10", Help: "10% of the frames dropped at random", drop: randomDrop(0.10)},
	{Name: "random30", Help: "30% of the frames dropped at random", drop: randomDrop(0.30)},
	{Name: "fps30", Help: "played as a 30 fps camera would film it (60 and 120 fps clips)", fps: 30},
	{Name: "fps15", Help: "played as a 15 fps camera would film it", fps: 15},
	{Name: "fps15late", Help: "played as a 15 fps camera would film it, half a frame interval later (the other frames)", fps: 15, late: true},
	{Name: "speed1", Help: "played on the modelled computer the analysis costs were measured on (boardcam run --slow-cpu 1; deterministic)", slow: 1},
	{Name: "speed2", Help: "played on a modelled computer 2 times slower (--slow-cpu 2)", slow: 2},
	{Name: "speed4", Help: "played on a modelled computer 4 times slower (--slow-cpu 4; a Pi at 60 fps, about)", slow: 4},
	{Name: "speed8", Help: "played on a modelled computer 8 times slower (--slow-cpu 8)", slow: 8},
	{Name: "wall1", Help: "paced at real time on the wall clock (boardcam run --speed 1): what this computer loses now, under its load", speed: 1},
	{Name: "wall2", Help: "paced at 2× real time on the wall clock (--speed 2)", speed: 2},
	{Name: "wall4", Help: "paced at 4× real time on the wall clock (--speed 4)", speed: 4},
	{Name: "wall8", Help: "paced at 8× real time on the wall clock (--speed 8)", speed: 8},
}

// randomDrop drops each frame with probability p, the same frames every
// run (seeded by the clip's name).
func randomDrop(p float64) func(clip string, fps, frames int) func(int64) bool {
	return func(clip string, _, frames int) func(int64) bool {
		h := fnv.New64a()
		h.Write([]byte(clip))
		r := rand.New(rand.NewPCG(h.Sum64(), uint64(p*1000)))
		gone := make([]bool, frames+1)
		for i := range gone {
			gone[i] = r.Float64() < p
		}
		return func(i int64) bool { return i < int64(len(gone)) && gone[i] }
	}
}

func findRemoval(name string) (removal, bool) {
	for _, r := range removals {
		if r.Name == name {
			return r, true
		}
	}
	return parsedRemoval(name)
}

func removalNames() []string {
	var out []string
	for _, r := range removals {
		out = append(out, r.Name)
	}
	return out
}

// removedRun is one clip played with frames removed.
type removedRun struct {
	Clip    string `json:"clip"`
	Removal string `json:"removal"`
	// Skipped says why the clip was not played (already at that frame
	// rate).
	Skipped string `json:"skipped,omitempty"`
	Error   string `json:"error,omitempty"`
	clipVerdict
	// Removed is how many frames were taken away; Strokes the truth's
	// strokes whose frames (start to rest) lost some, and how each ended.
	Removed int           `json:"removed"`
	Strokes []strokeFated `json:"strokes_with_frames_removed,omitempty"`
}

// strokeFated is how a stroke that lost frames ended: right (applied as
// the truth has it), held (waiting for the umpire) or wrong.
type strokeFated struct {
	Frames [2]int `json:"frames"`
	Truth  string `json:"truth"`
	Fate   string `json:"fate"`
}

// removedSummary sums the runs of one removal.
type removedSummary struct {
	Removal string `json:"removal"`
	Clips   int    `json:"clips"`
	Right   int    `json:"right"`
	Held    int    `json:"held"`
	Wrong   int    `json:"wrong"`
	// StrokesRemoved counts the truth's strokes that lost frames, and how
	// they ended.
	StrokesRemoved int `json:"strokes_with_frames_removed"`
	StrokesRight   int `json:"strokes_right"`
	StrokesHeld    int `json:"strokes_held"`
	StrokesWrong   int `json:"strokes_wrong"`
}

// evalRemoved plays every clip under every removal and reports.
func evalRemoved(ctx context.Context, s stdio, dir string, names []string, jobs int, asJSON, quiet bool) error {
	list := func(dir string) ([]clipRun, error) { return corpusClips(dir, "") }
	if isIndependentSet(dir) {
		list = independentClips
	}
	clips, err := list(dir)
	if err != nil {
		return err
	}
	defer func() {
		for _, c := range clips {
			c.cleanup()
		}
	}()
	if len(clips) == 0 {
		return fmt.Errorf("no clip of %s keeps a score (no truth with a final state)", dir)
	}
	// A job plays one clip under the removals that do not depend on the
	// wall clock, side by side on one decoder (sharedVideo): the clip is
	// decoded once, not once per removal. The wall clock's speeds (wallK)
	// are measured each on its own, as before.
	type job struct {
		c  clipRun
		rs []removal
	}
	var todo []job
	runs := 0
	for _, c := range clips {
		var shared []removal
		for _, n := range names {
			r, _ := findRemoval(n)
			if r.speed > 0 {
				todo = append(todo, job{c, []removal{r}})
			} else {
				shared = append(shared, r)
			}
			runs++
		}
		if len(shared) > 0 {
			todo = append(todo, job{c, shared})
		}
	}
	// The side-by-side runs of a clip look for the board in the same first
	// frame: searched once (analysis.ShareSearches), not once per run. A
	// wall-clock run would then find the board sooner than it does alone,
	// so not with them.
	wall := false
	for _, n := range names {
		r, _ := findRemoval(n)
		wall = wall || r.speed > 0
	}
	if !wall {
		analysis.ShareSearches()
	}
	// The longest clips first, so that the workers end together.
	sort.SliceStable(todo, func(i, j int) bool { return todo[i].c.Truth.Clip.Frames > todo[j].c.Truth.Clip.Frames })
	var results []removedRun
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := make(chan int)
	start := time.Now()
	finish := func(c clipRun, r removal, res removedRun) {
		mu.Lock()
		defer mu.Unlock()
		results = append(results, res)
		if !quiet {
			v := res.Verdict
			if res.Skipped != "" {
				v = "skipped"
			} else if res.Error != "" {
				v = "error: " + res.Error
			}
			fmt.Fprintf(s.Err, "eval --remove: %d/%d %s %s: %s (%.0fs)\n", len(results), runs, r.Name, c.Name, v, time.Since(start).Seconds())
		}
	}
	for w := 0; w < max(1, jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := todo[i]
				if len(j.rs) == 1 && j.rs[0].speed > 0 {
					finish(j.c, j.rs[0], playRemoved(ctx, j.c, j.rs[0], nil))
					continue
				}
				v, err := newSharedVideo(j.c.Video, analysis.Pictures{})
				if err != nil {
					for _, r := range j.rs {
						finish(j.c, r, removedRun{Clip: j.c.Name, Removal: r.Name, Error: err.Error()})
					}
					continue
				}
				readers := make([]*sharedReader, len(j.rs))
				for k := range j.rs {
					readers[k] = v.reader()
				}
				var group sync.WaitGroup
				for k, r := range j.rs {
					group.Add(1)
					go func() {
						defer group.Done()
						res := playRemoved(ctx, j.c, r, readers[k])
						readers[k].Close() // also when the run never read
						finish(j.c, r, res)
					}()
				}
				group.Wait()
				v.Close()
			}
		}()
	}
	for i := range todo {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	sort.SliceStable(results, func(i, j int) bool {
		a, b := results[i], results[j]
		if a.Removal != b.Removal {
			return indexOf(names, a.Removal) < indexOf(names, b.Removal)
		}
		return a.Clip < b.Clip
	})
	var sums []removedSummary
	wrong := 0
	for _, n := range names {
		sm := removedSummary{Removal: n}
		for _, r := range results {
			if r.Removal != n || r.Skipped != "" {
				continue
			}
			sm.Clips++
			switch {
			case r.Error != "":
				sm.Wrong++
			case r.Verdict == verdictRight:
				sm.Right++
			case r.Verdict == verdictHeld:
				sm.Held++
			default:
				sm.Wrong++
			}
			for _, st := range r.Strokes {
				sm.StrokesRemoved++
				switch st.Fate {
				case verdictRight:
					sm.StrokesRight++
				case verdictHeld:
					sm.StrokesHeld++
				default:
					sm.StrokesWrong++
				}
			}
		}
		wrong += sm.Wrong
		sums = append(sums, sm)
	}
	if asJSON {
		b, err := json.MarshalIndent(map[string]any{"summary": sums, "runs": results}, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(s.Out, "%s\n", b)
	} else {
		writeRemovedTable(s.Out, sums, results)
	}
	if wrong > 0 {
		return fmt.Errorf("%d runs ended with a different outcome and nothing held for the umpire", wrong)
	}
	return nil
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return len(xs)
}

func writeRemovedTable(w io.Writer, sums []removedSummary, runs []removedRun) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "removal\tclips\tright\theld\twrong\tstrokes with frames removed\tright\theld\twrong")
	for _, s := range sums {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", s.Removal, s.Clips, s.Right, s.Held, s.Wrong, s.StrokesRemoved, s.StrokesRight, s.StrokesHeld, s.StrokesWrong)
	}
	tw.Flush()
	for _, r := range runs {
		switch {
		case r.Error != "":
			fmt.Fprintf(w, "  %s %s: error: %s\n", r.Removal, r.Clip, r.Error)
		case r.Verdict == verdictWrong:
			fmt.Fprintf(w, "  %s %s: WRONG: %s\n", r.Removal, r.Clip, r.Why)
		case r.Verdict == verdictHeld && len(r.Held) > 0:
			reason := strings.Join(r.Held[0].Reasons, "; ")
			if len(reason) > 160 {
				reason = reason[:157] + "…"
			}
			fmt.Fprintf(w, "  %s %s: held %d (first %s: %s)\n", r.Removal, r.Clip, len(r.Held), r.Held[0].Guess, reason)
		}
	}
}

// playRemoved plays one clip with frames removed through the daemon;
// src, when not nil, is the clip's video (else the run opens it).
func playRemoved(ctx context.Context, c clipRun, r removal, src daemon.Source) (out removedRun) {
	out = removedRun{Clip: c.Name, Removal: r.Name}
	fps, frames := c.Truth.Clip.FPS, c.Truth.Clip.Frames
	if fps <= 0 {
		fps = 30
	}
	dir, err := os.MkdirTemp("", "boardcam-eval-remove-")
	if err != nil {
		out.Error = err.Error()
		return out
	}
	defer os.RemoveAll(dir)
	pace := []string{"--no-pace"}
	switch {
	case r.slow > 0:
		pace = []string{"--slow-cpu", fmt.Sprint(r.slow)}
	case r.speed > 0:
		pace = []string{"--speed", fmt.Sprint(r.speed)}
	}
	args := append(append(append([]string(nil), c.Args...), pace...), "--listen", "", "--journal-dir", dir, "--quiet", "--log-level", "error", "--no-evidence")
	d, _, err := newRunDaemon(args, stdio{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	if err != nil {
		out.Error = err.Error()
		return out
	}
	if src != nil && r.fps == 0 {
		d.Source = src
	}
	gone := func(int64) bool { return false }
	var seen *analysedFrames
	if r.slow > 0 {
		// the frames not analysed are known after the run (below)
		seen = &analysedFrames{Pacer: d.Pacer, frames: map[int64]bool{}}
		d.Pacer = seen
	} else if r.speed > 0 {
		// the number of frames lost is known after the run (below)
	} else if r.fps > 0 {
		k := fps / r.fps
		if k < 2 || fps%r.fps != 0 {
			out.Skipped = fmt.Sprintf("filmed at %d fps", fps)
			return out
		}
		if src == nil {
			spec, err := daemon.ParseSource(c.Video, "")
			if err != nil {
				out.Error = err.Error()
				return out
			}
			if src, err = daemon.NewCaptureSource(spec, daemon.CaptureOptions{}, analysis.Pictures{}); err != nil {
				out.Error = err.Error()
				return out
			}
		}
		skip := 0
		if r.late {
			skip = k / 2
		}
		if r.phased {
			if r.phase >= k {
				out.Skipped = fmt.Sprintf("frame %d is not within the first %d", r.phase, k)
				return out
			}
			skip = r.phase
		}
		d.Source = &everyKth{Source: src, k: k, skip: skip}
		gone = func(i int64) bool { return i%int64(k) != int64(skip) }
	} else {
		gone = r.drop(c.Name, fps, frames)
		d.Remove = gone
	}
	for i := 0; i < frames; i++ {
		if gone(int64(i)) {
			out.Removed++
		}
	}
	if err := d.Initialize(); err != nil {
		out.Error = err.Error()
		return out
	}
	err = d.Run(ctx)
	path := d.JournalPath()
	if seen != nil {
		gone = func(i int64) bool { return !seen.frames[i] }
		out.Removed = max(0, frames-len(seen.frames))
	}
	if r.speed > 0 {
		// what the analysis did not see: frames dropped by the capture
		// and frames left out to keep up
		sum := d.Metrics().Summary(time.Now())
		out.Removed = int(sum.FramesIn - sum.FramesOut)
	}
	d.Close()
	if err != nil {
		out.Error = err.Error()
		return out
	}
	v, err := judgeJournalEither(path, c.Truth, c.Either)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	out.clipVerdict = v
	out.Strokes = strokesRemoved(c, v, gone)
	return out
}

// strokesRemoved lists the truth's strokes that lost frames from their
// start to their rest, and how each ended.
func strokesRemoved(c clipRun, v clipVerdict, gone func(int64) bool) []strokeFated {
	var out []strokeFated
	i := -1 // index among the truth's events
	for _, d := range c.Truth.Judgement.Decisions {
		if d.Event() == nil {
			continue
		}
		i++
		if d.Kind != referee.KindStroke {
			continue
		}
		lost := false
		for f := d.StartFrame; f <= d.Frame && !lost; f++ {
			lost = gone(int64(f))
		}
		if !lost {
			continue
		}
		fate := verdictWrong
		switch {
		case v.Verdict == verdictWrong && i >= firstDiff(v):
		case i < len(v.Applied) && v.Applied[i] == v.Want[i]:
			fate = verdictRight
		case i >= len(v.Applied) && v.Verdict == verdictHeld:
			fate = verdictHeld
		}
		out = append(out, strokeFated{Frames: [2]int{d.StartFrame, d.Frame}, Truth: d.Log, Fate: fate})
	}
	return out
}

// firstDiff is the index of the first event applied otherwise than the
// truth has it (or missing).
func firstDiff(v clipVerdict) int {
	for i := range v.Want {
		if i >= len(v.Applied) || v.Applied[i] != v.Want[i] {
			return i
		}
	}
	return len(v.Want)
}

// everyKth is a source that delivers every k-th frame of another, from
// frame skip on: the clip as a camera at 1/k of its frame rate would have
// filmed it.
type everyKth struct {
	daemon.Source
	k, skip int
	skipped bool
}

func (e *everyKth) Info() daemon.SourceInfo {
	i := e.Source.Info()
	i.FPS /= float64(e.k)
	if i.Frames > 0 {
		i.Frames = max(0, i.Frames-e.skip+e.k-1) / e.k
	}
	i.Identity += fmt.Sprintf("#every%d", e.k)
	if e.skip > 0 {
		i.Identity += fmt.Sprintf("+%d", e.skip)
	}
	return i
}

func (e *everyKth) Read(dst sight.Image) (time.Duration, error) {
	for j := 0; !e.skipped && j < e.skip; j++ {
		skip := gocv.NewMat()
		_, err := e.Source.Read(&skip)
		skip.Close()
		if err != nil {
			return 0, err
		}
	}
	e.skipped = true
	pts, err := e.Source.Read(dst)
	if err != nil {
		return pts, err
	}
	for j := 1; j < e.k; j++ {
		skip := gocv.NewMat()
		_, err := e.Source.Read(&skip)
		skip.Close()
		if err != nil {
			break // the next Read reports the end
		}
	}
	return pts, nil
}

// analysedFrames is a Pacer that notes the frames analysed (calibrate →
// vision → tracker), read once the run has ended.
type analysedFrames struct {
	daemon.Pacer
	frames map[int64]bool
	index  int64
}

func (a *analysedFrames) Take(index int64, captured time.Time, paced bool) {
	a.index = index
	a.Pacer.Take(index, captured, paced)
}

func (a *analysedFrames) Charge(start time.Time, w daemon.Work) time.Duration {
	if w.Analysed {
		a.frames[a.index] = true
	}
	return a.Pacer.Charge(start, w)
}

func defaultJobs() int { return min(2, runtime.NumCPU()) }
