package referee

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/rules"
)

// What the camera could not establish: a decision with doubts is never
// applied by the camera alone. The daemon holds it for the umpire, in
// every decisions mode, with each doubt's reason and the decision as the
// referee's best guess. Doubts come from three places:
//
//   - the tracker: a stroke_end's Doubts (frames missing, the start
//     unseen, an identity unaccounted for, two candidates for the
//     striker, the view covered);
//   - the referee itself: a foul check that rests on a position the
//     tracker inferred instead of measuring (events.Event.Inferred,
//     events.PieceAt.Inferred) is neither called nor cleared: the call is
//     only offered and the decision doubted; a stroke whose rest was not
//     seen (the next stroke began, the video ended) is doubted;
//   - the daemon: frames it did not analyse ([Gap], reported with
//     [Referee.Unseen]) doubt the stroke they fall in, and, when pieces
//     moved across them, the next decision whatever it is.

// Gap is a run of video frames the pipeline did not analyse: dropped
// because the analysis fell behind, left out to keep up, or not analysable
// (the board lost, the camera stalled). The daemon knows its gaps and
// reports each to [Referee.Unseen] before the events of the frame that
// ends it.
type Gap struct {
	// After and Before are the analysed frames around the gap: frames
	// After+1 … Before-1 were not analysed (none when the picture was lost
	// between two consecutive frames, a stalled camera).
	After int `json:"after"`
	// Before is the first frame analysed after the gap.
	Before int `json:"before"`
	// Missing is how many of those frames were not analysed (some may
	// have been left out after a check that nothing changed).
	Missing int `json:"missing,omitempty"`
	// Moved: pieces moved across the gap (a disc moving at either end, or
	// at rest in a different place, or gone, or new).
	Moved bool `json:"moved,omitempty"`
	// IDs are the pieces that moved.
	IDs []string `json:"ids,omitempty"`
	// Why is the cause in a few words ("the analysis fell behind", "the
	// board was not found", "the camera stalled").
	Why string `json:"why,omitempty"`
	// Reason says in plain words what was not analysed and why, e.g.
	// "frames 512–530 were not analysed (18 dropped: the analysis fell
	// behind) while W4 moved 120 mm towards NE".
	Reason string `json:"reason"`
}

// first and last are the frames not analysed (last < first: none).
func (g Gap) first() int { return g.After + 1 }
func (g Gap) last() int  { return g.Before - 1 }

// gapsDoubt is one doubt for the gaps a decision rests on: the reason of a
// single gap, a summary of several.
func gapsDoubt(gs []Gap) events.Doubt {
	if len(gs) == 1 {
		g := gs[0]
		f := [2]int{g.first(), g.last()}
		if g.last() < g.first() {
			f = [2]int{g.After, g.Before}
		}
		return events.Doubt{Kind: events.DoubtFramesMissing, Reason: g.Reason, Frames: f, IDs: append([]string(nil), g.IDs...)}
	}
	from, to, missing := gs[0].first(), gs[len(gs)-1].last(), 0
	ids := map[string]bool{}
	var whys []string
	seenWhy := map[string]bool{}
	for _, g := range gs {
		missing += g.Missing
		for _, id := range g.IDs {
			ids[id] = true
		}
		if g.Why != "" && !seenWhy[g.Why] {
			seenWhy[g.Why] = true
			whys = append(whys, g.Why)
		}
	}
	var list []string
	for id := range ids {
		list = append(list, id)
	}
	sort.Strings(list)
	var b strings.Builder
	fmt.Fprintf(&b, "%d runs of frames between %d and %d were not analysed", len(gs), from, to)
	if missing > 0 {
		fmt.Fprintf(&b, " (%d of %d frames", missing, to-from+1)
		if len(whys) > 0 {
			b.WriteString(": " + strings.Join(whys, "; "))
		}
		b.WriteString(")")
	}
	if len(list) > 0 {
		fmt.Fprintf(&b, " while %s moved", joinAnd(list))
	}
	return events.Doubt{Kind: events.DoubtFramesMissing, Reason: b.String(), Frames: [2]int{from, to}, IDs: list}
}

// joinAnd writes "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// Unseen reports frames the pipeline did not analyse, before the events
// released after them. A gap reported before a stroke_end belongs to that
// stroke when it fell in it (from its start on: the pieces settling
// included) or when pieces moved across it; a gap across which pieces
// moved between strokes doubts the next decision (a stroke, a placement,
// a foul), whatever it is: the camera does not know what happened in it.
func (r *Referee) Unseen(g Gap) {
	if g.Reason == "" {
		g.Reason = fmt.Sprintf("frames %s were not analysed", frameRange(g.first(), g.last()))
	}
	r.gaps = append(r.gaps, g)
	r.seen(g.Before)
}

