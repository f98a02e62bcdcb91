package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
)

// Options tune a run.
type Options struct {
	// Seed, when non-nil, replaces the scenario's seed.
	Seed *uint64
	// FPS, when positive, replaces the scenario's frame rate.
	FPS int
	// Policy replaces the default turn policy ([NewSimplePolicy]).
	Policy TurnPolicy
	// Progress, when set, is called after every stroke.
	Progress func(Progress)
	// ArmFoul, when set, judges whether the striking hand h lies over a
	// foul line of side s at the flick (the arm_over_foul_line event and
	// the scenario's demand for one). Nil: the simulator's own hand model,
	// two capsules. A renderer passes the outline it draws (the corpus:
	// render.BeyondFoulLine), so that the truth says what the picture shows.
	ArmFoul func(s board.Side, h scene.Hand) bool
}

// Progress reports a long run's advance.
type Progress struct {
	Strokes int     // strokes played so far
	Board   int     // the board in play
	T       float64 // simulated seconds so far
}

// RunFile loads and runs a scenario file.
func RunFile(path string, opt Options) (*Trace, error) {
	sc, err := Load(path)
	if err != nil {
		return nil, err
	}
	return Run(sc, opt)
}

// Run plays a scenario and returns its trace. Errors name the scenario
// file and the line of the action at fault.
func Run(sc *Scenario, opt Options) (*Trace, error) { return run(sc, opt, 0) }

type runner struct {
	sc      *Scenario
	file    string
	w       *world
	rng     *rand.Rand
	t       float64
	policy  TurnPolicy
	jumps   []JumpAction
	pending []Return
	strokes []Stroke
	boards  []BoardResult
	notes   []string
	boardNo int
	// boardStrokes counts the strokes of the board in play.
	boardStrokes int
	breaker      board.Side
	progress     func(Progress)
	armFoul      func(board.Side, scene.Hand) bool
}

func run(sc *Scenario, opt Options, depth int) (*Trace, error) {
	seed := sc.Seed
	if opt.Seed != nil {
		seed = *opt.Seed
	}
	fps := sc.FPS
	if opt.FPS > 0 {
		fps = opt.FPS
	}
	file := sc.Path
	if file == "" {
		file = "scenario"
	}
	r := &runner{
		sc:       sc,
		file:     file,
		w:        newWorld(sc.Geometry, sc.Physics),
		rng:      rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		policy:   opt.Policy,
		boardNo:  1,
		breaker:  sc.Breaker,
		progress: opt.Progress,
		armFoul:  opt.ArmFoul,
	}
	if r.armFoul == nil {
		r.armFoul = armCrossesFoulLine
	}
	if r.policy == nil {
		r.policy = NewSimplePolicy(sc.Players)
	}
	if err := r.arrange(depth); err != nil {
		return nil, fmt.Errorf("sim: %s:%d:%d: arrangement: %w", file, sc.Arrangement.Line, sc.Arrangement.Col, err)
	}
	r.policy.NewBoard(sc.Breaker, r.discs(0))
	for i, a := range sc.Timeline {
		if err := r.do(a); err != nil {
			return nil, fmt.Errorf("sim: %s:%d:%d: timeline[%d].%s: %w", file, a.Line, a.Col, i, a.Kind, err)
		}
	}
	r.t += 0.5
	tr := &Trace{Name: sc.Name, FPS: fps, Seed: seed, Duration: r.t, Geometry: sc.Geometry, Physics: sc.Physics,
		Strokes: r.strokes, Boards: r.boards, Notes: r.notes, Scenario: sc, w: r.w}
	evs := append([]events.Event(nil), r.w.events...)
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].T < evs[j].T })
	for i := range evs {
		evs[i].Frame = FrameOf(evs[i].T, fps)
	}
	tr.Events = evs
	for i := range tr.Strokes {
		tr.Strokes[i].StartFrame = FrameOf(tr.Strokes[i].Start, fps)
		tr.Strokes[i].EndFrame = FrameOf(tr.Strokes[i].End, fps)
	}
	return tr, nil
}

