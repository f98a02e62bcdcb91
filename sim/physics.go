package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
)

const (
	// gravity in mm/s².
	gravity = 9806.65
	// holdDepth: a hand holding a disc is this far above the disc's
	// underside (a carromman is 7–9 mm thick), so a hand at this height
	// holds a disc lying on the surface.
	holdDepth = 10.0
	// approachTol: two bodies touching with a closing speed below this
	// (mm/s) are not collided again. It bounds the creep of resting
	// contacts to a micrometre per second.
	approachTol = 1e-3
	// separated: a pair of discs (or a disc and a cushion) whose gap
	// exceeds this (mm) has parted; their next collision is a new contact.
	// Closer re-contacts (a heavy striker chattering against a man it pushes)
	// are one contact to any camera.
	separated = 1.0
	// slowContact: below this closing speed (mm/s) the restitution falls
	// linearly to zero, so that clusters of touching discs settle after a
	// finite number of collisions instead of chattering.
	slowContact = 50.0
	// zeroTimeSoft and zeroTimeHard bound the collisions resolved at one
	// instant (a packed cluster passes an impulse through many touching
	// discs at once): past the first the collisions there are made fully
	// inelastic, past the second the stroke fails.
	zeroTimeSoft = 4000
	zeroTimeHard = 200000
	// maxStrokeTime bounds a stroke's duration (s); friction stops every
	// disc within a few seconds, so reaching it means a bug.
	maxStrokeTime = 120.0
	// minJumpSpeed is the least horizontal speed (mm/s) of a scripted jump.
	minJumpSpeed = 2000.0
	// maxSpin bounds the visual rotation of a disc (rad/s).
	maxSpin = 60.0
)

// Physics holds the physical constants of a simulation. The zero value is
// not useful: start from [DefaultPhysics]. A scenario may override any of
// them under `physics:`.
type Physics struct {
	// Friction is the coefficient of sliding friction μ of a disc on a
	// powdered board: a sliding disc slows by μ·g. Iizawa (Nagare
	// Multimedia 1999, "Measurement of friction coefficient on a powder
	// layer") measured 0.07–0.14 for a disc on loose starch over plywood
	// and 0.11–0.20 on flour; 0.12 makes a man struck at 1 m/s slide
	// 0.42 m, at 1.5 m/s 0.96 m and at 2 m/s 1.70 m, as players expect.
	Friction float64
	// Restitution is the coefficient of restitution between two discs
	// (0.85: hard lacquered wood or plastic, 0.8–0.9).
	Restitution float64
	// CushionRestitution is the coefficient of restitution of a disc on
	// the rubber-lined wooden frame (0.7, 0.6–0.75).
	CushionRestitution float64
	// Spin scales the rotation a glancing contact gives a disc. The angle
	// is only drawn (the texture of a disc); it never changes the motion.
	Spin float64
	// MaxStep is the longest physics sub-step, seconds. Collision times
	// are solved exactly inside a step; the step only bounds how far the
	// root finder has to look.
	MaxStep float64
}

// DefaultPhysics returns the documented constants.
func DefaultPhysics() Physics {
	return Physics{Friction: 0.12, Restitution: 0.85, CushionRestitution: 0.7, Spin: 0.3, MaxStep: 0.002}
}

// Validate checks that the constants describe a dissipative board.
func (p Physics) Validate() error {
	var errs []error
	if !(p.Friction > 0 && p.Friction < 2) {
		errs = append(errs, fmt.Errorf("friction must lie in (0, 2), got %v", p.Friction))
	}
	if !(p.Restitution >= 0 && p.Restitution <= 1) {
		errs = append(errs, fmt.Errorf("restitution must lie in [0, 1], got %v", p.Restitution))
	}
	if !(p.CushionRestitution >= 0 && p.CushionRestitution <= 1) {
		errs = append(errs, fmt.Errorf("cushion_restitution must lie in [0, 1], got %v", p.CushionRestitution))
	}
	if !(p.Spin >= 0 && p.Spin <= 2) {
		errs = append(errs, fmt.Errorf("spin must lie in [0, 2], got %v", p.Spin))
	}
	if !(p.MaxStep > 0 && p.MaxStep <= 0.02) {
		errs = append(errs, fmt.Errorf("max_step must lie in (0, 0.02] s, got %v", p.MaxStep))
	}
	return errors.Join(errs...)
}

