package vision

import (
	"math"
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

// TestMedianShortIsMedian: medianShort gives median's value bit for bit
// (odd and even lengths up to 64, spread values, ties, all equal, bunched,
// zeros), and leaves the k smallest before the middle as median does.
func TestMedianShortIsMedian(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	sets := [][]float64{nil, {0}, {3, 3}, {2, 1}, make([]float64, 64), make([]float64, 31)}
	for i := 0; i < 600; i++ {
		v := make([]float64, 1+rng.Intn(64))
		for k := range v {
			switch i % 4 {
			case 0:
				v[k] = rng.Float64() * 256
			case 1:
				v[k] = float64(rng.Intn(6)) * 0.25 // ties
			case 2:
				v[k] = 100 + rng.Float64()*3
			default:
				v[k] = float64(rng.Intn(3)) * rng.Float64() // zeros among others
			}
		}
		sets = append(sets, v)
	}
	for _, v := range sets {
		want := median(slices.Clone(v))
		if got := medianShort(slices.Clone(v)); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%v: medianShort %v, median %v", v, got, want)
		}
	}
}
