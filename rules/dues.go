package rules

import (
	"errors"
	"fmt"

	"github.com/boardcam/boardcam/board"
)

// Dues, penalties and placements.
//
// A due or penalty (and a pocketed man that must come up again) is first
// owed by the side: colourMen.Owed. It is taken out for placing — moved from
// the pockets to Awaiting — as soon as one of the side's men is in the
// pockets (ICF Dues and Penalties 3, 10) or, under EndOfTurn profiles, at
// the end of the turn. Men awaiting placement are put back on the board by
// an explicit "place" line or, when the log omits it, automatically just
// before the next stroke; "forfeit" leaves them in the pockets and "defer"
// keeps them waiting for a later "place".

// placerFor returns the seat that places men of colour k taken out now
// (ICF Dues and Penalties 11, 12): the next player when the side having the
// turn owes them, otherwise the player having the turn.
func (m *Match) placerFor(c *core, k board.Kind) board.Side {
	owner := c.teamOfColour(k)
	if owner == m.teamOf[c.Turn] || c.Men[k].OwnerPlaces {
		return m.next(c.Turn)
	}
	return c.Turn
}

// takeOutColour takes out the owed men of colour k that are available.
func (m *Match) takeOutColour(c *core, k board.Kind) {
	cm := &c.Men[k]
	n := min(cm.Owed, cm.InPocket)
	if n == 0 {
		return
	}
	cm.Placer = m.placerFor(c, k)
	cm.Owed -= n
	cm.InPocket -= n
	cm.Awaiting += n
	if cm.Owed == 0 {
		cm.OwnerPlaces = false
	}
}

// takeOut takes out every owed man that is available.
func (m *Match) takeOut(c *core) {
	m.takeOutColour(c, board.White)
	m.takeOutColour(c, board.Black)
}

// autoPlace puts back what awaits placement before a stroke: the men (unless
// deferred) and the queen (unless held until the end of the turn).
func (m *Match) autoPlace(c *core) {
	for k := range c.Men {
		cm := &c.Men[k]
		if cm.Awaiting > 0 && !cm.Deferred {
			cm.OnBoard += cm.Awaiting
			cm.Awaiting = 0
		}
	}
	if c.Queen.Status == QueenAwaitingPlacement && !c.Queen.Held {
		c.Queen = queenCore{Status: QueenOnBoard, Team: -1}
	}
}

// endTurn ends the turn of the player at c.Turn.
func (m *Match) endTurn(c *core) {
	if c.Queen.Status == QueenAwaitingCover {
		// The cover must come in the same turn (ICF Covering the Queen 8).
		c.Queen = queenCore{Status: QueenAwaitingPlacement, Team: c.Queen.Team, Uncovered: true}
	}
	if m.prof.DueTiming == EndOfTurn {
		m.takeOut(c)
	}
	c.Queen.Held = false
	c.Turn = m.next(c.Turn)
	c.Attempts = 0
	c.PlayingOn = false
}

// checkCleared ends the board when a side has no man left on the board and
// none to come back: the plain finish (ICF Game 2, 3).
func (m *Match) checkCleared(c *core, first int) {
	for _, t := range []int{first, 1 - first} {
		cm := c.Men[c.Colour[t]]
		if cm.OnBoard == 0 && cm.Awaiting == 0 && cm.Owed == 0 {
			m.finishCleared(c, t)
			return
		}
	}
}

// place applies an explicit placement.
func (m *Match) place(c *core, pl Place) error {
	if pl.White < 0 || pl.Black < 0 {
		return errors.New("negative count")
	}
	if pl.Unnoticed {
		return m.placeWrongMen(c, pl)
	}
	if pl.White+pl.Black == 0 && !pl.Queen {
		return errors.New("nothing to place")
	}
	if err := m.checkFouls(pl.Fouls); err != nil {
		return err
	}
	for _, k := range []board.Kind{board.White, board.Black} {
		n := pl.White
		if k == board.Black {
			n = pl.Black
		}
		if n == 0 {
			continue
		}
		cm := c.Men[k]
		if n > cm.Awaiting {
			if cm.Awaiting == 0 && cm.Owed > 0 && cm.InPocket > 0 {
				return fmt.Errorf("the %s due men are taken out only at the end of the turn (%s)", k, m.prof.Ref("dues"))
			}
			return fmt.Errorf("%d %s men to place, but %d await placement", n, k, cm.Awaiting)
		}
	}
	if pl.Queen {
		switch {
		case c.Queen.Status != QueenAwaitingPlacement:
			return fmt.Errorf("the queen does not await placement (%s)", queenWords(c.Queen, m))
		case c.Queen.Held:
			return fmt.Errorf("the queen is returned only at the end of the turn (%s)", m.prof.Ref("queen"))
		}
	}
	var placer board.Side
	placers := 0
	if pl.White > 0 {
		placer = c.Men[board.White].Placer
		placers++
	}
	if pl.Black > 0 && (placers == 0 || c.Men[board.Black].Placer != placer) {
		placer = c.Men[board.Black].Placer
		placers++
	}
	if len(pl.Fouls) > 0 {
		switch {
		case placers == 0:
			return errors.New("a foul in placing the queen: write a foul line against the player instead")
		case placers > 1:
			return errors.New("the men are placed by different players: write one placement line per colour")
		}
	}
	for _, k := range []board.Kind{board.White, board.Black} {
		n := pl.White
		if k == board.Black {
			n = pl.Black
		}
		cm := &c.Men[k]
		cm.Awaiting -= n
		cm.OnBoard += n
		if cm.Awaiting == 0 {
			cm.Deferred = false
		}
	}
	if pl.Queen {
		c.Queen = queenCore{Status: QueenOnBoard, Team: -1}
	}
	if len(pl.Fouls) > 0 {
		// The placing stands; the placer pays the penalty but keeps his
		// turn, if it is his: the foul is not in a stroke.
		m.penalise(c, placer, pl.Fouls, false)
	}
	return nil
}

