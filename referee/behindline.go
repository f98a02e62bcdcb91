package referee

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/rules"
)

// A piece behind the front line struck first (ICF Striking 4, foul
// behind_line_first), judged on the striker's own side only.
func init() {
	addCheck(foul.BehindLineFirst, atFlight, func(r *Referee, s *stroke, o *Outcome, end events.Event) []Call {
		if s.otherSide {
			return nil
		}
		return one(r.behindLineFirst(s))
	})
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
