package rules

// This file is the ICF profile: icf-laws-of-carrom.md. Every rule the engine
// applies is referenced by section and number; docs/profiles.md lists the
// rules that are not expressed.

// Awards used by the finish tables.
var (
	awardQueen   = Award{Queen: true}                                      // the queen's value (5 or 3)
	awardOne     = Award{Points: 1}                                        // one point
	awardTwo     = Award{Points: 2}                                        // two points
	awardMenQ    = Award{Men: true, Queen: true}                           // loser's men + the queen's value
	awardMen     = Award{Men: true}                                        // loser's men
	awardMenOne  = Award{Men: true, Points: 1}                             // loser's men + 1
	awardMenQWin = Award{Men: true, QueenIfWinnerCovered: true}            // the plain finish
	awardMenQW1  = Award{Men: true, QueenIfWinnerCovered: true, Points: 1} // plain finish + 1
)

// finish builds a FinishRule (positional, to keep the tables one line per
// rule).
func finish(ref string, own, opp bool, q QueenSituation, striker, improper Tri, strikerWins bool, award, atCutoff Award, demand int) FinishRule {
	return FinishRule{Ref: ref, OwnLast: own, OppLast: opp, Queen: q, Striker: striker, Improper: improper,
		StrikerWins: strikerWins, Award: award, AtCutoff: atCutoff, Demand: demand}
}

func analogy(r FinishRule) FinishRule { r.Analogy = true; return r }

// icfFallbackRef marks an ICF rule applied where a profile's document is
// silent.
func icfFallbackRef(r string) string { return "icf: " + r + " (fallback)" }

