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

// stroke applies a stroke outcome, in the order the laws apply it: what
// the stroke found (strokeFacts), the men it moved, the fouls the profile
// derives from the outcome, a special board ending, dues and penalties, the
// queen, the turn, and the dues taken out.
func (m *Match) stroke(c *core, s Stroke) error {
	if s.Seat >= board.S && s.Seat <= board.W && s.Seat == c.Turn && m.teamOf[s.Seat] >= 0 {
		m.autoPlace(c)
	}
	if err := m.checkStroke(c, s); err != nil {
		return err
	}
	f := m.strokeFacts(c, s)
	if err := f.unnoticedPossible(); err != nil {
		return err
	}
	f.movePieces(c)
	m.deriveFouls(f)
	if m.finishBoard(c, f) {
		return nil
	}
	n, back, oppBack := m.dues(f)
	q := m.resolveQueen(c, queenInput{T: f.T, O: f.O, own: f.own, opp: f.opp, queen: s.Queen, striker: s.Striker,
		improper: f.improper, permitted: f.permitted, right: f.right, dueAgainst: f.dueAgainst})
	m.applyQueen(c, q, f.T)
	cont, err := m.turnGoesOn(c, f, q, &n)
	if err != nil {
		return err
	}
	f.mt.Owed += back + n
	if oppBack > 0 {
		f.mo.Owed += oppBack
		f.mo.OwnerPlaces = true
	}
	switch {
	case m.prof.DueTiming == AfterStroke:
		m.takeOut(c)
	case cont && f.mt.OnBoard == 0:
		// Nothing left to play at: take the dues out now.
		m.takeOutColour(c, f.kT)
	}
	f.setFouls(c)
	if !cont {
		m.endTurn(c)
	} else if s.Unnoticed {
		c.PlayingOn = true
	}
	m.checkCleared(c, f.T)
	return nil
}

// strokeFacts is what a stroke found on the board and did, worked out
// before anything changes, and the fouls it carries as the phases of
// stroke derive them.
type strokeFacts struct {
	s          Stroke
	T, O       int        // the striking team and the other
	kT, kO     board.Kind // their colours
	own, opp   int        // men of each pocketed
	mt, mo     *colourMen
	permitted  int  // own men in pocket not owed
	dueAgainst bool // more owed than in pocket
	// right: the right to pocket and cover the queen comes with the side's
	// first man pocketed (ICF Covering the Queen 1) and stays when the men
	// pocketed have all come back as dues or penalties, once none is
	// outstanding (Covering the Queen 6; four-break Queen 5).
	right            bool
	ownLast, oppLast bool // the stroke pocketed the side's last men
	q0               queenCore
	jumped           int // men and queen overboard
	derived          []Foul
	// improper: the stroke ends the turn, spoils the queen and (ICF) brings
	// the player's men back. improperFinish is the "improper stroke" of the
	// board-ending rules.
	improper, improperFinish bool
}

func (m *Match) strokeFacts(c *core, s Stroke) *strokeFacts {
	f := &strokeFacts{s: s, T: m.teamOf[s.Seat]}
	f.O = 1 - f.T
	f.kT, f.kO = c.Colour[f.T], c.Colour[f.O]
	f.own, f.opp = s.Pocketed(f.kT), s.Pocketed(f.kO)
	f.mt, f.mo = &c.Men[f.kT], &c.Men[f.kO]
	f.permitted = max(0, f.mt.InPocket-f.mt.Owed)
	f.dueAgainst = f.mt.Owed > f.mt.InPocket
	f.right = f.permitted > 0 || (f.mt.Opened && f.mt.Owed == 0)
	f.ownLast = f.own > 0 && f.own == f.mt.OnBoard && f.mt.Awaiting == 0 && f.mt.Owed == 0
	f.oppLast = f.opp > 0 && f.opp == f.mo.OnBoard && f.mo.Awaiting == 0 && f.mo.Owed == 0
	f.q0 = c.Queen
	f.jumped = s.Overboard[board.White] + s.Overboard[board.Black] + s.Overboard[board.Queen]
	return f
}

// unnoticedPossible: ICF General Rules 22, only a plain stroke whose turn
// would end on the opponent's man can go on unnoticed.
func (f *strokeFacts) unnoticedPossible() error {
	if !f.s.Unnoticed {
		return nil
	}
	switch {
	case f.opp == 0:
		return errors.New("unnoticed: the stroke pocketed no opponent's man (ICF General Rules 22)")
	case f.oppLast:
		return errors.New("unnoticed: the opponents' last man is dealt with by the board-ending rules, noticed or not")
	case len(f.s.Fouls) > 0:
		return errors.New("unnoticed: an improper stroke ends the turn anyway")
	case f.s.Striker:
		return errors.New("unnoticed: the pocketed striker ends the turn anyway")
	}
	return nil
}

// movePieces moves the men pocketed and counts the stroke.
func (f *strokeFacts) movePieces(c *core) {
	f.mt.OnBoard -= f.own
	f.mt.InPocket += f.own
	f.mo.OnBoard -= f.opp
	f.mo.InPocket += f.opp
	f.mt.Opened = f.mt.Opened || f.own > 0
	f.mo.Opened = f.mo.Opened || f.opp > 0
	c.Strokes++
	c.Passes = [4]int{}
	if c.Breaking && !f.s.NoBreak {
		c.Breaking, c.Attempts = false, 0
	}
}

