package vision

import (
	"math"

	"github.com/boardcam/boardcam/board"
)

// A disc moving while the shutter is open is drawn as a streak: the
// disc's footprint swept along its path (a stadium), its colour mixed with
// the board's where it passed for only part of the exposure. At 1/60 s a
// man struck at 2 m/s is smeared over 33 mm, twice its own diameter; at
// 1/30 s over four. Its rim is gone along the motion, so the search by
// edges does not find it (or finds it with a striker's size); the streak
// finder does, from what changed:
//
//   - the board as last seen still is kept per pixel (stillImage: a tile is
//     copied when it is searched with all its blocks still for
//     stableFrames);
//   - where blocks changed this frame (not under a hand), the pixels that
//     differ both from that still picture and from the bare board's
//     colour are the moving discs (a place a disc has just left shows the
//     board again: changed, but board-coloured);
//   - each connected group of such pixels whose width (across its longest
//     axis) is a disc's diameter and whose length exceeds it is a disc in
//     motion: its centre the group's centroid (the disc's place at
//     mid-exposure), its size from the width (not blurred), its colour
//     unmixed from the board's by the share of the exposure the disc
//     covered the middle of the streak.
//
// A disc the edge search found inside such a group is blurred too: its
// class, decided on a smeared outline and colour, is reported unsure.
// Streaks are reported with an unsure class and Blur set (the streak's
// length and direction on the board); the tracker knows which disc it is
// from where it came from.

// streakState is the streak finder's memory and scratch space.
type streakState struct {
	still []uint8 // the rectified board as last seen still, BGR
	have  bool
	// whole: the still picture was copied whole from the last frame (the
	// first): every disc of that frame is in it, moving or not.
	whole bool
	// held: the discs the still picture holds (their places: where one
	// is no longer found, the picture shows a disc the frame does not)
	held   []disc
	mask   []uint8 // 1: a moving pixel
	label  []int32 // pixel group
	seen   []bool  // blocks visited
	queue  []int32
	pixels []int32
	found  []disc
	left   []disc  // discs of the last frame not found again
	near   []int32 // scratch of streakMask: the left discs a row reaches
	// handT is, per background block, the last time (s) a hand covered
	// it.
	handT []float64
}

// streakThr is the colour difference (sum over B, G, R) from the still
// picture of a moving pixel.
const (
	streakThr = 30
	// streakContrast is the least colour difference (along its own colour
	// direction) of a streaked disc from the board under it
	streakContrast = 20
	// the longest streak taken for one disc: 150 mm of blur (a hard shot
	// at 1/30 s)
	streakMaxMM = 150.0
	// how many blocks (of 6.5 mm) from a hand, and how long (s) after it
	// was there, a streak may begin
	streakHandBlocks = 4
	streakHandTime   = 0.5
	// streakCut is the share (%) of the surface that may change in one
	// frame for streaks to be looked for
	streakCut = 25
)

// stillImage keeps the tiles searched this frame whose blocks have all
// been still for stableFrames (the first frame: all of them).
func (d *Detector) stillImage() {
	st := &d.streak
	n := d.v.n
	pix, err := d.img.DataPtrUint8()
	if err != nil {
		return
	}
	if len(st.still) != 3*n*n {
		st.still = make([]uint8, 3*n*n)
		st.mask = make([]uint8, n*n)
		st.label = make([]int32, n*n)
		st.seen = make([]bool, d.bg.nb*d.bg.nb)
		st.have = false
	}
	if !st.have {
		copy(st.still, pix)
		st.have, st.whole = true, true
		st.held = st.held[:0]
		for _, c := range d.accepted {
			if !c.streak {
				st.held = append(st.held, c)
			}
		}
		return
	}
	st.whole = false
	nt, tp := d.grid.n, d.grid.px
	tpb := tp / d.bg.bs
	nb := d.bg.nb
	for k, dirty := range d.grid.dirty {
		if !dirty {
			continue
		}
		tx, ty := k%nt, k/nt
		ok := true
		for j := ty * tpb; j < min((ty+1)*tpb, nb) && ok; j++ {
			for i := tx * tpb; i < min((tx+1)*tpb, nb); i++ {
				if d.bg.stable[j*nb+i] < stableFrames {
					ok = false
					break
				}
			}
		}
		if !ok {
			continue
		}
		x0, x1 := tx*tp, min((tx+1)*tp, n)
		y0, y1 := ty*tp, min((ty+1)*tp, n)
		for y := y0; y < y1; y++ {
			o := 3 * (y*n + x0)
			copy(st.still[o:o+3*(x1-x0)], pix[o:o+3*(x1-x0)])
		}
		// the discs held there now are this frame's
		in := func(c disc) bool {
			return c.x >= float64(x0) && c.x < float64(x1) && c.y >= float64(y0) && c.y < float64(y1)
		}
		kept := st.held[:0]
		for _, c := range st.held {
			if !in(c) {
				kept = append(kept, c)
			}
		}
		st.held = kept
		for _, c := range d.accepted {
			if !c.streak && in(c) {
				st.held = append(st.held, c)
			}
		}
	}
}

