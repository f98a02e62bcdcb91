package vision

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/boardcam/boardcam/board"
)

// markingTol is how close (as a share of the marking's radius) a
// candidate's centre must be to the centre circle's to be suspected of
// being that circle, baseCircleTol the same for a base circle.
const (
	markingTol    = 0.3
	baseCircleTol = 1.3
)

// printedRing is the ringTest score above which a candidate on a printed
// circle is the circle (discs score below −0.2). An empty base circle
// clearly has a core (see Detector.coredBase) when its ring score is above
// coredRing and its plain score below coredPlain (its middle far from the
// board's colour: a red core scores −3 to −8, the middle of a plain ring
// about 0).
const (
	printedRing = 0.1
	coredRing   = 0.3
	coredPlain  = -1.0
)

// Patches whose mean difference is under this many hundredths of the
// board's brightness are the same picture: a disc on a base circle differs
// far more; the queen on the red centre circle differs from the empty
// circle by about 5 (its shadow, bevel and grooves), a frame's noise by
// about 2.
const (
	samePatch       = 6.0
	samePatchCentre = 4.0
)

// resolveMarkings drops the candidates found since index from that are
// printed circles rather than discs, and learns what the empty circles
// look like.
func (d *Detector) resolveMarkings(pl plane, from int) {
	out := d.accepted[:from]
	drop := make([]bool, len(d.accepted))
	for i := from; i < len(d.accepted); i++ {
		c := &d.accepted[i]
		c.marking = -1
		for mi := range d.mk {
			m := &d.mk[mi]
			tol := markingTol * m.r
			if !m.centre {
				// makers place base circles differently: up to about
				// 16 mm from where the geometry puts them
				tol = baseCircleTol * m.r
			}
			if c.top.Dist(m.c) <= tol && math.Abs(m.r-d.g.Radius(board.White)) < 3 {
				c.marking = mi
				break
			}
		}
	}
	// The base circles of a board are all alike: once one shows a core
	// clearly (its band the board's, its middle not), a candidate on a
	// base circle whose middle is the board's colour is a man of about the
	// board's colour, not a plain printed ring.
	for i := from; i < len(d.accepted) && !d.coredBase; i++ {
		c := d.accepted[i]
		if c.marking >= 0 && !d.mk[c.marking].centre && c.hidden == 0 {
			r := d.mk[c.marking].r * d.v.ppm
			if ring, plain := d.ringScores(pl, c.x, c.y, r); ring > coredRing && plain < coredPlain {
				d.coredBase = true
				d.core = d.coreColour(pl, c.x, c.y, r)
			}
		}
	}
	for i := from; i < len(d.accepted); i++ {
		c := d.accepted[i]
		c.idx = i
		drop[i] = c.marking >= 0 && d.isPrinted(pl, c)
		if c.marking >= 0 && d.trace != nil {
			m := d.mk[c.marking]
			verdict := "kept"
			if drop[i] {
				verdict = "dropped"
			}
			ring, plain := d.ringScores(pl, c.x, c.y, m.r*d.v.ppm)
			d.tracef(c.x, c.y, "%s: on the printed circle %d (ring %.2f, plain %.2f, cored %v, hidden %.2f, patch learned %v at %.1f mm)", verdict, c.marking, ring, plain, d.coredBase, c.hidden, m.patch != nil, c.top.Dist(m.at))
		}
	}
	for i := from; i < len(d.accepted); i++ {
		if !drop[i] {
			out = append(out, d.accepted[i])
		}
	}
	d.accepted = out
}

// onMarking reports whether candidate c lies on a printed circle the size
// of a man (as resolveMarkings finds them).
func (d *Detector) onMarking(c disc) bool {
	top := d.v.mmOf(c.x, c.y)
	for _, m := range d.mk {
		tol := markingTol * m.r
		if !m.centre {
			tol = baseCircleTol * m.r
		}
		if top.Dist(m.c) <= tol && math.Abs(m.r-d.g.Radius(board.White)) < 3 {
			return true
		}
	}
	return false
}

