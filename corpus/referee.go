package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/referee/refsim"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sim"
)

// RefereeSetup is how a clip's events are refereed: the rules, who sits
// where, and the match context (see [Context]). It is stored in the truth
// file so that the evaluation harness referees a pipeline's events exactly
// as the truth was refereed.
type RefereeSetup struct {
	Profile string         `json:"profile"`
	Mode    string         `json:"mode"`
	Players []rules.Player `json:"players"`
	Teams   [2]string      `json:"teams"`
	Break   board.Side     `json:"break"`
	// Context is the fixed state of mode mid_board.
	Context *rules.State `json:"context,omitempty"`
	// Log is the stroke log mode resume continues (its text, so that the
	// truth file is all an evaluation needs).
	Log string `json:"log,omitempty"`
}

// Foul is one foul the referee called, flattened for comparison.
type Foul struct {
	Foul  rules.Foul `json:"foul"`
	Seat  board.Side `json:"seat"`
	Frame int        `json:"frame"`
	T     float64    `json:"t"`
	// Status is the call's status (applied, derived, offered …).
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// Judgement is what the referee (and in mode match the rules engine) made
// of a clip's events.
type Judgement struct {
	Decisions []referee.Decision `json:"decisions"`
	Fouls     []Foul             `json:"fouls"`
	// Rejected lists decisions the rules engine refused (mode match).
	Rejected []string `json:"rejected,omitempty"`
	// Final is the match state after the last event (mode match): the
	// score a daemon running the clip must reach.
	Final *rules.State `json:"final_state,omitempty"`
}

// Setup builds the referee setup of a spec (see [Context]).
func Setup(sp *Spec) (RefereeSetup, error) {
	sc := sp.Scenario
	c := sp.Expect.Context
	h := refsim.DefaultHeader(sc, sp.Expect.Profile)
	rs := RefereeSetup{Profile: sp.Expect.Profile, Mode: c.Mode, Players: h.Players, Teams: h.Teams, Break: h.Break}
	if rs.Mode == "" {
		rs.Mode = ModeMidBoard
		if sc.Arrangement.Kind == sim.ArrangeOpening {
			rs.Mode = ModeMatch
		}
	}
	if rs.Mode == ModeResume {
		return resumeSetup(sp, rs)
	}
	if rs.Mode == ModeMatch {
		if sc.Arrangement.Kind != sim.ArrangeOpening {
			return rs, fmt.Errorf("%s: expect.context.mode: match needs the opening arrangement (the rules engine starts every board from it)", sp.Path)
		}
		if c.Turn != nil || c.Queen != "" || c.AwaitingWhite+c.AwaitingBlack > 0 || c.Placer != "" {
			return rs, fmt.Errorf("%s: expect.context: turn, queen, awaiting and placer apply to mode mid_board only", sp.Path)
		}
		return rs, nil
	}
	st := rules.State{
		Profile: sp.Expect.Profile, Doubles: sc.Players == 4, Players: h.Players,
		Board: 1, Turn: sc.Breaker, Strokes: 10, Winner: -1, Breaker: sc.Breaker,
		Queen: rules.Queen{Status: rules.QueenOnBoard, Team: -1},
	}
	for t := range st.Teams {
		st.Teams[t].Name = h.Teams[t]
		for _, p := range h.Players {
			if p.Team == t {
				st.Teams[t].Players = append(st.Teams[t].Players, p.Name)
			}
		}
	}
	st.Teams[0].Colour, st.Teams[1].Colour = board.White, board.Black
	// The men on the board, from the arrangement.
	var on [4]int
	queenOn := false
	for _, p := range sc.Arrangement.Positions {
		k, _ := board.KindOfID(p.ID)
		on[k]++
		queenOn = queenOn || k == board.Queen
	}
	st.Teams[0].OnBoard, st.Teams[0].Pocketed = on[board.White], board.MenPerColour-on[board.White]
	st.Teams[1].OnBoard, st.Teams[1].Pocketed = on[board.Black], board.MenPerColour-on[board.Black]
	if !queenOn {
		st.Queen = rules.Queen{Status: rules.QueenCovered, Team: 1}
	}
	for _, a := range sc.Timeline {
		if a.Kind == sim.ActStrike && a.Strike.Side != nil {
			st.Turn = *a.Strike.Side
			break
		}
	}
	if c.Turn != nil {
		st.Turn = *c.Turn
	}
	if c.Queen != "" {
		st.Queen = rules.Queen{Status: rules.QueenStatus(c.Queen), Team: c.QueenTeam}
		if st.Queen.Status == rules.QueenOnBoard || st.Queen.Status == rules.QueenAwaitingPlacement {
			st.Queen.Team = -1
		}
	}
	st.Teams[0].AwaitingPlacement, st.Teams[1].AwaitingPlacement = c.AwaitingWhite, c.AwaitingBlack
	st.Placer = c.Placer
	rs.Context = &st
	return rs, nil
}

// resumeSetup is the setup of mode resume: the log's match, checked
// against the scenario's starting position.
func resumeSetup(sp *Spec, rs RefereeSetup) (RefereeSetup, error) {
	sc, c := sp.Scenario, sp.Expect.Context
	if c.Turn != nil || c.Queen != "" || c.AwaitingWhite+c.AwaitingBlack > 0 || c.Placer != "" {
		return rs, fmt.Errorf("%s: expect.context: turn, queen, awaiting and placer apply to mode mid_board only (mode resume takes them from the log)", sp.Path)
	}
	path := c.Log
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(sp.Path), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return rs, fmt.Errorf("%s: expect.context.log: %w", sp.Path, err)
	}
	rs.Log = string(b)
	m, err := rs.resumedMatch()
	if err != nil {
		return rs, fmt.Errorf("%s: expect.context.log %s: %w", sp.Path, c.Log, err)
	}
	h := m.Header()
	if h.Profile != sp.Expect.Profile {
		return rs, fmt.Errorf("%s: the log plays profile %s, expect.profile is %s", sp.Path, h.Profile, sp.Expect.Profile)
	}
	rs.Players, rs.Teams, rs.Break = h.Players, h.Teams, h.Break
	// The log must end where the clip starts.
	st := m.State()
	var on [4]int
	for _, p := range sc.Arrangement.Positions {
		k, _ := board.KindOfID(p.ID)
		on[k]++
	}
	var probs []string
	if st.MatchOver {
		probs = append(probs, "the match is over")
	}
	for t := range st.Teams {
		k := st.Teams[t].Colour
		if st.Teams[t].OnBoard != on[k] {
			probs = append(probs, fmt.Sprintf("%d %s men on the board, the arrangement has %d", st.Teams[t].OnBoard, k, on[k]))
		}
		if st.Teams[t].AwaitingPlacement > 0 {
			probs = append(probs, fmt.Sprintf("%s has men awaiting placement", st.Teams[t].Name))
		}
	}
	if (st.Queen.Status == rules.QueenOnBoard) != (on[board.Queen] == 1) {
		probs = append(probs, fmt.Sprintf("the queen is %s, the arrangement has %d", st.Queen.Status, on[board.Queen]))
	}
	for _, a := range sc.Timeline {
		if a.Kind == sim.ActStrike && a.Strike.Side != nil {
			if *a.Strike.Side != st.Turn {
				probs = append(probs, fmt.Sprintf("it is %s's turn, the first strike is from %s", st.Turn, *a.Strike.Side))
			}
			break
		}
	}
	if len(probs) > 0 {
		return rs, fmt.Errorf("%s: the log %s does not end where the clip starts: %s", sp.Path, c.Log, strings.Join(probs, "; "))
	}
	return rs, nil
}

