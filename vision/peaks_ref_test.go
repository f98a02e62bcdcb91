package vision

import (
	"image"
	"math"
	"math/rand"
	"testing"
)

// peaksRef is peaks as it was before bc_above found its candidates (a
// Go scan of every pixel): the reference peaks must match bit for bit
// (TestPeaksMatchesRef).
func (vt *voter) peaksRef(roi image.Rectangle, inside func(x, y int) bool, min float64, out []peak) ([]peak, error) {
	n := vt.n
	roi = roi.Intersect(image.Rect(2, 2, n-2, n-2))
	for i := range vt.smooth {
		s, err := vt.smooth[i].DataPtrFloat32()
		if err != nil {
			return out, err
		}
		thr := float32(min) / vt.norm[i]
		for y := roi.Min.Y; y < roi.Max.Y; y++ {
			row := s[y*n+roi.Min.X : y*n+roi.Max.X]
			for j, v := range row {
				if v < thr {
					continue
				}
				x := roi.Min.X + j
				k := y*n + x
				// strict maximum over the 5×5 neighbourhood (ties broken
				// toward the first in scan order)
				ok := true
				for dy := -2; dy <= 2 && ok; dy++ {
					for dx := -2; dx <= 2; dx++ {
						if dx == 0 && dy == 0 {
							continue
						}
						u := s[k+dy*n+dx]
						if u > v || (u == v && (dy < 0 || (dy == 0 && dx < 0))) {
							ok = false
							break
						}
					}
				}
				if !ok || !inside(x, y) {
					continue
				}
				px, py := float64(x), float64(y)
				l, r, u, d := float64(s[k-1]), float64(s[k+1]), float64(s[k-n]), float64(s[k+n])
				c := float64(v)
				if den := l - 2*c + r; den < 0 {
					px += math.Max(-0.5, math.Min(0.5, 0.5*(l-r)/den))
				}
				if den := u - 2*c + d; den < 0 {
					py += math.Max(-0.5, math.Min(0.5, 0.5*(u-d)/den))
				}
				out = append(out, peak{x: px, y: py, score: c * float64(vt.norm[i]), kind: i})
			}
		}
	}
	return out, nil
}

// TestPeaksMatchesRef: peaks finds what peaksRef finds, in the same order
// and bit for bit, with bc_above in SSE2 and in plain C, on vote maps
// with plateaus (ties), zeros and a NaN, over regions of widths 1 to 12
// and the whole map, at thresholds from none to high.
func TestPeaksMatchesRef(t *testing.T) {
	const n = 64
	vt := newVoter(n, 10.4, 12.7)
	defer vt.close()
	rng := rand.New(rand.NewSource(5))
	for i := range vt.smooth {
		s, err := vt.smooth[i].DataPtrFloat32()
		if err != nil {
			t.Fatal(err)
		}
		for k := range s {
			switch rng.Intn(4) {
			case 0:
				s[k] = 0
			case 1:
				s[k] = float32(rng.Intn(6)) // plateaus: equal neighbours
			default:
				s[k] = 6 * rng.Float32()
			}
		}
		s[20*n+31] = float32(math.NaN()) // inside (see inside)
	}
	inside := func(x, y int) bool { return (x*7+y*3)%5 != 0 }
	rois := []image.Rectangle{image.Rect(0, 0, n, n), image.Rect(2, 2, n-2, n-2), image.Rect(10, 5, 40, 50), image.Rect(60, 60, 64, 64)}
	for w := 1; w <= 12; w++ {
		rois = append(rois, image.Rect(7+w, 3, 7+2*w, 60))
	}
	defer func() { aboveSIMD = true }()
	found := 0
	for _, simd := range []bool{true, false} {
		aboveSIMD = simd
		for _, roi := range rois {
			for _, min := range []float64{0, 0.02, 0.05, 0.2} {
				got, err := vt.peaks(roi, inside, min, nil)
				if err != nil {
					t.Fatal(err)
				}
				want, err := vt.peaksRef(roi, inside, min, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("simd %v roi %v min %v: %d peaks, reference %d", simd, roi, min, len(got), len(want))
				}
				for k := range got {
					g, w := got[k], want[k]
					if math.Float64bits(g.x) != math.Float64bits(w.x) || math.Float64bits(g.y) != math.Float64bits(w.y) ||
						math.Float64bits(g.score) != math.Float64bits(w.score) || g.kind != w.kind {
						t.Fatalf("simd %v roi %v min %v: peak %d %+v, reference %+v", simd, roi, min, k, g, w)
					}
				}
				found += len(got)
			}
		}
	}
	if found < 100 {
		t.Fatalf("only %d peaks found", found)
	}
}