// isPrinted decides whether a candidate on a printed circle is only the
// circle.
func (d *Detector) isPrinted(pl plane, c disc) bool {
	m := &d.mk[c.marking]
	r := m.r * d.v.ppm
	if m.centre {
		// The red centre circle is the queen's size and colour. Once its
		// empty look is known (see classify: the queen seen elsewhere),
		// a candidate that looks like it is the circle; before, a plain
		// (home board) circle is known by its ring, and a red disc on it
		// is reported, with a low score: the queen, or the printed circle.
		if c.hidden > 0 {
			return false
		}
		if d.stats.Hands && d.nearHand(c) && d.queenWasAt(c) {
			// a hand beside it spoils the ring test; the queen lay
			// here in the last frame
			return false
		}
		if d.ringTest(pl, c.x, c.y, r) > printedRing {
			d.patch = samplePatch(pl, c.x, c.y, r, d.bg.boardY, d.patch)
			d.learnMarking(m, c)
			return true
		}
		if m.patch != nil {
			d.patch = samplePatch(pl, c.x, c.y, r, d.bg.boardY, d.patch)
			mask := d.coveredSamples(c.x, c.y, r, c.idx)
			return patchDiff(d.patch, m.patch, mask) <= samePatchCentre
		}
		return false
	}
	if d.printedHere(pl, c, m) {
		d.patch = samplePatch(pl, c.x, c.y, r, d.bg.boardY, d.patch)
		d.learnMarking(m, c)
		return true
	}
	if m.patch != nil && c.top.Dist(m.at) > printedAt*m.r {
		// A print never moves: the empty circle was seen at m.at, and
		// a candidate farther from there than a fit errs is a disc
		// lying partly on the circle. (The ring test below, made where
		// the candidate is, scored a white man 6 mm off a cored circle
		// as the print, and learning its look there moved the circle
		// onto the man.)
		return false
	}
	// judged where the candidate is: a man beside a base circle must not
	// be mistaken for the circle
	d.patch = samplePatch(pl, c.x, c.y, r, d.bg.boardY, d.patch)
	if c.hidden == 0 {
		ring, plain := d.ringScores(pl, c.x, c.y, r)
		if d.coredBase && !sameHue(d.coreColour(pl, c.x, c.y, r), d.core) {
			// the middle is not this board's core: a disc lies there
			return false
		}
		if ring > printedRing || (!d.coredBase && plain > printedRing) {
			d.learnMarking(m, c)
			return true
		}
	}
	if m.patch != nil && c.top.Dist(m.at) <= 0.25*m.r {
		// A print never moves: compare the place where the empty
		// circle was seen, not the candidate's fitted centre. The fit
		// on a print wanders by a few millimetres (the rings and lines
		// around it pull the outline), and a patch taken that far off
		// differs from the empty look as a disc does (a print kept as
		// a man at 3 mm). A disc on the circle covers most of the
		// patch wherever within this tolerance it lies.
		ax, ay := d.v.pxOf(m.at)
		d.patch = samplePatch(pl, ax, ay, r, d.bg.boardY, d.patch)
		// compare what other discs do not cover
		mask := d.coveredSamples(ax, ay, r, c.idx)
		if patchDiff(d.patch, m.patch, mask) > samePatch {
			// The hand mask takes in the arm's shadow and more: what is
			// seen of the circle may still be the empty circle, in the
			// arm's shade. Without a hand in the picture nothing shades
			// it: a disc lies there.
			if !d.stats.Hands {
				return false
			}
			if n := shadedSectors(d.patch, m.patch, d.discSamples(ax, ay, r, c.idx)); n >= minShadedSectors {
				if d.trace != nil {
					d.tracef(c.x, c.y, "the empty circle in %d sectors, shaded", n)
				}
				return true
			}
			return false
		}
		// still the empty circle: follow slow changes of the light
		for i := range m.patch {
			if !mask[i/3] {
				m.patch[i] += 0.1 * (d.patch[i] - m.patch[i])
			}
		}
		return true
	}
	return false
}

// printedAt is how close to a base circle's measured centre, as a share of
// its radius, a candidate must lie to be taken for the printed circle
// (the measurement and the candidate's centre each err by a millimetre or
// so).
const printedAt = 0.25

// printedHere tells a base circle measured by calibration from a disc on
// it: a candidate centred on the circle as measured, of the printed
// circle's size, with a red middle (or, on a board whose circles have no
// core, the board's colour there) is the print — however red and round a
// printed core is, it lies flat and never moves. It is a disc only when
// it came there: a red disc reported within two radii in the last frame,
// and no other red disc on the board now (she is not elsewhere).
func (d *Detector) printedHere(pl plane, c disc, m *marking) bool {
	// this board's own markings: measured, or (a rendered board's truth)
	// as drawn
	if d.cal == nil || d.cal.Markings == nil || (d.cal.Markings.Source != "measured" && d.cal.Markings.Source != "drawn") {
		return false
	}
	if d.trace != nil {
		d.tracef(c.x, c.y, "printedHere: %.2f r from the measured centre, outline %.2f r, core %.1f", c.top.Dist(m.c)/m.r, c.outline/d.v.ppm/m.r, m.core)
	}
	if c.top.Dist(m.c) > printedAt*m.r {
		return false
	}
	// A disc of the striker's size (as the detector measured it, with
	// this set's sizes) is not a print of a man's. The outline alone does
	// not tell: it is measured in half-pixel steps, and the lines and
	// rings around a print widen it to 1.25 radii at 0.6 px/mm. The
	// measured size counts, not only the final one: a striker whose look
	// is doubted (an arm withdrawing over it) is examined as a man, and
	// taken for the print here its look would be learnt as the empty
	// circle's, hiding the striker until it moves.
	if c.big || c.measured || c.outline/d.v.ppm < 0.7*m.r {
		return false // a disc larger or smaller than the print
	}
	f := featuresOf(c.colour, d.bg.illumAt(c.x, c.y))
	cored := m.core > 0
	if cored && !reddish(f) {
		return false // a white or black man lying on the circle
	}
	if !cored && math.Abs(f[0]-1) > 0.2 {
		return false // a plain ring shows the board inside: this does not
	}
	return !d.queenCame(c)
}

