package referee

import (
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
)

// A foul described (package foul) with a check of its own is judged by a
// function in a file of its own, which registers it with addCheck from its
// init: adding such a foul edits no list of the referee's. The checks run
// in the order of their codes, after the striker's placement, flick, arm
// and contact checks and before the hands' and the outcome's; a check runs
// only under a profile that recognises its foul.
type check func(r *Referee, s *stroke, o *Outcome, end events.Event) []Call

var checks = map[foul.Code]check{}

// addCheck registers the check of a described foul.
func addCheck(code foul.Code, c check) {
	if !code.Known() {
		panic("referee: check for undescribed foul " + string(code))
	}
	if _, dup := checks[code]; dup {
		panic("referee: two checks for " + string(code))
	}
	checks[code] = c
}

// described runs the checks registered with addCheck.
func (r *Referee) described(s *stroke, o *Outcome, end events.Event) []Call {
	var calls []Call
	for _, d := range foul.All() {
		c, ok := checks[d.Code]
		if !ok || !r.p.Recognises(d.Code) {
			continue
		}
		calls = append(calls, c(r, s, o, end)...)
	}
	return calls
}