// discs is every disc at time t.
func (r *runner) discs(t float64) []scene.Disc {
	out := make([]scene.Disc, nDiscs)
	for i := range nDiscs {
		out[i] = r.w.discAt(i, t)
	}
	return out
}

// pause is the short, varying gap between two actions.
func (r *runner) pause() float64 { return 0.35 + 0.4*r.rng.Float64() }

func (r *runner) arrange(depth int) error {
	g := r.w.g
	a := r.sc.Arrangement
	switch a.Kind {
	case ArrangeOpening:
		for _, pp := range Opening(g, r.sc.Breaker) {
			i, _ := index(pp.ID)
			r.w.setFixed(i, 0, pp.Pos, scene.Rest)
		}
	case ArrangePositions:
		for k, pp := range a.Positions {
			i, _ := index(pp.ID)
			rad := r.w.rad[i]
			if math.Abs(pp.Pos.X) > g.Half()-rad || math.Abs(pp.Pos.Y) > g.Half()-rad {
				return fmt.Errorf("%s at %v does not lie on the playing surface (inside ±%.1f mm)", pp.ID, fmtVec(pp.Pos), g.Half()-rad)
			}
			if pk, in := g.PocketAt(pp.Pos); in {
				return fmt.Errorf("%s at %v lies in the mouth of pocket %s", pp.ID, fmtVec(pp.Pos), pk)
			}
			for _, q := range a.Positions[:k] {
				j, _ := index(q.ID)
				if pp.Pos.Dist(q.Pos) < rad+r.w.rad[j]-1e-6 {
					return fmt.Errorf("%s at %v overlaps %s at %v", pp.ID, fmtVec(pp.Pos), q.ID, fmtVec(q.Pos))
				}
			}
			r.w.setFixed(i, 0, pp.Pos, scene.Rest)
		}
		for _, id := range a.Pocketed {
			i, _ := index(id)
			r.w.setFixed(i, 0, board.Vec{}, scene.Pocketed)
		}
	case ArrangeFrom:
		if depth > 8 {
			return fmt.Errorf("from: %s: scenarios refer to each other too deeply (a cycle?)", a.From)
		}
		prev, err := Load(a.From)
		if err != nil {
			return fmt.Errorf("from: %w", err)
		}
		tr, err := run(prev, Options{}, depth+1)
		if err != nil {
			return fmt.Errorf("from: %w", err)
		}
		for i, d := range tr.Final().Discs {
			switch d.State {
			case scene.Rest:
				r.w.setFixed(i, 0, d.Pos, scene.Rest)
			case scene.Pocketed:
				s := segment{mode: segFixed, state: scene.Pocketed, p0: d.Pos}
				if d.Pocket != nil {
					s.pocket, s.hasPocket = *d.Pocket, true
				}
				r.w.tracks[i].push(s)
			case scene.Overboard:
				r.w.setFixed(i, 0, d.Pos, scene.Overboard)
			}
		}
	}
	return nil
}

func fmtVec(v board.Vec) string { return fmt.Sprintf("[%.1f, %.1f]", v.X, v.Y) }

func (r *runner) do(a Action) error {
	switch a.Kind {
	case ActStrike:
		return r.scriptedStrike(a.Strike)
	case ActJump:
		r.jumps = append(r.jumps, *a.Jump)
		return nil
	case ActPlace:
		return r.place(a.Place)
	case ActReturnQueen:
		t := PlaceTarget{ID: "Q", At: a.ReturnQueen.At, Centre: true}
		return r.placeBy("umpire", []PlaceTarget{t})
	case ActHandOverPocket:
		return r.handOverPocket(a.HandOverPocket)
	case ActNudge:
		return r.nudge(a.Nudge)
	case ActWait:
		r.t += a.Wait
		return nil
	case ActAutoplay:
		return r.autoplay(a.Autoplay)
	}
	return fmt.Errorf("unknown action %q", a.Kind)
}