// queenCame reports whether the red candidate c is the queen come to
// where it lies: the queen was reported within two radii of it in the
// last frame, and no other red disc is on the board now (else she is
// there, and c is a print).
func (d *Detector) queenCame(c disc) bool {
	came := false
	for _, p := range d.prev {
		if !p.parked && p.kind == board.Queen && math.Hypot(p.x-c.x, p.y-c.y) < 2*c.r {
			came = true
		}
	}
	if !came {
		return false
	}
	for _, o := range d.accepted {
		if o.x == c.x && o.y == c.y || o.marking >= 0 {
			continue
		}
		if reddish(featuresOf(o.colour, d.bg.illumAt(o.x, o.y))) {
			return false // the queen is elsewhere: this is the print again
		}
	}
	return true
}

// reddish reports a red hue whatever the brightness (glare adds to every
// channel alike): red well above green, green not far above blue.
func reddish(f features) bool { return f[1] > 0.2 && f[2] < 0.6*f[1] }

// queenWasAt reports whether the queen was reported at c's place in the
// last frame.
func (d *Detector) queenWasAt(c disc) bool {
	for _, p := range d.prev {
		if p.kind == board.Queen && !p.parked && math.Hypot(p.x-c.x, p.y-c.y) < 2 {
			return true
		}
	}
	return false
}

// coreColour returns the opponent colours (red − green, green − blue)
// of the mean colour within half the radius r of (x, y), relative to the
// board's brightness.
func (d *Detector) coreColour(pl plane, x, y, r float64) [2]float64 {
	mi, _ := pl.meanIn(x, y, 0.5*r)
	f := featuresOf(mi, d.bg.boardY)
	return [2]float64{f[1], f[2]}
}

// sameHue reports whether the opponent colours a are of the hue of the
// core b: the same direction (within about 35°) and a strength within a
// factor of about 3 (a shade or the lamp's fall-off scales them, glare
// adds to red and green alike). A core of little colour tells nothing
// (true).
func sameHue(a, b [2]float64) bool {
	nb := math.Hypot(b[0], b[1])
	if nb < 0.15 {
		return true
	}
	na := math.Hypot(a[0], a[1])
	if na < 0.35*nb || na > 3*nb {
		return false
	}
	return (a[0]*b[0]+a[1]*b[1])/(na*nb) >= 0.8
}

// ringTest is the package's ringTest with the directions under a hand
// left out.
func (d *Detector) ringTest(pl plane, x, y, r float64) float64 {
	ring, plain := d.ringScores(pl, x, y, r)
	return math.Max(ring, plain)
}

// ringScores is the package's ringScores with the directions under a hand
// left out.
func (d *Detector) ringScores(pl plane, x, y, r float64) (ring, plain float64) {
	var hid func(x, y float64) bool
	if d.stats.Hands {
		hid = d.hands.at
	}
	return ringScores(pl, x, y, r, hid)
}

// coveredSamples marks the samples of a patch around (x, y) that lie on an
// accepted disc other than number self (or under a hand).
func (d *Detector) coveredSamples(x, y, r float64, self int) []bool {
	return d.samplesOnDiscs(x, y, r, self, true)
}

// discSamples marks the samples of a patch around (x, y) that lie on an
// accepted disc other than number self (not those under a hand).
func (d *Detector) discSamples(x, y, r float64, self int) []bool {
	return d.samplesOnDiscs(x, y, r, self, false)
}

// samplesOnDiscs marks the samples of a patch around (x, y) that lie on an
// accepted disc other than number self, and with hands those under a hand.
// The slice is reused by the next call.
func (d *Detector) samplesOnDiscs(x, y, r float64, self int, hands bool) []bool {
	n := 1 + len(patchRadii)*patchAngles
	if cap(d.mask) < n {
		d.mask = make([]bool, n)
	}
	mask := d.mask[:n]
	patchPoints(x, y, r, func(i int, px, py float64) {
		mask[i] = hands && d.hands.at(px, py)
		for k, a := range d.accepted {
			if k == self {
				continue
			}
			dx, dy := px-a.x, py-a.y
			if rr := a.r + 2; dx*dx+dy*dy <= rr*rr {
				mask[i] = true
				return
			}
		}
	})
	return mask
}

// learnMarking remembers the last sampled patch as the empty marking m,
// seen where the candidate c is.
func (d *Detector) learnMarking(m *marking, c disc) {
	m.patch = append(m.patch[:0], d.patch...)
	m.at = c.top
}

