package vision

import (
	"math/rand"
	"slices"
	"testing"
)

// TestKthShortIsKth checks kthShort against the sorted values for every
// k, on values spread out, with many ties, all equal, and bunched.
func TestKthShortIsKth(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	sets := [][]float64{{0}, {3, 3}, make([]float64, 64)}
	for i := 0; i < 300; i++ {
		v := make([]float64, 1+rng.Intn(64))
		for k := range v {
			switch i % 3 {
			case 0:
				v[k] = rng.Float64() * 256
			case 1:
				v[k] = float64(rng.Intn(6)) * 0.25 // ties
			default:
				v[k] = 100 + rng.Float64()*3
			}
		}
		sets = append(sets, v)
	}
	for _, v := range sets {
		sorted := slices.Clone(v)
		slices.Sort(sorted)
		for k := range v {
			if got := kthShort(slices.Clone(v), k); got != sorted[k] {
				t.Fatalf("%v k %d: kthShort %v, want %v", v, k, got, sorted[k])
			}
		}
	}
}
