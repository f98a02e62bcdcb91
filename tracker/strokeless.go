package tracker

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
)

// Rest-to-rest accounting between strokes (issue 11, point 2).
//
// Between strokes only a hand moves a disc. settle reports a disc that
// comes to rest away from where it lay with a hand near it as `moved` (a
// piece put back, adjusted), births report a disc put down as `placed` (a
// due, the queen returned), and the striker, which players carry about,
// is never reported. A disc that comes to rest far from where it lay with
// no hand seen near it, neither where it lay nor where it came to rest,
// was not moved by a hand the camera saw: it was struck in a stroke the
// tracker did not see start (its start fell in frames not analysed, a
// flick too fast or too blurred to be seen, the striker missed at its
// place). Before this rule nothing at all was said: the stroke was lost
// without a word and the turn did not pass.
//
// Such a change of the board is said once the board is at rest again, on
// a stroke_end with no stroke_start before it carrying a start_unseen
// doubt per disc that moved ("S moved 400 mm …: a stroke may have been
// missed"), and an unaccounted doubt for each disc lost from plain view
// meanwhile. The referee holds it for the umpire as the stroke of the
// seat whose turn it was (referee.unseenStroke), with what was seen
// pocketed or off the board as its best guess; it is never applied alone.
//
// The striker counts only when it came to rest off every base-line area
// (it is put down on a base line for the next stroke, by a hand the camera
// may not see). Only moves longer than a disc's diameter count (shorter ones are the
// detector's, or a nudge the next stroke's accounting sees), and only with
// hands watched at all (handGrid: no hand mask, no rule).

// strokelessWait is how long the board must have been at rest after the
// last such move before it is said (s): a stroke recognised late (knocked,
// unplaced, start unseen) starts before it and takes the move over.
const strokelessWait = 1.0

// strokelessMove is one disc come to rest away from where it lay, with no
// stroke and no hand seen.
type strokelessMove struct {
	id            string
	arrived       bool   // never seen before: from is not known
	why           string // said as it is (strikertrail.go)
	from, to      board.Vec
	frame0, frame int
}

// strokelessLog is what the Tracker keeps of such moves until it says them.
type strokelessLog struct {
	moves []strokelessMove
	lastT float64 // when the last of them came to rest
}

// noteStrokeless is settle's: track i, outside a stroke, came to rest at p.
func (tk *Tracker) noteStrokeless(i int, p board.Vec, w []obs) {
	tr := &tk.tracks[i]
	if tk.stroke != nil || tr.placedFlag || tk.pendingEvent(tr.placedSeq) != nil {
		return
	}
	if !tr.hasAnchor {
		tk.noteStrikerArrived(i, p, w)
		return
	}
	d := p.Dist(tr.anchor)
	if d <= math.Max(tk.cfg.MovedMM, 2*tr.r) {
		return
	}
	if i == idxS {
		if _, ok := tk.g.BaseLineSide(p, tr.r+10); ok {
			return // put down on a base line: players carry the striker there
		}
	}
	since := tr.motionT - 0.5
	if tk.hands.near(tr.anchor, tr.r+40, since) || tk.hands.near(p, tr.r+40, since) {
		return // a hand moved it (moved), or carried the striker
	}
	for k := range tk.strokeless.moves {
		if tk.strokeless.moves[k].id == tr.id { // moved again: from where it first lay
			tk.strokeless.moves[k].to, tk.strokeless.moves[k].frame = p, tk.frame
			tk.strokeless.lastT = tk.t
			return
		}
	}
	tk.strokeless.moves = append(tk.strokeless.moves, strokelessMove{id: tr.id, from: tr.anchor, to: p,
		frame0: tk.frameOf(tr.motionT), frame: tk.frame})
	tk.strokeless.lastT = tk.t
}

// sayStrokeless says the moves noted once the board is at rest again (or
// at the video's end, final): one stroke_end, its doubts naming each. A
// stroke begun meanwhile accounts for them itself.
func (tk *Tracker) sayStrokeless(final bool) {
	l := &tk.strokeless
	if len(l.moves) == 0 {
		return
	}
	if tk.stroke != nil {
		l.moves = l.moves[:0]
		return
	}
	if !final {
		if tk.t-l.lastT < strokelessWait {
			return
		}
		for i := range tk.tracks {
			if tk.tracks[i].state == Moving {
				return
			}
		}
	}
	var ds []events.Doubt
	for _, m := range l.moves {
		if m.why != "" {
			ds = append(ds, events.Doubt{Kind: events.DoubtStartUnseen, Frames: [2]int{m.frame0, m.frame}, IDs: []string{m.id}, Reason: m.why})
			continue
		}
		if m.arrived {
			ds = append(ds, events.Doubt{Kind: events.DoubtStartUnseen, Frames: [2]int{m.frame0, m.frame}, IDs: []string{m.id},
				Reason: fmt.Sprintf("%s, with no place known where it lay before, was seen from frame %d and came to rest at (%.0f, %.0f) mm at frame %d, off every base line, while no stroke was seen and no hand was seen near it: a stroke may have been missed",
					m.id, m.frame0, m.to.X, m.to.Y, m.frame)})
			continue
		}
		ds = append(ds, events.Doubt{Kind: events.DoubtStartUnseen, Frames: [2]int{m.frame0, m.frame}, IDs: []string{m.id},
			Reason: fmt.Sprintf("%s moved %.0f mm, from (%.0f, %.0f) to (%.0f, %.0f) mm, between frames %d and %d while no stroke was seen and no hand was seen near it: a stroke may have been missed",
				m.id, m.to.Dist(m.from), m.from.X, m.from.Y, m.to.X, m.to.Y, m.frame0, m.frame)})
	}
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.state != Missing || !tk.lostBefore(i) {
			continue
		}
		tk.lostSaid[i] = tr.lastSeenT
		ds = append(ds, foul.Unaccounted(tr.id, tk.frameOf(tr.lastSeenT), tk.frame, tr.pos,
			"vanished there from plain view while the board changed with no stroke seen: pocketed in a stroke that was not seen, or taken off, is not known"))
	}
	l.moves = l.moves[:0]
	tk.emit(events.Event{Type: events.StrokeEnd, T: tk.t, Pieces: tk.restPieces(), Doubts: ds})
}

// arrivedWait (s): the striker must turn up this long after the opening
// (InitTime), with no hand near where it rests for this long before its
// first sighting there.
const arrivedWait = 1.0

// noteStrikerArrived is noteStrokeless's for the striker never seen
// before (no place it lay): first seen after the opening (InitTime + arrivedWait), it
// came to rest at p off every base-line area with no hand seen near it
// since arrivedWait before the sightings it settled on (w). Players put the striker down on a
// base line, by hand; one that turns up elsewhere by itself was struck in
// a stroke the camera did not see (missed at its place and in its flight).
func (tk *Tracker) noteStrikerArrived(i int, p board.Vec, w []obs) {
	tr := &tk.tracks[i]
	if i != idxS || !math.IsInf(tr.unseenBefore, 1) || tk.t-tk.firstT <= tk.cfg.InitTime+arrivedWait {
		return
	}
	if _, ok := tk.g.BaseLineSide(p, tr.r+10); ok {
		return
	}
	first := tk.t
	if len(w) > 0 {
		first = w[0].t
	}
	if tk.hands.near(p, tr.r+40, first-arrivedWait) {
		return
	}
	tk.strokeless.moves = append(tk.strokeless.moves, strokelessMove{id: tr.id, arrived: true, to: p,
		frame0: tk.frameOf(first), frame: tk.frame})
	tk.strokeless.lastT = tk.t
}
