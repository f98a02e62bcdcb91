package rules

import (
	"errors"
	"fmt"
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
// The break of the current board has been made. Men pocketed are the nine
// of a colour less those on the board and those awaiting placement.
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
	// Men counts the carrommen of each colour on the board, indexed by
	// board.White and board.Black.
	Men [2]int
	// Awaiting counts the men of each colour taken out as dues or
	// penalties and waiting to be placed by Placer.
	Awaiting [2]int
	Placer   board.Side
	// Queen is where the queen is; QueenSeat is a seat of the side that
	// pocketed (awaiting cover) or covered it.
	Queen     QueenStatus
	QueenSeat board.Side
	// Scores and BoardsWon are each side's match points and boards won
	// before the current board (indexed like Header.Teams).
	Scores, BoardsWon [2]int
	// Strokes counts the strokes already played in the current board
	// (default 1: the break).
	Strokes int
}

// positionKeys lists the words of a position line, in the order
// FormatHeader writes them.
var positionKeys = []string{"board", "breaker", "turn", "white", "black", "queen", "awaiting-white", "awaiting-black", "placer", "score", "boards", "strokes"}

// ParsePosition reads the words of a position line (after the keyword):
// KEY=VALUE pairs, turn, white and black required.
func ParsePosition(args []string) (*Position, error) {
	p := &Position{Board: 1, Queen: QueenOnBoard, Strokes: 1}
	seen := map[string]bool{}
	placer := false
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
		case "white":
			p.Men[board.White], err = count(v, 0, board.MenPerColour)
		case "black":
			p.Men[board.Black], err = count(v, 0, board.MenPerColour)
		case "awaiting-white":
			p.Awaiting[board.White], err = count(v, 0, board.MenPerColour)
		case "awaiting-black":
			p.Awaiting[board.Black], err = count(v, 0, board.MenPerColour)
		case "placer":
			p.Placer, err = parseSeat(v)
			placer = true
		case "queen":
			err = p.parseQueen(v)
		case "score":
			p.Scores, err = scorePair(v, 1000)
		case "boards":
			p.BoardsWon, err = scorePair(v, 1000)
		case "strokes":
			p.Strokes, err = count(v, 1, 100000)
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
	if (p.Awaiting[0]+p.Awaiting[1] > 0) != placer {
		if placer {
			return nil, errors.New("position: placer= without men awaiting placement")
		}
		return nil, errors.New("position: men awaiting placement need placer=SEAT (who places them)")
	}
	return p, nil
}

func (p *Position) parseQueen(v string) error {
	st, seat, hasSeat := strings.Cut(strings.ToLower(v), ":")
	switch st {
	case "on":
		p.Queen = QueenOnBoard
	case "out":
		p.Queen = QueenAwaitingPlacement
	case "pending":
		p.Queen = QueenAwaitingCover
	case "covered":
		p.Queen = QueenCovered
	default:
		return fmt.Errorf("%q: want on, out (awaiting placement), pending:SEAT (to be covered) or covered:SEAT", v)
	}
	needSeat := p.Queen == QueenAwaitingCover || p.Queen == QueenCovered
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
	if p.Board != 1 {
		w = append(w, fmt.Sprintf("board=%d", p.Board))
	}
	if p.HasBreaker {
		w = append(w, "breaker="+p.Breaker.String())
	}
	w = append(w, "turn="+p.Turn.String(), fmt.Sprintf("white=%d", p.Men[board.White]), fmt.Sprintf("black=%d", p.Men[board.Black]))
	switch p.Queen {
	case QueenAwaitingPlacement:
		w = append(w, "queen=out")
	case QueenAwaitingCover:
		w = append(w, "queen=pending:"+p.QueenSeat.String())
	case QueenCovered:
		w = append(w, "queen=covered:"+p.QueenSeat.String())
	}
	if p.Awaiting[board.White] > 0 {
		w = append(w, fmt.Sprintf("awaiting-white=%d", p.Awaiting[board.White]))
	}
	if p.Awaiting[board.Black] > 0 {
		w = append(w, fmt.Sprintf("awaiting-black=%d", p.Awaiting[board.Black]))
	}
	if p.Awaiting[0]+p.Awaiting[1] > 0 {
		w = append(w, "placer="+p.Placer.String())
	}
	if p.Scores != [2]int{} {
		w = append(w, fmt.Sprintf("score=%d-%d", p.Scores[0], p.Scores[1]))
	}
	if p.BoardsWon != [2]int{} {
		w = append(w, fmt.Sprintf("boards=%d-%d", p.BoardsWon[0], p.BoardsWon[1]))
	}
	if p.Strokes != 1 {
		w = append(w, fmt.Sprintf("strokes=%d", p.Strokes))
	}
	return strings.Join(w, " ")
}

