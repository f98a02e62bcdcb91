package referee

import (
	"fmt"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/rules"
)

// Between strokes: pieces put on the board (placed) and pieces moved by
// hand (moved).

// teamOf returns the index of the team playing colour k.
func teamOf(st rules.State, k board.Kind) int {
	if st.Teams[0].Colour == k {
		return 0
	}
	return 1
}

// next is the seat that plays after seat.
func (r *Referee) next(st rules.State, seat board.Side) board.Side {
	if !st.Doubles {
		return seat.Opposite()
	}
	if r.p.Direction == rules.Clockwise {
		return seat.Left()
	}
	return seat.Right()
}

// placerOf returns the seat placing the awaiting men of colour k. The state
// names one placer: that of team 0's men when they await, else team 1's.
// For team 1's men while team 0's await too, the engine's rule is applied
// (ICF Dues and Penalties 11, 12): the next player places the men of the
// side having the turn, the player having the turn those of the others.
func (r *Referee) placerOf(st rules.State, k board.Kind) (board.Side, bool) {
	t := teamOf(st, k)
	if t == 0 || st.Teams[0].AwaitingPlacement == 0 {
		if s, err := board.ParseSide(st.Placer); err == nil {
			return s, true
		}
		return 0, false
	}
	if st.TeamOf(st.Turn) == t {
		return r.next(st, st.Turn), true
	}
	return st.Turn, true
}

// dueCalls checks where a due or penalty man lies: inside the outer circle
// (ICF Dues and Penalties 20, 22) and clear of the centre circle (29).
func (r *Referee) dueCalls(seat board.Side, e events.Event, id string, k board.Kind, p board.Vec) ([]Call, []string) {
	g := r.g
	rad := g.Radius(k)
	var calls []Call
	var notes []string
	name := idOr(id, k)
	ev := Evidence{Piece: id, PieceMM: mmPtr(p), Frames: []int{e.Frame}}
	out := p.Len() + rad - g.OuterCircleDiameter/2 // > 0: outside
	if out > 0 {
		ev.Marking = "outer circle"
		if c, ok := r.newCall(rules.FoulDueOutsideOuterCircle, seat, e,
			fmt.Sprintf("%s was placed at %s, %.1f mm outside the outer circle", name, fmtMM(p), out), ev, &out, false); ok {
			calls = append(calls, c)
		}
	} else if -out < r.tol {
		notes = append(notes, fmt.Sprintf("%s placed %.2f mm inside the outer circle: no foul, within the tolerance", name, -out))
	}
	over := rad + g.CentreCircleDiameter/2 - p.Len() // > 0: overlapping
	if over > 0 {
		ev.Marking = "centre circle"
		if c, ok := r.newCall(rules.FoulDueOnCentreCircle, seat, e,
			fmt.Sprintf("%s was placed at %s, covering %.1f mm of the centre circle", name, fmtMM(p), over), ev, &over, false); ok {
			calls = append(calls, c)
		}
	} else if -over < r.tol {
		notes = append(notes, fmt.Sprintf("%s placed %.2f mm clear of the centre circle: no foul, within the tolerance", name, -over))
	}
	return calls, notes
}

// placed handles a piece appearing on the board between strokes.
func (r *Referee) placed(e events.Event, st rules.State) []Decision {
	k := *e.Piece
	id := e.ID
	p := e.MM.Vec()
	if k == board.Striker || id == "S" {
		return nil // the striker is placed for every stroke; stroke_start says where
	}
	if id != "" {
		r.pos[id] = p
		delete(r.off, id)
	}
	var notes []string
	if r.cur != nil {
		notes = append(notes, fmt.Sprintf("%s placed during %s's stroke", idOr(id, k), r.cur.seat))
	}
	// A piece that left the board, put back by the umpire: the rules
	// engine never took it off.
	if id != "" && r.jumped[id] {
		delete(r.jumped, id)
		return nil
	}
	ta := st.Teams[0].AwaitingPlacement + st.Teams[1].AwaitingPlacement
	if st.Strokes == 0 && ta == 0 && st.Queen.Status == rules.QueenOnBoard {
		// Setting out the pieces for the board.
		r.jumped = map[string]bool{}
		return nil
	}
	seat := st.Turn
	info := func(note string) []Decision {
		d := r.info(st, e, seat, note)
		d.Notes = append(notes, d.Notes...)
		return []Decision{d}
	}
	if k == board.Queen {
		q := st.Queen
		switch {
		case q.Status == rules.QueenAwaitingPlacement && !q.Held:
			d := Decision{Kind: KindPlace, Board: st.Board, Seat: seat, Frame: e.Frame, T: e.T,
				Place: &Placing{Queen: true, ID: id, MM: events.FromVec(p)}, Notes: notes}
			if !r.g.OverlapsCentreCircle(p, r.g.Radius(board.Queen)) {
				d.Notes = append(d.Notes, fmt.Sprintf("the queen was put at %s, off the centre circle (allowed only when men cover it: ICF Covering the Queen 3)", fmtMM(p)))
			}
			d.refresh()
			return []Decision{d}
		case q.Status == rules.QueenAwaitingPlacement:
			return info(fmt.Sprintf("the queen was put back at %s before the end of the turn; %s returns her only then (%s)", fmtMM(p), r.p.Name, r.p.Ref("queen")))
		}
		return info(fmt.Sprintf("the queen was put on the board at %s, but she does not await placement (%s)", fmtMM(p), q.Status))
	}
	if k != board.White && k != board.Black {
		return nil
	}
	t := teamOf(st, k)
	if st.Teams[t].AwaitingPlacement > 0 {
		placer, ok := r.placerOf(st, k)
		if !ok {
			placer = st.Turn
		}
		d := Decision{Kind: KindPlace, Board: st.Board, Seat: placer, Frame: e.Frame, T: e.T, Notes: notes,
			Place: &Placing{ID: id, MM: events.FromVec(p)}}
		if k == board.White {
			d.Place.White = 1
		} else {
			d.Place.Black = 1
		}
		calls, more := r.dueCalls(placer, e, id, k, p)
		d.Calls = calls
		d.Notes = append(d.Notes, more...)
		d.refresh()
		if id != "" {
			r.dues[id] = placer
		}
		r.lastDue, r.lastPlacer, r.hasDue = e.T, placer, true
		return []Decision{d}
	}
	// A man of the wrong colour put down by the placer (ICF Dues and
	// Penalties 17)?
	if other := st.Teams[1-t]; other.AwaitingPlacement > 0 {
		if placer, ok := r.placerOf(st, other.Colour); ok && st.TeamOf(placer) == t {
			ev := Evidence{Piece: id, PieceMM: mmPtr(p), Frames: []int{e.Frame}}
			if c, ok := r.newCall(rules.FoulWrongManPlaced, placer, e,
				fmt.Sprintf("%s placed %s, a man of his own colour, instead of a %s man", placer, idOr(id, k), other.Colour), ev, nil, false); ok {
				d := Decision{Kind: KindFoul, Board: st.Board, Seat: placer, Frame: e.Frame, T: e.T, Calls: []Call{c},
					Notes: append(notes, fmt.Sprintf("%s must be taken back and a %s man placed instead", idOr(id, k), other.Colour))}
				d.refresh()
				return []Decision{d}
			}
		}
	}
	if ts := st.Teams[t]; ts.Owed > 0 && ts.Pocketed > 0 {
		return info(fmt.Sprintf("%s was put on the board at %s, but the %s dues are taken out only at the end of the turn (%s)", idOr(id, k), fmtMM(p), k, r.p.Ref("dues")))
	}
	return info(fmt.Sprintf("%s was put on the board at %s, but no %s man awaits placement", idOr(id, k), fmtMM(p), k))
}

