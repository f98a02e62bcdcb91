package referee

import (
	"fmt"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/rules"
)

// The last coin hit directly (team-3board Additional Rules 6, 7, foul
// last_two_direct_hit).
func init() {
	addCheck(foul.LastTwoDirectHit, atEndgame, func(r *Referee, s *stroke, o *Outcome, end events.Event) []Call {
		return r.lastTwoDirectHit(s)
	})
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
