package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/render/paint"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/web"
)

// scriptAnalyzer reports, for each frame, the pieces a script gives (all
// at rest by default) and records the frames it analysed.
type scriptAnalyzer struct {
	state      func(index int64) string // piece state of every piece
	unanalysed map[int64]string
	seen       []int64
}

func (a *scriptAnalyzer) Analyze(frame sight.Image, index int64, pts time.Duration) (Analysis, error) {
	a.seen = append(a.seen, index)
	if why := a.unanalysed[index]; why != "" {
		return Analysis{Unanalysed: why}, nil
	}
	st := web.PieceRest
	if a.state != nil {
		st = a.state(index)
	}
	return Analysis{Pieces: []web.Piece{{ID: "W4", MM: [2]float64{10, 10}, State: st}, {ID: "B2", MM: [2]float64{-50, 30}, State: web.PieceRest}}}, nil
}
func (a *scriptAnalyzer) Flush() (Analysis, error)      { return Analysis{}, nil }
func (a *scriptAnalyzer) Reset()                        {}
func (a *scriptAnalyzer) Calibrate([4][2]float64) error { return nil }
func (a *scriptAnalyzer) Close() error                  { return nil }

// frameSpec is one frame put in the analysis queue: its index, its
// picture (a grey level) and whether it comes after a lost picture.
type frameSpec struct {
	index   int64
	level   float64
	resumed bool
	// at is when the frame was captured, after the first (0: with it).
	at time.Duration
}

// runAnalysis queues the frames all at once (the analysis is behind by
// as many frames as wait) and runs the analysis component over them.
func runAnalysis(t *testing.T, a Analyzer, lossless bool, queue int, frames []frameSpec) ([]match.Observation, *Daemon) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Pipeline.FrameQueue = queue
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Clock: clocktest.New(), analyzer: a, catchUp: -1}
	d.metrics = NewMetrics(nil, d.Clock.Now())
	c := &capture{out: make(chan *Frame, len(frames)), pool: newFramePool(len(frames)), lossless: lossless, pics: testSight.Pictures}
	for _, f := range frames {
		m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(f.level, f.level, f.level, 0), 48, 64, gocv.MatTypeCV8UC3)
		c.out <- &Frame{Image: &m, Index: f.index, Resumed: f.resumed, Captured: d.Clock.Now().Add(f.at)}
	}
	close(c.out)
	d.cap = c
	d.setSrcErr(ErrEOF) // a video that ended
	out := make(chan match.Observation, len(frames)+1)
	d.analyze(out)
	var obs []match.Observation
	for o := range out {
		obs = append(obs, o)
	}
	t.Cleanup(func() { // after the test: d.ended is one of them
		for f := c.pool.get(); f != nil; f = c.pool.get() {
			f.Image.Close()
		}
	})
	return obs, d
}

func frames(n int, level float64) []frameSpec {
	out := make([]frameSpec, n)
	for i := range out {
		out[i] = frameSpec{index: int64(i), level: level}
	}
	return out
}

func gaps(obs []match.Observation) []string {
	var out []string
	for _, o := range obs {
		if o.Gap != nil {
			out = append(out, o.Gap.Reason)
		}
	}
	return out
}