// neighbours counts the other accepted discs within lim pixels of c.
func (d *Detector) neighbours(c disc, lim float64) int {
	n := 0
	for _, a := range d.accepted {
		if a.x == c.x && a.y == c.y {
			continue
		}
		if math.Hypot(a.x-c.x, a.y-c.y) < lim {
			n++
		}
	}
	return n
}

// menSized makes men of the striker-sized discs whose outline reads as
// the men's do. The outline of a disc (see outlineRadius) reads a little
// beyond its rim, by how much depending on the set (a natural-wood man's
// bevel and shadow read further out than a black man's), and where a
// set's striker is only a few pixels larger than its men (a 38 mm
// striker: 2 px at 720p) men of one colour can read half-way between the
// two sizes. How the men read is measured in the frame: the median
// outline of the discs seen whole on bare board (the striker is one
// disc, the men the rest), when there are at least minOutlines of them.
// A striker-sized disc reading no more than that, give or take the
// outline's resolution (outlineStep), reads as a man; one reading the
// striker's size or more stays striker-sized, and so does a moving one
// (its blur moves its outline).
func (d *Detector) menSized() {
	out := d.outlines[:0]
	for _, c := range d.accepted {
		if measuresSet(c) {
			out = append(out, c.outline)
		}
	}
	d.outlines = out
	if len(out) < minOutlines {
		return
	}
	lim := math.Min(median(out)+outlineStep, d.rStr)
	for i := range d.accepted {
		c := &d.accepted[i]
		if !c.big || !c.fresh || c.inHand || c.outline > lim+1e-9 || !d.bg.stillAt(c.x, c.y, c.r) {
			continue // (a moving disc's blur moves its outline)
		}
		m := *c
		if d.toMan(&m) {
			if d.trace != nil {
				d.tracef(c.x, c.y, "striker-sized, but its outline %.1f reads as the men's (%.1f and less): a man", c.outline, lim)
			}
			*c = m
		}
	}
}

// minOutlines is how many discs seen whole [Detector.menSized] and
// [Detector.ringedStrikers] need to measure how the men's outlines read.
const minOutlines = 3

// measuresSet reports whether disc c is one the men's outlines are
// measured on: seen whole, on bare board.
func measuresSet(c disc) bool {
	return !c.parked && !c.inHand && c.marking < 0 && c.hidden == 0 && c.support >= 0.9
}

// ringedStrikers makes striker-sized the man-sized discs that are a ring
// printed on a striker's face. A striker's rim can read weaker than the
// dark ring printed inside it (a light striker on a light board), and
// its outline (the outermost strong ring, see outlineRadius) is then
// that ring, a man's size or less; but its edges go on out to its rim,
// where a man's end at his. (Edges that run on past the largest radius
// measured are a moving disc's blur or a pack's, not a rim.) How far a
// man's edges reach is measured in
// the frame, as menSized does: the median reach of the discs seen whole
// on bare board. A man-sized disc whose edges reach half the difference
// of the two sizes further (a striker's rim reads where a man's does,
// from its own size), seen whole, away from hands, printed circles and
// packs (where other discs' edges ring it), whose striker-sized outline
// is supported and a plausible disc, is the striker; moving, only with
// the striker's face.
func (d *Detector) ringedStrikers(pl plane) {
	if d.sizeTrial {
		return
	}
	out := d.outlines[:0]
	for _, c := range d.accepted {
		if measuresSet(c) {
			out = append(out, c.reach)
		}
	}
	d.outlines = out
	if len(out) < minOutlines {
		return
	}
	lim := median(out) + (d.rStr-d.rMan)/2
	var boardF features
	bf := false
	for i := range d.accepted {
		c := &d.accepted[i]
		if c.big || !c.fresh || !measuresSet(*c) || c.reach < lim || c.supStr < d.cfg.MinSupport || math.IsInf(c.reach, 1) {
			continue
		}
		if d.neighbours(*c, d.rStr+d.rMan+2) > 1 || d.stats.Hands && d.nearHand(*c) {
			continue
		}
		if !d.bg.stillAt(c.x, c.y, c.r) && !d.strikersFace(c.colour) {
			// a moving disc's blur carries its edges outward: only one
			// with the striker's face
			continue
		}
		m, ok := d.strikerSized(pl, *c, &boardF, &bf)
		if !ok {
			continue
		}
		m.measured = true
		m.sizeScore = clamp01(0.5 + (c.reach-lim)/(d.rStr-d.rMan))
		if d.trace != nil {
			d.tracef(c.x, c.y, "man-sized by its outline %.1f, but its edges reach %.1f (the men's %.1f): a ring printed on the striker", c.outline, c.reach, median(out))
		}
		*c = m
	}
}

