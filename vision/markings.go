package vision

import (
	"math"

	"github.com/boardcam/boardcam/board"
)

// Printed circles the size of a carromman — the eight base circles and the
// centre circle — look like discs to a rim detector: same radius, a dark
// outline, often a red core. marking remembers what one of them looks like
// when nothing lies on it, so that a candidate there is a disc only when it
// differs from the empty marking.
type marking struct {
	c      board.Vec // centre, board mm
	r      float64   // radius, mm
	core   float64   // radius of its red core, mm (0: none)
	centre bool      // the centre circle (else a base circle)
	// patch is the empty marking's appearance (see samplePatch), relative
	// to the board's brightness, seen centred at at; nil until learned.
	patch []float32
	at    board.Vec
}

func markingsOf(g *board.Geometry) []marking {
	var ms []marking
	mk := g.Marks()
	for _, s := range board.Sides {
		for i, k := range mk.BaseCircles(s) {
			ms = append(ms, marking{c: k.C, r: k.R, core: mk.Side(s).Circles[i].Core})
		}
	}
	cc := g.CentreCircle()
	ms = append(ms, marking{c: cc.C, r: cc.R, centre: true})
	return ms
}

// Polar sample layout of a patch: the centre, then rings of patchAngles
// samples at the radii (fractions of the marking's radius).
var patchRadii = [...]float64{0.4, 0.7, 0.9, 1.0, 1.1, 1.2, 1.32}

const patchAngles = 24

// samplePatch samples the rectified image around (x, y) (radius r px) into
// dst, dividing by the board's brightness.
func samplePatch(p plane, x, y, r, boardY float64, dst []float32) []float32 {
	dst = dst[:0]
	inv := float32(100 / math.Max(boardY, 1))
	patchPoints(x, y, r, func(_ int, px, py float64) {
		c := p.at(px, py)
		dst = append(dst, c[0]*inv, c[1]*inv, c[2]*inv)
	})
	return dst
}

// patchPoints calls f with the index and rectified position of every
// sample of a patch around (x, y) of radius r, in samplePatch's order.
func patchPoints(x, y, r float64, f func(i int, px, py float64)) {
	f(0, x, y)
	i := 1
	for _, fr := range patchRadii {
		for a := 0; a < patchAngles; a++ {
			ang := 2 * math.Pi * (float64(a) + 0.5*float64(int(fr*10)%2)) / patchAngles
			f(i, x+math.Cos(ang)*fr*r, y+math.Sin(ang)*fr*r)
			i++
		}
	}
}

// patchDiff is the mean absolute difference of two patches (in units of a
// hundredth of the board's brightness per channel), over the samples not
// masked out (mask nil: all; one entry per sample).
func patchDiff(a, b []float32, mask []bool) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return math.Inf(1)
	}
	var s float64
	n := 0
	for i := range a {
		if mask != nil && mask[i/3] {
			continue
		}
		s += math.Abs(float64(a[i] - b[i]))
		n++
	}
	if n < len(a)/3 {
		return math.Inf(1) // too little left to compare
	}
	return s / float64(n)
}

// ringTest tells an empty printed circle from a disc in one frame: on a
// printed circle the band just inside the outline (0.84–0.94 of the
// radius) shows the board, like the surface outside the circle (with a red
// core, or plain); on a disc that band is the disc's own top. It returns a
// score that is positive for a printed circle: how much more the band
// looks like the board outside than like the middle (ring), or (a plain
// ring) how closely the middle looks like the board outside (plain).
// Directions whose outside lies under a hand (hid, nil: none) are left
// out, unless that leaves fewer than half of them.
func ringTest(p plane, x, y, r float64, hid func(x, y float64) bool) float64 {
	ring, plain := ringScores(p, x, y, r, hid)
	return math.Max(ring, plain)
}

