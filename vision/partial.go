package vision

import (
	"fmt"
	"math"
)

// The striker partly under the fingers.
//
// A player aims with the fingertips on the striker, or just behind it,
// and flicks it from there: the striker a hand came over shows only part
// of its top face, the rest under the fingers. The search cannot take it:
// the fingers' edges spoil the symmetry of its edges, and where its
// middle is under the hand mask (the mask takes in a disc the hand moved,
// and the hand's shadow) only a disc seen whole is taken. Nor can the
// re-finding under a hand when the striker was never seen whole (put down
// with the fingers on it) or has moved (flicked from under a still hand).
// What shows is an arc of its rim with its top face inside, of the
// striker's colour, and the hand hiding the rest.
//
// So, while a hand is on the board and no striker is found in a frame,
// the vote peaks near where the striker was last found (within the last
// partialLost seconds; within partialReach striker radii, more the longer
// ago) are examined for such an arc. The striker's colour and where its
// rim lies from the model's outline (its size, the calibration's scale)
// are remembered from the last time the search found it mostly in view
// (rememberStriker); the hand's colour is the hand mask's around. Along
// each of the 32 rays: the colour of the face just inside the outline
// (at 0.75 and 0.88 of the radius), nearer the striker's than the hand's;
// an edge crossing the rim within partialWindow px, its gradient along
// the radius; and beyond it something of another colour than the face.
// The run of consecutive rays with the most such rim edges (a fifth of it
// may lack one) must hold partialRays. The fit starts from the point
// around the peak (within partialStart px) with the most, and moves the
// centre to where the edges lie (least squares on their offsets, as
// refind measures a rim's shift) until it moves less than a quarter
// pixel; the edges must then lie within partialResidual of the fitted
// outline — a fingertip's or a printed circle's do not. Of the rays
// outside the run, partialHidden must be under the hand mask (the hand
// hides the rest) and at most partialShown may show the face (a face with
// no rim where the outline should be is not this circle); the run's face
// (its median) must be the striker's colour and twice as far from the
// hand's. Such a disc is reported as the striker, partial (its support
// the share of the run with an edge, its hidden share the rays outside
// the run); a man-sized disc found in part where it lies was the striker
// seen in part (fingers over its rim leave a man-sized ring) and gives
// way. Unlike a disc found by the search it does not clear its place from
// the hand mask: the fingers are over it.
const (
	// partialRays is the least number of rim edges in the run (10 of
	// 32: an arc of about 110°).
	partialRays = 10
	// partialGap is the largest share of the run without a rim edge.
	partialGap = 0.2
	// partialResidual (px) is the largest RMS distance of the run's edges
	// from the fitted outline.
	partialResidual = 0.9
	// partialHidden is the least share of the rays outside the run whose
	// outline is under the hand mask.
	partialHidden = 0.6
	// partialShown is the largest share of the rays outside the run
	// whose inside is of the striker's colour.
	partialShown = 0.25
	// partialLost (s) is how long after the striker was last found
	// (whole or in part) it is looked for this way, and how far from
	// there: partialReach striker radii, and partialSpeed (mm/s) for the
	// time since (it may slide on hidden under the hand), partialFar
	// (mm) at most.
	partialLost  = 3.0
	partialReach = 2.0
	partialSpeed = 500.0
	partialFar   = 120.0
	// partialStart (px) is how far from the vote peak the fit may start:
	// the points 2 px apart within it are tried, and the one with the
	// most rim edges taken.
	partialStart = 4
	// partialWindow (px) is how far from the outline a rim edge is looked
	// for.
	partialWindow = 1.5
	// strRefY is the board brightness the striker's colour is kept at
	// (see rememberStriker), and strRimWindow (px) how far from the
	// model's outline its rim is looked for there.
	strRefY      = 128.0
	strRimWindow = 2.5
)

