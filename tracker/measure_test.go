package tracker

import (
	"os"
	"testing"

	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// hard is a poor detector: 1 mm, 2 % misses, 5 % false detections per
// frame, 1 % class confusions, blur misses from 2 m/s, discs half under a
// hand already missed.
var hard = trackertest.Noise{Seed: 5, Sigma: 1.0, Miss: 0.02, FalsePos: 0.05, Confuse: 0.01, BlurSpeed: 2000, Hide: 0.5}

// TestMeasure logs the figures docs/tracking.md quotes: a whole automatic
// board at 60 and 30 fps with realistic and with poor detections — every
// event type's matches, contacts matched by pair within two frames, the
// striker's first contacts and its place at the flick, identity switches
// at rest. It asserts nothing
// beyond the targets TestAutoplayBoard checks; run it with
//
//	BOARDCAM_MEASURE=1 go test ./tracker -run TestMeasure -v
func TestMeasure(t *testing.T) {
	if os.Getenv("BOARDCAM_MEASURE") == "" {
		t.Skip("set BOARDCAM_MEASURE=1 to measure")
	}
	for _, fps := range []int{60, 30} {
		tr, err := sim.RunFile(scenarioPath(t, "autoplay-board.yaml"), sim.Options{FPS: fps})
		if err != nil {
			t.Fatal(err)
		}
		for _, nz := range []struct {
			name string
			n    trackertest.Noise
		}{{"realistic", trackertest.Realistic}, {"poor", hard}} {
			r := runTrace(t, tr, nz.n, Config{})
			st := matchEvents(tr.Events, r.events, strict(tr.FPS))
			var tc, gc []events.Event
			for _, e := range tr.Events {
				if e.Type == events.Contact {
					tc = append(tc, e)
				}
			}
			for _, e := range r.mapped {
				if e.Type == events.Contact {
					gc = append(gc, e)
				}
			}
			used := make([]bool, len(gc))
			tp := 0
			for _, e := range tc {
				for k, g := range gc {
					if !used[k] && abs(g.Frame-e.Frame) <= 2 && (g.A == e.A && g.B == e.B || g.A == e.B && g.B == e.A) {
						used[k] = true
						tp++
						break
					}
				}
			}
			want := firstContacts(tr.Events, func(s string) string { return s })
			got := firstContacts(r.mapped, func(s string) string { return s })
			wrong := 0
			for k := range min(len(want), len(got)) {
				if want[k].B != got[k].B || abs(want[k].Frame-got[k].Frame) > 1 {
					wrong++
				}
			}
			// The striker's place at the flick.
			n5, n10, ns := 0, 0, 0
			for _, e := range tr.Events {
				if e.Type != events.StrokeStart {
					continue
				}
				for _, g := range r.events {
					if g.Type == events.StrokeStart && abs(g.Frame-e.Frame) <= 3 {
						ns++
						d := g.StrikerMM.Vec().Dist(e.StrikerMM.Vec())
						if d <= 5 {
							n5++
						}
						if d <= 10 {
							n10++
						}
						break
					}
				}
			}
			t.Logf("  striker at the flick: within 5 mm in %d, 10 mm in %d of %d strokes", n5, n10, ns)
			t.Logf("%d fps, %s detections: %d frames\n%s  contacts: %d of %d found, %d of %d reported right (recall %.2f, precision %.2f)\n  striker's first contact right in %d of %d strokes\n  identity switches at rest: %d (%d checks)",
				fps, nz.name, tr.NumFrames(), statsReport(st), tp, len(tc), tp, len(gc),
				float64(tp)/float64(len(tc)), float64(tp)/float64(max(1, len(gc))), len(want)-wrong, len(want), r.switches, r.restChecks)
		}
	}
}
