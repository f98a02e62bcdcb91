package referee

import (
	"fmt"
	"math"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/rules"
)

// judge calls the fouls of a finished stroke.
func (r *Referee) judge(s *stroke, o *Outcome, end events.Event) []Call {
	var calls []Call
	add := func(c Call, ok bool) {
		if ok {
			calls = append(calls, c)
		}
	}
	if s.noStart {
		// Nothing is known of the strike: no check on its place or its
		// contacts (the outcome's derived fouls still follow).
		return append(calls, r.derived(s, o)...)
	}
	pcalls, otherSide := r.placement(s)
	calls = append(calls, pcalls...)
	if otherSide {
		s.notes = append(s.notes, "struck from another side: the front line of the striker's own side is not judged")
	} else {
		add(r.backwardFlick(s, end))
		add(r.behindLineFirst(s))
	}
	calls = append(calls, r.armFouls(s)...)
	add(r.noContact(s, o))
	calls = append(calls, r.described(s, o, end)...)
	add(r.markedCoin(s, rules.FoulRedCircleCoin, "touching the", func(p board.Vec, rad float64) (float64, string) {
		m, marking := math.Inf(-1), ""
		for i, k := range r.g.BaseCircles(s.seat) {
			if d := k.R + rad - k.C.Dist(p); d > m {
				m = d
				marking = fmt.Sprintf("base circle %s %s", s.seat, [2]string{"left", "right"}[i])
			}
		}
		return m, marking
	}))
	add(r.opponentCoinOnly(s))
	calls = append(calls, r.lastTwoDirectHit(s)...)
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

// strikerPositions lists the striker's known positions in the stroke: at
// the strike, at each of its contacts and at rest.
func (s *stroke) strikerPositions(end events.Event) []board.Vec {
	ps := []board.Vec{s.striker}
	for _, c := range s.contacts {
		if c.striker() && c.amm != nil {
			ps = append(ps, *c.amm)
		}
	}
	for _, p := range end.Pieces {
		if p.ID == "S" || (p.ID == "" && p.Piece == board.Striker) {
			ps = append(ps, p.MM.Vec())
		}
	}
	return ps
}

// backwardFlick: the striker must cross the front base line (ICF Striking
// 3): a stroke whose striker started on or behind its front line and never
// wholly passed it was flicked backwards or sideways.
func (r *Referee) backwardFlick(s *stroke, end events.Event) (Call, bool) {
	g := r.g
	R := g.Radius(board.Striker)
	if g.CrossedFrontLine(s.seat, s.striker, R) {
		return Call{}, false // it started in front of its line: a placement matter
	}
	if s.crossed != nil {
		return Call{}, false
	}
	s.flickJudged = true
	m := math.Inf(1)
	for _, p := range s.strikerPositions(end) {
		// Distance still to go before the whole disc is past the line.
		d := localY(s.seat, p) + R - g.Marks().FrontInner(s.seat)
		if d < 0 {
			return Call{}, false // seen past the line: the crossing event was missed
		}
		m = math.Min(m, d)
	}
	ev := Evidence{Striker: mmPtr(s.striker), Marking: "front line " + s.seat.String(), Frames: []int{s.start.Frame, end.Frame}}
	// A forward flick stopped by a piece before the striker was wholly
	// across is not a backward or sideways flick.
	if cs := s.strikerContacts(); len(cs) > 0 && cs[0].b != events.Frame && cs[0].amm != nil {
		fwd := localY(s.seat, s.striker) - localY(s.seat, *cs[0].amm)
		if fwd > 0 {
			note := fmt.Sprintf("the striker did not cross %s's front line: flicked forward %.1f mm into %s, which stopped it (no backward flick)", s.seat, fwd, cs[0].b)
			if fwd < r.tol {
				note += fmt.Sprintf("; within the %.1f mm tolerance of a sideways flick", r.tol)
			}
			s.notes = append(s.notes, note)
			return Call{}, false
		}
		m = math.Min(m, -fwd) // how far backward it went to its first contact
		ev.Piece, ev.Contacts, ev.StrikerAtContact = cs[0].b, []string{cs[0].b}, mmPtr(*cs[0].amm)
		ev.Frames = append(ev.Frames, cs[0].ev.Frame)
	}
	return r.newCall(rules.FoulBackwardFlick, s.seat, s.start,
		fmt.Sprintf("the striker never crossed %s's front base line (it came no closer than %.1f mm to crossing it)", s.seat, m), ev, &m, false)
}

// behindLineMargin is how far inside the region "on or behind side s's
// front line, in s's quarter" a disc lies (negative outside).
func (r *Referee) behindLineMargin(s board.Side, c board.Vec, rad float64) float64 {
	l := board.ToLocal(s, c)
	return math.Min(l.Y+rad-r.g.Marks().FrontInner(s), (l.Y+rad-math.Abs(l.X))/math.Sqrt2)
}

// behindLineFirst: a piece on or behind the front line must not be struck
// before the striker has crossed the front line (ICF Striking 4).
func (r *Referee) behindLineFirst(s *stroke) (Call, bool) {
	g := r.g
	R := g.Radius(board.Striker)
	if g.CrossedFrontLine(s.seat, s.striker, R) {
		return Call{}, false
	}
	var seen []string
	for _, c := range s.contacts {
		if !c.striker() {
			continue
		}
		seen = append(seen, c.b)
		if c.afterCrossed {
			return Call{}, false
		}
		if c.amm != nil && g.CrossedFrontLine(s.seat, *c.amm, R) {
			return Call{}, false // geometrically across already
		}
		if c.b == events.Frame {
			continue
		}
		k, err := board.KindOfID(c.b)
		if err != nil {
			continue
		}
		p, ok := r.piecePos(s, c)
		if !ok {
			continue
		}
		rad := g.Radius(k)
		pm := r.behindLineMargin(s.seat, p, rad)
		if pm < 0 {
			if -pm < r.tol {
				s.notes = append(s.notes, fmt.Sprintf("%s, struck before the striker crossed, lay %.2f mm clear of %s's front line: no foul, within the tolerance", c.b, -pm, s.seat))
			}
			continue
		}
		m := pm
		ev := Evidence{Striker: mmPtr(s.striker), Piece: c.b, PieceMM: mmPtr(p), Marking: "front line " + s.seat.String(),
			Contacts: seen, Frames: []int{s.start.Frame, c.ev.Frame}}
		if c.amm != nil {
			ev.StrikerAtContact = mmPtr(*c.amm)
			m = math.Min(m, localY(s.seat, *c.amm)+R-g.Marks().FrontInner(s.seat))
		}
		return r.newCall(rules.FoulBehindLineFirst, s.seat, c.ev,
			fmt.Sprintf("the striker hit %s, lying on or behind %s's front line at %s, before crossing that line", c.b, s.seat, fmtMM(p)), ev, &m, false)
	}
	return Call{}, false
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

// armFouls: the hand or arm over the diagonal foul lines in striking (ICF
// Striking 5, 6; Sitting Position 7).
func (r *Referee) armFouls(s *stroke) []Call {
	g := r.g
	handOK := r.cfg.handOverImaginaryLine()
	for _, a := range s.arms {
		if *a.Side != s.seat {
			s.notes = append(s.notes, fmt.Sprintf("arm_over_foul_line for %s during %s's stroke (frame %d): ignored", *a.Side, s.seat, a.Frame))
			continue
		}
		ev := Evidence{Marking: "foul line", Frames: []int{a.Frame}}
		part := "hand or arm"
		if a.Part != "" {
			part = a.Part
		}
		var margin *float64
		reason := fmt.Sprintf("the %s of %s crossed the diagonal foul line while striking", part, s.seat)
		if a.MM != nil {
			p := a.MM.Vec()
			l := board.ToLocal(s.seat, p)
			beyond := (math.Abs(l.X) - l.Y) / math.Sqrt2
			margin = &beyond
			ev.PieceMM = mmPtr(p)
			// Over the drawn arrow, or over its imaginary extension?
			sign := math.Copysign(1, l.X)
			t := (sign*l.X + l.Y) / math.Sqrt2
			am := g.Marks().Arrows[pocketToward(board.FromLocal(s.seat, board.V(sign, 1)))]
			onArrow := am != (board.ArrowMarking{}) && t >= am.From && t <= am.To
			if onArrow {
				ev.Marking = "arrow"
			} else {
				ev.Marking = "imaginary line"
			}
			if a.Part == events.PartHand && !onArrow && handOK {
				s.notes = append(s.notes, fmt.Sprintf("the hand of %s went %.1f mm beyond the imaginary line, which the hand may (frame %d)", s.seat, beyond, a.Frame))
				continue
			}
			reason = fmt.Sprintf("the %s of %s went %.1f mm beyond the %s while striking", part, s.seat, beyond, ev.Marking)
		}
		if c, ok := r.newCall(rules.FoulHandOverFoulLine, s.seat, a, reason, ev, margin, false); ok {
			return []Call{c}
		}
	}
	return nil
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

// noContact: the striker must touch a piece or a cushion (team-3board
// General Rules 7). A failed break attempt is not this foul.
func (r *Referee) noContact(s *stroke, o *Outcome) (Call, bool) {
	if o.NoBreak || len(s.strikerContacts()) > 0 {
		return Call{}, false
	}
	ev := Evidence{Striker: mmPtr(s.striker), Frames: []int{s.start.Frame}}
	return r.newCall(rules.FoulNoContact, s.seat, s.start, "the striker touched no piece and no cushion", ev, nil, false)
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

// opponentCoinOnly: the striker hit only an opponent's man directly,
// disturbing neither the player's men nor the queen (team-3board
// Additional Rules 5).
func (r *Referee) opponentCoinOnly(s *stroke) (Call, bool) {
	if !r.p.Recognises(rules.FoulOpponentCoinOnly) {
		return Call{}, false
	}
	own, opp, ok := colours(s.ctx, s.seat)
	if !ok {
		return Call{}, false
	}
	first, ok, uncertain := r.direct(s)
	if !ok {
		return Call{}, false
	}
	if k, err := board.KindOfID(first.b); err != nil || k != opp {
		return Call{}, false
	}
	disturbed := func(id string) bool {
		k, err := board.KindOfID(id)
		return err == nil && (k == own || k == board.Queen)
	}
	for _, c := range s.contacts {
		if disturbed(c.a) || disturbed(c.b) {
			return Call{}, false
		}
	}
	for _, p := range append(append([]events.Event(nil), s.pocketed...), s.jumped...) {
		if k := *p.Piece; k == own || k == board.Queen {
			return Call{}, false
		}
	}
	ev := Evidence{Striker: mmPtr(s.striker), Piece: first.b, Contacts: []string{first.b}, Frames: []int{s.start.Frame, first.ev.Frame}}
	if p, ok := r.piecePos(nil, first); ok {
		ev.PieceMM = mmPtr(p)
	}
	return r.newCall(rules.FoulOpponentCoinOnly, s.seat, first.ev,
		fmt.Sprintf("the striker hit the opponents' %s directly and touched none of %s's men nor the queen", first.b, own), ev, nil, uncertain)
}

// lastTwoDirectHit: with the queen and one man of a colour left on the
// board, that man must not be hit directly (team-3board Additional Rules
// 6 for the player's colour, 7 for the opponents').
func (r *Referee) lastTwoDirectHit(s *stroke) []Call {
	if !r.p.Recognises(rules.FoulLastTwoDirectHit) {
		return nil
	}
	st := s.ctx
	q := st.Queen
	if !(q.Status == rules.QueenOnBoard || (q.Status == rules.QueenAwaitingPlacement && !q.Held)) {
		return nil
	}
	first, ok, uncertain := r.direct(s)
	if !ok {
		return nil
	}
	k, err := board.KindOfID(first.b)
	if err != nil || (k != board.White && k != board.Black) {
		return nil
	}
	own, _, ok := colours(st, s.seat)
	if !ok {
		return nil
	}
	left := 0
	for _, t := range st.Teams {
		if t.Colour == k {
			left = t.OnBoard
			if !t.Deferred {
				left += t.AwaitingPlacement
			}
		}
	}
	if left != 1 {
		return nil
	}
	whose := "the player's own"
	if k != own {
		whose = "the opponents'"
	}
	ev := Evidence{Striker: mmPtr(s.striker), Piece: first.b, Contacts: []string{first.b}, Frames: []int{s.start.Frame, first.ev.Frame}}
	if p, ok := r.piecePos(nil, first); ok {
		ev.PieceMM = mmPtr(p)
	}
	c, ok := r.newCall(rules.FoulLastTwoDirectHit, s.seat, first.ev,
		fmt.Sprintf("with the queen and one %s man left, the striker hit that man (%s, %s) directly", k, first.b, whose), ev, nil, uncertain)
	if !ok {
		return nil
	}
	return []Call{c}
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
