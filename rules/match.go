package rules

import (
	"fmt"

	"github.com/boardcam/boardcam/board"
)

// colourMen is where the nine men of one colour are. OnBoard + InPocket +
// Awaiting is always nine.
type colourMen struct {
	OnBoard  int // on the playing surface
	InPocket int // pocketed and still in the pockets
	Awaiting int // taken out for placing, not yet placed
	// Owed counts men to be taken out (dues, penalties, pocketed men that
	// come up again) that are not taken out yet: none is in the pockets, or
	// the profile takes them out at the end of the turn.
	Owed int
	// Placer is the seat placing the Awaiting men; Deferred keeps them off
	// the board until an explicit placement (ICF Dues 13).
	Placer   board.Side
	Deferred bool
	// OwnerPlaces marks men owed because the opponent pocketed the side's
	// final piece (nit-delhi Fouls 4): the owners place them.
	OwnerPlaces bool
	// Opened is true once a man of this colour has been pocketed in the
	// board, even if every man pocketed has come back since as a due or
	// penalty: the side keeps the right to pocket and cover the queen
	// (ICF Covering the Queen 1, 6; four-break Queen 1, 5).
	Opened bool
}

// queenCore is the queen's internal state.
type queenCore struct {
	Status QueenStatus
	// Team pocketed (awaiting cover, awaiting placement) or covered the
	// queen; -1 when it is on the board.
	Team int
	// Held keeps a returned queen off the board until the end of the turn.
	Held bool
	// Uncovered marks a queen taken out because the cover failed, which the
	// umpire may still record as covered (ICF Covering the Queen 8).
	Uncovered bool
}

// core is the whole state of a match; it is copied to make history.
type core struct {
	Board    int
	Breaker  board.Side
	Colour   [2]board.Kind // each team's colour in this board
	Men      [2]colourMen  // indexed by board.White, board.Black
	Queen    queenCore
	Turn     board.Side
	Breaking bool
	Attempts int
	Strokes  int
	Passes   [4]int // consecutive passes per seat
	// PlayingOn: the player to strike goes on after pocketing an
	// opponent's man unnoticed (ICF General Rules 22), until noticed.
	PlayingOn bool

	Scores, BoardsWon [2]int
	Results           []BoardResult
	Decided           int // boards with a winner
	Demand            *Demand
	Over              bool
	Winner            int
	Forced            bool     // conceded or disqualified
	End               MatchEnd // who conceded or was disqualified
	Result            string   // how a forced match ended
	TimeCalled        bool

	Last  string
	Fouls []string
}

func (c core) clone() core {
	c.Results = append([]BoardResult(nil), c.Results...)
	c.Fouls = append([]string(nil), c.Fouls...)
	if c.Demand != nil {
		d := *c.Demand
		c.Demand = &d
	}
	return c
}

// normalize clears what no longer means anything, so that one state has
// one form (a position line gives it back exactly): the placer and the
// deferral of men no longer awaiting placement, the owners' placing once
// nothing is owed, the team of a queen on the board or awaiting placement
// (unless left uncovered).
func (c *core) normalize() {
	for k := range c.Men {
		cm := &c.Men[k]
		if cm.Awaiting == 0 {
			cm.Placer, cm.Deferred = 0, false
		}
		if cm.Owed == 0 {
			cm.OwnerPlaces = false
		}
	}
	q := &c.Queen
	if q.Status == QueenOnBoard || (q.Status == QueenAwaitingPlacement && !q.Uncovered) {
		q.Team = -1
	}
	if q.Status != QueenAwaitingPlacement {
		q.Held, q.Uncovered = false, false
	}
}

// Match is a match being played: apply events to advance it.
type Match struct {
	header Header
	prof   *Profile
	format Format
	teamOf [4]int // team at each seat, -1 when empty
	st     core
	hist   []record
}

type record struct {
	ev     Event
	before core
}

