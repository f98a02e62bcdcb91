package rules

import (
	"fmt"
	"sort"
)

// Foul is a stable snake_case code for a foul. Codes are part of the
// stroke-log notation (written "!code") and of the websocket protocol; they
// are never renamed. Which codes a profile recognises, and how it penalises
// them, is in [Profile.Fouls].
type Foul string

// Striking fouls: they make the stroke improper.
const (
	// FoulPlacement: the striker did not touch both base lines (and was not
	// on a base circle).
	FoulPlacement Foul = "placement"
	// FoulCutMoon: the striker lay partly on a base circle and partly in the
	// base line ("cutting the moon").
	FoulCutMoon Foul = "cut_moon"
	// FoulArrow: from a base circle, the striker touched the arrow.
	FoulArrow Foul = "arrow"
	// FoulWrongSide: the striker was placed on another side's base line.
	FoulWrongSide Foul = "wrong_side"
	// FoulBackwardFlick: the striker did not cross the front base line
	// (flicked backwards or sideways).
	FoulBackwardFlick Foul = "backward_flick"
	// FoulBehindLineFirst: a piece on or behind the front base line was
	// struck before the striker crossed the front line.
	FoulBehindLineFirst Foul = "behind_line_first"
	// FoulNoContact: the striker touched neither a coin nor the frame
	// (team-3board General Rules 7).
	FoulNoContact Foul = "no_contact"
	// FoulAdjacentArrowCoin: a coin on the adjacent arrow was hit
	// (team-3board General Rules 8).
	FoulAdjacentArrowCoin Foul = "adjacent_arrow_coin"
	// FoulRedCircleCoin: a coin touching the base circles and the line
	// outside them was hit (team-3board General Rules 9).
	FoulRedCircleCoin Foul = "red_circle_coin"
	// FoulOpponentCoinOnly: the striker hit only the opponent's coin
	// directly (team-3board Additional Rules 5).
	FoulOpponentCoinOnly Foul = "opponent_coin_only"
	// FoulLastTwoDirectHit: with the queen and one coin left, that coin was
	// hit directly (team-3board Additional Rules 6, 7).
	FoulLastTwoDirectHit Foul = "last_two_direct_hit"
	// FoulThumbing: a stroke with the thumb (a "backshot"; team-3board).
	FoulThumbing Foul = "thumbing"
	// FoulPush: the striker was pushed, not flicked.
	FoulPush Foul = "push"
	// FoulTouchedPiece: a hand touched or moved a piece other than the
	// striker.
	FoulTouchedPiece Foul = "touched_piece"
	// FoulHandOverFoulLine: the hand or arm crossed the diagonal foul lines.
	FoulHandOverFoulLine Foul = "hand_over_foul_line"
	// FoulStoppedStriker: the player stopped the striker abruptly
	// (team-3board Additional Rules 4).
	FoulStoppedStriker Foul = "stopped_striker"
)

// Fouls the engine derives from a stroke's outcome. They are reported in
// [State.Fouls] but are never written in a log (the pocketed and overboard
// pieces say it).
const (
	// FoulStrikerOverboard: the striker left the board.
	FoulStrikerOverboard Foul = "striker_overboard"
	// FoulPieceOverboard: a carromman or the queen left the board.
	FoulPieceOverboard Foul = "piece_overboard"
	// FoulStrikerPocketed: the striker was pocketed (a foul in nit-delhi
	// and jamshedpur; a "due" elsewhere).
	FoulStrikerPocketed Foul = "striker_pocketed"
	// FoulOpponentPocketed: the player pocketed an opponent's piece.
	FoulOpponentPocketed Foul = "opponent_pocketed"
	// FoulOpponentFinalPiece: the player pocketed the opponent's final piece
	// (nit-delhi).
	FoulOpponentFinalPiece Foul = "opponent_final_piece"
	// FoulFinalPieceEarly: the player pocketed his final piece before the
	// queen was covered (nit-delhi).
	FoulFinalPieceEarly Foul = "final_piece_early"
	// FoulBreakFailed: the breaker failed to break in the allowed attempts
	// (nit-delhi).
	FoulBreakFailed Foul = "break_failed"
)

// Fouls in placing due and penalty men, written on a placement line.
const (
	// FoulDueOutsideOuterCircle: a due or penalty man was placed (or moved)
	// outside the outer circle.
	FoulDueOutsideOuterCircle Foul = "due_outside_outer_circle"
	// FoulDueOnCentreCircle: a due or penalty man covers part of the centre
	// circle.
	FoulDueOnCentreCircle Foul = "due_on_centre_circle"
	// FoulWrongManPlaced: the placer put down a man of his own colour by
	// mistake (ICF Dues and Penalties 17).
	FoulWrongManPlaced Foul = "wrong_man_placed"
	// FoulPlacementDisturbed: placing moved other pieces (ICF Dues 23).
	FoulPlacementDisturbed Foul = "placement_disturbed"
	// FoulPlacementTimeout: the placing was not completed in time (ICF
	// Dues 26, 27).
	FoulPlacementTimeout Foul = "placement_timeout"
	// FoulDueUsedForQueen: a due man was placed to make a shot with the
	// queen (ICF Covering the Queen 41).
	FoulDueUsedForQueen Foul = "due_used_for_queen"
)

