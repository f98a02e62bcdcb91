package corpus

import (
	"testing"

	"github.com/boardcam/boardcam/render"
)

// The hunt's specs (testdata/hunt, scripts/hunt.sh: clips rendered outside
// the repository to look for runs that end wrong without a word) still
// simulate, and show what their expect: says, so that the hunt can be run
// again as it was.
func TestHuntSpecsSimulate(t *testing.T) {
	specs, err := LoadDir("../testdata/hunt")
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) < 30 {
		t.Errorf("%d hunt specs, want the 30 or more of the hunt", len(specs))
	}
	for _, sp := range specs {
		s, err := Simulate(sp, render.BeyondFoulLine)
		if err != nil {
			t.Errorf("%s: %v", sp.Name, err)
			continue
		}
		if err := s.Verify(); err != nil {
			t.Error(err)
		}
	}
}