// validate checks the position against the seating of h.
func (p *Position) validate(h Header) error {
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
	if p.Awaiting[0]+p.Awaiting[1] > 0 {
		if err := seated("placer", p.Placer); err != nil {
			return err
		}
	}
	if p.Queen == QueenAwaitingCover || p.Queen == QueenCovered {
		if err := seated("queen", p.QueenSeat); err != nil {
			return err
		}
	}
	for k, name := range []string{"white", "black"} {
		if p.Men[k]+p.Awaiting[k] > board.MenPerColour {
			return fmt.Errorf("position: %d %s men on the board and %d awaiting placement: a colour has %d", p.Men[k], name, p.Awaiting[k], board.MenPerColour)
		}
		if p.Men[k]+p.Awaiting[k] == 0 && p.Queen == QueenCovered {
			return fmt.Errorf("position: every %s man is pocketed and the queen is covered: the board is over", name)
		}
	}
	if p.Queen == QueenAwaitingCover {
		if t, ok := h.PlayerAt(p.Turn); ok {
			if q, _ := h.PlayerAt(p.QueenSeat); q.Team != t.Team {
				return fmt.Errorf("position: the queen awaits %s's cover, but it is %s's turn", h.Teams[q.Team], h.Teams[t.Team])
			}
		}
	}
	if p.Queen == QueenOnBoard && p.Men[0]+p.Men[1] == 0 && p.Awaiting[0]+p.Awaiting[1] == 0 {
		return errors.New("position: only the queen is on the board")
	}
	if p.BoardsWon[0]+p.BoardsWon[1] >= p.Board {
		return fmt.Errorf("position: board=%d with %d boards already won", p.Board, p.BoardsWon[0]+p.BoardsWon[1])
	}
	return nil
}

// setUp puts the match in the position (NewMatch, after the header is
// checked).
func (m *Match) setUp(c *core, p *Position) error {
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
	c.Breaking, c.Attempts, c.Strokes = false, 0, p.Strokes
	for k := range c.Men {
		c.Men[k] = colourMen{OnBoard: p.Men[k], Awaiting: p.Awaiting[k], InPocket: board.MenPerColour - p.Men[k] - p.Awaiting[k]}
		c.Men[k].Opened = c.Men[k].InPocket+c.Men[k].Awaiting > 0
		if p.Awaiting[k] > 0 {
			c.Men[k].Placer = p.Placer
		}
	}
	c.Queen = queenCore{Status: p.Queen, Team: -1}
	if p.Queen == QueenAwaitingCover || p.Queen == QueenCovered {
		c.Queen.Team = m.teamOf[p.QueenSeat]
	}
	c.Scores, c.BoardsWon = p.Scores, p.BoardsWon
	c.Decided = p.BoardsWon[0] + p.BoardsWon[1]
	m.evaluate(c)
	if c.Over {
		return fmt.Errorf("position: score=%d-%d boards=%d-%d: the match is already over (format %s)", p.Scores[0], p.Scores[1], p.BoardsWon[0], p.BoardsWon[1], m.format.Name)
	}
	return nil
}

// PositionOf is the position of a match state, for a log that starts
// there: ok is false where the state holds what a position line cannot
// say (the break not yet made, a finished match, an open demand, owed or
// deferred men, a queen held until the end of the turn, men of both
// colours awaiting placement).
func PositionOf(st State) (p *Position, ok bool) {
	if st.Breaking || st.MatchOver || st.Demand != nil || st.Queen.Held {
		return nil, false
	}
	p = &Position{Board: st.Board, Breaker: st.Breaker, HasBreaker: true, Turn: st.Turn, Queen: st.Queen.Status, Strokes: st.Strokes}
	if p.Strokes < 1 {
		p.Strokes = 1
	}
	for t, ts := range st.Teams {
		if ts.Owed > 0 || ts.Deferred {
			return nil, false
		}
		p.Men[ts.Colour], p.Awaiting[ts.Colour] = ts.OnBoard, ts.AwaitingPlacement
		p.Scores[t], p.BoardsWon[t] = ts.Score, ts.BoardsWon
	}
	if p.Awaiting[0] > 0 && p.Awaiting[1] > 0 {
		return nil, false // each colour may have its own placer
	}
	if p.Awaiting[0]+p.Awaiting[1] > 0 {
		s, err := parseSeat(st.Placer)
		if err != nil {
			return nil, false
		}
		p.Placer = s
	}
	if p.Queen == QueenAwaitingCover || p.Queen == QueenCovered {
		found := false
		for _, pl := range st.Players {
			if pl.Team == st.Queen.Team {
				p.QueenSeat, found = pl.Seat, true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return p, true
}
