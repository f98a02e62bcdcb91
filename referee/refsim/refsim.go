// Package refsim plays simulator scenarios under the rules engine, with
// the referee's fouls, so that whole boards and matches can be generated
// in which the simulated players follow the rules as the engine applies
// them: whose turn it is, what is put back, when a board ends.
//
// The simulator's own turn policy (sim.SimplePolicy) knows no fouls, so
// after a foul it may let a player go on that the rules stop. [Play] plugs
// the rules engine in as the turn policy instead. The policy only sees a
// stroke's outcome (what was pocketed or jumped), not its contacts, so
// [Play] runs the scenario, referees the events, and when the referee
// finds fouls (or a failed break) the policy did not know of, runs it again
// telling the policy about them. The simulator is deterministic, so every
// run repeats the previous one up to the first stroke that changed; a few
// runs settle every stroke.
package refsim

import (
	"fmt"
	"slices"
	"sort"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sim"
)

// MaxRuns bounds the simulator runs of one [Play].
const MaxRuns = 60

// Result is a scenario played under the rules.
type Result struct {
	Trace *sim.Trace
	// Header is the match the events were refereed as.
	Header rules.Header
	// Decisions are the referee's decisions over the trace, in order.
	Decisions []referee.Decision
	// Rejected lists the decisions the rules engine refused.
	Rejected []Rejection
	// Strokes pairs each stroke decision with the pieces at rest at its end
	// and the match state after it.
	Strokes []StrokeRecord
	// Match is the rules engine after every decision.
	Match *rules.Match
	// Runs is the number of simulator runs it took.
	Runs int
}

// Rejection is a decision the rules engine refused, and why.
type Rejection struct {
	Decision referee.Decision
	Err      error
}

// StrokeRecord is one stroke as refereed.
type StrokeRecord struct {
	Decision referee.Decision
	Pieces   []events.PieceAt
	// Before and After are the match state around the stroke.
	Before, After rules.State
}

// fix is what the referee found in a stroke beyond its counts.
type fix struct {
	fouls   []rules.Foul
	noBreak bool
}

// DefaultHeader seats the scenario's players: the breaker and the player
// opposite in singles, all four sides in doubles (partners opposite), each
// named after the side.
func DefaultHeader(sc *sim.Scenario, profile string) rules.Header {
	h := rules.Header{Profile: profile, Break: sc.Breaker}
	h.Players, h.Teams = rules.SeatBySide(sc.Breaker, sc.Players == 4)
	return h
}

// Play runs scenario sc with the rules engine (header h, whose profile is
// cfg.Profile's) as the turn policy, referees the events with cfg, and
// repeats until the policy applied exactly the strokes the referee
// decides. opt.Policy is replaced. The scenario should start a board from
// the opening arrangement: the engine always does.
func Play(sc *sim.Scenario, h rules.Header, cfg referee.Config, opt sim.Options) (*Result, error) {
	if h.Break != sc.Breaker {
		return nil, fmt.Errorf("refsim: the header's breaker %s is not the scenario's %s", h.Break, sc.Breaker)
	}
	if h.Profile != cfg.Profile.Name {
		return nil, fmt.Errorf("refsim: the header's profile %s is not the referee's %s", h.Profile, cfg.Profile.Name)
	}
	fixes := map[int]fix{}
	for run := 1; run <= MaxRuns; run++ {
		pol, err := newPolicy(h, fixes)
		if err != nil {
			return nil, err
		}
		o := opt
		o.Policy = pol
		tr, err := sim.Run(sc, o)
		if err != nil {
			return nil, fmt.Errorf("refsim: run %d: %w", run, err)
		}
		res, err := Referee(tr.Events, h, cfg)
		if err != nil {
			return nil, fmt.Errorf("refsim: run %d: %w", run, err)
		}
		res.Trace, res.Runs = tr, run
		if len(res.Strokes) != len(pol.applied) {
			return nil, fmt.Errorf("refsim: run %d: the referee decided %d strokes, the simulator played %d", run, len(res.Strokes), len(pol.applied))
		}
		// The first stroke whose fouls the policy did not know decides the
		// next run; a stroke the policy's engine refused may be the
		// consequence of such a stroke (a scripted player going on after a
		// failed break the policy took for a break).
		settled := true
		for i, rec := range res.Strokes {
			if pol.failAt > 0 && i >= pol.failAt {
				break // after the refused stroke the policy's engine went its own way
			}
			got, _ := rec.Decision.Event().(rules.Stroke)
			want := pol.applied[i]
			if got.Seat != want.Seat || got.White != want.White || got.Black != want.Black || got.Queen != want.Queen ||
				got.Striker != want.Striker || got.Overboard != want.Overboard {
				return nil, fmt.Errorf("refsim: run %d, stroke %d: the referee counted %q, the simulator %q",
					run, i+1, rules.FormatEvent(got), rules.FormatEvent(want))
			}
			if got.NoBreak != want.NoBreak || !sameFouls(got.Fouls, want.Fouls) {
				fixes[i+1] = fix{fouls: got.Fouls, noBreak: got.NoBreak}
				settled = false
				break
			}
		}
		switch {
		case !settled:
		case pol.err != nil:
			return nil, fmt.Errorf("refsim: run %d: %w", run, pol.err)
		default:
			return res, nil
		}
	}
	return nil, fmt.Errorf("refsim: the strokes did not settle in %d runs", MaxRuns)
}