// frameRange writes "512–530", "512" or "between 511 and 512".
func frameRange(a, b int) string {
	switch {
	case b < a:
		return fmt.Sprintf("between %d and %d", b, a)
	case a == b:
		return fmt.Sprintf("%d", a)
	}
	return fmt.Sprintf("%d–%d", a, b)
}

func (r *Referee) seen(frame int) {
	if frame > r.lastFrame {
		r.lastFrame = frame
	}
}

// takeGaps removes every gap reported so far and returns, as a doubt, those
// a decision rests on: those across which pieces moved and, for a stroke
// from frame start (start < 0: no stroke), those that fell in it. Before
// a stroke seen starting, played by the seat whose turn it is (inTurn),
// the striker alone moving is the player handling it: no doubt.
func (r *Referee) takeGaps(start int, inTurn bool) []events.Doubt {
	var in []Gap
	for _, g := range r.gaps {
		handled := inTurn && start >= 0 && g.Before <= start && len(g.IDs) == 1 && g.IDs[0] == "S"
		if (g.Moved && !handled) || (start >= 0 && g.Before > start) {
			in = append(in, g)
		}
	}
	r.gaps = nil
	if len(in) == 0 {
		return nil
	}
	return []events.Doubt{gapsDoubt(in)}
}

// movedGaps reports whether a gap across which pieces moved waits for a
// decision.
func (r *Referee) movedGaps() bool {
	for _, g := range r.gaps {
		if g.Moved {
			return true
		}
	}
	return false
}

// mergeDoubts appends the doubts of add not already stated in ds: a
// frames_missing doubt of the daemon's that overlaps one of the tracker's
// is the same missing frames told twice.
func mergeDoubts(ds []events.Doubt, add ...events.Doubt) []events.Doubt {
	for _, a := range add {
		dup := false
		for _, d := range ds {
			if d.Kind == a.Kind && (d.Reason == a.Reason || (a.Kind == events.DoubtFramesMissing && overlaps(d.Frames, a.Frames))) {
				dup = true
				break
			}
		}
		if !dup {
			ds = append(ds, a)
		}
	}
	return ds
}

func overlaps(a, b [2]int) bool {
	if a == [2]int{} || b == [2]int{} {
		return false
	}
	return a[0] <= b[1] && b[0] <= a[1]
}

// Uncertain reports whether the decision rests on something the camera
// could not establish: it must not be applied without the umpire.
func (d *Decision) Uncertain() bool { return len(d.Doubts) > 0 }

// Reasons are the doubts' reasons, in order.
func (d *Decision) Reasons() []string {
	out := make([]string, len(d.Doubts))
	for i, x := range d.Doubts {
		out[i] = x.Reason
	}
	return out
}

// inferred is a doubt on a position the tracker inferred.
func inferred(what string, e events.Event, ids ...string) events.Doubt {
	return foul.Inferred(what, e, ids...)
}

// doubt records a doubt on the stroke in progress.
func (s *stroke) doubt(d events.Doubt) { s.doubts = mergeDoubts(s.doubts, d) }

// offerInferred turns the calls of the given fouls into offers: they rest
// on an inferred position.
func offerInferred(calls []Call, fouls map[rules.Foul]bool, why string) {
	for i := range calls {
		c := &calls[i]
		if !fouls[c.Foul] || c.Status != Applied {
			continue
		}
		c.Status, c.LowConfidence = Offered, true
		c.Reason += " — " + why + ": offered to the umpire, not applied"
	}
}

// The fouls whose checks rest on the striker's place at the strike, on
// the striker's contacts, on resting pieces' places, on the striker's
// place at rest, on a hand's place, on a move by hand, on the stroke's
// end seen, on where a disc was put between strokes: as their
// descriptions say (foul.Camera.RestsOn).
var (
	startFouls   = foul.RestingOn(foul.StrikerPlace)
	contactFouls = foul.RestingOn(foul.StrikerContacts)
	pieceFouls   = foul.RestingOn(foul.PiecePlaces)
	restFouls    = foul.RestingOn(foul.StrikerRest)
	handFouls    = foul.RestingOn(foul.HandPlace)
	moveFouls    = foul.RestingOn(foul.HandMove)
	endFouls     = foul.RestingOn(foul.StrokeRest)
	putFouls     = foul.RestingOn(foul.PutPlace)
)

