package referee

import (
	"fmt"
	"math"
	"sort"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/rules"
)

// Referee turns physical events into decisions. Feed it every event in
// order with [Referee.Observe], each time with the match state as it
// stands after the decisions returned so far were applied (or undone by
// the umpire). It is not safe for concurrent use.
type Referee struct {
	cfg Config
	// g is the board judged on: base, with the markings and the set's
	// sizes of the last calibrated event.
	g, base *board.Geometry
	p       *rules.Profile
	tol     float64

	// pos is where each disc on the board was last seen at rest.
	pos map[string]board.Vec
	// cur is the stroke in progress.
	cur *stroke
	// arms holds arm_over_foul_line events seen outside a stroke, kept
	// for the next stroke_start within the window.
	arms []events.Event
	// jumped holds the pieces that left the board and that the umpire
	// puts back without a rules event.
	jumped map[string]bool
	// off holds the men and the queen counted pocketed and not put back
	// since, with why (offboard.go).
	off map[string]string
	// dues holds the men placed as dues since the last stroke, with their
	// placer, so that moving them again is checked, not called.
	dues map[string]board.Side
	// lastDue is the time of the last due placement (for PlacingWindow).
	lastDue    float64
	lastPlacer board.Side
	hasDue     bool

	// gaps are the frames not analysed that no decision has taken up yet
	// (see Unseen); loose the pieces reported pocketed or off the board
	// outside a stroke since the last one (the outcome of a stroke whose
	// start was not seen); inferredPos the resting places the tracker
	// inferred; lastFrame the latest frame heard of.
	gaps        []Gap
	loose       []events.Event
	inferredPos map[string]bool
	lastFrame   int

	// held is the last stroke decision held for the umpire, into which a
	// later stroke whose start was not seen may be folded (fold.go).
	held *heldStroke
}

// New returns a referee for a match under cfg.Profile on cfg.Geometry.
func New(cfg Config) (*Referee, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("referee: config: %w", err)
	}
	g := cfg.Geometry
	if g == nil {
		g = board.ICF()
	}
	return &Referee{
		cfg:         cfg,
		g:           g,
		base:        g,
		p:           cfg.Profile,
		tol:         cfg.Tolerance,
		pos:         map[string]board.Vec{},
		jumped:      map[string]bool{},
		off:         map[string]string{},
		dues:        map[string]board.Side{},
		inferredPos: map[string]bool{},
	}, nil
}

// Profile returns the referee's rule profile.
func (r *Referee) Profile() *rules.Profile { return r.p }

// Geometry returns the board the referee measures on.
func (r *Referee) Geometry() *board.Geometry { return r.g }

// InStroke reports whether a stroke has started and not yet ended.
func (r *Referee) InStroke() bool { return r.cur != nil }

// Positions returns where each disc on the board was last seen at rest.
func (r *Referee) Positions() map[string]board.Vec {
	out := make(map[string]board.Vec, len(r.pos))
	for k, v := range r.pos {
		out[k] = v
	}
	return out
}

// stroke is the bookkeeping of the stroke in progress.
type stroke struct {
	start   events.Event
	seat    board.Side
	striker board.Vec
	// ctx is the match state when the stroke started.
	ctx      rules.State
	contacts []contact
	crossed  *events.Event
	pocketed []events.Event
	jumped   []events.Event
	arms     []events.Event
	moved    []events.Event
	umpire   []Call
	notes    []string
	// doubts are what the camera could not establish about the stroke;
	// noStart marks a stroke whose start was not seen (its stroke_end came
	// without a stroke_start); usedInferred the inferred resting places a
	// check used; flickJudged that the backward flick was judged on the
	// striker's places.
	doubts  []events.Doubt
	noStart bool
	// otherSide: the striker stood on another side's base line (the
	// placement's finding; the front-line checks then do not apply).
	otherSide    bool
	usedInferred map[string]bool
	flickJudged  bool
}

// contact is one contact event, normalised so that the striker, when
// involved, is A.
type contact struct {
	ev           events.Event
	a, b         string
	amm, bmm     *board.Vec
	afterCrossed bool // the front_line_crossed event came before it
}

func (c contact) striker() bool { return c.a == "S" }