// Behind with everything at rest, the analysis leaves out the frames a
// cheap check finds unchanged, and that is no gap: nothing was missed.
// A frame that changed is analysed.
func TestSkipAtRestWhenBehind(t *testing.T) {
	a := &scriptAnalyzer{}
	obs, d := runAnalysis(t, a, false, 8, frames(8, 100))
	if got := a.seen; len(got) != 3 || got[0] != 0 || got[1] != 6 || got[2] != 7 {
		t.Errorf("analysed %v, want [0 6 7] (1–5 left out while 2 or more waited)", got)
	}
	if g := gaps(obs); len(g) != 0 {
		t.Errorf("gaps %v", g)
	}
	if n := d.metrics.degradedCount(DegradedAtRest); n != 5 {
		t.Errorf("%d frames counted left out at rest, want 5", n)
	}
	fs := frames(8, 100)
	fs[3].level = 160 // a hand comes over the board
	a = &scriptAnalyzer{}
	runAnalysis(t, a, false, 8, fs)
	if got := a.seen; len(got) < 2 || got[1] != 3 {
		t.Errorf("analysed %v: the changed frame 3 was left out", got)
	}
	// Not behind: every frame.
	a = &scriptAnalyzer{}
	runAnalysis(t, a, true, 8, frames(8, 100))
	if len(a.seen) != 8 {
		t.Errorf("lossless: analysed %v", a.seen)
	}
}

// Behind while pieces move, the analysis leaves out every other frame,
// and reports each gap to the referee with what moved.
func TestDecimateInMotionReportsGaps(t *testing.T) {
	a := &scriptAnalyzer{state: func(int64) string { return web.PieceMoving }}
	obs, d := runAnalysis(t, a, false, 8, frames(8, 100))
	if got := a.seen; len(got) != 6 || got[1] != 2 || got[2] != 4 || got[3] != 5 {
		t.Errorf("analysed %v, want [0 2 4 5 6 7]", got)
	}
	g := gaps(obs)
	if len(g) != 2 || g[0] != "frames 1 were not analysed (1 left out to keep up) while W4 was moving" {
		t.Errorf("gaps %q", g)
	}
	for _, o := range obs {
		if o.Gap != nil && (!o.Gap.Moved || len(o.Gap.IDs) != 1 || o.Gap.IDs[0] != "W4") {
			t.Errorf("gap %+v", o.Gap)
		}
	}
	if n := d.metrics.degradedCount(DegradedInMotion); n != 2 {
		t.Errorf("%d frames counted left out in motion, want 2", n)
	}
	if n := metricValue(t, d.metrics.degradedC.WithLabelValues(DegradedInMotion)); n != 2 {
		t.Errorf("/metrics boardcam_degraded_frames_total{how=\"in_motion\"} = %v, want 2", n)
	}
	if n := metricValue(t, d.metrics.backlog); n != 0 {
		t.Errorf("/metrics boardcam_analysis_backlog_frames = %v at the end, want 0", n)
	}
	// Frames a second apart: the backlog drains by itself, and only the
	// frame that would have filled the queue is left out.
	fs := frames(8, 100)
	for i := range fs {
		fs[i].at = time.Duration(i) * time.Second
	}
	a2 := &scriptAnalyzer{state: a.state}
	runAnalysis(t, a2, false, 8, fs)
	if got := a2.seen; len(got) != 7 || got[1] != 2 {
		t.Errorf("draining: analysed %v, want all but frame 1", got)
	}
	snap := d.anaSlot
	if snap == nil || snap.Status != web.AnalysisBehind || snap.Decimated != 2 || len(snap.Missed) != 2 || !strings.Contains(snap.Missed[0].Reason, "W4") {
		t.Errorf("analysis status %+v", snap)
	}
}