// NewMatch starts a match: the first board is set up and the header's
// breaker is to strike.
func NewMatch(h Header) (*Match, error) {
	if err := h.Validate(); err != nil {
		return nil, fmt.Errorf("rules: header: %w", err)
	}
	p, _ := ProfileByName(h.Profile)
	f, _ := p.Format(h.Format)
	m := &Match{header: h, prof: p, format: f, teamOf: [4]int{-1, -1, -1, -1}}
	m.header.Players = append([]Player(nil), h.Players...)
	m.header.Meta = append([]Meta(nil), h.Meta...)
	for _, pl := range h.Players {
		m.teamOf[pl.Seat] = pl.Team
	}
	m.st.Winner = -1
	if h.Position != nil {
		p := *h.Position
		m.header.Position = &p
		if err := m.setUp(&m.st, &p); err != nil {
			return nil, fmt.Errorf("rules: header: %w", err)
		}
		return m, nil
	}
	m.newBoard(&m.st, h.Break)
	return m, nil
}

// Profile returns the match's rule profile.
func (m *Match) Profile() *Profile { return m.prof }

// Format returns the match format.
func (m *Match) Format() Format { return m.format }

// Header returns the match header.
func (m *Match) Header() Header {
	h := m.header
	h.Players = append([]Player(nil), h.Players...)
	h.Meta = append([]Meta(nil), h.Meta...)
	if h.Position != nil {
		p := *h.Position
		h.Position = &p
	}
	return h
}

// History returns the events applied so far (undone ones excluded).
func (m *Match) History() []Event {
	out := make([]Event, len(m.hist))
	for i, r := range m.hist {
		out[i] = r.ev
	}
	return out
}

// IllegalEventError is returned by [Match.Apply] for an event that is not
// legal in the current state.
type IllegalEventError struct {
	Event  string // the event in notation
	Reason string
}

func (e *IllegalEventError) Error() string { return "rules: " + e.Event + ": " + e.Reason }

// Apply applies one event. On error the match is unchanged.
func (m *Match) Apply(e Event) error {
	if e == nil {
		return &IllegalEventError{Event: "(nil)", Reason: "no event"}
	}
	if _, ok := e.(Undo); ok {
		return m.Undo()
	}
	next := m.st.clone()
	next.Fouls = nil
	if err := m.apply(&next, e); err != nil {
		return &IllegalEventError{Event: FormatEvent(e), Reason: err.Error()}
	}
	next.normalize()
	next.Last = FormatEvent(e)
	m.hist = append(m.hist, record{ev: e, before: m.st})
	m.st = next
	return nil
}

// Undo reverts the last event applied.
func (m *Match) Undo() error {
	if len(m.hist) == 0 {
		return &IllegalEventError{Event: "undo", Reason: "nothing to undo"}
	}
	last := m.hist[len(m.hist)-1]
	m.hist = m.hist[:len(m.hist)-1]
	m.st = last.before
	return nil
}

func (m *Match) apply(c *core, e Event) error {
	if _, ok := e.(DemandPoints); !ok {
		c.Demand = nil // the option lapses with the next event
	}
	if c.Over {
		if _, ok := e.(DemandPoints); !ok {
			return fmt.Errorf("the match is over (%s won)", m.header.Teams[c.Winner])
		}
	}
	switch ev := e.(type) {
	case Stroke:
		return m.stroke(c, ev)
	case Pass:
		return m.pass(c, ev)
	case Place:
		return m.place(c, ev)
	case Forfeit:
		return m.forfeit(c)
	case Defer:
		return m.deferPlacement(c)
	case FoulCall:
		return m.foulCall(c, ev)
	case DemandPoints:
		return m.demand(c, ev)
	case Concede:
		return m.concede(c, ev)
	case Disqualify:
		return m.disqualify(c, ev)
	case Replay:
		return m.replay(c, ev)
	case CallTime:
		return m.callTime(c)
	case CoverQueen:
		return m.coverQueen(c)
	case Noticed:
		return m.noticed(c)
	}
	return fmt.Errorf("unknown event type %T", e)
}