// Deceleration returns the friction deceleration in mm/s².
func (p Physics) Deceleration() float64 { return p.Friction * gravity }

// SlideDistance returns how far (mm) a disc launched at speed v (mm/s)
// slides on an open board.
func (p Physics) SlideDistance(v float64) float64 { return v * v / (2 * p.Deceleration()) }

// nDiscs is the number of discs; their indices follow board.PieceIDs.
const (
	nDiscs = 2*board.MenPerColour + 2
	idxQ   = nDiscs - 2
	idxS   = nDiscs - 1
)

// world is every disc's and hand's motion over the whole scenario.
type world struct {
	g     *board.Geometry
	phys  Physics
	decel float64
	ids   [nDiscs]string
	kinds [nDiscs]board.Kind
	rad   [nDiscs]float64
	mass  [nDiscs]float64
	// tracks hold each disc's trajectory; hands every hand that appears.
	tracks [nDiscs]track
	hands  []*handTrack
	// events in time order, Frame not yet set.
	events []events.Event
}

func newWorld(g *board.Geometry, phys Physics) *world {
	w := &world{g: g, phys: phys, decel: phys.Deceleration()}
	for i, id := range board.PieceIDs() {
		k, _ := board.KindOfID(id)
		w.ids[i], w.kinds[i] = id, k
		w.rad[i], w.mass[i] = g.Radius(k), g.Mass(k)
		w.tracks[i].push(segment{mode: segFixed, state: scene.Off})
	}
	return w
}

// index returns the disc index of an identity.
func index(id string) (int, bool) {
	for i, x := range board.PieceIDs() {
		if x == id {
			return i, true
		}
	}
	return 0, false
}

func (w *world) cur(i int) *segment { return w.tracks[i].cur() }

// discAt is disc i at time t.
func (w *world) discAt(i int, t float64) scene.Disc {
	d := w.tracks[i].at(t).disc(t, w.hands)
	d.ID, d.Kind = w.ids[i], w.kinds[i]
	return d
}

// angleAt is the current angle of disc i.
func (w *world) angleAt(i int, t float64) float64 { return w.cur(i).disc(t, w.hands).Angle }

// setFixed puts disc i at p in state st from time t.
func (w *world) setFixed(i int, t float64, p board.Vec, st scene.State) {
	w.tracks[i].push(segment{t0: t, mode: segFixed, state: st, p0: p, ang0: w.angleAt(i, t)})
}

// setSlide launches disc i from p with velocity v at time t; spin is its
// angular speed in rad/s.
func (w *world) setSlide(i int, t float64, p, v board.Vec, ang, omega float64) {
	sp := v.Len()
	if sp == 0 {
		w.tracks[i].push(segment{t0: t, mode: segFixed, state: scene.Rest, p0: p, ang0: ang})
		return
	}
	omega = math.Max(-maxSpin, math.Min(maxSpin, omega))
	w.tracks[i].push(segment{t0: t, mode: segSlide, state: scene.Moving, p0: p, v0: v, decel: w.decel, ang0: ang, spin: omega / sp})
}

func (w *world) emit(e events.Event) { w.events = append(w.events, e) }

// restingAt lists the discs at rest on the surface at t, in identity order.
func (w *world) restingAt(t float64) []events.PieceAt {
	var out []events.PieceAt
	for i := range nDiscs {
		d := w.discAt(i, t)
		if d.State == scene.Rest {
			out = append(out, events.PieceAt{Piece: w.kinds[i], ID: w.ids[i], MM: events.FromVec(d.Pos)})
		}
	}
	return out
}

// jumpSpec scripts a disc to jump off the board at its first contact in a
// stroke.
type jumpSpec struct {
	idx   int
	dir   board.Vec // zero: along the velocity the contact gives it
	speed float64   // mm/s; zero: its post-contact speed, at least minJumpSpeed
	done  bool
}

// strokeSpec is one strike.
type strokeSpec struct {
	side  board.Side
	t     float64 // the instant of the flick
	pos   board.Vec
	vel   board.Vec // mm/s
	jumps []jumpSpec
}