// shot is a strike ready to play.
type shot struct {
	side    board.Side
	pos     board.Vec
	dir     board.Vec // unit
	speed   float64   // mm/s
	aimTime float64
	armFoul bool
	noHand  bool // no hand in view at the flick (StrikeAction.NoHand)
	jumps   []JumpAction
	auto    bool
	plan    string
}

func (r *runner) scriptedStrike(s *StrikeAction) error {
	g := r.w.g
	side := r.policy.Turn()
	if s.Side != nil {
		side = *s.Side
	}
	var pos board.Vec
	switch s.At.Kind {
	case PlaceOffset:
		pos = board.FromLocal(side, board.V(s.At.Offset, g.BaseCircleY()))
	case PlaceCircle:
		pos = g.BaseCircles(side)[s.At.Circle].C
	case PlaceMM:
		pos = s.At.MM
	}
	rs := r.w.rad[idxS]
	target := func(id string) (scene.Disc, error) {
		i, _ := index(id)
		d := r.w.discAt(i, r.t)
		if !d.State.OnBoard() {
			return d, fmt.Errorf("cannot aim at %s: it is %s, not on the board", id, d.State)
		}
		return d, nil
	}
	var dir board.Vec
	switch s.Aim.Kind {
	case AimDegrees:
		rad := s.Aim.Degrees * math.Pi / 180
		dir = board.FromLocal(side, board.V(math.Sin(rad), -math.Cos(rad)))
	case AimAt:
		d, err := target(s.Aim.ID)
		if err != nil {
			return err
		}
		dir = d.Pos.Sub(pos).Unit()
	case AimToward:
		dir = g.Pocket(s.Aim.Pocket).C.Sub(pos).Unit()
	case AimPot:
		d, err := target(s.Aim.ID)
		if err != nil {
			return err
		}
		u := g.Pocket(s.Aim.Pocket).C.Sub(d.Pos).Unit()
		ghost := d.Pos.Sub(u.Scale(g.Radius(d.Kind) + rs))
		dir = ghost.Sub(pos).Unit()
	}
	if dir == (board.Vec{}) {
		return fmt.Errorf("the direction is undefined (the striker would stand on its target)")
	}
	jumps := append(r.jumps, s.Jump...)
	r.jumps = nil
	_, err := r.strike(shot{side: side, pos: pos, dir: dir, speed: s.Speed, aimTime: s.AimTime, armFoul: s.ArmOverFoulLine, noHand: s.NoHand, jumps: jumps})
	return err
}

