package rules

import "github.com/boardcam/boardcam/board"

// Event is what the engine applies to a match: a stroke outcome, a
// placement, or an umpire decision. The concrete types are listed below;
// each has a one-line form in the stroke-log notation ([FormatEvent]).
type Event interface {
	isEvent()
}

// Stroke is the outcome of one stroke by the player at Seat.
type Stroke struct {
	Seat board.Side
	// White and Black count the carrommen of each colour pocketed.
	White, Black int
	// Queen and Striker are true when the queen or the striker was
	// pocketed.
	Queen, Striker bool
	// Overboard counts the pieces that left the board, indexed by
	// board.Kind (White, Black, Queen, Striker). Men and the queen that
	// jump are put back in the centre by the umpire.
	Overboard [4]int
	// Fouls lists the fouls of the stroke (codes the profile recognises and
	// does not derive itself). Any foul makes the stroke improper.
	Fouls []Foul
	// NoBreak marks a failed break attempt: the striker did not break the
	// men (it left no base line, or touched no man).
	NoBreak bool
	// Unnoticed: the stroke pocketed an opponent's man and nobody noticed
	// before the player struck again (ICF General Rules 22). The man counts
	// as properly pocketed (where pocketing it is a foul, the foul is not
	// called) and the player plays on until a [Noticed] line ends his turn.
	Unnoticed bool
}

// Pocketed returns how many pieces of kind k the stroke pocketed.
func (s Stroke) Pocketed(k board.Kind) int {
	switch k {
	case board.White:
		return s.White
	case board.Black:
		return s.Black
	case board.Queen:
		return b2i(s.Queen)
	case board.Striker:
		return b2i(s.Striker)
	}
	return 0
}

// Pass: the player at Seat passes his turn without striking (ICF General
// Rules 38: when every player has passed three times in a row the board is
// replayed).
type Pass struct{ Seat board.Side }

// Place puts men awaiting placement (dues, penalties, returned men) and/or
// the queen back on the board. Fouls are fouls committed in placing; they
// are charged to the player placing the men.
type Place struct {
	White, Black int
	Queen        bool
	Fouls        []Foul
	// Unnoticed: the men placed (White or Black) are the placer's own,
	// put down by mistake instead of the other colour's men awaiting
	// placement, and nobody noticed before the next stroke (ICF Dues and
	// Penalties 18): they stay on the board and as many of the men
	// awaiting placement stay in the pockets.
	Unnoticed bool
}

// Forfeit: the men awaiting placement are not placed and stay pocketed
// (ICF Dues and Penalties 15, 19, 24; nit-delhi and jamshedpur "owed
// penalties are lost").
type Forfeit struct{}

// Defer: the men awaiting placement cannot be placed for want of space and
// wait for a later "place" line (ICF Dues and Penalties 13, 16).
type Defer struct{}

// FoulCall is a foul declared by the umpire against the player at Seat
// outside a stroke (or against a player who was not striking).
type FoulCall struct {
	Seat  board.Side
	Fouls []Foul
}

// DemandPoints: the winner of the board just finished demands "if
// demanded" points; Points 0 demands all that are available.
type DemandPoints struct{ Points int }

// Concede: the player at Seat concedes the board (Match false) or the match
// (ICF General Rules 40).
type Concede struct {
	Seat  board.Side
	Match bool
}

// Disqualify: the player at Seat loses the entire match (ICF Loss of
// Entire Match 1-9).
type Disqualify struct {
	Seat   board.Side
	Reason MatchLoss
}

// Replay: the umpire cancels the board and it is played again.
type Replay struct{ Reason ReplayReason }

// CallTime: the umpire calls time on a match with a time limit.
type CallTime struct{}

// CoverQueen: the umpire records a queen that was not covered as covered,
// because the failure went unnoticed before the next stroke (ICF Covering
// the Queen 8).
type CoverQueen struct{}

// Noticed: the player playing on after an unnoticed opponent's man
// ([Stroke.Unnoticed]) is stopped: his turn is lost (ICF General Rules 22,
// "as and when noticed").
type Noticed struct{}

// Undo reverts the last event applied (an "undo" line; [Match.Undo]).
type Undo struct{}

func (Stroke) isEvent()       {}
func (Pass) isEvent()         {}
func (Place) isEvent()        {}
func (Forfeit) isEvent()      {}
func (Defer) isEvent()        {}
func (FoulCall) isEvent()     {}
func (DemandPoints) isEvent() {}
func (Concede) isEvent()      {}
func (Disqualify) isEvent()   {}
func (Replay) isEvent()       {}
func (CallTime) isEvent()     {}
func (CoverQueen) isEvent()   {}
func (Noticed) isEvent()      {}
func (Undo) isEvent()         {}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
