package vision

import (
	"math"
)

// plane is a view of an 8-bit BGR image's pixels.
type plane struct {
	pix  []uint8
	w, h int
}

// at returns the bilinear colour at (x, y) (pixel centres at integers),
// clamped to the image.
func (p plane) at(x, y float64) (c [3]float32) {
	if x < 0 {
		x = 0
	}
	if y < 0 {
		y = 0
	}
	if x > float64(p.w-1) {
		x = float64(p.w - 1)
	}
	if y > float64(p.h-1) {
		y = float64(p.h - 1)
	}
	x0, y0 := int(x), int(y)
	x1, y1 := x0+1, y0+1
	if x1 >= p.w {
		x1 = x0
	}
	if y1 >= p.h {
		y1 = y0
	}
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	a, b := 3*(y0*p.w+x0), 3*(y0*p.w+x1)
	cc, d := 3*(y1*p.w+x0), 3*(y1*p.w+x1)
	for ch := 0; ch < 3; ch++ {
		top := float32(p.pix[a+ch]) + (float32(p.pix[b+ch])-float32(p.pix[a+ch]))*fx
		bot := float32(p.pix[cc+ch]) + (float32(p.pix[d+ch])-float32(p.pix[cc+ch]))*fx
		c[ch] = top + (bot-top)*fy
	}
	return c
}

// meanIn returns the mean colour of the pixels within radius r of (x, y),
// and how many there were.
func (p plane) meanIn(x, y, r float64) ([3]float64, int) {
	var s [3]float64
	n := 0
	r2 := r * r
	x0, x1 := int(math.Ceil(x-r)), int(math.Floor(x+r))
	y0, y1 := int(math.Ceil(y-r)), int(math.Floor(y+r))
	for j := max(y0, 0); j <= min(y1, p.h-1); j++ {
		dy := float64(j) - y
		for i := max(x0, 0); i <= min(x1, p.w-1); i++ {
			dx := float64(i) - x
			if dx*dx+dy*dy > r2 {
				continue
			}
			o := 3 * (j*p.w + i)
			s[0] += float64(p.pix[o])
			s[1] += float64(p.pix[o+1])
			s[2] += float64(p.pix[o+2])
			n++
		}
	}
	if n > 0 {
		for c := range s {
			s[c] /= float64(n)
		}
	}
	return s, n
}

// medianIn returns the per-channel median colour of the pixels within
// radius r of (x, y) (robust to a lacquer highlight or a groove): of n
// pixels, the value a sort would put at n/2, counted in a histogram per
// channel.
func (p plane) medianIn(x, y, r float64, hist *[3][256]int32) [3]float64 {
	for c := range hist {
		hist[c] = [256]int32{}
	}
	r2 := r * r
	x0, x1 := int(math.Ceil(x-r)), int(math.Floor(x+r))
	y0, y1 := int(math.Ceil(y-r)), int(math.Floor(y+r))
	n := 0
	for j := max(y0, 0); j <= min(y1, p.h-1); j++ {
		dy := float64(j) - y
		for i := max(x0, 0); i <= min(x1, p.w-1); i++ {
			dx := float64(i) - x
			if dx*dx+dy*dy > r2 {
				continue
			}
			o := 3 * (j*p.w + i)
			px := p.pix[o : o+3 : o+3]
			hist[0][px[0]]++
			hist[1][px[1]]++
			hist[2][px[2]]++
			n++
		}
	}
	var out [3]float64
	if n == 0 {
		return out
	}
	for c := 0; c < 3; c++ {
		acc := int32(0)
		for v, cnt := range hist[c] {
			acc += cnt
			if int(acc) > n/2 {
				out[c] = float64(v)
				break
			}
		}
	}
	return out
}

// rays is the number of directions sampled around a disc.
const rays = 32

var rayCos, raySin [rays]float64

func init() {
	for k := 0; k < rays; k++ {
		a := 2 * math.Pi * float64(k) / rays
		rayCos[k], raySin[k] = math.Cos(a), math.Sin(a)
	}
}

