package hungarian

import (
	"math"
	"math/rand"
	"testing"
)

// best is the least total cost by trying every permutation.
func best(a []float64, n int) float64 {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	m := math.Inf(1)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			s := 0.0
			for i, j := range perm {
				s += a[i*n+j]
			}
			m = math.Min(m, s)
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(0)
	return m
}

func TestSolveIsOptimalAndAPermutation(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var s Solver // reused: buffers grow and shrink between sizes
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(6)
		a := make([]float64, n*n)
		for i := range a {
			a[i] = float64(rng.Intn(20)) // ties are common
		}
		rowOf := s.Solve(a, n)
		seen := make([]bool, n)
		total := 0.0
		for j, i := range rowOf {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("%d×%d: column %d gets row %d (%v)", n, n, j, i, rowOf)
			}
			seen[i] = true
			total += a[i*n+j]
		}
		if want := best(a, n); total != want {
			t.Fatalf("%d×%d %v: total %v, best %v", n, n, a, total, want)
		}
	}
}
