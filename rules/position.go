package rules

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/boardcam/boardcam/board"
)

// Position is where a log starts when it does not start at the opening of
// the first board: the optional `position` header line. It is what an
// umpire reads off a board in play when boardcam is switched on in the
// middle of a board (and what a test clip that starts mid-board sets up),
// much as a FEN tag starts a chess game from a given position.
//
//	position turn=N white=2 black=3 queen=covered:S score=6-0 boards=1-0 board=2
//
// A position can say everything the engine keeps about a match, so that
// every state the engine reaches can be written as a position and read
// back to the same state ([PositionOf]); what it does not hold is the
// history (the results of the boards before, the last event and its
// fouls). Men pocketed are the nine of a colour less those on the board and
// those awaiting placement. Zero values are the defaults of the line: the
// break made, nothing owed, awaiting, passed or held.
type Position struct {
	// Board is the 1-based number of the board in play (default 1).
	Board int
	// Breaker is the seat that broke the current board; its side plays
	// white. Zero value: the header's breaker, passed on board by board in
	// the order of play.
	Breaker    board.Side
	HasBreaker bool
	// Turn is the seat to strike next.
	Turn board.Side
	// Breaking is true while the break of the board is not made yet
	// (broken=no); Attempts counts the failed attempts of the player to
	// strike.
	Breaking bool
	Attempts int
	// Men counts the carrommen of each colour on the board, indexed by
	// board.White and board.Black.
	Men [2]int
	// Awaiting counts the men of each colour taken out as dues or
	// penalties and waiting to be placed: by Placer, or, with
	// ColourPlacers, by Placers[colour].
	Awaiting      [2]int
	Placer        board.Side
	ColourPlacers bool
	Placers       [2]board.Side
	// Deferred: the colour's men awaiting placement wait for room on the
	// board (ICF Dues and Penalties 13).
	Deferred [2]bool
	// Owed counts the dues and penalties of each colour not yet taken out
	// (none pocketed to take them from, or taken out at the end of the
	// turn).
	Owed [2]int
	// Recovered: all nine men of the colour are on the board, but one was
	// pocketed earlier in the board and came back as a due or penalty: the
	// side may still pocket and cover the queen (ICF Covering the Queen 6).
	Recovered [2]bool
	// Queen is where the queen is; QueenSeat is a seat of the side that
	// pocketed (awaiting cover), covered or failed to cover
	// (QueenUncovered) it. QueenHeld: awaiting placement, kept out until
	// the end of the turn (nit-delhi, jamshedpur Covering the Queen 2).
	Queen          QueenStatus
	QueenSeat      board.Side
	QueenHeld      bool
	QueenUncovered bool
	// Passes counts each seat's passes in a row (ICF General Rules 38),
	// indexed by seat.
	Passes [4]int
	// PlayingOn: the player to strike goes on after pocketing an
	// opponent's man unnoticed (ICF General Rules 22).
	PlayingOn bool
	// Scores and BoardsWon are each side's match points and boards won so
	// far (indexed like Header.Teams): before the board in play, or, in a
	// finished match, in all.
	Scores, BoardsWon [2]int
	// Strokes counts the strokes already played in the current board
	// (default 1, the break; 0 while the board is not broken).
	Strokes int
	// TimeCalled: the umpire has called time (four-break's hour).
	TimeCalled bool
	// DemandPoints, when not 0, are the "if demanded" points the side of
	// DemandSeat may still take for the board just finished, by the rule
	// DemandRule (a row of the profile's board endings).
	DemandPoints int
	DemandSeat   board.Side
	DemandRule   string
	// Ended is set for a match ended by a concession or a
	// disqualification.
	Ended *MatchEnd
}

// positionKeys lists the words of a position line, in the order
// FormatHeader writes them.
var positionKeys = []string{"board", "breaker", "turn", "broken", "attempts", "white", "black", "queen",
	"awaiting-white", "awaiting-black", "placer", "placer-white", "placer-black", "deferred",
	"owed-white", "owed-black", "recovered", "passes", "playing-on", "score", "boards", "strokes",
	"time", "demand", "demand-rule", "match"}

