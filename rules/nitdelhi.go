package rules

// This file is the nit-delhi profile: nit-delhi.md. Its bullets are not
// numbered; they are cited by heading and position: Striking 1-6, Basic
// Rules 1-4, Covering the Queen 1-4, Other Rules 1-3, Fouls (the opening
// paragraph "Fouls", the list "Fouls 1-8", the closing paragraph "Fouls,
// owed"), Doubles, Scoring 1-4 (4 is the best-of-three note).

var nitDelhi = &Profile{
	Name:              "nit-delhi",
	Title:             "NIT Delhi rules and regulations",
	Document:          "nit-delhi.md",
	QueenValue:        5,
	QueenCutoff:       24,
	Formats:           []Format{{Name: "best-of-three", Kind: BestOf, Boards: 3, Ref: "nit-delhi: Scoring 4"}},
	Direction:         Clockwise,
	BreakAttempts:     3,
	BreakFailFoul:     true,
	DueTiming:         EndOfTurn,
	DuePlacer:         "the opponent (Fouls); in doubles the next player (clockwise)",
	QueenByOpponent:   true,
	Penalty:           PenaltyPerFoulStroke,
	QueenRules:        QueenTurn,
	StrikerPocketFoul: true,
	StrikerJumpFoul:   true,
	PieceJumpFoul:     true,
	OpponentManFoul:   true,
	FinalPieceFouls:   true,
	Fouls:             foulRules("nit-delhi", "nit-delhi.md", boardLoss),
	PlainFinish:       "nit-delhi: Objective; Scoring 1-3",
	Refs: map[string]string{
		"turn":                 "nit-delhi: Basic Rules 3, 4; Fouls",
		"turn.order":           "nit-delhi: Doubles",
		"break":                "nit-delhi: Preparation; Basic Rules 1, 2; Fouls 8",
		"dues":                 "nit-delhi: Fouls; Fouls, owed",
		"dues.placer":          "nit-delhi: Fouls (placed by the opponent)",
		"dues.forfeit":         "nit-delhi: Fouls, owed (owed penalties lost if forgotten)",
		"queen":                "nit-delhi: Covering the Queen 1-4; Fouls 3",
		"format.best-of-three": "nit-delhi: Scoring 4",
	},
	Notes: []string{
		"\"Best of three matches\" is read as the best of three boards: the first side to win two boards wins; points are still counted and shown.",
		"A foul costs one penalty piece per stroke, whatever the number of fouls in it, and ends the turn (Fouls).",
		"Pieces pocketed by a foul stroke stay pocketed (Fouls: the penalty is one pocketed piece; Fouls 3: \"any other pieces pocketed in the same strike remain pocketed\"), except the final pieces of Fouls 4 and 5, which are returned with the penalty.",
		"A foul stroke never pockets the queen for the player: a queen pocketed (or awaiting cover) in it is returned by the opponent, as Fouls 3 says for the opponent's piece.",
		"Covering the Queen 3 (\"the queen and one of her own pieces in the same turn\") is read with the Objective (\"immediately after\"): the cover must come in the same stroke or the next; the turn goes on after pocketing the queen, so the next stroke is always in the same turn.",
		"A queen pocketed before the player may cover it keeps the turn going and is returned at the end of the turn (Covering the Queen 2); it cannot be covered in that turn.",
		"Owed penalties are taken out at the end of the turn in which a piece becomes available (Fouls, owed), or at once when the side has no piece left on the board. Write \"forfeit\" when the opponent forgot to place them before the next turn: they are lost.",
		"The board is won only by clearing one's pieces after the queen is covered (Objective, Fouls 4, 5); the points are the opponent's pieces left plus 5 for a queen covered by the winner below 24 points (Scoring 1-3).",
		"Doubles turns go clockwise (Doubles); the break passes to the next player clockwise at every board (the document is silent; ICF's rotation to the next player is followed).",
		"A failed break attempt (three allowed, Basic Rules 1) is a stroke marked nobreak; after the third the turn passes with a foul (Fouls 8), whose penalty is owed as no piece is pocketed yet.",
		"The queen is returned by the opponent (Covering the Queen 4); due pieces anywhere in the main circle, by the opponent (Fouls).",
		"Covering the Queen 1 (\"has already pocketed at least one piece\") counts a piece pocketed and since returned as a penalty, as ICF Covering the Queen 6 reads the same words of its Covering the Queen 1; while the penalties owed would take back every piece pocketed, the player may not pocket the queen yet (as ICF Covering the Queen 5).",
		"An opponent's piece pocketed unnoticed (the stroke written \"unnoticed\", ICF General Rules 22, fallback: the document is silent) counts as properly pocketed: no foul, no penalty, and the player plays on until \"noticed\" ends his turn.",
	},
}
