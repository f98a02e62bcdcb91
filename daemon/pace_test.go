package daemon

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/pipeline"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/referee/refsim"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/sim"
)

func TestCostsOf(t *testing.T) {
	c := Costs{Search: 100 * time.Millisecond, Check: 8 * time.Millisecond, Detect: 5 * time.Millisecond, Track: time.Millisecond,
		Retrack: 2 * time.Millisecond, RestCheck: 3 * time.Millisecond, Reference: 4 * time.Millisecond}
	for _, tc := range []struct {
		w    Work
		want time.Duration
	}{
		{Work{}, 0}, // a frame left out in motion: no work
		{Work{RestCheck: true}, 3 * time.Millisecond},
		{Work{Reference: true}, 4 * time.Millisecond},
		{Work{Analysed: true}, time.Millisecond}, // the tracker on a frame not calibrated
		{Work{Analysed: true, Did: pipeline.Work{Detected: true}}, 6 * time.Millisecond},
		{Work{Analysed: true, Did: pipeline.Work{Searched: true}}, 101 * time.Millisecond},
		{Work{Analysed: true, Did: pipeline.Work{Checked: true, Detected: true, Retracked: 10}}, 34 * time.Millisecond},
	} {
		if got := c.Of(tc.w); got != tc.want {
			t.Errorf("%+v costs %v, want %v", tc.w, got, tc.want)
		}
	}
}

// The hand-over on the virtual clock, step by step: frames every 10 ms,
// the analysis busy 25 ms with each (Detect 5 ms × 5). The frames due
// while it works are handed over before it gives its frame back, the
// first one due after it only after; with nothing to do it waits for the
// next frame's time, not the wall clock.
func TestSlowCPUHandOver(t *testing.T) {
	s := NewSlowCPU(5, Costs{Detect: 5 * time.Millisecond})
	var mu sync.Mutex
	var log []string
	note := func(f string, a ...any) {
		mu.Lock()
		log = append(log, fmt.Sprintf(f, a...))
		mu.Unlock()
	}
	queue := make(chan time.Time, 10)
	done := make(chan struct{})
	go func() { // the capture
		defer close(queue)
		for i := 0; i < 6; i++ {
			at, ok := s.Arrive(time.Duration(i)*10*time.Millisecond, done)
			if !ok {
				return
			}
			note("frame %d arrives at %v", i, at.Sub(s.epoch))
			s.Handed()
			queue <- at
		}
		s.End()
	}()
	i := 0
	for at := range queue { // the analysis
		time.Sleep(time.Duration(rand.IntN(3)) * time.Millisecond) // real time means nothing
		s.Take(int64(i), at, true)
		cost := s.Charge(time.Now(), Work{Analysed: true, Did: pipeline.Work{Detected: true}})
		s.mu.Lock()
		busy := s.busy
		s.mu.Unlock()
		s.Release(func() { note("frame %d released at %v (cost %v)", i, busy, cost) })
		i++
	}
	want := []string{
		"frame 0 arrives at 0s",
		"frame 1 arrives at 10ms",
		"frame 2 arrives at 20ms",
		"frame 0 released at 25ms (cost 25ms)",
		"frame 3 arrives at 30ms",
		"frame 4 arrives at 40ms",
		"frame 1 released at 50ms (cost 25ms)",
		"frame 5 arrives at 50ms", // a tie: the buffer goes back first
		"frame 2 released at 75ms (cost 25ms)",
		"frame 3 released at 100ms (cost 25ms)",
		"frame 4 released at 125ms (cost 25ms)",
		"frame 5 released at 150ms (cost 25ms)",
	}
	if !reflect.DeepEqual(log, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(log, "\n"), strings.Join(want, "\n"))
	}
}

// A stop while the capture waits for the analysis ends the wait.
func TestSlowCPUStop(t *testing.T) {
	s := NewSlowCPU(1, Costs{Detect: time.Second})
	done := make(chan struct{})
	if _, ok := s.Arrive(0, done); !ok {
		t.Fatal("the first frame did not arrive")
	}
	s.Handed()
	s.Take(0, s.epoch, true)
	s.Charge(time.Now(), Work{Analysed: true, Did: pipeline.Work{Detected: true}})
	res := make(chan bool)
	go func() {
		_, ok := s.Arrive(time.Millisecond, done)
		res <- ok
	}()
	close(done)
	if <-res {
		t.Error("Arrive returned a frame after the stop")
	}
	s.End()
	s.Release(func() {}) // returns: no more frames are coming
}

// fileWorld is the simulated world of worldSource as a video file at
// 60 fps: the capture paces it (through the Pacer).
type fileWorld struct {
	*worldSource
	read int
}

func (f *fileWorld) Info() SourceInfo {
	i := f.worldSource.Info()
	i.Name, i.Kind, i.Live, i.Frames = "world.mp4", KindFile, false, f.n
	return i
}

func (f *fileWorld) Read(dst sight.Image) (time.Duration, error) {
	if _, err := f.worldSource.Read(dst); err != nil {
		return 0, err
	}
	f.read++
	return time.Duration(f.read-1) * time.Second / 60, nil
}