// findStreaks adds the discs in motion the edge search missed, and marks
// blurred those it found.
func (d *Detector) findStreaks(pl plane) {
	st := &d.streak
	if !st.have || d.frames == 0 {
		return
	}
	n := d.v.n
	nb, bs := d.bg.nb, d.bg.bs
	clear(st.seen)
	if len(st.handT) != nb*nb {
		st.handT = make([]float64, nb*nb)
		for k := range st.handT {
			st.handT[k] = math.Inf(-1)
		}
	}
	for k := nextSet(d.hands.mask, 0); k < len(d.hands.mask); k = nextSet(d.hands.mask, k+1) {
		st.handT[k] = d.now
	}
	// the board's colour where it is bare, for the board test
	d.bg.illumination()
	st.found = st.found[:0]
	moving := func(k int) bool {
		return d.bg.changed[k] && d.bg.zone[k] == 1 && !d.hands.mask[k]
	}
	// Much of the board changed at once: a new picture (frames dropped
	// over a whole stroke, the lamp, a knock), not a few discs in motion.
	// (Only changed blocks count, and only they can start a group: the
	// loops visit them alone, in order.)
	changed := d.bg.changed
	nch := 0
	for k := nextSet(changed, 0); k < len(changed); k = nextSet(changed, k+1) {
		if d.bg.zone[k] == 1 {
			nch++
		}
	}
	if nch > d.bg.surface*streakCut/100 {
		return
	}
	for start := nextSet(changed[:nb*nb], 0); start < nb*nb; start = nextSet(changed[:nb*nb], start+1) {
		if st.seen[start] || !moving(start) {
			continue
		}
		// a group of changed blocks
		st.queue = append(st.queue[:0], int32(start))
		st.seen[start] = true
		i0, j0, i1, j1 := start%nb, start/nb, start%nb, start/nb
		for q := 0; q < len(st.queue); q++ {
			k := int(st.queue[q])
			i, j := k%nb, k/nb
			i0, i1, j0, j1 = min(i0, i), max(i1, i), min(j0, j), max(j1, j)
			for dj := -1; dj <= 1; dj++ {
				for di := -1; di <= 1; di++ {
					ii, jj := i+di, j+dj
					if ii < 0 || jj < 0 || ii >= nb || jj >= nb {
						continue
					}
					kk := jj*nb + ii
					if !st.seen[kk] && moving(kk) {
						st.seen[kk] = true
						st.queue = append(st.queue, int32(kk))
					}
				}
			}
		}
		// (Next to a hand: the hand's moving edge, its shadow, the
		// fingers beyond the mask — and a disc in the fingers is the
		// hand's business. The group of changed blocks holds last
		// frame's streak too — the board uncovered where the disc was —
		// so a disc just flicked from the fingers makes one group with
		// the hand's trail for a few frames: near a hand, each streak
		// found is judged by its own place, see streakGroups.)
		nearHand := d.handNear(i0-streakHandBlocks, j0-streakHandBlocks, i1+streakHandBlocks, j1+streakHandBlocks)
		if d.trace != nil {
			d.tracef(float64((i0+i1+1)*bs/2), float64((j0+j1+1)*bs/2), "streak group %d-%d x %d-%d blocks, a hand near %v", i0, i1, j0, j1, nearHand)
		}
		// its pixels, one block around
		x0, y0 := max((i0-1)*bs, 0), max((j0-1)*bs, 0)
		x1, y1 := min((i1+2)*bs, n), min((j1+2)*bs, n)
		if (x1-x0)*(y1-y0) > 40000 {
			continue // a sweeping change over much of the board: not discs
		}
		d.streakMask(pl, x0, y0, x1, y1)
		d.streakGroups(pl, x0, y0, x1, y1, nearHand)
	}
	if len(st.found) == 0 {
		return
	}
	d.accepted = append(d.accepted, st.found...)
}

