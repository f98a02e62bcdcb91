package rules

import (
	"fmt"

	"github.com/boardcam/boardcam/foul"
)

// Foul is a stable snake_case code for a foul. Codes are part of the
// stroke-log notation (written "!code") and of the websocket protocol; they
// are never renamed. Each foul is described once, in package foul (its
// references in every profile's document, what the camera must see);
// which codes a profile recognises, and how it penalises them, is in
// [Profile.Fouls], built from those descriptions. The constants below name
// the codes described in package foul's own table.
type Foul = foul.Code

// Striking fouls: they make the stroke improper.
const (
	// FoulPlacement: the striker did not touch both base lines (and was not
	// on a base circle).
	FoulPlacement = foul.Placement
	// FoulCutMoon: the striker lay partly on a base circle and partly in the
	// base line ("cutting the moon").
	FoulCutMoon = foul.CutMoon
	// FoulArrow: from a base circle, the striker touched the arrow.
	FoulArrow = foul.Arrow
	// FoulWrongSide: the striker was placed on another side's base line.
	FoulWrongSide = foul.WrongSide
	// FoulBackwardFlick: the striker did not cross the front base line
	// (flicked backwards or sideways).
	FoulBackwardFlick = foul.BackwardFlick
	// FoulBehindLineFirst: a piece on or behind the front base line was
	// struck before the striker crossed the front line.
	FoulBehindLineFirst = foul.BehindLineFirst
	// FoulNoContact: the striker touched neither a coin nor the frame
	// (team-3board General Rules 7).
	FoulNoContact = foul.NoContact
	// FoulAdjacentArrowCoin: a coin on the adjacent arrow was hit
	// (team-3board General Rules 8).
	FoulAdjacentArrowCoin = foul.AdjacentArrowCoin
	// FoulRedCircleCoin: a coin touching the base circles and the line
	// outside them was hit (team-3board General Rules 9).
	FoulRedCircleCoin = foul.RedCircleCoin
	// FoulOpponentCoinOnly: the striker hit only the opponent's coin
	// directly (team-3board Additional Rules 5).
	FoulOpponentCoinOnly = foul.OpponentCoinOnly
	// FoulLastTwoDirectHit: with the queen and one coin left, that coin was
	// hit directly (team-3board Additional Rules 6, 7).
	FoulLastTwoDirectHit = foul.LastTwoDirectHit
	// FoulThumbing: a stroke with the thumb (a "backshot"; team-3board).
	FoulThumbing = foul.Thumbing
	// FoulPush: the striker was pushed, not flicked.
	FoulPush = foul.Push
	// FoulTouchedPiece: a hand touched or moved a piece other than the
	// striker.
	FoulTouchedPiece = foul.TouchedPiece
	// FoulHandOverFoulLine: the hand or arm crossed the diagonal foul lines.
	FoulHandOverFoulLine = foul.HandOverFoulLine
	// FoulStoppedStriker: the player stopped the striker abruptly
	// (team-3board Additional Rules 4).
	FoulStoppedStriker = foul.StoppedStriker
)

// Fouls the engine derives from a stroke's outcome. They are reported in
// [State.Fouls] but are never written in a log (the pocketed and overboard
// pieces say it).
const (
	// FoulStrikerOverboard: the striker left the board.
	FoulStrikerOverboard = foul.StrikerOverboard
	// FoulPieceOverboard: a carromman or the queen left the board.
	FoulPieceOverboard = foul.PieceOverboard
	// FoulStrikerPocketed: the striker was pocketed (a foul in nit-delhi
	// and jamshedpur; a "due" elsewhere).
	FoulStrikerPocketed = foul.StrikerPocketed
	// FoulOpponentPocketed: the player pocketed an opponent's piece.
	FoulOpponentPocketed = foul.OpponentPocketed
	// FoulOpponentFinalPiece: the player pocketed the opponent's final piece
	// (nit-delhi).
	FoulOpponentFinalPiece = foul.OpponentFinalPiece
	// FoulFinalPieceEarly: the player pocketed his final piece before the
	// queen was covered (nit-delhi).
	FoulFinalPieceEarly = foul.FinalPieceEarly
	// FoulBreakFailed: the breaker failed to break in the allowed attempts
	// (nit-delhi).
	FoulBreakFailed = foul.BreakFailed
)

// Fouls in placing due and penalty men, written on a placement line.
const (
	// FoulDueOutsideOuterCircle: a due or penalty man was placed (or moved)
	// outside the outer circle.
	FoulDueOutsideOuterCircle = foul.DueOutsideOuterCircle
	// FoulDueOnCentreCircle: a due or penalty man covers part of the centre
	// circle.
	FoulDueOnCentreCircle = foul.DueOnCentreCircle
	// FoulWrongManPlaced: the placer put down a man of his own colour by
	// mistake (ICF Dues and Penalties 17).
	FoulWrongManPlaced = foul.WrongManPlaced
	// FoulPlacementDisturbed: placing moved other pieces (ICF Dues 23).
	FoulPlacementDisturbed = foul.PlacementDisturbed
	// FoulPlacementTimeout: the placing was not completed in time (ICF
	// Dues 26, 27).
	FoulPlacementTimeout = foul.PlacementTimeout
	// FoulDueUsedForQueen: a due man was placed to make a shot with the
	// queen (ICF Covering the Queen 41).
	FoulDueUsedForQueen = foul.DueUsedForQueen
)

