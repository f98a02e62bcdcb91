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
		c.Over, c.Forced, c.Winner = true, true, 1-t
		c.Result = fmt.Sprintf("%s conceded the match (%s)", m.seatName(cd.Seat), m.prof.Ref("concede"))
		return nil
	}
	m.loseBoard(c, t, fmt.Sprintf("%s conceded the board", m.seatName(cd.Seat)), m.prof.Ref("concede"))
	return nil
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
	t := m.teamOf[d.Seat]
	c.Over, c.Forced, c.Winner = true, true, 1-t
	c.Result = fmt.Sprintf("%s loses the entire match: %s (%s %d)", m.seatName(d.Seat), d.Reason, m.prof.Ref("disqualify"), d.Reason.Rule())
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
