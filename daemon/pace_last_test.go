package daemon

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/boardcam/boardcam/sight"
)

// slowCopy is the test's pictures with a Copy that takes wait: the
// capture copies a file's last frame, dropped as it arrived, into a free
// buffer at the end of the file (deliverLast) with it.
type slowCopy struct {
	sight.Pictures
	wait time.Duration
}

func (p slowCopy) Copy(dst, src sight.Image) {
	time.Sleep(p.wait)
	p.Pictures.Copy(dst, src)
}

// lateAnalysis is a SlowCPU whose analysis, once the capture waits to hand
// the last frame over, comes back wait after giving a frame back; lasts
// counts those ends of the file where two frames or more waited behind
// the one analysed.
type lateAnalysis struct {
	*SlowCPU
	wait  time.Duration
	lasts *int
}

func (p lateAnalysis) Last() {
	p.mu.Lock()
	if p.inflight >= 3 {
		*p.lasts++
	}
	p.mu.Unlock()
	p.SlowCPU.Last()
}

func (p lateAnalysis) Release(put func()) {
	p.SlowCPU.Release(put)
	p.mu.Lock()
	last := p.last || p.ended
	p.mu.Unlock()
	if last {
		time.Sleep(p.wait)
	}
}

// The file's last frame, dropped as it arrived (no buffer free), is still
// handed over at the end of the file (deliverLast). On a modelled computer
// the frames analysed must not depend on who is first then: the capture
// copying that frame into the buffer the analysis gives back, or the
// analysis taking its next frame and counting the frames waiting (which
// decides whether it leaves that frame out in motion). Two forced
// schedules, 8 times slower at 60 fps, files of 20 to 39 frames: the
// capture's copy takes 5 ms, or the analysis takes 5 ms after each frame it
// gives back. Before Pacer.Last, files of 21, 28 and 33 frames were
// analysed differently (one frame more with the slow copy).
func TestSlowCPULastFrame(t *testing.T) {
	costs := Costs{Detect: 5 * time.Millisecond}
	lasts := 0
	run := func(n int, copyWait, analysisWait time.Duration) []int64 {
		src := &fileWorld{worldSource: newWorldSource(n, -1, 0, false)}
		ana := &jitterAnalyzer{worldAnalyzer: newWorldAnalyzer(nil, nil), r: rand.New(rand.NewPCG(uint64(n), 1))}
		cfg := testConfig(t)
		cfg.Pipeline.FrameQueue = 4
		sg := testSight
		sg.Pictures = slowCopy{Pictures: testSight.Pictures, wait: copyWait}
		d := &Daemon{Sight: sg, Config: cfg, Logger: quietLogger(), Source: src, Analyzer: ana,
			Pacer: lateAnalysis{SlowCPU: NewSlowCPU(8, costs), wait: analysisWait, lasts: &lasts}}
		waitRun(t, runDaemon(t, d))
		d.Close()
		return ana.seen
	}
	for n := 20; n < 40; n++ {
		a := run(n, 5*time.Millisecond, 0)
		b := run(n, 0, 5*time.Millisecond)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%d frames: analysed %v with the capture's copy slow, %v with the analysis slow", n, a, b)
		}
	}
	if lasts == 0 {
		t.Error("no file ended with its last frame dropped and two frames waiting: the test tried nothing")
	}
	t.Logf("%d of 40 runs ended with the last frame dropped and two frames or more waiting", lasts)
}
