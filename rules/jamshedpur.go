package rules

// This file is the jamshedpur profile: jamshedpur-regional-2023.md. Its
// bullets are cited by heading and position: Objective (the opening
// paragraph), Striking 1-5, Covering the Queen 1-4, Other Rules 1, Fouls
// (opening paragraph), Fouls 1-5 (the list), Fouls, owed (closing
// paragraph), Scoring, Fixtures.

var jamshedpur = &Profile{
	Name:        "jamshedpur",
	Title:       "1st Regional Carrom Board Tournament, Jamshedpur 2023",
	Document:    "jamshedpur-regional-2023.md",
	QueenValue:  5,
	QueenCutoff: 24,
	Formats:     []Format{{Name: "points-29", Kind: PointsTarget, Target: 29, Ref: "icf: Game 3 (fallback: Fixtures are silent)"}},
	Direction:   Anticlockwise,
	// Three attempts and no foul: the document is silent, as is the ICF
	// text; the icf profile's convention is followed.
	BreakAttempts:     3,
	DueTiming:         EndOfTurn,
	DuePlacer:         "the opponent (Fouls); in doubles the next player, as ICF Dues and Penalties 11",
	Penalty:           PenaltyPerFoulStroke,
	QueenRules:        QueenTurn,
	StrikerPocketFoul: true,
	StrikerJumpFoul:   true,
	PieceJumpFoul:     true,
	OpponentManFoul:   true,
	Demands:           true,
	Fouls:             foulRules("jamshedpur", "jamshedpur-regional-2023.md", boardLoss),
	Finish:            icfFinish(icfFallbackRef),
	PlainFinish:       "jamshedpur: Objective; Scoring",
	Refs: map[string]string{
		"turn":         "jamshedpur: Objective; Fouls",
		"dues":         "jamshedpur: Fouls; Fouls, owed",
		"dues.placer":  "jamshedpur: Fouls (placed by the opponent)",
		"dues.forfeit": "jamshedpur: Fouls, owed (owed penalties lost if forgotten)",
		"queen":        "jamshedpur: Covering the Queen 1-4",
	},
	Notes: []string{
		"Fixtures are \"decided based on number of participants\": the match format falls back to ICF, one game of 29 points.",
		"Scoring (1 point per opponent's piece, 5 for the queen) has no cut-off; the ICF cut-off of 24 applies.",
		"The document lists no special board endings (last pieces with the queen on the board and so on); ICF Covering the Queen 19-39 apply, including \"if demanded\" points. Since pocketing an opponent's piece is a foul here (Fouls 3), every stroke pocketing the opponent's last piece is an improper stroke in those rules; a pocketed striker counts as the striker, not as impropriety.",
		"A foul costs one penalty piece per stroke and ends the turn (Fouls); pieces pocketed in a foul stroke stay pocketed, and a foul stroke never pockets the queen for the player (as in nit-delhi, whose foul paragraph is the same).",
		"Covering the Queen is read as in nit-delhi: the cover comes in the same stroke or the next; a queen pocketed before the player may cover it keeps the turn going and is returned at the end of the turn.",
		"The queen is returned by the umpire (Covering the Queen 4 does not say by whom; ICF Covering the Queen 2).",
		"Penalties are taken out at the end of the turn (Fouls, owed), or at once when the side has no piece left on the board; \"forfeit\" records that the opponent forgot to place them (they are lost).",
		"Doubles turns go anticlockwise (ICF Objective, fallback). The document is silent on failed breaks: three attempts, then the next player breaks, without a foul.",
		"Covering the Queen 1 (\"has already pocketed at least one piece\") counts a piece pocketed and since returned as a penalty, as ICF Covering the Queen 6 reads the same words of its Covering the Queen 1; while the penalties owed would take back every piece pocketed, the player may not pocket the queen yet (as ICF Covering the Queen 5).",
		"An opponent's piece pocketed unnoticed (the stroke written \"unnoticed\", ICF General Rules 22, fallback: the document is silent) counts as properly pocketed: no foul, no penalty, and the player plays on until \"noticed\" ends his turn.",
	},
}