var colourNames = [2]string{"white", "black"}

// ParsePosition reads the words of a position line (after the keyword):
// KEY=VALUE pairs, turn, white and black required.
func ParsePosition(args []string) (*Position, error) {
	p := &Position{Board: 1, Queen: QueenOnBoard}
	seen := map[string]bool{}
	var colourPlacer [2]bool
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		k = strings.ToLower(k)
		if !ok || v == "" {
			return nil, fmt.Errorf("position: %q is not KEY=VALUE (keys: %s)", a, strings.Join(positionKeys, ", "))
		}
		if seen[k] {
			return nil, fmt.Errorf("position: %s given twice", k)
		}
		seen[k] = true
		var err error
		switch k {
		case "board":
			p.Board, err = count(v, 1, 1000)
		case "breaker":
			p.Breaker, err = parseSeat(v)
			p.HasBreaker = true
		case "turn":
			p.Turn, err = parseSeat(v)
		case "broken":
			var broken bool
			broken, err = yesNo(v)
			p.Breaking = !broken
		case "attempts":
			p.Attempts, err = count(v, 0, 100)
		case "white", "black":
			p.Men[colourOf(k)], err = count(v, 0, board.MenPerColour)
		case "awaiting-white", "awaiting-black":
			p.Awaiting[colourOf(k)], err = count(v, 0, board.MenPerColour)
		case "owed-white", "owed-black":
			p.Owed[colourOf(k)], err = count(v, 0, 1000)
		case "placer":
			p.Placer, err = parseSeat(v)
		case "placer-white", "placer-black":
			p.Placers[colourOf(k)], err = parseSeat(v)
			p.ColourPlacers = true
			colourPlacer[colourOf(k)] = true
		case "deferred":
			p.Deferred, err = colourSet(v)
		case "recovered":
			p.Recovered, err = colourSet(v)
		case "queen":
			err = p.parseQueen(v)
		case "passes":
			err = p.parsePasses(v)
		case "playing-on":
			p.PlayingOn, err = yesNo(v)
		case "score":
			p.Scores, err = scorePair(v, 1000)
		case "boards":
			p.BoardsWon, err = scorePair(v, 1000)
		case "strokes":
			p.Strokes, err = count(v, 0, 100000)
		case "time":
			if strings.ToLower(v) != "called" {
				err = fmt.Errorf("%q: the only value is called (time=called)", v)
			}
			p.TimeCalled = true
		case "demand":
			err = p.parseDemand(v)
		case "demand-rule":
			p.DemandRule, err = v, checkName(v)
		case "match":
			err = p.parseEnded(v)
		default:
			return nil, fmt.Errorf("position: unknown key %q (keys: %s)", k, strings.Join(positionKeys, ", "))
		}
		if err != nil {
			return nil, fmt.Errorf("position: %s: %w", k, err)
		}
	}
	for _, k := range []string{"turn", "white", "black"} {
		if !seen[k] {
			return nil, fmt.Errorf("position: %s= is required (position turn=S white=4 black=5)", k)
		}
	}
	if !seen["strokes"] && !p.Breaking {
		p.Strokes = 1
	}
	if err := p.check(seen["placer"], colourPlacer); err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	return p, nil
}

