package rules

import (
	"fmt"
	"strings"
)

// award computes what a board is worth to winner: Award below the queen
// cut-off, AtCutoff from then on (the winner's match score decides).
func (m *Match) award(c *core, a, atCutoff Award, winner int) int {
	if c.Scores[winner] >= m.prof.QueenCutoff {
		a = atCutoff
	}
	loser := c.Men[c.Colour[1-winner]]
	pts := a.Points
	if a.Men {
		pts += loser.OnBoard + loser.Awaiting
	}
	if a.Queen {
		pts += m.prof.QueenValue
	}
	if a.QueenIfWinnerCovered && c.Queen.Status == QueenCovered && c.Queen.Team == winner {
		pts += m.prof.QueenValue
	}
	return pts
}

// finishByRule ends the board by one of the profile's special endings.
func (m *Match) finishByRule(c *core, r FinishRule, striker int, s Stroke, improper bool) {
	winner := striker
	if !r.StrikerWins {
		winner = 1 - striker
	}
	pts := m.award(c, r.Award, r.AtCutoff, winner)
	var what string
	switch {
	case r.OwnLast && r.OppLast:
		what = "the last men of both sides"
	case r.OwnLast:
		what = "their last man"
	default:
		what = "the opponents' last man"
	}
	var with []string
	if s.Queen {
		with = append(with, "the queen")
	}
	if s.Striker {
		with = append(with, "the striker")
	}
	if len(with) > 0 {
		what += " with " + strings.Join(with, " and ")
	}
	if improper {
		what += " by an improper stroke"
	}
	var q string
	switch situation(c.Queen, s.Queen, striker) {
	case QOnBoard:
		q = "the queen on the board"
	case QPocketed:
		q = "the queen pocketed in the same stroke"
	case QCovering:
		q = "while covering the queen"
	default:
		q = "the queen covered by " + m.teamName(c.Queen.Team)
	}
	reason := fmt.Sprintf("%s pocketed %s, %s", m.teamName(striker), what, q)
	m.endBoard(c, winner, pts, r.Demand, reason, r.Ref)
}

// finishCleared ends the board because team t has no man left to play.
func (m *Match) finishCleared(c *core, t int) {
	if c.Queen.Status == QueenCovered {
		pts := m.award(c, awardMenQWin, awardMen, t)
		reason := fmt.Sprintf("%s cleared their %s men, the queen covered by %s", m.teamName(t), c.Colour[t], m.teamName(c.Queen.Team))
		m.endBoard(c, t, pts, 0, reason, m.prof.PlainFinish)
		return
	}
	// Only a forfeited placement can clear a side before the queen is
	// covered: like pocketing one's last man with the queen on the board.
	pts := m.award(c, awardQueen, awardOne, 1-t)
	reason := fmt.Sprintf("%s have no men left and the queen is not covered", m.teamName(t))
	m.endBoard(c, 1-t, pts, 0, reason, m.prof.Ref("clear.uncovered"))
}

// loseBoard ends the board against team loser (conduct, concession): the
// winner scores the loser's men and, when the queen is lying on the board,
// its value (ICF Dues and Penalties 31; General Rules 8, 24).
func (m *Match) loseBoard(c *core, loser int, reason, rule string) {
	winner := 1 - loser
	a := awardMen
	if c.Queen.Status == QueenOnBoard || c.Queen.Status == QueenAwaitingPlacement {
		a = awardMenQ
	}
	pts := m.award(c, a, awardMen, winner)
	m.endBoard(c, winner, pts, 0, reason, rule)
}

// endBoard records the result of the board and sets up the next one unless
// the match is over.
func (m *Match) endBoard(c *core, winner, pts, demand int, reason, rule string) {
	res := BoardResult{Board: c.Board, Winner: winner, Points: pts, Reason: reason, Rule: rule}
	if demand > 0 && m.prof.Demands {
		res.Demandable = demand
		c.Demand = &Demand{Board: c.Board, Team: winner, Points: demand, Rule: rule}
	}
	c.Scores[winner] += pts
	c.BoardsWon[winner]++
	c.Decided++
	c.Results = append(c.Results, res)
	m.evaluate(c)
	if !c.Over {
		m.newBoard(c, m.next(c.Breaker))
	}
}

