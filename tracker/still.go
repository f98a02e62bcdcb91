package tracker

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/sight"
)

// A striker that moves while the hand over it stays where it was was
// struck, not carried.
//
// A player aims with the fingertips on the striker or just behind it and
// flicks it from there: the striker slides on while the hand stops (a
// finger straightens; a backward flick's hand may follow the striker for
// a frame or two, then stops). A striker carried or pushed by a hand
// moves with the hand. The hand mask says which: between strokes, in
// every frame the striker is seen moving (or leaving its place) with a
// hand near it, the mask is sampled on a grid of probes about it and kept
// for a while (handSnaps). When the striker is
// seen sliding fast enough for a flick with a hand still around it, the
// mask now is compared with the mask at an earlier sighting of the slide
// (the latest at least stillMoved away), as it was there and as it would
// be had the hand moved along with the striker, leaving out the probes
// on the striker's places and those beyond what the camera's mask covers.
// A hand that stayed put matches the first (within stillMismatch of the
// probes the hand covers) and at least three times as well as the
// second: the striker left it.

// Probes: a square grid of stillProbes × stillProbes points stillStep mm
// apart about the striker, each covered when the mask covers more than
// half of a disc of stillProbeR mm about it.
const (
	stillProbes = 25
	stillStep   = 8.0
	stillProbeR = 3.0
	// stillKeep is how many frames of probes are kept.
	stillKeep = 48
	// stillMoved (mm) is how far the striker must have gone for the
	// comparison to tell a still hand from one that moved with it.
	stillMoved = 8.0
	// stillSeen (mm) is how far beyond the playing surface the probes
	// count (the hand mask reaches a little farther).
	stillSeen = 20.0
	// stillProbesMin is the least number of probes covered by the hand
	// (then or now) for a comparison, and stillMismatch the largest share
	// of them that may differ for the hand to have stayed put.
	stillProbesMin = 12
	stillMismatch  = 0.08
)

// handSnap is the hand mask on the probes about centre c in one frame.
type handSnap struct {
	t   float64
	c   board.Vec
	hit [stillProbes * stillProbes]bool
}

// handSnaps is a ring of the last stillKeep frames' probes.
type handSnaps struct {
	s    [stillKeep]handSnap
	n    int // how many are kept
	next int
}

// probe returns the place of probe k about centre c.
func probe(c board.Vec, k int) board.Vec {
	h := float64(stillProbes-1) / 2
	return board.V(c.X+(float64(k%stillProbes)-h)*stillStep, c.Y+(float64(k/stillProbes)-h)*stillStep)
}

// record samples the hand mask about c at time t.
func (h *handSnaps) record(occ sight.Occlusion, c board.Vec, t float64) {
	s := &h.s[h.next]
	s.t, s.c = t, c
	for k := range s.hit {
		s.hit[k] = occ.Hidden(probe(c, k), stillProbeR) > 0.5
	}
	h.next = (h.next + 1) % stillKeep
	h.n = min(h.n+1, stillKeep)
}

// at returns the latest snapshot at or before time t.
func (h *handSnaps) at(t float64) *handSnap {
	var best *handSnap
	for i := 0; i < h.n; i++ {
		s := &h.s[i]
		if s.t <= t+1e-9 && (best == nil || s.t > best.t) {
			best = s
		}
	}
	return best
}

// observeHand keeps the probes about the striker seen moving (or leaving
// its place) between strokes, a hand near it: the sightings handSnaps.stayed
// compares.
func (tk *Tracker) observeHand() {
	s := &tk.tracks[idxS]
	if tk.stroke != nil || tk.occ == nil || !s.seen || !(s.state == Moving || s.moveStreak > 0 || s.offObs.t == tk.t) {
		return
	}
	if tk.occ.Hidden(s.pos, s.r+40) == 0 {
		return
	}
	tk.snaps.record(tk.occ, s.pos, tk.t)
}

// stayed reports whether the hand around the striker (radius r) stayed
// where it was while the striker slid on to its last sighting (last, in
// this frame, at time t, occ its occlusion) from the latest earlier one in
// h (from index since on) at least stillMoved away (see above); half is
// the board's half size.
func (hs *handSnaps) stayed(occ sight.Occlusion, t float64, h []obs, since int, last obs, r, half float64) bool {
	if occ == nil || last.t != t {
		return false
	}
	for i := len(h) - 1; i >= since; i-- {
		o := h[i]
		if o.t >= last.t || last.p.Dist(o.p) < stillMoved {
			continue
		}
		was := hs.at(o.t)
		if was == nil || o.t-was.t > 1e-6 {
			return false
		}
		return handSame(occ, was, o.p, last.p, r, half)
	}
	return false
}

// handSame compares the hand mask now (occ) with the snapshot was, the
// striker (radius r) having gone from `from` to p in between (see
// handSnaps.stayed).
func handSame(occ sight.Occlusion, was *handSnap, from, p board.Vec, r, half float64) bool {
	d := p.Sub(from)
	r += 10
	lim := half + stillSeen
	union, still, moved := 0, 0, 0
	for k, hit := range was.hit {
		q := probe(was.c, k)
		if q.Dist(from) < r || q.Dist(p) < r || q.Add(d).Dist(p) < r || q.Add(d).Dist(from) < r {
			continue // the striker's own places
		}
		if qd := q.Add(d); math.Max(math.Abs(q.X), math.Abs(q.Y)) > lim || math.Max(math.Abs(qd.X), math.Abs(qd.Y)) > lim {
			// beyond what the camera's mask covers: a hand coming in over
			// the frame shows its edge there whether it moves or not
			continue
		}
		now := occ.Hidden(q, stillProbeR) > 0.5
		along := occ.Hidden(q.Add(d), stillProbeR) > 0.5
		if hit || now {
			union++
		}
		if hit != now {
			still++
		}
		if hit != along {
			moved++
		}
	}
	return union >= stillProbesMin && float64(still) <= stillMismatch*float64(union) && 3*still <= moved
}
