package referee_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/referee"
)

// docs/referee.md describes every foul the referee calls and its defaults.
func TestDocs(t *testing.T) {
	b, err := os.ReadFile("../docs/referee.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	// Every foul the camera judges (its description, package foul, has a
	// camera part) is described in the doc, and the referee calls it or
	// the engine derives it.
	for _, d := range foul.All() {
		if d.ByCamera() && !strings.Contains(doc, "`"+string(d.Code)+"`") {
			t.Errorf("docs/referee.md does not describe %s", d.Code)
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
