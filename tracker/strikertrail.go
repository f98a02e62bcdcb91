package tracker

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
)

// A striker struck into a pocket while the tracker had no hold on it
// (issue 11's hunt, testdata/hunt/h06-striker-pocketed-nohand on a
// computer 8 times slower): the board was found late, the striker was
// seen at its place in two frames only, as an unsure "striker" (a red
// striker under glare), never long enough nor surely enough to take the
// identity; then it was seen sliding, still unsure, in frame after frame
// straight into a pocket, with no hand anywhere near, and nothing else
// moved. No disc explained those detections, so nothing moved as far as
// the tracker knew: no stroke, no gap with a mover, no changed board. The
// stroke was lost without a word and the turn did not pass.
//
// The detections themselves tell the stroke. Between strokes, the
// striker-class detections no disc explains (any class confidence) are
// chained frame to frame along a slide, as newcomers are during a stroke;
// frames not analysed in between do not break a chain. A chain the
// striker itself cannot be (the striker was seen elsewhere meanwhile)
// is nothing. One that is lost from sight after it was seen
//
//   - in trailLeast frames or more, all on one friction slide (the board's
//     Deceleration; a hand carrying a disc does not slow it so), still at
//     StrikeSpeed or faster, at least 3 × MoveMM long, leading back to a
//     base line (baseLineBehind),
//   - with no hand over or near any of its sightings, nor over the pocket,
//     since half a second before its first,
//   - whose slide from its last sighting leads into a pocket mouth,
//
// was the striker struck into that pocket in a stroke whose start was not
// seen. The striker is taken as pocketed there (inferred) and the change
// is said as a stroke-less change of the board (strokeless.go): one
// stroke_end with no stroke_start, its start_unseen doubt saying what was
// seen ("a disc seen as the striker (unsure of its class) slid with no
// hand near it in frames 62–70 …: the striker may have been pocketed in a
// stroke that was not seen"). The referee holds it as the stroke of the
// seat whose turn it was, with the striker pocketed as its best guess.
// While such a chain is followed, events wait behind its last sighting
// (trailHold), so that the pocketing still leaves in time order.

// trailLeast is the fewest sightings of a striker trail: three fix a
// friction slide (two give only a chord, which a hand's carry also makes).
const trailLeast = 3

// trailChain is a chain of striker-class detections no disc explains,
// followed between strokes; idle counts the frames analysed since it was
// last extended.
type trailChain struct {
	newChain
	idle  int
	class float64 // the detector's least class confidence in it
}

// strikerTrails is what the Tracker keeps of such chains (one concern, a
// field of the Tracker).
type strikerTrails struct {
	chains []trailChain
}

// followTrails extends the chains with this frame's striker-class
// detections that no disc explains, and judges those lost (see above).
func (tk *Tracker) followTrails() {
	tr := &tk.trails
	if tk.stroke != nil || tk.t-tk.firstT <= tk.cfg.InitTime {
		tr.chains = tr.chains[:0]
		return
	}
	n0 := len(tr.chains)
	extended := make([]bool, n0, n0+4)
	for j := range tk.dets {
		d := &tk.dets[j]
		if d.Kind != board.Striker || tk.detUsed[j] != -1 || tk.fixtures.on(j) || d.Partial || d.Score < awaitedScore || tk.bornHere(d.MM) {
			continue
		}
		o := obs{frame: tk.frame, t: tk.t, p: d.MM, px: d.PX, sigma: tk.cfg.NoiseMM}
		best, bd := -1, math.Inf(1)
		for k := 0; k < n0; k++ {
			if extended[k] {
				continue
			}
			if dist, ok := tk.trailFits(&tr.chains[k], o); ok && dist < bd {
				best, bd = k, dist
			}
		}
		if best < 0 {
			tr.chains = append(tr.chains, trailChain{newChain: newChain{score: d.Score}, class: d.ClassScore})
			extended = append(extended, true)
			best = len(tr.chains) - 1
		} else {
			extended[best] = true
		}
		c := &tr.chains[best]
		if len(c.hist) >= maxChainHist {
			c.hist = append(c.hist[:0], c.hist[1:]...)
		}
		c.hist = append(c.hist, o)
		c.score, c.class = math.Min(c.score, d.Score), math.Min(c.class, d.ClassScore)
		c.idle = 0
	}
	keep := tr.chains[:0]
	for k := range tr.chains {
		c := &tr.chains[k]
		if !extended[k] {
			c.idle++
		}
		if c.idle >= 2 {
			tk.judgeTrail(c)
			continue
		}
		keep = append(keep, *c)
	}
	tr.chains = keep
}

// endTrails judges the chains still followed at the end of the video.
func (tk *Tracker) endTrails() {
	if tk.stroke == nil {
		for k := range tk.trails.chains {
			tk.judgeTrail(&tk.trails.chains[k])
		}
	}
	tk.trails.chains = tk.trails.chains[:0]
}