// Observe feeds one physical event. st is the match state now (after the
// decisions returned so far were applied). It returns the decisions the
// event completes, usually none or one: a stroke at stroke_end, a
// placement at placed, a foul at moved, and info decisions for what the
// umpire should know. An event that is not valid is an error and changes
// nothing.
func (r *Referee) Observe(e events.Event, st rules.State) ([]Decision, error) {
	if err := e.Validate(); err != nil {
		return nil, fmt.Errorf("referee: %w", err)
	}
	r.seen(e.Frame)
	switch e.Type {
	case events.Calibrated, events.Recalibrated:
		// This board's own lines (and its set's sizes) from now on.
		if e.Markings != nil || e.Set != nil {
			g := r.base.WithMarkings(e.Markings)
			if e.Set != nil {
				g = g.WithSet(e.Set)
			}
			r.g = g
		}
		if r.cur != nil {
			r.cur.notes = append(r.cur.notes, fmt.Sprintf("the board was %s during the stroke (frame %d): positions before and after may differ", e.Type, e.Frame))
		}
		return nil, nil
	case events.StrokeStart:
		var out []Decision
		if r.cur != nil {
			r.cur.notes = append(r.cur.notes, fmt.Sprintf("no stroke_end: the stroke was ended by the next stroke_start (frame %d)", e.Frame))
			r.cur.doubt(events.Doubt{Kind: events.DoubtEndUnseen, Frames: [2]int{r.cur.start.Frame, e.Frame},
				Reason: fmt.Sprintf("the pieces of %s's stroke (from frame %d) were not seen coming to rest before the next stroke began (frame %d)", r.cur.seat, r.cur.start.Frame, e.Frame)})
			out = r.finish(events.Event{Type: events.StrokeEnd, Frame: e.Frame, T: e.T})
		}
		r.begin(e, st)
		r.held = nil // a stroke seen starting is a stroke of its own
		return out, nil
	case events.StrokeEnd:
		if r.cur == nil {
			if lostOnly(e) && !r.movedGaps() && len(r.loose) == 0 {
				return []Decision{r.lostNotice(e, st)}, nil
			}
			if len(e.Doubts) > 0 || r.movedGaps() {
				return r.unseenStroke(e, st), nil
			}
			r.restAt(e.Pieces, nil)
			r.loose = nil
			return []Decision{r.info(st, e, st.Turn, fmt.Sprintf("stroke_end at frame %d without a stroke_start: positions updated, no stroke recorded", e.Frame))}, nil
		}
		return r.finish(e), nil
	case events.Placed:
		r.held = nil // a placement ends the stroke before it
		return r.between(e, r.placed(e, st)), nil
	case events.Moved:
		return r.between(e, r.moved(e, st)), nil
	}
	// Events that belong to a stroke.
	if r.cur == nil {
		if e.Type == events.ArmOverFoulLine {
			r.arms = append(r.arms, e)
			return nil, nil
		}
		if e.Type == events.Pocketed || e.Type == events.Overboard {
			r.loose = append(r.loose, e)
		}
		return []Decision{r.info(st, e, st.Turn, fmt.Sprintf("%s at frame %d outside a stroke: ignored (%s)", e.Type, e.Frame, describe(e)))}, nil
	}
	s := r.cur
	switch e.Type {
	case events.FrontLineCrossed:
		if *e.Side != s.seat {
			s.notes = append(s.notes, fmt.Sprintf("front_line_crossed for %s during %s's stroke (frame %d): ignored", *e.Side, s.seat, e.Frame))
		} else if s.crossed == nil {
			ev := e
			s.crossed = &ev
		}
	case events.Contact:
		c := contact{ev: e, a: e.A, b: e.B, afterCrossed: s.crossed != nil}
		if e.AMM != nil {
			v := e.AMM.Vec()
			c.amm = &v
		}
		if e.BMM != nil {
			v := e.BMM.Vec()
			c.bmm = &v
		}
		if c.b == "S" {
			c.a, c.b, c.amm, c.bmm = c.b, c.a, c.bmm, c.amm
		}
		s.contacts = append(s.contacts, c)
	case events.Pocketed:
		s.pocketed = append(s.pocketed, e)
	case events.Overboard:
		s.jumped = append(s.jumped, e)
	case events.ArmOverFoulLine:
		s.arms = append(s.arms, e)
	}
	return nil, nil
}