// State returns a deep copy of the match state.
func (m *Match) State() State {
	c := &m.st
	st := State{
		Profile:       m.prof.Name,
		Doubles:       m.header.Doubles(),
		Players:       append([]Player(nil), m.header.Players...),
		Board:         c.Board,
		Turn:          c.Turn,
		Breaking:      c.Breaking,
		BreakAttempts: c.Attempts,
		Queen:         Queen{Status: c.Queen.Status, Team: c.Queen.Team, Held: c.Queen.Held, Uncovered: c.Queen.Uncovered},
		PlayingOn:     c.PlayingOn,
		Strokes:       c.Strokes,
		Boards:        append([]BoardResult{}, c.Results...),
		MatchOver:     c.Over,
		Winner:        c.Winner,
		Last:          c.Last,
		Fouls:         append([]string(nil), c.Fouls...),
		Format:        m.format.Name,
		Breaker:       c.Breaker,
		TimeCalled:    c.TimeCalled,
		MatchResult:   c.Result,
	}
	if st.Queen.Status == QueenOnBoard || (st.Queen.Status == QueenAwaitingPlacement && !st.Queen.Uncovered) {
		st.Queen.Team = -1
	}
	if c.Demand != nil {
		d := *c.Demand
		st.Demand = &d
	}
	if c.Forced {
		e := c.End
		st.Ended = &e
	}
	for seat, n := range c.Passes {
		if n > 0 {
			if st.Passes == nil {
				st.Passes = map[board.Side]int{}
			}
			st.Passes[board.Side(seat)] = n
		}
	}
	for t := 0; t < 2; t++ {
		cm := c.Men[c.Colour[t]]
		ts := TeamState{
			Name:              m.header.Teams[t],
			Colour:            c.Colour[t],
			Score:             c.Scores[t],
			BoardsWon:         c.BoardsWon[t],
			OnBoard:           cm.OnBoard,
			Pocketed:          cm.InPocket + cm.Awaiting,
			Owed:              cm.Owed,
			AwaitingPlacement: cm.Awaiting,
			Deferred:          cm.Deferred,
			Recovered:         cm.Opened && cm.InPocket+cm.Awaiting == 0,
		}
		if cm.Awaiting > 0 {
			ts.Placer = cm.Placer.String()
		}
		for _, p := range m.header.Players {
			if p.Team == t {
				ts.Players = append(ts.Players, p.Name)
			}
		}
		st.Teams[t] = ts
		if cm.Awaiting > 0 && st.Placer == "" {
			st.Placer = cm.Placer.String()
		}
	}
	return st
}

// next returns the seat that plays after seat.
func (m *Match) next(seat board.Side) board.Side {
	if !m.header.Doubles() {
		return seat.Opposite()
	}
	if m.prof.Direction == Clockwise {
		return seat.Left()
	}
	return seat.Right()
}

func (m *Match) seatName(seat board.Side) string {
	if p, ok := m.header.PlayerAt(seat); ok {
		return fmt.Sprintf("%s (%s)", p.Name, seat)
	}
	return seat.String()
}

func (m *Match) teamName(t int) string { return m.header.Teams[t] }

// teamOfColour returns the team playing colour k in the current board.
func (c *core) teamOfColour(k board.Kind) int {
	if c.Colour[0] == k {
		return 0
	}
	return 1
}

// newBoard sets up the next board with breaker to break.
func (m *Match) newBoard(c *core, breaker board.Side) {
	c.Board++
	c.Breaker, c.Turn = breaker, breaker
	t := m.teamOf[breaker]
	c.Colour[t], c.Colour[1-t] = board.White, board.Black
	c.Men = [2]colourMen{{OnBoard: board.MenPerColour}, {OnBoard: board.MenPerColour}}
	c.Queen = queenCore{Status: QueenOnBoard, Team: -1}
	c.Breaking, c.Attempts, c.Strokes = true, 0, 0
	c.Passes = [4]int{}
	c.PlayingOn = false
}