// check is what can be checked of a position without the header.
func (p *Position) check(placer bool, colourPlacer [2]bool) error {
	for k, name := range colourNames {
		if p.Men[k]+p.Awaiting[k] > board.MenPerColour {
			return fmt.Errorf("%d %s men on the board and %d awaiting placement: a colour has %d", p.Men[k], name, p.Awaiting[k], board.MenPerColour)
		}
		if p.Deferred[k] && p.Awaiting[k] == 0 {
			return fmt.Errorf("deferred=%s without %s men awaiting placement", name, name)
		}
		if p.Recovered[k] && p.Men[k] != board.MenPerColour {
			return fmt.Errorf("recovered=%s: the %s men pocketed have all come back, so the nine are on the board (%s=9)", name, name, name)
		}
		if p.ColourPlacers && (p.Awaiting[k] > 0) != colourPlacer[k] {
			if p.Awaiting[k] > 0 {
				return fmt.Errorf("%d %s men awaiting placement need placer-%s=SEAT (who places them)", p.Awaiting[k], name, name)
			}
			return fmt.Errorf("placer-%s= without %s men awaiting placement", name, name)
		}
	}
	awaiting := p.Awaiting[0]+p.Awaiting[1] > 0
	switch {
	case p.ColourPlacers && placer:
		return errors.New("placer= with placer-white= or placer-black=: write one or the other")
	case !p.ColourPlacers && awaiting && !placer:
		return errors.New("men awaiting placement need placer=SEAT (who places them)")
	case !p.ColourPlacers && !awaiting && placer:
		return errors.New("placer= without men awaiting placement")
	}
	if p.Attempts > 0 && !p.Breaking {
		return errors.New("attempts= counts failed break attempts: only with broken=no")
	}
	if p.Breaking {
		switch {
		case p.Men != [2]int{board.MenPerColour, board.MenPerColour} || awaiting || p.Queen != QueenOnBoard:
			return errors.New("broken=no: before the break every man and the queen are on the board (white=9 black=9)")
		case p.Passes != [4]int{}:
			return errors.New("broken=no: nobody passes before the break")
		case p.PlayingOn:
			return errors.New("broken=no: nothing has been pocketed to play on after")
		case p.Strokes < p.Attempts:
			return fmt.Errorf("strokes=%d, fewer than the %d failed attempts", p.Strokes, p.Attempts)
		}
	} else if p.Strokes < 1 {
		return errors.New("strokes=0: the board is broken, so at least the break was played (or write broken=no)")
	}
	if (p.DemandPoints > 0) != (p.DemandRule != "") {
		return errors.New("demand=SEAT:POINTS and demand-rule=RULE go together")
	}
	if p.DemandPoints > 0 && p.Ended != nil {
		return errors.New("demand= in a match ended by a concession or a disqualification")
	}
	return nil
}

func colourOf(key string) int {
	if strings.HasSuffix(key, "black") {
		return int(board.Black)
	}
	return int(board.White)
}

func yesNo(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "yes":
		return true, nil
	case "no":
		return false, nil
	}
	return false, fmt.Errorf("%q: want yes or no", v)
}

// colourSet reads "white", "black" or "white,black".
func colourSet(v string) ([2]bool, error) {
	var out [2]bool
	for _, c := range strings.Split(strings.ToLower(v), ",") {
		switch c {
		case "white":
			out[board.White] = true
		case "black":
			out[board.Black] = true
		default:
			return out, fmt.Errorf("%q: want white, black or white,black", v)
		}
	}
	return out, nil
}

func colourSetString(s [2]bool) string {
	var out []string
	for k, name := range colourNames {
		if s[k] {
			out = append(out, name)
		}
	}
	return strings.Join(out, ",")
}

func (p *Position) parseQueen(v string) error {
	st, seat, hasSeat := strings.Cut(strings.ToLower(v), ":")
	switch st {
	case "on":
		p.Queen = QueenOnBoard
	case "out":
		p.Queen = QueenAwaitingPlacement
	case "held":
		p.Queen, p.QueenHeld = QueenAwaitingPlacement, true
	case "uncovered":
		p.Queen, p.QueenUncovered = QueenAwaitingPlacement, true
	case "pending":
		p.Queen = QueenAwaitingCover
	case "covered":
		p.Queen = QueenCovered
	default:
		return fmt.Errorf("%q: want on, out (awaiting placement), held (out until the end of the turn), uncovered:SEAT (out, not covered by SEAT's side: it may still be recorded covered), pending:SEAT (to be covered) or covered:SEAT", v)
	}
	needSeat := p.Queen == QueenAwaitingCover || p.Queen == QueenCovered || p.QueenUncovered
	if needSeat != hasSeat {
		if needSeat {
			return fmt.Errorf("%q: say whose, e.g. %s:S", v, st)
		}
		return fmt.Errorf("%q: %s takes no seat", v, st)
	}
	if hasSeat {
		s, err := parseSeat(seat)
		if err != nil {
			return err
		}
		p.QueenSeat = s
	}
	return nil
}