// Umpire records fouls the umpire declares against the player at seat
// (thumbing, push, talking, leaving the seat … what no camera sees). A foul
// by the striker during a stroke in progress joins that stroke's decision
// and nothing is returned; otherwise the result is a foul decision.
func (r *Referee) Umpire(seat board.Side, fouls []rules.Foul, frame int, t float64, st rules.State) ([]Decision, error) {
	if len(fouls) == 0 {
		return nil, fmt.Errorf("referee: umpire: no foul given")
	}
	var calls []Call
	for _, f := range fouls {
		rl, ok := r.p.Foul(f)
		if !ok {
			return nil, fmt.Errorf("referee: umpire: profile %s does not recognise the foul %q", r.p.Name, f)
		}
		if rl.Derived {
			return nil, fmt.Errorf("referee: umpire: %s is derived by the rules engine from the pieces pocketed or overboard", f)
		}
		calls = append(calls, Call{Foul: f, Seat: seat, Rule: rl.Ref, Summary: f.Summary(), Effect: rl.Effect.String(),
			Status: Applied, Source: SourceUmpire, Frame: frame, T: t, Confidence: 1, Reason: "declared by the umpire"})
	}
	if r.cur != nil && seat == r.cur.seat {
		r.cur.umpire = append(r.cur.umpire, calls...)
		return nil, nil
	}
	d := Decision{Kind: KindFoul, Board: st.Board, Seat: seat, Frame: frame, T: t, Calls: calls}
	d.refresh()
	return []Decision{d}, nil
}

// begin opens a stroke.
func (r *Referee) begin(e events.Event, st rules.State) {
	s := &stroke{start: e, seat: *e.Side, striker: e.StrikerMM.Vec(), ctx: st}
	for _, a := range r.arms {
		if e.T-a.T <= r.cfg.ArmFoulWindow {
			s.arms = append(s.arms, a)
		} else {
			s.notes = append(s.notes, fmt.Sprintf("arm_over_foul_line for %s at frame %d, %.1f s before the stroke: not counted", *a.Side, a.Frame, e.T-a.T))
		}
	}
	r.arms = nil
	r.loose = nil
	r.cur = s
	r.dues = map[string]board.Side{}
	r.hasDue = false
	switch {
	case st.MatchOver:
		s.notes = append(s.notes, "the match is over: the stroke counts for nothing")
	case st.TeamOf(s.seat) < 0:
		s.notes = append(s.notes, fmt.Sprintf("no player sits at %s", s.seat))
	case s.seat != st.Turn:
		s.notes = append(s.notes, fmt.Sprintf("%s strikes, but it is %s's turn", s.seat, st.Turn))
	}
}

// finish closes the stroke in progress with the stroke_end event e and
// returns its decisions: fouls by other seats first, then the stroke.
func (r *Referee) finish(e events.Event) []Decision {
	s := r.cur
	r.cur = nil
	snap := s.clone()
	movedOff := r.offBoardSeen(s, e)
	d := Decision{Kind: KindStroke, Board: s.ctx.Board, Seat: s.seat, Frame: e.Frame, T: e.T,
		StartFrame: s.start.Frame, StartT: s.start.T}
	o := r.count(s, e)
	d.Stroke = o
	calls := r.judge(s, o, e)
	if movedOff {
		offerInferred(calls, moveFouls, "the piece moved is off the board")
	}
	calls = append(calls, s.umpire...)
	var others []Decision
	for _, c := range calls {
		if c.Seat == s.seat {
			d.Calls = append(d.Calls, c)
			continue
		}
		fd := Decision{Kind: KindFoul, Board: s.ctx.Board, Seat: c.Seat, Frame: c.Frame, T: c.T, Calls: []Call{c}}
		fd.refresh()
		others = append(others, fd)
	}
	d.Notes = append(d.Notes, s.notes...)
	r.inferredChecks(s, d.Calls, e)
	for _, x := range s.doubts {
		if x.Kind == events.DoubtEndUnseen {
			offerInferred(d.Calls, endFouls, "the stroke's end was not seen")
		}
	}
	start := s.start.Frame
	if s.noStart {
		start = -1
	}
	d.Doubts = mergeDoubts(append([]events.Doubt(nil), e.Doubts...), s.doubts...)
	d.Doubts = mergeDoubts(d.Doubts, r.takeGaps(start, s.seat == s.ctx.Turn && !s.ctx.MatchOver)...)
	d.refresh()
	r.keepHeld(snap, d)
	return append(others, d)
}

