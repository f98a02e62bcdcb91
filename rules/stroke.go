package rules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boardcam/boardcam/board"
)

// checkFouls validates foul codes written in a log for this profile.
func (m *Match) checkFouls(fs []Foul) error {
	seen := map[Foul]bool{}
	for _, f := range fs {
		if !f.Known() {
			return fmt.Errorf("unknown foul %q", f)
		}
		r, ok := m.prof.Foul(f)
		if !ok {
			return fmt.Errorf("profile %s does not recognise the foul %s", m.prof.Name, f)
		}
		if r.Derived {
			return fmt.Errorf("%s is derived by the engine from the pieces pocketed or overboard; do not write it", f)
		}
		if seen[f] {
			return fmt.Errorf("foul %s written twice", f)
		}
		seen[f] = true
	}
	return nil
}

// checkStroke validates a stroke against the state (after automatic
// placements).
func (m *Match) checkStroke(c *core, s Stroke) error {
	if s.Seat < board.S || s.Seat > board.W || m.teamOf[s.Seat] < 0 {
		return fmt.Errorf("no player sits at %s", s.Seat)
	}
	if s.Seat != c.Turn {
		return fmt.Errorf("it is %s's turn to strike, not %s's (board %d)", m.seatName(c.Turn), s.Seat, c.Board)
	}
	if s.White < 0 || s.Black < 0 || s.Overboard[board.White] < 0 || s.Overboard[board.Black] < 0 {
		return errors.New("negative count")
	}
	if s.Overboard[board.Queen] < 0 || s.Overboard[board.Queen] > 1 || s.Overboard[board.Striker] < 0 || s.Overboard[board.Striker] > 1 {
		return errors.New("the queen and the striker can leave the board at most once")
	}
	if s.Striker && s.Overboard[board.Striker] > 0 {
		return errors.New("the striker cannot be both pocketed and overboard")
	}
	if s.Queen && s.Overboard[board.Queen] > 0 {
		return errors.New("the queen cannot be both pocketed and overboard")
	}
	if s.NoBreak {
		if !c.Breaking {
			return fmt.Errorf("nobreak: board %d is already broken", c.Board)
		}
		if s.White+s.Black > 0 || s.Queen || s.Overboard[board.White]+s.Overboard[board.Black]+s.Overboard[board.Queen] > 0 {
			return errors.New("nobreak: a stroke that moves men into a pocket or off the board has broken the board")
		}
	}
	if err := m.checkFouls(s.Fouls); err != nil {
		return err
	}
	for _, k := range []board.Kind{board.White, board.Black} {
		n := s.Pocketed(k) + s.Overboard[k]
		if on := c.Men[k].OnBoard; n > on {
			return fmt.Errorf("%d %s men pocketed or overboard, but only %d on the board", n, k, on)
		}
	}
	if (s.Queen || s.Overboard[board.Queen] > 0) && c.Queen.Status != QueenOnBoard {
		return fmt.Errorf("the queen is not on the board (%s)", queenWords(c.Queen, m))
	}
	return nil
}

func queenWords(q queenCore, m *Match) string {
	switch q.Status {
	case QueenCovered:
		return "covered by " + m.teamName(q.Team)
	case QueenAwaitingCover:
		return "pocketed by " + m.teamName(q.Team) + ", awaiting cover"
	case QueenAwaitingPlacement:
		if q.Held {
			return "taken out until the end of the turn"
		}
		return "awaiting placement"
	}
	return "on the board"
}