// strike places the striker with the player's hand, aims, flicks and
// simulates the stroke; then it asks the turn policy for its ruling.
func (r *runner) strike(sh shot) (Decision, error) {
	w := r.w
	g := w.g
	rs := w.rad[idxS]
	if math.Abs(sh.pos.X) > g.Half()-rs || math.Abs(sh.pos.Y) > g.Half()-rs {
		return Decision{}, fmt.Errorf("the striker at %s does not lie on the playing surface", fmtVec(sh.pos))
	}
	if id, ok := w.blocker(idxS, sh.pos, r.t); ok {
		return Decision{}, fmt.Errorf("the striker at %s would overlap %s", fmtVec(sh.pos), id)
	}
	if pk, in := g.PocketAt(sh.pos); in {
		return Decision{}, fmt.Errorf("the striker at %s lies in pocket %s", fmtVec(sh.pos), pk)
	}
	var js []jumpSpec
	for _, j := range sh.jumps {
		i, _ := index(j.ID)
		if !w.onBoard(i, r.t) {
			return Decision{}, fmt.Errorf("%s cannot jump: it is not on the board", j.ID)
		}
		spec := jumpSpec{idx: i, speed: j.Speed}
		if j.Toward != nil {
			spec.dir = j.Toward.Normal()
		}
		js = append(js, spec)
	}
	tFlick, hand, err := r.strikeMotion(sh)
	if err != nil {
		return Decision{}, err
	}
	res, err := w.stroke(strokeSpec{side: sh.side, t: tFlick, pos: sh.pos, vel: sh.dir.Scale(sh.speed), jumps: js})
	if err != nil {
		return Decision{}, err
	}
	foul := !sh.noHand && r.armFoul(sh.side, w.hands[hand].hand(tFlick))
	if foul {
		w.emit(events.Event{Type: events.ArmOverFoulLine, T: tFlick, Side: events.SidePtr(sh.side)})
	}
	r.t = math.Max(res.end, w.hands[hand].end()) + r.pause()

	out := StrokeOutcome{Side: sh.side, Discs: r.discs(res.end)}
	st := Stroke{
		Number: len(r.strokes) + 1, Board: r.boardNo, Side: sh.side, Auto: sh.auto, Plan: sh.plan,
		Start: res.start, End: res.end, Striker: sh.pos, Placement: g.StrikerPlacement(sh.side, sh.pos, rs).Kind,
		Speed: sh.speed / 1000, Contacts: res.contacts, FirstContact: res.firstContact,
		CrossedFrontLine: res.crossed, ArmOverFoulLine: foul,
	}
	for _, p := range res.pocketed {
		pp := PocketedPiece{ID: w.ids[p.idx], Kind: w.kinds[p.idx], Pocket: p.pocket}
		out.Pocketed = append(out.Pocketed, pp)
		st.Pocketed = append(st.Pocketed, pp)
	}
	for _, i := range res.overboard {
		out.Overboard = append(out.Overboard, w.ids[i])
		st.Overboard = append(st.Overboard, w.ids[i])
	}
	dec := r.policy.Stroke(out)
	st.Notes = dec.Notes
	r.strokes = append(r.strokes, st)
	r.boardStrokes++
	for _, ret := range dec.Returns {
		dup := false
		for _, p := range r.pending {
			dup = dup || p.ID == ret.ID
		}
		if !dup {
			r.pending = append(r.pending, ret)
		}
	}
	if r.progress != nil {
		r.progress(Progress{Strokes: len(r.strokes), Board: r.boardNo, T: r.t})
	}
	return dec, nil
}

// strikeMotion scripts the player's hand: it takes the striker (from the
// board, or brings it in from the pocket's net), places it on the base line,
// moves behind it, aims with small hovering moves and flicks (or, with
// sh.noHand, leaves the picture before the flick). It returns the instant
// of the flick and the hand's index.
func (r *runner) strikeMotion(sh shot) (float64, int, error) {
	w := r.w
	g := w.g
	rs := w.rad[idxS]
	pl := w.newHand(sh.side.String(), sh.side, r.t, r.rng)
	local := board.ToLocal(sh.side, sh.pos)
	sign := 1.0
	if local.X < 0 {
		sign = -1
	}
	if sh.armFoul {
		// The elbow swings out sideways, over the foul line.
		pl.tr.shoulder = board.FromLocal(sh.side, board.V(sign*(g.Half()+120), g.Half()+60))
	}
	st := w.discAt(idxS, r.t)
	if st.State.OnBoard() {
		pl.enter(st.Pos, "")
		pl.key(0.16, st.Pos, pl.dirTo(st.Pos), holdDepth, "S")
		w.tracks[idxS].push(segment{t0: pl.t, mode: segHeld, state: scene.Held, hand: pl.idx, ang0: st.Angle})
		pl.key(0.14, st.Pos, pl.dirTo(st.Pos), zAbove, "S")
		pl.key(pl.travel(st.Pos, sh.pos), sh.pos, pl.dirTo(sh.pos), zAbove, "S")
	} else {
		pl.enter(sh.pos, "S")
		w.tracks[idxS].push(segment{t0: pl.tr.start(), mode: segHeld, state: scene.Held, hand: pl.idx, ang0: st.Angle})
	}
	pl.key(0.2, sh.pos, pl.dirTo(sh.pos), holdDepth, "")
	w.tracks[idxS].push(segment{t0: pl.t, mode: segFixed, state: scene.Rest, p0: sh.pos, ang0: 2 * math.Pi * r.rng.Float64()})
	aim := sh.aimTime
	if aim <= 0 {
		aim = 0.7 + 0.6*r.rng.Float64()
	}
	if sh.noHand {
		// The hand lets go and leaves the picture; the flick comes a
		// moment after it is gone.
		pl.leave()
		return pl.t + aim, pl.idx, nil
	}

	// Behind the striker: the fingertip just behind its rim, the wrist
	// further back, bent toward the shoulder as far as needed to keep the
	// hand within the player's quarter.
	tip := sh.pos.Sub(sh.dir.Scale(rs + 3))
	var wd float64
	if sh.armFoul {
		d := board.FromLocal(sh.side, board.V(sign, 0.3))
		wd = math.Atan2(d.Y, d.X)
	} else {
		wd, _ = strikePose(pl.tr, sh.side, tip, sh.dir)
	}
	pl.key(0.35, tip, wd, zHover, "")
	n := 2 + r.rng.IntN(2)
	for range n {
		jit := board.V(3*r.rng.Float64()-1.5, 3*r.rng.Float64()-1.5)
		pl.key(aim/float64(n+1), tip.Add(jit), wd+0.1*r.rng.Float64()-0.05, zHover, "")
	}
	pl.key(aim/float64(n+1), tip, wd, holdDepth+1, "")
	tFlick := pl.t
	through := sh.pos.Add(sh.dir.Scale(6))
	pl.key(0.045, through, wd, holdDepth+1, "")
	pl.key(0.3, through, wd, zHover, "")
	pl.leave()
	if sh.armFoul && !r.armFoul(sh.side, pl.tr.hand(tFlick)) {
		return 0, 0, fmt.Errorf("arm_over_foul_line: from %s the arm cannot reach over the foul line", fmtVec(sh.pos))
	}
	return tFlick, pl.idx, nil
}