// Conduct fouls, declared by the umpire with a "foul" line.
const (
	// FoulTalking: doubles partners talked or signalled during the board.
	FoulTalking Foul = "talking"
	// FoulPowder: powder applied, removed or blown off against the rules.
	FoulPowder Foul = "powder"
	// FoulTappedBoard: the player hit, tapped or disturbed the board.
	FoulTappedBoard Foul = "tapped_board"
	// FoulBoardDisturbed: the board was disturbed so that the men cannot
	// be rearranged; the offender loses the board.
	FoulBoardDisturbed Foul = "board_disturbed"
	// FoulGotUp: a player got up from the seat during the board; he loses
	// the board.
	FoulGotUp Foul = "got_up"
	// FoulAppealViolation: play continued during an appeal before the
	// umpire called "Play"; the offender loses the board.
	FoulAppealViolation Foul = "appeal_violation"
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

// foulInfo is the profile-independent description of each code.
var foulInfo = map[Foul]struct {
	camera  bool
	derived bool
	summary string
}{
	FoulPlacement:             {true, false, "striker not touching both base lines nor covering a base circle"},
	FoulCutMoon:               {true, false, "striker partly on a base circle (cutting the moon)"},
	FoulArrow:                 {true, false, "striker on a base circle touching the arrow"},
	FoulWrongSide:             {true, false, "striker placed on another side's base line"},
	FoulBackwardFlick:         {true, false, "striker did not cross the front base line"},
	FoulBehindLineFirst:       {true, false, "piece on or behind the front line struck before the striker crossed it"},
	FoulNoContact:             {true, false, "striker touched no coin and no wall"},
	FoulAdjacentArrowCoin:     {true, false, "coin lying on the adjacent arrow was hit"},
	FoulRedCircleCoin:         {true, false, "coin touching the base circles and the line outside them was hit"},
	FoulOpponentCoinOnly:      {true, false, "striker hit only an opponent's coin directly"},
	FoulLastTwoDirectHit:      {true, false, "with the queen and one coin left, that coin was hit directly"},
	FoulThumbing:              {false, false, "stroke with the thumb (backshot)"},
	FoulPush:                  {false, false, "striker pushed instead of flicked"},
	FoulTouchedPiece:          {true, false, "hand touched or moved a piece other than the striker"},
	FoulHandOverFoulLine:      {true, false, "hand or arm over the diagonal foul lines"},
	FoulStoppedStriker:        {true, false, "striker stopped abruptly by hand"},
	FoulStrikerOverboard:      {true, true, "striker left the board"},
	FoulPieceOverboard:        {true, true, "a carromman or the queen left the board"},
	FoulStrikerPocketed:       {true, true, "striker pocketed"},
	FoulOpponentPocketed:      {true, true, "opponent's piece pocketed"},
	FoulOpponentFinalPiece:    {true, true, "opponent's final piece pocketed"},
	FoulFinalPieceEarly:       {true, true, "own final piece pocketed before the queen was covered"},
	FoulBreakFailed:           {true, true, "break not made in the allowed attempts"},
	FoulDueOutsideOuterCircle: {true, false, "due or penalty man placed outside the outer circle"},
	FoulDueOnCentreCircle:     {true, false, "due or penalty man placed on the centre circle"},
	FoulWrongManPlaced:        {true, false, "placer put down a man of his own colour"},
	FoulPlacementDisturbed:    {true, false, "placing moved other pieces"},
	FoulPlacementTimeout:      {false, false, "placing not completed in time"},
	FoulDueUsedForQueen:       {false, false, "due man placed to make a shot with the queen"},
	FoulTalking:               {false, false, "partners talked or signalled"},
	FoulPowder:                {false, false, "powder applied or removed against the rules"},
	FoulTappedBoard:           {false, false, "board hit, tapped or disturbed"},
	FoulBoardDisturbed:        {false, false, "board disturbed beyond rearrangement"},
	FoulGotUp:                 {false, false, "player got up from the seat during the board"},
	FoulAppealViolation:       {false, false, "played on during an appeal"},
}

// AllFouls lists every foul code of every profile, sorted.
func AllFouls() []Foul {
	out := make([]Foul, 0, len(foulInfo))
	for f := range foulInfo {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Known reports whether f is a foul code of some profile.
func (f Foul) Known() bool { _, ok := foulInfo[f]; return ok }

// Summary describes the foul in a few words.
func (f Foul) Summary() string { return foulInfo[f].summary }

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
