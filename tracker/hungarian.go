package tracker

import (
	"math"

	"github.com/boardcam/boardcam/internal/hungarian"
)

// assigner solves gated assignment problems: given the cost of pairing
// each of n tracks with each of m detections (+Inf where the pair lies
// outside the gate), the cost of leaving a track unmatched and the cost of
// leaving a detection unmatched, it finds the pairing of least total cost
// (package hungarian solves the square problem of size n+m). Its buffers
// are kept between calls, so a frame allocates nothing once the largest
// problem has been seen.
type assigner struct {
	n, m int
	cost []float64 // n×m, row-major
	// the square problem of size n+m
	a          []float64
	solver     hungarian.Solver
	trackMatch []int
}

// big stands for a forbidden pair in the square problem: larger than any
// sum of real costs, small enough to keep the arithmetic exact.
const big = 1e9

// reset prepares an n×m problem with every pair forbidden.
func (s *assigner) reset(n, m int) {
	s.n, s.m = n, m
	if cap(s.cost) < n*m {
		s.cost = make([]float64, n*m)
	}
	s.cost = s.cost[:n*m]
	for i := range s.cost {
		s.cost[i] = math.Inf(1)
	}
}

// set gives the cost of pairing track i with detection j.
func (s *assigner) set(i, j int, c float64) { s.cost[i*s.m+j] = c }

// solve returns, for each track, the detection it is paired with or -1.
// missTrack[i] is the cost of leaving track i unmatched, missDet[j] that
// of leaving detection j unmatched; a pair is only chosen when its cost is
// below the sum of the two. The returned slice is reused by the next call.
func (s *assigner) solve(missTrack, missDet []float64) []int {
	n, m := s.n, s.m
	if cap(s.trackMatch) < n {
		s.trackMatch = make([]int, n)
	}
	out := s.trackMatch[:n]
	for i := range out {
		out[i] = -1
	}
	if n == 0 || m == 0 {
		return out
	}
	// Square matrix N = n+m: rows are tracks then "detection unmatched"
	// rows; columns are detections then "track unmatched" columns.
	N := n + m
	if cap(s.a) < N*N {
		s.a = make([]float64, N*N)
	}
	a := s.a[:N*N]
	for i := 0; i < N; i++ {
		for j := 0; j < N; j++ {
			var c float64
			switch {
			case i < n && j < m:
				c = s.cost[i*m+j]
				if math.IsInf(c, 1) || math.IsNaN(c) {
					c = big
				}
			case i < n: // track i unmatched: only its own column
				if j-m == i {
					c = missTrack[i]
				} else {
					c = big
				}
			case j < m: // detection j unmatched: only its own row
				if i-n == j {
					c = missDet[j]
				} else {
					c = big
				}
			default:
				c = 0
			}
			a[i*N+j] = c
		}
	}
	for j, i := range s.solver.Solve(a, N) {
		if i >= 0 && i < n && j < m && a[i*N+j] < big {
			out[i] = j
		}
	}
	return out
}
