package rules

import "testing"

// TestJamshedpur checks the rules of jamshedpur-regional-2023.md; names
// are jamshedpur/<Section>/<position>.
func TestJamshedpur(t *testing.T) { runRuleCases(t, "jamshedpur", jamshedpurCases) }

var jamshedpurCases = []ruleCase{
	{"jamshedpur/Objective/clear-after-cover", "w=1 b=4 q=covered:0", "S w", "result=0:9"},
	{"jamshedpur/Objective/no-win-before-cover", "w=1 b=4", "S w", "result=1:5 rule=icf:_Covering_the_Queen_29_(fallback)"},

	{"jamshedpur/Striking/1", "w=5", "S - !wrong_side", "w.await=1 turn=N"},
	{"jamshedpur/Striking/2", "w=5", "S - !placement", "w.await=1 turn=N"},
	{"jamshedpur/Striking/3", "w=5", "S - !backward_flick", "w.await=1 turn=N"},
	{"jamshedpur/Striking/4", "w=5", "S - !behind_line_first", "w.await=1 turn=N"},
	{"jamshedpur/Striking/5", "w=5", "S - !hand_over_foul_line", "w.await=1 turn=N"},
	{"jamshedpur/Striking/cut-moon-fallback", "w=5", "S - !cut_moon", "w.await=1 turn=N"},

	{"jamshedpur/CoveringTheQueen/1", "", "S q", "q=held turn=S"},
	{"jamshedpur/CoveringTheQueen/1/recovered-penalty", "", "S w; S - !push; N -; S q", "q=cover:0 turn=S w=9"},
	{"jamshedpur/CoveringTheQueen/1/recovered-penalty-covered", "", "S w; S - !push; N -; S q; S w", "q=covered:0 turn=S w=8"},
	{"jamshedpur/CoveringTheQueen/2", "", "S q; S -", "q=out turn=N"},
	{"jamshedpur/CoveringTheQueen/3", "w=8", "S wq", "q=covered:0 turn=S"},
	{"jamshedpur/CoveringTheQueen/3/next-stroke", "w=8", "S q; S w", "q=covered:0"},
	{"jamshedpur/CoveringTheQueen/4", "w=8", "S q; S -", "q=out turn=N"},

	{"jamshedpur/Fouls/turn-ends", "w=5", "S w !touched_piece", "w=4 w.await=1 turn=N"},
	{"jamshedpur/Fouls/1", "w=5", "S s", "w.await=1 turn=N fouls=striker_pocketed"},
	{"jamshedpur/Fouls/2", "w=5", "S off:s", "w.await=1 turn=N fouls=striker_overboard"},
	{"jamshedpur/Fouls/2/piece", "w=5", "S off:q", "q=on w.await=1 turn=N fouls=piece_overboard"},
	{"jamshedpur/Fouls/3", "w=5 b=5", "S b", "b=4 w.await=1 turn=N"},
	{"jamshedpur/Fouls/3/with-own", "w=5 b=5", "S wb", "b=4 w=4 w.await=1 turn=N"},
	{"jamshedpur/Fouls/3/unnoticed", "w=5 b=5", "S wb unnoticed; S w", "b=4 w=3 w.await=0 turn=S"},
	{"jamshedpur/Fouls/4", "w=5", "S - !push", "w.await=1 turn=N"},
	{"jamshedpur/Fouls/5", "w=5", "S - !touched_piece", "w.await=1 turn=N"},
	{"jamshedpur/Fouls/owed", "", "S s", "w.owed=1 turn=N"},
	{"jamshedpur/Fouls/owed/lost", "", "S s; N -; S w; S -; forfeit", "w.await=0 w.owed=0 w.p=1"},

	{"jamshedpur/Scoring/1-per-piece-5-queen", "w=1 b=4 q=covered:0", "S w", "result=0:9"},
	{"jamshedpur/Scoring/cutoff-fallback", "w=1 b=4 q=covered:0 score=24-0", "S w", "result=0:4"},
	{"jamshedpur/Scoring/opponents-queen", "w=1 b=4 q=covered:1", "S w", "result=0:4"},
	{"jamshedpur/Fixtures/29-points-fallback", "w=1 b=4 q=covered:0 score=20-0", "S w", "over=0"},

	// ICF endings (fallback); pocketing the opponent's piece is improper here.
	{"jamshedpur/ICF/27-28", "w=3 b=1", "S b", "result=1:8 rule=Covering_the_Queen_28 demand=1"},
	{"jamshedpur/ICF/20", "w=1 b=1 q=cover:0", "S wb", "result=1:5 rule=Covering_the_Queen_20"},
	{"jamshedpur/ICF/31", "w=1 b=4", "S ws", "result=1:5 rule=Covering_the_Queen_31 demand=1"},
	{"jamshedpur/ICF/35", "w=1 b=1 q=covered:0", "S wbs", "result=1:1 rule=Covering_the_Queen_35 demand=2"},
	{"jamshedpur/Doubles/anticlockwise-fallback", "doubles", "S -", "turn=E"},
}
