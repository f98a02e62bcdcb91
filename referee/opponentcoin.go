package referee

import (
	"fmt"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/rules"
)

// Only an opponent's coin hit (team-3board Additional Rules 5, foul
// opponent_coin_only).
func init() {
	addCheck(foul.OpponentCoinOnly, atColour, func(r *Referee, s *stroke, o *Outcome, end events.Event) []Call {
		return one(r.opponentCoinOnly(s))
	})
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
