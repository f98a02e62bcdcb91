package tracker

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// A disc measured beside a hand or arm is measured less surely than one in
// plain view: the arm's shadow and the hand mask's edge bite into its
// outline and pull its centre by a few millimetres. A small `moved` (a few
// mm, within what the camera can mis-measure there) that settled with the
// hand still beside the disc is therefore not said at once: it is held
// until the disc has been measured again with the hand gone from it. Back
// within MovedMM of where it lay, nothing moved and nothing is said;
// still away, the move is said with the new measurement. When the disc
// cannot be measured again in time (the next stroke begins, the hand
// stays, or touchHold passes), the move is said as measured, with
// SigmaMM = besideHandMM: the referee offers the touched-piece call to
// the umpire instead of applying it (referee/place.go).

// besideHandMM is how far (mm, per axis) a disc's measured centre may be
// off when a hand or arm is beside it (the independent set's position
// error beside arms: p95 2.9 mm). A move of up to twice that, measured
// there, may be the camera's and not the disc's.
const besideHandMM = 3.0

// touchHold is the longest a small move is held waiting for the hand to
// leave the disc (s).
const touchHold = 3.0

// touchReads is how many detections at rest, with no hand near, make the
// new measurement.
const touchReads = 3

// emitMoved emits e, the moved event of track i (from where it lay). A
// small move measured with a hand still near the disc is held for
// re-measuring (see above) and carries the beside-hand uncertainty until
// then.
func (tk *Tracker) emitMoved(i int, e events.Event, from board.Vec) {
	tr := &tk.tracks[i]
	p := e.MM.Vec()
	if p.Dist(from) > 2*besideHandMM || !tk.hands.near(p, tr.r+40, tk.t-0.2) {
		tk.emit(e)
		return
	}
	e.SigmaMM = besideHandMM
	tr.touchSeq = tk.emit(e)
	tr.touchT, tr.touchFrom = e.T, from
	tr.touchSum, tr.touchN = board.Vec{}, 0
}

// supersedeTouch withdraws track i's held small move, if any, as the disc
// settles again: its anchor goes back to where it lay before that move.
// It reports whether there was one (a hand was at the disc).
func (tk *Tracker) supersedeTouch(i int) bool {
	tr := &tk.tracks[i]
	if tr.touchSeq == 0 {
		return false
	}
	held := tk.pendingEvent(tr.touchSeq) != nil
	if held {
		tk.dropPending(tr.touchSeq)
		tr.anchor, tr.said = tr.touchFrom, tr.touchFrom
	}
	tr.touchSeq = 0
	return held
}

// touches re-measures the discs whose small move is held: once no hand
// has been near for 0.2 s, touchReads full detections at rest give the
// new place; the move is withdrawn when it is back within MovedMM of
// where it lay, and said with the new place otherwise. A stroke starting,
// the disc leaving the board or touchHold passing releases the move as
// measured, with its uncertainty.
func (tk *Tracker) touches() {
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.touchSeq == 0 {
			continue
		}
		ev := tk.pendingEvent(tr.touchSeq)
		if ev == nil || tk.stroke != nil || !tr.state.OnBoard() || tk.t-tr.touchT > touchHold {
			tr.touchSeq = 0
			continue
		}
		if !tr.state.atRest() || tk.hands.near(tr.restPos, tr.r+40, tk.t-0.2) {
			tr.touchSum, tr.touchN = board.Vec{}, 0
			continue
		}
		if tr.lastSeenFrame != tk.frame || tr.lastObs.t != tk.t || tr.lastObs.partial || tr.moveStreak > 0 {
			continue
		}
		tr.touchSum = tr.touchSum.Add(tr.lastObs.p)
		tr.touchN++
		if tr.touchN < touchReads {
			continue
		}
		q := tr.touchSum.Scale(1 / float64(tr.touchN))
		if q.Dist(tr.touchFrom) <= tk.cfg.MovedMM {
			// Measured again in plain view, it lies where it lay.
			tk.dropPending(tr.touchSeq)
			tr.anchor, tr.said = tr.touchFrom, tr.touchFrom
		} else {
			ev.MM, ev.SigmaMM = events.MMPtr(q), 0
			tr.anchor, tr.said = q, q
		}
		tr.touchSeq = 0
	}
}

// touchHoldUntil is the time before which events may be released while
// small moves are held (+Inf: none held).
func (tk *Tracker) touchHoldUntil() float64 {
	w := math.Inf(1)
	for i := range tk.tracks {
		if tr := &tk.tracks[i]; tr.touchSeq != 0 {
			w = math.Min(w, tr.touchT-tk.dt)
		}
	}
	return w
}
