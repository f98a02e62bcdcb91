package tracker

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
)

// Never silently wrong: what the camera did not see is said. Every
// position the tracker reports is marked measured or inferred (with its
// uncertainty), and a stroke whose outcome rests on something not seen
// ends with the doubts that the referee holds for the umpire:
//
//   - frames missing: the frame index jumped (frames dropped, or not
//     analysed because the camera moved) while discs moved;
//   - start unseen: frames were missing and the board changed across them
//     with no stroke seen (the whole stroke fell in the gap); the stroke
//     ends with its rest position and the pocketings inferred, with no
//     stroke_start;
//   - unaccounted: at rest, an identity that was on the board is neither on
//     it, nor pocketed, nor overboard as far as the camera can tell;
//   - view covered: a disc went under a hand (or a pocket was covered)
//     while moving, and where it stopped was not seen;
//   - striker ambiguous: two discs the detector was sure were the striker.
//
// At the end of a stroke the new rest position is reconciled with the one
// before it: every identity is on the board (where, seen or inferred),
// pocketed (which pocket), overboard, or unaccounted (a doubt).

// frameGap is a run of frames the tracker did not get to analyse.
type frameGap struct {
	from, to int     // first and last missing frame index
	t0, t1   float64 // times of the analysed frames either side
	movers   []gapMover
}

// gapMover is a disc that was moving when frames went missing.
type gapMover struct {
	i   int
	dir board.Vec
}

// maxGaps bounds the gaps remembered.
const maxGaps = 32

// gapLog is what the Tracker remembers of the frames it did not get to
// analyse (one concern, a field of the assignment): the last maxGaps gaps
// and the one just before this frame.
type gapLog struct {
	gaps []frameGap
	// now is the gap just before this frame while no stroke was in
	// progress (see gapAssociate), nil otherwise.
	now *frameGap
}

// note records that frames from..to were not analysed, between the
// frames at t0 and t1, with the discs of tracks moving at the time.
func (l *gapLog) note(from, to int, t0, t1 float64, tracks *[nTracks]track) {
	if n := len(l.gaps); n > 0 && l.gaps[n-1].to >= from-1 {
		// (A run of uncalibrated frames grows one gap.)
		g := &l.gaps[n-1]
		g.to, g.t1 = max(g.to, to), t1
		return
	}
	g := frameGap{from: from, to: to, t0: t0, t1: t1}
	for i := range tracks {
		tr := &tracks[i]
		if tr.state == Moving {
			g.movers = append(g.movers, gapMover{i, tr.vel})
		}
	}
	if len(l.gaps) >= maxGaps {
		copy(l.gaps, l.gaps[1:])
		l.gaps = l.gaps[:maxGaps-1]
	}
	l.gaps = append(l.gaps, g)
}

// last is the gap noted last.
func (l *gapLog) last() *frameGap { return &l.gaps[len(l.gaps)-1] }

// compass names the direction of v on the board ("NE": toward the north-
// east corner; S is at the bottom, y down).
func compass(v board.Vec) string {
	if v.Len() == 0 {
		return ""
	}
	a := math.Atan2(-v.Y, v.X) * 180 / math.Pi // 0 = E, 90 = N
	names := [8]string{"E", "NE", "N", "NW", "W", "SW", "S", "SE"}
	k := int(math.Floor((a+360+22.5)/45)) % 8
	return names[k]
}

// frames names a run of frames for the umpire.
func frames(from, to int) string {
	if from == to {
		return fmt.Sprintf("frame %d", from)
	}
	return fmt.Sprintf("frames %d–%d", from, to)
}

// listIDs joins identities for a reason.
func listIDs(ids []string) string {
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return ids[0]
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}

// doubts turns the gaps that overlap the stroke (from its start, as
// traced back, to end) into doubts, naming the discs of tracks that moved
// in them; dt is the frame interval.
func (l *gapLog) doubts(start, end, dt float64, tracks *[nTracks]track) []events.Doubt {
	var out []events.Doubt
	for _, g := range l.gaps {
		if g.t1 < start-1e-9 || g.t0 > end+1e-9 {
			continue
		}
		d := events.Doubt{Kind: events.DoubtFramesMissing, Frames: [2]int{g.from, g.to}}
		var parts []string
		for _, m := range g.movers {
			tr := &tracks[m.i]
			d.IDs = append(d.IDs, tr.id)
			if c := compass(m.dir); c != "" {
				parts = append(parts, tr.id+" moved towards "+c)
			} else {
				parts = append(parts, tr.id+" moved")
			}
		}
		switch {
		case len(parts) > 0:
			d.Reason = fmt.Sprintf("%s were not analysed while %s", frames(g.from, g.to), listIDs(parts))
		case g.t1 <= start+dt:
			d.Reason = fmt.Sprintf("%s were not analysed as the stroke began: the flick was not seen", frames(g.from, g.to))
		default:
			d.Reason = fmt.Sprintf("%s were not analysed during the stroke", frames(g.from, g.to))
		}
		if g.from == g.to {
			d.Reason = strings.Replace(d.Reason, " were not", " was not", 1)
		}
		out = append(out, d)
	}
	return out
}