// place runs a scripted place action.
func (r *runner) place(pa *PlaceAction) error {
	by := pa.By
	if by == "" {
		by = r.policy.Turn().String()
	}
	return r.placeBy(by, pa.Pieces)
}

// placeBy has a hand (a side's player or the umpire) put discs on the board
// one by one, each brought in from outside, lowered and released; a placed
// event marks each release.
func (r *runner) placeBy(by string, items []PlaceTarget) error {
	w := r.w
	side := r.sc.Umpire
	if by != "umpire" {
		s, err := board.ParseSide(by)
		if err != nil {
			return err
		}
		side = s
	}
	for _, it := range items {
		i, _ := index(it.ID)
		if !w.offBoard(i, r.t) {
			d := w.discAt(i, r.t)
			return fmt.Errorf("%s is on the board at %s: only a piece off the board can be placed", it.ID, fmtVec(d.Pos))
		}
	}
	pl := w.newHand(by, side, r.t, r.rng)
	for _, it := range items {
		i, _ := index(it.ID)
		var target board.Vec
		switch {
		case it.At != nil:
			target = *it.At
			if !w.freeAt(i, target, pl.t) {
				if id, ok := w.blocker(i, target, pl.t); ok {
					return fmt.Errorf("%s cannot be placed at %s: it would overlap %s", it.ID, fmtVec(target), id)
				}
				return fmt.Errorf("%s cannot be placed at %s: off the surface or in a pocket", it.ID, fmtVec(target))
			}
		case it.Centre || by == "umpire" || it.ID == "Q":
			p, ok := w.centreSpot(i, pl.t, r.policy.Turn())
			if !ok {
				return fmt.Errorf("no room for %s near the centre circle", it.ID)
			}
			target = p
		default:
			p, ok := w.outerSpot(i, pl.t, r.rng)
			if !ok {
				return fmt.Errorf("no room for %s inside the outer circle", it.ID)
			}
			target = p
		}
		pl.enter(target, it.ID)
		entry := pl.tr.keys[len(pl.tr.keys)-2].t
		w.tracks[i].push(segment{t0: entry, mode: segHeld, state: scene.Held, hand: pl.idx, ang0: w.angleAt(i, r.t)})
		pl.key(0.25, target, pl.dirTo(target), holdDepth, "")
		w.tracks[i].push(segment{t0: pl.t, mode: segFixed, state: scene.Rest, p0: target, ang0: 2 * math.Pi * r.rng.Float64()})
		w.emit(events.Event{Type: events.Placed, T: pl.t, Piece: events.KindPtr(w.kinds[i]), ID: it.ID, MM: events.MMPtr(target)})
		pl.leave()
		// A scripted placement settles a pending return of the same piece.
		keep := r.pending[:0]
		for _, p := range r.pending {
			if p.ID != it.ID {
				keep = append(keep, p)
			}
		}
		r.pending = keep
	}
	r.t = pl.t + r.pause()
	return nil
}

