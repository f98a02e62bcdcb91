package rules

// queenAct is what a stroke does to the queen.
type queenAct int

const (
	queenKeep   queenAct = iota // unchanged
	queenAwait                  // pocketed, to be covered by the next stroke
	queenCover                  // covered (by team)
	queenReturn                 // taken out to be placed back
	queenHold                   // taken out, placed back at the end of the turn
)

// turnEffect is what the queen does to the turn.
type turnEffect int

const (
	turnNeutral  turnEffect = iota // the turn follows the men pocketed
	turnLose                       // the turn is lost
	turnContinue                   // the turn continues
)

// queenOutcome is the queen part of a stroke's resolution.
type queenOutcome struct {
	act       queenAct
	team      int  // for queenCover
	uncovered bool // for queenReturn: the cover failed (ICF Covering the Queen 8)
	turn      turnEffect
}

// queenInput is what the queen rules look at.
type queenInput struct {
	T, O      int  // the striker's team and the opponents
	own, opp  int  // men of each side pocketed by the stroke
	queen     bool // the stroke pocketed the queen
	striker   bool // the stroke pocketed the striker
	improper  bool // the stroke is improper (has a turn-ending foul)
	permitted int  // the striker's men already pocketed (and not owed back)
	// right: the player may pocket and cover the queen: a man of his side
	// has been pocketed in this board, still in the pockets or come back
	// as a due or penalty with none outstanding (ICF Covering the Queen 1,
	// 6). Without it, or with permitted 0, all nine of his men are on the
	// board (Covering the Queen 7, 10).
	right      bool
	dueAgainst bool
}

// resolveQueen applies the profile's queen rules to a stroke.
func (m *Match) resolveQueen(c *core, in queenInput) queenOutcome {
	if m.prof.QueenRules == QueenTurn {
		return turnQueen(c, in)
	}
	return icfQueen(c, in, m.prof.QueenRules == QueenTeam, m.prof.QueenStrikerAllNineLosesTurn)
}

// icfQueen: ICF Covering the Queen 1-18 (icf, four-break Queen 1-12) and,
// with team, team-3board Queen 1-7 and Sink 2, 3.
func icfQueen(c *core, in queenInput, team, allNineLoses bool) queenOutcome {
	if c.Queen.Status == QueenAwaitingCover {
		// The covering stroke.
		switch {
		case in.improper:
			// ICF Covering the Queen 16, 18; Dues and Penalties 8.
			return queenOutcome{act: queenReturn}
		case in.striker && in.own == 0:
			// ICF Covering the Queen 15.
			return queenOutcome{act: queenReturn}
		case in.striker:
			// ICF Covering the Queen 17; team-3board Sink 3: the men and a
			// due come up, the turn goes on, the next stroke must cover.
			return queenOutcome{act: queenKeep}
		case in.own > 0:
			// ICF Interpretations (Covering); team-3board Queen 4, 6.
			return queenOutcome{act: queenCover, team: in.T}
		case team && in.opp > 0:
			// team-3board Queen 3: covered with the opponent's coin, they
			// cover it and the player loses the turn.
			return queenOutcome{act: queenCover, team: in.O, turn: turnLose}
		default:
			// ICF Covering the Queen 8; team-3board Queen 6.
			return queenOutcome{act: queenReturn, uncovered: true}
		}
	}
	if !in.queen {
		return queenOutcome{act: queenKeep}
	}
	switch {
	case in.improper:
		// ICF Covering the Queen 12, 14 (and Dues and Penalties 8 without the
		// striker): the queen is taken out; the turn is lost.
		return queenOutcome{act: queenReturn}
	case in.dueAgainst:
		// ICF Covering the Queen 5.
		return queenOutcome{act: queenReturn, turn: turnLose}
	case in.striker && in.own > 0:
		// ICF Covering the Queen 11: queen and men come up with a due; the
		// turn goes on (his men went in).
		return queenOutcome{act: queenReturn}
	case in.striker && in.permitted == 0 && allNineLoses:
		// ICF Covering the Queen 7.
		return queenOutcome{act: queenReturn, turn: turnLose}
	case in.striker:
		// ICF Covering the Queen 13; team-3board Sink 2.
		return queenOutcome{act: queenReturn, turn: turnContinue}
	case !in.right && team:
		if in.own > 0 {
			// team-3board Queen 7, 2: claimed with a coin in the same stroke.
			return queenOutcome{act: queenCover, team: in.T}
		}
		// team-3board Queen 7; ICF Covering the Queen 4.
		return queenOutcome{act: queenReturn, turn: turnLose}
	case !in.right && in.own == 0:
		// ICF Covering the Queen 4.
		return queenOutcome{act: queenReturn, turn: turnLose}
	case in.permitted == 0 && !team && in.own == 1:
		// ICF Covering the Queen 10 (and 6: after a recovered due all
		// nine are on the board too): with one man it has to be covered.
		return queenOutcome{act: queenAwait}
	case in.own > 0:
		// ICF Covering the Queen 9, and 10 with more than one man;
		// team-3board Queen 2, 4.
		return queenOutcome{act: queenCover, team: in.T}
	case team && in.opp > 0:
		// team-3board Queen 3.
		return queenOutcome{act: queenCover, team: in.O, turn: turnLose}
	default:
		// ICF Covering the Queen 1, 8 (cover in the next stroke), and 6 when
		// the men pocketed have come back as dues; General Rules 18:
		// pocketing the queen keeps the turn.
		return queenOutcome{act: queenAwait, turn: turnContinue}
	}
}

