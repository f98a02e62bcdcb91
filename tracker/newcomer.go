package tracker

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// Newcomers: a disc first seen moving, in the middle of a stroke.
//
// A disc the camera never saw at rest can be set moving by a stroke: the
// queen alone on a plain red centre circle of her size looks like the
// print itself until she moves (vision does not report her), a disc
// hidden from the start, one the detector missed. Such a disc is seen
// only once it slides, a few tens of millimetres between frames: the
// candidates of births, which wait for a disc seen in a few frames at one
// place, never confirm it, and its pocketing would go unsaid.
//
// So during a stroke the detections no disc explains are chained from
// frame to frame along the straight friction slide a struck disc follows.
// A chain seen in ConfirmTime's worth of frames that fits one slide, of a
// man's or the queen's class, becomes a newcomer when exactly its kind
// says who it is: an identity of that kind never seen since tracking
// began (the queen, on a board where she was never seen), and no disc
// already tracked that could be it (one lost from sight while moving,
// within reach). The disc takes that identity as a moving disc and is
// followed as any other: pocketed, overboard, at rest.
//
// Its identity comes from its class alone, and the rest position before
// the stroke did not have it: when the stroke's outcome rests on it (it
// left the board, or was lost from sight), the stroke ends with an
// unaccounted doubt saying so, and the referee holds it for the umpire.
// A newcomer that comes to rest on the board changes no outcome: it is
// simply on the board from then on.

// newChain is a run of detections no disc explains, one a frame, along a
// slide.
type newChain struct {
	hist  []obs
	votes [4]float64 // class votes weighted by confidence
	score float64    // the least detection score
	taken bool
	// tracked: a disc already tracked could be the chain (see
	// mayBeTracked), in one of its frames.
	tracked bool
}

// newcomerNote is a disc taken up as a newcomer in the stroke in
// progress: track i, first seen at frame at p, moving.
type newcomerNote struct {
	i     int
	frame int
	p     board.Vec
}

// vanishedNote is a chain too short to be taken up that vanished into a
// pocket: seen as a disc of kind from frame to frame, last at p, its way
// leading into pocket pk; id is the identity it would have taken.
type vanishedNote struct {
	kind     board.Kind
	from, to int
	p        board.Vec
	pk       board.Pocket
	id       string
}

// arrivals is what the Tracker keeps of newcomers (one concern, a field
// of the Tracker): the chains being followed, the discs taken up, and the
// chains too short to take up that vanished into a pocket.
type arrivals struct {
	chains   []newChain
	taken    []newcomerNote
	vanished []vanishedNote
}

// maxChainHist bounds a chain's detections (the last ones are kept).
const maxChainHist = 32

// newcomers follows the detections no disc explains during a stroke and
// takes up a chain that moves as a struck disc moves (see above).
func (tk *Tracker) newcomers() {
	a := &tk.newArr
	if tk.stroke == nil {
		a.chains = a.chains[:0]
		return
	}
	// Forget chains not extended for two frames, and taken ones.
	keep := a.chains[:0]
	for k := range a.chains {
		c := &a.chains[k]
		switch {
		case c.taken:
		case tk.t-c.hist[len(c.hist)-1].t <= 2.5*tk.dt:
			keep = append(keep, *c)
		default:
			tk.noteVanished(c)
		}
	}
	a.chains = keep
	n0 := len(a.chains)
	for j := range tk.dets {
		d := &tk.dets[j]
		if tk.detUsed[j] != -1 || tk.fixtures.on(j) || d.Partial || tk.bornHere(d.MM) {
			continue
		}
		o := obs{frame: tk.frame, t: tk.t, p: d.MM, px: d.PX, sigma: tk.cfg.NoiseMM}
		best, bd := -1, math.Inf(1)
		for k := 0; k < n0; k++ {
			c := &a.chains[k]
			last := c.hist[len(c.hist)-1]
			if last.t >= tk.t {
				continue // extended in this frame already
			}
			if dist, ok := tk.chainFits(c, o); ok && dist < bd {
				best, bd = k, dist
			}
		}
		if best < 0 {
			a.chains = append(a.chains, newChain{score: d.Score})
			best = len(a.chains) - 1
		}
		c := &a.chains[best]
		if len(c.hist) >= maxChainHist {
			c.hist = append(c.hist[:0], c.hist[1:]...)
		}
		c.hist = append(c.hist, o)
		c.votes[d.Kind&3] += 0.5 + d.ClassScore
		c.score = math.Min(c.score, d.Score)
	}
	for k := range a.chains {
		c := &a.chains[k]
		if c.hist[len(c.hist)-1].t != tk.t {
			continue
		}
		c.tracked = c.tracked || tk.mayBeTracked(c)
		if len(c.hist) < tk.confirmFr {
			continue
		}
		if i, sg, ok := tk.newcomerID(c); ok {
			tk.takeNewcomer(i, c, sg)
			c.taken = true
		}
	}
}

// bornHere reports whether a disc was taken up at p in this frame by
// births (its detection is not marked used).
func (tk *Tracker) bornHere(p board.Vec) bool {
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.seen && tk.trkDet[i] < 0 && tr.lastObs.p.Dist(p) < tr.r {
			return true
		}
	}
	return false
}

