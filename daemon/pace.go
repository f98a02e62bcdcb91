package daemon

import (
	"sync"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/pipeline"
)

// Pacer is the time a video file is played and analysed on: when the
// capture hands each frame over, and what the analysis of a frame costs.
// The capture and the analysis take their decisions from it (drop a frame
// when no buffer is free, leave frames out at rest or in motion when the
// backlog grows and the analysis costs more than the frames' interval).
//
// The default follows the wall clock: a frame is handed over at its time
// in the file (over source.speed), the analysis is charged what it took.
// [SlowCPU] replaces both by a modelled computer, so that a run is the
// same on every machine. Live sources and unpaced files do not use
// Arrive.
type Pacer interface {
	// Arrive returns when a frame the capture has read is due: at is its
	// time in the file after the first paced frame, over the speed. It
	// returns the frame's capture time, or false when done was closed
	// first.
	Arrive(at time.Duration, done <-chan struct{}) (time.Time, bool)
	// Handed is called by the capture before it puts a paced frame in the
	// analysis's queue; End when it hands over no more paced frames (the
	// end of the file, or a stop). Last is called at the end of the file
	// when its last frame, dropped as it arrived, is to be handed over
	// still (deliverLast): the capture then waits for a free buffer, hands
	// the frame over (Handed) and calls End.
	Handed()
	Last()
	End()
	// Take is called by the analysis when it takes frame index from the
	// queue (captured: its capture time; paced: a frame the capture
	// handed over through Arrive, not one caught up with or read
	// losslessly).
	Take(index int64, captured time.Time, paced bool)
	// Charge ends a piece of work on the frame taken, begun at start (the
	// wall clock): what it cost, measured or modelled from w.
	Charge(start time.Time, w Work) time.Duration
	// Release gives the frame taken back: it calls put, which returns its
	// buffer to the capture.
	Release(put func())
}

// Work is one piece of the analysis's work on a frame.
type Work struct {
	// RestCheck: the frame was compared with the last one analysed (the
	// cheap look that leaves still frames out); Reference: the frame was
	// made the one the next are compared with.
	RestCheck, Reference bool
	// Analysed: the frame went through calibrate → vision → tracker, which
	// did Did.
	Analysed bool
	Did      pipeline.Work
}

// wallPacer is the default Pacer: the wall clock (the daemon's Clock).
type wallPacer struct {
	clock clock.Clock
	start time.Time // when the first paced frame was handed over
}

func (p *wallPacer) Arrive(at time.Duration, done <-chan struct{}) (time.Time, bool) {
	if p.start.IsZero() {
		p.start = p.clock.Now()
	}
	if d := p.start.Add(at).Sub(p.clock.Now()); d > 0 {
		if !clock.Sleep(p.clock, d, done) {
			return time.Time{}, false
		}
	}
	return p.clock.Now(), true
}

func (p *wallPacer) Handed()                                      {}
func (p *wallPacer) Last()                                        {}
func (p *wallPacer) End()                                         {}
func (p *wallPacer) Take(int64, time.Time, bool)                  {}
func (p *wallPacer) Charge(start time.Time, _ Work) time.Duration { return time.Since(start) }
func (p *wallPacer) Release(put func())                           { put() }

// Costs are what each piece of the analysis's work costs on the computer
// they were measured on (see DefaultCosts).
type Costs struct {
	// Search: looking for the board in a frame; Check: checking the
	// calibration against a frame; Detect: finding discs and hands;
	// Track: the tracker's update; Retrack: tracking one kept frame again;
	// RestCheck: the change detector's look at a frame; Reference: making
	// a frame the change detector's reference.
	Search, Check, Detect, Track, Retrack, RestCheck, Reference time.Duration
}

// DefaultCosts were measured on the development machine (AMD EPYC, x86-64,
// 720p clips; CPU time, so a loaded machine measures what the work costs,
// not how long it waited) by
//
//	taskset -c 0 go test -run '^$' -bench WorkCosts -benchtime 1x ./vision/analysis/
//
// (the demo, break, single-pocket, streak-red-striker and camera-knock):
// the mean per frame that did the work, rounded (2026-11-27, after the
// camera-move check undistorted only what it reads: search 182 ms, check
// 1.95, detect 6.26 and 5.77 in two runs, track 0.46, retrack 0.98, rest
// check 1.97, reference 2.03 ms). A computer K times slower is
// NewSlowCPU(K, DefaultCosts).
var DefaultCosts = Costs{
	Search:    185 * time.Millisecond,
	Check:     2 * time.Millisecond,
	Detect:    6 * time.Millisecond,
	Track:     400 * time.Microsecond,
	Retrack:   900 * time.Microsecond,
	RestCheck: 2 * time.Millisecond,
	Reference: 2 * time.Millisecond,
}

// Of is what w costs.
func (c Costs) Of(w Work) time.Duration {
	var d time.Duration
	if w.RestCheck {
		d += c.RestCheck
	}
	if w.Reference {
		d += c.Reference
	}
	if w.Analysed {
		d += c.Track + time.Duration(w.Did.Retracked)*c.Retrack
		if w.Did.Searched {
			d += c.Search
		}
		if w.Did.Checked {
			d += c.Check
		}
		if w.Did.Detected {
			d += c.Detect
		}
	}
	return d
}

