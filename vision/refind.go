package vision

import "math"

// Re-finding a disc at rest under a hand.
//
// A disc at rest that a hand comes over is hard to find from scratch: the
// fingers' edges spoil the symmetry of its edges, and the hand mask — a
// coarse one that takes in the hand's shadow and, once the disc is no
// longer found, the shadowed disc itself — says it is hidden. But a disc
// at rest does not move unless it is pushed: the rim it showed when it
// was last seen whole is looked for again, ray by ray, at the same
// distance and with the same polarity. When enough of it is still there,
// the disc is still there, partly hidden.
const (
	// refindShare is the share of the remembered rim that must still be
	// seen for a disc near a hand; refindRays the least number of rays.
	refindShare = 0.5
	refindRays  = 10
	// refindShift (px) is how far the rim may have moved (a disc
	// nudged); beyond, the disc is searched for as a new one.
	refindShift = 1.5
	// refindStill is how many frames before the last a disc must have
	// lain still to be looked for again (not a disc carried by a hand).
	refindStill = 2
	// refindLost is how many frames a disc not taken back is looked for.
	refindLost = 90
)

// rimEdge finds the strongest radial edge along ray k within w px of the
// point from px outside a disc's expected outline (lenient: a weaker edge
// will do): it returns the brightness step across it (outside minus
// inside, 1.5 px either side: its sign is the edge's polarity whichever
// colour channel is the strongest) and where it lies (its distance from
// the outline, px); 0 when there is none.
func (d *Detector) rimEdge(pl plane, x, y float64, m discModel, k int, from, w float64, lenient bool) (float32, float64) {
	vt := d.vt
	thr, radial := float32(1.25*vt.thr), float32(0.75)
	if lenient {
		// looking again for a rim remembered: under a hand's shadow its
		// contrast is lower
		thr, radial = float32(vt.thr), 0.6
	}
	ux, uy := rayCos[k], raySin[k]
	ext := m.r0 + m.silhouette(ux, uy)
	var best float32
	at := 0.0
	for s := ext + from - w; s <= ext+from+w+1e-9; s += 0.5 {
		rad, e, ok := vt.radialAt(x+ux*s, y+uy*s, ux, uy)
		if !ok || e < thr || abs32(rad) < radial*e {
			continue
		}
		if abs32(rad) > abs32(best) {
			best, at = rad, s-ext
		}
	}
	if best == 0 {
		return 0, 0
	}
	s := ext + at
	in := pl.at(x+ux*(s-1.5), y+uy*(s-1.5))
	out := pl.at(x+ux*(s+1.5), y+uy*(s+1.5))
	step := 0.114*(out[0]-in[0]) + 0.587*(out[1]-in[1]) + 0.299*(out[2]-in[2])
	if step == 0 {
		return 0, 0
	}
	return step, at
}

// remember records the rim of a disc found in this frame's search and
// seen whole (its signature for refind), and how long it has lain still; a
// disc seen only in part keeps the signature of the disc that lay at the
// same place in the last frame. It is called once the disc's size is
// settled (after classify).
func (d *Detector) remember(c *disc) {
	for _, p := range d.prev {
		if math.Hypot(p.x-c.x, p.y-c.y) < 1 {
			c.still = p.still + 1
			if p.hasSig && p.big == c.big {
				c.sig, c.sigAt, c.hasSig = p.sig, p.sigAt, true
			}
			break
		}
	}
	if c.hidden == 0 && c.support >= 0.9 && c.sym >= goodSymmetry {
		m := d.model(c.x, c.y, c.big)
		pl := d.plane()
		for k := 0; k < rays; k++ {
			g, off := d.rimEdge(pl, c.x, c.y, m, k, 0, 1.5, false)
			c.sig[k], c.sigAt[k] = g, int8(math.Round(2*off))
		}
		c.hasSig = true
	}
}

// nearHand reports whether the hand mask reaches the disc or the ring
// just around it.
func (d *Detector) nearHand(c disc) bool {
	if d.hands.at(c.x, c.y) {
		return true
	}
	for _, f := range [2]float64{0.6, 1.3} {
		for k := 0; k < rays; k += 2 {
			if d.hands.at(c.x+rayCos[k]*f*c.r, c.y+raySin[k]*f*c.r) {
				return true
			}
		}
	}
	return false
}

