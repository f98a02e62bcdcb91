package referee

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
)

// The adjacent arrow coin (team-3board General Rules 8, foul
// adjacent_arrow_coin): a man lying on an arrow toward one of the two
// pockets of the striker's side must not be hit by the striker.
func init() {
	addCheck(foul.AdjacentArrowCoin, atMarking, func(r *Referee, s *stroke, _ *Outcome, _ events.Event) []Call {
		if !r.g.Marks().HasArrows() {
			return nil
		}
		return one(r.markedCoin(s, foul.AdjacentArrowCoin, "on the", func(p board.Vec, rad float64) (float64, string) {
			m, marking := math.Inf(-1), ""
			for _, pk := range r.adjacentPockets(s.seat) {
				if d := rad + r.g.Marks().ArrowWidth(pk)/2 - r.g.Arrow(pk).DistTo(p); d > m {
					m, marking = d, "arrow "+pk.String()
				}
			}
			return m, marking
		}))
	})
}
