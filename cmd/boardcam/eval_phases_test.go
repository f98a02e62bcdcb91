package main

import "testing"

// The parameterised removals (eval_phases.go) name the frames they say,
// and the fixed patterns they generalise are theirs at the fixed
// parameters; bad parameters are refused.
func TestParsedRemovals(t *testing.T) {
	r, ok := findRemoval("fps15+3")
	if !ok || r.fps != 15 || !r.phased || r.phase != 3 {
		t.Fatalf("fps15+3: %+v %v", r, ok)
	}
	for _, bad := range []string{"fps15+", "fps0+1", "random0/1", "random95/1", "burst@2", "burst@x", "fps15late+1"} {
		if _, ok := findRemoval(bad); ok {
			t.Errorf("%s accepted", bad)
		}
	}
	none, ok := findRemoval("none")
	if !ok || none.drop == nil || none.slow != 0 || none.speed != 0 || none.fps != 0 {
		t.Fatalf("none: %+v %v", none, ok)
	}
	for i, d := int64(0), none.drop("c", 30, 300); i < 300; i++ {
		if d(i) {
			t.Fatalf("none drops frame %d", i)
		}
	}
	fixed, _ := findRemoval("burst")
	at, ok := findRemoval("burst@0.7")
	if !ok {
		t.Fatal("burst@0.7 refused")
	}
	f, g := fixed.drop("c", 30, 300), at.drop("c", 30, 300)
	n := 0
	for i := int64(0); i < 300; i++ {
		if f(i) != g(i) {
			t.Errorf("frame %d: burst %v, burst@0.7 %v", i, f(i), g(i))
		}
		if g(i) {
			n++
		}
	}
	if n < 60 || n > 65 { // 12 frames of every 60 (13 where 1.1 s rounds under), five times
		t.Errorf("burst@0.7 drops %d of 300 frames, want 60-65", n)
	}
	a, _ := findRemoval("random30/1")
	b, _ := findRemoval("random30/2")
	da, db := a.drop("c", 30, 1000), b.drop("c", 30, 1000)
	na, same := 0, 0
	for i := int64(0); i < 1000; i++ {
		if da(i) {
			na++
		}
		if da(i) == db(i) {
			same++
		}
	}
	if na < 250 || na > 350 || same > 700 {
		t.Errorf("random30/1 drops %d of 1000, agrees with random30/2 on %d", na, same)
	}
}