// pocketing is one disc falling into a pocket.
type pocketing struct {
	idx    int
	pocket board.Pocket
	t      float64
}

// strokeResult is what happened in a stroke.
type strokeResult struct {
	start, end   float64
	contacts     int
	firstContact string // the first disc the striker touched, or "frame"
	crossed      bool   // the striker crossed its front line
	pocketed     []pocketing
	overboard    []int
}

// candidate is the earliest thing found to happen in a sub-step.
type candidate struct {
	tau  float64
	prio float64 // among events at the same instant, the larger goes first
	kind int
	i, j int // discs; j is the wall (0..3) or pocket for those kinds
}

const (
	cNone = iota
	cPair
	cWall
	cPocket
	cFront
	cEdge
)

// stroke simulates one strike from spec.t until every disc is at rest (or
// pocketed, or gone overboard), recording every event exactly. Each
// sub-step has four phases: the discs' kinematics and the longest step
// ([strokeRun.kinematics]), the earliest thing to happen within it
// ([strokeRun.earliest]), that thing applied ([strokeRun.apply]), then the
// discs that came to rest and the contacts that parted ([strokeRun.settle]).
func (w *world) stroke(spec strokeSpec) (strokeResult, error) {
	r := &strokeRun{w: w, g: w.g, spec: spec, res: strokeResult{start: spec.t}, now: spec.t, jumps: spec.jumps, half: w.g.Half()}
	w.setSlide(idxS, r.now, spec.pos, spec.vel, w.angleAt(idxS, r.now), 0)
	w.emit(events.Event{Type: events.StrokeStart, T: r.now, Side: events.SidePtr(spec.side), StrikerMM: events.MMPtr(spec.pos)})
	r.res.crossed = r.g.CrossedFrontLine(spec.side, spec.pos, w.rad[idxS])
	for {
		if r.now-spec.t > maxStrokeTime {
			return r.res, fmt.Errorf("stroke at t=%.3f did not settle within %.0f s", spec.t, maxStrokeTime)
		}
		h, moving := r.kinematics()
		if !moving {
			break
		}
		if best := r.earliest(h); best.kind != cNone && best.tau <= h {
			if err := r.apply(best); err != nil {
				return r.res, err
			}
		} else {
			r.now += h
			r.zeroRun = 0
		}
		r.settle()
	}
	r.res.end = r.now
	for _, jp := range r.jumps {
		if !jp.done {
			return r.res, fmt.Errorf("%s was scripted to jump but nothing touched it in the stroke at t=%.3f", w.ids[jp.idx], spec.t)
		}
	}
	w.emit(events.Event{Type: events.StrokeEnd, T: r.now, Pieces: w.restingAt(r.now)})
	return r.res, nil
}

// discPair is two discs, or a disc and a wall (j: 0..3).
type discPair struct{ i, j int }

// strokeRun is the state of one stroke being simulated.
type strokeRun struct {
	w     *world
	g     *board.Geometry
	spec  strokeSpec
	res   strokeResult
	now   float64
	jumps []jumpSpec
	half  float64
	// zeroRun counts the events in a row at one instant.
	zeroRun int
	// ks is every disc's kinematics at now.
	ks [nDiscs]kin
	// Contact bookkeeping: a pair that exchanged momentum stays "in
	// contact" (no new event) until its gap exceeds `separated`.
	inContact    [nDiscs][nDiscs]bool
	onCushion    [nDiscs][4]bool
	contactPairs []discPair
	cushionPairs []discPair
}

// kinematics reads every disc's motion at now and returns the longest
// step before a slide stops or a flight ends, and whether anything moves.
func (r *strokeRun) kinematics() (h float64, moving bool) {
	w := r.w
	h = w.phys.MaxStep
	for i := range nDiscs {
		s := w.cur(i)
		r.ks[i] = s.kinAt(r.now)
		switch {
		case s.mode == segSlide && r.ks[i].moving:
			moving = true
			h = math.Min(h, s.stopTime()-r.now)
		case s.mode == segFlight:
			moving = true
			h = math.Min(h, s.tEnd-r.now)
		}
	}
	return math.Max(h, 0), moving
}

