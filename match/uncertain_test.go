package match

import (
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// withGapInStroke returns the board's observations with frames missing in
// the middle of its n-th stroke (0-based): the Observation of the frame
// after the gap carries it, as the analysis reports it.
func withGapInStroke(t *testing.T, evs []events.Event, n int) ([]Observation, referee.Gap) {
	t.Helper()
	obs := byFrame(evs)
	var starts []int
	for _, e := range evs {
		if e.Type == events.StrokeStart {
			starts = append(starts, e.Frame)
		}
	}
	if len(starts) <= n {
		t.Fatalf("%d strokes, want at least %d", len(starts), n+1)
	}
	f := starts[n]
	g := referee.Gap{After: f + 1, Before: f + 6, Reason: "frames test were not analysed (4 dropped: the analysis fell behind)"}
	var out []Observation
	placed := false
	for _, o := range obs {
		if !placed && o.Frame >= int64(g.Before) {
			if o.Frame == int64(g.Before) {
				o.Gap = &g
			} else {
				out = append(out, Observation{Frame: int64(g.Before), Gap: &g})
			}
			placed = true
		}
		out = append(out, o)
	}
	return out, g
}

// In auto mode a stroke with frames missing is not applied: it waits for
// the umpire with the reason and its best guess, and the sure decisions
// after it wait behind it; confirmed, it and they apply, and the match is
// the simulator's.
func TestUncertainStrokeWaitsInAutoMode(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	_, want, res := simBoard(t, "autoplay-board.yaml")
	k := keeperOn(t, testConfig(t), path, nil)
	obs, g := withGapInStroke(t, evs, 1)
	for _, o := range obs {
		k.observe(o)
	}
	if len(k.pend) < 2 {
		t.Fatalf("%d pending, want the uncertain stroke and those after it", len(k.pend))
	}
	first := k.pend[0]
	if !first.Held || first.Queued || !first.D.Uncertain() || first.D.Doubts[0].Reason != g.Reason {
		t.Fatalf("first pending %+v", first)
	}
	for _, p := range k.pend[1:] {
		if !p.Held || (!p.Queued && !p.D.Uncertain()) {
			t.Errorf("%s (%s) is not queued behind %s", p.ID, p.D.Log, first.ID)
		}
	}
	if n := len(k.m.History()); n != 1 {
		t.Errorf("%d events applied, want 1 (the stroke before the gap)", n)
	}
	var wp *Pending
	for _, m := range drain(k) {
		if p, ok := m.(Pending); ok && p.ID == first.ID {
			wp = &p
		}
	}
	if wp == nil || len(wp.Doubts) != 1 || wp.Doubts[0].Reason != g.Reason || wp.Guess != first.D.Log ||
		!strings.Contains(wp.Summary, "not sure") || !strings.Contains(wp.Summary, g.Reason) {
		t.Fatalf("pending message %+v", wp)
	}
	// The journal holds the reason, and a restart brings it back.
	k.Close()
	cfg := testConfig(t)
	cfg.Dir = k.Config.Dir
	k2 := keeperOn(t, cfg, path, nil)
	caughtUp(k2, obs)
	if len(k2.pend) != len(k.pend) || !k2.pend[0].D.Uncertain() || k2.pend[0].D.Doubts[0].Reason != g.Reason || !k2.pend[1].Queued {
		t.Fatalf("after a restart: %+v", k2.pend)
	}
	if sp := k2.Snapshot().Pending; len(sp) == 0 || len(sp[0].Doubts) != 1 {
		t.Errorf("snapshot pending %+v", sp)
	}
	// The umpire confirms the guess: the queued decisions follow.
	if _, err := k2.do(command{Command: Command{Name: CmdConfirm, Pending: first.ID, By: "umpire"}}); err != nil {
		t.Fatal(err)
	}
	if len(k2.pend) != 0 {
		t.Errorf("still pending after the confirmation: %+v", k2.pend)
	}
	if g, w := fingerprintOf(k2.m.State()), fingerprintOf(want); g != w {
		t.Errorf("board ends %+v, want %+v", g, w)
	}
	var exp []string
	for _, dc := range res.Decisions {
		if dc.Log != "" {
			exp = append(exp, dc.Log)
		}
	}
	var got []string
	for _, e := range k2.m.History() {
		got = append(got, rules.FormatEvent(e))
	}
	if strings.Join(got, "\n") != strings.Join(exp, "\n") {
		t.Errorf("events %v, want %v", got, exp)
	}
}

// A stroke with frames missing waits in delay mode too: no due time.
func TestUncertainStrokeHasNoDelay(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	clock := clocktest.New()
	cfg := testConfig(t)
	cfg.Decisions = DecideDelay
	k := keeperOn(t, cfg, path, clock)
	obs, _ := withGapInStroke(t, evs, 0)
	for _, o := range obs {
		k.observe(o)
		clock.Advance(time.Second)
		k.applyDue(clock.Now())
	}
	clock.Advance(time.Hour)
	k.applyDue(clock.Now())
	if len(k.m.History()) != 0 || len(k.pend) == 0 || !k.pend[0].D.Uncertain() || !k.pend[0].Due.IsZero() {
		t.Fatalf("history %v, first pending %+v", k.m.History(), k.pend[0])
	}
}

// The umpire corrects an uncertain stroke: the events entered replace the
// guess; the decisions queued behind it, made on that guess, no longer
// apply themselves; after a restart they still wait.
func TestCorrectUncertainStroke(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	k := keeperOn(t, testConfig(t), path, nil)
	obs, _ := withGapInStroke(t, evs, 1)
	for _, o := range obs {
		k.observe(o)
	}
	first := k.pend[0]
	seat := first.D.Seat.String()
	if _, err := k.do(command{Command: Command{Name: CmdCorrect, Pending: first.ID, Notation: seat + " w w w w w w w w w w", By: "umpire"}}); err == nil {
		t.Error("an impossible correction was accepted")
	}
	if _, err := k.do(command{Command: Command{Name: CmdCorrect, Pending: k.pend[1].ID, Notation: seat + " -", By: "umpire"}}); err == nil {
		t.Error("a correction out of order was accepted")
	}
	h := len(k.m.History())
	guess := first.D.Log
	entered := seat + " - !push"
	if guess == entered {
		t.Fatalf("the guess is the correction")
	}
	msg, err := k.do(command{Command: Command{Name: CmdCorrect, Pending: first.ID, Notation: entered, Note: "seen on the replay", By: "umpire"}})
	if err != nil {
		t.Fatal(err)
	}
	if lastEvent(k.m) != entered || len(k.m.History()) != h+1 || !strings.Contains(msg, "instead of "+guess) {
		t.Errorf("after the correction: last %q, %s", lastEvent(k.m), msg)
	}
	if len(k.pend) == 0 || k.pend[0].Queued {
		t.Fatalf("the decisions after the correction apply themselves: %+v", k.pend)
	}
	var corrected, waits bool
	for _, m := range drain(k) {
		switch v := m.(type) {
		case Decided:
			corrected = corrected || (v.ID == first.ID && v.Decision == DecisionCorrected)
		case Pending:
			waits = waits || (v.ID == k.pend[0].ID && !v.Queued)
		}
	}
	if !corrected || !waits {
		t.Errorf("messages: corrected %v, the next waits %v", corrected, waits)
	}
	k.Close()
	cfg := testConfig(t)
	cfg.Dir = k.Config.Dir
	k2 := keeperOn(t, cfg, path, nil)
	caughtUp(k2, obs)
	if p := k2.pend; len(p) != len(k.pend) || p[0].Queued || lastEvent(k2.m) != entered {
		t.Errorf("after a restart: %+v, last %q", p, lastEvent(k2.m))
	}
	// Nothing happened: an empty correction settles the next.
	next := k2.pend[0]
	if _, err := k2.do(command{Command: Command{Name: CmdCorrect, Pending: next.ID, By: "umpire"}}); err != nil {
		t.Fatal(err)
	}
	if len(k2.m.History()) != h+1 {
		t.Errorf("an empty correction applied something")
	}
}

// The video ends in the middle of a stroke: the stroke is held, its end
// unseen.
func TestStrokeAtEndOfVideoIsHeld(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	k := keeperOn(t, testConfig(t), path, nil)
	var cut []events.Event
	for _, e := range evs {
		cut = append(cut, e)
		if e.Type == events.Pocketed {
			break
		}
	}
	for _, o := range byFrame(cut) {
		k.observe(o)
	}
	k.flush()
	if len(k.pend) != 1 || !k.pend[0].D.Uncertain() || k.pend[0].D.Doubts[0].Kind != events.DoubtEndUnseen {
		t.Fatalf("pending %+v", k.pend)
	}
}

// caughtUp plays the observations again into a keeper restarted on the
// same source, as the daemon catches up with its journal.
func caughtUp(k *Keeper, obs []Observation) {
	for _, o := range obs {
		k.observe(o)
	}
	k.finishCatchUp("")
}
