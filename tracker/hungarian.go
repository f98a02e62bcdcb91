package tracker

import "math"

// assigner solves gated assignment problems: given the cost of pairing
// each of n tracks with each of m detections (+Inf where the pair lies
// outside the gate), the cost of leaving a track unmatched and the cost of
// leaving a detection unmatched, it finds the pairing of least total cost
// (the Hungarian method, Kuhn–Munkres with potentials, O((n+m)³)). Its
// buffers are kept between calls, so a frame allocates nothing once the
// largest problem has been seen.
type assigner struct {
	n, m int
	cost []float64 // n×m, row-major
	// the square problem of size n+m
	a          []float64
	u, v       []float64
	p, way     []int
	minv       []float64
	used       []bool
	rowMatch   []int
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
	s.hungarian(N)
	for j := 1; j <= N; j++ {
		i := s.p[j] - 1
		if i >= 0 && i < n && j-1 < m && a[i*N+j-1] < big {
			out[i] = j - 1
		}
	}
	return out
}

// hungarian solves the N×N problem in s.a (1-based potentials, e-maxx).
func (s *assigner) hungarian(N int) {
	grow := func(b []float64) []float64 {
		if cap(b) < N+1 {
			return make([]float64, N+1)
		}
		b = b[:N+1]
		for i := range b {
			b[i] = 0
		}
		return b
	}
	growI := func(b []int) []int {
		if cap(b) < N+1 {
			return make([]int, N+1)
		}
		b = b[:N+1]
		for i := range b {
			b[i] = 0
		}
		return b
	}
	s.u, s.v, s.minv = grow(s.u), grow(s.v), grow(s.minv)
	s.p, s.way = growI(s.p), growI(s.way)
	if cap(s.used) < N+1 {
		s.used = make([]bool, N+1)
	}
	s.used = s.used[:N+1]
	a, u, v, p, way, minv, used := s.a, s.u, s.v, s.p, s.way, s.minv, s.used
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
}
