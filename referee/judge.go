package referee

import (
	"fmt"
	"math"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/rules"
)

// judge calls the fouls of a finished stroke: the striker's placement,
// then the checks registered by the described fouls (check.go: the flick,
// the arm, the contacts, …), the hands during the stroke and the fouls the
// outcome derives.
func (r *Referee) judge(s *stroke, o *Outcome, end events.Event) []Call {
	var calls []Call
	if s.noStart {
		// Nothing is known of the strike: no check on its place or its
		// contacts (the outcome's derived fouls still follow).
		return append(calls, r.derived(s, o)...)
	}
	pcalls, otherSide := r.placement(s)
	calls = append(calls, pcalls...)
	s.otherSide = otherSide
	if otherSide {
		s.notes = append(s.notes, "struck from another side: the front line of the striker's own side is not judged")
	}
	calls = append(calls, r.described(s, o, end)...)
	calls = append(calls, r.handsInStroke(s)...)
	calls = append(calls, r.derived(s, o)...)
	return calls
}

// localY is a point's distance from the centre toward side s's edge.
func localY(s board.Side, p board.Vec) float64 { return board.ToLocal(s, p).Y }

// fallback returns f if the profile recognises it, else the more general
// placement foul.
func (r *Referee) fallback(f rules.Foul) rules.Foul {
	if r.p.Recognises(f) {
		return f
	}
	return rules.FoulPlacement
}

// placement judges where the striker stood at the strike (ICF Striking 1,
// 2; General Rules 29, 30): within the base line touching both lines, or
// covering a base circle without touching the arrow; on the striker's own
// side. otherSide reports a striker on another side's base line.
func (r *Referee) placement(s *stroke) (calls []Call, otherSide bool) {
	g := r.g
	R := g.Radius(board.Striker)
	c := s.striker
	seat := s.seat
	pl := g.StrikerPlacement(seat, c, R)
	ev := Evidence{Striker: mmPtr(c), Placement: pl.Kind.String(), PlacementSide: &seat, Frames: []int{s.start.Frame}}
	at := s.start
	if pl.Proper() {
		if pl.Margin < r.tol {
			s.notes = append(s.notes, fmt.Sprintf("placement %s judged proper by %.2f mm, within the %.1f mm tolerance", pl.Kind, pl.Margin, r.tol))
		}
		return nil, false
	}
	// Another side's base line?
	if other, ok := g.BaseLineSide(c, R); ok && other != seat {
		m := r.bandMargin(other, c, R)
		ev.Marking = "base line " + other.String()
		if cl, ok := r.newCall(r.fallback(rules.FoulWrongSide), seat, at,
			fmt.Sprintf("the striker stood at %s on %s's base line, not %s's", fmtMM(c), other, seat), ev, &m, false); ok {
			return []Call{cl}, true
		}
		return nil, true
	}
	circle := func(i int) string {
		if i == 0 {
			return fmt.Sprintf("base circle %s left", seat)
		}
		return fmt.Sprintf("base circle %s right", seat)
	}
	var f rules.Foul
	var reason string
	m := pl.Margin
	switch pl.Kind {
	case board.CutMoon:
		f = r.fallback(rules.FoulCutMoon)
		ev.Marking = circle(pl.Circle)
		reason = fmt.Sprintf("the striker at %s lay partly on the %s without covering it (cutting the moon)", fmtMM(c), ev.Marking)
	case board.BaseCircle: // touching the arrow
		f = r.fallback(rules.FoulArrow)
		ev.Marking = "arrow " + pl.Arrow.String()
		m = R + g.Marks().ArrowWidth(pl.Arrow)/2 - g.Arrow(pl.Arrow).DistTo(c)
		reason = fmt.Sprintf("the striker at %s covered the %s but touched the arrow toward %s by %.1f mm", fmtMM(c), circle(pl.Circle), pl.Arrow, m)
	default: // one line, or off the base line
		f = rules.FoulPlacement
		m = r.properDistance(seat, c, R)
		ev.Marking = "base lines " + seat.String()
		if pl.Kind == board.OneLine {
			reason = fmt.Sprintf("the striker at %s touched only one of %s's base lines", fmtMM(c), seat)
		} else {
			reason = fmt.Sprintf("the striker at %s touched neither %s's base lines nor a base circle", fmtMM(c), seat)
		}
	}
	if cl, ok := r.newCall(f, seat, at, reason, ev, &m, false); ok {
		return []Call{cl}, false
	}
	return nil, false
}

