package referee_test

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/referee"
)

func TestFoulAdjacentArrowCoin(t *testing.T) {
	// W1 lies on the SE arrow (the diagonal at 226 mm from the centre).
	tr := simulate(t, strikeScenario("W1: [160, 160], B1: [-200, -200]", "{side: S, at: -50, direction: at W1, speed: 1.5}"))
	d := only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events))
	c := findCall(t, d, foul.AdjacentArrowCoin)
	if c.Evidence.Marking != "arrow SE" || c.Evidence.Piece != "W1" || c.Rule != "team-event-3-board.md: General Rules 8" {
		t.Errorf("call %+v", c)
	}
	// team-3board's fouls count when a player calls them: offered.
	if c.Status != referee.Offered || !strings.Contains(c.Reason, "the striker hit W1 lying on the arrow SE at") {
		t.Errorf("status %s, reason %q", c.Status, c.Reason)
	}
	if c.Margin == nil || *c.Margin <= 0 {
		t.Errorf("margin %v: W1 lies on the arrow", c.Margin)
	}
	// The other pocket of S's side: the SW arrow.
	tr = simulate(t, strikeScenario("W1: [-160, 160], B1: [-200, -200]", "{side: S, at: 50, direction: at W1, speed: 1.5}"))
	d = only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events))
	if c := findCall(t, d, foul.AdjacentArrowCoin); c.Evidence.Marking != "arrow SW" {
		t.Errorf("SW: call %+v", c)
	}
	// The arrow of another side's corner (NE, for N and E) is not adjacent to S.
	tr = simulate(t, strikeScenario("W1: [160, -160], B1: [-200, -200]", "{side: S, at: -50, direction: at W1, speed: 1.5}"))
	d = only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events))
	if strings.Contains(calls(d), "adjacent_arrow_coin") {
		t.Errorf("NE arrow: %s", calls(d))
	}
	// A man off the arrow, on the same line of play: no foul.
	tr = simulate(t, strikeScenario("W1: [100, 160], B1: [-200, -200]", "{side: S, at: -50, direction: at W1, speed: 1.5}"))
	d = only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events))
	if strings.Contains(calls(d), "adjacent_arrow_coin") {
		t.Errorf("off the arrow: %s", calls(d))
	}
	// ICF has no such foul.
	tr = simulate(t, strikeScenario("W1: [160, 160], B1: [-200, -200]", "{side: S, at: -50, direction: at W1, speed: 1.5}"))
	if strings.Contains(calls(only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))), "adjacent_arrow_coin") {
		t.Error("icf calls adjacent_arrow_coin")
	}
}
