package match

import (
	"testing"
)

// Subscribers get the snapshot and every announcement after it, in order;
// a subscriber that does not keep up is dropped (its channel closed), and
// neither it nor anyone else costs the lossless stream an announcement.
func TestSubscribeDropsTheSlow(t *testing.T) {
	tmp := t.TempDir()
	path, evs := boardEvents(t, tmp, "autoplay-board.yaml")
	k := keeperOn(t, testConfig(t), path, nil)
	obs := byFrame(evs)
	half := len(obs) / 2
	for _, o := range obs[:half] {
		k.observe(o)
	}
	before := drain(k)
	snap, fast, cancelFast := k.Subscribe(1 << 16)
	defer cancelFast()
	_, slow, cancelSlow := k.Subscribe(1)
	defer cancelSlow()
	if snap.Seq == 0 || fingerprintOf(snap.State) != fingerprintOf(k.m.State()) || snap.Profile.Name != "icf" || len(snap.Profile.Fouls) == 0 {
		t.Fatalf("snapshot %+v", snap)
	}
	camera := 0
	for _, f := range snap.Profile.Fouls {
		if f.Camera {
			camera++
		}
	}
	if camera == 0 {
		t.Error("the profile's description says no foul is judged by the camera")
	}
	for _, o := range obs[half:] {
		k.observe(o)
	}
	var got []Announcement
	for len(fast) > 0 {
		got = append(got, <-fast)
	}
	lossless := 0
	for len(k.out) > 0 {
		<-k.out
		lossless++
	}
	if len(got) < 2 || len(got) != lossless {
		t.Fatalf("the subscriber got %d announcements, the lossless stream %d (%d before)", len(got), lossless, len(before))
	}
	s := snap
	for i, a := range got {
		if a.Seq != snap.Seq+uint64(i)+1 {
			t.Fatalf("announcement %d has seq %d after the snapshot's %d", i, a.Seq, snap.Seq)
		}
		s.fold(a)
	}
	if fingerprintOf(s.State) != fingerprintOf(k.m.State()) || fingerprintOf(k.Snapshot().State) != fingerprintOf(k.m.State()) {
		t.Errorf("the snapshot folded with the announcements is %+v, the match %+v", fingerprintOf(s.State), fingerprintOf(k.m.State()))
	}
	n := 0
	for range slow { // closed when dropped
		n++
	}
	if n != 1 || k.DroppedSubscribers() != 1 {
		t.Errorf("the slow subscriber got %d before it was dropped (%d dropped)", n, k.DroppedSubscribers())
	}
	cancelSlow() // after the drop: harmless
}