// parsePasses reads "S:1,N:2".
func (p *Position) parsePasses(v string) error {
	for _, part := range strings.Split(v, ",") {
		seat, n, ok := strings.Cut(part, ":")
		if !ok {
			return fmt.Errorf("%q: want SEAT:N for each seat that passed, e.g. S:1,N:2", v)
		}
		s, err := parseSeat(seat)
		if err != nil {
			return err
		}
		if p.Passes[s] != 0 {
			return fmt.Errorf("%q: %s given twice", v, s)
		}
		if p.Passes[s], err = count(n, 1, 3); err != nil {
			return err
		}
	}
	return nil
}

// parseDemand reads "SEAT:POINTS".
func (p *Position) parseDemand(v string) error {
	seat, n, ok := strings.Cut(v, ":")
	if !ok {
		return fmt.Errorf("%q: want SEAT:POINTS, e.g. N:1 (with demand-rule=\"icf: Covering the Queen 31\")", v)
	}
	s, err := parseSeat(seat)
	if err != nil {
		return err
	}
	p.DemandSeat = s
	p.DemandPoints, err = count(n, 1, 9)
	return err
}

// parseEnded reads "conceded:SEAT" or "disqualified:SEAT:REASON".
func (p *Position) parseEnded(v string) error {
	parts := strings.Split(v, ":")
	bad := fmt.Errorf("%q: want conceded:SEAT or disqualified:SEAT:REASON (%s)", v, lossList())
	if len(parts) < 2 {
		return bad
	}
	s, err := parseSeat(parts[1])
	if err != nil {
		return err
	}
	switch {
	case strings.ToLower(parts[0]) == "conceded" && len(parts) == 2:
		p.Ended = &MatchEnd{Seat: s}
	case strings.ToLower(parts[0]) == "disqualified" && len(parts) == 3:
		r := MatchLoss(strings.ToLower(parts[2]))
		if r.Rule() == 0 {
			return bad
		}
		p.Ended = &MatchEnd{Seat: s, Reason: r}
	default:
		return bad
	}
	return nil
}

func count(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q: want a number from %d to %d", v, lo, hi)
	}
	return n, nil
}

// scorePair reads "A-B".
func scorePair(v string, hi int) ([2]int, error) {
	a, b, ok := strings.Cut(v, "-")
	if !ok {
		return [2]int{}, fmt.Errorf("%q: want A-B (first side's, then second side's)", v)
	}
	x, err := count(a, 0, hi)
	if err != nil {
		return [2]int{}, err
	}
	y, err := count(b, 0, hi)
	if err != nil {
		return [2]int{}, err
	}
	return [2]int{x, y}, nil
}