// Frames dropped by the capture, frames in which the board was lost and
// a lost picture are each a gap with its reason.
func TestGapsOfDropsBoardLostAndStall(t *testing.T) {
	a := &scriptAnalyzer{}
	obs, _ := runAnalysis(t, a, true, 8, []frameSpec{{index: 0}, {index: 1}, {index: 5}, {index: 6}})
	if g := gaps(obs); len(g) != 1 || g[0] != "frames 2–4 were not analysed (3 dropped: the analysis fell behind); nothing was seen moving across them" {
		t.Errorf("drops: %q", g)
	}
	a = &scriptAnalyzer{unanalysed: map[int64]string{2: "the camera moved", 3: "the camera moved"}}
	obs, _ = runAnalysis(t, a, true, 8, frames(5, 0))
	if g := gaps(obs); len(g) != 1 || !strings.Contains(g[0], "frames 2–3 were not analysed (2 the board was not found in them: the camera moved)") {
		t.Errorf("board lost: %q", g)
	}
	// The board lost until the end of the video: nobody knows what
	// happened in those frames.
	a = &scriptAnalyzer{unanalysed: map[int64]string{3: "the camera moved", 4: "the camera moved"}}
	obs, _ = runAnalysis(t, a, true, 8, frames(5, 0))
	if g := gaps(obs); len(g) != 1 || !strings.HasPrefix(g[0], "frames 3–4 at the end of the video were not analysed") || !obs[len(obs)-1].Gap.Moved {
		t.Errorf("board lost at the end: %q", g)
	}
	// The board never found: the whole video went unrefereed, and the
	// referee hears it (a video whose strokes all went unseen must not
	// end as if nothing happened: issue 11, the hunt's h09).
	a = &scriptAnalyzer{unanalysed: map[int64]string{0: "looking for the board", 1: "board not found: no edges", 2: "board not found: no edges"}}
	obs, _ = runAnalysis(t, a, true, 8, frames(3, 0))
	if g := gaps(obs); len(g) != 1 || g[0] != "the board was never found in the video (frames 0–2 not analysed: board not found: no edges): nothing in them was refereed, what happened in them is not known" || !obs[len(obs)-1].Gap.Moved || obs[len(obs)-1].Gap.After != -1 {
		t.Errorf("board never found: %q", g)
	}
	a = &scriptAnalyzer{state: func(i int64) string {
		if i == 2 {
			return web.PieceHeld
		}
		return web.PieceRest
	}}
	obs, _ = runAnalysis(t, a, true, 8, []frameSpec{{index: 0}, {index: 1}, {index: 2, resumed: true}})
	if g := gaps(obs); len(g) != 1 || g[0] != "the picture was lost between frames 1 and 2 (the camera stalled or was reconnected) while W4 was under a hand" {
		t.Errorf("stall: %q", g)
	}
}

func TestMovedAcross(t *testing.T) {
	before := []web.Piece{{ID: "W4", MM: [2]float64{0, 0}, State: web.PieceRest}, {ID: "B2", MM: [2]float64{50, 50}, State: web.PieceRest},
		{ID: "Q", MM: [2]float64{0, 0}, State: web.PieceRest}, {ID: "S", MM: [2]float64{0, 250}, State: web.PieceRest}}
	after := []web.Piece{{ID: "W4", MM: [2]float64{85, -85}, State: web.PieceRest}, {ID: "B2", MM: [2]float64{52, 51}, State: web.PieceRest},
		{ID: "Q", State: web.PiecePocketed}, {ID: "S", MM: [2]float64{0, 250}, State: web.PieceRest}}
	ids, words := movedAcross(before, after, 8, false)
	if strings.Join(ids, " ") != "Q W4" || words != "Q went from the centre (pocketed) and W4 moved 120 mm towards NE" {
		t.Errorf("%v %q", ids, words)
	}
	if ids, _ := movedAcross(before, before, 8, false); len(ids) != 0 {
		t.Errorf("nothing moved: %v", ids)
	}
	// The striker handled between strokes: no move over a short gap.
	held := []web.Piece{{ID: "S", MM: [2]float64{40, 250}, State: web.PieceHeld}}
	if ids, _ := movedAcross(before[3:], held, 8, true); len(ids) != 0 {
		t.Errorf("striker under a hand over a short gap: %v", ids)
	}
	if ids, _ := movedAcross(before[3:], held, 8, false); len(ids) != 1 {
		t.Errorf("striker under a hand over a long gap: %v", ids)
	}
	if ids, _ := movedAcross(before[3:], []web.Piece{{ID: "S", MM: [2]float64{40, 250}, State: web.PieceMoving}}, 8, true); len(ids) != 1 {
		t.Errorf("striker moving: %v", ids)
	}
}

