package rules

import "time"

// This file is the four-break profile: four-break-queen-3.md. Its paragraphs
// are cited by heading and position: Example (the worked example of the
// point system: 1st Break, 2nd Break, 4 Breaks, 1 Hour), Dues 1-3, Queen
// 1-25 (the paragraphs of the QUEEN section in order).

var fourBreak = &Profile{
	Name:        "four-break",
	Title:       "Four breaks, queen worth 3",
	Document:    "four-break-queen-3.md",
	QueenValue:  3,
	QueenCutoff: 22,
	Formats: []Format{{Name: "four-breaks", Kind: FixedBoards, Boards: 4, TimeLimit: time.Hour,
		Ref: "four-break: Example (4 Breaks, 1 Hour)"}},
	Direction:                    Anticlockwise,
	BreakAttempts:                3,
	DueTiming:                    AfterStroke,
	DuePlacer:                    "the next player (Dues 1-3)",
	Penalty:                      PenaltyICF,
	QueenRules:                   QueenICF,
	ReturnOwnOnFoul:              true,
	ReturnOwnWithStriker:         true,
	QueenStrikerAllNineLosesTurn: true,
	Demands:                      true,
	Fouls:                        foulRules("four-break", "four-break-queen-3.md", boardLoss),
	Finish: func() []FinishRule {
		const win, lose = true, false
		const own, opp, both = 1, 2, 3
		fb := func(ref string, last int, q QueenSituation, s, imp Tri, w bool, a, c Award, d int) FinishRule {
			return finish("four-break: "+ref, last&1 != 0, last&2 != 0, q, s, imp, w, a, c, d)
		}
		ic := func(ref string, last int, q QueenSituation, s, imp Tri, w bool, a, c Award, d int) FinishRule {
			return finish(icfFallbackRef("Covering the Queen "+ref), last&1 != 0, last&2 != 0, q, s, imp, w, a, c, d)
		}
		return []FinishRule{
			fb("Queen 13", both, QCovering, No, No, win, awardQueen, awardOne, 0),
			ic("20", both, QCovering, No, Yes, lose, awardQueen, awardOne, 1),
			fb("Queen 15", both, QPocketed, No, No, win, awardQueen, awardOne, 0),
			ic("24", both, QPocketed, No, Yes, lose, awardQueen, awardOne, 1),
			fb("Queen 16", both, QOnBoard, No, No, lose, awardQueen, awardOne, 0),
			ic("26", both, QOnBoard, No, Yes, lose, awardQueen, awardOne, 1),
			fb("Queen 20", both, QPocketed, Yes, No, lose, awardQueen, awardTwo, 0),
			ic("33", both, QPocketed, Yes, Yes, lose, awardQueen, awardOne, 2),
			fb("Queen 21", both, QCoveredSelf, Yes, No, lose, awardTwo, awardTwo, 0),
			ic("35", both, QCoveredSelf, Yes, Yes, lose, awardOne, awardOne, 2),
			fb("Queen 23", both, QCoveredOpp, Yes, No, lose, awardQueen, awardTwo, 0),
			ic("39", both, QCoveredOpp, Yes, Yes, lose, awardQueen, awardOne, 2),
			analogy(fb("Queen 16, 19", both, QOnBoard, Yes, No, lose, awardQueen, awardTwo, 0)),
			analogy(ic("26, 31", both, QOnBoard, Yes, Yes, lose, awardQueen, awardOne, 2)),
			analogy(fb("Queen 20", both, QCovering, Yes, No, lose, awardQueen, awardTwo, 0)),
			analogy(ic("33", both, QCovering, Yes, Yes, lose, awardQueen, awardOne, 2)),
			analogy(fb("Queen 21", both, QCoveredSelf, No, No, lose, awardOne, awardOne, 0)),
			analogy(ic("35", both, QCoveredSelf, No, Yes, lose, awardOne, awardOne, 1)),
			analogy(fb("Queen 23", both, QCoveredOpp, No, No, lose, awardQueen, awardOne, 0)),
			analogy(ic("39", both, QCoveredOpp, No, Yes, lose, awardQueen, awardOne, 1)),
			fb("Queen 14", opp, QCovering, No, No, lose, awardMenQ, awardMen, 0),
			ic("22", opp, QCovering, No, Yes, lose, awardMenQ, awardMen, 1),
			fb("Queen 17", opp, QOnBoard, No, No, lose, awardMenQ, awardMen, 0),
			ic("28", opp, QOnBoard, No, Yes, lose, awardMenQ, awardMen, 1),
			fb("Queen 22", opp, QOnBoard, Yes, No, lose, awardMenQ, awardMenOne, 0),
			ic("37", opp, QOnBoard, Yes, Yes, lose, awardMenQ, awardMen, 2),
			analogy(fb("Queen 14", opp, QPocketed, No, No, lose, awardMenQ, awardMen, 0)),
			analogy(ic("22", opp, QPocketed, No, Yes, lose, awardMenQ, awardMen, 1)),
			analogy(fb("Queen 22", opp, QPocketed|QCovering, Yes, No, lose, awardMenQ, awardMenOne, 0)),
			analogy(ic("37", opp, QPocketed|QCovering, Yes, Yes, lose, awardMenQ, awardMen, 2)),
			analogy(fb("Example; Queen 17", opp, QCoveredSelf|QCoveredOpp, No, No, lose, awardMenQWin, awardMen, 0)),
			analogy(ic("28", opp, QCoveredSelf|QCoveredOpp, No, Yes, lose, awardMenQWin, awardMen, 1)),
			analogy(fb("Example; Queen 22", opp, QCoveredSelf|QCoveredOpp, Yes, No, lose, awardMenQWin, awardMenOne, 0)),
			analogy(ic("37", opp, QCoveredSelf|QCoveredOpp, Yes, Yes, lose, awardMenQWin, awardMen, 2)),
			fb("Queen 18", own, QOnBoard, No, No, lose, awardQueen, awardOne, 0),
			ic("30", own, QOnBoard, No, Yes, lose, awardQueen, awardOne, 1),
			fb("Queen 19", own, QOnBoard, Yes, Either, lose, awardQueen, awardTwo, 0),
		}
	}(),
	PlainFinish: "four-break: Example (1st Break, 2nd Break)",
	Refs: map[string]string{
		"dues":               "four-break: Dues 1-3",
		"dues.placer":        "four-break: Dues 1-3 (removed by the next player)",
		"queen":              "four-break: Queen 1-12",
		"format.four-breaks": "four-break: Example (4 Breaks, 1 Hour)",
		"time":               "four-break: Example (1 Hour)",
	},
	Notes: []string{
		"The match is four breaks (boards); the side with the most points after four wins (Example). When an hour is up before that, the umpire writes \"time\": the side with the most points then wins, the board in play is not counted (Example, 1 Hour).",
		"Ties are not covered by the document: the side with more boards won wins; if still level, play goes on and the next board decides.",
		"The board-ending paragraphs (Queen 13-23) do not say \"proper stroke\"; they are read as the proper-stroke cases of the ICF rules they were copied from. Improper strokes fall back to the ICF rules (Covering the Queen 20, 22, 24 …), with this document's queen value and cut-off and the ICF \"if demanded\" points. Queen 19 (last man with the striker, queen on the board) applies to proper and improper strokes, like ICF 31.",
		"With the striker pocketed, this document includes the extra point automatically (Queen 19-23: \"inclusive of 1 additional point for the pocketed striker\"), and only where it says so: below the cut-off Queen 19, 20, 22 and 23 give 3 or the men plus the queen, with no extra point; Queen 21 gives 2 always.",
		"Dues 1-3 (striker alone: one piece, turn passes; with one or two of the player's men: those men plus one, re-chance) are ICF Dues and Penalties 1 and 4; the striker with an opponent's man follows ICF Dues and Penalties 5 (fallback).",
		"Due pieces are placed by the next player (Dues 1-3), as ICF Dues and Penalties 11; the queen by the umpire (Queen 2).",
		"The example scores 8 (5 men + 3 for the queen) and 3 (3 men; the queen covered by the losers earns nothing); this is the plain finish of ICF Game 3 with a queen worth 3.",
		"Failed breaks, fouls, overboard pieces, turn order and everything else not in the document follow the ICF profile.",
		"Queen 1 and 5 are read as ICF Covering the Queen 1 and 6: a man pocketed and taken back as a due still gives the right to pocket and cover the queen (\"if after recovery of Due, all the nine C/m are on the C/B, a player shall have the right to pocket the Queen and to cover it\"); with all nine on the board, Queen 6 and 8 apply as written.",
		"Unnoticed mistakes follow ICF: an opponent's man pocketed unnoticed (General Rules 22: \"unnoticed\" on the stroke, \"noticed\" when the turn is stopped), the wrong man placed unnoticed (Dues and Penalties 18: \"place b unnoticed\"), a queen left uncovered unnoticed (Covering the Queen 8: \"cover\").",
	},
}