// replayBoard cancels the board; the same player breaks it again.
func (m *Match) replayBoard(c *core, why ReplayReason) {
	key := "replay"
	if why == ReplayNoSpace || why == ReplayPasses {
		key += "." + string(why)
	}
	reason := "replayed"
	switch why {
	case ReplayPasses:
		reason = "replayed: every player passed three times in a row"
	case ReplayNoSpace:
		reason = "replayed: no room to place the striker"
	case ReplayUnforeseen:
		reason = "replayed: unforeseen circumstances"
	}
	c.Results = append(c.Results, BoardResult{Board: c.Board, Winner: -1, Reason: reason, Rule: m.prof.Ref(key)})
	m.newBoard(c, c.Breaker)
}

// evaluate decides whether the match is over.
func (m *Match) evaluate(c *core) {
	if c.Forced {
		return
	}
	f := m.format
	c.Over, c.Winner = false, -1
	leader := func() int {
		switch {
		case c.Scores[0] != c.Scores[1]:
			if c.Scores[0] > c.Scores[1] {
				return 0
			}
			return 1
		case c.BoardsWon[0] != c.BoardsWon[1]:
			if c.BoardsWon[0] > c.BoardsWon[1] {
				return 0
			}
			return 1
		}
		return -1 // level: the next board decides
	}
	w := -1
	switch f.Kind {
	case PointsTarget, BoardsOrTarget:
		for t := 0; t < 2; t++ {
			if c.Scores[t] >= f.Target {
				w = t
			}
		}
		if w < 0 && f.Kind == BoardsOrTarget && c.Decided >= f.Boards {
			w = leader()
		}
	case BestOf:
		need := f.Boards/2 + 1
		for t := 0; t < 2; t++ {
			if c.BoardsWon[t] >= need {
				w = t
			}
		}
	case FixedBoards:
		if c.Decided >= f.Boards || c.TimeCalled {
			w = leader()
		}
	}
	if w >= 0 {
		c.Over, c.Winner = true, w
	}
}

// demand adds demanded points to the last board's winner.
func (m *Match) demand(c *core, d DemandPoints) error {
	if c.Demand == nil {
		return fmt.Errorf("no points can be demanded now (only right after a board ended by a rule that gives %q points)", "if demanded")
	}
	n := d.Points
	if n == 0 {
		n = c.Demand.Points
	}
	if n < 0 || n > c.Demand.Points {
		return fmt.Errorf("%d points demanded, at most %d can be (%s)", n, c.Demand.Points, c.Demand.Rule)
	}
	t, b := c.Demand.Team, c.Demand.Board
	c.Demand = nil
	c.Scores[t] += n
	for i := range c.Results {
		if c.Results[i].Board == b && c.Results[i].Winner == t {
			c.Results[i].Demanded += n
		}
	}
	if c.Forced {
		return nil
	}
	wasOver := c.Over
	m.evaluate(c)
	switch {
	case !wasOver && c.Over && c.Board > b:
		// The next board was set up but will not be played.
		c.Board = b
	case wasOver && !c.Over:
		// Level again: the next board decides.
		m.newBoard(c, m.next(c.Breaker))
	}
	return nil
}

// shortRef turns a foul's reference ("icf-laws-of-carrom.md: General Rules
// 24 (fallback: x.md is silent)") into a result's rule ("icf: General Rules
// 24 (fallback)").
func shortRef(p *Profile, ref string) string {
	for _, q := range registry {
		if strings.HasPrefix(ref, q.Document+": ") {
			ref = q.Name + ": " + strings.TrimPrefix(ref, q.Document+": ")
			break
		}
	}
	if i := strings.Index(ref, " (fallback:"); i >= 0 {
		ref = ref[:i] + " (fallback)"
	}
	return ref
}