// streakMask marks the moving pixels of the box: those that differ from
// the still picture and from the bare board, not under a hand, and not on
// the place of a disc of the last frame that is no longer found there (a
// place just left: the still picture shows the disc, the frame the board).
func (d *Detector) streakMask(pl plane, x0, y0, x1, y1 int) {
	st := &d.streak
	n := d.v.n
	gain := float32(d.bg.gain)
	// gone: p's place lies in the box and no accepted disc stands there now.
	gone := func(p disc) bool {
		if p.x < float64(x0)-p.r || p.x > float64(x1)+p.r || p.y < float64(y0)-p.r || p.y > float64(y1)+p.r {
			return false
		}
		for _, c := range d.accepted {
			if math.Hypot(c.x-p.x, c.y-p.y) < 0.5*p.r {
				return false
			}
		}
		return true
	}
	// the places just left
	st.left = st.left[:0]
	for _, p := range d.prev {
		if p.streak || p.still < 2 && !st.whole {
			continue // moving: its place is not in the still picture
		}
		if gone(p) {
			st.left = append(st.left, p)
		}
	}
	// and the places of the discs the still picture holds that are gone
	// (left while the picture was not taken again: at a break, from the
	// centre's printed design)
	for _, p := range st.held {
		if gone(p) {
			st.left = append(st.left, p)
		}
	}
	boardY := math.Max(d.bg.boardY, 1)
	// (x0, y0 >= 0: the pixel (x, y) lies under the hand's block (x/hb,
	// y/hb), what d.hands.at gives, counted along the row instead of
	// divided per pixel.)
	h := d.hands
	hb := h.bs
	for y := y0; y < y1; y++ {
		var hrow []bool
		if j := y / hb; j < h.nb {
			hrow = h.mask[j*h.nb : (j+1)*h.nb]
		}
		// The places left this row reaches: a pixel of the row is within
		// one only when the row is (dx·dx + dy·dy, a sum of squares, is at
		// least dy·dy however it is rounded or fused).
		st.near = st.near[:0]
		for i, p := range st.left {
			if dy := float64(y) - p.y; dy*dy <= sq(p.r+1.5) {
				st.near = append(st.near, int32(i))
			}
		}
		hi, hr := x0/hb, x0%hb
		for x := x0; x < x1; x, hr = x+1, hr+1 {
			if hr == hb {
				hi, hr = hi+1, 0
			}
			k := y*n + x
			st.mask[k] = 0
			st.label[k] = 0
			if hi < h.nb && hrow != nil && hrow[hi] {
				continue
			}
			o := 3 * k
			c := pl.pix[o : o+3 : o+3]
			s := st.still[o : o+3 : o+3]
			ds := abs32(float32(c[0])-gain*float32(s[0])) + abs32(float32(c[1])-gain*float32(s[1])) + abs32(float32(c[2])-gain*float32(s[2]))
			if ds < streakThr {
				continue
			}
			// (The bare board now: a place something left — the still
			// picture held it.)
			f := float32(d.bg.illumAt(float64(x), float64(y)) / boardY)
			b := d.bg.boardBGR
			db := abs32(float32(c[0])-f*float32(b[0])) + abs32(float32(c[1])-f*float32(b[1])) + abs32(float32(c[2])-f*float32(b[2]))
			if db < streakThr {
				continue
			}
			left := false
			for _, i := range st.near {
				p := &st.left[i]
				if dx, dy := float64(x)-p.x, float64(y)-p.y; dx*dx+dy*dy <= sq(p.r+1.5) {
					left = true
					break
				}
			}
			if !left {
				st.mask[k] = 1
			}
		}
	}
}

