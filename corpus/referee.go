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
	// Log is the stroke log mode resume continues, and in mode mid_board
	// the header with the position the clip starts from (its text, so
	// that the truth file is all an evaluation needs).
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
	// Mode mid_board: the match starts from the position of the board in
	// play, written as the stroke log's position line (docs/stroke-log.md),
	// so that a daemon reaches the truth's final state with
	// `boardcam run --resume` on the same log.
	pos := &rules.Position{Board: 1, Breaker: sc.Breaker, HasBreaker: true, Turn: sc.Breaker, Queen: rules.QueenCovered, Strokes: 10}
	for _, p := range sc.Arrangement.Positions {
		switch k, _ := board.KindOfID(p.ID); k {
		case board.White, board.Black:
			pos.Men[k]++
		case board.Queen:
			pos.Queen = rules.QueenOnBoard
		}
	}
	// The queen off the board with nothing said: covered by the second side.
	queenTeam := 1
	for _, a := range sc.Timeline {
		if a.Kind == sim.ActStrike && a.Strike.Side != nil {
			pos.Turn = *a.Strike.Side
			break
		}
	}
	if c.Turn != nil {
		pos.Turn = *c.Turn
	}
	if c.Queen != "" {
		pos.Queen, queenTeam = rules.QueenStatus(c.Queen), c.QueenTeam
	}
	if pos.Queen == rules.QueenAwaitingCover || pos.Queen == rules.QueenCovered {
		for _, p := range h.Players {
			if p.Team == queenTeam {
				pos.QueenSeat = p.Seat
				break
			}
		}
	}
	pos.Awaiting = [2]int{c.AwaitingWhite, c.AwaitingBlack}
	for k := range pos.Men {
		// The context's awaiting men are among those off the board.
		if pos.Men[k]+pos.Awaiting[k] > board.MenPerColour {
			return rs, fmt.Errorf("%s: expect.context: %d %s men awaiting placement, %d on the board", sp.Path, pos.Awaiting[k], board.Kind(k), pos.Men[k])
		}
	}
	if c.Placer != "" {
		s, err := board.ParseSide(c.Placer)
		if err != nil {
			return rs, fmt.Errorf("%s: expect.context.placer: %w", sp.Path, err)
		}
		pos.Placer = s
	}
	h.Position = pos
	if err := h.Validate(); err != nil {
		return rs, fmt.Errorf("%s: the mid-board position: %w", sp.Path, err)
	}
	rs.Log = rules.FormatHeader(h)
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
	switch rs.Mode {
	case ModeResume, ModeMidBoard:
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
	case ModeResume, ModeMidBoard:
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