// between adds to the decisions of an event between strokes (placed,
// moved) what the camera could not establish: the event's own position
// inferred, pieces moved in frames not analysed before it.
func (r *Referee) between(e events.Event, ds []Decision) []Decision {
	for i := range ds {
		d := &ds[i]
		if d.Kind == KindInfo {
			continue
		}
		if e.Inferred {
			what := fmt.Sprintf("where %s was put", pieceName(e))
			if e.Type == events.Moved {
				what = fmt.Sprintf("where %s was moved by hand", pieceName(e))
			}
			d.Doubts = mergeDoubts(d.Doubts, inferred(what, e, e.ID))
			offerInferred(d.Calls, putFouls, "its place was inferred")
		}
		// (The tracker's doubts on the event itself: a disc lost from
		// sight that came back elsewhere.)
		d.Doubts = mergeDoubts(d.Doubts, e.Doubts...)
		if r.cur == nil { // during a stroke, its gaps wait for its end
			d.Doubts = mergeDoubts(d.Doubts, r.takeGaps(-1, false)...)
		}
		d.refresh()
	}
	return ds
}

// takeLoose gives s the pocketings and pieces off the board said between
// strokes, with no stroke to own them yet.
func (r *Referee) takeLoose(s *stroke) {
	for _, p := range r.loose {
		if p.Type == events.Pocketed {
			s.pocketed = append(s.pocketed, p)
		} else {
			s.jumped = append(s.jumped, p)
		}
	}
	r.loose = nil
}

// unseenStroke is the decision of a stroke whose start was not seen: a
// stroke_end with doubts (the tracker saw the board change with no stroke
// in between) or after a gap in which pieces moved. The seat is the one
// whose turn it is; the outcome is what was reported pocketed or off the
// board since the last stroke. When it can be the stroke of the last
// decision held for the umpire, it is folded into that one instead
// (fold.go): the decision returned replaces it (Decision.Folds).
func (r *Referee) unseenStroke(e events.Event, st rules.State) []Decision {
	if r.foldable(e) {
		return r.fold(e)
	}
	s := &stroke{start: events.Event{Type: events.StrokeStart, Frame: e.Frame, T: e.T}, seat: st.Turn, ctx: st, noStart: true}
	r.takeLoose(s)
	s.notes = append(s.notes, fmt.Sprintf("the stroke's start was not seen: taken as %s's stroke, whose turn it is", st.Turn))
	if len(e.Doubts) == 0 {
		s.doubt(events.Doubt{Kind: events.DoubtStartUnseen, Frames: [2]int{e.Frame, e.Frame},
			Reason: fmt.Sprintf("the pieces came to rest at frame %d with no stroke seen before: the stroke fell in frames that were not analysed", e.Frame)})
	}
	r.cur = s
	return r.finish(e)
}

