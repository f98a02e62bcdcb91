package rules

import "testing"

// TestTeam3Board checks the rules of team-event-3-board.md that affect
// turns, dues, the queen or the score. Names are
// team-3board/<Section>/<number>.
func TestTeam3Board(t *testing.T) { runRuleCases(t, "team-3board", team3BoardCases) }

var team3BoardCases = []ruleCase{
	// General Rules.
	{"team-3board/GeneralRules/2", "breaking", "S - nobreak", "turn=S attempts=1 breaking=true"},
	{"team-3board/GeneralRules/2/three-tries", "breaking attempts=2", "S - nobreak", "turn=N breaking=true fouls="},
	{"team-3board/GeneralRules/3", "w=5", "S - !placement", "w.await=1 turn=N"},
	{"team-3board/GeneralRules/4", "w=5", "S - !cut_moon", "w.await=1 turn=N"},
	{"team-3board/GeneralRules/5", "w=5", "S - !placement", "placer=N"},
	{"team-3board/GeneralRules/5/outside-circle", "w=5", "S s; place w !due_outside_outer_circle", "w=6 b.owed=1 turn=N"},
	{"team-3board/GeneralRules/6/thumb", "w=5", "S - !thumbing", "w.await=1 turn=N"},
	{"team-3board/GeneralRules/6/backshot", "w=5", "S - !backward_flick", "w.await=1 turn=N"},
	{"team-3board/GeneralRules/7", "w=5", "S - !no_contact", "w.await=1 turn=N"},
	{"team-3board/GeneralRules/8", "w=5", "S - !adjacent_arrow_coin", "w.await=1 turn=N"},
	{"team-3board/GeneralRules/9", "w=5", "S - !red_circle_coin", "w.await=1 turn=N"},

	// Special Note for 3 board rounds.
	{"team-3board/3BoardNote/1/fifteen-wins", "w=1 b=6 q=covered:0 score=6-2", "S w", "result=0:11 score=17-2 over=0"},
	{"team-3board/3BoardNote/1/most-points-after-three", "boards=1-1 score=6-10 w=1 b=2 q=covered:1", "S w", "result=0:2 score=8-10 over=1"},
	{"team-3board/3BoardNote/1/goes-on", "boards=1-0 score=6-0 w=1 b=2 q=covered:1", "S w", "score=8-0 over=no board=3"},
	{"team-3board/3BoardNote/2", "boards=1-1 score=5-10 w=1 b=5 q=covered:1", "S w", "score=10-10 over=0"},

	// Points.
	{"team-3board/Points/1", "w=1 b=3 q=covered:0", "S w", "result=0:8"},
	{"team-3board/Points/2", "w=1 b=3 q=covered:1", "S w", "result=0:3"},
	{"team-3board/Points/3", "w=3 b=1", "S b", "result=1:8 rule=Points_3"},
	// Points 3, 4 and 7 state no cut-off: 5 points at 23 or more too.
	{"team-3board/Points/3/no-cutoff", "w=3 b=1 score=0-23 format=points-29", "S b", "result=1:8 rule=Points_3"},
	{"team-3board/Points/4", "w=1 b=4", "S w", "result=1:5 rule=Points_4"},
	{"team-3board/Points/4/with-striker", "w=1 b=4", "S ws", "result=1:5 rule=Points_4 demand=0"},
	{"team-3board/Points/4/no-cutoff", "w=1 b=4 score=0-25 format=points-29", "S w", "result=1:5 rule=Points_4"},
	{"team-3board/Points/5/opponent-covered", "w=3 b=1 q=covered:1", "S b", "result=1:8 rule=Points_5"},
	{"team-3board/Points/5/self-covered", "w=3 b=1 q=covered:0", "S b", "result=1:3 rule=Points_5"},
	{"team-3board/Points/6", "w=1 b=3 q=covered:0", "S w", "result=0:8 rule=Points_2,_6"},
	{"team-3board/Points/6/opponent-covered", "w=1 b=3 q=covered:1", "S w", "result=0:3"},
	{"team-3board/Points/7", "w=1 b=1", "S wb", "result=1:5 rule=Points_7"},
	{"team-3board/Points/7/covered-by-player", "w=1 b=1 q=covered:0", "S wb", "result=1:5 rule=Points_7"},
	{"team-3board/Points/7/no-cutoff", "w=1 b=1 score=0-24 format=points-29", "S wb", "result=1:5 rule=Points_7"},
	{"team-3board/Points/5/cutoff-23", "w=3 b=1 q=covered:1 score=0-23 format=points-29", "S b", "result=1:3 rule=Points_5"},
	{"team-3board/Points/8", "w=1 b=1 q=cover:0", "S wb", "result=0:5 rule=Points_8"},
	{"team-3board/Points/8/queen-same-stroke", "w=1 b=1", "S wbq", "result=0:5 rule=Points_8"},
	{"team-3board/Points/8/cutoff-23", "w=1 b=1 q=cover:0 score=23-0 format=points-29", "S wb", "result=0:1"},
	{"team-3board/Points/9", "w=1 b=1 q=cover:0", "S wb !push", "result=1:5 rule=Points_9"},
	{"team-3board/Points/9/cutoff-23", "w=1 b=1 q=cover:0 score=0-23 format=points-29", "S wb !push", "result=1:1"},

	// Special Note for games of 29 points.
	{"team-3board/29PointNote/1", "format=points-29 w=1 b=4 q=covered:0 score=20-0", "S w", "score=29-0 over=0"},
	{"team-3board/29PointNote/1/fifteen-is-not-enough", "format=points-29 w=1 b=4 q=covered:0 score=10-0", "S w", "score=19-0 over=no"},
	{"team-3board/29PointNote/2", "format=points-29 w=1 b=4 q=covered:0 score=23-0", "S w", "result=0:4"},
	{"team-3board/29PointNote/2/below", "format=points-29 w=1 b=4 q=covered:0 score=22-0", "S w", "result=0:9"},

	// Break and Turn of Play.
	{"team-3board/BreakAndTurnOfPlay/1", "breaking attempts=1", "S - nobreak", "turn=S attempts=2"},
	{"team-3board/BreakAndTurnOfPlay/1/third", "breaking attempts=2", "S - nobreak", "turn=N attempts=0 breaking=true"},
	{"team-3board/BreakAndTurnOfPlay/2", "doubles", "S -", "turn=E"},
	{"team-3board/BreakAndTurnOfPlay/3", "doubles w=1 b=3 q=covered:0", "S w", "board=2 turn=E white=1 breaking=true"},

	// Sink.
	{"team-3board/Sink/1/striker", "w=7", "S s", "w.await=1 turn=N"},
	{"team-3board/Sink/1/with-own-coin", "w=7", "S ws", "w=6 w.owed=2 w.await=0 turn=S"},
	{"team-3board/Sink/1/with-own-coin-end-of-turn", "w=7", "S ws; S -", "w=6 w.owed=0 w.await=2 turn=N"},
	{"team-3board/Sink/1/with-opponent-coin", "w=7", "S bs", "w.await=1 b=8 turn=N"},
	{"team-3board/Sink/2", "w=7", "S qs", "q=out w.owed=1 turn=S"},
	{"team-3board/Sink/2/none-pocketed-yet", "", "S qs", "q=out w.owed=1 turn=S"},
	{"team-3board/Sink/3", "w=7 q=cover:0", "S ws", "q=cover:0 w.owed=2 turn=S"},
	{"team-3board/Sink/3/not-covered-next", "w=7 q=cover:0", "S ws; S -", "q=out w.await=2 turn=N"},
	{"team-3board/Sink/3/covered-next", "w=7 q=cover:0", "S ws; S w", "q=covered:0 turn=S"},
	{"team-3board/Sink/4", "", "S s", "w.owed=1 turn=N"},
	{"team-3board/Sink/4/placed-by-opponent", "w=7", "S s", "placer=N"},
	{"team-3board/Sink/5", "w=8", "S wb", "turn=N w=7 b=8"},
	{"team-3board/Sink/5/unnoticed", "w=8", "S wb unnoticed; S w", "turn=S w=6 b=8"},
	{"team-3board/Sink/5/noticed", "w=8", "S wb unnoticed; noticed", "turn=N w=7 b=8"},

	// Queen.
	{"team-3board/Queen/1", "w=1 b=2 q=covered:1", "S w", "result=0:2"},
	{"team-3board/Queen/2", "w=8", "S wq", "q=covered:0 turn=S"},
	{"team-3board/Queen/3", "w=8 q=cover:0", "S b", "q=covered:1 turn=N"},
	{"team-3board/Queen/3/same-stroke", "w=8", "S bq", "q=covered:1 turn=N"},
	{"team-3board/Queen/4", "w=8 b=8 q=cover:0", "S wb", "q=covered:0 turn=N"},
	{"team-3board/Queen/6", "w=8", "S q", "q=cover:0 turn=S"},
	{"team-3board/Queen/6/not-covered", "w=8", "S q; S -", "q=out turn=N"},
	{"team-3board/Queen/7", "", "S wq", "q=covered:0 turn=S"},
	{"team-3board/Queen/7/not-claimed", "", "S q", "q=out turn=N"},
	{"team-3board/Queen/7/recovered-due", "", "S w; S s; N -; S q", "q=cover:0 turn=S w=9"},
	{"team-3board/Queen/7/recovered-due-covered", "", "S w; S s; N -; S q; S w", "q=covered:0 turn=S w=8"},
	{"team-3board/Queen/due-against/fallback-icf-5", "w.owed=1", "S wq", "q=out turn=N w.await=1"},

	// Jump.
	{"team-3board/Jump/1", "w=7", "S off:b", "b=9 w.await=1 turn=N fouls=piece_overboard"},
	{"team-3board/Jump/1/turn-goes-on", "w=7", "S w off:b", "w.owed=1 turn=S"},
	{"team-3board/Jump/1/queen", "w=7", "S off:q", "q=on w.await=1 turn=N"},
	{"team-3board/Jump/2", "w=7", "S off:s", "w.await=1 turn=N fouls=striker_overboard"},

	// Additional Rules.
	{"team-3board/AdditionalRules/1", "w=5", "S - !touched_piece", "w.await=1 turn=N"},
	{"team-3board/AdditionalRules/2", "b=7", "foul N touched_piece", "b.owed=1 turn=S"},
	{"team-3board/AdditionalRules/2/taken-after-turn", "b=7", "foul N touched_piece; S -", "b.await=1 placer=S turn=N"},
	{"team-3board/AdditionalRules/3", "w=5", "S - !touched_piece", "w.await=1"},
	{"team-3board/AdditionalRules/4", "w=5", "S - !stopped_striker", "w.await=1 turn=N"},
	{"team-3board/AdditionalRules/5", "w=5", "S - !opponent_coin_only", "w.await=1 turn=N"},
	{"team-3board/AdditionalRules/6", "w=1 b=5 q=cover:0", "S - !last_two_direct_hit", "w.await=1 q=out turn=N"},
	{"team-3board/AdditionalRules/7", "w=5 b=1 q=on", "S - !last_two_direct_hit", "w.await=1 turn=N"},
	{"team-3board/AdditionalRules/8", "", "S - !no_contact", "w.owed=1 turn=N"},
	{"team-3board/AdditionalRules/9", "w=5", "S s !push", "w.await=2 turn=N"},
	{"team-3board/AdditionalRules/9/three", "w=5", "S s !push !placement", "w.await=3 turn=N"},
	{"team-3board/AdditionalRules/9/jumps", "w=5", "S off:wb", "w.await=2 turn=N"},
	{"team-3board/AdditionalRules/10", "w=7", "S ws; S w", "w=5 w.owed=2 w.await=0 turn=S"},
	{"team-3board/AdditionalRules/10/place-early", "w=7", "S ws; place ww", "err=end_of_the_turn"},
	{"team-3board/AdditionalRules/10/no-coin-left", "w=2", "S ws; S w", "w=0 w.owed=0 w.await=2 turn=S nofinish"},
	{"team-3board/Fallback/icf-dues-8", "w=7", "S w !push", "w=6 w.await=2 turn=N"},
}