func (f *strokeFacts) setFouls(c *core) { c.Fouls = foulStrings(f.s.Fouls, f.derived) }

// deriveFouls adds the fouls the profile derives from the outcome, and
// says whether the stroke is improper.
func (m *Match) deriveFouls(f *strokeFacts) {
	p, s := m.prof, f.s
	if p.StrikerPocketFoul && s.Striker {
		f.derived = append(f.derived, FoulStrikerPocketed)
	}
	if p.StrikerJumpFoul && s.Overboard[board.Striker] > 0 {
		f.derived = append(f.derived, FoulStrikerOverboard)
	}
	if p.PieceJumpFoul && f.jumped > 0 {
		f.derived = append(f.derived, FoulPieceOverboard)
	}
	if p.OpponentManFoul && f.opp > 0 && !s.Unnoticed {
		f.derived = append(f.derived, FoulOpponentPocketed)
	}
	if p.FinalPieceFouls {
		if f.oppLast {
			f.derived = append(f.derived, FoulOpponentFinalPiece)
		}
		clean := len(s.Fouls) == 0 && len(f.derived) == 0
		coversNow := clean && f.own > 0 && (f.q0.Status == QueenAwaitingCover || (s.Queen && f.right))
		if f.ownLast && f.q0.Status != QueenCovered && !coversNow {
			f.derived = append(f.derived, FoulFinalPieceEarly)
		}
	}
	f.improper = len(s.Fouls) > 0
	f.improperFinish = f.improper
	if p.Penalty == PenaltyPerFoulStroke {
		f.improper = f.improper || len(f.derived) > 0
		for _, d := range f.derived {
			if d != FoulStrikerPocketed {
				f.improperFinish = true
			}
		}
	}
}

// finishBoard applies a special board ending (ICF Covering the Queen
// 19-39 and the like) when the stroke pocketed a side's last men and the
// profile has a rule for it; it reports whether one applied.
func (m *Match) finishBoard(c *core, f *strokeFacts) bool {
	if !f.ownLast && !f.oppLast {
		return false
	}
	qs := situation(f.q0, f.s.Queen, f.T)
	for _, r := range m.prof.Finish {
		if r.OwnLast == f.ownLast && r.OppLast == f.oppLast && r.Queen&qs != 0 &&
			r.Striker.match(f.s.Striker) && r.Improper.match(f.improperFinish) {
			f.setFouls(c)
			m.finishByRule(c, r, f.T, f.s, f.improperFinish)
			return true
		}
	}
	return false
}

// dues gives the penalty men n owed for the stroke, the own men pocketed by
// it that come up again (back) and the opponent's that do (oppBack).
func (m *Match) dues(f *strokeFacts) (n, back, oppBack int) {
	s := f.s
	switch m.prof.Penalty {
	case PenaltyICF:
		n = b2i(s.Striker) + b2i(f.improper)
	case PenaltyFines:
		n = b2i(s.Striker) + len(s.Fouls) + f.jumped + s.Overboard[board.Striker]
	case PenaltyPerFoulStroke:
		n = b2i(f.improper)
	}
	if (f.improper && m.prof.ReturnOwnOnFoul) || (s.Striker && m.prof.ReturnOwnWithStriker) {
		back = f.own
	}
	if hasFoul(f.derived, FoulFinalPieceEarly) && back == 0 {
		back = 1 // nit-delhi Fouls 5: the final piece is returned
	}
	if hasFoul(f.derived, FoulOpponentFinalPiece) {
		oppBack = 1 // nit-delhi Fouls 4: the opponent's final piece is returned
	}
	return n, back, oppBack
}

// turnGoesOn says whether the striker's turn continues; a failed break
// attempt may add a foul and a penalty man to *n.
func (m *Match) turnGoesOn(c *core, f *strokeFacts, q queenOutcome, n *int) (bool, error) {
	p, s := m.prof, f.s
	cont := false
	switch {
	case f.improper, q.turn == turnLose:
	case p.OpponentManEndsTurn && f.opp > 0 && !s.Unnoticed: // team-3board Sink 5
	case q.turn == turnContinue:
		cont = true
	case f.own > 0:
		cont = true
	}
	if s.Unnoticed {
		// The turn would have ended on the opponent's man (General Rules
		// 21; team-3board Sink 5; nit-delhi, jamshedpur Fouls 3): it goes on
		// until noticed.
		switch {
		case f.improper:
			return false, fmt.Errorf("unnoticed: the turn ends anyway (%s)", strings.Join(foulStrings(nil, f.derived), ", "))
		case q.turn == turnLose:
			return false, fmt.Errorf("unnoticed: the turn ends anyway (the queen: %s)", p.Ref("queen"))
		case cont && !p.OpponentManFoul && !p.OpponentManEndsTurn:
			return false, errors.New("unnoticed: the turn goes on anyway")
		}
		cont = true
	}
	if s.NoBreak {
		if f.improper || *n > 0 {
			cont = false
		} else {
			c.Attempts++
			cont = c.Attempts < p.BreakAttempts
			if !cont && p.BreakFailFoul {
				f.derived = append(f.derived, FoulBreakFailed)
				*n++
			}
		}
	}
	return cont, nil
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
