package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// The example scenarios, with realistic detector errors: every event the
// referee uses must come out, in the right order, within a few frames of
// the simulator's exact truth, and no identity may change while at rest.
func TestScenarios(t *testing.T) {
	cases := []struct {
		file string
		// firstContact: check the striker's first contact (not on a
		// break, where the pack passes the impulse on within a frame).
		firstContact bool
	}{
		{"single-pocket.yaml", true},
		{"break.yaml", false},
		{"striker-pocketed.yaml", true},
		{"queen-covered.yaml", true},
		{"queen-returned.yaml", true},
		{"jump-overboard.yaml", false},
		{"dues-placed.yaml", true},
		{"hand-over-pocket.yaml", true},
		{"nudge.yaml", true},
		{"four-sides.yaml", false},
		{"arm-foul.yaml", true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			tr, err := sim.RunFile(scenarioPath(t, c.file), sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 3; seed++ {
				nz := trackertest.Realistic
				nz.Seed = seed
				r := runTrace(t, tr, nz, Config{})
				st := matchEvents(tr.Events, r.events, strict(tr.FPS))
				bad := false
				for _, s := range st {
					bad = bad || s.fp > 0 || s.fn > 0
				}
				if bad {
					t.Errorf("seed %d: events differ from the truth:\n%s", seed, statsReport(st))
				}
				if r.switches > 0 {
					t.Errorf("seed %d: %d identity switches at rest (%d checks): %v", seed, r.switches, r.restChecks, r.switchLog)
				}
				if c.firstContact {
					want := firstContacts(tr.Events, func(s string) string { return s })
					got := firstContacts(r.mapped, func(s string) string { return s })
					if len(want) != len(got) {
						t.Errorf("seed %d: %d strokes with a first contact, want %d", seed, len(got), len(want))
						continue
					}
					for k := range want {
						if want[k].B != got[k].B || abs(want[k].Frame-got[k].Frame) > 1 {
							t.Errorf("seed %d stroke %d: striker's first contact %s at frame %d, want %s at %d",
								seed, k+1, got[k].B, got[k].Frame, want[k].B, want[k].Frame)
						}
					}
				}
			}
		})
	}
}

// A hand resting over a pocket hides the men beside it: they are occluded
// (still on the board, where they were), never pocketed or missing.
func TestHandOverPocketOccludes(t *testing.T) {
	tr, err := sim.RunFile(scenarioPath(t, "hand-over-pocket.yaml"), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tk, err := New(Config{Geometry: tr.Geometry})
	if err != nil {
		t.Fatal(err)
	}
	s := trackertest.NewSynth(tr, trackertest.Realistic)
	occluded := map[string]int{}
	for i := range tr.NumFrames() {
		f, sc := s.Frame(i)
		u := tk.Update(f)
		for _, e := range u.Events {
			if e.Type == events.Pocketed {
				t.Errorf("frame %d: %s", i, eventLine(e))
			}
		}
		if len(sc.Hands) == 0 {
			continue
		}
		for _, p := range u.Pieces {
			if p.State == Occluded {
				occluded[p.ID]++
			}
			if p.ID != "S" && (p.State == Missing || p.State == Pocketed) {
				t.Fatalf("frame %d: %s is %s under the hand", i, p.ID, p.State)
			}
		}
	}
	// W1 and B1 lie by the NE pocket, under the hand for three seconds.
	var long int
	for _, n := range occluded {
		if n > 2*tr.FPS {
			long++
		}
	}
	if long < 2 {
		t.Errorf("pieces occluded for over two seconds: %v; want the two men by the pocket", occluded)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