// handOverPocket rests a hand over a pocket: the pieces near it are hidden
// from the camera, not touched.
func (r *runner) handOverPocket(h *HandOverPocketAction) error {
	w := r.w
	g := w.g
	side := [4]board.Side{board.S, board.E, board.N, board.W}[h.Pocket]
	if h.By != nil {
		side = *h.By
	}
	pl := w.newHand(side.String(), side, r.t, r.rng)
	// The hand lies along the pocket's diagonal, fingers reaching past the
	// mouth onto the frame's corner, palm over the pocket and the board in
	// front of it; the forearm bends away toward the owner's shoulder.
	pc := g.Pocket(h.Pocket).C
	inward := pc.Scale(-1).Unit()
	tip := pc.Sub(inward.Scale(20))
	dir := math.Atan2(inward.Y, inward.X)
	pl.enter(tip, "")
	pl.key(0.3, tip, dir, zHover, "")
	drift := board.V(2*r.rng.Float64()-1, 2*r.rng.Float64()-1)
	pl.key(h.Seconds, tip.Add(drift), dir+0.02, zHover, "")
	pl.leave()
	r.t = pl.t + r.pause()
	return nil
}

// nudge has a finger push a resting disc along the board (a foul the camera
// should see); a moved event marks the end of the push.
func (r *runner) nudge(nd *NudgeAction) error {
	w := r.w
	g := w.g
	i, _ := index(nd.ID)
	d := w.discAt(i, r.t)
	if d.State != scene.Rest {
		return fmt.Errorf("%s is %s: only a piece at rest on the board can be nudged", nd.ID, d.State)
	}
	side := r.policy.Turn()
	if nd.By != nil {
		side = *nd.By
	}
	rad := w.rad[i]
	p0, p1 := d.Pos, d.Pos.Add(nd.Move)
	if math.Abs(p1.X) > g.Half()-rad || math.Abs(p1.Y) > g.Half()-rad {
		return fmt.Errorf("nudging %s to %s would push it into the cushion", nd.ID, fmtVec(p1))
	}
	if pk, in := g.PocketAt(p1); in {
		return fmt.Errorf("nudging %s to %s would push it into pocket %s", nd.ID, fmtVec(p1), pk)
	}
	seg := board.Segment{A: p0, B: p1}
	for j := range nDiscs {
		o := w.discAt(j, r.t)
		if j != i && o.State.OnBoard() && seg.DistTo(o.Pos) < rad+w.rad[j] {
			return fmt.Errorf("nudging %s to %s would push %s too", nd.ID, fmtVec(p1), o.ID)
		}
	}
	dur := nd.Seconds
	if dur <= 0 {
		dur = 0.4
	}
	u := nd.Move.Unit()
	pl := w.newHand(side.String(), side, r.t, r.rng)
	tip0 := p0.Sub(u.Scale(rad + 2))
	pl.enter(tip0, "")
	dir := pl.dirTo(tip0)
	pl.key(0.2, tip0, dir, holdDepth, "")
	pl.last().linear = true
	tPush := pl.t
	pl.key(dur, tip0.Add(nd.Move), dir, holdDepth, "")
	w.tracks[i].push(segment{t0: tPush, mode: segPushed, state: scene.Moving, p0: p0, v0: nd.Move.Scale(1 / dur), tEnd: pl.t, ang0: d.Angle})
	w.tracks[i].push(segment{t0: pl.t, mode: segFixed, state: scene.Rest, p0: p1, ang0: d.Angle})
	w.emit(events.Event{Type: events.Moved, T: pl.t, Piece: events.KindPtr(w.kinds[i]), ID: nd.ID, MM: events.MMPtr(p1)})
	pl.leave()
	r.t = pl.t + r.pause()
	return nil
}