// turnQueen: nit-delhi and jamshedpur Covering the Queen 1-4 and Fouls 3.
func turnQueen(c *core, in queenInput) queenOutcome {
	if c.Queen.Status == QueenAwaitingCover {
		switch {
		case in.improper:
			// Fouls: the turn ends at once; a foul never covers.
			return queenOutcome{act: queenReturn}
		case in.own > 0:
			// Covering the Queen 3.
			return queenOutcome{act: queenCover, team: in.T}
		default:
			// Covering the Queen 4; Objective.
			return queenOutcome{act: queenReturn, uncovered: true}
		}
	}
	if !in.queen {
		return queenOutcome{act: queenKeep}
	}
	switch {
	case in.improper:
		// Fouls 3: the queen is returned with the penalty piece.
		return queenOutcome{act: queenReturn}
	case !in.right:
		// Covering the Queen 1, 2: not yet permitted ("has already
		// pocketed at least one piece": a piece pocketed and returned as a
		// penalty counts, as ICF Covering the Queen 6 says); the turn
		// continues, the queen returns at the end of the turn.
		return queenOutcome{act: queenHold, turn: turnContinue}
	case in.own > 0:
		// Covering the Queen 3.
		return queenOutcome{act: queenCover, team: in.T}
	default:
		// Basic Rules 3: pocketing the queen gives another strike, which
		// must cover it.
		return queenOutcome{act: queenAwait, turn: turnContinue}
	}
}

// applyQueen records the queen outcome of a stroke by team t.
func (m *Match) applyQueen(c *core, q queenOutcome, t int) {
	switch q.act {
	case queenAwait:
		c.Queen = queenCore{Status: QueenAwaitingCover, Team: t}
	case queenCover:
		c.Queen = queenCore{Status: QueenCovered, Team: q.team}
	case queenReturn:
		c.Queen = queenCore{Status: QueenAwaitingPlacement, Team: t, Uncovered: q.uncovered}
	case queenHold:
		c.Queen = queenCore{Status: QueenAwaitingPlacement, Team: t, Held: true}
	}
}

// situation classifies the queen for the finish tables.
func situation(q queenCore, pocketed bool, t int) QueenSituation {
	switch {
	case q.Status == QueenCovered && q.Team == t:
		return QCoveredSelf
	case q.Status == QueenCovered:
		return QCoveredOpp
	case q.Status == QueenAwaitingCover:
		return QCovering
	case pocketed:
		return QPocketed
	}
	return QOnBoard
}
