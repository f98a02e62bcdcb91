package rules

import (
	"errors"
	"fmt"

	"github.com/boardcam/boardcam/board"
)

// Umpire decisions other than placements.

func (m *Match) checkSeat(seat board.Side) error {
	if seat < board.S || seat > board.W || m.teamOf[seat] < 0 {
		return fmt.Errorf("no player sits at %s", seat)
	}
	return nil
}

// foulCall applies a foul declared by the umpire against a player.
func (m *Match) foulCall(c *core, f FoulCall) error {
	if err := m.checkSeat(f.Seat); err != nil {
		return err
	}
	if len(f.Fouls) == 0 {
		return errors.New("a foul line needs at least one foul code")
	}
	if err := m.checkFouls(f.Fouls); err != nil {
		return err
	}
	m.penalise(c, f.Seat, f.Fouls, true)
	return nil
}

// concede: the player concedes the board or the match (ICF General Rules
// 40).
func (m *Match) concede(c *core, cd Concede) error {
	if err := m.checkSeat(cd.Seat); err != nil {
		return err
	}
	t := m.teamOf[cd.Seat]
	if cd.Match {
		m.endMatch(c, MatchEnd{Seat: cd.Seat})
		return nil
	}
	m.loseBoard(c, t, fmt.Sprintf("%s conceded the board", m.seatName(cd.Seat)), m.prof.Ref("concede"))
	return nil
}

// endMatch ends the match by a concession or a disqualification: the side
// of the seat loses it.
func (m *Match) endMatch(c *core, e MatchEnd) {
	c.Over, c.Forced, c.Winner, c.End = true, true, 1-m.teamOf[e.Seat], e
	if e.Reason == "" {
		c.Result = fmt.Sprintf("%s conceded the match (%s)", m.seatName(e.Seat), m.prof.Ref("concede"))
		return
	}
	c.Result = fmt.Sprintf("%s loses the entire match: %s (%s %d)", m.seatName(e.Seat), e.Reason, m.prof.Ref("disqualify"), e.Reason.Rule())
}

// disqualify: the player loses the entire match (ICF Loss of Entire Match
// 1-9).
func (m *Match) disqualify(c *core, d Disqualify) error {
	if err := m.checkSeat(d.Seat); err != nil {
		return err
	}
	if d.Reason.Rule() == 0 {
		return fmt.Errorf("unknown reason %q for losing the match", d.Reason)
	}
	m.endMatch(c, MatchEnd{Seat: d.Seat, Reason: d.Reason})
	return nil
}

// replay cancels the board.
func (m *Match) replay(c *core, r Replay) error {
	switch r.Reason {
	case "", ReplayUnforeseen, ReplayNoSpace, ReplayPasses:
	default:
		return fmt.Errorf("unknown replay reason %q", r.Reason)
	}
	m.replayBoard(c, r.Reason)
	return nil
}

// callTime: the match's time is up.
func (m *Match) callTime(c *core) error {
	if m.format.TimeLimit == 0 {
		return fmt.Errorf("the %s format has no time limit", m.format.Name)
	}
	if c.TimeCalled {
		return errors.New("time was already called")
	}
	c.TimeCalled = true
	m.evaluate(c)
	return nil
}

// coverQueen records an uncovered queen as covered (ICF Covering the
// Queen 8: the failure to cover went unnoticed before the next stroke).
func (m *Match) coverQueen(c *core) error {
	q := c.Queen
	if q.Status != QueenAwaitingPlacement || !q.Uncovered || q.Held {
		return fmt.Errorf("cover: the queen is not a queen left uncovered and awaiting placement (%s)", queenWords(q, m))
	}
	c.Queen = queenCore{Status: QueenCovered, Team: q.Team}
	return nil
}

// noticed ends the turn of a player playing on after an unnoticed
// opponent's man (ICF General Rules 22: "the turn of the player shall be
// lost as and when noticed").
func (m *Match) noticed(c *core) error {
	if !c.PlayingOn {
		return errors.New("noticed: nobody is playing on after an unnoticed opponent's man (write \"unnoticed\" on the stroke that pocketed it; ICF General Rules 22)")
	}
	m.endTurn(c)
	return nil
}
