package hardware_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The panel drivers speak digits (display/segment) and satisfy
// display.Panel without importing display, so a driver never links the
// scoreboard model or the rules. go list reads only the import graph
// (about a second).
func TestDriversAreLeaves(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "./max7219", "./ht16k33").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/boardcam/boardcam/") && !strings.HasPrefix(p, "github.com/boardcam/boardcam/hardware/") &&
			p != "github.com/boardcam/boardcam/display/segment" {
			t.Errorf("a panel driver imports %s", p)
		}
	}
}
