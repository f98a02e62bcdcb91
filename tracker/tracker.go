package tracker

import (
	"fmt"
	"math"
	"sort"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
)

// Tracker follows the twenty discs of one board through the frames of a
// video and turns what they do into physical events. Feed it every frame's
// detections in order with [Tracker.Update]. It is deterministic (the same
// frames give the same events) and not safe for concurrent use.
type Tracker struct {
	cfg Config
	g   *board.Geometry
	mot motion

	tracks [nTracks]track

	// frames
	frameClock
	uncal      bool    // the last frame was not calibrated
	shiftSince float64 // first frame of a run the camera seemed to have moved in (0: none)
	reanchor   float64 // until this time, resting discs follow a small shift silently (after recalibration)
	restFr     int     // frames in the rest window
	confirmFr  int
	pocketFr   int
	overFr     int

	// assignment
	assignment

	// stroke
	stroke     *strokeState
	strokeSeen bool        // a stroke has been seen since tracking began
	still      stillPos    // where the striker last stood still
	way        strikerWay  // the striker's sightings since (see knocked.go)
	flick2     flickWait   // the striker's slide seen twice, waiting for a third sighting (see lowfps.go)
	flickHand  flickHand   // the striker's slide seen twice with a hand moving along, then covered (see lowfps.go)
	flickOnce  flickOnce   // the striker seen once off its place, then covered (see lowfps.go)
	jump       strikerJump // where the striker lay before it was last taken up far from there (see lowfps.go)
	calStarted bool
	renumbered bool
	// breaker decides the numbering of the initial position.
	breaker board.Side

	// hands and arms over the board
	coverage

	// discs first seen moving in a stroke (see newcomer.go)
	newArr arrivals

	// the striker that struck, never seen at its place (see unplaced.go)
	unplaced unplacedNote

	// discs come to rest elsewhere with no stroke and no hand (see strokeless.go)
	strokeless strokelessLog

	// striker-class detections no disc explains, between strokes (see strikertrail.go)
	trails strikerTrails

	// output
	eventQueue
	pieces []Piece
}

// assignment is the state of matching each frame's detections to the
// twenty identities (one concern of the Tracker, embedded in it; see
// lifecycle.go and vacated.go): the buffers of the optimal assignment, the
// detections left unexplained, the gaps in the frames and the fixtures.
type assignment struct {
	asg      assigner
	dets     []sight.Detection
	detUsed  []int // detection -> track index, -1
	trkDet   [nTracks]int
	idxBuf   []int
	missT    []float64
	missD    []float64
	cands    []candidate
	movers   []int
	sortBuf  []int
	armCache armCache
	strays   []stray    // recent detections no disc explained (see vacated)
	gaps     gapLog     // the frames not analysed (see account.go)
	lostSaid lostSaid   // the discs lost from the board whose loss a stroke_end said (see account.go)
	fixtures fixtureMap // where detections no disc explains keep coming (see vacated.go)
}

// coverage is what the Tracker remembers of the hands and arms over the
// board (one concern, embedded in it): the current frame's occlusion, the
// last few frames', where the board was seen empty and where hands were.
type coverage struct {
	occ     sight.Occlusion
	pastOcc [4]pastOcc // the occlusion of the last analysed frames
	empty   emptyGrid
	hands   handGrid
	snaps   handSnaps // the hand mask about the striker seen moving (see handSnaps.stayed)
}

const nTracks = 2*board.MenPerColour + 2

// Indices of the queen and the striker in Tracker.tracks (board.PieceIDs order).
const (
	idxQ = nTracks - 2
	idxS = nTracks - 1
)

