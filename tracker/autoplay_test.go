package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// A whole board of automatic play (51 strokes, 18 pockets, 4½ minutes at
// 60 fps) with realistic detector errors: the targets — pocketed
// and overboard F1 ≥ 0.99 with the right pocket within 2 frames, no
// identity switch at rest — and every stroke found.
func TestAutoplayBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("long: a whole board")
	}
	tr, err := sim.RunFile(scenarioPath(t, "autoplay-board.yaml"), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := runTrace(t, tr, trackertest.Realistic, Config{})
	st := matchEvents(tr.Events, r.events, strict(tr.FPS))
	t.Logf("%d frames, %d truth events, %d tracker events\n%s", tr.NumFrames(), len(tr.Events), len(r.events), statsReport(st))
	for _, typ := range []events.Type{events.Pocketed, events.Overboard} {
		if f := st[typ].f1(); f < 0.99 {
			t.Errorf("%s F1 %.3f, want ≥ 0.99", typ, f)
		}
	}
	for _, typ := range []events.Type{events.StrokeStart, events.StrokeEnd, events.FrontLineCrossed} {
		if s := st[typ]; s.fn > 0 || s.fp > 0 {
			t.Errorf("%s: %d missed, %d extra", typ, s.fn, s.fp)
		}
	}
	if r.switches > 0 {
		t.Errorf("%d identity switches at rest (%d checks): %v", r.switches, r.restChecks, r.switchLog)
	}
	want := firstContacts(tr.Events, func(s string) string { return s })
	got := firstContacts(r.mapped, func(s string) string { return s })
	if len(want) != len(got) {
		t.Fatalf("%d strokes with a first contact, want %d", len(got), len(want))
	}
	wrong := 0
	for k := range want {
		if want[k].B != got[k].B || abs(want[k].Frame-got[k].Frame) > 1 {
			wrong++
			t.Logf("stroke %d: striker's first contact %s at frame %d, want %s at %d", k+1, got[k].B, got[k].Frame, want[k].B, want[k].Frame)
		}
	}
	if wrong*20 > len(want) {
		t.Errorf("striker's first contact wrong in %d of %d strokes (want at most 5%%)", wrong, len(want))
	}
}