// icfFinish is the ICF table of board endings, Covering the Queen 19-39,
// plus the cases the laws do not list, decided by analogy. p is the
// reference prefix ("icf: " or "icf: … (fallback)").
func icfFinish(p func(string) string) []FinishRule {
	const win, lose = true, false
	const own, opp, both = 1, 2, 3
	f := func(ref string, last int, q QueenSituation, s, imp Tri, w bool, a, c Award, d int) FinishRule {
		return finish(p(ref), last&1 != 0, last&2 != 0, q, s, imp, w, a, c, d)
	}
	return []FinishRule{
		// Both sides' last men in one stroke.
		f("Covering the Queen 19", both, QCovering, No, No, win, awardQueen, awardOne, 0),
		f("Covering the Queen 20", both, QCovering, No, Yes, lose, awardQueen, awardOne, 1),
		f("Covering the Queen 23", both, QPocketed, No, No, win, awardQueen, awardOne, 0),
		f("Covering the Queen 24", both, QPocketed, No, Yes, lose, awardQueen, awardOne, 1),
		f("Covering the Queen 25", both, QOnBoard, No, No, lose, awardQueen, awardOne, 0),
		f("Covering the Queen 26", both, QOnBoard, No, Yes, lose, awardQueen, awardOne, 1),
		f("Covering the Queen 32", both, QPocketed, Yes, No, lose, awardQueen, awardOne, 1),
		f("Covering the Queen 33", both, QPocketed, Yes, Yes, lose, awardQueen, awardOne, 2),
		f("Covering the Queen 34", both, QCoveredSelf, Yes, No, lose, awardOne, awardOne, 1),
		f("Covering the Queen 35", both, QCoveredSelf, Yes, Yes, lose, awardOne, awardOne, 2),
		f("Covering the Queen 38", both, QCoveredOpp, Yes, No, lose, awardQueen, awardOne, 1),
		f("Covering the Queen 39", both, QCoveredOpp, Yes, Yes, lose, awardQueen, awardOne, 2),
		analogy(f("Covering the Queen 25, 31", both, QOnBoard, Yes, No, lose, awardQueen, awardOne, 1)),
		analogy(f("Covering the Queen 26, 31", both, QOnBoard, Yes, Yes, lose, awardQueen, awardOne, 2)),
		analogy(f("Covering the Queen 32", both, QCovering, Yes, No, lose, awardQueen, awardOne, 1)),
		analogy(f("Covering the Queen 33", both, QCovering, Yes, Yes, lose, awardQueen, awardOne, 2)),
		analogy(f("Covering the Queen 34", both, QCoveredSelf, No, No, lose, awardOne, awardOne, 0)),
		analogy(f("Covering the Queen 35", both, QCoveredSelf, No, Yes, lose, awardOne, awardOne, 1)),
		analogy(f("Covering the Queen 38", both, QCoveredOpp, No, No, lose, awardQueen, awardOne, 0)),
		analogy(f("Covering the Queen 39", both, QCoveredOpp, No, Yes, lose, awardQueen, awardOne, 1)),
		// The opponents' last man only: they have cleared.
		f("Covering the Queen 21", opp, QCovering, No, No, lose, awardMenQ, awardMen, 0),
		f("Covering the Queen 22", opp, QCovering, No, Yes, lose, awardMenQ, awardMen, 1),
		f("Covering the Queen 27", opp, QOnBoard, No, No, lose, awardMenQ, awardMen, 0),
		f("Covering the Queen 28", opp, QOnBoard, No, Yes, lose, awardMenQ, awardMen, 1),
		f("Covering the Queen 36", opp, QOnBoard, Yes, No, lose, awardMenQ, awardMen, 1),
		f("Covering the Queen 37", opp, QOnBoard, Yes, Yes, lose, awardMenQ, awardMen, 2),
		analogy(f("Covering the Queen 21", opp, QPocketed, No, No, lose, awardMenQ, awardMen, 0)),
		analogy(f("Covering the Queen 22", opp, QPocketed, No, Yes, lose, awardMenQ, awardMen, 1)),
		analogy(f("Covering the Queen 36", opp, QPocketed|QCovering, Yes, No, lose, awardMenQ, awardMen, 1)),
		analogy(f("Covering the Queen 37", opp, QPocketed|QCovering, Yes, Yes, lose, awardMenQ, awardMen, 2)),
		analogy(f("Game 2-3; Covering the Queen 27", opp, QCoveredSelf|QCoveredOpp, No, No, lose, awardMenQWin, awardMen, 0)),
		analogy(f("Game 2-3; Covering the Queen 28", opp, QCoveredSelf|QCoveredOpp, No, Yes, lose, awardMenQWin, awardMen, 1)),
		analogy(f("Game 2-3; Covering the Queen 36", opp, QCoveredSelf|QCoveredOpp, Yes, No, lose, awardMenQWin, awardMen, 1)),
		analogy(f("Game 2-3; Covering the Queen 37", opp, QCoveredSelf|QCoveredOpp, Yes, Yes, lose, awardMenQWin, awardMen, 2)),
		// The player's own last man only, the queen still on the board.
		f("Covering the Queen 29", own, QOnBoard, No, No, lose, awardQueen, awardOne, 0),
		f("Covering the Queen 30", own, QOnBoard, No, Yes, lose, awardQueen, awardOne, 1),
		f("Covering the Queen 31", own, QOnBoard, Yes, Either, lose, awardQueen, awardOne, 1),
	}
}

// icfDoc is the ICF laws' document, the fallback of every other profile.
const icfDoc = "icf-laws-of-carrom.md"

// boardLoss marks the fouls that lose the board.
var boardLoss = map[Foul]FoulEffect{FoulBoardDisturbed: EffectBoard, FoulGotUp: EffectBoard, FoulAppealViolation: EffectBoard}

// icfRefs names the rules behind the engine's decisions other than fouls
// and board endings. Other profiles fall back to these.
var icfRefs = map[string]string{
	"turn":             "icf: Objective; General Rules 18-22",
	"turn.order":       "icf: Objective (doubles anticlockwise)",
	"break":            "icf: Interpretations (Break); Placing the Pieces",
	"dues":             "icf: Dues and Penalties 1-12",
	"dues.placer":      "icf: Dues and Penalties 11, 12",
	"dues.forfeit":     "icf: Dues and Penalties 15, 19, 24",
	"dues.defer":       "icf: Dues and Penalties 13, 16",
	"queen":            "icf: Covering the Queen 1-18",
	"queen.unnoticed":  "icf: Covering the Queen 8",
	"overboard":        "icf: Overboard 1-5; General Rules 1",
	"concede":          "icf: General Rules 40",
	"replay":           "icf: General Rules 41",
	"replay.no_space":  "icf: General Rules 43",
	"replay.passes":    "icf: General Rules 38",
	"disqualify":       "icf: Loss of Entire Match",
	"demand":           "icf: Dues and Penalties 25",
	"clear.uncovered":  "icf: Covering the Queen 29 (by analogy: cleared by a forfeited placement)",
	"format.points-29": "icf: Game 3",
}