// track is one identity.
type track struct {
	id    string
	kind  board.Kind
	r     float64
	state State

	pos board.Vec // current estimate (see Piece.MM)
	vel board.Vec
	px  [2]float64

	seen          bool
	lastSeenT     float64
	lastSeenFrame int
	lastObs       obs
	// unseenSince is the time of the first frame, in plain view, in which
	// the disc was not detected (valid while misses > 0).
	unseenSince float64
	misses      int

	// At rest: the resting place (a running mean of the detections,
	// partial ones weighing a ninth), the weight it averages, since when
	// the disc rests, and
	// the detections beyond MoveMM seen in a row.
	restPos    board.Vec
	restW      float64
	restSince  float64
	restLastT  float64 // last detection at rest
	restKindT  float64 // last detection at rest of the disc's own class
	moveStreak int
	moveFirst  obs
	offObs     obs // the last detection at rest beyond MoveMM of the place, taken for noise (see offPlace)
	// anchor is where the disc lay at the end of the last stroke or
	// placement: a disc settling elsewhere outside a stroke was moved.
	anchor    board.Vec
	hasAnchor bool
	// said is where the events last put the disc (a stroke_end, placed or
	// moved event; valid with hasAnchor): the anchor follows a disc that
	// settles elsewhere with no hand near (a detector's shift, said to
	// no one), said does not, and a move is said only when it is away
	// from both (the referee measures it from said).
	said board.Vec

	// Motion: the detections since the disc started moving (in a stroke:
	// since the stroke started) and the segments they form.
	hist []obs
	segs []seg
	// onsetPending: the disc went from rest to moving; the contact that
	// set it moving is still to be found. onsetFrom is the resting place,
	// onsetLo the last time it was seen there.
	onsetPending bool
	onsetFrom    board.Vec
	onsetLo      float64
	onsetSeg     int // index in segs of the first moving segment
	onsetT       float64
	onsetKnown   bool
	// moveStart indexes the first detection of the current motion in hist.
	moveStart int
	// fromRest: the current motion began at rest (onsetFrom is valid).
	fromRest bool
	// stopT is when the disc stopped, estimated from its last segment;
	// settledAt the frame time at which it was found at rest.
	stopT     float64
	settledAt float64
	// placedFlag: placed since the last stroke.
	placedFlag bool
	// placedSeq is the placed event held while the hand that put the
	// disc down is still at it (0: none): where the disc settles when
	// that hand lets go is where it was placed. placedT is its time.
	placedSeq int
	placedT   float64
	// touchSeq is a small moved event held while the hand beside the
	// disc is still there (0: none; see touch.go): touchFrom is where
	// the disc lay before, touchT the event's time, touchSum and touchN
	// the detections at rest since the hand left it.
	touchSeq  int
	touchT    float64
	touchFrom board.Vec
	touchSum  board.Vec
	touchN    int
	// placedWhole: the placed disc has been seen whole (no hand over it)
	// since it was placed. placedPrev and placedPrevPos are the state and
	// place it had before: a disc whose hand lets go and leaves nothing
	// where it was seen was never put down (a marking or the hand's edge
	// half under the hand, taken for a disc), and goes back to them.
	placedWhole   bool
	placedPrev    State
	placedPrevPos board.Vec
	// occMoving: the disc was moving when it went out of sight.
	occMoving bool
	// taken: the striker, occluded, whose place was then seen uncovered
	// without it: the hand took it away; where it is is not known.
	taken bool
	// unseenBefore is how long the disc had not been seen when its
	// current motion was taken up (relocate); motionT when the current
	// motion began (at the latest).
	unseenBefore float64
	motionT      float64
	// inStroke: the disc moved in the current stroke; onAtStart: it was
	// on the board when the stroke began.
	inStroke, onAtStart bool
	// beyond: the disc was seen with its centre past the cushion line,
	// in the air over the frame.
	beyond bool
	// displaced: at rest, not seen, and another disc was seen moving where
	// it lay (discs cannot overlap): it was struck away, too fast to be
	// seen. It is no longer looked for at its resting place.
	displaced bool
	// displacedBy is the disc seen on its place.
	displacedBy int
	// viewMisses: at rest, the frames it was not seen since last seen
	// with its place in plain view (no hand over any of it to speak of);
	// coverMiss: missed once with its place partly covered.
	viewMisses int
	coverMiss  bool
	// provisional: taken up at once from the first frame in which the
	// board was found (see Tracker.instant), not yet seen in ConfirmTime's
	// worth of frames: missed before then, it was nothing (or a disc
	// moving, taken up again where it is), and the identity is withdrawn.
	// provHits counts its sightings.
	provisional bool
	provHits    int
	// strikerSince: a man or the queen at rest, seen at its place since
	// this time, whenever seen, as a whole disc the detector is sure is
	// the striker (0: not so seen). See strikerTakes.
	strikerSince float64

	pocket board.Pocket
	offT   float64 // when it left the board

	// lost: the current motion began, outside a stroke, with the disc
	// missing after it was lost from sight in plain view (lostInView; not
	// taken away by a hand that covered it, see unobserved): a moved
	// event it ends in is not sure.
	lost       lostPlace
	lostInView bool
	// vanishT: between strokes, when the disc went missing after it was
	// lost from sight in plain view (0: not so, or seen since): a stroke
	// that fell between two frames may have taken it (see vanish.go).
	vanishT float64
}

// lostPlace is where a disc was last seen (frame, p) before it went
// missing.
type lostPlace struct {
	frame int
	p     board.Vec
	ok    bool
}

// pastOcc is the occlusion of an analysed frame at time t.
type pastOcc struct {
	t   float64
	occ sight.Occlusion
}

// candidate is a detection not explained by any track, waiting to be
// confirmed as a new disc.
type candidate struct {
	p      board.Vec
	p0     board.Vec // the first sighting
	px     [2]float64
	votes  [4]float64 // class votes weighted by confidence
	sure   float64    // the best class score of a striker vote
	hits   int
	firstT float64
	lastT  float64
	last   int // frame of the last hit
	first  int
	used   bool
	// whole: seen at least once with no hand over it.
	whole bool
	// score is the least detection score of its sightings.
	score float64
}

// New returns a tracker for cfg (zero fields take their defaults).
func New(cfg Config) (*Tracker, error) {
	cfg.fill()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("tracker: config: %w", err)
	}
	tk := &Tracker{cfg: cfg, g: cfg.Geometry, mot: motion{decel: cfg.Deceleration}, breaker: cfg.Breaker}
	for i, id := range board.PieceIDs() {
		k, _ := board.KindOfID(id)
		tk.tracks[i] = track{id: id, kind: k, r: tk.g.Radius(k), state: Unseen, hist: make([]obs, 0, 256), segs: make([]seg, 0, 16)}
	}
	tk.times.init(2048)
	tk.armCache.init(tk.g)
	return tk, nil
}

// Config returns the configuration in force (with defaults filled in).
func (tk *Tracker) Config() Config { return tk.cfg }

// Update is what the tracker says after one frame.
type Update struct {
	// Events are the physical events released by this frame, in time
	// order. Each carries the frame index and time at which it happened,
	// which may be a few frames before this one: the tracker holds events
	// briefly (Config.EventDelay) to recognise them and to order them.
	Events []events.Event
	// Pieces are the twenty identities, in the order W1…W9, B1…B9, Q, S.
	Pieces []Piece
}

// InStroke reports whether a stroke is in progress.
func (tk *Tracker) InStroke() bool { return tk.stroke != nil }