// trailFits reports whether detection o can continue chain c: on the
// friction slide fitted to its sightings since it left the place of its
// first (within 6 mm + 4 × noise + a tenth of the way since the last)
// once two of them moved, else within a disc's fastest move of its last
// sighting (frames not analysed between count: the chain is not broken
// by them).
func (tk *Tracker) trailFits(c *trailChain, o obs) (float64, bool) {
	last := c.hist[len(c.hist)-1]
	if o.t <= last.t {
		return 0, false
	}
	m := len(c.hist)
	for k, q := range c.hist {
		if q.p.Dist(c.hist[0].p) > 3*tk.cfg.MoveMM {
			m = k
			break
		}
	}
	if len(c.hist)-m < 2 {
		d := o.p.Dist(last.p)
		return d, d <= tk.cfg.MaxSpeed*(o.t-last.t)+10
	}
	s := seg{first: m, n: len(c.hist) - m}
	tk.mot.fit(&s, c.hist, board.Vec{})
	pred := tk.mot.at(&s, o.t)
	d := o.p.Dist(pred)
	return d, d <= 6+4*tk.cfg.NoiseMM+0.1*pred.Dist(tk.mot.at(&s, last.t))
}

// judgeTrail decides chain c, lost from sight (see above): the striker
// struck into a pocket unseen is noted for sayStrokeless, the striker
// taken as pocketed.
func (tk *Tracker) judgeTrail(c *trailChain) {
	if len(c.hist) < trailLeast {
		return
	}
	s := &tk.tracks[idxS]
	switch {
	case s.seen || s.lastSeenT >= c.hist[0].t-1e-9:
		return // seen meanwhile: the chain is another disc
	case s.state == Unseen, s.state == Missing, s.state.atRest():
	default:
		return // in a hand, moving, or off the board already
	}
	// One slide explains its last sightings (at least trailLeast); any
	// before lie behind it on its line: where it was struck from, and the
	// flick's first blurred sightings.
	sg, ok := tk.chainSlide(&c.newChain, trailLeast)
	if !ok {
		return
	}
	run := c.hist[sg.first:]
	first, last := run[0], run[len(run)-1]
	dir := sg.v0.Unit()
	for _, o := range c.hist[:sg.first] {
		off := o.p.Sub(first.p)
		if off.Dot(dir) > 0 || math.Abs(off.X*dir.Y-off.Y*dir.X) > 10+3*tk.cfg.NoiseMM {
			return // not behind the slide, on its line: not one stroke
		}
	}
	// Seen moving long enough to tell friction from a steady carry (a
	// hand the camera misses carries it so), and slowing as friction
	// slows it: the sightings from its first off the place it began at.
	mv := c.hist
	if c.hist[1].p.Dist(c.hist[0].p) <= 3*tk.cfg.MoveMM { // it began lying at a place
		for len(mv) > 0 && mv[0].p.Dist(c.hist[0].p) <= 3*tk.cfg.MoveMM {
			mv = mv[1:]
		}
	}
	if len(mv) < 4 || mv[len(mv)-1].t-mv[0].t < frictionSpan-1e-9 {
		return
	}
	a := tk.cfg.Deceleration
	if d, ok := fitDecel(mv, dir); !ok || d < a/4 || d > 4*a {
		return
	}
	if _, ok := tk.baseLineBehind(first.p, dir); !ok {
		return
	}
	since := c.hist[0].t - 0.5
	for _, o := range c.hist {
		if tk.hands.near(o.p, s.r+40, since) {
			return
		}
	}
	path := tk.mot.slide(tk.g, tk.mot.at(&sg, last.t), tk.mot.vel(&sg, last.t), s.r, 3)
	if !path.pocketed {
		return
	}
	mouth := tk.g.Pocket(path.pocket)
	if tk.hands.near(mouth.C, mouth.R+40, since) {
		return
	}
	class := ""
	if c.class < 0.9 {
		class = fmt.Sprintf(" (the detector unsure of its class: %.2f)", c.class)
	}
	tp := last.t + path.tp
	tk.pocketed(idxS, path.pocket, tp, true)
	why := fmt.Sprintf("a disc seen as the striker%s slid from %s with no hand near it in %s (%d sightings on one slide, slowing as a struck disc does, from a base line) while the striker was not seen elsewhere, and was lost from sight on its way into pocket %s: the striker may have been pocketed in a stroke whose start was not seen (taken as pocketed; not seen)",
		class, mmWords(first.p), frames(first.frame, last.frame), len(run), path.pocket)
	tk.strokeless.moves = append(tk.strokeless.moves, strokelessMove{id: s.id, why: why, frame0: first.frame, frame: tk.frame})
	tk.strokeless.lastT = tk.t
}

// trailHold is the time before which events may be released while a
// chain that may yet be judged the striker struck unseen is followed
// (+Inf: none): its pocketing comes after its last sighting. (A chain
// lying still, a marking taken for an unsure striker, holds nothing.)
func (tk *Tracker) trailHold() float64 {
	w := math.Inf(1)
	for k := range tk.trails.chains {
		c := &tk.trails.chains[k]
		if last := c.hist[len(c.hist)-1]; last.p.Dist(c.hist[0].p) > 3*tk.cfg.MoveMM {
			w = math.Min(w, last.t-tk.dt)
		}
	}
	return w
}