func sameFouls(a, b []rules.Foul) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Referee runs the referee and the rules engine over events, as `boardcam
// referee` does.
func Referee(evs []events.Event, h rules.Header, cfg referee.Config) (*Result, error) {
	m, err := rules.NewMatch(h)
	if err != nil {
		return nil, err
	}
	return RefereeMatch(evs, m, cfg)
}

// RefereeMatch is [Referee] continuing match m (a match under way, such
// as a stroke log replayed): the events are refereed in the state m is in
// and applied to it.
func RefereeMatch(evs []events.Event, m *rules.Match, cfg referee.Config) (*Result, error) {
	h := m.Header()
	ref, err := referee.New(cfg)
	if err != nil {
		return nil, err
	}
	res := &Result{Header: h, Match: m}
	// last: the last decision whose event was applied (its index in
	// Decisions and Strokes, the history's length after it), which a
	// folded decision replaces (referee.Decision.Folds).
	last := struct{ d, s, hist int }{-1, -1, -1}
	for _, e := range evs {
		before := m.State()
		ds, err := ref.Observe(e, before)
		if err != nil {
			return nil, fmt.Errorf("frame %d: %w", e.Frame, err)
		}
		for _, d := range ds {
			if d.Folds != nil {
				if last.d >= 0 && res.Decisions[last.d].Frame == *d.Folds && len(m.History()) == last.hist && m.Undo() == nil {
					res.Decisions = append(res.Decisions[:last.d], res.Decisions[last.d+1:]...)
					if last.s >= 0 {
						res.Strokes = append(res.Strokes[:last.s], res.Strokes[last.s+1:]...)
					}
				} else {
					d = d.Unfolded()
				}
				last.d, last.s = -1, -1
			}
			before := m.State()
			applied := false
			if ev := d.Event(); ev != nil {
				if err := m.Apply(ev); err != nil {
					res.Rejected = append(res.Rejected, Rejection{Decision: d, Err: err})
				} else {
					applied = true
				}
			}
			res.Decisions = append(res.Decisions, d)
			if d.Kind == referee.KindStroke {
				res.Strokes = append(res.Strokes, StrokeRecord{Decision: d, Pieces: e.Pieces, Before: before, After: m.State()})
			}
			if applied {
				last.d, last.hist, last.s = len(res.Decisions)-1, len(m.History()), -1
				if d.Kind == referee.KindStroke {
					last.s = len(res.Strokes) - 1
				}
			}
		}
	}
	return res, nil
}

// Inconsistencies compares what is physically on the board at the end of
// every stroke with what the rules engine believes: the men of each colour
// at rest (plus those that jumped in the stroke, which the engine keeps on
// the board) must be the men the engine has on the board, and the queen
// must lie on the board exactly when the engine says so. Strokes that end a
// board are not compared (the engine has set out the next board).
func (r *Result) Inconsistencies() []string {
	var out []string
	for i, rec := range r.Strokes {
		if rec.After.Board != rec.Before.Board || rec.After.MatchOver {
			continue
		}
		var rest [4]int
		for _, p := range rec.Pieces {
			rest[p.Piece]++
		}
		o := rec.Decision.Stroke
		jumped := [4]int{o.Overboard.White, o.Overboard.Black, o.Overboard.Queen, o.Overboard.Striker}
		for _, k := range []board.Kind{board.White, board.Black} {
			on, _ := rec.After.Men(k)
			if rest[k]+jumped[k] != on {
				out = append(out, fmt.Sprintf("stroke %d (frame %d, %s): %d %s men at rest and %d jumped, the engine has %d on the board",
					i+1, rec.Decision.Frame, rec.Decision.Log, rest[k], k, jumped[k], on))
			}
		}
		qOn := rec.After.Queen.Status == rules.QueenOnBoard
		if (rest[board.Queen]+jumped[board.Queen] > 0) != qOn {
			out = append(out, fmt.Sprintf("stroke %d (frame %d, %s): queen at rest %v, the engine says %s",
				i+1, rec.Decision.Frame, rec.Decision.Log, rest[board.Queen] > 0, rec.After.Queen.Status))
		}
	}
	return out
}

// policy is the rules engine as the simulator's turn policy.
type policy struct {
	m       *rules.Match
	prof    *rules.Profile
	fixes   map[int]fix
	applied []rules.Stroke
	boards  int
	err     error
	// failAt is the number of the first stroke the engine refused.
	failAt int
}

var _ sim.TurnPolicy = (*policy)(nil)

func newPolicy(h rules.Header, fixes map[int]fix) (*policy, error) {
	m, err := rules.NewMatch(h)
	if err != nil {
		return nil, fmt.Errorf("refsim: %w", err)
	}
	return &policy{m: m, prof: m.Profile(), fixes: fixes}, nil
}