// earliest finds the first thing to happen within h: two discs touching,
// a disc reaching a cushion, the board's edge or a pocket, the striker
// crossing its front line.
func (r *strokeRun) earliest(h float64) candidate {
	w, g, ks := r.w, r.g, &r.ks
	best := candidate{tau: math.Inf(1)}
	consider := func(c candidate) {
		if c.tau < best.tau || (c.tau == best.tau && c.prio > best.prio) {
			best = c
		}
	}
	for i := range nDiscs {
		ki := &ks[i]
		if !ki.collide {
			continue
		}
		for j := i + 1; j < nDiscs; j++ {
			kj := &ks[j]
			if !kj.collide || (!ki.moving && !kj.moving) {
				continue
			}
			d0 := kj.p.Sub(ki.p)
			wv := kj.v.Sub(ki.v)
			c := kj.a.Sub(ki.a)
			tau, ok := firstEntry(d0, wv, c, w.rad[i]+w.rad[j], h, false)
			if ok {
				consider(candidate{tau: tau, prio: -d0.Dot(wv) / d0.Len(), kind: cPair, i: i, j: j})
			}
		}
	}
	for i := range nDiscs {
		ki := &ks[i]
		s := w.cur(i)
		if s.mode == segFlight {
			if s.state == scene.Moving {
				for wall := range 4 {
					x, v := axis(ki.p, ki.v, wall)
					if tau, ok := firstCross(x, v, 0, r.half, h); ok {
						consider(candidate{tau: tau, kind: cEdge, i: i, j: wall})
					}
				}
			}
			continue
		}
		if !ki.moving {
			continue
		}
		rad := w.rad[i]
		for wall := range 4 {
			x, v := axis(ki.p, ki.v, wall)
			_, a := axis(ki.p, ki.a, wall)
			if tau, ok := firstCross(x, v, a, r.half-rad, h); ok {
				consider(candidate{tau: tau, prio: v, kind: cWall, i: i, j: wall})
			}
		}
		reach := ki.v.Len()*h + 0.5*ki.a.Len()*h*h
		for _, pk := range board.Pockets {
			pc := g.Pocket(pk)
			d0 := ki.p.Sub(pc.C)
			if d0.Len()-pc.R > reach {
				continue
			}
			if tau, ok := firstEntry(d0, ki.v, ki.a, pc.R, h, true); ok {
				consider(candidate{tau: tau, kind: cPocket, i: i, j: int(pk)})
			}
		}
		if i == idxS && !r.res.crossed {
			// Local y decreases toward the centre; the striker has
			// crossed once y+r < FrontInner.
			y := -board.ToLocal(r.spec.side, ki.p).Y
			vy := -board.ToLocal(r.spec.side, ki.v).Y
			ay := -board.ToLocal(r.spec.side, ki.a).Y
			if tau, ok := firstCross(y, vy, ay, rad-g.FrontInner(), h); ok {
				consider(candidate{tau: tau, kind: cFront, i: i})
			}
		}
	}
	return best
}

// apply moves the time to best and applies it.
func (r *strokeRun) apply(best candidate) error {
	if best.tau == 0 {
		r.zeroRun++
		if r.zeroRun > zeroTimeHard {
			return fmt.Errorf("stroke at t=%.3f: %d collisions at one instant (t=%.6f) did not resolve", r.spec.t, r.zeroRun, r.now)
		}
	} else {
		r.zeroRun = 0
	}
	r.now += best.tau
	switch best.kind {
	case cPair:
		r.discsMeet(best.i, best.j)
	case cWall:
		r.cushion(best.i, best.j)
	case cPocket:
		r.pocket(best.i, board.Pocket(best.j))
	case cFront:
		r.res.crossed = true
		r.w.emit(events.Event{Type: events.FrontLineCrossed, T: r.now, Side: events.SidePtr(r.spec.side)})
	case cEdge:
		r.overboard(best.i)
	}
	return nil
}