// strikersFace reports whether colour (the middle of a disc in this
// frame) is the striker's face as last seen whole (see rememberStriker).
func (d *Detector) strikersFace(colour [3]float64) bool {
	if !d.strColOK {
		return false
	}
	str := d.strCol
	for ch := range str {
		str[ch] *= d.bg.boardY / strRefY
	}
	return faceDist(colour, str) < faceSame
}

// strikerSized returns disc c made striker-sized, its striker hypothesis
// fitted, or false when that hypothesis is not a plausible disc. boardF is
// the bare board's features, worked out at the first call (bf).
func (d *Detector) strikerSized(pl plane, c disc, boardF *features, bf *bool) (disc, bool) {
	if !*bf {
		*boardF, *bf = featuresOf(d.bg.boardBGR, d.bg.boardY), true
	}
	if !d.plausible(pl, c.x, c.y, d.rStr, *boardF, c.supStr, 0, nil, &c.str) {
		return c, false
	}
	c.str.support = c.supStr
	c.setSize(true, d)
	return c, true
}

// keepSizes keeps a disc lying still striker-sized: a disc found at the
// place (within a pixel) of one found there in the last frame, where
// nothing changed, is that disc, and it is striker-sized when at least
// half of its readings there said so. A striker's rim can read weaker
// than the dark ring printed inside it (a light striker on a light
// board), and its outline (the outermost strong ring, see outlineRadius)
// is then in some frames that ring, a man's size; a man's rim is his
// outermost edge, and a striker's size is not read where there is none.
// (Only that way: a striker coming to rest on a printed circle reads a
// man's size in its first frames there.) It sets each fresh disc's
// counts and makes it striker-sized when its striker hypothesis is a
// plausible disc.
func (d *Detector) keepSizes(pl plane) {
	var boardF features
	bf := false
	for i := range d.accepted {
		c := &d.accepted[i]
		if !c.fresh || c.inHand || c.parked {
			continue
		}
		c.bigN, c.manN = 0, 0
		if c.hidden == 0 && d.bg.stillAt(c.x, c.y, c.r) {
			for _, p := range d.prev {
				if math.Hypot(p.x-c.x, p.y-c.y) < 1 {
					c.bigN, c.manN = p.bigN, p.manN
					break
				}
			}
		}
		if c.big {
			c.bigN++
			continue
		}
		c.manN++
		if c.bigN < c.manN {
			continue
		}
		m, ok := d.strikerSized(pl, *c, &boardF, &bf)
		if !ok {
			continue
		}
		m.sizeScore = 0.5
		if d.trace != nil {
			d.tracef(c.x, c.y, "man-sized, but striker-sized in %d of %d readings lying still: the striker", c.bigN, c.manN+c.bigN)
		}
		*c = m
	}
}

// classify gives every accepted disc its kind.
func (d *Detector) classify() {
	d.bg.cover(d.accepted)
	for i := range d.accepted {
		c := &d.accepted[i]
		c.feat = featuresOf(c.colour, d.bg.illumAt(c.x, c.y))
	}
	// at most one striker: the one whose outline is the most clearly a
	// striker's and best seen (an outline short of a striker's counts
	// against it fully, one beyond it — a contact shadow, motion blur —
	// half; what a hand hides counts half as not seen); the others are
	// men if their outline fits a man
	si := -1
	strikerness := func(c disc) float64 {
		off := (d.rStr - c.outline) / (d.rStr - d.rMan)
		if off < 0 {
			off = -off / 2
		}
		return c.support*(1-c.hidden/2) - off
	}
	for i, c := range d.accepted {
		if c.big && (si < 0 || strikerness(c) > strikerness(d.accepted[si])) {
			si = i
		}
	}
	out := d.accepted[:0]
	for i, c := range d.accepted {
		if c.big && i != si && d.trace != nil {
			w := d.accepted[si]
			d.tracef(c.x, c.y, "striker-sized, but %.1f,%.1f is more so (%.2f against %.2f): a man %v", w.x, w.y, strikerness(w), strikerness(c), c.man.ok)
		}
		if c.big && i != si && !d.toMan(&c) {
			continue
		}
		out = append(out, c)
	}
	d.accepted = out
	qi := d.arrangementQueen()
	// Two queen-coloured discs, one of them alone on the centre circle not
	// yet learned, the other clearly a queen elsewhere (wholly seen, a
	// man's outline, on no printed circle): the one on the centre is the
	// printed circle (the queen has left it).
	ci, nq := -1, 0
	for i, c := range d.accepted {
		if c.big || !queenish(c.feat) {
			continue
		}
		if c.marking >= 0 && d.mk[c.marking].centre && d.mk[c.marking].patch == nil && d.neighbours(c, 1.2*2*d.rMan) < 3 {
			ci = i
			continue
		}
		if c.marking < 0 && c.hidden == 0 && c.support >= 0.9 && c.sym >= goodSymmetry && c.sizeScore > 0.5 {
			nq++
		}
	}
	if nq >= 1 && ci >= 0 {
		c := d.accepted[ci]
		m := &d.mk[c.marking]
		// Its empty look is learned only when nothing covers part of it:
		// the queen that just left it may still overlap it.
		covered := d.onOtherDiscWithin(c.x, c.y, m.r*d.v.ppm, ci)
		if d.trace != nil {
			d.tracef(c.x, c.y, "dropped: the red centre circle (the queen is elsewhere); partly covered %v", covered)
		}
		if !covered {
			d.patch = samplePatch(d.plane(), c.x, c.y, m.r*d.v.ppm, d.bg.boardY, d.patch)
			d.learnMarking(m, c)
		}
		d.accepted = append(d.accepted[:ci], d.accepted[ci+1:]...)
		qi = d.arrangementQueen()
	}
	if !d.cfg.NoAutoLearn && (!d.cls.Learned() || d.cls.Source == "frames" || (d.setClasses && d.open == nil)) {
		if op, err := learnOpening(d.g, d.accepted, d.cal.Orientation.Breaker); err == nil {
			d.cls, d.open = op.Model, op
		}
	}
	if d.cls.Learned() {
		classifyAll(d.cls, d.accepted, qi)
	} else {
		d.classifyUnlearned(qi)
	}
	d.dropLoneCircle()
}