// metricValue reads a counter or gauge as /metrics exports it.
func metricValue(t *testing.T, m prometheus.Metric) float64 {
	t.Helper()
	var pb dto.Metric
	if err := m.Write(&pb); err != nil {
		t.Fatal(err)
	}
	switch {
	case pb.Counter != nil:
		return pb.Counter.GetValue()
	case pb.Gauge != nil:
		return pb.Gauge.GetValue()
	}
	t.Fatalf("not a counter or gauge: %v", &pb)
	return 0
}

// The web's frame (preview, still) is the next frame the capture reads,
// copied when asked for: the daemon keeps no copy of the last frame while
// the stream runs. A request nobody answers ends without a frame; once the
// stream has ended the last frame the analysis took is given at once
// (manual calibration on a still after a video ended); none after Close.
func TestCopyFrameNextThenLast(t *testing.T) {
	d := &Daemon{Painter: paint.Painter{}, Clock: clocktest.New()}
	d.metrics = NewMetrics(nil, d.Clock.Now())
	c := &capture{out: make(chan *Frame, 4), pool: newFramePool(4), pics: testSight.Pictures, metrics: d.metrics, answer: d.answerFrame, next: 7}
	d.cap = c
	dst := d.Painter.NewImage()
	defer dst.Close()
	c.deliver(&Frame{Image: testFrame(t, 10)}, true, d.Clock.Now()) // nobody asked: nothing kept
	<-c.out
	got := make(chan [2]int64)
	go func() {
		i, ok := d.CopyFrame(dst)
		okN := int64(0)
		if ok {
			okN = 1
		}
		got <- [2]int64{i, okN}
	}()
	for {
		d.frameMu.Lock()
		n := len(d.frameReqs)
		d.frameMu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	// A frame the capture drops (no buffer) answers too.
	c.deliver(&Frame{Image: testFrame(t, 200)}, false, d.Clock.Now())
	if r := <-got; r != [2]int64{8, 1} {
		t.Fatalf("CopyFrame gave frame %d ok %v, want 8 true", r[0], r[1] == 1)
	}
	m := dst.(*gocv.Mat)
	if m.Rows() != 48 || m.Cols() != 64 || m.GetVecbAt(5, 5)[0] != 200 {
		t.Errorf("the copy is %dx%d, pixel %v; want 64x48 of 200", m.Cols(), m.Rows(), m.GetVecbAt(5, 5))
	}
	start := time.Now()
	if _, ok := d.CopyFrame(dst); ok {
		t.Error("a frame given with no frame read")
	}
	if w := time.Since(start); w < frameWait {
		t.Errorf("gave up after %v, before frameWait", w)
	}
	if len(d.frameReqs) != 0 {
		t.Errorf("%d requests left after the wait", len(d.frameReqs))
	}

	// The stream ended: the last frame taken, at once, as often as asked.
	specs := frames(4, 50)
	specs[3].level = 90
	_, d2 := runAnalysis(t, &scriptAnalyzer{}, true, 8, specs)
	d2.Painter = paint.Painter{}
	for range 2 {
		start = time.Now()
		i, ok := d2.CopyFrame(dst)
		if !ok || i != 3 || dst.(*gocv.Mat).GetVecbAt(5, 5)[0] != 90 {
			t.Fatalf("after the end: frame %d ok %v pixel %v, want the last (3, 90)", i, ok, dst.(*gocv.Mat).GetVecbAt(5, 5))
		}
		if w := time.Since(start); w >= frameWait {
			t.Errorf("the last frame took %v", w)
		}
	}
	d2.Close()
	if _, ok := d2.CopyFrame(dst); ok {
		t.Error("a frame given after Close")
	}
}

func testFrame(t *testing.T, level float64) sight.Image {
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(level, level, level, 0), 48, 64, gocv.MatTypeCV8UC3)
	t.Cleanup(func() { m.Close() })
	return &m
}