// gapAssociate, in the first frame after frames went missing with no
// stroke in progress, looks for the discs at rest that are no longer at
// their place anywhere they could have gone (the whole stroke may have
// fallen in the gap). It returns whether the board changed: a disc found
// elsewhere, or gone from its place in plain view.
func (tk *Tracker) gapAssociate(g *frameGap) bool {
	span := g.t1 - g.t0
	tk.pass(func(i int, tr *track) (board.Vec, float64, bool) {
		if !tr.state.atRest() {
			return board.Vec{}, 0, false
		}
		return tr.restPos, math.Min(tk.cfg.MaxSpeed*span+10, 2*tk.g.Half()), true
	}, 0.3, true)
	changed := false
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if !tr.state.atRest() {
			continue
		}
		if j := tk.trkDet[i]; j >= 0 {
			if tk.dets[j].MM.Dist(tr.restPos) > 3*tk.cfg.MoveMM {
				changed = true
			}
			continue
		}
		if tk.occ != nil && tk.occ.Hidden(tr.restPos, tr.r) >= tk.cfg.OccludedFraction/2 {
			continue // under a hand: perhaps still there
		}
		changed = true
	}
	return changed
}

// beginUnseen starts a stroke that fell (at least in part) in the gap g:
// it was not seen to start; its moment is taken as the gap's middle.
func (tk *Tracker) beginUnseen(g *frameGap) {
	t := (g.t0 + g.t1) / 2
	st := &strokeState{side: board.S, startT: t, start: board.Vec{}, strikerPrev: t, crossed: true, unseen: true, unseenGap: *g}
	tk.stroke = st
	tk.strokeSeen = true
	tk.forgetFlicks()
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.placedSeq != 0 {
			tr.placedSeq = 0
		}
		tr.placedFlag = false
		if tr.state == Placed {
			tr.state = Rest
		}
		tr.inStroke = false
		tr.onAtStart = tr.state.OnBoard()
		if tr.state.OnBoard() {
			tr.hist, tr.moveStart = tr.hist[:0], 0
			tr.segs = append(tr.segs[:0], seg{from: math.Inf(-1), t0: tr.restSince, p0: tr.restPos, known: true})
		}
	}
}

// markStart says how the striker's place in the stroke_start held now was
// established: seen (the striker was seen standing there just before the
// flick) or inferred (traced back along its path), and how well.
func (tk *Tracker) markStart(seen bool, sigma float64) {
	st := tk.stroke
	if st == nil {
		return
	}
	st.startInferred, st.startSigma = !seen, sigma
	if ev := tk.pendingEvent(st.startSeq); ev != nil {
		ev.Inferred, ev.SigmaMM = !seen, round2(sigma)
	}
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// How well the striker's place at the flick is known: seen standing
// (the resting place's error), traced back to the middle of the base-line
// band its path comes from (anywhere across the band), traced back from
// the disc it struck (the line of centres and the speed both guessed).
const (
	startSeenSigma   = 1.0
	startBandSigma   = 12.0
	startTracedSigma = 25.0
)

// restSigma is how well a disc's resting place is known: the detector's
// error over the detections averaged.
func (tk *Tracker) restSigma(tr *track) float64 {
	return tk.cfg.NoiseMM / math.Sqrt(math.Max(1, math.Min(tr.restW, 16)))
}

// restPieces lists what lies on the board at the end of a stroke, each
// place measured or inferred.
func (tk *Tracker) restPieces() []events.PieceAt {
	var pieces []events.PieceAt
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if !tr.state.OnBoard() {
			continue
		}
		p := tr.pos
		if tr.state.atRest() || tr.state == Occluded {
			p = tr.restPos
		}
		pa := events.PieceAt{Piece: tr.kind, ID: tr.id, MM: events.FromVec(p), SigmaMM: round2(tk.restSigma(tr))}
		switch {
		case tr.state == Occluded && tr.occMoving:
			// It went under a hand moving: where its slide would stop.
			pa.Inferred, pa.SigmaMM = true, 30
		case tr.state == Occluded:
			// Under a hand, where it lay before.
			pa.Inferred, pa.SigmaMM = true, 3
		case tr.state == Moving || tr.misses > 0 && !(tr.state.atRest() && tr.restW >= 3):
			// (At rest, seen there in several frames and missed in the
			// last: where it was seen.)
			pa.Inferred, pa.SigmaMM = true, 10
		}
		pieces = append(pieces, pa)
	}
	return pieces
}