// StrokeSide returns the side of the stroke in progress.
func (tk *Tracker) StrokeSide() (board.Side, bool) {
	if tk.stroke == nil || tk.stroke.unseen {
		return 0, false
	}
	return tk.stroke.side, true
}

// Recalibrated tells the tracker that the calibration changed before the
// next frame: for a short while, discs at rest that appear a few
// millimetres from where they lay follow the new positions silently
// instead of counting as moved.
func (tk *Tracker) Recalibrated() { tk.reanchor = math.Inf(1) }

// Update processes one frame. The returned slices are reused by the next
// call.
func (tk *Tracker) Update(f sight.Frame) Update {
	tk.out = tk.out[:0]
	if tk.started && f.T <= tk.t {
		// Out-of-order or repeated frame: ignore it, say nothing new.
		return Update{Pieces: tk.fillPieces()}
	}
	if tk.started {
		tk.dt = f.T - tk.t
	} else {
		tk.dt = 1.0 / 30
	}
	tk.gaps.now = nil
	if tk.started && (f.Index > tk.frame+1 || !f.Calibrated && tk.stroke != nil) {
		// Frames not analysed (dropped, or not related to the board):
		// harmless while all is at rest, a doubt in a stroke.
		from := tk.frame + 1
		if !f.Calibrated && f.Index <= from {
			from = f.Index
		}
		to := f.Index - 1
		if !f.Calibrated {
			to = f.Index
		}
		if to >= from {
			tk.gaps.note(from, to, tk.t, f.T, &tk.tracks)
			if f.Calibrated && !tk.uncal && tk.stroke == nil {
				tk.gaps.now = tk.gaps.last()
			}
		}
	}
	tk.t, tk.frame = f.T, f.Index
	tk.times.push(f.Index, f.T)
	tk.nFrames++
	tk.computeWindows()
	if !f.Calibrated {
		tk.uncal = true
		tk.started = true
		for i := range tk.tracks {
			tk.tracks[i].seen = false
		}
		tk.release(false)
		return Update{Events: tk.out, Pieces: tk.fillPieces()}
	}
	if tk.uncal {
		tk.uncal = false
		if math.IsInf(tk.reanchor, 1) {
			tk.reanchor = f.T + math.Max(0.5, 3*tk.cfg.RestTime)
		}
	}
	tk.started = true
	if !tk.calStarted {
		tk.calStarted = true
		tk.firstT = f.T
		tk.empty.init(tk.g)
		tk.hands.init(tk.g)
	}
	tk.occ = f.Occlusion
	tk.empty.update(tk.occ, f.T)
	tk.hands.update(tk.occ, f.T)
	tk.dets = append(tk.dets[:0], f.Detections...)
	if tk.shifted(tk.shiftSince > 0) && !(tk.shiftSince > 0 && f.T-tk.shiftSince > 1) {
		// The discs at rest all moved alike: the camera moved, not they.
		// The frame says nothing about the board until it is calibrated
		// again (or, after a second, the new view is taken as it is).
		if tk.shiftSince == 0 {
			tk.shiftSince = f.T
		}
		if f.T-tk.shiftSince > 1-1e-9 {
			tk.Recalibrated()
		}
		tk.uncal = true
		for i := range tk.tracks {
			tk.tracks[i].seen = false
		}
		tk.release(false)
		tk.occ = nil
		return Update{Events: tk.out, Pieces: tk.fillPieces()}
	}
	tk.shiftSince = 0
	tk.associate()
	if g := tk.gaps.now; g != nil && tk.stroke == nil && tk.calStarted && tk.t-tk.firstT > tk.cfg.InitTime && tk.gapAssociate(g) {
		tk.beginUnseen(g)
	}
	tk.vacated()
	tk.updateTracks()
	tk.births()
	tk.newcomers()
	tk.followTrails()
	tk.keepStrays()
	tk.fixtures.keep(tk.t, tk.dets, tk.detUsed, fixtureTol(&tk.cfg))
	tk.observeHand()
	if tk.stroke == nil {
		tk.idle()
	} else {
		tk.inStroke()
	}
	tk.touches()
	tk.sayStrokeless(false)
	if !tk.renumbered && !tk.strokeSeen && tk.t-tk.firstT >= tk.cfg.InitTime {
		tk.renumber()
	}
	tk.release(false)
	tk.pastOcc[tk.nFrames%len(tk.pastOcc)] = pastOcc{tk.t, tk.occ}
	tk.occ = nil
	return Update{Events: tk.out, Pieces: tk.fillPieces()}
}

// Flush ends the video: it releases every event still held. A stroke
// still in progress gets no stroke_end (nothing says it ended). Between
// strokes, a disc lost from plain view that no stroke_end has said yet is
// said now (see sayLostAtEnd).
func (tk *Tracker) Flush() []events.Event {
	tk.out = tk.out[:0]
	tk.endTrails()
	tk.sayStrokeless(true)
	tk.sayLostAtEnd()
	tk.release(true)
	return tk.out
}

// Pieces returns the current state of the twenty identities (reused by the
// next call).
func (tk *Tracker) Pieces() []Piece { return tk.fillPieces() }

func (tk *Tracker) fillPieces() []Piece {
	if tk.pieces == nil {
		tk.pieces = make([]Piece, nTracks)
	}
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		p := Piece{ID: tr.id, Kind: tr.kind, State: tr.state, MM: tr.pos, PX: tr.px, Vel: tr.vel, Seen: tr.seen}
		if tr.state == Pocketed {
			pk := tr.pocket
			p.Pocket = &pk
		}
		tk.pieces[i] = p
	}
	return tk.pieces
}

