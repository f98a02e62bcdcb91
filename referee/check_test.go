package referee

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/foul"
)

// The registered checks run in the order of a stroke's facts: the flick,
// the arm, the contacts, the marking of the man hit, its colour, the last
// men. The order of a stroke's calls (and so of its decision) is the order
// the judge had when it called them from a fixed list.
func TestChecksRunInStrokeOrder(t *testing.T) {
	want := []foul.Code{foul.BackwardFlick, foul.BehindLineFirst, foul.HandOverFoulLine, foul.NoContact,
		foul.AdjacentArrowCoin, foul.RedCircleCoin, foul.OpponentCoinOnly, foul.LastTwoDirectHit}
	var got []string
	for _, x := range checks {
		got = append(got, string(x.code))
	}
	var ws []string
	for _, c := range want {
		ws = append(ws, string(c))
	}
	if strings.Join(got, " ") != strings.Join(ws, " ") {
		t.Errorf("checks run in order\n  %s\nwant\n  %s", strings.Join(got, " "), strings.Join(ws, " "))
	}
	for i := 1; i < len(checks); i++ {
		if checks[i].stage < checks[i-1].stage {
			t.Errorf("%s (stage %d) runs after %s (stage %d)", checks[i].code, checks[i].stage, checks[i-1].code, checks[i-1].stage)
		}
	}
}