// resumedMatch replays the setup's log (mode resume).
func (rs RefereeSetup) resumedMatch() (*rules.Match, error) {
	lg, err := rules.ParseLog(strings.NewReader(rs.Log))
	if err != nil {
		return nil, err
	}
	if lg.Header.Profile == "" {
		lg.Header.Profile = rs.Profile
	}
	return lg.Play(nil)
}

// FirstTurn is the seat of the player who strikes first in the clip: in
// mode resume the turn the stroke log ends in, in mode mid_board the
// context's turn, otherwise (a new match) the breaker.
func (rs RefereeSetup) FirstTurn() (board.Side, error) {
	switch {
	case rs.Context != nil:
		return rs.Context.Turn, nil
	case rs.Mode == ModeResume:
		m, err := rs.resumedMatch()
		if err != nil {
			return 0, fmt.Errorf("corpus: the stroke log resumed: %w", err)
		}
		return m.State().Turn, nil
	}
	return rs.Break, nil
}

// RefereeConfig is the referee configuration for the setup: exact (no
// tolerance) for the simulator's truth, the default camera tolerances for
// a pipeline's events.
func (rs RefereeSetup) RefereeConfig(g *board.Geometry, exact bool) (referee.Config, error) {
	p, err := rules.ProfileByName(rs.Profile)
	if err != nil {
		return referee.Config{}, err
	}
	cfg := referee.DefaultConfig(p)
	if g != nil {
		cfg.Geometry = g
	}
	if exact {
		cfg.Tolerance, cfg.TimeTolerance = 0, 0
	}
	return cfg, nil
}