// doReturns puts back what the turn policy asked for, each hand placing its
// own pieces.
func (r *runner) doReturns() error {
	for len(r.pending) > 0 {
		by := r.pending[0].By
		var items []PlaceTarget
		var rest []Return
		for _, p := range r.pending {
			i, _ := index(p.ID)
			switch {
			case !r.w.offBoard(i, r.t):
				// Already back (placed by the script).
			case p.By == by:
				items = append(items, PlaceTarget{ID: p.ID, Centre: p.Centre})
			default:
				rest = append(rest, p)
			}
		}
		r.pending = rest
		if len(items) > 0 {
			if err := r.placeBy(by, items); err != nil {
				return err
			}
		}
	}
	return nil
}

// autoplay lets the automatic player strike until the action's limit.
func (r *runner) autoplay(a *AutoplayAction) error {
	pl := NewPlayer(r.w.g, r.w.phys, a.Skill, r.rng)
	pl.Avoid = func(s Shot) bool { return nominalArmFoul(r.w.g, s) }
	strokes, boards := 0, 0
	for a.Strokes == 0 || strokes < a.Strokes {
		if r.boardStrokes >= a.MaxStrokes {
			r.notes = append(r.notes, fmt.Sprintf("board %d stopped after %d strokes without a result (max_strokes)", r.boardNo, r.boardStrokes))
			if a.Boards == 0 || boards+1 >= a.Boards {
				break
			}
			boards++
			r.newBoard()
			continue
		}
		if err := r.doReturns(); err != nil {
			return err
		}
		side := r.policy.Turn()
		colour := r.policy.Colour(side)
		s, err := pl.Choose(r.discs(r.t), side, colour, r.policy.QueenAllowed(side), r.policy.Breaking())
		if err != nil {
			return fmt.Errorf("stroke %d: %w", len(r.strokes)+1, err)
		}
		dec, err := r.strike(shot{side: side, pos: s.Striker, dir: s.Dir, speed: s.Speed, auto: true, plan: s.Plan})
		if err != nil {
			return fmt.Errorf("stroke %d (%s): %w", len(r.strokes)+1, s.Plan, err)
		}
		strokes++
		if dec.BoardOver {
			r.boards = append(r.boards, BoardResult{Board: r.boardNo, Winner: dec.Winner, Reason: dec.Reason, Strokes: r.boardStrokes, End: r.t})
			boards++
			if a.Boards > 0 && boards < a.Boards {
				r.newBoard()
				continue
			}
			break
		}
	}
	return r.doReturns()
}

// newBoard sets the pieces out again for the next board: the break passes
// to the next player. The rearrangement is not animated: after a pause the
// nineteen pieces appear in the opening arrangement (a placed event each).
func (r *runner) newBoard() {
	w := r.w
	r.t += 2
	if r.sc.Players == 4 {
		r.breaker = r.breaker.Right()
	} else {
		r.breaker = r.breaker.Opposite()
	}
	r.pending = nil
	for _, pp := range Opening(w.g, r.breaker) {
		i, _ := index(pp.ID)
		w.setFixed(i, r.t, pp.Pos, scene.Rest)
		w.emit(events.Event{Type: events.Placed, T: r.t, Piece: events.KindPtr(w.kinds[i]), ID: pp.ID, MM: events.MMPtr(pp.Pos)})
	}
	w.setFixed(idxS, r.t, board.Vec{}, scene.Off)
	r.boardNo++
	r.boardStrokes = 0
	r.policy.NewBoard(r.breaker, r.discs(r.t))
	r.t += 1
}