// jitterAnalyzer is the world's analyzer, detecting in every frame and
// taking a random real time over it: the run must not depend on it.
type jitterAnalyzer struct {
	*worldAnalyzer
	r    *rand.Rand
	seen []int64
}

func (a *jitterAnalyzer) Analyze(frame sight.Image, index int64, pts time.Duration) (Analysis, error) {
	time.Sleep(time.Duration(a.r.IntN(100)) * time.Microsecond)
	a.seen = append(a.seen, index)
	out, err := a.worldAnalyzer.Analyze(frame, index, pts)
	out.Work = pipeline.Work{Detected: true}
	return out, err
}

// simStrokes is the first strokes of a simulated board: their events and
// the match state the referee and the rules engine reach on them.
func simStrokes(t *testing.T, scenario string, strokes int) ([]events.Event, rules.State) {
	t.Helper()
	all, _, _ := simBoard(t, scenario)
	cut := quietFrame(t, all, strokes)
	var evs []events.Event
	for _, e := range all {
		if e.Frame < cut {
			evs = append(evs, e)
		}
	}
	sc, err := sim.Load("../testdata/scenarios/" + scenario)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := rules.ProfileByName("icf")
	cfg := referee.DefaultConfig(p)
	cfg.Tolerance, cfg.TimeTolerance = 0, 0
	ref, err := refsim.Referee(evs, refsim.DefaultHeader(sc, "icf"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return evs, ref.Match.State()
}

// The daemon on a modelled slower computer: four strokes of a simulated
// board as a 60 fps file, analysed at 5 ms a frame (Detect) on computers 1, 4 and 8
// times slower. The frames analysed are the same whatever the real time
// the analysis takes (two runs, different jitter), every frame is analysed
// on the computer that keeps up, frames are lost (dropped by the capture,
// left out in motion) on the slower ones and the analysis then keeps pace
// with the clock (it cannot analyse more frames than its time allows), and
// nothing is silently lost: with every held decision settled as guessed,
// the match is the simulator's.
func TestSlowCPUDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a simulated board through the daemon")
	}
	evs, want := simStrokes(t, "autoplay-board.yaml", 4)
	n := lastFrame(evs) + 120
	costs := Costs{Detect: 5 * time.Millisecond}
	const cfgQueue = 4
	run := func(k float64, seed uint64) ([]int64, Summary, []string) {
		src := &fileWorld{worldSource: newWorldSource(n, -1, 0, false)}
		ana := &jitterAnalyzer{worldAnalyzer: newWorldAnalyzer(evs, nil), r: rand.New(rand.NewPCG(seed, 1))}
		cfg := testConfig(t)
		cfg.Pipeline.FrameQueue = cfgQueue
		d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Source: src, Analyzer: ana, Pacer: NewSlowCPU(k, costs)}
		waitRun(t, runDaemon(t, d))
		defer d.Close()
		jf, err := match.ReadJournal(d.JournalPath(), false)
		if err != nil {
			t.Fatal(err)
		}
		st, open := settledAsGuessed(t, jf)
		if g, w := fingerprintOf(st), fingerprintOf(want); g != w {
			t.Errorf("×%v: the final state with the held decisions settled as guessed %+v, want %+v", k, g, w)
		}
		lines := eventLines(jf)
		for _, o := range open {
			lines = append(lines, o.Decision.Log+" (held: "+strings.Join(o.Decision.Reasons(), "; ")+")")
		}
		return ana.seen, d.metrics.Summary(time.Now()), lines
	}
	for _, k := range []float64{1, 4, 8} {
		seen, sum, lines := run(k, 1)
		seen2, _, lines2 := run(k, 2)
		if !reflect.DeepEqual(seen, seen2) || !reflect.DeepEqual(lines, lines2) {
			t.Errorf("×%v: two runs differ: analysed %d and %d frames, journals\n%s\n---\n%s", k, len(seen), len(seen2), strings.Join(lines, "\n"), strings.Join(lines2, "\n"))
		}
		// The analysis cannot do more than its time allows: at most one
		// frame per k×5 ms of the video, and then the frames waiting at
		// the end (the queue and the last frame).
		most := int(float64(n)/60/(k*0.005)) + 1 + cfgQueue + 1
		t.Logf("×%v: %d of %d frames analysed (at most %d fit), dropped %v, left out %v", k, len(seen), n, min(n, most), sum.Dropped, sum.Degraded)
		switch {
		case k == 1 && len(seen) != n:
			t.Errorf("×1 (5 ms a frame at 60 fps): %d of %d frames analysed", len(seen), n)
		case len(seen) > most:
			t.Errorf("×%v: %d frames analysed, more than the %d the time allows", k, len(seen), most)
		case k > 1 && len(seen) < most*3/4:
			t.Errorf("×%v: %d frames analysed, the time allows %d: the analysis idled", k, len(seen), most)
		}
	}
}