// discsMeet collides discs i and j, sets off the jumps they trigger and
// records a new contact.
func (r *strokeRun) discsMeet(i, j int) {
	w, now := r.w, r.now
	var at [2]board.Vec
	at[0], at[1] = w.cur(i).kinAt(now).p, w.cur(j).kinAt(now).p
	w.collide(i, j, now, r.zeroRun > zeroTimeSoft)
	for k := range r.jumps {
		if jp := &r.jumps[k]; !jp.done && (jp.idx == i || jp.idx == j) {
			jp.done = true
			w.jump(jp, now)
		}
	}
	if r.inContact[i][j] {
		return
	}
	r.inContact[i][j] = true
	r.contactPairs = append(r.contactPairs, discPair{i, j})
	r.res.contacts++
	a, b := i, j
	pa, pb := at[0], at[1]
	if b == idxS || (a != idxS && r.ks[j].v.Len() > r.ks[i].v.Len()) {
		a, b, pa, pb = b, a, pb, pa
	}
	if a == idxS && r.res.firstContact == "" {
		r.res.firstContact = w.ids[b]
	}
	w.emit(events.Event{Type: events.Contact, T: now, A: w.ids[a], B: w.ids[b], AMM: events.MMPtr(pa), BMM: events.MMPtr(pb)})
}

// cushion bounces disc i off wall and records a new contact with the frame.
func (r *strokeRun) cushion(i, wall int) {
	w, now := r.w, r.now
	k := w.cur(i).kinAt(now)
	_, v := axis(k.p, k.v, wall)
	nv := k.v
	// Reflect the normal component with the cushion's restitution.
	e := w.phys.CushionRestitution
	if v < slowContact {
		e *= v / slowContact
	}
	if r.zeroRun > zeroTimeSoft {
		e = 0
	}
	if wall < 2 {
		nv.X = -e * k.v.X
	} else {
		nv.Y = -e * k.v.Y
	}
	ang := w.angleAt(i, now)
	w.setSlide(i, now, k.p, nv, ang, w.cur(i).spin*k.v.Len())
	if r.onCushion[i][wall] {
		return
	}
	r.onCushion[i][wall] = true
	r.cushionPairs = append(r.cushionPairs, discPair{i, wall})
	r.res.contacts++
	if i == idxS && r.res.firstContact == "" {
		r.res.firstContact = events.Frame
	}
	touch := k.p.Add(wallNormal(wall).Scale(w.rad[i]))
	w.emit(events.Event{Type: events.Contact, T: now, A: w.ids[i], B: events.Frame, AMM: events.MMPtr(k.p), BMM: events.MMPtr(touch)})
}

// pocket drops disc i into pocket pk.
func (r *strokeRun) pocket(i int, pk board.Pocket) {
	w, now := r.w, r.now
	ang := w.angleAt(i, now)
	w.tracks[i].push(segment{t0: now, mode: segFixed, state: scene.Pocketed, p0: r.g.Pocket(pk).C, ang0: ang, pocket: pk, hasPocket: true})
	r.res.pocketed = append(r.res.pocketed, pocketing{idx: i, pocket: pk, t: now})
	w.emit(events.Event{Type: events.Pocketed, T: now, Piece: events.KindPtr(w.kinds[i]), ID: w.ids[i], Pocket: events.PocketPtr(pk)})
}

// overboard sends disc i, in flight, over the board's edge.
func (r *strokeRun) overboard(i int) {
	w, now := r.w, r.now
	s := *w.cur(i)
	tau := now - s.t0
	p := s.p0.Add(s.v0.Scale(tau))
	s2 := s
	s2.t0, s2.p0, s2.state = now, p, scene.Overboard
	s2.z0 = s.z0 + s.vz*tau - 0.5*gravity*tau*tau
	s2.vz = s.vz - gravity*tau
	s2.ang0 = s.ang0 + s.spin*tau
	w.tracks[i].push(s2)
	r.res.overboard = append(r.res.overboard, i)
	w.emit(events.Event{Type: events.Overboard, T: now, Piece: events.KindPtr(w.kinds[i]), ID: w.ids[i], MM: events.MMPtr(p)})
}

