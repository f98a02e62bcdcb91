package match

import "testing"

// After a restart that catches up with the source from its start, the
// match as the source's frames begin is the match when its stream began
// (the turn the first stroke in the video is played from, which
// south_at first-stroke orients the board by), not the match as it is
// now.
func TestStreamStartAfterRestart(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	obs := byFrame(evs)
	a := keeperOn(t, testConfig(t), path, nil)
	begin := a.StreamStart()
	if begin.Strokes != 0 || !begin.Breaking {
		t.Fatalf("a new match does not begin at the opening: %+v", begin)
	}
	cut := len(obs) / 2
	for _, o := range obs[:cut] {
		a.observe(o)
	}
	now := a.m.State()
	if now.Strokes == 0 || len(a.m.History()) < 3 {
		t.Fatalf("too little played before the crash: %+v", now)
	}
	a.j.Close() // a crash
	a.j = nil
	a.Close()

	b := keeperOn(t, a.Config, path, nil)
	if b.cu == nil {
		t.Fatal("no catch-up planned")
	}
	if got := b.StreamStart(); fingerprintOf(got) != fingerprintOf(begin) || got.Turn != begin.Turn {
		t.Errorf("the stream begins %+v (turn %s), want %+v (turn %s)", fingerprintOf(got), got.Turn, fingerprintOf(begin), begin.Turn)
	}
	if fingerprintOf(b.m.State()) != fingerprintOf(now) {
		t.Errorf("the replayed match is %+v, want %+v", fingerprintOf(b.m.State()), fingerprintOf(now))
	}
}
