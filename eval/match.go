package eval

import (
	"math"
	"sort"

	"github.com/boardcam/boardcam/internal/hungarian"
)

// assign solves the assignment problem on the rows × cols cost matrix
// (package hungarian, on the padded square): it returns for each row the
// column assigned to it (-1 for none) minimising the total cost. Pairs
// whose cost is +Inf are never assigned; among assignments the number of
// assigned pairs is maximised first.
func assign(cost [][]float64, rows, cols int) []int {
	n := max(rows, cols)
	out := make([]int, rows)
	for i := range out {
		out[i] = -1
	}
	if rows == 0 || cols == 0 {
		return out
	}
	// Forbidden pairs cost more than any assignment of allowed ones, so the
	// solver uses as few of them as it can; they are dropped afterwards.
	big := 1.0
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if c := cost[i][j]; !math.IsInf(c, 1) {
				big += math.Abs(c)
			}
		}
	}
	big *= float64(n + 1)
	a := make([]float64, n*n) // padded square, row-major
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			switch {
			case i >= rows || j >= cols:
				a[i*n+j] = big // padding: as bad as a forbidden pair
			case math.IsInf(cost[i][j], 1):
				a[i*n+j] = big
			default:
				a[i*n+j] = cost[i][j]
			}
		}
	}
	var s hungarian.Solver
	for j, i := range s.Solve(a, n) {
		if i >= 0 && i < rows && j < cols && !math.IsInf(cost[i][j], 1) {
			out[i] = j
		}
	}
	return out
}

// item is an event or a foul reduced to what matching needs.
type item struct {
	frame int
	key   string
}

// matchItems pairs truth items with reported ones of the same key within
// window frames, closest in time first. It returns the number matched and
// the frame differences (reported − truth) of the matched pairs; matchedR
// marks the reported items that found a partner.
func matchItems(truth, rep []item, window int) (tp int, diffs []int, matchedR []bool) {
	type pair struct{ i, j, d int }
	var pairs []pair
	for i, t := range truth {
		for j, r := range rep {
			d := r.frame - t.frame
			if abs(d) <= window && r.key == t.key {
				pairs = append(pairs, pair{i, j, d})
			}
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool {
		if da, db := abs(pairs[a].d), abs(pairs[b].d); da != db {
			return da < db
		}
		if pairs[a].i != pairs[b].i {
			return pairs[a].i < pairs[b].i
		}
		return pairs[a].j < pairs[b].j
	})
	usedT := make([]bool, len(truth))
	matchedR = make([]bool, len(rep))
	for _, p := range pairs {
		if usedT[p.i] || matchedR[p.j] {
			continue
		}
		usedT[p.i], matchedR[p.j] = true, true
		tp++
		diffs = append(diffs, p.d)
	}
	return tp, diffs, matchedR
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