// String writes the position line's words (after the keyword), each key
// that differs from its default.
func (p *Position) String() string {
	w := []string{}
	add := func(format string, a ...any) { w = append(w, fmt.Sprintf(format, a...)) }
	if p.Board != 1 {
		add("board=%d", p.Board)
	}
	if p.HasBreaker {
		add("breaker=%s", p.Breaker)
	}
	add("turn=%s", p.Turn)
	if p.Breaking {
		add("broken=no")
	}
	if p.Attempts != 0 {
		add("attempts=%d", p.Attempts)
	}
	add("white=%d", p.Men[board.White])
	add("black=%d", p.Men[board.Black])
	switch {
	case p.Queen == QueenAwaitingPlacement && p.QueenHeld:
		add("queen=held")
	case p.Queen == QueenAwaitingPlacement && p.QueenUncovered:
		add("queen=uncovered:%s", p.QueenSeat)
	case p.Queen == QueenAwaitingPlacement:
		add("queen=out")
	case p.Queen == QueenAwaitingCover:
		add("queen=pending:%s", p.QueenSeat)
	case p.Queen == QueenCovered:
		add("queen=covered:%s", p.QueenSeat)
	}
	for k, name := range colourNames {
		if p.Awaiting[k] > 0 {
			add("awaiting-%s=%d", name, p.Awaiting[k])
		}
	}
	if p.ColourPlacers {
		for k, name := range colourNames {
			if p.Awaiting[k] > 0 {
				add("placer-%s=%s", name, p.Placers[k])
			}
		}
	} else if p.Awaiting[0]+p.Awaiting[1] > 0 {
		add("placer=%s", p.Placer)
	}
	if p.Deferred != [2]bool{} {
		add("deferred=%s", colourSetString(p.Deferred))
	}
	for k, name := range colourNames {
		if p.Owed[k] > 0 {
			add("owed-%s=%d", name, p.Owed[k])
		}
	}
	if p.Recovered != [2]bool{} {
		add("recovered=%s", colourSetString(p.Recovered))
	}
	if p.Passes != [4]int{} {
		var ps []string
		for _, s := range board.Sides {
			if p.Passes[s] > 0 {
				ps = append(ps, fmt.Sprintf("%s:%d", s, p.Passes[s]))
			}
		}
		add("passes=%s", strings.Join(ps, ","))
	}
	if p.PlayingOn {
		add("playing-on=yes")
	}
	if p.Scores != [2]int{} {
		add("score=%d-%d", p.Scores[0], p.Scores[1])
	}
	if p.BoardsWon != [2]int{} {
		add("boards=%d-%d", p.BoardsWon[0], p.BoardsWon[1])
	}
	if def := b2i(!p.Breaking); p.Strokes != def {
		add("strokes=%d", p.Strokes)
	}
	if p.TimeCalled {
		add("time=called")
	}
	if p.DemandPoints > 0 {
		add("demand=%s:%d", p.DemandSeat, p.DemandPoints)
		add("demand-rule=%s", quote(p.DemandRule))
	}
	if e := p.Ended; e != nil {
		if e.Reason == "" {
			add("match=conceded:%s", e.Seat)
		} else {
			add("match=disqualified:%s:%s", e.Seat, e.Reason)
		}
	}
	return strings.Join(w, " ")
}

// validate checks the position against the seating of h (and, for a
// Position not read from a line, what ParsePosition checks).
func (p *Position) validate(h Header) error {
	given := [2]bool{p.ColourPlacers && p.Awaiting[0] > 0, p.ColourPlacers && p.Awaiting[1] > 0}
	if err := p.check(!p.ColourPlacers && p.Awaiting[0]+p.Awaiting[1] > 0, given); err != nil {
		return fmt.Errorf("position: %w", err)
	}
	seated := func(what string, s board.Side) error {
		if _, ok := h.PlayerAt(s); !ok {
			return fmt.Errorf("position: %s: no player sits at %s", what, s)
		}
		return nil
	}
	if err := seated("turn", p.Turn); err != nil {
		return err
	}
	if p.HasBreaker {
		if err := seated("breaker", p.Breaker); err != nil {
			return err
		}
	}
	for k, name := range colourNames {
		if p.Awaiting[k] == 0 {
			continue
		}
		what, s := "placer", p.Placer
		if p.ColourPlacers {
			what, s = "placer-"+name, p.Placers[k]
		}
		if err := seated(what, s); err != nil {
			return err
		}
	}
	if p.Queen == QueenAwaitingCover || p.Queen == QueenCovered || p.QueenUncovered {
		if err := seated("queen", p.QueenSeat); err != nil {
			return err
		}
	}
	if p.DemandPoints > 0 {
		if err := seated("demand", p.DemandSeat); err != nil {
			return err
		}
	}
	if p.Ended != nil {
		if err := seated("match", p.Ended.Seat); err != nil {
			return err
		}
	}
	all := true
	for _, s := range board.Sides {
		if p.Passes[s] == 0 {
			if _, ok := h.PlayerAt(s); ok {
				all = false
			}
			continue
		}
		if err := seated("passes", s); err != nil {
			return err
		}
		if p.Passes[s] < 3 {
			all = false
		}
	}
	if all {
		return errors.New("position: passes: every player has passed three times in a row: the board is replayed (ICF General Rules 38)")
	}
	if p.Queen == QueenAwaitingCover {
		if t, ok := h.PlayerAt(p.Turn); ok {
			if q, _ := h.PlayerAt(p.QueenSeat); q.Team != t.Team {
				return fmt.Errorf("position: the queen awaits %s's cover, but it is %s's turn", h.Teams[q.Team], h.Teams[t.Team])
			}
		}
	}
	return nil
}