// count tallies the stroke's outcome and updates the positions.
func (r *Referee) count(s *stroke, e events.Event) *Outcome {
	g := r.g
	R := g.Radius(board.Striker)
	pl := g.StrikerPlacement(s.seat, s.striker, R)
	o := &Outcome{StrikerMM: events.FromVec(s.striker), Placement: pl.Kind.String(), Contacts: len(s.contacts),
		CrossedFrontLine: s.crossed != nil}
	if s.noStart {
		o.Placement = "unseen"
	}
	for _, c := range s.contacts {
		if c.striker() {
			o.FirstContact = c.b
			break
		}
	}
	atRest := map[string]bool{}
	for _, p := range e.Pieces {
		if p.ID != "" {
			atRest[p.ID] = true
		}
	}
	gone := map[string]bool{}
	for _, p := range s.pocketed {
		if p.ID != "" {
			if gone[p.ID] {
				continue
			}
			if atRest[p.ID] {
				s.notes = append(s.notes, fmt.Sprintf("%s reported pocketed in %s (frame %d) but seen on the board at the end of the stroke: not counted", p.ID, p.Pocket, p.Frame))
				continue
			}
			gone[p.ID] = true
		}
		o.Pocketed = append(o.Pocketed, PieceEvent{ID: p.ID, Piece: *p.Piece, Pocket: p.Pocket, Frame: p.Frame, T: p.T})
		switch *p.Piece {
		case board.White:
			o.White++
		case board.Black:
			o.Black++
		case board.Queen:
			o.Queen = true
		case board.Striker:
			o.Striker = true
		}
	}
	for _, p := range s.jumped {
		if p.ID != "" {
			if gone[p.ID] {
				continue
			}
			if atRest[p.ID] {
				s.notes = append(s.notes, fmt.Sprintf("%s reported off the board (frame %d) but seen on the board at the end of the stroke: not counted", p.ID, p.Frame))
				continue
			}
			gone[p.ID] = true
		}
		o.Jumped = append(o.Jumped, PieceEvent{ID: p.ID, Piece: *p.Piece, MM: p.MM, Frame: p.Frame, T: p.T})
		k := *p.Piece
		if (k == board.Queen && (o.Queen || o.Overboard.Queen > 0)) || (k == board.Striker && (o.Striker || o.Overboard.Striker > 0)) {
			continue
		}
		o.Overboard.add(k)
		if k != board.Striker && p.ID != "" {
			r.jumped[p.ID] = true
		}
	}
	// The break: an attempt that touched no piece has not broken the men.
	if s.ctx.Breaking {
		touched := false
		for _, c := range s.contacts {
			if c.striker() && c.b != events.Frame {
				touched = true
			}
		}
		if !touched && o.White+o.Black == 0 && !o.Queen && o.Overboard.White+o.Overboard.Black+o.Overboard.Queen == 0 {
			o.NoBreak = true
			s.notes = append(s.notes, fmt.Sprintf("failed break attempt: the striker touched no piece (attempt %d of %d)", s.ctx.BreakAttempts+1, r.p.BreakAttempts))
		}
	}
	r.tookOff(gone, s.pocketed)
	r.restAt(e.Pieces, gone)
	if e.Pieces != nil {
		// Pieces known to be on the board but not seen at rest.
		var hidden []string
		for id := range r.pos {
			if !atRest[id] && !gone[id] && id != "S" {
				hidden = append(hidden, id)
			}
		}
		sort.Strings(hidden)
		for _, id := range hidden {
			s.notes = append(s.notes, fmt.Sprintf("%s not seen at the end of the stroke and not pocketed: taken as still on the board (hidden?)", id))
		}
	}
	return o
}

// restAt updates the positions from a stroke_end's pieces: the pieces
// listed are where they are, the pieces gone are off the board, the others
// keep their last known position (hidden from the camera).
func (r *Referee) restAt(pieces []events.PieceAt, gone map[string]bool) {
	for id := range gone {
		delete(r.pos, id)
		delete(r.inferredPos, id)
	}
	delete(r.pos, "S")
	for _, p := range pieces {
		if p.ID != "" {
			delete(r.off, p.ID)
			r.pos[p.ID] = p.MM.Vec()
			if p.Inferred {
				r.inferredPos[p.ID] = true
			} else {
				delete(r.inferredPos, p.ID)
			}
		}
	}
}

// info builds an info decision.
func (r *Referee) info(st rules.State, e events.Event, seat board.Side, note string) Decision {
	return Decision{Kind: KindInfo, Board: st.Board, Seat: seat, Frame: e.Frame, T: e.T, Notes: []string{note}}
}