// settle brings the discs whose slide or flight ended to rest (or lands
// them) and frees the pairs that parted to make a new contact.
func (r *strokeRun) settle() {
	w, now := r.w, r.now
	for i := range nDiscs {
		s := w.cur(i)
		switch {
		case s.mode == segSlide && s.v0 != (board.Vec{}) && s.stopTime() <= now+1e-12:
			d := s.disc(s.stopTime(), nil)
			w.tracks[i].push(segment{t0: now, mode: segFixed, state: scene.Rest, p0: d.Pos, ang0: d.Angle})
		case s.mode == segFlight && s.tEnd <= now+1e-12:
			d := s.disc(s.tEnd, nil)
			w.tracks[i].push(segment{t0: now, mode: segFixed, state: scene.Overboard, p0: d.Pos, ang0: d.Angle})
		}
	}
	keep := r.contactPairs[:0]
	for _, p := range r.contactPairs {
		a, b := w.cur(p.i), w.cur(p.j)
		ka, kb := a.kinAt(now), b.kinAt(now)
		if ka.collide && kb.collide && ka.p.Dist(kb.p)-w.rad[p.i]-w.rad[p.j] <= separated {
			keep = append(keep, p)
		} else {
			r.inContact[p.i][p.j] = false
		}
	}
	r.contactPairs = keep
	keepC := r.cushionPairs[:0]
	for _, p := range r.cushionPairs {
		k := w.cur(p.i).kinAt(now)
		x, _ := axis(k.p, k.v, p.j)
		if k.collide && r.half-w.rad[p.i]-x <= separated {
			keepC = append(keepC, p)
		} else {
			r.onCushion[p.i][p.j] = false
		}
	}
	r.cushionPairs = keepC
}

// collide resolves the collision of touching discs i and j at time t.
func (w *world) collide(i, j int, t float64, inelastic bool) {
	ki, kj := w.cur(i).kinAt(t), w.cur(j).kinAt(t)
	n := kj.p.Sub(ki.p).Unit()
	vrel := ki.v.Sub(kj.v)
	vn := vrel.Dot(n) // closing speed
	if vn <= 0 {
		return
	}
	e := w.phys.Restitution
	if vn < slowContact {
		e *= vn / slowContact
	}
	if inelastic {
		e = 0
	}
	mi, mj := w.mass[i], w.mass[j]
	J := (1 + e) * vn / (1/mi + 1/mj)
	vi := ki.v.Sub(n.Scale(J / mi))
	vj := kj.v.Add(n.Scale(J / mj))
	// A glancing contact turns the discs (drawn only).
	tang := board.V(-n.Y, n.X)
	vt := vrel.Dot(tang)
	oi := w.cur(i).spin*ki.v.Len() - w.phys.Spin*vt/w.rad[i]
	oj := w.cur(j).spin*kj.v.Len() - w.phys.Spin*vt/w.rad[j]
	w.setSlide(i, t, ki.p, vi, w.angleAt(i, t), oi)
	w.setSlide(j, t, kj.p, vj, w.angleAt(j, t), oj)
}

// jump turns disc jp.idx, just struck, into a scripted jump that carries it
// over the frame and off the board.
func (w *world) jump(jp *jumpSpec, t float64) {
	i := jp.idx
	k := w.cur(i).kinAt(t)
	dir := jp.dir
	if dir == (board.Vec{}) {
		dir = k.v.Unit()
	}
	if dir == (board.Vec{}) {
		dir = k.p.Unit()
	}
	if dir == (board.Vec{}) {
		dir = board.V(0, 1)
	}
	speed := jp.speed
	if speed <= 0 {
		speed = math.Max(k.v.Len(), minJumpSpeed)
	}
	// Time to pass the frame's outer edge, where it drops below the board.
	out := w.g.Half() + w.g.FrameWidth + w.rad[i]
	T := math.Inf(1)
	for wall := range 4 {
		x, v := axis(k.p, dir.Scale(speed), wall)
		if v > 0 {
			T = math.Min(T, (out-x)/v)
		}
	}
	w.tracks[i].push(segment{t0: t, mode: segFlight, state: scene.Moving, p0: k.p, v0: dir.Scale(speed),
		z0: 0, vz: 0.5 * gravity * T, tEnd: t + T, ang0: w.angleAt(i, t), spin: 8})
}

// axis projects a point and a vector on the outward normal of wall 0..3
// (+x, −x, +y, −y).
func axis(p, v board.Vec, wall int) (float64, float64) {
	switch wall {
	case 0:
		return p.X, v.X
	case 1:
		return -p.X, -v.X
	case 2:
		return p.Y, v.Y
	}
	return -p.Y, -v.Y
}