// bandMargin is how far inside side s's base line area (the band from the
// front line's inner edge to the rear line's outer edge, base circles
// included) the disc lies.
func (r *Referee) bandMargin(s board.Side, c board.Vec, rad float64) float64 {
	sm := r.g.Marks().Side(s)
	l := board.ToLocal(s, c)
	lo, hi := sm.Circles[0].X-sm.Circles[0].R, sm.Circles[1].X+sm.Circles[1].R
	return math.Min(math.Min(l.X-(lo-rad), hi+rad-l.X),
		math.Min(l.Y+rad-sm.Front.Inner(), sm.Rear.Outer()-(l.Y-rad)))
}

// properDistance estimates how far a striker touching at most one base
// line would have to move to touch both lines or cover a base circle.
func (r *Referee) properDistance(s board.Side, c board.Vec, rad float64) float64 {
	g := r.g
	l := board.ToLocal(s, c)
	// Gaps to touching each line, moving along local y.
	gap := func(inner, outer float64) float64 {
		switch {
		case l.Y+rad < inner:
			return inner - (l.Y + rad)
		case l.Y-rad > outer:
			return (l.Y - rad) - outer
		}
		return 0
	}
	sm := g.Marks().Side(s)
	d := math.Max(gap(sm.Front.Inner(), sm.Front.Outer()), gap(sm.Rear.Inner(), sm.Rear.Outer()))
	if over := math.Max(sm.Circles[0].X-l.X, l.X-sm.Circles[1].X); over > 0 {
		d = math.Hypot(d, over)
	}
	for _, k := range g.BaseCircles(s) {
		d = math.Min(d, k.C.Dist(c)-(rad-k.R))
	}
	return d
}

// piecePos is where the piece B of a contact was: the contact's position,
// else its last known resting position. A check that decides on it passes
// its stroke (nil otherwise) to have an inferred resting place recorded.
func (r *Referee) piecePos(s *stroke, c contact) (board.Vec, bool) {
	if c.bmm != nil {
		return *c.bmm, true
	}
	p, ok := r.pos[c.b]
	if ok && s != nil && r.inferredPos[c.b] {
		if s.usedInferred == nil {
			s.usedInferred = map[string]bool{}
		}
		s.usedInferred[c.b] = true
	}
	return p, ok
}

// strikerContacts returns the striker's contacts in order.
func (s *stroke) strikerContacts() []contact {
	var out []contact
	for _, c := range s.contacts {
		if c.striker() {
			out = append(out, c)
		}
	}
	return out
}

