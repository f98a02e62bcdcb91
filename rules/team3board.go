package rules

// This file is the team-3board profile: team-event-3-board.md. Sections are
// cited by their headings: General Rules, Special Note for 3 board rounds
// ("3-Board Note"), Points, Special Note for games of 29 points ("29-Point
// Note"), Break and Turn of Play, Sink, Queen, Jump, Additional Rules.

var team3Board = &Profile{
	Name:        "team-3board",
	Title:       "Team event, 3 boards (29 points in semi-finals and finals)",
	Document:    "team-event-3-board.md",
	QueenValue:  5,
	QueenCutoff: 23,
	Formats: []Format{
		{Name: "three-boards", Kind: BoardsOrTarget, Target: 15, Boards: 3, Ref: "team-3board: 3-Board Note 1, 2"},
		{Name: "points-29", Kind: PointsTarget, Target: 29, Ref: "team-3board: 29-Point Note 1"},
	},
	Direction:            Anticlockwise,
	BreakAttempts:        3,
	DueTiming:            EndOfTurn,
	DuePlacer:            "the opponent (General Rules 5; Sink 4); in doubles the next player, as ICF Dues and Penalties 11",
	Penalty:              PenaltyFines,
	QueenRules:           QueenTeam,
	StrikerJumpFoul:      true,
	PieceJumpFoul:        true,
	OpponentManEndsTurn:  true,
	ReturnOwnOnFoul:      true,
	ReturnOwnWithStriker: true,
	FoulsCalledByPlayers: true,
	Fouls: foulRules("team-3board", "team-event-3-board.md", map[Foul]FoulEffect{
		FoulStrikerOverboard: EffectFine, FoulPieceOverboard: EffectFine,
		FoulBoardDisturbed: EffectBoard, FoulGotUp: EffectBoard, FoulAppealViolation: EffectBoard,
	}),
	Finish: func() []FinishRule {
		const win, lose = true, false
		t := func(ref string, own, opp bool, q QueenSituation, s, imp Tri, w bool, a, c Award) FinishRule {
			return finish("team-3board: "+ref, own, opp, q, s, imp, w, a, c, 0)
		}
		return []FinishRule{
			t("Points 8", true, true, QCovering|QPocketed, No, No, win, awardQueen, awardOne),
			t("Points 9", true, true, QCovering|QPocketed, No, Yes, lose, awardQueen, awardOne),
			// Points 3, 4 and 7 state no cut-off (only Points 8 and 9 do), and
			// their 5 points are not the credit for covering the queen that
			// the 29-Point Note 2 takes away: they are given in full.
			t("Points 7", true, true, QAny, Either, Either, lose, awardQueen, awardQueen),
			t("Points 3", false, true, QOnBoard, Either, Either, lose, awardMenQ, awardMenQ),
			t("Queen 3; Points 5", false, true, QPocketed|QCovering, Either, Either, lose, awardMenQ, awardMen),
			t("Points 5", false, true, QCoveredSelf|QCoveredOpp, Either, Either, lose, awardMenQWin, awardMen),
			t("Points 4", true, false, QOnBoard, Either, Either, lose, awardQueen, awardQueen),
		}
	}(),
	PlainFinish: "team-3board: Points 2, 6; Queen 1",
	Refs: map[string]string{
		"turn":                "team-3board: Sink 1, 5; Queen 3",
		"turn.order":          "team-3board: Break and Turn of Play 2",
		"break":               "team-3board: General Rules 2; Break and Turn of Play 1, 3",
		"dues":                "team-3board: Sink 1-4; General Rules 5; Additional Rules 8-10",
		"dues.placer":         "team-3board: General Rules 5; Sink 4",
		"queen":               "team-3board: Queen 1-7; Sink 2, 3",
		"format.three-boards": "team-3board: 3-Board Note 1, 2",
		"format.points-29":    "team-3board: 29-Point Note 1, 2",
	},
	Notes: []string{
		"Two formats: three-boards (default; knockout rounds) and points-29 (semi-finals and finals); choose with a header line \"format points-29\".",
		"The queen cut-off is 23 (29-Point Note 2, Points 8, 9). In three-board games a side reaching 15 has already won, so it never applies there.",
		"Points 7 (no coins left: the opponent gets 5) applies to every stroke pocketing both last coins except the proper covering stroke of Points 8 and the improper one of Points 9.",
		"Points 3, 4 and 7 give their 5 points whatever the score: unlike Points 8 and 9 (\"If the score is 23 or more, he shall win by 1 point\") they state no cut-off, and the 29-Point Note 2 takes away only \"the credit of an additional 5 points for covering the Queen\", which these 5 points are not (the side that gets them did not cover the queen). The cut-off applies to the queen covered by the winner (Points 2, 5, 6) and to Points 8 and 9.",
		"Sink 1 is read as: striker with the player's own coin, two coins come up (the coin and a due) and he shoots again; striker with an opponent's coin, one coin comes up (the due) and he loses his turn.",
		"Sink 5 (sinking an opponent's piece loses the turn) applies even when the player's own coin went in too. If nobody notices and the player plays on, the stroke is written \"unnoticed\" and his turn goes on until \"noticed\" (ICF General Rules 22, fallback).",
		"Queen 7 is read as: with no coin of his own pocketed yet, the player claims the queen only by pocketing one of his coins in the same stroke; otherwise the queen goes back and the turn is lost (ICF Covering the Queen 4). A coin pocketed and since taken back as a due counts as pocketed (\"before pocketing any of your coin\" is past; ICF Covering the Queen 6, fallback): Queen 7 no longer applies and the queen may be pocketed and covered as Queen 6 says.",
		"Queen 3 also applies when the queen and an opponent's coin (and none of the player's) go in together: the opponents are credited with the cover and the player loses the turn.",
		"Fines add up (Additional Rules 9): a pocketed striker, each foul, each jumped piece and a jumped striker cost one coin each. Jumps (Jump 1, 2) are fines that do not end the turn (ICF General Rules 1); other fouls make the stroke improper: the turn ends and the player's own coins pocketed in it come up again (ICF Dues and Penalties 8).",
		"Dues are taken out after the player's turn (Additional Rules 10), or at once when the side has no coin left on the board.",
		"Sink 2 (queen with striker: queen back, one coin due, turn continues) applies even when none of the player's coins is pocketed yet.",
		"A queen pocketed while a due is outstanding goes back and the turn is lost (ICF Covering the Queen 5, fallback).",
		"The document gives no \"if demanded\" points.",
		"Fouls count only when a player calls them (Additional Rules 11): the referee should offer camera fouls to the umpire rather than apply them.",
	},
}
