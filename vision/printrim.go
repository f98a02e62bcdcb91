package vision

import "math"

// shadeBeside measures how much a circle of radius r (px) around (x, y)
// darkens the board just beside it: along 32 rays, how far the board 1 to
// 2 mm beyond the outline falls below the board 6 mm beyond it, in
// hundredths of the board's brightness; the mean over the rays whose
// outside is the board's (no accepted disc but number self, and no hand,
// there). false when fewer than half are.
func (d *Detector) shadeBeside(pl plane, x, y, r float64, self int) (float64, bool) {
	const nr = 32
	ppm := d.v.ppm
	sum, n := 0.0, 0
	for k := 0; k < nr; k++ {
		a := 2 * math.Pi * float64(k) / nr
		cs, sn := math.Cos(a), math.Sin(a)
		fx, fy := x+cs*(r+6*ppm), y+sn*(r+6*ppm)
		if d.stats.Hands && d.hands.at(fx, fy) || d.onOtherDisc(fx, fy, self) {
			continue
		}
		near := (lum(pl.at(x+cs*(r+ppm), y+sn*(r+ppm))) + lum(pl.at(x+cs*(r+2*ppm), y+sn*(r+2*ppm)))) / 2
		sum += 100 * (lum(pl.at(fx, fy)) - near) / math.Max(d.bg.boardY, 1)
		n++
	}
	if 2*n < nr {
		return 0, false
	}
	return sum / float64(n), true
}

// basePrintsShade measures how this board's own prints darken the board
// beside them (see shadeBeside): at each base circle that no disc covers
// or lies beside and no hand is near, measured at the circle as
// calibrated. It returns the largest, and how many circles were measured.
func (d *Detector) basePrintsShade(pl plane) (shade float64, n int) {
	for _, m := range d.mk {
		if m.centre {
			continue
		}
		x, y := d.v.pxOf(m.c)
		r := m.r * d.v.ppm
		if d.onOtherDiscWithin(x, y, r+8*d.v.ppm, -1) || d.stats.Hands && d.nearHand(disc{x: x, y: y, r: r}) {
			continue
		}
		s, ok := d.shadeBeside(pl, x, y, r, -1)
		if !ok {
			continue
		}
		if n == 0 || s > shade {
			shade = s
		}
		n++
	}
	return shade, n
}

// standsBesidePrints tells whether accepted disc i, alone on the centre
// circle with a rim between a flat print's and a standing disc's (see
// dropLoneCircle), shades the board beside it as a disc standing on it
// does and this board's own prints do not: by standingShade more than the
// most any of its uncovered base circles does (see shadeBeside; at least
// minPrintsSeen of them measured). A disc's foot and its shadow darken
// the board a millimetre or two beyond its outline (our renderer's men
// and queen: 16 to 26); a print darkens it only as much as its maker
// drew its edge, and a board's prints are drawn alike: the base circles
// show how (flat prints 6 to 20 beside, the centre's within 4 of its base
// circles'; a queen on a plain print 11 above them). A board whose base
// circles are flat but whose centre circle alone is outlined would have
// that circle taken for the queen.
func (d *Detector) standsBesidePrints(i int) bool {
	pl := d.plane()
	c := d.accepted[i]
	cs, ok := d.shadeBeside(pl, c.x, c.y, c.r, i)
	if !ok {
		return false
	}
	bs, n := d.basePrintsShade(pl)
	if d.trace != nil {
		d.tracef(c.x, c.y, "shades the board beside it by %.1f, this board's base circles by %.1f at most (%d seen)", cs, bs, n)
	}
	return n >= minPrintsSeen && cs-bs >= standingShade
}

// standingShade is how much more (in hundredths of the board's
// brightness) a disc standing on the centre circle darkens the board
// beside it than the board's own base circles do (see standsBesidePrints):
// queens 11 to 16 more, flat prints −4 to 1.4 (ours and another
// renderer's). minPrintsSeen is how many base circles must be measured.
const (
	standingShade = 6.0
	minPrintsSeen = 3
)