// setUp puts the match in the position (NewMatch, after the header is
// checked) and checks what needs the profile: the match over or not, the
// board in play, the queen held, the time called, the points to demand.
func (m *Match) setUp(c *core, p *Position) error {
	prof := m.prof
	breaker := p.Breaker
	if !p.HasBreaker {
		breaker = m.header.Break
		for b := 1; b < p.Board; b++ {
			breaker = m.next(breaker)
		}
	}
	m.newBoard(c, breaker)
	c.Board = p.Board
	c.Turn = p.Turn
	c.Breaking, c.Attempts, c.Strokes = p.Breaking, p.Attempts, p.Strokes
	for k := range c.Men {
		cm := colourMen{OnBoard: p.Men[k], Awaiting: p.Awaiting[k], InPocket: board.MenPerColour - p.Men[k] - p.Awaiting[k],
			Owed: p.Owed[k], Deferred: p.Deferred[k]}
		cm.Opened = cm.InPocket+cm.Awaiting > 0 || p.Recovered[k]
		if cm.Awaiting > 0 {
			cm.Placer = p.Placer
			if p.ColourPlacers {
				cm.Placer = p.Placers[k]
			}
		}
		c.Men[k] = cm
	}
	c.Queen = queenCore{Status: p.Queen, Team: -1, Held: p.QueenHeld, Uncovered: p.QueenUncovered}
	if p.Queen == QueenAwaitingCover || p.Queen == QueenCovered || p.QueenUncovered {
		c.Queen.Team = m.teamOf[p.QueenSeat]
	}
	c.Passes = p.Passes
	c.PlayingOn = p.PlayingOn
	c.Scores, c.BoardsWon = p.Scores, p.BoardsWon
	c.Decided = p.BoardsWon[0] + p.BoardsWon[1]
	c.TimeCalled = p.TimeCalled
	if p.Ended != nil {
		m.endMatch(c, *p.Ended)
	} else {
		m.evaluate(c)
	}
	if p.DemandPoints > 0 {
		c.Demand = &Demand{Board: c.Board - 1, Team: m.teamOf[p.DemandSeat], Points: p.DemandPoints, Rule: p.DemandRule}
		if c.Over {
			c.Demand.Board = c.Board
		}
	}
	c.normalize()

	switch {
	case p.QueenHeld && prof.QueenRules != QueenTurn:
		return fmt.Errorf("position: queen=held: under %s a queen pocketed too early does not wait for the end of the turn", prof.Name)
	case p.TimeCalled && m.format.TimeLimit == 0:
		return fmt.Errorf("position: time=called: the %s format has no time limit", m.format.Name)
	case p.Breaking && p.Attempts >= prof.BreakAttempts:
		return fmt.Errorf("position: attempts=%d: after %d failed attempts the next player breaks", p.Attempts, prof.BreakAttempts)
	}
	if c.Demand != nil {
		if err := m.checkDemand(c.Demand); err != nil {
			return fmt.Errorf("position: %w", err)
		}
	}
	decided := c.Decided
	if c.Over {
		if decided > c.Board {
			return fmt.Errorf("position: board=%d with %d boards won", p.Board, decided)
		}
		return nil
	}
	if decided >= c.Board {
		return fmt.Errorf("position: board=%d with %d boards already won", p.Board, decided)
	}
	if c.Demand != nil && c.Demand.Board < 1 {
		return errors.New("position: demand= on the first board: no board has ended yet")
	}
	for k, name := range colourNames {
		cm := c.Men[k]
		if cm.OnBoard+cm.Awaiting+cm.Owed == 0 && c.Queen.Status == QueenCovered {
			return fmt.Errorf("position: every %s man is pocketed and the queen is covered: the board is over", name)
		}
	}
	if c.Queen.Status == QueenOnBoard && p.Men[0]+p.Men[1] == 0 && p.Awaiting[0]+p.Awaiting[1] == 0 {
		return errors.New("position: only the queen is on the board")
	}
	return nil
}

