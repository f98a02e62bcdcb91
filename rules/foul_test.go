package rules

import (
	"testing"

	"github.com/boardcam/boardcam/foul"
)

// The foul descriptions (package foul) and the profiles built from them
// agree: every profile a description names exists, every foul a profile
// recognises is described and named by it (or falls back on the ICF laws
// for every profile), every effect a profile sets is for a foul it
// recognises, and only the ICF profile's own table has no fallback.
func TestFoulDescriptionsProfiles(t *testing.T) {
	names := map[string]bool{}
	for _, n := range ProfileNames() {
		names[n] = true
	}
	for _, d := range foul.All() {
		for p := range d.Refs {
			if !names[p] {
				t.Errorf("%s: reference for unknown profile %q", d.Code, p)
			}
		}
	}
	for _, p := range Profiles() {
		for _, fr := range p.Fouls {
			d, ok := foul.Lookup(fr.Code)
			if !ok {
				t.Errorf("%s: %s is not described", p.Name, fr.Code)
				continue
			}
			if ref, ok := d.Ref(p.Name); !ok || (ref == foul.ICF) != fr.Fallback {
				t.Errorf("%s: %s recognised as %+v, described as %q", p.Name, fr.Code, fr, ref)
			}
			if fr.Camera != d.ByCamera() || fr.Derived != (d.Class == foul.Outcome) {
				t.Errorf("%s: %s camera/derived differ from its description", p.Name, fr.Code)
			}
			if p.Name == "icf" && fr.Fallback {
				t.Errorf("icf falls back on itself for %s", fr.Code)
			}
		}
		for _, d := range foul.All() {
			if _, ok := d.Ref(p.Name); ok != p.Recognises(d.Code) {
				t.Errorf("%s: recognises %s = %v, its description says %v", p.Name, d.Code, p.Recognises(d.Code), ok)
			}
		}
	}
	for _, fx := range []map[Foul]FoulEffect{boardLoss} {
		for code := range fx {
			if !code.Known() {
				t.Errorf("effect for undescribed foul %s", code)
			}
		}
	}
}
