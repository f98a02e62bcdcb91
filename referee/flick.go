package referee

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/rules"
)

// The backward flick (ICF Striking 3, foul backward_flick), judged on
// the striker's own side only.
func init() {
	addCheck(foul.BackwardFlick, atFlight, func(r *Referee, s *stroke, o *Outcome, end events.Event) []Call {
		if s.otherSide {
			return nil
		}
		return one(r.backwardFlick(s, end))
	})
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