var icf = &Profile{
	Name:                         "icf",
	Title:                        "ICF Laws of Carrom",
	Document:                     icfDoc,
	QueenValue:                   5,
	QueenCutoff:                  24,
	Formats:                      []Format{{Name: "points-29", Kind: PointsTarget, Target: 29, Ref: "icf: Game 3"}},
	Direction:                    Anticlockwise,
	BreakAttempts:                3,
	DueTiming:                    AfterStroke,
	DuePlacer:                    "the player on the right of the player having the turn (Dues and Penalties 11); the player having the turn when the opponents owe them (Dues and Penalties 12)",
	Penalty:                      PenaltyICF,
	QueenRules:                   QueenICF,
	ReturnOwnOnFoul:              true,
	ReturnOwnWithStriker:         true,
	QueenStrikerAllNineLosesTurn: true,
	Demands:                      true,
	Fouls:                        foulRules("icf", icfDoc, boardLoss),
	Finish:                       icfFinish(func(r string) string { return "icf: " + r }),
	PlainFinish:                  "icf: Game 2, 3",
	Refs:                         icfRefs,
	Notes: []string{
		"The text is silent on failed breaks; like the other documents, a breaker gets three attempts (a stroke marked nobreak), then the next player breaks.",
		"The text does not say who breaks later boards; the break passes to the next player in the order of play (singles: the players alternate), and the breaker's side plays white (Placing the Pieces).",
		"General Rules 21 (pocketing an opponent's man stops the player) is read as: the turn ends when no own man (or queen) went in with it, consistent with Dues and Penalties 6, where the player pocketing his own and his opponent's men continues.",
		"A foul declared against the player having the turn ends his turn, like an improper stroke.",
		"A foul costs one penalty man per improper stroke, whatever the number of fouls in it (Dues and Penalties 2, 7-9); a pocketed striker adds one due.",
		"Covering the Queen 31 gives one demandable point for a proper or an improper stroke, as written.",
		"Board endings the laws do not list (for example both last men with the striker while the queen is on the board) are decided by analogy with the nearest listed rule; the finish table marks them.",
		"The loser's men counted for the board are those lying on the board after the stroke, plus men taken out and not yet placed.",
		"A board lost for conduct (Dues and Penalties 31; General Rules 8, 24) or conceded (General Rules 40) scores the loser's men plus the queen's value when the queen is lying on the board (not covered, not awaiting cover).",
		"A match is one game of 29 points; a best-of-three match is three logs.",
		"Covering the Queen 1 and 6 are read together: the right to pocket and cover the queen comes with the first man of the player's side pocketed in the board and stays when every man pocketed has come back as a due or penalty (\"if after recovery of Due and/or penalty, all the nine C/m are on the C/B, a player shall have the right to pocket the Queen and to cover it\"); a queen pocketed while a due is still owed goes back (Covering the Queen 5). With all nine men on the board again, Covering the Queen 7 and 10 apply as written (\"when all his nine C/m are on the C/B\"): the queen with the striker loses the turn, the queen with one man must be covered next.",
		"General Rules 22 (an opponent's man pocketed unnoticed) is written on that stroke: \"unnoticed\". The man stays pocketed as properly pocketed and the player plays on, his turn going on and ending as usual, until a \"noticed\" line ends it (\"the turn of the player shall be lost as and when noticed\"). Only a stroke whose turn would end on the opponent's man can be unnoticed: not one that is improper, pockets the striker or the opponents' last man, or would go on anyway.",
		"Dues and Penalties 18 (the placer's own man placed by mistake, unnoticed before the next stroke) is a placement line \"place b unnoticed\" (the man put down): it stays on the board, and the due man it stood for stays in the pocket, its placement done. Noticed, it is Dues and Penalties 17: \"place w !wrong_man_placed\".",
	},
}