// computeWindows turns the configured times into frame counts for the
// current frame interval.
func (tk *Tracker) computeWindows() {
	fps := tk.times.fps()
	n := func(sec float64, least int) int { return max(least, int(math.Ceil(sec*fps-1e-9))) }
	tk.restFr = n(tk.cfg.RestTime, 3)
	tk.confirmFr = n(tk.cfg.ConfirmTime, 3)
	tk.pocketFr = n(tk.cfg.PocketTime, 2)
	tk.overFr = n(tk.cfg.OverboardTime, 3)
}

// sigma is the expected error of a detection of track tr.
func (tk *Tracker) sigma(d *sight.Detection, tr *track) float64 {
	s := tk.cfg.NoiseMM * (1 + tr.vel.Len()/2000)
	if d.Partial {
		s *= 3
	}
	return s
}

// predict returns where track tr should be now.
func (tk *Tracker) predict(tr *track) board.Vec {
	switch tr.state {
	case Moving:
		if len(tr.segs) == 0 {
			return tr.pos
		}
		s := &tr.segs[len(tr.segs)-1]
		if tr.misses == 0 || !s.known {
			if s.known {
				return tk.mot.at(s, tk.t)
			}
			if s.hit {
				return tr.lastObs.p // after a collision: anywhere around
			}
			return tr.lastObs.p.Add(s.v0.Scale(tk.t - tr.lastObs.t))
		}
		v := tk.mot.vel(s, tr.lastObs.t)
		return tk.mot.slide(tk.g, tk.mot.at(s, tr.lastObs.t), v, tr.r, tk.t-tr.lastObs.t).p
	case Rest, Placed:
		return tr.restPos
	}
	return tr.pos
}

// classCost is the cost of explaining detection d by a disc of kind k.
func classCost(d *sight.Detection, k board.Kind) float64 {
	if d.Kind == k {
		return 0
	}
	cs := d.ClassScore
	if cs <= 0 || cs > 1 {
		cs = 1
	}
	return 0.6 + 0.9*cs
}

// associate matches this frame's detections to the tracks in three
// passes of optimal assignment (Hungarian method) on gated costs: close to
// the prediction; then, for discs that may have been set moving (a
// stroke in progress, a disc moving nearby, a hand over them), anywhere
// they could have reached since last seen; then discs coming out from
// under a hand, lost ones and the striker brought back to the board.
func (tk *Tracker) associate() {
	nd := len(tk.dets)
	if cap(tk.detUsed) < nd {
		tk.detUsed = make([]int, nd)
	}
	tk.detUsed = tk.detUsed[:nd]
	for j := range tk.detUsed {
		tk.detUsed[j] = -1
	}
	for i := range tk.trkDet {
		tk.trkDet[i] = -1
	}
	// Detections whose centre lies well outside the surface and frame are
	// ignored (clutter beside the board).
	lim := tk.g.Half() + tk.g.FrameWidth
	for j := range tk.dets {
		p := tk.dets[j].MM
		if math.Abs(p.X) > lim || math.Abs(p.Y) > lim || math.IsNaN(p.X) || math.IsNaN(p.Y) {
			tk.detUsed[j] = -2
		}
	}

	tk.fixtures.mark(tk.dets, fixtureTol(&tk.cfg))
	tk.strikerTakes()

	// Pass 1: tight gates around the prediction.
	tk.pass(func(i int, tr *track) (board.Vec, float64, bool) {
		switch tr.state {
		case Rest, Placed:
			if tr.displaced || i == idxS && tk.flown() {
				return board.Vec{}, 0, false
			}
			if tk.t < tk.reanchor && tk.stroke == nil {
				return tr.restPos, 15, true // the view changed a little: see observe
			}
			// (As far as a detection that sets it moving at once: a
			// disc seen there is this disc, pushed.)
			return tr.restPos, math.Max(3*tk.cfg.MoveMM, 6*tk.cfg.NoiseMM), true
		case Moving:
			sp := tr.vel.Len()
			gap := tk.t - tr.lastObs.t
			g := 3 + 4*tk.cfg.NoiseMM + 0.25*sp*gap
			if len(tr.segs) > 0 && !tr.segs[len(tr.segs)-1].known {
				g = 3 + 4*tk.cfg.NoiseMM + 0.5*sp*gap
				if tr.segs[len(tr.segs)-1].hit {
					g = 3 + 4*tk.cfg.NoiseMM + 0.7*sp*gap
				}
			}
			return tk.predict(tr), g, true
		case Occluded:
			return tr.pos, 8 + 4*tk.cfg.NoiseMM, true
		}
		return board.Vec{}, 0, false
	}, 0, false)

	// Pass 2: wide gates, in rounds, for discs that may have been set
	// moving: moving discs that were not found where predicted, and
	// resting discs that something moving passed close to (or a hand).
	for round := 0; round < 4; round++ {
		tk.collectMovers()
		n := tk.pass(func(i int, tr *track) (board.Vec, float64, bool) {
			gap := tk.t - tr.lastSeenT
			reach := math.Min(tk.cfg.MaxSpeed*gap+10+4*tk.cfg.NoiseMM, 2*tk.g.Half())
			switch tr.state {
			case Moving:
				if tk.intoPocket(tr) {
					// Its slide took it into a pocket since it was seen:
					// a detection elsewhere is another disc.
					return board.Vec{}, 0, false
				}
				// Wherever its speed could have taken it since it was last
				// seen (in any direction: it may have struck something).
				if len(tr.segs) > 0 && tr.segs[len(tr.segs)-1].known {
					sp := math.Max(tr.vel.Len(), 300)
					reach = math.Min(reach, 1.3*sp*gap+15+4*tk.cfg.NoiseMM)
				}
				return tk.predict(tr), reach, true
			case Occluded:
				// A disc that slid under a hand may come out the other side.
				if tr.occMoving && gap < 1.5 && len(tr.segs) > 0 && tr.lastObs.t > 0 {
					p0, v0, tl := tk.lostStart(tr)
					return tk.mot.slide(tk.g, p0, v0, tr.r, tk.t-tl).p, reach, true
				}
			case Rest, Placed:
				if i == idxS && tk.stroke == nil && (tr.moveStreak > 0 || tk.hands.near(tr.restPos, tr.r+40, tk.t-0.3)) {
					// The striker, a hand at it, not found where it lay:
					// perhaps flicked, as fast as a flick goes (a far
					// detection is taken only on a confident class).
					return tr.restPos, reach, true
				}
				if ok, r := tk.wakeable(i); ok && !tr.displaced {
					return tr.restPos, math.Min(reach, r), true
				}
			}
			return board.Vec{}, 0, false
		}, 0.3, true)
		if n == 0 {
			break
		}
	}

	// Pass 3: discs coming out from under a hand, missing ones seen again,
	// and the striker wherever it reappears (a hand brings it back).
	tk.pass(func(i int, tr *track) (board.Vec, float64, bool) {
		if i == idxS && (tr.state != Moving && tr.state != Rest && tr.state != Placed || tk.flown()) {
			return tr.pos, 3 * tk.g.Half(), true // anywhere on the board (a confident striker only: see pass)
		}
		switch tr.state {
		case Occluded:
			// Moved under the hand: looked for around its place once the
			// place itself is uncovered (a disc put down beside a hidden
			// one must not take its identity).
			if tk.occ != nil && tk.occ.Hidden(tr.pos, tr.r) >= 0.1 {
				return board.Vec{}, 0, false
			}
			return tr.pos, 70 + 4*tk.cfg.NoiseMM, true
		case Missing:
			return tr.pos, 45 + 4*tk.cfg.NoiseMM, true
		}
		return board.Vec{}, 0, false
	}, 0, true)
}

