package tracker

import (
	"math"
	"sort"
)

// frameClock is the Tracker's time line (one concern, embedded in it): the
// current frame and its time, the interval since the previous frame, and
// the recent frames' indices and times that turn an event's time into the
// frame it happened in.
type frameClock struct {
	nFrames int
	t, dt   float64 // time of the current frame and the interval since the previous
	frame   int
	started bool
	firstT  float64 // time of the first calibrated frame
	times   frameRing
}

// frameOf returns the first frame at or after time t (as the simulator
// numbers its ground truth), extrapolating past the current frame.
func (c *frameClock) frameOf(t float64) int {
	if t > c.t+1e-6 {
		return c.frame + int(math.Ceil((t-c.t)*c.times.fps()-1e-6))
	}
	return c.times.frameOf(t)
}

// frameRing remembers the index and time of recent frames to turn event
// times into frame indices.
type frameRing struct {
	idx []int
	t   []float64
	n   int // frames pushed
}

func (r *frameRing) init(n int) {
	r.idx = make([]int, n)
	r.t = make([]float64, n)
}

func (r *frameRing) push(i int, t float64) {
	k := r.n % len(r.idx)
	r.idx[k], r.t[k] = i, t
	r.n++
}

func (r *frameRing) at(k int) (int, float64) { // k-th oldest kept
	start := 0
	if r.n > len(r.idx) {
		start = r.n - len(r.idx)
	}
	m := (start + k) % len(r.idx)
	return r.idx[m], r.t[m]
}

func (r *frameRing) size() int { return min(r.n, len(r.idx)) }

// fps is the rate of the frames analysed recently (30 until known): the
// video's, or less when frames are dropped.
func (r *frameRing) fps() float64 {
	n := r.size()
	if n < 2 {
		return 30
	}
	k := min(n-1, 30)
	_, t0 := r.at(n - 1 - k)
	_, t1 := r.at(n - 1)
	if t1 <= t0 {
		return 30
	}
	return float64(k) / (t1 - t0)
}

// frameOf returns the first frame at or after time t (as the simulator
// numbers its ground truth).
func (r *frameRing) frameOf(t float64) int {
	n := r.size()
	if n == 0 {
		return 0
	}
	k := sort.Search(n, func(k int) bool { _, tk := r.at(k); return tk >= t-1e-6 })
	if k < n {
		i, _ := r.at(k)
		return i
	}
	i, _ := r.at(n - 1)
	return i
}
