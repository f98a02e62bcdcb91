package referee

import (
	"fmt"
	"strings"

	"github.com/boardcam/boardcam/events"
)

// Folding a second held decision into the first. A stroke the camera
// could not follow may be said twice: once for the frames it missed (a
// stroke_end whose start was not seen, or gaps across which pieces moved)
// and again, later, for the board it left changed (the tracker's
// strokeless rule: a disc come to rest far from where it lay with no
// stroke seen). Held apart, the two are two questions for the umpire, and
// accepting both passes the turn twice. So a stroke whose start was not
// seen is folded into the last held stroke decision when they can be the
// same stroke:
//
//   - no stroke_start and no placed event came between them (a stroke
//     seen starting is its own decision; a placement ends the stroke
//     before it);
//   - its evidence (the frames of its doubts and of the gaps it takes up)
//     overlaps the held stroke's frames, or follows them when the held
//     stroke's start was not seen either, or follows a held stroke seen
//     starting and names the striker alone (the doubles clip with 10 % of
//     the frames dropped: S's stroke held, then the striker seen moved
//     across a gap as the next player took it, an unseen stroke "E -",
//     then E's own stroke: three questions whose answers passed the turn
//     twice). Men moved after a stroke seen whole are another stroke (the
//     demo in bursts: "S q" held, then "S w" whose start fell in a gap).
//     Evidence wholly before the held stroke is of another stroke.
//
// Two strokes missed whole one after the other, with no placement between,
// are folded: the note tells the umpire to enter both if so.
//
// The folded decision is the held stroke decided again with the later
// end: the same seat and match context, the pieces pocketed or off the
// board in both, every doubt of both, the notes of the stroke decided
// again, and a note that says what was folded. It carries Folds, the Frame of the decision it replaces; the
// keeper puts it in that decision's place (one question). Folding depends
// on the events alone, so a replay folds the same way.

// heldStroke is the last stroke decision held for the umpire that a later
// unseen stroke may be folded into: the stroke as it was before its
// finish (s), and the decision returned (d).
type heldStroke struct {
	s *stroke
	d Decision
}

// clone copies the stroke's bookkeeping (finish and judge append to it).
func (s *stroke) clone() *stroke {
	c := *s
	c.contacts = append([]contact(nil), s.contacts...)
	c.pocketed = append([]events.Event(nil), s.pocketed...)
	c.jumped = append([]events.Event(nil), s.jumped...)
	c.arms = append([]events.Event(nil), s.arms...)
	c.moved = append([]events.Event(nil), s.moved...)
	c.umpire = append([]Call(nil), s.umpire...)
	c.notes = append([]string(nil), s.notes...)
	c.doubts = append([]events.Doubt(nil), s.doubts...)
	if s.usedInferred != nil {
		c.usedInferred = map[string]bool{}
		for k, v := range s.usedInferred {
			c.usedInferred[k] = v
		}
	}
	return &c
}

// keepHeld remembers the stroke decision d, made from stroke s as it was
// before its finish (snap), when it is held for the umpire with an
// outcome; any other stroke decision ends the chance to fold.
func (r *Referee) keepHeld(snap *stroke, d Decision) {
	if d.Kind == KindStroke && d.Uncertain() && d.Stroke != nil {
		r.held = &heldStroke{s: snap, d: d}
		return
	}
	r.held = nil
}

// frameSpan is a first and last frame; ok is false when empty.
type frameSpan struct {
	from, to int
	ok       bool
}

func (f *frameSpan) add(a, b int) {
	if a == 0 && b == 0 {
		return
	}
	if b < a {
		a, b = b, a
	}
	if !f.ok || a < f.from {
		f.from = a
	}
	if !f.ok || b > f.to {
		f.to = b
	}
	f.ok = true
}

// span is the held stroke's frames: from its start (or, not seen, its
// earliest doubt) to its end (or its latest doubt).
func (h *heldStroke) span() frameSpan {
	var f frameSpan
	if !h.s.noStart {
		f.add(h.d.StartFrame, h.d.Frame)
	} else {
		f.add(h.d.Frame, h.d.Frame)
	}
	for _, x := range h.d.Doubts {
		f.add(x.Frames[0], x.Frames[1])
	}
	return f
}