// streakFrom reports whether detection d is a disc blurred by its motion
// that lies on the way on from p, where the disc was last seen moving
// with velocity v: ahead of it, close to the line of its motion. (A
// striker flicked between two frames is seen once near where it stood,
// slower than it is, then as streaks far beyond its prediction, each of
// an unsure class.)
func streakFrom(d *sight.Detection, p, v board.Vec) bool {
	if d.Blur.Len() == 0 || v.Len() == 0 {
		return false
	}
	u := v.Unit()
	rel := d.MM.Sub(p)
	return rel.Dot(u) > 0 && math.Abs(rel.Cross(u)) < 10+0.15*rel.Dot(u)
}

// streakLeaving reports whether detection d is a disc blurred by its
// motion that leaves the place of tr, a disc at rest or hidden under a
// hand (or seen moving once, which way not known yet): the line of the streak passes through that place,
// and the disc can have come that far since tr was last seen. (A striker
// flicked from under the fingers is first seen as streaks beyond the
// hand, of an unsure class: their size and colour tell little.)
func (tk *Tracker) streakLeaving(d *sight.Detection, tr *track) bool {
	p := tr.pos
	switch {
	case tr.state.atRest() || tr.state == Occluded:
	case tr.state == Moving && tr.vel.Len() == 0 && tr.misses <= 1:
		// (Or from where it was seen once, its way not known yet.)
		p = tr.lastObs.p
	default:
		return false
	}
	if d.Blur.Len() == 0 {
		return false
	}
	u := d.Blur.Unit()
	rel := d.MM.Sub(p)
	along := math.Abs(rel.Dot(u))
	if along <= tr.r || math.Abs(rel.Cross(u)) >= tr.r+0.1*along {
		return false
	}
	// Not farther than it can have come: a streak is as long as the
	// disc slid while the shutter was open, at most a frame's time, at
	// least (for a streak to be seen) half of it — its tail is at most
	// twice a streak's length per frame since it was seen from p.
	l := d.Blur.Len()
	frames := math.Max(1, math.Round((tk.t-tr.lastSeenT)/tk.dt))
	return along-l/2 <= 2*l*frames+tr.r
}

