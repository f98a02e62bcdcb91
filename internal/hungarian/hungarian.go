// Package hungarian solves the square assignment problem: given an N×N cost
// matrix, pair every row with a column so that the total cost is least
// (the Hungarian method, Kuhn–Munkres with potentials, O(N³), after
// e-maxx). It is the one solver of boardcam: the tracker pairs tracks with
// detections through it (with gating and the costs of leaving either
// unmatched) and eval pairs true discs with detected ones (with forbidden
// pairs); each builds its square matrix, this package only solves it.
package hungarian

import "math"

// Solver keeps its buffers between calls, so that solving allocates
// nothing once the largest problem has been seen. The zero value is ready
// to use; a Solver is not safe for concurrent use.
type Solver struct {
	u, v, minv []float64
	p, way     []int
	used       []bool
	rowOf      []int
}

// Solve pairs the rows and columns of the N×N matrix a (row-major, a[i*N+j]
// is the cost of row i with column j; every cost finite) and returns, for
// each column j, the row paired with it. The returned slice is reused by
// the next call.
func (s *Solver) Solve(a []float64, N int) []int {
	s.u, s.v, s.minv = zeroF(s.u, N+1), zeroF(s.v, N+1), zeroF(s.minv, N+1)
	s.p, s.way = zeroI(s.p, N+1), zeroI(s.way, N+1)
	if cap(s.used) < N+1 {
		s.used = make([]bool, N+1)
	}
	s.used = s.used[:N+1]
	u, v, p, way, minv, used := s.u, s.v, s.p, s.way, s.minv, s.used
	// 1-based rows and columns; column 0 is the algorithm's sentinel.
	for i := 1; i <= N; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta := math.Inf(1)
			j1 := 0
			for j := 1; j <= N; j++ {
				if used[j] {
					continue
				}
				cur := a[(i0-1)*N+j-1] - u[i0] - v[j]
				if cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= N; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
			if j0 == 0 {
				break
			}
		}
	}
	if cap(s.rowOf) < N {
		s.rowOf = make([]int, N)
	}
	s.rowOf = s.rowOf[:N]
	for j := 1; j <= N; j++ {
		s.rowOf[j-1] = p[j] - 1
	}
	return s.rowOf
}

func zeroF(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	b = b[:n]
	clear(b)
	return b
}

func zeroI(b []int, n int) []int {
	if cap(b) < n {
		return make([]int, n)
	}
	b = b[:n]
	clear(b)
	return b
}