func (p *policy) fail(format string, a ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, a...)
	}
}

// NewBoard implements sim.TurnPolicy: the engine sets out its boards
// itself; the simulator's breaker must be the engine's.
func (p *policy) NewBoard(breaker board.Side, discs []scene.Disc) {
	st := p.m.State()
	if breaker != st.Breaker {
		p.fail("board %d: the simulator's breaker is %s, the engine's %s", st.Board, breaker, st.Breaker)
	}
	on := 0
	for _, d := range discs {
		if d.Kind != board.Striker && d.State.OnBoard() {
			on++
		}
	}
	if on != 2*board.MenPerColour+1 {
		p.fail("board %d starts with %d pieces on the board: the rules engine starts every board with all nineteen", st.Board, on)
	}
	p.boards++
}

// Turn implements sim.TurnPolicy.
func (p *policy) Turn() board.Side { return p.m.State().Turn }

// Breaking implements sim.TurnPolicy.
func (p *policy) Breaking() bool { return p.m.State().Breaking }

// Colour implements sim.TurnPolicy.
func (p *policy) Colour(s board.Side) board.Kind {
	st := p.m.State()
	if t := st.TeamOf(s); t >= 0 {
		return st.Teams[t].Colour
	}
	return board.White
}

// QueenAllowed implements sim.TurnPolicy: the queen is on the board and
// the player's side has a man of its own pocketed beyond its dues.
func (p *policy) QueenAllowed(s board.Side) bool {
	st := p.m.State()
	t := st.TeamOf(s)
	if t < 0 || st.Queen.Status != rules.QueenOnBoard {
		return false
	}
	ts := st.Teams[t]
	return ts.Pocketed-ts.AwaitingPlacement-ts.Owed > 0
}

// Stroke implements sim.TurnPolicy: the outcome goes to the engine, with
// the fouls the referee found in an earlier run; the engine's state says
// who plays next and what goes back on the board.
func (p *policy) Stroke(o sim.StrokeOutcome) sim.Decision {
	n := len(p.applied) + 1
	st := p.m.State()
	s := rules.Stroke{Seat: o.Side}
	for _, pp := range o.Pocketed {
		switch pp.Kind {
		case board.White:
			s.White++
		case board.Black:
			s.Black++
		case board.Queen:
			s.Queen = true
		case board.Striker:
			s.Striker = true
		}
	}
	for _, id := range o.Overboard {
		k, err := board.KindOfID(id)
		if err != nil {
			p.fail("stroke %d: %v", n, err)
			continue
		}
		s.Overboard[k]++
	}
	if f, ok := p.fixes[n]; ok {
		s.Fouls, s.NoBreak = f.fouls, f.noBreak
	}
	p.applied = append(p.applied, s)
	if err := p.m.Apply(s); err != nil {
		p.fail("stroke %d: %w", n, err)
		if p.failAt == 0 {
			p.failAt = n
		}
		return sim.Decision{Next: st.Turn}
	}
	after := p.m.State()
	d := sim.Decision{Next: after.Turn, Notes: after.Fouls}
	if after.Board != st.Board || after.MatchOver {
		res := after.Boards[len(after.Boards)-1]
		d.BoardOver, d.Reason = true, res.Reason
		if res.Winner >= 0 {
			d.Winner = st.Teams[res.Winner].Colour
		}
		return d
	}
	returning := map[string]bool{}
	for _, id := range o.Overboard {
		if id != "S" {
			d.Returns = append(d.Returns, sim.Return{ID: id, By: "umpire", Centre: true})
			returning[id] = true
		}
	}
	for _, t := range after.Teams {
		if t.AwaitingPlacement == 0 || t.Deferred {
			continue
		}
		var ids []string
		for _, dd := range o.Discs {
			if dd.Kind == t.Colour && dd.State == scene.Pocketed && !returning[dd.ID] {
				ids = append(ids, dd.ID)
			}
		}
		sort.Strings(ids)
		if len(ids) < t.AwaitingPlacement {
			p.fail("stroke %d: %d %s men await placement, %d are in the pockets", n, t.AwaitingPlacement, t.Colour, len(ids))
			continue
		}
		by := after.Placer
		if by == "" {
			by = after.Turn.String()
		}
		for _, id := range ids[:t.AwaitingPlacement] {
			d.Returns = append(d.Returns, sim.Return{ID: id, By: by})
			returning[id] = true
		}
	}
	if q := after.Queen; q.Status == rules.QueenAwaitingPlacement && !q.Held && !returning["Q"] {
		by := "umpire"
		if p.prof.QueenByOpponent {
			by = p.opponent(after).String()
		}
		d.Returns = append(d.Returns, sim.Return{ID: "Q", By: by, Centre: true})
	}
	return d
}

// opponent is a seat of the side not having the turn.
func (p *policy) opponent(st rules.State) board.Side {
	t := st.TeamOf(st.Turn)
	for _, pl := range st.Players {
		if pl.Team != t {
			return pl.Seat
		}
	}
	return st.Turn.Opposite()
}