// lonelyOnCentre reports whether c is a queen alone on the red centre
// circle whose empty look is not known: the queen, or the printed circle
// itself (see dropLoneCircle).
func (d *Detector) lonelyOnCentre(c disc) bool {
	return c.kind == board.Queen && c.marking >= 0 && d.mk[c.marking].centre && d.mk[c.marking].patch == nil &&
		d.neighbours(c, 1.2*2*d.rMan) < 3
}

// dropLoneCircle decides about a queen alone on the red centre circle
// whose empty look is not known (see lonelyOnCentre). The circle is the
// queen's size and colour, and on many boards its ink the queen's red: it
// is reported as the queen — with half its score, see toDetection — when
// the queen was reported there in the last frame (she stayed after the
// opening arrangement broke up, or came there), or when it stands up from
// the board (see rimShade) and a game is in progress, the striker or men
// of both colours being on the board (a queen on the board always has men
// of both colours with it: a side's last man cannot be pocketed before the
// queen is covered). A game in progress alone says nothing of whether the
// queen is still on the board; an empty board, or one with a stray man,
// does not get a queen on its centre circle. Otherwise the candidate is
// parked — kept like a disc, carried over while nothing changes there, but
// not reported — until one of these holds.
func (d *Detector) dropLoneCircle() {
	li := -1
	var white, black, striker bool
	for i := range d.accepted {
		d.accepted[i].parked = false
		c := d.accepted[i]
		switch {
		case d.lonelyOnCentre(c):
			li = i
		case c.kind == board.White:
			white = true
		case c.kind == board.Black:
			black = true
		case c.kind == board.Striker:
			striker = true
		}
	}
	if li < 0 {
		return
	}
	c := &d.accepted[li]
	shade, ok := d.rimShade(d.plane(), li)
	if d.queenWasAt(*c) {
		// She lay here in the last frame: she still does, unless what
		// lies here now is flat — she left (struck, pocketed, lifted)
		// and uncovered a plain print of her size.
		c.parked = ok && shade < flatRim
		if d.trace != nil && c.parked {
			d.tracef(c.x, c.y, "the queen was on the red centre circle, now it lies flat (rim %.1f): the print", shade)
		}
		return
	}
	gameOn := striker || white && black
	c.parked = !gameOn || !ok || shade < standingRim
	if c.parked && gameOn && ok && shade >= flatRim {
		// between a flat print's rim and a standing disc's: an outlined
		// print, or the queen lit flat (see standsBesidePrints)
		c.parked = !d.standsBesidePrints(li)
	}
	if d.trace != nil {
		d.tracef(c.x, c.y, "alone on the red centre circle: rim %.1f (seen %v), game on %v, parked %v", shade, ok, gameOn, c.parked)
	}
}

// flatRim is the rim (see rimShade) under which a disc on the centre
// circle lies flat: the print, not the queen, even where she lay in the
// last frame. Flat prints read −9 to 3 (another renderer's, ours drawn
// plain: about 0), a real board's outlined print 4 to 14.4, a queen 13
// (ours on a plain print) to 25. Half a standing disc's rim.
const flatRim = standingRim / 2

// standingRim is how much darker than its top (in hundredths of the
// board's brightness) the rim of a disc standing on the board is, all
// around (see rimShade): its bevelled edge turns from the light and its
// foot shades the board beside it (our renderer's queen: 16 to 25, the
// least under a high lamp with glare on a light, powdered board). A flat
// print keeps its colour to its edge (another renderer's red centre
// circles: −9 to 3); a printed dark outline, blurred at a rectified pixel
// of 1.6 mm, darkens the edge of the real boards' red circles by 4 to
// 14.4. The margins are small: a board whose print is outlined more
// heavily has its centre taken for the queen (as every board's was before
// this test), a queen lit flat enough is not reported until she moves.
const standingRim = 15.0