// discModel says how a disc appears in the rectified image: its top face
// is a circle of radius r0 (pixels); the part of its side that faces the
// camera widens the silhouette by extra(ux, uy) pixels along a direction.
type discModel struct {
	r0 float64
	// side is the shift of the disc's foot from its top face in the
	// rectified image (toward the point under the camera), pixels, and
	// footR the foot's radius.
	sideX, sideY, footR float64
}

// silhouette returns how far beyond the top face's rim the disc's outline
// lies along (ux, uy): the foot circle, shifted toward the camera's nadir,
// sticks out on that side.
func (m discModel) silhouette(ux, uy float64) float64 {
	if m.sideX == 0 && m.sideY == 0 {
		return 0
	}
	along := m.sideX*ux + m.sideY*uy
	across := m.sideX*uy - m.sideY*ux
	d := m.footR*m.footR - across*across
	if d <= 0 {
		return 0
	}
	s := along + math.Sqrt(d)
	return math.Max(0, s-m.r0)
}

// abs32 is |v| (branch-free: the sign bit cleared).
func abs32(v float32) float32 {
	return math.Float32frombits(math.Float32bits(v) &^ (1 << 31))
}

func sq(v float64) float64 { return v * v }

// median returns the median of v (v is reordered).
func median(v []float64) float64 { return medianBy(v, kth) }

// medianShort is median for short slices (up to 64 values, none NaN or
// −0) by kthShort: the same value (TestMedianShortIsMedian).
func medianShort(v []float64) float64 { return medianBy(v, kthShort) }

// medianBy is median with the selection sel (kth or kthShort: either
// leaves the k smallest values before v[k]).
func medianBy(v []float64, sel func(v []float64, k int) float64) float64 {
	if len(v) == 0 {
		return 0
	}
	m := len(v) / 2
	hi := sel(v, m)
	if len(v)%2 == 1 {
		return hi
	}
	// the next smaller: the largest of those before v[m]
	lo := v[0]
	for _, u := range v[1:m] {
		if u > lo {
			lo = u
		}
	}
	return (lo + hi) / 2
}

// kth returns the k-th smallest value of v (0-based; v must hold no NaN),
// reordering v so that v[k] holds it, the values before it are no larger
// and those after it no smaller (Wirth's selection: the same value a sort
// would put at k, without sorting).
func kth(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		if hi-lo < 12 {
			// short: insertion sort
			for i := lo + 1; i <= hi; i++ {
				for j := i; j > lo && v[j] < v[j-1]; j-- {
					v[j], v[j-1] = v[j-1], v[j]
				}
			}
			break
		}
		// pivot: the median of the ends and the middle, moved to k
		mid := lo + (hi-lo)/2
		a, b, c := v[lo], v[mid], v[hi]
		pi := mid
		if (a <= b) == (b <= c) {
			pi = mid
		} else if (b <= a) == (a <= c) {
			pi = lo
		} else {
			pi = hi
		}
		v[pi], v[k] = v[k], v[pi]
		x := v[k]
		i, j := lo, hi
		for i <= j {
			for v[i] < x {
				i++
			}
			for x < v[j] {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		if j < k {
			lo = i
		}
		if k < i {
			hi = j
		}
	}
	return v[k]
}

// kthShort is kth for short slices (a cell's lumas, up to 64; no NaN): a
// quickselect whose partition has no branch that depends on the values
// (Lomuto's, with a conditional step), then an insertion sort of the last
// few. It returns the same value as kth (TestKthShortIsKth).
func kthShort(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for hi-lo >= 12 {
		// pivot: the median of the ends and the middle, moved to hi
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[mid] < v[hi] {
			v[mid], v[hi] = v[hi], v[mid]
		}
		p := v[hi]
		j := lo
		for i := lo; i < hi; i++ {
			x := v[i]
			v[i] = v[j]
			v[j] = x
			step := 0
			if x < p {
				step = 1
			}
			j += step
		}
		v[j], v[hi] = v[hi], v[j]
		switch {
		case k == j:
			return v[j]
		case k < j:
			hi = j - 1
		default:
			lo = j + 1
		}
	}
	for i := lo + 1; i <= hi; i++ {
		for j := i; j > lo && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
	return v[k]
}
