package daemon

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/vision/analysis"
	"github.com/boardcam/boardcam/web"
)

// worldSource is a fake live camera looking at a simulated world: world
// frame w carries w in its pixels, so the analyzer can tell which frame it
// got whatever the daemon numbered it. It can stall at a world frame (the
// Read blocks until the connection is reopened; the world waits), refuse
// to reopen a number of times, and run in lockstep with the analyzer
// (tokens) so that no frame is dropped.
type worldSource struct {
	mu         sync.Mutex
	n          int // world frames
	next       int
	opens      int
	closes     int
	failOpens  int // opens refused after a loss
	refused    int
	stallAt    int // -1: never
	didStall   bool
	stalled    chan struct{} // closed when the Read at stallAt blocked
	unblock    chan struct{}
	tokens     chan struct{} // lockstep with the analyzer (nil: free-running)
	lockFrom   int           // world frames from here are read in lockstep
	pauseAt    int           // -1: never; else the world waits there for resume
	paused     chan struct{}
	resume     chan struct{}
	atEnd      chan struct{}
	endOnce    sync.Once
	readFrames int
}

func newWorldSource(n, stallAt, failOpens int, lockstep bool) *worldSource {
	s := &worldSource{n: n, stallAt: stallAt, failOpens: failOpens, stalled: make(chan struct{}), unblock: make(chan struct{}),
		atEnd: make(chan struct{}), pauseAt: -1, paused: make(chan struct{}), resume: make(chan struct{})}
	s.tokens = make(chan struct{}, 1)
	s.tokens <- struct{}{}
	if !lockstep {
		s.lockFrom = n
	}
	return s
}

func (s *worldSource) Info() SourceInfo {
	return SourceInfo{Name: "fake camera", Kind: KindV4L2, Live: true, Width: 4, Height: 4, FPS: 60}
}

func (s *worldSource) Open() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opens++
	if s.didStall && s.refused < s.failOpens {
		s.refused++
		return fmt.Errorf("fake camera: %w: no such device (refusal %d)", ErrDisconnected, s.refused)
	}
	close(s.unblock) // a read left blocked on the old connection ends
	s.unblock = make(chan struct{})
	return nil
}

func (s *worldSource) Close() error {
	s.mu.Lock()
	s.closes++
	s.mu.Unlock()
	return nil
}

func (s *worldSource) Read(dst sight.Image) (time.Duration, error) {
	s.mu.Lock()
	if s.next >= s.n {
		s.mu.Unlock()
		s.endOnce.Do(func() { close(s.atEnd) })
		return 0, fmt.Errorf("fake camera: %w", ErrEOF)
	}
	if s.next == s.stallAt && !s.didStall {
		s.didStall = true
		ch := s.unblock
		close(s.stalled)
		s.mu.Unlock()
		<-ch
		return 0, fmt.Errorf("fake camera: %w: unplugged", ErrDisconnected)
	}
	if s.next == s.pauseAt {
		s.pauseAt = -1
		close(s.paused)
		s.mu.Unlock()
		<-s.resume
		s.mu.Lock()
	}
	lock := s.next >= s.lockFrom
	s.mu.Unlock()
	if lock {
		<-s.tokens
	}
	s.mu.Lock()
	w := s.next
	s.next++
	s.readFrames++
	s.mu.Unlock()
	writeWorldFrame(dst.(*gocv.Mat), w)
	return 0, nil
}

func writeWorldFrame(dst *gocv.Mat, w int) {
	tmp := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(w&255), float64((w>>8)&255), float64((w>>16)&255), 0), 4, 4, gocv.MatTypeCV8UC3)
	tmp.CopyTo(dst)
	tmp.Close()
}

func readWorldFrame(m gocv.Mat) int {
	v := m.GetVecbAt(0, 0)
	return int(v[0]) | int(v[1])<<8 | int(v[2])<<16
}

// worldAnalyzer is a fake vision + tracker: it reports the simulator's
// events of every world frame up to the one it is shown (so a dropped
// frame delays events, as a tracker noticing a pocketing late would, but
// never loses them), and a recalibrated event after Reset.
type worldAnalyzer struct {
	mu      sync.Mutex
	evs     []events.Event
	next    int
	resets  int
	recal   bool
	recals  int
	tokens  chan struct{}
	frames  int
	lastSaw int
}

func newWorldAnalyzer(evs []events.Event, tokens chan struct{}) *worldAnalyzer {
	evs = append([]events.Event(nil), evs...)
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].Frame < evs[j].Frame })
	return &worldAnalyzer{evs: evs, tokens: tokens}
}

func (a *worldAnalyzer) Analyze(frame sight.Image, index int64, pts time.Duration) (Analysis, error) {
	w := readWorldFrame(*frame.(*gocv.Mat))
	a.mu.Lock()
	var out Analysis
	if a.recal {
		a.recal = false
		a.recals++
		out.Events = append(out.Events, events.Event{Type: events.Recalibrated, Frame: w, T: float64(w) / 60,
			CornersPx: [][2]float64{{0, 0}, {4, 0}, {4, 4}, {0, 4}}})
		out.Calibration = &web.Calibration{Status: web.CalibrationOK, Message: "recalibrated"}
	}
	for a.next < len(a.evs) && a.evs[a.next].Frame <= w {
		out.Events = append(out.Events, a.evs[a.next])
		a.next++
	}
	a.frames++
	a.lastSaw = w
	a.mu.Unlock()
	select {
	case a.tokens <- struct{}{}:
	default:
	}
	return out, nil
}

func (a *worldAnalyzer) Reset() {
	a.mu.Lock()
	a.resets++
	a.recal = true
	a.mu.Unlock()
}

func (a *worldAnalyzer) Calibrate([4][2]float64) error { return nil }
func (a *worldAnalyzer) Close() error                  { return nil }

// recorder is a Publisher that keeps every message and lets a test wait
// for one.
type recorder struct {
	mu   sync.Mutex
	cond *sync.Cond
	msgs []web.Message
	// block, when not nil, makes Publish wait until it is closed.
	block chan struct{}
	calls int
}

func newRecorder() *recorder {
	r := &recorder{}
	r.cond = sync.NewCond(&r.mu)
	return r
}

func (r *recorder) Publish(m web.Message) error {
	r.mu.Lock()
	b := r.block
	r.calls++
	r.mu.Unlock()
	if b != nil {
		<-b
	}
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.cond.Broadcast()
	r.mu.Unlock()
	return nil
}

// waitFor blocks until a message satisfies ok, and returns it.
func (r *recorder) waitFor(ok func(web.Message) bool) web.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := 0; ; {
		for ; i < len(r.msgs); i++ {
			if ok(r.msgs[i]) {
				return r.msgs[i]
			}
		}
		r.cond.Wait()
	}
}

func (r *recorder) cameraStatuses() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, m := range r.msgs {
		if c, ok := m.(web.Camera); ok && (len(out) == 0 || out[len(out)-1] != c.Status) {
			out = append(out, c.Status)
		}
	}
	return out
}

func (r *recorder) all() []web.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]web.Message(nil), r.msgs...)
}

func cameraIs(status string) func(web.Message) bool {
	return func(m web.Message) bool {
		c, ok := m.(web.Camera)
		return ok && c.Status == status
	}
}

// testSight is the OpenCV side cmd/boardcam gives the daemon.
var testSight = Sight{NewAnalyzer: analysis.Factory, FromCorners: analysis.FromCorners, Pictures: analysis.Pictures{},
	NewChangeDetector: func() sight.ChangeDetector { return analysis.NewChangeDetector() }}