// adjacentPockets are the two pockets at the ends of side s's base line.
func (r *Referee) adjacentPockets(s board.Side) []board.Pocket {
	var out []board.Pocket
	for _, p := range board.Pockets {
		if localY(s, r.g.Pocket(p).C) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// markedCoin: the striker must not hit a man lying on a marking of its
// side (team-3board General Rules 8, 9). on says by how much a man of
// radius rad at p lies on the marking (negative: not on it) and names it;
// where says how it lies there ("on the", "touching the").
func (r *Referee) markedCoin(s *stroke, f rules.Foul, where string, on func(p board.Vec, rad float64) (float64, string)) (Call, bool) {
	if !r.p.Recognises(f) {
		return Call{}, false
	}
	g := r.g
	var seen []string
	for _, c := range s.strikerContacts() {
		seen = append(seen, c.b)
		k, err := board.KindOfID(c.b)
		if err != nil || (k != board.White && k != board.Black) {
			continue
		}
		p, ok := r.piecePos(s, c)
		if !ok {
			continue
		}
		m, marking := on(p, g.Radius(k))
		if m < 0 {
			continue
		}
		ev := Evidence{Striker: mmPtr(s.striker), Piece: c.b, PieceMM: mmPtr(p), Marking: marking, Contacts: seen,
			Frames: []int{s.start.Frame, c.ev.Frame}}
		if c.amm != nil {
			ev.StrikerAtContact = mmPtr(*c.amm)
		}
		return r.newCall(f, s.seat, c.ev, fmt.Sprintf("the striker hit %s lying %s %s at %s", c.b, where, marking, fmtMM(p)), ev, &m, false)
	}
	return Call{}, false
}

// direct returns the striker's direct hit: its first contact, when that is
// a piece (not a cushion), and whether another contact of the striker came
// too close in time to be sure it was first.
func (r *Referee) direct(s *stroke) (contact, bool, bool) {
	cs := s.strikerContacts()
	if len(cs) == 0 || cs[0].b == events.Frame {
		return contact{}, false, false
	}
	uncertain := len(cs) > 1 && r.cfg.TimeTolerance > 0 && cs[1].ev.T-cs[0].ev.T < r.cfg.TimeTolerance
	return cs[0], true, uncertain
}

// colours returns the striker's colour and the opponents'.
func colours(st rules.State, seat board.Side) (own, opp board.Kind, ok bool) {
	t := st.TeamOf(seat)
	if t < 0 {
		return 0, 0, false
	}
	return st.Teams[t].Colour, st.Teams[1-t].Colour, true
}

// handsInStroke: a piece moved by hand during the stroke (touched_piece,
// ICF General Rules 34, team-3board Additional Rules 1, 2) or the striker
// stopped by hand (stopped_striker, team-3board Additional Rules 4).
func (r *Referee) handsInStroke(s *stroke) []Call {
	var out []Call
	for _, m := range s.moved {
		seat := s.seat
		if m.Side != nil {
			seat = *m.Side
		}
		f := rules.FoulTouchedPiece
		reason := fmt.Sprintf("a hand moved %s during the stroke", pieceName(m))
		if m.ID == "S" || *m.Piece == board.Striker {
			f = rules.FoulStoppedStriker
			reason = "the striker was stopped by hand during the stroke"
		}
		ev := Evidence{Piece: m.ID, PieceMM: mmPtr(m.MM.Vec()), Frames: []int{m.Frame}}
		if c, ok := r.newCall(f, seat, m, reason, ev, nil, false); ok {
			out = append(out, c)
		}
	}
	return out
}

// derived reports, as evidence, the fouls the rules engine derives from
// the outcome (striker pocketed, an opponent's man pocketed, striker or
// pieces overboard) when the profile counts them as fouls.
func (r *Referee) derived(s *stroke, o *Outcome) []Call {
	var out []Call
	add := func(f rules.Foul, p PieceEvent, reason string, ev Evidence) {
		if c, ok := r.newCall(f, s.seat, events.Event{Frame: p.Frame, T: p.T}, reason, ev, nil, false); ok {
			out = append(out, c)
		}
	}
	for _, p := range o.Pocketed {
		if p.Piece == board.Striker {
			add(rules.FoulStrikerPocketed, p, fmt.Sprintf("the striker fell into %s", p.Pocket), Evidence{Piece: "S", Frames: []int{p.Frame}})
		}
	}
	if _, opp, ok := colours(s.ctx, s.seat); ok {
		for _, p := range o.Pocketed {
			if p.Piece == opp {
				add(rules.FoulOpponentPocketed, p, fmt.Sprintf("%s, an opponents' man, fell into %s", idOr(p.ID, p.Piece), p.Pocket),
					Evidence{Piece: p.ID, Frames: []int{p.Frame}})
				break // one call; the counts are in the outcome
			}
		}
	}
	var men []PieceEvent
	for _, p := range o.Jumped {
		if p.Piece == board.Striker {
			add(rules.FoulStrikerOverboard, p, "the striker left the board", Evidence{Piece: "S", PieceMM: p.MM, Frames: []int{p.Frame}})
		} else {
			men = append(men, p)
		}
	}
	if len(men) > 0 {
		// One call covers every piece; the counts are in the outcome.
		var names []string
		ev := Evidence{Piece: men[0].ID, PieceMM: men[0].MM}
		for _, p := range men {
			names = append(names, idOr(p.ID, p.Piece))
			ev.Frames = append(ev.Frames, p.Frame)
		}
		add(rules.FoulPieceOverboard, men[0], strings.Join(names, ", ")+" left the board", ev)
	}
	return out
}

func idOr(id string, k board.Kind) string {
	if id != "" {
		return id
	}
	return k.String()
}

// pocketToward is the pocket in the direction d from the centre.
func pocketToward(d board.Vec) board.Pocket {
	switch {
	case d.X < 0 && d.Y > 0:
		return board.SW
	case d.X > 0 && d.Y > 0:
		return board.SE
	case d.X > 0:
		return board.NE
	}
	return board.NW
}