// rimShade measures whether accepted disc i stands up from the board:
// along 16 rays, how far the darkest point from 3 mm inside its outline to
// 1 mm outside falls below its top (the median over the middle third of
// its radius), in hundredths of the board's brightness; the median over
// the rays whose outside is the board's (no other disc or hand within
// 4 mm beyond the outline). false when fewer than half are.
func (d *Detector) rimShade(pl plane, i int) (float64, bool) {
	c := d.accepted[i]
	return d.rimAt(pl, c.x, c.y, c.r, i)
}

// rimAt is rimShade for a circle of radius r (px) around (x, y), other
// than accepted disc number self (-1: none).
func (d *Detector) rimAt(pl plane, x, y, r float64, self int) (float64, bool) {
	const nr = 16
	ppm := d.v.ppm
	var top []float64
	for k := 0; k < nr; k++ {
		a := 2 * math.Pi * float64(k) / nr
		for _, f := range []float64{0.3, 0.45, 0.6} {
			top = append(top, lum(pl.at(x+f*r*math.Cos(a), y+f*r*math.Sin(a))))
		}
	}
	in := median(top)
	var dips []float64
	for k := 0; k < nr; k++ {
		a := 2 * math.Pi * (float64(k) + 0.5) / nr
		cs, sn := math.Cos(a), math.Sin(a)
		ox, oy := x+cs*(r+4*ppm), y+sn*(r+4*ppm)
		if d.stats.Hands && d.hands.at(ox, oy) || d.onOtherDisc(ox, oy, self) {
			continue
		}
		low := math.Inf(1)
		for o := -3.0; o <= 1; o += 0.5 {
			low = math.Min(low, lum(pl.at(x+cs*(r+o*ppm), y+sn*(r+o*ppm))))
		}
		dips = append(dips, 100*(in-low)/math.Max(d.bg.boardY, 1))
	}
	if 2*len(dips) < nr {
		return 0, false
	}
	return median(dips), true
}

// lum is a colour's brightness (the mean of its channels).
func lum(c [3]float32) float64 { return float64(c[0]+c[1]+c[2]) / 3 }

// onOtherDisc reports whether (x, y) lies on an accepted disc other than
// number self (or within 2 px of one).
func (d *Detector) onOtherDisc(x, y float64, self int) bool {
	for k, a := range d.accepted {
		if k == self {
			continue
		}
		if dx, dy := x-a.x, y-a.y; dx*dx+dy*dy <= (a.r+2)*(a.r+2) {
			return true
		}
	}
	return false
}

// onOtherDiscWithin reports whether an accepted disc other than number
// self overlaps the circle of radius r (px) around (x, y).
func (d *Detector) onOtherDiscWithin(x, y, r float64, self int) bool {
	for k, a := range d.accepted {
		if k == self {
			continue
		}
		if dx, dy := x-a.x, y-a.y; dx*dx+dy*dy < (a.r+r)*(a.r+r) {
			return true
		}
	}
	return false
}

// arrangementQueen returns the index of the disc the arrangement says is
// the queen — a queen-coloured disc on the centre circle with at least
// three men touching it — or -1.
func (d *Detector) arrangementQueen() int {
	for i, c := range d.accepted {
		if c.big || !queenish(c.feat) || c.top.Len() > markingTol*d.g.CentreCircle().R+3 {
			continue
		}
		if d.neighbours(c, 1.2*2*d.rMan) >= 3 {
			return i
		}
	}
	return -1
}

// redMen tells the accepted men that are queen-coloured: red, and, when
// more than two are (a set has at most two red pieces; a warm lamp or a
// camera's colour cast reddens natural wood), clearly redder than the men
// of the set are as a rule.
func (d *Detector) redMen() map[int]bool {
	out := map[int]bool{}
	var redness []float64
	for i, c := range d.accepted {
		if c.big {
			continue
		}
		redness = append(redness, c.feat[1]/math.Max(c.feat[0], 0.05))
		if queenish(c.feat) {
			out[i] = true
		}
	}
	if len(out) <= 2 {
		return out
	}
	typical := median(redness)
	for i := range out {
		c := d.accepted[i]
		if c.feat[1]/math.Max(c.feat[0], 0.05)-typical < 0.6 {
			delete(out, i)
		}
	}
	return out
}

