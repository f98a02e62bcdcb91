package rules

import "testing"

// TestNITDelhi checks the rules of nit-delhi.md. Its bullets are not
// numbered: names are nit-delhi/<Section>/<position of the bullet>.
func TestNITDelhi(t *testing.T) { runRuleCases(t, "nit-delhi", nitDelhiCases) }

var nitDelhiCases = []ruleCase{
	{"nit-delhi/Preparation/breaker-plays-white", "w=1 b=3 q=covered:0", "S w", "board=2 turn=N white=1"},
	{"nit-delhi/Objective/no-win-before-cover", "w=1 b=4", "S w", "nofinish w=0 w.await=2 turn=N fouls=final_piece_early"},
	{"nit-delhi/Objective/win-after-cover", "w=1 b=4 q=covered:1", "S w", "result=0:4"},

	// Striking 1-6 (Fouls 6).
	{"nit-delhi/Striking/1", "w=5", "S - !wrong_side", "w.await=1 turn=N"},
	{"nit-delhi/Striking/2", "w=5", "S - !placement", "w.await=1 turn=N"},
	{"nit-delhi/Striking/3", "w=5", "S - !cut_moon", "w.await=1 turn=N"},
	{"nit-delhi/Striking/4", "w=5", "S - !backward_flick", "w.await=1 turn=N"},
	{"nit-delhi/Striking/4/push", "w=5", "S - !push", "w.await=1 turn=N"},
	{"nit-delhi/Striking/5", "w=5", "S - !behind_line_first", "w.await=1 turn=N"},
	{"nit-delhi/Striking/6", "w=5", "S - !hand_over_foul_line", "w.await=1 turn=N"},
	{"nit-delhi/Striking/own-piece-stays-pocketed", "w=5", "S w !placement", "w=4 w.await=1 w.p=5 turn=N"},
	{"nit-delhi/Striking/thumbing-not-a-foul", "", "S - !thumbing", "err=does_not_recognise"},

	// Basic Rules 1-4.
	{"nit-delhi/BasicRules/1", "breaking", "S - nobreak", "turn=S attempts=1"},
	{"nit-delhi/BasicRules/1/third", "breaking attempts=2", "S - nobreak", "turn=N breaking=true w.owed=1 fouls=break_failed"},
	{"nit-delhi/BasicRules/2", "", "S -", "turn=N fouls="},
	{"nit-delhi/BasicRules/3/own", "w=8", "S w", "turn=S"},
	{"nit-delhi/BasicRules/3/queen", "w=8", "S q", "turn=S q=cover:0"},
	{"nit-delhi/BasicRules/4", "w=8", "S - !push", "turn=N"},

	// Covering the Queen 1-4.
	{"nit-delhi/CoveringTheQueen/1", "", "S q", "q=held turn=S"},
	{"nit-delhi/CoveringTheQueen/1/recovered-penalty", "", "S w; S - !push; N -; S q", "q=cover:0 turn=S w=9"},
	{"nit-delhi/CoveringTheQueen/1/recovered-penalty-covered", "", "S w; S - !push; N -; S q; S w", "q=covered:0 turn=S w=8"},
	{"nit-delhi/CoveringTheQueen/2", "", "S q; S -", "q=out turn=N"},
	{"nit-delhi/CoveringTheQueen/2/placed-next-turn", "", "S q; S -; N -", "q=on turn=S"},
	{"nit-delhi/CoveringTheQueen/2/not-covered-in-turn", "", "S q; S w; S w", "q=held turn=S"},
	{"nit-delhi/CoveringTheQueen/2/not-before-end-of-turn", "", "S q; place q", "err=end_of_the_turn"},
	{"nit-delhi/CoveringTheQueen/3", "w=8", "S wq", "q=covered:0 turn=S"},
	{"nit-delhi/CoveringTheQueen/3/next-stroke", "w=8", "S q; S w", "q=covered:0 turn=S"},
	{"nit-delhi/CoveringTheQueen/3/must-have-pocketed", "", "S wq", "q=held turn=S"},
	{"nit-delhi/CoveringTheQueen/4", "w=8", "S q; S -", "q=out turn=N"},
	{"nit-delhi/CoveringTheQueen/foul-never-covers", "w=7 q=cover:0", "S w !push", "q=out w=6 w.await=1 turn=N"},

	// Fouls.
	{"nit-delhi/Fouls/penalty-by-opponent", "w=5", "S w !touched_piece", "w=4 w.await=1 placer=N turn=N"},
	{"nit-delhi/Fouls/1", "w=5", "S s", "w.await=1 turn=N fouls=striker_pocketed"},
	{"nit-delhi/Fouls/1/with-own-piece", "w=5", "S ws", "w=4 w.await=1 turn=N"},
	{"nit-delhi/Fouls/2/striker", "w=5", "S off:s", "w.await=1 turn=N fouls=striker_overboard"},
	{"nit-delhi/Fouls/2/piece", "w=5", "S w off:b", "w=4 b=9 w.await=1 turn=N fouls=piece_overboard"},
	{"nit-delhi/Fouls/3", "w=5 b=5", "S b", "b=4 w.await=1 turn=N fouls=opponent_pocketed"},
	{"nit-delhi/Fouls/3/queen-returned", "w=5", "S bq", "q=out b=8 turn=N"},
	{"nit-delhi/Fouls/3/others-stay-pocketed", "w=5", "S wbq", "q=out w=4 w.await=1 b=8 turn=N"},
	{"nit-delhi/Fouls/3/unnoticed", "w=8", "S b unnoticed", "turn=S b=8 w=8 w.owed=0 w.await=0 fouls="},
	{"nit-delhi/Fouls/3/unnoticed-noticed", "w=8", "S b unnoticed; S w; noticed", "turn=N b=8 w=7 w.await=0"},
	{"nit-delhi/Fouls/3/unnoticed-other-foul", "w=8", "S b off:w unnoticed", "err=the_turn_ends_anyway"},
	{"nit-delhi/Fouls/4", "w=5 b=1", "S b", "nofinish b=0 b.await=1 w.await=1 placer=N turn=N fouls=opponent_final_piece,opponent_pocketed"},
	{"nit-delhi/Fouls/4/queen-covered", "w=5 b=1 q=covered:0", "S b", "nofinish b.await=1 w.await=1"},
	{"nit-delhi/Fouls/5", "w=1 b=5", "S w", "nofinish w=0 w.await=2 turn=N fouls=final_piece_early"},
	{"nit-delhi/Fouls/5/covering-with-final-piece", "w=1 b=5 q=cover:0", "S w", "result=0:10"},
	{"nit-delhi/Fouls/5/both-final", "w=1 b=1", "S wb", "nofinish w.await=2 b.await=1"},
	{"nit-delhi/Fouls/6", "w=5", "S - !cut_moon", "w.await=1 turn=N"},
	{"nit-delhi/Fouls/7", "w=5", "S - !touched_piece", "w.await=1 turn=N"},
	{"nit-delhi/Fouls/8", "breaking attempts=2", "S - nobreak", "w.owed=1 turn=N fouls=break_failed"},
	{"nit-delhi/Fouls/owed", "", "S - !push", "w.owed=1 turn=N"},
	{"nit-delhi/Fouls/owed/end-of-turn", "", "S - !push; N -; S w", "w.owed=1 w.await=0 turn=S"},
	{"nit-delhi/Fouls/owed/returned-by-opponent", "", "S - !push; N -; S w; S -", "w.owed=0 w.await=1 placer=N turn=N"},
	{"nit-delhi/Fouls/owed/forgotten-lost", "", "S - !push; N -; S w; S -; forfeit", "w.owed=0 w.await=0 w.p=1"},
	{"nit-delhi/Fouls/owed/placed-if-not-forgotten", "", "S - !push; N -; S w; S -; N -", "w=9 w.p=0"},

	// Doubles, Scoring.
	{"nit-delhi/Doubles/clockwise", "doubles", "S -", "turn=W"},
	{"nit-delhi/Doubles/clockwise-2", "doubles turn=W", "W -", "turn=N"},
	{"nit-delhi/Doubles/break-rotates-clockwise", "doubles w=1 b=3 q=covered:0", "S w", "board=2 turn=W"},
	{"nit-delhi/Scoring/1", "w=1 b=4 q=covered:1", "S w", "result=0:4"},
	{"nit-delhi/Scoring/2", "w=1 b=4 q=covered:0", "S w", "result=0:9 rule=Scoring"},
	{"nit-delhi/Scoring/3", "w=1 b=4 q=covered:0 score=24-0", "S w", "result=0:4"},
	{"nit-delhi/Scoring/4/best-of-three", "boards=1-0 score=9-0 w=1 b=4 q=covered:0", "S w", "over=0"},
	{"nit-delhi/Scoring/4/not-on-points", "boards=0-1 score=30-0 w=1 b=4 q=covered:0", "S w", "over=no board=3"},
	{"nit-delhi/Scoring/4/decider", "boards=1-1 w=1 b=4 q=covered:1", "S w", "over=0"},
}