// findPartial looks for the striker partly under the fingers (see above)
// and adds it to the accepted discs.
func (d *Detector) findPartial(pl plane) {
	if !d.stats.Hands || !d.strSeen || !d.strColOK || d.now-d.strT > partialLost {
		return
	}
	for _, a := range d.accepted {
		if a.big {
			return // one striker
		}
	}
	reach := math.Min(partialReach*d.rStr+partialSpeed*(d.now-d.strT)*d.v.ppm, partialFar*d.v.ppm)
	// the hand's colour, about where the striker was (the hand over it)
	hand, handOK := d.handColour(d.strAt[0], d.strAt[1])
	var best disc
	bestN := 0
	for i, p := range d.peaks {
		if math.Hypot(p.x-d.strAt[0], p.y-d.strAt[1]) > reach {
			continue
		}
		dup := false
		for _, q := range d.peaks[:i] {
			if dx, dy := p.x-q.x, p.y-q.y; dx*dx+dy*dy < 4 && math.Hypot(q.x-d.strAt[0], q.y-d.strAt[1]) <= reach {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		h, ok := hand, handOK
		if !ok {
			h, ok = d.handColour(p.x, p.y)
		}
		if !ok {
			if d.trace != nil {
				d.tracef(p.x, p.y, "partial striker: no hand around")
			}
			continue
		}
		c, n, ok := d.partialFit(pl, p.x, p.y, h)
		if !ok || n <= bestN {
			continue
		}
		if !d.overlapsKept(c) {
			best, bestN = c, n
		}
	}
	if bestN == 0 {
		return
	}
	if d.trace != nil {
		d.tracef(best.x, best.y, "accepted: the striker in part under the fingers, support %.2f hidden %.2f", best.support, best.hidden)
	}
	// a man-sized disc found in its place, in part, was the striker seen
	// in part (fingers over its rim leave a man-sized ring)
	out := d.accepted[:0]
	for _, a := range d.accepted {
		if math.Hypot(a.x-best.x, a.y-best.y) >= 0.8*(a.r+best.r) {
			out = append(out, a)
		}
	}
	best.fresh = true
	d.accepted = append(out, best)
}

// overlapsKept reports whether c overlaps an accepted disc other than a
// man-sized one found by this frame's search in part (partly under the
// hand, or its outline partly seen).
func (d *Detector) overlapsKept(c disc) bool {
	for _, a := range d.accepted {
		if math.Hypot(a.x-c.x, a.y-c.y) >= 0.8*(a.r+c.r) {
			continue
		}
		if a.big || !a.fresh || a.hidden == 0 && a.support >= 0.9 && a.sym >= goodSymmetry {
			return true
		}
	}
	return false
}

// partialFit measures a striker partly under a hand (of colour hand)
// about (x, y): it returns the disc, the number of rays of its visible rim
// with an edge, and whether it is one (see findPartial).
func (d *Detector) partialFit(pl plane, x, y float64, hand [3]float64) (disc, int, bool) {
	fail := func(hits int, at *arcFit, format string, args ...any) (disc, int, bool) {
		if d.trace != nil {
			px, py := x, y
			if at != nil {
				px, py = at.x, at.y
			}
			d.tracef(x, y, "partial striker: %d rim edges at %.1f,%.1f: "+format, append([]any{hits, px, py}, args...)...)
		}
		return disc{}, hits, false
	}
	// the striker's colour in this frame's light
	str := d.strCol
	for ch := range str {
		str[ch] *= d.bg.boardY / strRefY
	}
	// (most peaks near a hand are fingers: the face must show around the
	// peak, on a quarter of a run's least rays at least, for the fit to
	// be worth it)
	m0 := d.model(x, y, true)
	faces := 0
	for k := 0; k < rays; k += 2 {
		if f := d.faceAt(pl, x, y, m0.r0, k); faceDist(f, str) < faceDist(f, hand) {
			faces++
		}
	}
	if 4*faces < partialRays {
		return fail(0, nil, "its face hardly shows (%d of %d rays)", faces, rays/2)
	}
	a, why := d.fitArc(pl, x, y, str, hand)
	if why != "" {
		return fail(a.hits, &a, "%s", why)
	}
	// The face along the run is the striker's; what hides the rest is the
	// hand.
	var in [3][]float64
	m := d.model(a.x, a.y, true)
	under, shown := 0, 0
	for j := 0; j < rays; j++ {
		k := (a.lo + j) % rays
		if j < a.n {
			for ch := range in {
				in[ch] = append(in[ch], a.face[k][ch])
			}
			continue
		}
		ext := m.r0 + m.silhouette(rayCos[k], raySin[k])
		if d.hands.at(a.x+rayCos[k]*ext, a.y+raySin[k]*ext) {
			under++
		}
		if a.isFace[k] {
			shown++
		}
	}
	var inCol [3]float64
	for ch := 0; ch < 3; ch++ {
		inCol[ch] = median(in[ch])
	}
	out := rays - a.n
	if out == 0 || float64(under) < partialHidden*float64(out) || float64(shown) > partialShown*float64(out) {
		return fail(a.hits, &a, "of the %d rays outside the run %d under the hand, %d of the striker's colour", out, under, shown)
	}
	if ds, dh := faceDist(inCol, str), faceDist(inCol, hand); ds >= faceSame || dh < 2*ds {
		return fail(a.hits, &a, "its face %.1f from the striker's colour, %.1f from the hand's", ds, dh)
	}
	if !d.insideSurface(int(math.Round(a.x)), int(math.Round(a.y))) {
		return fail(a.hits, &a, "outside the surface")
	}
	if d.trace != nil {
		d.tracef(x, y, "partial striker: %d rim edges (a run of %d rays, %.2f px off) at %.1f,%.1f: a striker", a.hits, a.n, a.rms, a.x, a.y)
	}
	c := disc{x: a.x, y: a.y, big: true, marking: -1, inHand: true}
	c.r = m.r0
	c.support = float64(a.hits) / float64(a.n)
	c.hidden = float64(rays-a.n) / rays
	c.outline = d.rStr
	c.sizeScore = 1
	c.sym = goodSymmetry
	c.colour = inCol
	c.str = hypo{support: c.support, hidden: c.hidden, sym: c.sym, colour: c.colour, ok: true}
	d.place(&c)
	return c, a.hits, true
}

// arcFit is an arc of a disc's rim fitted about a centre (see fitArc).
type arcFit struct {
	x, y        float64 // the centre, rectified px
	lo, n, hits int     // the run of rays (see partialRun)
	rms         float64 // the run's edges' distance from the outline, px
	rim, isFace [rays]bool
	off         [rays]float64
	face        [rays][3]float64
}

// fitArc fits a striker to the arc of rim about the vote peak (x0, y0)
// whose face is of the striker's colour str rather than the hand's (see
// findPartial). It returns the fit, and why it failed ("" when it did
// not).
func (d *Detector) fitArc(pl plane, x0, y0 float64, str, hand [3]float64) (arcFit, string) {
	var a arcFit
	// measure finds the rim edges about (x, y) and their run (see
	// partialRun)
	measure := func(x, y, w float64) (int, int, int) {
		m := d.model(x, y, true)
		for k := 0; k < rays; k++ {
			ux, uy := rayCos[k], raySin[k]
			a.face[k] = d.faceAt(pl, x, y, m.r0, k)
			a.isFace[k] = faceDist(a.face[k], str) < faceDist(a.face[k], hand)
			a.rim[k] = false
			if !a.isFace[k] {
				continue
			}
			ok, o := d.arcEdge(x, y, m, k, d.strDR, w)
			if !ok {
				continue
			}
			// a rim: the striker's face inside the edge, something else
			// outside
			s := m.r0 + m.silhouette(ux, uy) + d.strDR + o + 2.5
			c := pl.at(x+ux*s, y+uy*s)
			a.rim[k], a.off[k] = faceDist([3]float64{float64(c[0]), float64(c[1]), float64(c[2])}, a.face[k]) >= faceSame, o
		}
		return partialRun(&a.rim)
	}
	// A vote peak on a disc half hidden may lie a few pixels off its
	// centre: the fit starts from the point around it with the most rim
	// edges in a run (looked for in a wider window).
	best := -1
	for j := -partialStart; j <= partialStart; j += 2 {
		for i := -partialStart; i <= partialStart; i += 2 {
			if _, _, h := measure(x0+float64(i), y0+float64(j), partialWindow+0.5); h > best {
				a.x, a.y, best = x0+float64(i), y0+float64(j), h
			}
		}
	}
	for it := 0; it < 5; it++ {
		a.lo, a.n, a.hits = measure(a.x, a.y, partialWindow)
		if a.hits < partialRays {
			return a, fmt.Sprintf("too few (a run of %d rays)", a.n)
		}
		// the centre's shift that best explains the edges' offsets
		var sxx, sxy, syy, bx, by float64
		for j := 0; j < a.n; j++ {
			k := (a.lo + j) % rays
			if !a.rim[k] {
				continue
			}
			c, s := rayCos[k], raySin[k]
			sxx += c * c
			sxy += c * s
			syy += s * s
			bx += a.off[k] * c
			by += a.off[k] * s
		}
		det := sxx*syy - sxy*sxy
		if !(det > 0.05*float64(a.hits*a.hits)) {
			return a, "too short an arc to place it"
		}
		dx := (syy*bx - sxy*by) / det
		dy := (sxx*by - sxy*bx) / det
		a.x, a.y = a.x+dx, a.y+dy
		if math.Hypot(a.x-x0, a.y-y0) > 0.5*d.rStr {
			return a, "the fit ran off"
		}
		if it > 0 && math.Hypot(dx, dy) < 0.25 {
			// the edges' distance from the fitted outline
			var ss float64
			for j := 0; j < a.n; j++ {
				k := (a.lo + j) % rays
				if a.rim[k] {
					ss += sq(a.off[k] - dx*rayCos[k] - dy*raySin[k])
				}
			}
			a.rms = math.Sqrt(ss / float64(a.hits))
			if a.rms > partialResidual {
				return a, fmt.Sprintf("%.2f px off the outline", a.rms)
			}
			return a, ""
		}
	}
	return a, "the fit does not settle"
}

// handColour returns the colour of the hand around (x, y): the median of
// the hand mask's blocks (every other one each way) from 1.2 to 3 striker
// radii away that are not of the striker's colour; false when there are
// fewer than 8.
func (d *Detector) handColour(x, y float64) ([3]float64, bool) {
	b := d.bg
	str := d.strCol
	for ch := range str {
		str[ch] *= b.boardY / strRefY
	}
	bs := float64(b.bs)
	r0, r1 := 1.2*d.rStr, 3*d.rStr
	i0, i1 := max(int((x-r1)/bs), 0), min(int((x+r1)/bs), b.nb-1)
	j0, j1 := max(int((y-r1)/bs), 0), min(int((y+r1)/bs), b.nb-1)
	var cs [3][]float64
	for j := j0; j <= j1; j += 2 {
		for i := i0; i <= i1; i += 2 {
			k := j*b.nb + i
			if !d.hands.mask[k] {
				continue
			}
			dx, dy := (float64(i)+0.5)*bs-0.5-x, (float64(j)+0.5)*bs-0.5-y
			if dd := dx*dx + dy*dy; dd < r0*r0 || dd > r1*r1 {
				continue
			}
			c := [3]float64{float64(b.cur[3*k]), float64(b.cur[3*k+1]), float64(b.cur[3*k+2])}
			if faceDist(c, str) < faceSame {
				continue
			}
			for ch := range cs {
				cs[ch] = append(cs[ch], c[ch])
			}
		}
	}
	var out [3]float64
	if len(cs[0]) < 8 {
		return out, false
	}
	for ch := range cs {
		out[ch] = median(cs[ch])
	}
	return out, true
}

// faceAt returns the colour of a disc's top face (radius r) about (x, y)
// along ray k: the mean of two points at 0.75 and 0.88 of the radius,
// just inside its rim.
func (d *Detector) faceAt(pl plane, x, y, r float64, k int) [3]float64 {
	ux, uy := rayCos[k], raySin[k]
	a := pl.at(x+ux*0.75*r, y+uy*0.75*r)
	b := pl.at(x+ux*0.88*r, y+uy*0.88*r)
	return [3]float64{float64(a[0]+b[0]) / 2, float64(a[1]+b[1]) / 2, float64(a[2]+b[2]) / 2}
}

// rememberStriker keeps what findPartial needs of the striker c found in
// this frame: where it is and, when it was found by the search mostly in
// view, the colour of its face (the median along the rays not under a
// hand, as it would look where the board's brightness is strRefY) and
// where its rim lies from the model's outline (the median over the rays).
func (d *Detector) rememberStriker(c disc) {
	d.strAt, d.strT, d.strSeen = [2]float64{c.x, c.y}, d.now, true
	if c.inHand || !c.fresh || c.hidden > 0.3 || c.support < 0.8 {
		return
	}
	pl := d.plane()
	var cs [3][]float64
	for k := 0; k < rays; k++ {
		if d.stats.Hands && d.hands.at(c.x+rayCos[k]*0.72*c.r, c.y+raySin[k]*0.72*c.r) {
			continue
		}
		f := d.faceAt(pl, c.x, c.y, c.r, k)
		for ch := range cs {
			cs[ch] = append(cs[ch], f[ch])
		}
	}
	if len(cs[0]) < rays/2 {
		return
	}
	y := d.bg.boardY
	for ch := range cs {
		d.strCol[ch] = median(cs[ch]) * strRefY / math.Max(y, 1)
	}
	d.strColOK = true
	// where its rim lies from the model's outline (the striker's size,
	// the calibration's scale): a fit to an arc of it must know
	m := d.model(c.x, c.y, true)
	offs := cs[0][:0]
	for k := 0; k < rays; k++ {
		if d.stats.Hands && d.hands.at(c.x+rayCos[k]*c.r, c.y+raySin[k]*c.r) {
			continue
		}
		if ok, o := d.arcEdge(c.x, c.y, m, k, 0, strRimWindow); ok {
			offs = append(offs, o)
		}
	}
	if len(offs) >= rays/2 {
		d.strDR = median(offs)
	}
}

// faceDist is how far apart two colours are as surfaces, a shadow
// allowed: their chromaticities (red − green and green − blue over the
// brightness, in units of faceChroma) and their brightness (its log, in
// units of faceBright), squared. faceSame is the distance under which
// they are the same surface.
func faceDist(a, b [3]float64) float64 {
	ya := math.Max(0.114*a[0]+0.587*a[1]+0.299*a[2], 10)
	yb := math.Max(0.114*b[0]+0.587*b[1]+0.299*b[2], 10)
	dr := (a[2]-a[1])/ya - (b[2]-b[1])/yb
	dg := (a[1]-a[0])/ya - (b[1]-b[0])/yb
	dl := math.Log(ya / yb)
	return sq(dr/faceChroma) + sq(dg/faceChroma) + sq(dl/faceBright)
}

const (
	faceChroma = 0.06
	faceBright = 0.3
	faceSame   = 4.0
)

// partialRun finds the run of consecutive rays (around the circle) with
// the most rim edges, beginning and ending with one, with at most
// partialGap of its rays without. It returns the run's first ray, its
// length and its rays with an edge.
func partialRun(rim *[rays]bool) (lo, n, hits int) {
	for s := 0; s < rays; s++ {
		if !rim[s] {
			continue
		}
		h := 0
		for j := 0; j < rays; j++ {
			if !rim[(s+j)%rays] {
				continue
			}
			h++
			if float64(j+1-h) <= partialGap*float64(j+1) && (h > hits || h == hits && j+1 < n) {
				lo, n, hits = s, j+1, h
			}
		}
	}
	return lo, n, hits
}

// arcEdge finds the strongest radial edge along ray k within w px of a
// disc's expected outline about (x, y) moved out by from px (its
// gradient, interpolated between pixels, at least 1.25 times the voting
// threshold and within about 40° of the radius), and where it lies from
// there, to a fraction of a pixel (a parabola through the strength either
// side).
func (d *Detector) arcEdge(x, y float64, m discModel, k int, from, w float64) (bool, float64) {
	vt := d.vt
	thr := float32(1.25 * vt.thr)
	ux, uy := rayCos[k], raySin[k]
	ext := m.r0 + m.silhouette(ux, uy) + from
	const step = 0.25
	ns := int(2*w/step+1e-9) + 1
	best, at := float32(0), -1
	var prof [24]float32
	ns = min(ns, len(prof))
	for i := 0; i < ns; i++ {
		s := ext - w + float64(i)*step
		rad, e := vt.radialBilinear(x+ux*s, y+uy*s, ux, uy)
		prof[i] = abs32(rad)
		if e < thr || abs32(rad) < 0.75*e {
			continue
		}
		if prof[i] > best {
			best, at = prof[i], i
		}
	}
	if at < 0 {
		return false, 0
	}
	o := -w + float64(at)*step
	if at > 0 && at < ns-1 {
		l, c, r := float64(prof[at-1]), float64(prof[at]), float64(prof[at+1])
		if den := l - 2*c + r; den < 0 {
			o += step * math.Max(-0.5, math.Min(0.5, 0.5*(l-r)/den))
		}
	}
	return true, o
}