// wallNormal is the outward normal of wall 0..3.
func wallNormal(wall int) board.Vec {
	switch wall {
	case 0:
		return board.V(1, 0)
	case 1:
		return board.V(-1, 0)
	case 2:
		return board.V(0, 1)
	}
	return board.V(0, -1)
}

// firstCross returns the first τ in [0, h] at which x0 + v·τ + a·τ²/2
// reaches L from below. A coordinate already at L counts only when it is
// still moving outward.
func firstCross(x0, v, a, L, h float64) (float64, bool) {
	C := x0 - L
	if C >= -1e-9 {
		if v > approachTol {
			return 0, true
		}
		return 0, false
	}
	A, B := 0.5*a, v
	var tau float64
	if A == 0 {
		if B <= 0 {
			return 0, false
		}
		tau = -C / B
	} else {
		disc := B*B - 4*A*C
		if disc < 0 {
			return 0, false
		}
		sq := math.Sqrt(disc)
		q := -0.5 * (B + math.Copysign(sq, B))
		tau = math.Inf(1)
		for _, r := range [2]float64{q / A, C / q} {
			if r >= 0 && r < tau && !math.IsNaN(r) {
				tau = r
			}
		}
	}
	if tau > h || math.IsInf(tau, 0) {
		return 0, false
	}
	return tau, true
}

// firstEntry returns the first τ in [0, h] at which the distance
// |d0 + w·τ + c·τ²/2| falls to R: when two discs (R the sum of radii) come
// into contact, or a disc's centre enters a pocket (R the pocket radius).
// The result is exact to 1e-13 s; upper picks the side of the root inside
// R (a pocket), otherwise the side outside it (discs must not overlap).
// A distance already within R counts only while it is still shrinking.
func firstEntry(d0, w, c board.Vec, R, h float64, upper bool) (float64, bool) {
	dist := func(t float64) board.Vec { return d0.Add(w.Scale(t)).Add(c.Scale(0.5 * t * t)) }
	f := func(t float64) float64 { d := dist(t); return d.Dot(d) - R*R }
	f0 := f(0)
	if f0 <= 0 {
		if upper {
			return 0, true
		}
		l := d0.Len()
		if l > 0 && d0.Dot(w)/l < -approachTol {
			return 0, true
		}
		return 0, false
	}
	if d0.Len()-R > w.Len()*h+0.5*c.Len()*h*h {
		return 0, false
	}
	// The minimum of f over [0, h]: start from the straight-line estimate
	// and polish with Newton's method on f'.
	tm := h
	if ww := w.Dot(w); ww > 0 {
		tm = math.Max(0, math.Min(h, -d0.Dot(w)/ww))
	}
	for range 4 {
		d := dist(tm)
		dv := w.Add(c.Scale(tm))
		g1 := d.Dot(dv)
		g2 := dv.Dot(dv) + d.Dot(c)
		if g2 <= 0 {
			break
		}
		tm = math.Max(0, math.Min(h, tm-g1/g2))
	}
	var hi float64
	switch {
	case f(tm) <= 0:
		hi = tm
	case f(h) <= 0:
		hi = h
	default:
		return 0, false
	}
	// f(lo) > 0 ≥ f(hi): Illinois false position, safe-guarded by bisection.
	lo, flo, fhi := 0.0, f0, f(hi)
	side := 0
	for it := 0; it < 200 && hi-lo > 1e-13; it++ {
		m := lo + (hi-lo)*flo/(flo-fhi)
		if !(m > lo && m < hi) || it%8 == 7 {
			m = 0.5 * (lo + hi)
		}
		fm := f(m)
		if fm > 0 {
			lo, flo = m, fm
			if side == -1 {
				fhi /= 2
			}
			side = -1
		} else {
			hi, fhi = m, fm
			if side == 1 {
				flo /= 2
			}
			side = 1
		}
	}
	if upper {
		return hi, true
	}
	// A grazing touch (no closing speed where the paths meet) is a miss:
	// the overlap it leaves is far below a micrometre.
	if d, dv := dist(hi), w.Add(c.Scale(hi)); d.Dot(dv) >= -approachTol*d.Len() {
		return 0, false
	}
	return lo, true
}
