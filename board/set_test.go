package board

import "testing"

// TestSetMerge: the configuration's diameters replace the learned ones it
// gives, the rest (and the learned colours) stay; either side may be nil.
func TestSetMerge(t *testing.T) {
	learned := &Set{Source: "opening", ManMM: 30.5, QueenMM: 31, StrikerMM: 49}
	learned.Colours[White] = ColourStats{Mean: [3]float64{1.1, 0.1, 0.1}, N: 9}
	cfg := &Set{Source: "config", StrikerMM: 41.3}
	m := learned.Merge(cfg)
	if m.ManMM != 30.5 || m.QueenMM != 31 || m.StrikerMM != 41.3 || m.Colours[White].N != 9 || m.Source != "config" {
		t.Errorf("merged: %+v", m)
	}
	if learned.StrikerMM != 49 {
		t.Errorf("the learned set changed: %+v", learned)
	}
	if got := learned.Merge(nil); *got != *learned {
		t.Errorf("nothing configured: %+v", got)
	}
	if got := (*Set)(nil).Merge(cfg); got.StrikerMM != 41.3 || got.ManMM != 0 {
		t.Errorf("nothing learned: %+v", got)
	}
	if (*Set)(nil).Merge(nil) != nil {
		t.Error("neither: not nil")
	}
}
