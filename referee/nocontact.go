package referee

import (
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/rules"
)

// No contact at all (team-3board General Rules 7, foul no_contact).
func init() {
	addCheck(foul.NoContact, atContact, func(r *Referee, s *stroke, o *Outcome, end events.Event) []Call {
		return one(r.noContact(s, o))
	})
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