// streakGroups measures the groups of moving pixels of the box and keeps
// those shaped like a disc in motion.
//
// nearHand says a hand was near the box lately (see streakDisc).
func (d *Detector) streakGroups(pl plane, x0, y0, x1, y1 int, nearHand bool) {
	st := &d.streak
	n := d.v.n
	minArea := int(0.5 * math.Pi * d.rMan * d.rMan)
	var next int32
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			k := y*n + x
			if st.mask[k] == 0 || st.label[k] != 0 {
				continue
			}
			next++
			st.pixels = append(st.pixels[:0], int32(k))
			st.label[k] = next
			for q := 0; q < len(st.pixels); q++ {
				p := int(st.pixels[q])
				px, py := p%n, p/n
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						xx, yy := px+dx, py+dy
						if xx < x0 || yy < y0 || xx >= x1 || yy >= y1 {
							continue
						}
						kk := yy*n + xx
						if st.mask[kk] == 1 && st.label[kk] == 0 {
							st.label[kk] = next
							st.pixels = append(st.pixels, int32(kk))
						}
					}
				}
			}
			if len(st.pixels) < minArea {
				if d.trace != nil && len(st.pixels) > minArea/4 {
					d.tracef(float64(x), float64(y), "streak pixels %d < %d", len(st.pixels), minArea)
				}
				continue
			}
			if c, ok := d.streakDisc(pl, st.pixels, nearHand); ok {
				st.found = append(st.found, c)
			}
		}
	}
}