// forfeit leaves the men awaiting placement in the pockets.
func (m *Match) forfeit(c *core) error {
	if c.Men[board.White].Awaiting+c.Men[board.Black].Awaiting == 0 {
		return errors.New("no men await placement")
	}
	for k := range c.Men {
		cm := &c.Men[k]
		cm.InPocket += cm.Awaiting
		cm.Awaiting = 0
		cm.Deferred = false
	}
	m.checkCleared(c, m.teamOf[c.Turn])
	return nil
}

// deferPlacement keeps the men awaiting placement off the board until a
// "place" line.
func (m *Match) deferPlacement(c *core) error {
	any := false
	for k := range c.Men {
		if c.Men[k].Awaiting > 0 {
			c.Men[k].Deferred = true
			any = true
		}
	}
	if !any {
		return errors.New("no men await placement")
	}
	return nil
}

// penalise charges fouls to the player at seat (a foul line, or a foul in
// placing): a board loss, or penalty men; with endsTurn, a player
// penalised during his turn loses it.
func (m *Match) penalise(c *core, seat board.Side, fouls []Foul, endsTurn bool) {
	t := m.teamOf[seat]
	c.Fouls = append(c.Fouls, foulStrings(fouls, nil)...)
	for _, f := range fouls {
		if r, _ := m.prof.Foul(f); r.Effect == EffectBoard {
			m.loseBoard(c, t, fmt.Sprintf("%s %s (%s)", m.seatName(seat), f.Summary(), f), shortRef(m.prof, r.Ref))
			return
		}
	}
	n := 1
	if m.prof.Penalty == PenaltyFines {
		n = len(fouls)
	}
	c.Men[c.Colour[t]].Owed += n
	if m.prof.DueTiming == AfterStroke {
		m.takeOut(c)
	}
	if endsTurn && seat == c.Turn {
		m.endTurn(c)
	}
}

// placeWrongMen applies a placement of the placer's own men instead of the
// men awaiting placement, unnoticed before the next stroke (ICF Dues and
// Penalties 18: "the C/m so placed shall be regarded as valid"): the men
// placed come out of the pockets onto the board, and as many of the men
// awaiting placement stay in the pockets, their placement done.
func (m *Match) placeWrongMen(c *core, pl Place) error {
	if pl.Queen || len(pl.Fouls) > 0 || (pl.White > 0) == (pl.Black > 0) {
		return errors.New("place … unnoticed: write the wrong men alone, of one colour (place b unnoticed)")
	}
	k, n := board.White, pl.White
	if pl.Black > 0 {
		k, n = board.Black, pl.Black
	}
	o := board.Black
	if k == board.Black {
		o = board.White
	}
	due, own := &c.Men[o], &c.Men[k]
	switch {
	case due.Awaiting < n:
		return fmt.Errorf("%d %s men placed instead of %s men awaiting placement, but %d await", n, k, o, due.Awaiting)
	case c.teamOfColour(k) != m.teamOf[due.Placer]:
		return fmt.Errorf("the %s men awaiting placement are placed by %s, whose men are not %s: not a wrong man (ICF Dues and Penalties 17, 18)", o, m.seatName(due.Placer), k)
	case own.InPocket < n:
		return fmt.Errorf("%d %s men placed, but %d are in the pockets", n, k, own.InPocket)
	}
	own.InPocket -= n
	own.OnBoard += n
	due.Awaiting -= n
	due.InPocket += n
	if due.Awaiting == 0 {
		due.Deferred = false
	}
	m.checkCleared(c, m.teamOf[c.Turn])
	return nil
}