// checkDemand checks an open demand of a position against the profile's
// board endings.
func (m *Match) checkDemand(d *Demand) error {
	if !m.prof.Demands {
		return fmt.Errorf("demand=: %s gives no \"if demanded\" points", m.prof.Name)
	}
	var refs []string
	for _, r := range m.prof.Finish {
		if r.Demand == 0 {
			continue
		}
		if strings.EqualFold(r.Ref, d.Rule) {
			if d.Points > r.Demand {
				return fmt.Errorf("demand=%d: %s gives at most %d", d.Points, r.Ref, r.Demand)
			}
			d.Rule = r.Ref
			return nil
		}
		refs = append(refs, r.Ref)
	}
	sort.Strings(refs)
	return fmt.Errorf("demand-rule=%q: not one of the %s board endings that give points to demand (%s)", d.Rule, m.prof.Name, strings.Join(dedupe(refs), "; "))
}

func dedupe(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// PositionOf is the position of a match state, for a log that starts
// there. Every state a match reaches has one: a match started from it is
// in the same state (the history excepted: the results of the boards
// before, the last event and its fouls). ok is false only for a state no
// match gives (a seat or team nobody holds).
func PositionOf(st State) (p *Position, ok bool) {
	p = &Position{Board: st.Board, Breaker: st.Breaker, HasBreaker: true, Turn: st.Turn,
		Breaking: st.Breaking, Attempts: st.BreakAttempts, Queen: st.Queen.Status,
		QueenHeld: st.Queen.Held, QueenUncovered: st.Queen.Uncovered, PlayingOn: st.PlayingOn,
		Strokes: st.Strokes, TimeCalled: st.TimeCalled}
	seatOf := func(team int) (board.Side, bool) {
		for _, pl := range st.Players {
			if pl.Team == team {
				return pl.Seat, true
			}
		}
		return 0, false
	}
	var placers [2]board.Side
	for t, ts := range st.Teams {
		k := ts.Colour
		if k != board.White && k != board.Black {
			return nil, false
		}
		p.Men[k], p.Awaiting[k], p.Owed[k], p.Deferred[k] = ts.OnBoard, ts.AwaitingPlacement, ts.Owed, ts.Deferred
		p.Recovered[k] = ts.Recovered
		p.Scores[t], p.BoardsWon[t] = ts.Score, ts.BoardsWon
		if ts.AwaitingPlacement > 0 {
			s, err := parseSeat(ts.Placer)
			if err != nil {
				return nil, false
			}
			placers[k] = s
		}
	}
	switch {
	case p.Awaiting[0] > 0 && p.Awaiting[1] > 0 && placers[0] != placers[1]:
		p.ColourPlacers, p.Placers = true, placers
	case p.Awaiting[0] > 0:
		p.Placer = placers[0]
	case p.Awaiting[1] > 0:
		p.Placer = placers[1]
	}
	if p.Queen == QueenAwaitingCover || p.Queen == QueenCovered || p.QueenUncovered {
		if p.QueenSeat, ok = seatOf(st.Queen.Team); !ok {
			return nil, false
		}
	}
	for s, n := range st.Passes {
		if s < board.S || s > board.W {
			return nil, false
		}
		p.Passes[s] = n
	}
	if d := st.Demand; d != nil {
		if p.DemandSeat, ok = seatOf(d.Team); !ok {
			return nil, false
		}
		p.DemandPoints, p.DemandRule = d.Points, d.Rule
	}
	if st.Ended != nil {
		e := *st.Ended
		p.Ended = &e
	}
	return p, true
}