// ringScores returns ringTest's two scores: ring (a circle with a core)
// and plain (a plain ring: the middle is the board's colour).
func ringScores(p plane, x, y, r float64, hid func(x, y float64) bool) (ring, plain float64) {
	var band, in, out [3]float64
	const na = 24
	n := 0
	for a := 0; a < na; a++ {
		ang := 2 * math.Pi * float64(a) / na
		cs, sn := math.Cos(ang), math.Sin(ang)
		if hid != nil && (hid(x+cs*1.3*r, y+sn*1.3*r) || hid(x+cs*1.45*r, y+sn*1.45*r)) {
			continue
		}
		n++
		for _, f := range []float64{0.86, 0.92} {
			c := p.at(x+cs*f*r, y+sn*f*r)
			for k := 0; k < 3; k++ {
				band[k] += float64(c[k])
			}
		}
		for _, f := range []float64{1.3, 1.45} {
			c := p.at(x+cs*f*r, y+sn*f*r)
			for k := 0; k < 3; k++ {
				out[k] += float64(c[k])
			}
		}
	}
	if 2*n < na {
		// mostly under the hand: as best it can, with every direction
		return ringScores(p, x, y, r, nil)
	}
	mi, _ := p.meanIn(x, y, 0.5*r)
	for k := 0; k < 3; k++ {
		band[k] /= float64(2 * n)
		out[k] /= float64(2 * n)
		in[k] = mi[k]
	}
	dOut := math.Abs(band[0]-out[0]) + math.Abs(band[1]-out[1]) + math.Abs(band[2]-out[2])
	dIn := math.Abs(band[0]-in[0]) + math.Abs(band[1]-in[1]) + math.Abs(band[2]-in[2])
	dInOut := math.Abs(in[0]-out[0]) + math.Abs(in[1]-out[1]) + math.Abs(in[2]-out[2])
	ring = (dIn - dOut) / math.Max(dIn+dOut, 30)
	plain = 1 - dInOut/25
	return ring, plain
}

// minShadedSectors is how many of the 12 sectors of a patch must show the
// empty marking, in whatever light (see shadedSectors), for a candidate
// on it to be the marking.
const minShadedSectors = 2

// shadedSectors counts the sectors of a patch (12 of 30°) in which the
// patch cur shows the empty marking empty, lit or in a shade: the board
// outside the marking (the samples at 1.2 and 1.32 radii) is the empty
// look's times one brightness factor k (a shadow darkens, it does not
// change the colour), and every sample inside (0.4 to 1.0 radii) is the
// empty look's times a factor near k (0.6–1.6 k: a shadow's edge may
// cross the marking). A sector whose outside is not the board's (under an
// arm, another disc) does not count. A disc lying on a marking shows
// nowhere the marking's inside — its top covers the band just inside the
// outline, and the red core of a base circle or the bare wood inside a
// plain ring differs in colour or brightness from a man's top — so it
// leaves no such sector, while an empty marking the arm half covers and
// shades leaves several. mask (nil: none) marks samples not to use.
func shadedSectors(cur, empty []float32, mask []bool) int {
	const sectors = 12
	per := patchAngles / sectors
	at := func(ri, a int) int { return 1 + ri*patchAngles + a }
	// residual of sample i against the empty look times k, and what is
	// allowed (noise, and a share of the brightness for a sample half on
	// an edge)
	res := func(i int, k float64) float64 {
		var s float64
		for c := 0; c < 3; c++ {
			s += math.Abs(float64(cur[3*i+c]) - k*float64(empty[3*i+c]))
		}
		return s
	}
	tol := func(i int, k float64) float64 {
		return 8 + 0.12*k*float64(empty[3*i]+empty[3*i+1]+empty[3*i+2])
	}
	gain := func(is ...int) float64 {
		var ce, ee float64
		for _, i := range is {
			for c := 0; c < 3; c++ {
				ce += float64(cur[3*i+c] * empty[3*i+c])
				ee += float64(empty[3*i+c] * empty[3*i+c])
			}
		}
		return ce / math.Max(ee, 1e-6)
	}
	used := func(i int) bool { return i < len(cur)/3 && (mask == nil || !mask[i]) }
	n := 0
	var outs []int
	for s := 0; s < sectors; s++ {
		outs = outs[:0]
		for _, ri := range [2]int{5, 6} { // radii 1.2 and 1.32
			for a := s * per; a < (s+1)*per; a++ {
				if i := at(ri, a); used(i) {
					outs = append(outs, i)
				}
			}
		}
		if len(outs) < 2 {
			continue
		}
		k := gain(outs...)
		if k < 0.45 || k > 1.3 {
			continue
		}
		clean := true
		for _, i := range outs {
			if res(i, k) > tol(i, k) {
				clean = false
			}
		}
		seen := 0
		for ri := 0; ri <= 3 && clean; ri++ { // radii 0.4 to 1.0
			for a := s * per; a < (s+1)*per; a++ {
				i := at(ri, a)
				if !used(i) {
					continue
				}
				seen++
				ki := math.Max(0.75*k, math.Min(1.33*k, gain(i)))
				if res(i, ki) > tol(i, ki) {
					clean = false
					break
				}
			}
		}
		if clean && seen >= 4 {
			n++
		}
	}
	return n
}
