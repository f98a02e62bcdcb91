package sim

import (
	"fmt"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// PocketedPiece is a disc that fell into a pocket.
type PocketedPiece struct {
	ID     string       `json:"id"`
	Kind   board.Kind   `json:"piece"`
	Pocket board.Pocket `json:"pocket"`
}

// StrokeOutcome is what a turn policy learns of a stroke.
type StrokeOutcome struct {
	Side board.Side
	// Pocketed lists every disc pocketed in the stroke, the striker
	// included, in the order they fell.
	Pocketed []PocketedPiece
	// Overboard lists the discs that left the board other than by a pocket.
	Overboard []string
	// Discs is every disc when the stroke ended.
	Discs []scene.Disc
}

// Return is a disc to be put back on the board before the next stroke.
type Return struct {
	ID string
	// By is who places it: "umpire" or a side ("S", "E", "N", "W").
	By string
	// Centre: on the centre circle (the queen, a jumped man) rather than
	// anywhere inside the outer circle (a due or penalty man).
	Centre bool
}

// Decision is a turn policy's ruling after a stroke.
type Decision struct {
	// Next is the side to strike next.
	Next board.Side
	// Returns are the discs to put back before the next stroke.
	Returns []Return
	// BoardOver is set when the board is finished; Winner is the colour
	// that won it and Reason says why.
	BoardOver bool
	Winner    board.Kind
	Reason    string
	// Notes say in words what the policy decided (for the summary).
	Notes []string
}

// TurnPolicy decides whose turn it is and what is put back after a stroke.
// The simulator needs it to play whole boards automatically; the default,
// [NewSimplePolicy], knows just enough of the laws. The rules engine can be
// plugged in instead.
type TurnPolicy interface {
	// NewBoard starts a board broken from breaker with the discs as they
	// lie (men not on the board count as pocketed; the break is due only
	// when all nineteen pieces are on the board).
	NewBoard(breaker board.Side, discs []scene.Disc)
	// Turn is the side to strike next; Breaking is true until the break
	// has been made.
	Turn() board.Side
	Breaking() bool
	// Colour is the colour of the men the player at s plays.
	Colour(s board.Side) board.Kind
	// QueenAllowed reports whether the player at s may pocket the queen now.
	QueenAllowed(s board.Side) bool
	// Stroke rules on a stroke just played.
	Stroke(o StrokeOutcome) Decision
}

type queenState int

const (
	queenOnBoard queenState = iota
	queenAwaitingCover
	queenCovered
)

// SimplePolicy is the default turn policy:
//   - singles: the breaker and the player opposite; doubles: all four
//     sides, the turn passing to the right (S, E, N, W); the breaker's side
//     (and partner) plays white;
//   - the turn continues when the player pockets a man of its own colour
//     (or the queen, to cover it) without pocketing the striker;
//   - a pocketed striker costs a due: one of the player's pocketed men is
//     placed back inside the outer circle by the next player (owed until
//     one is pocketed); the turn passes;
//   - the queen may be pocketed once the player has pocketed a man of its
//     own; it is covered by pocketing an own man in the same or the next
//     stroke, otherwise the umpire returns it to the centre circle;
//   - men or the queen that jump off the board are returned to the centre
//     circle by the umpire;
//   - the board ends when every man of one colour is off the board; that
//     colour wins it. (The laws' finer points — fouls, the queen left on the
//     board at the end, penalties — are the rules engine's business.)
type SimplePolicy struct {
	players  int
	seats    []board.Side
	turn     int
	breaking bool
	white    [4]bool // by side: plays white
	queen    queenState
	queenBy  board.Kind // colour that pocketed or covered the queen
	owed     [2]int     // dues owed by white (0) and black (1)
	ownOff   [2]int     // men of each colour off the board, not coming back
}

// NewSimplePolicy returns the default policy for 2 or 4 players.
func NewSimplePolicy(players int) *SimplePolicy {
	if players != 4 {
		players = 2
	}
	return &SimplePolicy{players: players}
}

// NewBoard implements TurnPolicy.
func (p *SimplePolicy) NewBoard(breaker board.Side, discs []scene.Disc) {
	p.seats = p.seats[:0]
	p.white = [4]bool{}
	if p.players == 4 {
		for k := range 4 {
			s := board.Side((int(breaker) + k) % 4)
			p.seats = append(p.seats, s)
			p.white[s] = k%2 == 0
		}
	} else {
		p.seats = append(p.seats, breaker, breaker.Opposite())
		p.white[breaker] = true
	}
	// A board with every man and the queen on it is broken first; one
	// arranged part-way through (explicit positions, another scenario's
	// end) is not.
	p.turn = 0
	p.breaking = menOff(discs, board.White)+menOff(discs, board.Black)+menOff(discs, board.Queen) == 0
	p.queen = queenOnBoard
	p.owed = [2]int{}
	p.ownOff = [2]int{menOff(discs, board.White), menOff(discs, board.Black)}
}

// Turn implements TurnPolicy.
func (p *SimplePolicy) Turn() board.Side { return p.seats[p.turn] }

// Breaking implements TurnPolicy.
func (p *SimplePolicy) Breaking() bool { return p.breaking }

// Colour implements TurnPolicy.
func (p *SimplePolicy) Colour(s board.Side) board.Kind {
	if p.white[s] {
		return board.White
	}
	return board.Black
}

func colourIndex(k board.Kind) int {
	if k == board.White {
		return 0
	}
	return 1
}

// menOff counts the men of colour c not on the board in discs.
func menOff(discs []scene.Disc, c board.Kind) int {
	n := 0
	for _, d := range discs {
		if d.Kind == c && !d.State.OnBoard() {
			n++
		}
	}
	return n
}

var _ TurnPolicy = (*SimplePolicy)(nil)

// QueenAllowed implements TurnPolicy: the player must have a man of its
// own off the board and owe no due.
func (p *SimplePolicy) QueenAllowed(s board.Side) bool {
	return p.queen == queenOnBoard && p.owed[colourIndex(p.Colour(s))] == 0 && p.ownOff[colourIndex(p.Colour(s))] > 0
}

// Stroke implements TurnPolicy.
func (p *SimplePolicy) Stroke(o StrokeOutcome) Decision {
	colour := p.Colour(o.Side)
	ci := colourIndex(colour)
	p.breaking = false
	// A scripted stroke may come from any seat: the turn follows it.
	for k, s := range p.seats {
		if s == o.Side {
			p.turn = k
		}
	}
	var own, queenIn, strikerIn int
	for _, pp := range o.Pocketed {
		switch {
		case pp.Kind == colour:
			own++
		case pp.Kind == board.Queen:
			queenIn++
		case pp.Kind == board.Striker:
			strikerIn++
		}
	}
	foul := strikerIn > 0
	d := Decision{}
	returning := map[string]bool{}
	addReturn := func(r Return) {
		if !returning[r.ID] {
			returning[r.ID] = true
			d.Returns = append(d.Returns, r)
		}
	}
	next := p.seats[(p.turn+1)%len(p.seats)]
	umpireQueen := func(why string) {
		addReturn(Return{ID: "Q", By: "umpire", Centre: true})
		p.queen = queenOnBoard
		d.Notes = append(d.Notes, "queen returned: "+why)
	}
	ownBefore := menOff(o.Discs, colour) - own
	continues := own > 0 && !foul
	switch {
	case p.queen == queenAwaitingCover && p.queenBy == colour:
		if own > 0 && !foul {
			p.queen = queenCovered
			d.Notes = append(d.Notes, "queen covered")
		} else if queenIn == 0 {
			umpireQueen("not covered")
		}
	}
	if queenIn > 0 {
		switch {
		case foul:
			umpireQueen("pocketed with the striker")
		case ownBefore+own == 0 || p.owed[ci] > 0:
			umpireQueen("pocketed before an own man")
		case own > 0:
			p.queen, p.queenBy = queenCovered, colour
			d.Notes = append(d.Notes, "queen pocketed and covered")
		default:
			p.queen, p.queenBy = queenAwaitingCover, colour
			continues = true
			d.Notes = append(d.Notes, "queen pocketed, to be covered")
		}
	}
	// Men available to come back, lowest identity first.
	avail := func(c board.Kind) []string {
		var ids []string
		for _, dd := range o.Discs {
			if dd.Kind == c && !dd.State.OnBoard() && !returning[dd.ID] {
				ids = append(ids, dd.ID)
			}
		}
		return ids
	}
	for _, id := range o.Overboard {
		k, _ := board.KindOfID(id)
		if k == board.Striker {
			continue
		}
		if k == board.Queen {
			umpireQueen("jumped off the board")
			continue
		}
		addReturn(Return{ID: id, By: "umpire", Centre: true})
		d.Notes = append(d.Notes, id+" jumped: returned to the centre")
	}
	if foul {
		p.owed[ci]++
		d.Notes = append(d.Notes, fmt.Sprintf("striker pocketed: due from %s", colour))
	}
	for c := range 2 {
		kind := board.White
		if c == 1 {
			kind = board.Black
		}
		for p.owed[c] > 0 {
			ids := avail(kind)
			if len(ids) == 0 {
				break
			}
			p.owed[c]--
			// The opponent of the colour places it.
			by := next
			if p.Colour(by) == kind {
				by = o.Side
				if p.Colour(by) == kind {
					by = by.Right()
				}
			}
			addReturn(Return{ID: ids[0], By: by.String()})
		}
	}
	p.ownOff = [2]int{}
	for _, dd := range o.Discs {
		if (dd.Kind == board.White || dd.Kind == board.Black) && !dd.State.OnBoard() && !returning[dd.ID] {
			p.ownOff[colourIndex(dd.Kind)]++
		}
	}
	for _, kind := range []board.Kind{colour, opposite(colour)} {
		if p.ownOff[colourIndex(kind)] == board.MenPerColour {
			d.BoardOver, d.Winner = true, kind
			d.Reason = fmt.Sprintf("every %s man is off the board", kind)
			break
		}
	}
	if !continues {
		p.turn = (p.turn + 1) % len(p.seats)
	}
	d.Next = p.seats[p.turn]
	return d
}

func opposite(k board.Kind) board.Kind {
	if k == board.White {
		return board.Black
	}
	return board.White
}
