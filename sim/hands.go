package sim

import (
	"math"
	"math/rand/v2"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// Hand heights above the surface (mm). A hand never goes lower than
// holdDepth, so it never passes through a disc (men are 7–9 mm thick); it
// only hides them from the camera.
const (
	zTravel = 70.0 // reaching in over the frame
	zAbove  = 28.0 // above a disc before taking or placing it
	zHover  = 13.0 // aiming behind the striker, resting over a pocket
)

// handKey is one keyframe of a hand's motion.
type handKey struct {
	t   float64
	tip board.Vec
	// dir is the direction (radians) from the fingertip toward the wrist.
	dir float64
	z   float64
	// holding is the disc held from this key until the next.
	holding string
	// linear makes the motion to the next key uniform (a push) instead of
	// easing in and out.
	linear bool
}

// handTrack is one appearance of a hand over the board: it comes in over
// its owner's side of the frame, moves through its keys and leaves. The
// wrist and elbow follow from the fingertip, the hand's direction and the
// owner's shoulder, so the arm always stays connected and natural.
type handTrack struct {
	owner               string
	side                board.Side
	shoulder            board.Vec
	armWidth, handWidth float64
	handLen, forearm    float64
	keys                []handKey
}

func (h *handTrack) start() float64 { return h.keys[0].t }
func (h *handTrack) end() float64   { return h.keys[len(h.keys)-1].t }

// pose interpolates the keys at t.
func (h *handTrack) pose(t float64) (tip board.Vec, dir, z float64, holding string) {
	k := h.keys
	if t <= k[0].t {
		return k[0].tip, k[0].dir, k[0].z, k[0].holding
	}
	n := len(k)
	if t >= k[n-1].t {
		return k[n-1].tip, k[n-1].dir, k[n-1].z, k[n-1].holding
	}
	lo, hi := 0, n-1
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if k[m].t <= t {
			lo = m
		} else {
			hi = m
		}
	}
	a, b := k[lo], k[hi]
	s := (t - a.t) / (b.t - a.t)
	if !a.linear {
		s = s * s * (3 - 2*s)
	}
	tip = a.tip.Add(b.tip.Sub(a.tip).Scale(s))
	dd := math.Remainder(b.dir-a.dir, 2*math.Pi)
	return tip, a.dir + dd*s, a.z + (b.z-a.z)*s, a.holding
}

func (h *handTrack) tipAt(t float64) (board.Vec, float64) {
	tip, _, z, _ := h.pose(t)
	return tip, z
}

// hand returns the scene hand at t.
func (h *handTrack) hand(t float64) scene.Hand {
	tip, dir, z, holding := h.pose(t)
	return h.build(tip, dir, z, holding)
}

func (h *handTrack) build(tip board.Vec, dir, z float64, holding string) scene.Hand {
	wrist := tip.Add(board.V(math.Cos(dir), math.Sin(dir)).Scale(h.handLen))
	toShoulder := h.shoulder.Sub(wrist)
	if toShoulder.Len() < 1 {
		toShoulder = board.V(math.Cos(dir), math.Sin(dir))
	}
	elbow := wrist.Add(toShoulder.Unit().Scale(h.forearm))
	return scene.Hand{Owner: h.owner, Elbow: elbow, Wrist: wrist, Fingertip: tip,
		ArmWidth: h.armWidth, HandWidth: h.handWidth, Z: z, Holding: holding}
}

// handPlan builds a hand track key by key.
type handPlan struct {
	w   *world
	tr  *handTrack
	idx int // index in w.hands
	t   float64
	rng *rand.Rand
}

// newHand starts a hand of owner ("S", …, or "umpire") reaching in from
// side at time t. Sizes vary a little per appearance (seeded).
func (w *world) newHand(owner string, side board.Side, t float64, rng *rand.Rand) *handPlan {
	g := w.g
	j := func(x, spread float64) float64 { return x + spread*(2*rng.Float64()-1) }
	tr := &handTrack{
		owner:     owner,
		side:      side,
		shoulder:  board.FromLocal(side, board.V(j(110, 30), g.Half()+g.FrameWidth+j(230, 20))),
		armWidth:  j(70, 5),
		handWidth: j(85, 5),
		handLen:   j(175, 10),
		forearm:   j(260, 15),
	}
	w.hands = append(w.hands, tr)
	return &handPlan{w: w, tr: tr, idx: len(w.hands) - 1, t: t, rng: rng}
}