// evidence is the frames an unseen stroke ending with e rests on: its
// doubts' and those of the gaps across which pieces moved; e's own frame
// when there are none.
func (r *Referee) evidence(e events.Event) frameSpan {
	var f frameSpan
	for _, x := range e.Doubts {
		f.add(x.Frames[0], x.Frames[1])
	}
	for _, g := range r.gaps {
		if g.Moved {
			f.add(g.first(), max(g.first(), g.last()))
		}
	}
	if !f.ok {
		f.add(e.Frame, e.Frame)
	}
	return f
}

// foldable reports whether the unseen stroke ending with e can be the
// held stroke.
func (r *Referee) foldable(e events.Event) bool {
	h := r.held
	if h == nil {
		return false
	}
	ev, held := r.evidence(e), h.span()
	switch {
	case ev.from <= held.to && held.from <= ev.to:
		return true // overlapping
	case ev.to < held.from:
		return false // of another stroke, before it
	}
	// After it: the held stroke's own end, when its start was not seen
	// either; after a stroke seen starting, only the striker moved (the
	// next player taking it, not a stroke: men moved say a stroke).
	return h.s.noStart || r.strikerOnly(e)
}

// strikerOnly reports whether the evidence of the unseen stroke ending
// with e concerns the striker alone: its doubts and the gaps across which
// pieces moved name no other disc, and nothing was reported pocketed or
// off the board meanwhile.
func (r *Referee) strikerOnly(e events.Event) bool {
	if len(r.loose) > 0 {
		return false
	}
	n := 0
	for _, x := range e.Doubts {
		for _, id := range x.IDs {
			if id != "S" {
				return false
			}
			n++
		}
	}
	for _, g := range r.gaps {
		if !g.Moved {
			continue
		}
		for _, id := range g.IDs {
			if id != "S" {
				return false
			}
			n++
		}
	}
	return n > 0
}

// fold decides the held stroke again with the unseen stroke ending with e
// folded into it, and returns the decision that replaces the held one.
func (r *Referee) fold(e events.Event) []Decision {
	h := r.held
	s := h.s.clone()
	r.takeLoose(s)
	if len(e.Doubts) == 0 {
		s.doubt(events.Doubt{Kind: events.DoubtStartUnseen, Frames: [2]int{e.Frame, e.Frame},
			Reason: fmt.Sprintf("the pieces came to rest at frame %d with no stroke seen before: the stroke fell in frames that were not analysed", e.Frame)})
	}
	ev := r.evidence(e)
	r.cur = s
	out := r.finish(e)
	d := &out[len(out)-1]
	d.StartFrame, d.StartT = h.d.StartFrame, h.d.StartT
	later := d.Doubts
	d.Doubts = mergeDoubts(append([]events.Doubt(nil), h.d.Doubts...), later...)
	var what []string
	for _, x := range later {
		if !hasDoubt(h.d.Doubts, x) {
			what = append(what, x.Reason)
		}
	}
	// (The notes are the stroke's, decided again with the later end: a
	// note of the first decision on its outcome, a failed break say, may
	// no longer hold.)
	d.Notes = append(d.Notes, fmt.Sprintf("folded into the stroke decided at frame %d: the board changed again (frames %s) with no stroke seen starting and nothing placed since, so it is taken as the same stroke, not another (if it was another stroke, enter both): %s",
		h.d.Frame, frameRange(ev.from, ev.to), strings.Join(what, "; ")))
	folds := h.d.Frame
	d.Folds = &folds
	d.refresh()
	r.held.d = *d
	return out
}

func hasDoubt(ds []events.Doubt, x events.Doubt) bool {
	for _, d := range ds {
		if d.Kind == x.Kind && d.Reason == x.Reason {
			return true
		}
	}
	return false
}

// Unfolded is folded decision d as it stands when the decision it folds
// into is no longer open (the umpire settled it before the later evidence
// came): held with every reason, no outcome to apply (the stroke was
// decided already, and applying it again would pass the turn twice), and a
// note that says so.
func (d Decision) Unfolded() Decision {
	if d.Folds == nil {
		return d
	}
	at := *d.Folds
	d.Folds = nil
	d.Stroke = nil
	d.Calls = nil
	d.Notes = append(append([]string(nil), d.Notes...), fmt.Sprintf("the stroke decided at frame %d, which this evidence belongs to, was settled already: nothing is applied; if it changes that stroke, undo it and enter what happened", at))
	d.refresh()
	return d
}
