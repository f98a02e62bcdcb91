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
	centre bool      // the centre circle (else a base circle)
	// patch is the empty marking's appearance (see samplePatch), relative
	// to the board's brightness, seen centred at at; nil until learned.
	patch []float32
	at    board.Vec
}

func markingsOf(g *board.Geometry) []marking {
	var ms []marking
	for _, s := range board.Sides {
		for _, k := range g.BaseCircles(s) {
			ms = append(ms, marking{c: k.C, r: k.R})
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
// looks like the board outside than like the middle, or (a plain ring)
// how closely the middle looks like the board outside. Directions whose
// outside lies under a hand (hid, nil: none) are left out, unless that
// leaves fewer than half of them.
func ringTest(p plane, x, y, r float64, hid func(x, y float64) bool) float64 {
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
		return ringTest(p, x, y, r, nil)
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
	ring := (dIn - dOut) / math.Max(dIn+dOut, 30)
	plain := 1 - dInOut/25
	return math.Max(ring, plain)
}
