package referee_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// docs/referee.md describes every foul the referee calls and its defaults.
func TestDocs(t *testing.T) {
	b, err := os.ReadFile("../docs/referee.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	called := []rules.Foul{
		rules.FoulPlacement, rules.FoulCutMoon, rules.FoulArrow, rules.FoulWrongSide, rules.FoulBackwardFlick,
		rules.FoulBehindLineFirst, rules.FoulHandOverFoulLine, rules.FoulNoContact, rules.FoulAdjacentArrowCoin,
		rules.FoulRedCircleCoin, rules.FoulOpponentCoinOnly, rules.FoulLastTwoDirectHit, rules.FoulTouchedPiece,
		rules.FoulStoppedStriker, rules.FoulStrikerPocketed, rules.FoulStrikerOverboard, rules.FoulPieceOverboard,
		rules.FoulDueOutsideOuterCircle, rules.FoulDueOnCentreCircle, rules.FoulWrongManPlaced,
		rules.FoulPlacementDisturbed, rules.FoulBreakFailed, rules.FoulOpponentPocketed,
		rules.FoulOpponentFinalPiece, rules.FoulFinalPieceEarly,
	}
	for _, f := range called {
		if !strings.Contains(doc, "`"+string(f)+"`") {
			t.Errorf("docs/referee.md does not describe %s", f)
		}
	}
	// Every camera foul of every profile is either called by the referee,
	// derived by the engine alone, or left to the umpire on purpose.
	umpire := map[rules.Foul]bool{rules.FoulPlacementTimeout: true, rules.FoulDueUsedForQueen: true}
	for _, p := range rules.Profiles() {
		for _, f := range p.CameraFouls() {
			known := umpire[f]
			for _, c := range called {
				known = known || c == f
			}
			if !known {
				t.Errorf("profile %s lets the camera judge %s, which the referee does not call", p.Name, f)
			}
		}
	}
	for _, row := range []string{
		fmt.Sprintf("| `Tolerance` | %g mm |", referee.DefaultTolerance),
		fmt.Sprintf("| `TimeTolerance` | %g s |", referee.DefaultTimeTolerance),
		fmt.Sprintf("| `ArmFoulWindow` | %g s |", referee.DefaultArmFoulWindow),
		fmt.Sprintf("| `PlacingWindow` | %g s |", referee.DefaultPlacingWindow),
	} {
		if !strings.Contains(doc, row) {
			t.Errorf("docs/referee.md lacks %q", row)
		}
	}
}