// inferredChecks doubts the stroke's checks that rested on inferred
// positions and offers their calls.
func (r *Referee) inferredChecks(s *stroke, calls []Call, end events.Event) {
	if s.start.Inferred {
		d := inferred("the striker's place at the strike", s.start, "S")
		s.doubt(d)
		offerInferred(calls, startFouls, "the striker's place was inferred")
	}
	for _, c := range s.strikerContacts() {
		if c.ev.Inferred {
			s.doubt(inferred(fmt.Sprintf("the striker's contact with %s", c.b), c.ev, c.b))
			offerInferred(calls, contactFouls, "a contact of the striker was inferred")
			break
		}
	}
	if len(s.usedInferred) > 0 {
		ids := make([]string, 0, len(s.usedInferred))
		for id := range s.usedInferred {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		s.doubt(events.Doubt{Kind: events.DoubtInferredPosition, IDs: ids,
			Reason: fmt.Sprintf("the resting place of %s, which a foul check of this stroke depends on, was inferred, not seen: the camera neither calls nor clears that foul", strings.Join(ids, ", "))})
		offerInferred(calls, pieceFouls, "a piece's place was inferred")
	}
	for _, p := range end.Pieces {
		if (p.ID == "S" || p.Piece == board.Striker) && p.Inferred && s.flickJudged && !s.start.Inferred && r.mayHaveCrossed(s.seat, p) {
			s.doubt(events.Doubt{Kind: events.DoubtInferredPosition, IDs: []string{"S"}, Frames: [2]int{end.Frame, end.Frame},
				Reason: fmt.Sprintf("the striker's place at rest (frame %d) was inferred, not seen: whether it crossed its front line is not judged by the camera", end.Frame)})
			offerInferred(calls, restFouls, "the striker's place at rest was inferred")
		}
	}
	for _, a := range s.arms {
		if a.Inferred && *a.Side == s.seat {
			s.doubt(inferred(fmt.Sprintf("where %s's hand or arm crossed the foul line", s.seat), a))
			offerInferred(calls, handFouls, "the hand's place was inferred")
		}
	}
	for _, p := range s.pocketed {
		if p.Inferred && (p.ID == "S" || p.Piece != nil && *p.Piece == board.Striker) {
			// A striker pocketed is a foul: counted only when it was seen
			// going in (tracker/fall.go).
			s.doubt(events.Doubt{Kind: events.DoubtInferredPosition, IDs: []string{"S"}, Frames: [2]int{p.Frame, p.Frame},
				Reason: fmt.Sprintf("the striker was not seen going into %s (frame %d): the camera lost it on its way and inferred the pocketing from that way; whether it was pocketed, a foul, is not judged by the camera", *p.Pocket, p.Frame)})
			break
		}
	}
	for _, m := range s.moved {
		if m.Inferred {
			s.doubt(inferred(fmt.Sprintf("%s moved by hand", pieceName(m)), m, m.ID))
			offerInferred(calls, moveFouls, "the move was inferred")
		}
	}
}

// mayHaveCrossed reports whether the striker, at rest at the inferred place
// p, may within three times its uncertainty have been wholly past seat's
// front line (where it stopped decides the backward flick only then).
func (r *Referee) mayHaveCrossed(seat board.Side, p events.PieceAt) bool {
	d := localY(seat, p.MM.Vec()) + r.g.Radius(board.Striker) - r.g.Marks().FrontInner(seat)
	return d < 3*math.Max(p.SigmaMM, 10)
}

// Flush ends the stream (the video ended): a stroke still in progress is
// decided from what was seen of it, doubted because its rest was not seen;
// gaps across which pieces moved and that no decision followed become a
// stroke decision with no outcome, for the umpire to enter what happened.
// st is the match state now.
func (r *Referee) Flush(st rules.State) []Decision {
	if r.cur != nil {
		s := r.cur
		s.doubt(events.Doubt{Kind: events.DoubtEndUnseen, Frames: [2]int{s.start.Frame, r.lastFrame},
			Reason: fmt.Sprintf("the video ended at frame %d before the pieces of %s's stroke (from frame %d) came to rest: its outcome was not seen whole", r.lastFrame, s.seat, s.start.Frame)})
		return r.finish(events.Event{Type: events.StrokeEnd, Frame: r.lastFrame})
	}
	if !r.movedGaps() {
		r.gaps = nil
		return nil
	}
	d := Decision{Kind: KindStroke, Board: st.Board, Seat: st.Turn, Frame: r.lastFrame}
	d.Doubts = r.takeGaps(-1, false)
	d.Notes = append(d.Notes, "no stroke was seen after frames in which pieces moved: a stroke may have been missed; enter it by hand")
	return []Decision{d}
}
