package referee

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/rules"
)

// The hand or arm over the foul lines (ICF Striking 5, 6, foul
// hand_over_foul_line).
func init() {
	addCheck(foul.HandOverFoulLine, atArm, func(r *Referee, s *stroke, o *Outcome, end events.Event) []Call {
		return r.armFouls(s)
	})
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
		uncertain := false
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
			if beyond < a.SigmaMM {
				// The camera's hand mask may reach further than the
				// hand (SigmaMM): a hand up to the line, not over it,
				// reads the same. Held for the umpire.
				uncertain = true
				reason += fmt.Sprintf(" — within the %.1f mm the camera's hand mask may reach beyond the hand: it may only have come up to the line; offered to the umpire, not applied", a.SigmaMM)
			}
		}
		if c, ok := r.newCall(rules.FoulHandOverFoulLine, s.seat, a, reason, ev, margin, uncertain); ok {
			return []Call{c}
		}
	}
	return nil
}