// chainFits reports whether detection o can continue chain c: within a
// disc's fastest move of its last detection after one, close to the
// straight line (slowing) its last detections trace after two or more.
// dist is how far from the expected place.
func (tk *Tracker) chainFits(c *newChain, o obs) (float64, bool) {
	last := c.hist[len(c.hist)-1]
	gap := o.t - last.t
	if len(c.hist) == 1 {
		d := o.p.Dist(last.p)
		return d, d <= tk.cfg.MaxSpeed*gap+10
	}
	prev := c.hist[len(c.hist)-2]
	v := last.p.Sub(prev.p).Scale(1 / math.Max(last.t-prev.t, 1e-4))
	pred := last.p.Add(v.Scale(gap))
	d := o.p.Dist(pred)
	return d, d <= 6+4*tk.cfg.NoiseMM+0.15*v.Len()*gap
}

// newcomerID decides whether chain c is a newcomer, and whose identity it
// takes: its last ConfirmTime's worth of detections (or more, as far back
// as they fit) lie on one slide fast enough to be a struck disc's; its
// class is a man's or the queen's; an identity of its kind was never seen
// since tracking began; and no disc already tracked could be it. It
// returns the track and the fitted slide (over the chain's last sg.n
// detections).
func (tk *Tracker) newcomerID(c *newChain) (int, seg, bool) {
	if c.tracked {
		return -1, seg{}, false
	}
	kind, ok := chainKind(c)
	if !ok {
		return -1, seg{}, false
	}
	sg, ok := tk.chainSlide(c, tk.confirmFr)
	if !ok {
		return -1, seg{}, false
	}
	i := tk.neverSeen(kind)
	return i, sg, i >= 0
}

// chainKind is the class of chain c's detections, when it is a man's or
// the queen's and the detector was not unsure of the discs (score).
func chainKind(c *newChain) (board.Kind, bool) {
	kind := board.Kind(0)
	for q := range c.votes {
		if c.votes[q] > c.votes[kind] {
			kind = board.Kind(q)
		}
	}
	return kind, kind != board.Striker && c.score >= awaitedScore
}

// chainSlide fits one friction slide to the longest run of chain c's last
// detections (at least least of them) that it explains, and reports
// whether it is a struck disc's: still at StrikeSpeed or faster at the
// last, no faster than MaxSpeed, at least 3 × MoveMM long.
func (tk *Tracker) chainSlide(c *newChain, least int) (seg, bool) {
	var sg seg
	fits := false
	for n := len(c.hist); n >= max(least, 2); n-- {
		s := seg{first: len(c.hist) - n, n: n}
		tk.mot.fit(&s, c.hist, board.Vec{})
		ok := true
		for _, q := range c.hist[s.first:] {
			sp := tk.mot.vel(&s, q.t).Len()
			if q.p.Dist(tk.mot.at(&s, q.t)) > 3+3*tk.cfg.NoiseMM*(1+sp/2000) {
				ok = false
				break
			}
		}
		if ok {
			sg, fits = s, true
			break
		}
	}
	if !fits {
		return seg{}, false
	}
	first, last := c.hist[sg.first], c.hist[len(c.hist)-1]
	sp := tk.mot.vel(&sg, last.t).Len()
	return sg, sp >= tk.cfg.StrikeSpeed && sg.v0.Len() <= tk.cfg.MaxSpeed && last.p.Dist(first.p) >= 3*tk.cfg.MoveMM
}

// mayBeTracked reports whether a disc already tracked, and not seen since
// before chain c began (lost moving, struck unseen, slid under a hand,
// missing), could have come where the chain began: the chain may be it,
// seen under another class. The striker not seen since before the chain
// began may be anywhere (where the tracker believed it was may be wrong;
// a white striker is seen as a white man, a red one as the queen).
func (tk *Tracker) mayBeTracked(c *newChain) bool {
	t0 := c.hist[0].t
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.state == Unseen || tr.state == Pocketed || tr.state == Overboard {
			continue
		}
		if tr.seen || tr.lastSeenT >= t0 {
			continue // seen while the chain was: another disc
		}
		if i == idxS || c.hist[0].p.Dist(tr.lastObs.p) <= tk.cfg.MaxSpeed*(t0-tr.lastSeenT)+tr.r+20 {
			return true
		}
	}
	return false
}

// neverSeen is the first identity of kind k never seen since tracking
// began (-1: none).
func (tk *Tracker) neverSeen(k board.Kind) int {
	for i := range tk.tracks {
		if tk.tracks[i].kind == k && tk.tracks[i].state == Unseen {
			return i
		}
	}
	return -1
}