// classifyUnlearned classifies before a model is learned: queen-coloured
// men are the queen; the others are split into two colour groups when they
// clearly form two (the darker is black), else classified by priors.
// Frames with a clear split teach the online model.
func (d *Detector) classifyUnlearned(qi int) {
	var idx []int
	var fs []features
	red := d.redMen()
	for i := range d.accepted {
		c := &d.accepted[i]
		if c.big {
			c.kind, c.classScore = board.Striker, c.sizeScore
			continue
		}
		if red[i] {
			continue
		}
		idx = append(idx, i)
		fs = append(fs, c.feat)
	}
	// (Two groups 3.5 spreads apart are two colours: natural wood under a
	// cool cast that hides its colour splits from black men at 3.8, and
	// the priors then call every man black. Learning wants more, below.)
	g, sep, ok := splitMen(fs)
	split := ok && sep >= 3.5
	if d.trace != nil {
		d.tracef(0, 0, "unlearned classes: %d men (%d queen-coloured apart), split %v separation %.2f", len(idx), len(red), ok, sep)
	}
	var cent [2]features
	if split {
		var n [2]float64
		for j, i := range idx {
			for k := 0; k < 3; k++ {
				cent[g[j]][k] += d.accepted[i].feat[k]
			}
			n[g[j]]++
		}
		for a := 0; a < 2; a++ {
			for k := 0; k < 3; k++ {
				cent[a][k] /= n[a]
			}
		}
	}
	if d.trace != nil && ok {
		for j, i := range idx {
			d.tracef(0, 0, "unlearned classes: group %d: %.3f", g[j], d.accepted[i].feat)
		}
	}
	for i := range d.accepted {
		c := &d.accepted[i]
		if c.big {
			continue
		}
		pl := priorLike(c.feat)
		p := softmax(pl[:])
		c.menP = [3]float64{p[0], p[1], p[2]}
		switch {
		case red[i]:
			c.kind = board.Queen
			c.classScore = math.Max(c.menP[board.Queen], 0.5) * c.sizeScore
			continue
		case split:
			// the nearer group's colour
			d0, d1 := featDist(c.feat, cent[0]), featDist(c.feat, cent[1])
			c.kind = board.Black
			if d1 < d0 {
				c.kind = board.White
			}
			pp := softmax([]float64{-d0 / 2, -d1 / 2})
			c.menP[board.Black], c.menP[board.White] = pp[0], pp[1]
			c.classScore = math.Max(pp[0], pp[1]) * c.sizeScore
		default:
			// priors, without the queen (only one disc is the queen)
			c.kind = board.White
			if p[board.Black] > p[board.White] {
				c.kind = board.Black
			}
			c.classScore = c.menP[c.kind] / (c.menP[board.White] + c.menP[board.Black]) * c.sizeScore
		}
	}
	keepOneQueen(d.accepted, qi)
	if split && (sep >= 5 && len(idx) >= 4 || sep >= 7 && len(idx) >= 2) && !d.cfg.NoAutoLearn {
		for j, i := range idx {
			k := board.Black
			if g[j] == 1 {
				k = board.White
			}
			d.online.add(k, d.accepted[i].feat)
		}
		if qi >= 0 {
			d.online.add(board.Queen, d.accepted[qi].feat)
		}
		d.online.frames++
		if m := d.online.model(); m != nil && d.cls == nil {
			d.cls = m
		}
	} else if split && d.online.frames == 0 && d.online.gapFrame == nil && !d.cfg.NoAutoLearn && gapOf(fs, g) >= oneFrameGap {
		// Under the bar but apart by a clear gap: kept for LearnSet,
		// which learns from one frame; the detector waits for the bar.
		o := &onlineModel{frames: 1}
		for j, i := range idx {
			k := board.Black
			if g[j] == 1 {
				k = board.White
			}
			o.add(k, d.accepted[i].feat)
		}
		if qi >= 0 {
			o.add(board.Queen, d.accepted[qi].feat)
		}
		d.online.gapFrame = o
	}
}

// LearnOpening learns the class model from the last frame, which must show
// the opening arrangement (queen in the middle, the men in two rings
// around it), and infers the breaker's side from it (see
// calibrate.InferBreaker). The model is used from the next frame on.
func (d *Detector) LearnOpening() (*Opening, error) {
	if d.frames == 0 {
		return nil, errors.New("vision: learn opening: no frame detected yet")
	}
	op, err := learnOpening(d.g, d.prev, d.cal.Orientation.Breaker)
	if err != nil {
		return nil, fmt.Errorf("vision: learn opening: %w", err)
	}
	d.cls, d.open = op.Model, op
	classifyAll(d.cls, d.prev, -1)
	return op, nil
}

// SetClasses replaces the class model (nil: back to the priors).
func (d *Detector) SetClasses(m *ClassModel) { d.cls = m }

// sortDetections orders detections for stable output: by kind, then
// position.
func sortDetections(ds []Detection) {
	sort.Slice(ds, func(i, j int) bool {
		if ds[i].Kind != ds[j].Kind {
			return ds[i].Kind < ds[j].Kind
		}
		if ds[i].MM.Y != ds[j].MM.Y {
			return ds[i].MM.Y < ds[j].MM.Y
		}
		return ds[i].MM.X < ds[j].MM.X
	})
}
