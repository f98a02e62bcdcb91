package referee

import (
	"sort"

	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
)

// A foul described (package foul) with a check of its own is judged by a
// function in a file of its own, which registers it with addCheck from its
// init: adding such a foul edits no list of the referee's. judge runs the
// checks after the striker's placement and before the hands' and the
// outcome's (which call several fouls each), stage by stage in the order
// of a stroke's facts and, within a stage, in the order of their codes; a
// check runs only under a profile that recognises its foul.
type check func(r *Referee, s *stroke, o *Outcome, end events.Event) []Call

// stage is the fact of a stroke a check judges; the stages run in this
// order.
type stage int

const (
	// atFlight: how the striker left its place (the front line).
	atFlight stage = iota
	// atArm: the hand and arm at the flick.
	atArm
	// atContact: whether the striker touched anything.
	atContact
	// atMarking: the marking a man the striker hit lay on.
	atMarking
	// atColour: whose men the striker hit.
	atColour
	// atEndgame: the last men on the board.
	atEndgame
)

type registered struct {
	code  foul.Code
	stage stage
	check check
}

// checks are the registered checks in the order they run.
var checks []registered

// addCheck registers the check of a described foul.
func addCheck(code foul.Code, st stage, c check) {
	if !code.Known() {
		panic("referee: check for undescribed foul " + string(code))
	}
	for _, x := range checks {
		if x.code == code {
			panic("referee: two checks for " + string(code))
		}
	}
	checks = append(checks, registered{code, st, c})
	sort.SliceStable(checks, func(i, j int) bool {
		if checks[i].stage != checks[j].stage {
			return checks[i].stage < checks[j].stage
		}
		return checks[i].code < checks[j].code
	})
}

// described runs the checks registered with addCheck.
func (r *Referee) described(s *stroke, o *Outcome, end events.Event) []Call {
	var calls []Call
	for _, x := range checks {
		if r.p.Recognises(x.code) {
			calls = append(calls, x.check(r, s, o, end)...)
		}
	}
	return calls
}

// one is a check's single call, if any.
func one(c Call, ok bool) []Call {
	if !ok {
		return nil
	}
	return []Call{c}
}