// key adds a keyframe dt after the previous one.
func (p *handPlan) key(dt float64, tip board.Vec, dir, z float64, holding string) {
	p.t += dt
	p.tr.keys = append(p.tr.keys, handKey{t: p.t, tip: tip, dir: dir, z: z, holding: holding})
}

// last returns the last key.
func (p *handPlan) last() *handKey { return &p.tr.keys[len(p.tr.keys)-1] }

// dirTo is the natural direction of the hand with its fingertip at tip:
// pointing away from the shoulder.
func (p *handPlan) dirTo(tip board.Vec) float64 {
	d := p.tr.shoulder.Sub(tip)
	return math.Atan2(d.Y, d.X)
}

// entry is where the hand enters or leaves: over its own side of the
// frame, beyond the playing surface, in line with target.
func (p *handPlan) entry(target board.Vec) board.Vec {
	g := p.w.g
	l := board.ToLocal(p.tr.side, target)
	return board.FromLocal(p.tr.side, board.V(0.4*l.X+60, g.Half()+g.FrameWidth*0.5+40))
}

// travel is how long the hand takes to move from a to b: a reach of about
// 0.7 m/s with a short start and stop, varying ±10 %.
func (p *handPlan) travel(a, b board.Vec) float64 {
	return (0.22 + a.Dist(b)/700) * (0.9 + 0.2*p.rng.Float64())
}

// enter brings the hand in from outside to above target, holding id (or "").
func (p *handPlan) enter(target board.Vec, holding string) {
	e := p.entry(target)
	if len(p.tr.keys) == 0 {
		p.key(0, e, p.dirTo(e), zTravel, holding)
	} else {
		p.key(0.25, e, p.dirTo(e), zTravel, holding)
	}
	p.key(p.travel(e, target), target, p.dirTo(target), zAbove, holding)
}

// leave takes the hand back out over its side.
func (p *handPlan) leave() {
	from := p.last().tip
	e := p.entry(from)
	p.key(0.18, from, p.last().dir, zAbove+10, "")
	p.key(p.travel(from, e), e, p.dirTo(e), zTravel, "")
}

// armCrossesFoulLine reports whether any part of the hand or forearm lies
// beyond the diagonal foul lines (the arrows, extended) that bound side s's
// quarter of the board.
func armCrossesFoulLine(s board.Side, h scene.Hand) bool {
	type capsule struct {
		a, b board.Vec
		r    float64
	}
	for _, c := range []capsule{{h.Elbow, h.Wrist, h.ArmWidth / 2}, {h.Wrist, h.Fingertip, h.HandWidth / 2}} {
		la, lb := board.ToLocal(s, c.a), board.ToLocal(s, c.b)
		for _, sg := range [2]float64{1, -1} {
			// Outside the quarter where sg·x − y > 0; the capsule reaches
			// r·√2 further in that measure than its axis.
			m := math.Max(sg*la.X-la.Y, sg*lb.X-lb.Y) + c.r*math.Sqrt2
			if m > 0 {
				return true
			}
		}
	}
	return false
}

// strikePose returns the direction of the hand (fingertip toward wrist) of
// a player at side s flicking in direction dir with the fingertip at tip:
// straight behind the flick, bent toward the shoulder only as far as
// needed to keep the hand and forearm inside the player's quarter. crosses
// reports that no bend keeps them inside.
func strikePose(h *handTrack, s board.Side, tip, dir board.Vec) (wd float64, crosses bool) {
	toShoulder := h.shoulder.Sub(tip).Unit()
	back := dir.Scale(-1)
	for k, wgt := range []float64{0.25, 0.45, 0.65, 0.85, 1} {
		d := back.Scale(1 - wgt).Add(toShoulder.Scale(wgt))
		a := math.Atan2(d.Y, d.X)
		if k == 0 {
			wd = a
		}
		if !armCrossesFoulLine(s, h.build(tip, a, holdDepth+1, "")) {
			return a, false
		}
	}
	return wd, true
}

// nominalArmFoul reports whether an average hand playing shot sh would
// reach over the foul line (the automatic player avoids such shots; the
// hand that actually plays varies a little).
func nominalArmFoul(g *board.Geometry, sh Shot) bool {
	h := &handTrack{
		shoulder:  board.FromLocal(sh.Side, board.V(110, g.Half()+g.FrameWidth+230)),
		armWidth:  75,
		handWidth: 90,
		handLen:   175,
		forearm:   260,
	}
	tip := sh.Striker.Sub(sh.Dir.Scale(g.StrikerDiameter/2 + 3))
	_, crosses := strikePose(h, sh.Side, tip, sh.Dir)
	return crosses
}