// Judge referees the events under the setup. Events the referee refuses
// are errors (naming the frame); decisions the rules engine refuses are
// listed in Rejected.
func (rs RefereeSetup) Judge(evs []events.Event, cfg referee.Config) (*Judgement, error) {
	j := &Judgement{}
	switch rs.Mode {
	case ModeMatch:
		h := rules.Header{Profile: rs.Profile, Teams: rs.Teams, Players: rs.Players, Break: rs.Break}
		res, err := refsim.Referee(evs, h, cfg)
		if err != nil {
			return nil, fmt.Errorf("referee: %w", err)
		}
		j.Decisions = res.Decisions
		for _, r := range res.Rejected {
			j.Rejected = append(j.Rejected, fmt.Sprintf("frame %d %q: %v", r.Decision.Frame, r.Decision.Log, r.Err))
		}
		st := res.Match.State()
		j.Final = &st
	case ModeResume:
		m, err := rs.resumedMatch()
		if err != nil {
			return nil, fmt.Errorf("referee: the log: %w", err)
		}
		res, err := refsim.RefereeMatch(evs, m, cfg)
		if err != nil {
			return nil, fmt.Errorf("referee: %w", err)
		}
		j.Decisions = res.Decisions
		for _, r := range res.Rejected {
			j.Rejected = append(j.Rejected, fmt.Sprintf("frame %d %q: %v", r.Decision.Frame, r.Decision.Log, r.Err))
		}
		st := res.Match.State()
		j.Final = &st
	case ModeMidBoard:
		if rs.Context == nil {
			return nil, fmt.Errorf("referee: mode mid_board without a context")
		}
		ref, err := referee.New(cfg)
		if err != nil {
			return nil, err
		}
		for _, e := range evs {
			ds, err := ref.Observe(e, *rs.Context)
			if err != nil {
				return nil, fmt.Errorf("referee: frame %d: %w", e.Frame, err)
			}
			j.Decisions = append(j.Decisions, ds...)
		}
	default:
		return nil, fmt.Errorf("referee: unknown mode %q", rs.Mode)
	}
	j.Fouls = FoulsOf(j.Decisions)
	return j, nil
}

// FoulsOf lists the calls of the decisions that were not overruled, in
// order.
func FoulsOf(ds []referee.Decision) []Foul {
	out := []Foul{}
	for _, d := range ds {
		for _, c := range d.Calls {
			if c.Status == referee.Overruled {
				continue
			}
			out = append(out, Foul{Foul: c.Foul, Seat: c.Seat, Frame: c.Frame, T: c.T, Status: string(c.Status), Reason: c.Reason})
		}
	}
	return out
}