// pass runs one assignment pass over the tracks not yet matched and the
// detections not yet used. gate returns, for track i, the point to
// measure from, the gate radius and whether the track takes part. wake is
// added to the cost of a resting disc (it is less likely to have moved
// than a moving one to have turned). sameKind restricts pairs to
// detections of the track's kind or with a weak class score; with wake
// set, a lost moving disc may also be found near its last sighting. It returns
// the number of pairs made.
func (tk *Tracker) pass(gate func(i int, tr *track) (board.Vec, float64, bool), wake float64, sameKind bool) int {
	wideOnly := sameKind // the wide passes never take a fixture (see fixtures)
	rows := tk.idxBuf[:0]
	type rowInfo struct {
		c board.Vec
		g float64
	}
	var info [nTracks]rowInfo
	for i := range tk.tracks {
		if tk.trkDet[i] >= 0 {
			continue
		}
		c, g, ok := gate(i, &tk.tracks[i])
		if !ok {
			continue
		}
		info[len(rows)] = rowInfo{c, g}
		rows = append(rows, i)
	}
	tk.idxBuf = rows
	cols := tk.sortBuf[:0]
	for j := range tk.dets {
		if tk.detUsed[j] == -1 && !(wideOnly && tk.fixtures.on(j)) {
			cols = append(cols, j)
		}
	}
	tk.sortBuf = cols
	if len(rows) == 0 || len(cols) == 0 {
		return 0
	}
	tk.asg.reset(len(rows), len(cols))
	for a, i := range rows {
		tr := &tk.tracks[i]
		for b, j := range cols {
			d := &tk.dets[j]
			dist := d.MM.Dist(info[a].c)
			if wake > 0 && tr.state == Moving && tr.misses > 0 {
				// A lost disc may be found near its last sighting too
				// (the prediction may have it bouncing the wrong way).
				dist = math.Min(dist, d.MM.Dist(tr.lastObs.p)+0.5*(tk.t-tr.lastObs.t)*tr.vel.Len())
			}
			if dist > info[a].g || tk.fixtures.on(j) && tr.state == Moving && tr.misses > 0 {
				// (A disc lost from sight is not found on a fixture.)
				continue
			}
			if i != idxS && tr.state == Occluded && !tr.occMoving && d.Partial && d.MM.Dist(tr.pos) > 3*tk.cfg.MoveMM {
				// Half under a hand, away from where a hidden disc lies:
				// perhaps another disc in that hand. The hidden one is
				// taken up away from its place only when seen whole.
				continue
			}
			cc := classCost(d, tr.kind)
			striker := i == idxS || d.Kind == board.Striker
			if i == idxS && sameKind && dist > 3*tk.cfg.MoveMM && d.ClassScore < 0.6 &&
				!(tr.state == Moving && tr.misses == 0 && d.MM.Dist(tr.lastObs.p) < 3*tk.cfg.MoveMM+0.5*math.Max(tr.vel.Len(), 500)*(tk.t-tr.lastObs.t)) &&
				!(tr.state == Moving && streakFrom(d, tr.lastObs.p, tr.vel)) &&
				!tk.streakLeaving(d, tr) {
				// Taken up far from where it was: only on a confident class
				// (or close to its last sighting, moving: a striker in a
				// hand's fingers is often seen as no class at all; or a
				// streak on its way on, whatever size and colour the
				// detector gave it: a streak's size tells little, and a
				// red or pink striker streaks as the queen).
				continue
			}
			// A detection right where a disc in a steady slide must be is
			// that disc, whatever class the detector gave it.
			onPath := !sameKind && tr.state == Moving && tr.misses == 0 && len(tr.segs) > 0 &&
				tr.segs[len(tr.segs)-1].known && tr.segs[len(tr.segs)-1].n >= 2 && dist < 0.5*info[a].g
			// Likewise a detection exactly on the resting place of a disc
			// (discs cannot overlap): that disc, even called the striker.
			// (Or hidden there by a hand: a disc half under a hand is often
			// seen as another class, and only roughly where it is.)
			sd := tk.cfg.NoiseMM
			if d.Partial {
				sd *= 3
			}
			// (Not a detection the detector is sure is the striker while
			// the striker is in flight or out of sight under a hand: the
			// striker flying in lands where a man lay — the man was
			// struck away.)
			sk := tk.tracks[idxS].state
			onPath = onPath || !sameKind && (tr.state.atRest() || tr.state == Occluded && !tr.occMoving) && dist < 2*sd+1.5 &&
				!(i != idxS && sureStriker(d) && (sk == Moving || sk == Occluded))
			// A streak on the way on of the striker in flight is the
			// striker, whatever class the detector gave it (a streak's
			// size and colour tell little; a red or pink striker
			// streaks as the queen).
			onPath = onPath || i == idxS && tr.state == Moving && streakFrom(d, tr.lastObs.p, tr.vel)
			// And so is a streak leaving the place where the striker lay
			// still or hidden by the hand that flicked it.
			onPath = onPath || i == idxS && tk.streakLeaving(d, tr)
			// (A detection whose class the detector cannot tell at all
			// may be any disc.)
			clueless := d.ClassScore < 0.3
			// In flight, the striker close to where it must be, seen as
			// a class no disc on the board has (under strong glare a
			// white striker reads as the queen, and a striker that has
			// just struck a man is off its old line): the striker.
			clueless = clueless || !sameKind && i == idxS && tr.state == Moving && tk.stroke != nil && tr.misses <= 1 && !tk.kindOnBoard(d.Kind)
			if cc > 0 && !onPath && !clueless && (sameKind && (d.ClassScore >= 0.6 || striker) || !sameKind && striker && d.ClassScore >= 0.6) {
				// Beyond the first pass only an unsure class may differ
				// (never between the striker and a man); in the first, a
				// detection where a disc lies may be that disc seen as
				// another class — the striker, told apart by its size,
				// only when the detector is unsure.
				continue
			}
			if cc > 0 && !onPath && !sameKind && tk.stroke != nil && tr.state.atRest() && d.ClassScore >= 0.6 {
				// In a stroke, a detection of another class the detector
				// is sure of, near a disc at rest but not on its place, is
				// more likely another disc arriving there (the disc itself
				// perhaps struck away): the wider passes decide.
				continue
			}
			c := (dist/info[a].g)*(dist/info[a].g) + cc
			if tr.state.atRest() {
				c += wake
			}
			tk.asg.set(a, b, c)
		}
	}
	tk.missT = growF(tk.missT, len(rows), 1)
	tk.missD = growF(tk.missD, len(cols), 1)
	match := tk.asg.solve(tk.missT, tk.missD)
	n := 0
	for a, b := range match {
		if b < 0 {
			continue
		}
		i, j := rows[a], cols[b]
		tk.trkDet[i] = j
		tk.detUsed[j] = i
		n++
	}
	return n
}