// Conduct fouls, declared by the umpire with a "foul" line.
const (
	// FoulTalking: doubles partners talked or signalled during the board.
	FoulTalking = foul.Talking
	// FoulPowder: powder applied, removed or blown off against the rules.
	FoulPowder = foul.Powder
	// FoulTappedBoard: the player hit, tapped or disturbed the board.
	FoulTappedBoard = foul.TappedBoard
	// FoulBoardDisturbed: the board was disturbed so that the men cannot
	// be rearranged; the offender loses the board.
	FoulBoardDisturbed = foul.BoardDisturbed
	// FoulGotUp: a player got up from the seat during the board; he loses
	// the board.
	FoulGotUp = foul.GotUp
	// FoulAppealViolation: play continued during an appeal before the
	// umpire called "Play"; the offender loses the board.
	FoulAppealViolation = foul.AppealViolation
)

// FoulEffect is how a profile penalises a foul.
type FoulEffect int

// The effects.
const (
	// EffectImproper: the stroke is improper; the offender pays the
	// profile's penalty and, if it is his turn, loses it.
	EffectImproper FoulEffect = iota
	// EffectFine: a penalty man without making the stroke improper (the
	// turn follows the pocketing; team-3board's fines for jumps).
	EffectFine
	// EffectBoard: the offender loses the board.
	EffectBoard
)

func (e FoulEffect) String() string {
	switch e {
	case EffectImproper:
		return "improper"
	case EffectFine:
		return "fine"
	case EffectBoard:
		return "loses the board"
	}
	return fmt.Sprintf("FoulEffect(%d)", int(e))
}

// FoulRule is one foul as a profile recognises it.
type FoulRule struct {
	Code Foul
	// Ref is the rule reference the referee attaches to foul evidence:
	// document, section and number, e.g.
	// "icf-laws-of-carrom.md: Striking 1; General Rules 29".
	Ref    string
	Effect FoulEffect
	// Derived fouls are found by the engine from the stroke's outcome and
	// are never written in a log.
	Derived bool
	// Camera is true when the camera can judge the foul (the referee emits
	// it); the others are declared by the umpire.
	Camera bool
	// Fallback is true when the profile's document is silent and the foul
	// comes from the ICF laws.
	Fallback bool
}

// AllFouls lists every foul code of every profile, sorted.
func AllFouls() []Foul {
	all := foul.All()
	out := make([]Foul, len(all))
	for i, d := range all {
		out[i] = d.Code
	}
	return out
}

// MatchLoss is why a player loses the entire match (ICF "Loss of Entire
// Match" 1-9), the reason of a "disqualify" line.
type MatchLoss string

// The reasons, in the order of the ICF rules 1-9.
const (
	LossLeftArea           MatchLoss = "left_area"
	LossRestTime           MatchLoss = "rest_time"
	LossRefusedDecision    MatchLoss = "refused_decision"
	LossInsult             MatchLoss = "insult"
	LossIntoxication       MatchLoss = "intoxication"
	LossUncertifiedStriker MatchLoss = "uncertified_striker"
	LossDiscontinued       MatchLoss = "discontinued"
	LossDistraction        MatchLoss = "distraction"
	LossLate               MatchLoss = "late"
)

// MatchLosses lists the reasons in rule order (ICF Loss of Entire Match
// 1-9).
var MatchLosses = []MatchLoss{LossLeftArea, LossRestTime, LossRefusedDecision, LossInsult, LossIntoxication, LossUncertifiedStriker, LossDiscontinued, LossDistraction, LossLate}

// Rule returns the ICF rule number (1-9) of the reason, 0 if unknown.
func (l MatchLoss) Rule() int {
	for i, r := range MatchLosses {
		if r == l {
			return i + 1
		}
	}
	return 0
}

// ReplayReason is why a board is replayed (a "replay" line).
type ReplayReason string

// The reasons.
const (
	// ReplayUnforeseen: circumstances beyond the umpire's control (ICF
	// General Rules 41).
	ReplayUnforeseen ReplayReason = "unforeseen"
	// ReplayNoSpace: men on the base lines leave no room for the striker
	// (ICF General Rules 43).
	ReplayNoSpace ReplayReason = "no_space"
	// ReplayPasses: the players passed their turns three times each (ICF
	// General Rules 38; the engine also does this by itself).
	ReplayPasses ReplayReason = "passes"
)

// ReplayReasons lists the reasons.
var ReplayReasons = []ReplayReason{ReplayUnforeseen, ReplayNoSpace, ReplayPasses}