// SlowCPU is a Pacer for a computer Factor times slower than the one its
// Costs were measured on, and deterministic: a file's frames arrive at
// their time in the file on a virtual clock, and the analysis is busy,
// for each frame, Factor × what its work costs (Costs.Of) instead of the
// time it took. The capture and the analysis wait for each other on that
// clock: the capture hands a frame over only once the analysis has done
// everything it would have done before the frame's time, and the analysis
// gives a frame's buffer back only once the capture has handed over every
// frame due before it finished. The daemon's own code then decides as it
// does on a real computer (a frame dropped when no buffer is free, frames
// left out at rest or in motion, the gaps reported to the referee), and
// the frames lost are the same on every run and every machine: a function
// of the clip, Factor and Costs.
//
// The decoding is not charged (the capture has its own core). A SlowCPU
// plays one file once.
type SlowCPU struct {
	Factor float64
	Costs  Costs

	mu      sync.Mutex
	changed chan struct{} // closed and replaced at each change of state
	epoch   time.Time     // the virtual clock's zero
	// next is when the capture's next paced frame is due (the capture
	// waits in Arrive for it); ended: no more paced frames.
	next  time.Duration
	ended bool
	// inflight counts the paced frames handed over and not released; the
	// analysis is busy until busy with the frame it took (final once
	// released is set: the frame is being given back).
	inflight  int
	taken     bool // the analysis holds a paced frame
	releasing bool
	busy      time.Duration
	// last: the file has ended and the capture waits for a free buffer
	// to hand its last frame over (Last), until End.
	last bool
}

// NewSlowCPU returns a computer factor times slower than the one costs
// were measured on.
func NewSlowCPU(factor float64, costs Costs) *SlowCPU {
	return &SlowCPU{Factor: factor, Costs: costs, changed: make(chan struct{}), epoch: time.Now(), next: -1}
}

// signal wakes the waiters; call with mu held.
func (s *SlowCPU) signal() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Arrive implements Pacer: the frame is handed over at at on the virtual
// clock, once the analysis has nothing left to do before it (it is idle,
// or busy with a frame past at).
func (s *SlowCPU) Arrive(at time.Duration, done <-chan struct{}) (time.Time, bool) {
	s.mu.Lock()
	s.next = at
	s.signal()
	for !(s.inflight == 0 || (s.releasing && s.busy > at)) {
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-done:
			return time.Time{}, false
		}
		s.mu.Lock()
	}
	s.mu.Unlock()
	return s.epoch.Add(at), true
}

// wait waits, with mu held, until ok.
func (s *SlowCPU) wait(ok func() bool) {
	for !ok() {
		ch := s.changed
		s.mu.Unlock()
		<-ch
		s.mu.Lock()
	}
}

// Handed implements Pacer.
func (s *SlowCPU) Handed() {
	s.mu.Lock()
	s.inflight++
	s.mu.Unlock()
}

// Last implements Pacer: no more frames are due, but the file's last one
// is handed over as soon as a buffer is free (one is already, or the
// analysis gives back the frame it is busy with): the analysis gives its
// frame back at once, and goes on once that frame is handed over (End),
// so that it finds the frame in its queue whatever the real time the
// capture takes to copy it. Otherwise whether the analysis saw it waiting
// when it took its next frame, and so whether it left that one out (its
// backlog), was a race (eval --remove speed8 on arm-foul: 84 or 85 frames
// not analysed).
func (s *SlowCPU) Last() {
	s.mu.Lock()
	s.last = true
	s.signal()
	s.mu.Unlock()
}

// End implements Pacer.
func (s *SlowCPU) End() {
	s.mu.Lock()
	s.ended = true
	s.signal()
	s.mu.Unlock()
}

// Take implements Pacer: the analysis starts on the frame when it is free
// and the frame has arrived.
func (s *SlowCPU) Take(_ int64, captured time.Time, paced bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.taken = paced
	if paced {
		s.busy = max(s.busy, captured.Sub(s.epoch))
	}
}

// Charge implements Pacer: Factor × the cost of w, on the virtual clock.
func (s *SlowCPU) Charge(_ time.Time, w Work) time.Duration {
	d := time.Duration(s.Factor * float64(s.Costs.Of(w)))
	s.mu.Lock()
	if s.taken {
		s.busy += d
	}
	s.mu.Unlock()
	return d
}

// Release implements Pacer: the buffer goes back when the virtual clock
// reaches the end of the frame's work, once the capture has handed over
// every frame due before (after Last: every frame but the last, which it
// hands over in the buffer given back before Release returns).
func (s *SlowCPU) Release(put func()) {
	s.mu.Lock()
	if !s.taken {
		s.mu.Unlock()
		put()
		return
	}
	s.releasing = true
	s.signal()
	s.wait(func() bool { return s.ended || s.last || s.next >= s.busy })
	s.mu.Unlock()
	put()
	s.mu.Lock()
	s.wait(func() bool { return s.ended || !s.last })
	s.inflight--
	s.taken, s.releasing = false, false
	s.signal()
	s.mu.Unlock()
}