// flown reports whether the striker, at rest in the tracker's books, was
// struck in the stroke in progress without being seen leaving (the stroke
// was traced back from the discs it set moving): it is not where it lay,
// and whatever is seen there (a printed circle the size of a disc, say) is
// something else, unless the detector is sure it is the striker — it is
// looked for anywhere, on a confident class.
func (tk *Tracker) flown() bool {
	s := &tk.tracks[idxS]
	return tk.stroke != nil && s.state.atRest() && s.restSince < tk.stroke.startT && !tk.strikerAtPlace()
}

// strikerAtPlace reports whether a detection the detector is sure is the
// striker lies at the striker's resting place.
func (tk *Tracker) strikerAtPlace() bool {
	s := &tk.tracks[idxS]
	for j := range tk.dets {
		d := &tk.dets[j]
		if d.Kind == board.Striker && d.ClassScore >= 0.6 && d.MM.Dist(s.restPos) < 3*tk.cfg.MoveMM {
			return true
		}
	}
	return false
}

// strikerTime is how long a man's resting place must be seen holding a
// disc the detector is sure is the striker before it is taken for the
// striker (see strikerTakes).
const strikerTime = 0.5

// sureStriker reports whether the detector is sure detection d is the
// striker (told from the men by its size): whole and a confident class.
func sureStriker(d *sight.Detection) bool {
	return d.Kind == board.Striker && d.ClassScore >= 0.9 && !d.Partial
}

// strikerTakes marks missing the men (and the queen) at rest whose
// resting place the striker holds: between strokes, the detector has
// been sure, whenever the disc there was seen for strikerTime, that it is
// the striker, and the striker has not been seen elsewhere meanwhile. A
// detection on a disc's resting place is that disc even when called the
// striker for a frame or two (see pass); one called the striker surely
// and for this long is the striker lying where the man was — the man was
// struck away unseen (a blow that sent it off the board at once, the
// striker taking its place), and is not there. The striker is then taken
// up there (pass 3 or a birth); the man, missing, by a disc of its colour
// seen again.
func (tk *Tracker) strikerTakes() {
	s := &tk.tracks[idxS]
	if tk.stroke != nil || s.seen {
		return
	}
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if i == idxS || !tr.state.atRest() || tr.strikerSince == 0 || tk.t-tr.strikerSince < strikerTime-1e-9 || s.lastSeenT >= tr.strikerSince {
			continue
		}
		for j := range tk.dets {
			d := &tk.dets[j]
			if sureStriker(d) && d.MM.Dist(tr.restPos) < 2*tk.cfg.NoiseMM+1.5 {
				// (Where it went is not known: no move by hand is
				// reported when it is seen again.)
				tr.state, tr.pos, tr.vel, tr.strikerSince, tr.hasAnchor = Missing, tr.restPos, board.Vec{}, 0, false
				if tr.misses == 0 {
					tr.misses, tr.unseenSince = 1, tk.t
				}
				break
			}
		}
	}
}

// kindOnBoard reports whether some disc of kind k is on the board or
// lost in plain view on it (not unseen since tracking began, pocketed or
// overboard).
func (tk *Tracker) kindOnBoard(k board.Kind) bool {
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if tr.kind == k && (tr.state.OnBoard() || tr.state == Missing) {
			return true
		}
	}
	return false
}

func growF(b []float64, n int, v float64) []float64 {
	if cap(b) < n {
		b = make([]float64, n)
	}
	b = b[:n]
	for i := range b {
		b[i] = v
	}
	return b
}

// intoPocket reports whether moving track tr's slide since its last
// sighting entered a pocket mouth (not under a hand) by now, straight (a
// cushion on the way makes the path uncertain) on a slide that is known:
// fitted to two detections or more, or the first sighting of a disc struck
// from rest (its way from its place is the line of centres; it went at
// least that fast).
func (tk *Tracker) intoPocket(tr *track) bool {
	if len(tr.segs) == 0 {
		return false
	}
	s := &tr.segs[len(tr.segs)-1]
	if s.hit || !(s.known && s.n >= 2 || s.n == 1 && tr.fromRest && s.first == tr.moveStart) {
		return false
	}
	p0, v0, tl := tk.lostStart(tr)
	if v0.Len() == 0 || tk.t <= tl {
		return false
	}
	path := tk.mot.slide(tk.g, p0, v0, tr.r, tk.t-tl)
	return path.pocketed && path.cushion == 0 && !tk.pocketHidden(path.pocket)
}

// collectMovers lists the tracks that are moving or that this frame's
// matches show moving: what can set a resting disc moving.
func (tk *Tracker) collectMovers() {
	tk.movers = tk.movers[:0]
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		switch {
		case tr.state == Moving:
			tk.movers = append(tk.movers, i)
		case tr.state.atRest() && tk.trkDet[i] >= 0 && tk.dets[tk.trkDet[i]].MM.Dist(tr.restPos) > tk.cfg.MoveMM:
			tk.movers = append(tk.movers, i)
		}
	}
}