// moved handles a resting piece moved by hand.
func (r *Referee) moved(e events.Event, st rules.State) []Decision {
	if r.cur != nil {
		r.cur.moved = append(r.cur.moved, e)
		return nil
	}
	k := *e.Piece
	id := e.ID
	to := e.MM.Vec()
	from, known := r.pos[id]
	if id != "" {
		r.pos[id] = to
	}
	if k == board.Striker || id == "S" {
		return nil // the player handles his striker between strokes
	}
	name := idOr(id, k)
	// A due man adjusted by its placer: only where it ends up matters.
	if placer, ok := r.dues[id]; ok && id != "" {
		calls, notes := r.dueCalls(placer, e, id, k, to)
		if len(calls) == 0 {
			return nil
		}
		d := Decision{Kind: KindFoul, Board: st.Board, Seat: placer, Frame: e.Frame, T: e.T, Calls: calls, Notes: notes}
		d.refresh()
		return []Decision{d}
	}
	if st.Strokes == 0 {
		d := r.info(st, e, st.Turn, fmt.Sprintf("%s moved by hand to %s before the break: setting out the pieces, no foul (ICF General Rules 34 applies after the break)", name, fmtMM(to)))
		return []Decision{d}
	}
	seat := st.Turn
	var notes []string
	f := rules.FoulTouchedPiece
	reason := fmt.Sprintf("a hand moved %s to %s outside a stroke", name, fmtMM(to))
	placing := r.hasDue && e.T-r.lastDue <= r.cfg.PlacingWindow
	if placing {
		f = rules.FoulPlacementDisturbed
		seat = r.lastPlacer
		reason = fmt.Sprintf("placing the due men moved %s to %s", name, fmtMM(to))
	}
	if e.Side != nil {
		seat = *e.Side
	} else if !placing {
		notes = append(notes, fmt.Sprintf("the camera cannot tell whose hand moved %s: charged to %s, who has the turn; the umpire may charge another player", name, seat))
	}
	ev := Evidence{Piece: id, PieceMM: mmPtr(to), Frames: []int{e.Frame}}
	var margin *float64
	uncertain := false
	if known {
		ev.From = mmPtr(from)
		d := from.Dist(to)
		margin = &d
		reason += fmt.Sprintf(" (%.1f mm from where it lay)", d)
		if e.SigmaMM > 0 && d <= 2*e.SigmaMM {
			// Measured beside a hand, and not again once it had gone
			// (tracker/touch.go): a move this small may be the camera's.
			uncertain = true
			reason += fmt.Sprintf(" — measured only beside a hand or arm, where the camera may misplace a disc by %.1f mm: it may not have moved; offered to the umpire, not applied", e.SigmaMM)
		}
	}
	offWhy, off := r.offBoard(id, st)
	if off {
		// Not this piece (offboard.go): the camera's identities are in
		// doubt.
		uncertain = true
		reason += " — but " + offWhy + ": offered to the umpire, not applied"
	}
	c, ok := r.newCall(f, seat, e, reason, ev, margin, uncertain)
	if !ok {
		d := r.info(st, e, seat, reason+fmt.Sprintf(": %s does not recognise %s", r.p.Name, f))
		return []Decision{d}
	}
	d := Decision{Kind: KindFoul, Board: st.Board, Seat: seat, Frame: e.Frame, T: e.T, Calls: []Call{c}, Notes: notes}
	if off {
		d.Doubts = mergeDoubts(d.Doubts, offBoardMoved(e, offWhy))
	}
	if known {
		d.Notes = append(d.Notes, fmt.Sprintf("%s should be put back at %s by the umpire", name, fmtMM(from)))
	}
	d.refresh()
	return []Decision{d}
}