// noteCovered records a doubt: disc i went out of sight under a hand (or
// into a pocket the hand covers) while it moved.
func (tk *Tracker) noteCovered(i int, what string) {
	st := tk.stroke
	if st == nil {
		return
	}
	tr := &tk.tracks[i]
	for _, d := range st.doubts {
		if d.Kind == events.DoubtViewCovered && len(d.IDs) == 1 && d.IDs[0] == tr.id {
			return
		}
	}
	f := tk.frameOf(tr.lastSeenT)
	reason := fmt.Sprintf("%s went under a hand at frame %d", tr.id, f)
	if c := compass(tr.vel); c != "" {
		reason += " moving towards " + c
	}
	reason += "; " + what
	st.doubts = append(st.doubts, events.Doubt{Kind: events.DoubtViewCovered, Reason: reason, Frames: [2]int{f, tk.frame}, IDs: []string{tr.id}})
}

// noteUnaccounted records a doubt: disc i, on the board before the stroke,
// is neither on the board, nor pocketed, nor overboard as far as the
// camera can tell (why says what was seen).
func (tk *Tracker) noteUnaccounted(i int, why string) {
	st := tk.stroke
	if st == nil {
		return
	}
	tr := &tk.tracks[i]
	f := tk.frameOf(tr.lastSeenT)
	st.doubts = append(st.doubts, foul.Unaccounted(tr.id, f, tk.frame, tr.pos, why))
}

// noteStrikers watches, during a stroke, for two discs the detector is sure
// are the striker (a second striker on the board, or a man it sizes as
// one), seen together in ConfirmTime's worth of frames running.
func (tk *Tracker) noteStrikers() {
	st := tk.stroke
	if st == nil || st.twoStrikers < 0 {
		return
	}
	var at [2]board.Vec
	n := 0
	for j := range tk.dets {
		d := &tk.dets[j]
		if tk.detUsed[j] == -2 || !sureStriker(d) || tk.fixtures.on(j) {
			continue
		}
		if n < 2 {
			at[n] = d.MM
		}
		n++
	}
	if n < 2 {
		st.twoStrikers = 0
		return
	}
	if st.twoStrikers == 0 {
		st.twoFrom = tk.frame
	}
	st.twoStrikers++
	if st.twoStrikers >= tk.confirmFr {
		st.twoStrikers = -1 // said once
		st.doubts = append(st.doubts, events.Doubt{Kind: events.DoubtStrikerAmbiguous,
			Reason: fmt.Sprintf("from frame %d two discs looked like the striker, at (%.0f, %.0f) and (%.0f, %.0f) mm", st.twoFrom, at[0].X, at[0].Y, at[1].X, at[1].Y),
			Frames: [2]int{st.twoFrom, tk.frame}, IDs: []string{"S"}})
	}
}