// refind looks again for the discs at rest of the last frame that lay in
// the searched regions, near a hand, and were not found again: where
// enough of the rim remembered (see remember) is still where it was, with
// the same polarity (rimStill), the disc is taken back at its place, with
// the share seen as its support. One found again only in part (its centre
// biased by the fingers) whose rim is still where it was keeps its place.
// A disc not taken back is looked for again in the next frames (while a
// hand is on the board, for refindLost frames at most): a hand moving over
// it hides more or less of it.
func (d *Detector) refind() {
	next := d.lostNext[:0]
	if !d.stats.Hands {
		d.lost, d.lostNext = next, d.lost
		return
	}
	for l, list := range [2][]disc{d.prev, d.lost} {
		for _, p := range list {
			if !p.hasSig || p.still < refindStill {
				continue
			}
			if !p.big && p.marking >= 0 {
				// on a printed circle of a man's size: what remains when
				// the disc is taken away has the same rim
				continue
			}
			if l == 1 && d.frames-p.lostAt > refindLost {
				continue
			}
			if !d.grid.at(p.x, p.y) {
				if l == 1 {
					next = append(next, p) // nothing changed there
				}
				continue
			}
			taken := false
			for i := range d.accepted {
				a := &d.accepted[i]
				dist := math.Hypot(a.x-p.x, a.y-p.y)
				if dist >= 0.8*(a.r+p.r) {
					continue
				}
				taken = true
				if !a.fresh || dist > refindShift {
					break
				}
				if a.big != p.big {
					// found again at its place with the other size, in
					// part: fingers over a man's rim widen his outline to
					// a striker's, fingers over the striker's leave a
					// man-sized ring. Where the rim remembered is still
					// where it was, it is the disc that lay there —
					// unless a man is remembered and the outline now
					// measured is clearly a striker's: a man has no ring
					// out there (the fingers widen his outline about
					// half-way), the striker seen man-sized while it was
					// being put down does.
					if (a.hidden > 0 || a.support < 0.9 || a.sym < goodSymmetry) && (p.big || !d.strikerOutline(*a)) {
						if c, share, ok := d.rimStill(p); ok {
							if d.trace != nil {
								d.tracef(p.x, p.y, "refind: %.2f of the rim still seen: its size kept", share)
							}
							c.x, c.y = a.x, a.y
							d.place(&c)
							*a = c
						}
					}
					break
				}
				if a.hidden > 0 || a.support < 0.9 || a.sym < goodSymmetry {
					// found again in part: the hand biases its centre,
					// while a disc whose rim is still where it was has
					// not moved
					if c, share, ok := d.rimStill(p); ok {
						if d.trace != nil {
							d.tracef(p.x, p.y, "refind: %.2f of the rim still seen: kept where it was", share)
						}
						*a = c
						break
					}
				}
				if !a.hasSig && dist < 1 {
					// found again where it was lost: it keeps its rim
					a.sig, a.sigAt, a.hasSig, a.still = p.sig, p.sigAt, true, p.still+1
				}
				break
			}
			if taken {
				continue
			}
			ok := false
			var c disc
			if d.nearHand(p) {
				var share float64
				c, share, ok = d.rimStill(p)
				if d.trace != nil {
					d.tracef(p.x, p.y, "refind: %.2f of the rim still seen at %.1f,%.1f: %v", share, c.x, c.y, ok)
				}
			}
			if ok {
				d.accepted = append(d.accepted, c)
				continue
			}
			if l == 0 {
				p.lostAt = d.frames
			}
			next = append(next, p)
		}
	}
	d.lost, d.lostNext = next, d.lost
}

// strikerOutline reports whether c's outermost ring of edges is clearly a
// striker's: more than a quarter of the way past the middle between a
// man's outline and a striker's.
func (d *Detector) strikerOutline(c disc) bool {
	return (c.outline-(d.rMan+d.rStr)/2)/(d.rStr-d.rMan) > 0.25
}

// rimStill measures how much of p's remembered rim is still where it was
// (an edge within a pixel of where the rim's edge was, along each ray
// where one was), and returns the disc, at its place, with that share as
// its support. A rim that fits a centre moved by more than refindShift is
// not the disc remembered.
func (d *Detector) rimStill(p disc) (disc, float64, bool) {
	x, y := p.x, p.y
	m := d.model(x, y, p.big)
	pl := d.plane()
	n, hit := 0, 0
	var sxx, sxy, syy, bx, by float64
	for k := 0; k < rays; k++ {
		if p.sig[k] == 0 {
			continue
		}
		n++
		was := float64(p.sigAt[k]) / 2
		g, off := d.rimEdge(pl, x, y, m, k, was, 1, true)
		off -= was
		if g == 0 || (g > 0) != (p.sig[k] > 0) || abs32(g) < 0.3*abs32(p.sig[k]) {
			continue
		}
		hit++
		c, sn := rayCos[k], raySin[k]
		sxx += c * c
		sxy += c * sn
		syy += sn * sn
		bx += off * c
		by += off * sn
	}
	if n < refindRays {
		return p, 0, false
	}
	share := float64(hit) / float64(n)
	if hit < refindRays || share < refindShare {
		return p, share, false
	}
	// the centre's shift that best explains the rim's offsets (least
	// squares): a disc that moved is not the one remembered
	if det := sxx*syy - sxy*sxy; det > 1e-3*float64(hit*hit) {
		dx := (syy*bx - sxy*by) / det
		dy := (sxx*by - sxy*bx) / det
		if math.Hypot(dx, dy) > refindShift {
			return p, share, false
		}
	}
	c := p
	c.support = share
	c.hidden = 1 - share
	c.still = p.still + 1
	c.fresh = false
	return c, share, true
}