// streakDisc judges one group of moving pixels. Where a disc of colour D
// passed over board of colour B for a share α of the exposure, the frame
// shows B + α·(D − B): the change from the still picture points the same
// way in colour everywhere, and its size along that way is α·|D − B|.
// Weighted by it, the group's pixels are the disc's footprint averaged
// over the exposure: their centroid is the disc's place at mid-exposure,
// their spread across the motion the disc's own (r²/4), along it that
// plus the blur's (L²/12), and their total weight the disc's area times
// |D − B| — its colour.
//
// nearHand says a hand was near the group lately: the streak is then
// judged only when no hand was near its own footprint (the stadium the
// disc swept in the exposure), streakHandBlocks around.
func (d *Detector) streakDisc(pl plane, px []int32, nearHand bool) (disc, bool) {
	st := &d.streak
	n := d.v.n
	gain := float32(d.bg.gain)
	diff := func(p int32) (dl [3]float64) {
		o := 3 * int(p)
		for ch := 0; ch < 3; ch++ {
			dl[ch] = float64(float32(pl.pix[o+ch]) - gain*float32(st.still[o+ch]))
		}
		return
	}
	var sum, bsum [3]float64
	for _, p := range px {
		dl := diff(p)
		o := 3 * int(p)
		for ch := 0; ch < 3; ch++ {
			sum[ch] += dl[ch]
			bsum[ch] += float64(gain) * float64(st.still[o+ch])
		}
	}
	norm := math.Sqrt(sum[0]*sum[0] + sum[1]*sum[1] + sum[2]*sum[2])
	m := float64(len(px))
	if norm < streakThr/2*m {
		if d.trace != nil {
			d.tracef(float64(int(px[0])%n), float64(int(px[0])/n), "streak %d px: colours disagree", len(px))
		}
		return disc{}, false // changes that do not agree in colour: light, noise
	}
	uc := [3]float64{sum[0] / norm, sum[1] / norm, sum[2] / norm}
	var w, sx, sy float64
	for _, p := range px {
		dl := diff(p)
		a := math.Max(0, dl[0]*uc[0]+dl[1]*uc[1]+dl[2]*uc[2])
		w += a
		sx += a * float64(int(p)%n)
		sy += a * float64(int(p)/n)
	}
	if w <= 0 {
		return disc{}, false
	}
	cx, cy := sx/w, sy/w
	var sxx, syy, sxy float64
	for _, p := range px {
		dl := diff(p)
		a := math.Max(0, dl[0]*uc[0]+dl[1]*uc[1]+dl[2]*uc[2])
		dx, dy := float64(int(p)%n)-cx, float64(int(p)/n)-cy
		sxx += a * dx * dx
		syy += a * dy * dy
		sxy += a * dx * dy
	}
	sxx, syy, sxy = sxx/w, syy/w, sxy/w
	tr, det := sxx+syy, sxx*syy-sxy*sxy
	disc2 := math.Sqrt(math.Max(0, tr*tr/4-det))
	l1, l2 := tr/2+disc2, tr/2-disc2
	r := 2 * math.Sqrt(math.Max(l2, 0))
	blur := math.Sqrt(12 * math.Max(0, l1-l2))
	ang := 0.5 * math.Atan2(2*sxy, sxx-syy)
	ux, uy := math.Cos(ang), math.Sin(ang)
	if d.trace != nil {
		d.tracef(cx, cy, "streak %d px: r %.1f (man %.1f, striker %.1f) blur %.1f contrast %.1f", len(px), r, d.rMan, d.rStr, blur, w/(math.Pi*r*r))
	}
	if r < 0.75*d.rMan || r > 1.25*d.rStr {
		return disc{}, false
	}
	if blur < 0.6*r || blur > streakMaxMM*d.v.ppm {
		return disc{}, false // round: the edge search's, or no disc
	}
	// the disc's contrast with the board, from the total weight
	contrast := w / (math.Pi * r * r)
	if contrast < streakContrast {
		return disc{}, false
	}
	if nearHand {
		bs := float64(d.bg.bs)
		hx, hy := 0.5*blur*math.Abs(ux)+r, 0.5*blur*math.Abs(uy)+r
		i0, j0 := int(math.Floor((cx-hx)/bs)), int(math.Floor((cy-hy)/bs))
		i1, j1 := int(math.Floor((cx+hx)/bs)), int(math.Floor((cy+hy)/bs))
		if d.handNear(i0-streakHandBlocks, j0-streakHandBlocks, i1+streakHandBlocks, j1+streakHandBlocks) {
			if d.trace != nil {
				d.tracef(cx, cy, "streak dropped: a hand near it")
			}
			return disc{}, false
		}
	}
	big := r > (d.rMan+d.rStr)/2
	// A disc the edge search found in it is this disc: blurred, when it
	// lies in the middle of the streak and has moved since the last frame
	// about as far as the streak is long or more (the shutter is open for
	// at most the frame interval); else the streak is something else
	// (a disc that just left from under it, say).
	for i := range d.accepted {
		c := &d.accepted[i]
		if !c.fresh || c.streak {
			continue
		}
		dx, dy := c.x-cx, c.y-cy
		s, t := math.Abs(dx*ux+dy*uy), math.Abs(-dx*uy+dy*ux)
		if s >= blur/2+c.r || t >= c.r {
			continue
		}
		if s < 0.25*blur+2 && d.movedSince(*c, 0.6*blur) && !nearHand {
			// (Not near a hand: a disc the edge search finds there
			// whole is as likely still in the fingers.)
			c.blurred = true
			c.blur = [2]float64{ux * blur, uy * blur}
		}
		return disc{}, false
	}
	c := disc{x: cx, y: cy, big: big, marking: -1, fresh: true, streak: true, blurred: true}
	c.r = d.model(cx, cy, big).r0
	c.support = 1
	c.sizeScore = 0.5
	c.blur = [2]float64{ux * blur, uy * blur}
	d.place(&c)
	// its colour: the board under it plus the change, undiluted
	for ch := 0; ch < 3; ch++ {
		c.colour[ch] = math.Max(0, math.Min(255, bsum[ch]/m+contrast*uc[ch]))
	}
	c.feat = featuresOf(c.colour, d.bg.illumAt(cx, cy))
	if big {
		c.kind = board.Striker
	} else {
		l := d.cls.menLike(c.feat)
		p := softmax(l[:])
		c.menP = [3]float64{p[0], p[1], p[2]}
		c.kind = argmax3(c.menP)
	}
	c.classScore = 0.5 // the tracker knows better which disc it is
	return c, true
}

// movedSince reports whether disc c is at least dist px from where the
// disc nearest it lay in the last frame (true when none lay within two
// diameters: it came from farther).
func (d *Detector) movedSince(c disc, dist float64) bool {
	best := math.Inf(1)
	for _, p := range d.prev {
		best = math.Min(best, math.Hypot(p.x-c.x, p.y-c.y))
	}
	return best >= dist || best > 4*c.r
}

// handNear reports whether a hand covered a block of the box (i0, j0)–(i1,
// j1) in the last streakHandTime seconds (an arm withdrawing leaves the
// mask before its last part leaves the picture, and the board it uncovers
// differs from the still picture, which held the hand).
func (d *Detector) handNear(i0, j0, i1, j1 int) bool {
	st := &d.streak
	nb := d.bg.nb
	since := d.now - streakHandTime
	for j := max(j0, 0); j <= min(j1, nb-1); j++ {
		for i := max(i0, 0); i <= min(i1, nb-1); i++ {
			if st.handT[j*nb+i] >= since {
				return true
			}
		}
	}
	return false
}