// wakeable reports whether the resting track i may have been set moving
// since it was last seen — a hand is over it, or a moving disc passed
// near it — and how far it can have gone: a struck disc leaves at most
// about twice as fast as what struck it (1.85·m/(m+M) for a striker on a
// man) and a hand moves a disc slowly, and only a little without hiding
// it (a disc it picks up is covered first).
func (tk *Tracker) wakeable(i int) (bool, float64) {
	tr := &tk.tracks[i]
	gap := tk.t - tr.lastSeenT
	ok, reach := false, 0.0
	if tk.occ != nil && tk.occ.Hidden(tr.restPos, tr.r+40) > 0.02 {
		// A hand pushes a disc slowly, in sight (one it picks up is
		// covered first: occluded, and looked for when uncovered).
		// (Slowly: a disc seen at its place a frame ago and far from it
		// now was not pushed there; the detection is another disc, in
		// that hand.)
		ok, reach = true, math.Min(300*gap+3*tk.cfg.MoveMM, 3*tr.r+40)
	}
	for j := range tk.dets {
		// The striker, surely, seen where it lay (discs cannot overlap):
		// it was struck away, too fast to be seen leaving. (Only the
		// striker: the men of a pack scattering by the break pass over
		// each other's places, and are seen slowly enough.)
		d := &tk.dets[j]
		if tk.detUsed[j] == -2 || d.Kind != board.Striker || i == idxS || d.ClassScore < 0.6 || d.Partial || gap > 2.5*tk.dt {
			continue // (just now: long gone, it is anywhere)
		}
		if d.MM.Dist(tr.restPos) < tr.r+tk.g.Radius(d.Kind)-8 {
			ok = true
			reach = math.Max(reach, tk.cfg.MaxSpeed*gap+10)
		}
	}
	for _, j := range tk.movers {
		if j == i {
			continue
		}
		o := &tk.tracks[j]
		from := o.lastObs.p
		if o.state.atRest() {
			from = o.restPos
		}
		to := tk.predict(o)
		if d := tk.trkDet[j]; d >= 0 {
			to = tk.dets[d].MM
		}
		sp := o.vel.Len()
		if d := tk.trkDet[j]; d >= 0 && tk.t > o.lastObs.t {
			sp = math.Max(sp, tk.dets[d].MM.Dist(from)/math.Max(tk.t-o.lastObs.t, tk.dt))
		}
		// How far the mover could have got since it was last seen.
		near := o.r + tr.r + 40 + sp*(tk.t-o.lastSeenT)
		if (board.Segment{A: from, B: to}).DistTo(tr.restPos) < near {
			ok = true
			reach = math.Max(reach, 2*math.Max(sp, 500)*gap+30)
		}
	}
	return ok, reach
}

// shifted reports whether the discs at rest are all seen displaced as one
// rigid picture — the same turn, shift and scale (within 5 %) explaining
// every displacement within 2.5 mm, the displacements themselves larger
// than MoveMM: the camera was knocked and the calibration no longer holds.
// At least three discs at rest with a detection near must all say so, and
// they must be spread over the board (100 mm or more from their middle,
// as a root mean square): the men of a pack scattering by the break are
// not a knocked camera.
// Once shifted, the frames stay so until discs at rest are seen back in
// their places (or the view is taken as it is).
func (tk *Tracker) shifted(already bool) bool {
	var from, to [nTracks]board.Vec
	n, far := 0, 0
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if !tr.state.atRest() || tr.misses > 0 {
			continue
		}
		best, bd := board.Vec{}, 40.0
		for j := range tk.dets {
			d := &tk.dets[j]
			if d.Kind == tr.kind || d.ClassScore < 0.6 {
				if dist := d.MM.Dist(tr.restPos); dist < bd {
					best, bd = d.MM, dist
				}
			}
		}
		if bd < 40 {
			from[n], to[n] = tr.restPos, best
			if bd > tk.cfg.MoveMM {
				far++
			}
			n++
		}
	}
	if already {
		return n < 2 || far > n/2
	}
	if n < 3 || far < n-1 {
		return false
	}
	// Least squares similarity: to = [a −b; b a]·from + t.
	var mf, mt board.Vec
	for k := 0; k < n; k++ {
		mf, mt = mf.Add(from[k]), mt.Add(to[k])
	}
	mf, mt = mf.Scale(1/float64(n)), mt.Scale(1/float64(n))
	var sxx, sa, sb float64
	for k := 0; k < n; k++ {
		p, q := from[k].Sub(mf), to[k].Sub(mt)
		sxx += p.Dot(p)
		sa += p.Dot(q)
		sb += p.Cross(q)
	}
	if sxx < float64(n)*100*100 {
		// The discs lie close together (a pack): the picture of a
		// scattering pack is no camera's motion.
		return false
	}
	ca, cb := sa/sxx, sb/sxx
	if sc := math.Hypot(ca, cb); sc < 0.95 || sc > 1.05 {
		return false // a knocked camera turns and shifts; it hardly zooms
	}
	for k := 0; k < n; k++ {
		p := from[k].Sub(mf)
		q := board.V(ca*p.X-cb*p.Y, cb*p.X+ca*p.Y).Add(mt)
		if q.Dist(to[k]) > 2.5 {
			return false
		}
	}
	return true
}

// renumber gives the men found in the initial position the numbers of the
// opening arrangement (see Config.Breaker), once, at the end of the
// initial period; the identities were not yet used in any event.
func (tk *Tracker) renumber() {
	tk.renumbered = true
	for _, k := range [2]board.Kind{board.White, board.Black} {
		var slots []int
		for i := range tk.tracks {
			if tk.tracks[i].kind == k && tk.tracks[i].state.OnBoard() {
				slots = append(slots, i)
			}
		}
		order := append([]int(nil), slots...)
		sort.SliceStable(order, func(a, b int) bool {
			return tk.openingOrder(tk.tracks[order[a]].pos) < tk.openingOrder(tk.tracks[order[b]].pos)
		})
		moved := make([]track, len(slots))
		for n, i := range order {
			moved[n] = tk.tracks[i]
		}
		for n, i := range slots {
			id := tk.tracks[i].id
			tk.tracks[i] = moved[n]
			tk.tracks[i].id = id
		}
	}
	for k := range tk.cands {
		tk.cands[k].used = true // detections were matched to the old slots
	}
}