// noteVanished looks at chain c, not taken up and no longer seen: seen in
// two frames or more (fewer than it takes to take one up) on a struck
// disc's slide that leads into a pocket, of a kind with an identity
// never seen, and no tracked disc could be it — a disc seen too briefly
// to say which, perhaps pocketed. The stroke is then held (see
// newcomerDoubts).
func (tk *Tracker) noteVanished(c *newChain) {
	if c.tracked || len(c.hist) < 2 || len(c.hist) >= tk.confirmFr {
		return
	}
	kind, ok := chainKind(c)
	if !ok {
		return
	}
	sg, ok := tk.chainSlide(c, 2)
	if !ok {
		return
	}
	i := tk.neverSeen(kind)
	if i < 0 {
		return
	}
	last := c.hist[len(c.hist)-1]
	path := tk.mot.slide(tk.g, tk.mot.at(&sg, last.t), tk.mot.vel(&sg, last.t), tk.g.Radius(kind), 3)
	if !path.pocketed {
		return
	}
	tk.newArr.vanished = append(tk.newArr.vanished, vanishedNote{kind: kind, from: c.hist[0].frame, to: last.frame, p: last.p, pk: path.pocket, id: tk.tracks[i].id})
}

// takeNewcomer gives chain c the identity i: a disc moving on the slide
// sg fitted to the chain's last detections, in the stroke.
func (tk *Tracker) takeNewcomer(i int, c *newChain, sg seg) {
	tr := &tk.tracks[i]
	h := c.hist[sg.first:]
	first, last := h[0], h[len(h)-1]
	tr.hist = append(tr.hist[:0], h...)
	sg.first = 0
	sg.from = first.t
	tr.segs = append(tr.segs[:0], sg)
	tr.state, tr.moveStart, tr.fromRest, tr.onsetPending = Moving, 0, false, false
	tr.motionT, tr.unseenBefore = first.t, math.Inf(1)
	tr.pos, tr.vel, tr.px = last.p, tk.mot.vel(&sg, last.t), last.px
	tr.lastObs, tr.lastSeenT, tr.lastSeenFrame, tr.seen, tr.misses = last, last.t, last.frame, true, 0
	tr.beyond, tr.displaced, tr.taken, tr.occMoving, tr.strikerSince = false, false, false, false, 0
	tr.provisional, tr.hasAnchor, tr.placedFlag, tr.placedSeq = false, false, false, 0
	// (It was on the board when the stroke began, unseen: unaccounted for
	// at the end if it is then lost.)
	tr.inStroke, tr.onAtStart = true, true
	tk.newArr.taken = append(tk.newArr.taken, newcomerNote{i: i, frame: first.frame, p: first.p})
}

// newcomerDoubts are the doubts of the stroke ending now on the
// newcomers taken up in it whose fate changes its outcome: gone off the
// board, or lost from sight. (One that rests on the board changes
// nothing the referee decides.) The notes are then forgotten: newcomers
// are taken up only during a stroke, and every stroke ends here.
func (tk *Tracker) newcomerDoubts() []events.Doubt {
	var out []events.Doubt
	for _, n := range tk.newArr.taken {
		tr := &tk.tracks[n.i]
		var fate string
		switch tr.state {
		case Pocketed:
			fate = "it went into pocket " + tr.pocket.String()
		case Overboard:
			fate = "it left the board over the frame at " + mmWords(tr.pos)
		case Missing:
			fate = "it was then lost from sight"
		default:
			continue
		}
		where := "at " + mmWords(n.p)
		if n.p.Len() < 60 {
			where += ", by the centre"
		}
		out = append(out, events.Doubt{Kind: events.DoubtUnaccounted,
			Reason: fmt.Sprintf("a disc seen as %s, first seen during the stroke at frame %d %s (no disc had been seen there at rest) and then moving, was taken for %s; %s",
				kindWords(tr.kind), n.frame, where, tr.id, fate),
			Frames: [2]int{n.frame, tk.frame}, IDs: []string{tr.id}})
	}
	tk.newArr.taken = tk.newArr.taken[:0]
	for k := range tk.newArr.chains {
		if c := &tk.newArr.chains[k]; !c.taken {
			tk.noteVanished(c)
		}
	}
	tk.newArr.chains = tk.newArr.chains[:0]
	for _, v := range tk.newArr.vanished {
		out = append(out, events.Doubt{Kind: events.DoubtUnaccounted,
			Reason: fmt.Sprintf("a disc seen as %s moving in %s only (no disc had been seen there at rest), last at %s, vanished into pocket %s: perhaps pocketed, but seen too briefly to be taken for %s",
				kindWords(v.kind), frames(v.from, v.to), mmWords(v.p), v.pk, v.id),
			Frames: [2]int{v.from, tk.frame}, IDs: []string{v.id}})
	}
	tk.newArr.vanished = tk.newArr.vanished[:0]
	return out
}

// mmWords writes a place on the board for the umpire, to the millimetre
// ("(0, 12) mm", never "-0").
func mmWords(p board.Vec) string {
	r := func(v float64) float64 { return math.Round(v) + 0 }
	return fmt.Sprintf("(%.0f, %.0f) mm", r(p.X), r(p.Y))
}

// kindWords names a disc's kind for the umpire.
func kindWords(k board.Kind) string {
	switch k {
	case board.Queen:
		return "the queen"
	case board.White:
		return "a white man"
	case board.Black:
		return "a black man"
	}
	return "the striker"
}