// stroke applies a stroke outcome.
func (m *Match) stroke(c *core, s Stroke) error {
	if s.Seat >= board.S && s.Seat <= board.W && s.Seat == c.Turn && m.teamOf[s.Seat] >= 0 {
		m.autoPlace(c)
	}
	if err := m.checkStroke(c, s); err != nil {
		return err
	}
	p := m.prof
	T := m.teamOf[s.Seat]
	O := 1 - T
	kT, kO := c.Colour[T], c.Colour[O]
	own, opp := s.Pocketed(kT), s.Pocketed(kO)
	mt, mo := &c.Men[kT], &c.Men[kO]

	permitted := max(0, mt.InPocket-mt.Owed)
	dueAgainst := mt.Owed > mt.InPocket
	// The right to pocket and cover the queen comes with the side's first
	// man pocketed (ICF Covering the Queen 1) and stays when the men
	// pocketed have all come back as dues or penalties, once none is
	// outstanding (Covering the Queen 6; four-break Queen 5).
	right := permitted > 0 || (mt.Opened && mt.Owed == 0)
	ownLast := own > 0 && own == mt.OnBoard && mt.Awaiting == 0 && mt.Owed == 0
	oppLast := opp > 0 && opp == mo.OnBoard && mo.Awaiting == 0 && mo.Owed == 0
	q0 := c.Queen
	if s.Unnoticed {
		// ICF General Rules 22: only a plain stroke whose turn would end on
		// the opponent's man can go on unnoticed.
		switch {
		case opp == 0:
			return errors.New("unnoticed: the stroke pocketed no opponent's man (ICF General Rules 22)")
		case oppLast:
			return errors.New("unnoticed: the opponents' last man is dealt with by the board-ending rules, noticed or not")
		case len(s.Fouls) > 0:
			return errors.New("unnoticed: an improper stroke ends the turn anyway")
		case s.Striker:
			return errors.New("unnoticed: the pocketed striker ends the turn anyway")
		}
	}

	mt.OnBoard -= own
	mt.InPocket += own
	mo.OnBoard -= opp
	mo.InPocket += opp
	mt.Opened = mt.Opened || own > 0
	mo.Opened = mo.Opened || opp > 0
	c.Strokes++
	c.Passes = [4]int{}
	if c.Breaking && !s.NoBreak {
		c.Breaking, c.Attempts = false, 0
	}

	// Fouls the profile derives from the outcome.
	jumped := s.Overboard[board.White] + s.Overboard[board.Black] + s.Overboard[board.Queen]
	var derived []Foul
	if p.StrikerPocketFoul && s.Striker {
		derived = append(derived, FoulStrikerPocketed)
	}
	if p.StrikerJumpFoul && s.Overboard[board.Striker] > 0 {
		derived = append(derived, FoulStrikerOverboard)
	}
	if p.PieceJumpFoul && jumped > 0 {
		derived = append(derived, FoulPieceOverboard)
	}
	if p.OpponentManFoul && opp > 0 && !s.Unnoticed {
		derived = append(derived, FoulOpponentPocketed)
	}
	if p.FinalPieceFouls {
		if oppLast {
			derived = append(derived, FoulOpponentFinalPiece)
		}
		clean := len(s.Fouls) == 0 && len(derived) == 0
		coversNow := clean && own > 0 && (q0.Status == QueenAwaitingCover || (s.Queen && right))
		if ownLast && q0.Status != QueenCovered && !coversNow {
			derived = append(derived, FoulFinalPieceEarly)
		}
	}
	// improper: the stroke ends the turn, spoils the queen and (ICF) brings
	// the player's men back. improperFinish is the "improper stroke" of the
	// board-ending rules.
	improper := len(s.Fouls) > 0
	improperFinish := improper
	if p.Penalty == PenaltyPerFoulStroke {
		improper = improper || len(derived) > 0
		for _, f := range derived {
			if f != FoulStrikerPocketed {
				improperFinish = true
			}
		}
	}
	setFouls := func() { c.Fouls = foulStrings(s.Fouls, derived) }

	// Special board endings (ICF Covering the Queen 19-39 and the like).
	if ownLast || oppLast {
		qs := situation(q0, s.Queen, T)
		for _, r := range p.Finish {
			if r.OwnLast == ownLast && r.OppLast == oppLast && r.Queen&qs != 0 &&
				r.Striker.match(s.Striker) && r.Improper.match(improperFinish) {
				setFouls()
				m.finishByRule(c, r, T, s, improperFinish)
				return nil
			}
		}
	}

	// Dues and penalties.
	n := 0
	switch p.Penalty {
	case PenaltyICF:
		n = b2i(s.Striker) + b2i(improper)
	case PenaltyFines:
		n = b2i(s.Striker) + len(s.Fouls) + jumped + s.Overboard[board.Striker]
	case PenaltyPerFoulStroke:
		n = b2i(improper)
	}
	back := 0 // own men pocketed by this stroke that come up again
	if (improper && p.ReturnOwnOnFoul) || (s.Striker && p.ReturnOwnWithStriker) {
		back = own
	}
	if hasFoul(derived, FoulFinalPieceEarly) && back == 0 {
		back = 1 // nit-delhi Fouls 5: the final piece is returned
	}
	oppBack := 0
	if hasFoul(derived, FoulOpponentFinalPiece) {
		oppBack = 1 // nit-delhi Fouls 4: the opponent's final piece is returned
	}

	// The queen.
	q := m.resolveQueen(c, queenInput{T: T, O: O, own: own, opp: opp, queen: s.Queen, striker: s.Striker,
		improper: improper, permitted: permitted, right: right, dueAgainst: dueAgainst})
	m.applyQueen(c, q, T)

	// The turn.
	cont := false
	switch {
	case improper, q.turn == turnLose:
	case p.OpponentManEndsTurn && opp > 0 && !s.Unnoticed: // team-3board Sink 5
	case q.turn == turnContinue:
		cont = true
	case own > 0:
		cont = true
	}
	if s.Unnoticed {
		// The turn would have ended on the opponent's man (General Rules
		// 21; team-3board Sink 5; nit-delhi, jamshedpur Fouls 3): it goes on
		// until noticed.
		switch {
		case improper:
			return fmt.Errorf("unnoticed: the turn ends anyway (%s)", strings.Join(foulStrings(nil, derived), ", "))
		case q.turn == turnLose:
			return fmt.Errorf("unnoticed: the turn ends anyway (the queen: %s)", m.prof.Ref("queen"))
		case cont && !p.OpponentManFoul && !p.OpponentManEndsTurn:
			return errors.New("unnoticed: the turn goes on anyway")
		}
		cont = true
	}
	if s.NoBreak {
		if improper || n > 0 {
			cont = false
		} else {
			c.Attempts++
			cont = c.Attempts < p.BreakAttempts
			if !cont && p.BreakFailFoul {
				derived = append(derived, FoulBreakFailed)
				n++
			}
		}
	}

	mt.Owed += back + n
	if oppBack > 0 {
		mo.Owed += oppBack
		mo.OwnerPlaces = true
	}
	switch {
	case p.DueTiming == AfterStroke:
		m.takeOut(c)
	case cont && mt.OnBoard == 0:
		// Nothing left to play at: take the dues out now.
		m.takeOutColour(c, kT)
	}
	setFouls()
	if !cont {
		m.endTurn(c)
	} else if s.Unnoticed {
		c.PlayingOn = true
	}
	m.checkCleared(c, T)
	return nil
}

// pass applies a player passing his turn.
func (m *Match) pass(c *core, ps Pass) error {
	if ps.Seat < board.S || ps.Seat > board.W || m.teamOf[ps.Seat] < 0 {
		return fmt.Errorf("no player sits at %s", ps.Seat)
	}
	if ps.Seat != c.Turn {
		return fmt.Errorf("it is %s's turn, not %s's (board %d)", m.seatName(c.Turn), ps.Seat, c.Board)
	}
	if c.Breaking {
		return errors.New("the breaker cannot pass: the board must be broken")
	}
	m.autoPlace(c)
	c.Passes[ps.Seat]++
	all := true
	for seat := board.S; seat <= board.W; seat++ {
		if m.teamOf[seat] >= 0 && c.Passes[seat] < 3 {
			all = false
		}
	}
	if all {
		m.replayBoard(c, ReplayPasses)
		return nil
	}
	m.endTurn(c)
	return nil
}

func foulStrings(a, b []Foul) []string {
	var out []string
	for _, f := range a {
		out = append(out, string(f))
	}
	for _, f := range b {
		out = append(out, string(f))
	}
	return out
}

func hasFoul(fs []Foul, f Foul) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}
