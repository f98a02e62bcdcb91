package analysis

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/pipeline"
)

// costClips are the clips BenchmarkWorkCosts plays: the demo (60 fps, a
// whole board), a break, a 120 fps clip turned a quarter (the board frame
// turned by the first stroke), a lens, glare and a small board at 60 fps.
var costClips = []string{"demo", "break", "single-pocket", "streak-red-striker", "camera-knock"}

// BenchmarkWorkCosts measures what each kind of work the analysis does for
// a frame (pipeline.Work) costs on this computer: the figures the daemon's
// modelled slower computer (daemon.SlowCPU, DefaultCosts) is calibrated
// with. Run it alone, on one core:
//
//	taskset -c 0 go test -run '^$' -bench WorkCosts -benchtime 1x ./vision/analysis/
//
// The stages are timed by the process's CPU time (OpenCV's worker threads
// included), not the wall clock: on a shared machine the figures are what
// the work costs, not how long it waited for a core. It reports the mean
// per frame that did it: search-ms (looking for the
// board, Timing.Calibrate), check-ms (checking the calibration),
// detect-ms (Timing.Vision), track-ms (Timing.Tracker, every frame
// analysed), retrack-ms (per frame tracked again), restcheck-ms (the
// change detector's look at a frame, Changed) and reference-ms (taking a
// frame as its reference, Reference).
func BenchmarkWorkCosts(b *testing.B) {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "videos")
	lenses, err := corpus.ReadLensIndex(dir)
	if err != nil {
		b.Skip(err)
	}
	var sum struct {
		search, check, detect, track, retrack, rest, ref time.Duration
		nSearch, nCheck, nDetect, nTrack, nRetrack       int
		nRest                                            int
	}
	for i := 0; i < b.N; i++ {
		for _, name := range costClips {
			tp, err := corpus.FindTruth(dir, name)
			if err != nil {
				b.Skip(err)
			}
			truth, err := corpus.ReadTruth(tp)
			if err != nil {
				b.Fatal(err)
			}
			video := filepath.Join(dir, name+".mp4")
			if _, err := os.Stat(video); err != nil {
				b.Skip(err)
			}
			cfg := pipeline.Config{Now: cpuNow}
			if e, ok := lenses.Clips[name]; ok {
				l, err := camera.LoadLens(filepath.Join(dir, corpus.LensDir, e.File))
				if err != nil {
					b.Fatal(err)
				}
				cfg.Lens = l
			}
			if turn, err := truth.Referee.FirstTurn(); err == nil {
				cfg.Turn = &turn
			}
			a, err := New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			det := NewChangeDetector()
			vc, err := OpenVideo(video)
			if err != nil {
				b.Fatal(err)
			}
			fps := float64(truth.Clip.FPS)
			for j := 0; ; j++ {
				img, ok := vc.Read()
				if !ok {
					break
				}
				t0 := cpuNow()
				det.Changed(img)
				t1 := cpuNow()
				det.Reference(img)
				sum.rest += t1.Sub(t0)
				sum.ref += cpuNow().Sub(t1)
				sum.nRest++
				r, err := a.Process(img, j, float64(j)/fps)
				if err != nil {
					b.Fatal(err)
				}
				w := r.Work
				switch {
				case w.Searched:
					sum.search += r.Timing.Calibrate
					sum.nSearch++
				case w.Checked:
					sum.check += r.Timing.Calibrate
					sum.nCheck++
				}
				if w.Detected {
					sum.detect += r.Timing.Vision
					sum.nDetect++
				}
				if w.Retracked > 0 {
					sum.retrack += r.Timing.Tracker
					sum.nRetrack += w.Retracked
				} else {
					sum.track += r.Timing.Tracker
					sum.nTrack++
				}
			}
			vc.Close()
			det.Close()
			a.Close()
		}
	}
	ms := func(d time.Duration, n int) float64 {
		if n == 0 {
			return 0
		}
		return d.Seconds() * 1000 / float64(n)
	}
	b.ReportMetric(ms(sum.search, sum.nSearch), "search-ms")
	b.ReportMetric(ms(sum.check, sum.nCheck), "check-ms")
	b.ReportMetric(ms(sum.detect, sum.nDetect), "detect-ms")
	b.ReportMetric(ms(sum.track, sum.nTrack), "track-ms")
	b.ReportMetric(ms(sum.retrack, sum.nRetrack), "retrack-ms")
	b.ReportMetric(ms(sum.rest, sum.nRest), "restcheck-ms")
	b.ReportMetric(ms(sum.ref, sum.nRest), "reference-ms")
	b.Logf("frames: %d searched, %d checked, %d detected, %d tracked, %d tracked again", sum.nSearch, sum.nCheck, sum.nDetect, sum.nTrack, sum.nRetrack)
}

// cpuNow is the CPU time the process has used, as a time.
func cpuNow() time.Time {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Unix(0, ru.Utime.Nano()+ru.Stime.Nano())
}