// strokeDoubts gathers the doubts of the stroke ending at end.
func (tk *Tracker) strokeDoubts(end float64) []events.Doubt {
	st := tk.stroke
	var out []events.Doubt
	if st.unseen {
		g := st.unseenGap
		var moved, gone, lost []string
		for i := range tk.tracks {
			tr := &tk.tracks[i]
			if !tr.inStroke {
				continue
			}
			switch {
			case tr.state.OnBoard():
				moved = append(moved, tr.id)
			case tr.state == Missing:
				lost = append(lost, tr.id)
			default:
				gone = append(gone, tr.id)
			}
		}
		sort.Strings(moved)
		sort.Strings(gone)
		sort.Strings(lost)
		what := "the board changed"
		var parts []string
		if len(moved) > 0 {
			parts = append(parts, listIDs(moved)+" moved")
		}
		if len(gone) > 0 {
			parts = append(parts, listIDs(gone)+" left the board")
		}
		if len(lost) > 0 {
			parts = append(parts, listIDs(lost)+" not found")
		}
		if len(parts) > 0 {
			what += ": " + strings.Join(parts, ", ")
		}
		r := fmt.Sprintf("%s were not analysed and no stroke was seen, but %s", frames(g.from, g.to), what)
		if g.from == g.to {
			r = strings.Replace(r, " were not", " was not", 1)
		}
		if st.unseenWhy != "" {
			r = st.unseenWhy + "; " + what
		}
		out = append(out, events.Doubt{Kind: events.DoubtStartUnseen, Reason: r, Frames: [2]int{g.from, g.to}, IDs: append(append(moved, gone...), lost...)})
	} else {
		out = append(out, tk.gaps.doubts(st.startT, end, tk.dt, &tk.tracks)...)
	}
	out = append(out, st.doubts...)
	out = append(out, tk.newcomerDoubts()...)
	// Rest-to-rest: every identity that was on the board when the stroke
	// began is on it now, pocketed or overboard; any other is
	// unaccounted. So is one lost from plain view at rest since the last
	// stroke (missing when the stroke began), once: nothing says it is
	// still there, nor that it left (lostBefore).
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.state != Missing || !tr.onAtStart && !tk.lostBefore(i) {
			continue
		}
		said := false
		for _, d := range out {
			if d.Kind == events.DoubtUnaccounted && len(d.IDs) == 1 && d.IDs[0] == tr.id {
				said = true
			}
		}
		tk.lostSaid[i] = tr.lastSeenT
		if said {
			continue
		}
		f := tk.frameOf(tr.lastSeenT)
		why := foul.NotOnBoard
		if !tr.onAtStart {
			why = lostBeforeWhy
		}
		out = append(out, foul.Unaccounted(tr.id, f, tk.frame, tr.pos, why))
	}
	return out
}

// lostSaid remembers, for each identity, the last sighting after which it
// was lost and a stroke_end said so (0: none).
type lostSaid [nTracks]float64

// lostSeenTime is how long a disc must have been seen lying at its place
// for its vanishing to be told: a detection that lasted a few frames (the
// striker in the fingers taken for a man as the clip begins, a marking)
// was no disc.
const lostSeenTime = 0.5

// lostBefore reports whether missing disc i, not the striker, was lost
// between strokes in plain view where it had been seen lying for
// lostSeenTime, and that has not been said yet. Such a disc is said
// unaccounted for at the end of the first stroke after it was lost, and
// only then: the referee holds that stroke (only the umpire can tell
// whether the detector lost a man lying there, or a man was taken off the
// board or pocketed unseen); the strokes after it are not held for it (the
// umpire has been told; the referee takes it for still on the board) unless
// it is seen and lost again. One taken away by a hand that covered it is
// not said (a man in the hand that places it is seen at rest for a moment).
func (tk *Tracker) lostBefore(i int) bool {
	tr := &tk.tracks[i]
	return i != idxS && tr.vanishT > 0 && tr.lastSeenT-tr.restSince >= lostSeenTime && tk.lostSaid[i] != tr.lastSeenT
}

// lostBeforeWhy is what foul.Unaccounted says of a disc lostBefore.
const lostBeforeWhy = "vanished there from plain view before this stroke began and has not been seen since: whether it is still on the board is not known"

// lostAtEndWhy is what foul.Unaccounted says of a disc lostBefore when the
// video ends with no stroke after its loss.
const lostAtEndWhy = "vanished there from plain view and was not seen again before the video ended, with no stroke after it: whether it is still on the board, was taken off or fell in a stroke that was not seen is not known"

// sayLostAtEnd ends a video whose board is at rest: every disc lost from
// plain view that no stroke_end has said yet (lostBefore) would otherwise
// never be said (that rule waits for the next stroke's end). It is said
// now, on a stroke_end with no stroke before it that carries only those
// unaccounted doubts and the pieces at rest; the referee holds it for the
// umpire with no outcome (referee.Observe). With a stroke in progress
// nothing is emitted: the referee's Flush holds that stroke anyway.
func (tk *Tracker) sayLostAtEnd() {
	if tk.stroke != nil || !tk.calStarted {
		return
	}
	var ds []events.Doubt
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.state != Missing || !tk.lostBefore(i) {
			continue
		}
		tk.lostSaid[i] = tr.lastSeenT
		ds = append(ds, foul.Unaccounted(tr.id, tk.frameOf(tr.lastSeenT), tk.frame, tr.pos, lostAtEndWhy))
	}
	if len(ds) == 0 {
		return
	}
	tk.emit(events.Event{Type: events.StrokeEnd, T: tk.t, Pieces: tk.restPieces(), Doubts: ds})
}