// newCall builds a camera call of foul f against seat, if the profile
// recognises it. margin is how far the measurement lies on the foul side
// (nil: the call does not rest on a measured position); uncertain marks an
// order of events too close to tell.
func (r *Referee) newCall(f rules.Foul, seat board.Side, e events.Event, reason string, ev Evidence, margin *float64, uncertain bool) (Call, bool) {
	rl, ok := r.p.Foul(f)
	if !ok {
		return Call{}, false
	}
	c := Call{Foul: f, Seat: seat, Rule: rl.Ref, Summary: f.Summary(), Effect: rl.Effect.String(), Source: SourceCamera,
		Frame: e.Frame, T: e.T, Reason: reason, Evidence: ev, Confidence: 1}
	if ev.Frames == nil {
		c.Evidence.Frames = []int{e.Frame}
	}
	if margin != nil {
		m := round(*margin)
		c.Margin = &m
		c.Confidence = r.confidence(*margin)
		c.LowConfidence = *margin < r.tol
	}
	if uncertain {
		c.Confidence = math.Min(c.Confidence, 0.5)
		c.LowConfidence = true
	}
	c.Confidence = math.Round(c.Confidence*1000) / 1000
	switch {
	case rl.Derived:
		c.Status = Derived
	case c.LowConfidence && !r.cfg.ApplyLowConfidence:
		c.Status = Offered
	case r.p.FoulsCalledByPlayers:
		c.Status = Offered
	default:
		c.Status = Applied
	}
	return c, true
}

// confidence is the probability that a measurement lying margin mm on the
// foul side is really there, for a normal error of standard deviation
// Tolerance.
func (r *Referee) confidence(margin float64) float64 {
	if r.tol == 0 {
		if margin >= 0 {
			return 1
		}
		return 0
	}
	return 0.5 * (1 + math.Erf(margin/r.tol/math.Sqrt2))
}

// round keeps margins readable: 0.01 mm.
func round(v float64) float64 { return math.Round(v*100) / 100 }

func mmPtr(v board.Vec) *events.MM { m := events.MM{round(v.X), round(v.Y)}; return &m }

func fmtMM(v board.Vec) string { return fmt.Sprintf("[%.1f, %.1f]", v.X, v.Y) }

// describe says in a few words what an event is about.
func describe(e events.Event) string {
	switch e.Type {
	case events.Contact:
		return e.A + "–" + e.B
	case events.Pocketed:
		return fmt.Sprintf("%s into %s", pieceName(e), *e.Pocket)
	case events.Overboard, events.Placed, events.Moved:
		return pieceName(e)
	case events.FrontLineCrossed, events.ArmOverFoulLine:
		return e.Side.String()
	}
	return string(e.Type)
}

func pieceName(e events.Event) string {
	if e.ID != "" {
		return e.ID
	}
	if e.Piece != nil {
		return e.Piece.String()
	}
	return "a piece"
}

// lostOnly reports whether stroke_end e, with no stroke_start before it,
// carries nothing but unaccounted doubts: the tracker's word, at the end
// of a video, that discs it lost from plain view were never said by a
// stroke's end (tracker.sayLostAtEnd). No stroke was seen, so none is
// guessed.
func lostOnly(e events.Event) bool {
	if len(e.Doubts) == 0 {
		return false
	}
	for _, d := range e.Doubts {
		if d.Kind != events.DoubtUnaccounted {
			return false
		}
	}
	return true
}

// lostNotice is the decision on such a stroke_end: a stroke decision with
// no outcome, held for the umpire (as Flush does for pieces moved in
// frames not analysed), naming the discs lost. Positions are kept: the
// referee still takes the lost discs for on the board until the umpire
// says otherwise.
func (r *Referee) lostNotice(e events.Event, st rules.State) Decision {
	d := Decision{Kind: KindStroke, Board: st.Board, Seat: st.Turn, Frame: e.Frame, T: e.T}
	d.Doubts = mergeDoubts(nil, e.Doubts...)
	var ids []string
	for _, x := range e.Doubts {
		ids = append(ids, x.IDs...)
	}
	them, pronoun := "they were", "them"
	if len(ids) == 1 {
		them, pronoun = "it was", "it"
	}
	d.Notes = append(d.Notes, fmt.Sprintf("%s lost from view with no stroke seen after: a stroke may have been missed, %s taken off the board, or the camera lost %s lying there; enter what happened by hand, or dismiss", joinAnd(ids), them, pronoun))
	d.refresh()
	return d
}
