package referee

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/rules"
)

// The red circle coin (team-3board General Rules 9, foul red_circle_coin):
// a man touching a base circle of the striker's side must not be hit by
// the striker.
func init() {
	addCheck(foul.RedCircleCoin, atMarking, func(r *Referee, s *stroke, _ *Outcome, _ events.Event) []Call {
		return one(r.markedCoin(s, rules.FoulRedCircleCoin, "touching the", func(p board.Vec, rad float64) (float64, string) {
			m, marking := math.Inf(-1), ""
			for i, k := range r.g.BaseCircles(s.seat) {
				if d := k.R + rad - k.C.Dist(p); d > m {
					m = d
					marking = fmt.Sprintf("base circle %s %s", s.seat, [2]string{"left", "right"}[i])
				}
			}
			return m, marking
		}))
	})
}
