package rules

import "github.com/boardcam/boardcam/board"

// This file is the public state model of a match: what the scoreboard, the
// websocket API, the overlay and the umpire console show. Its JSON field
// names are a published contract (the websocket protocol carries State as
// it is): fields may be added, never renamed or removed.

// Player is one player and where they sit.
type Player struct {
	Name string     `json:"name"`
	Seat board.Side `json:"seat"`
	// Team is 0 or 1. In singles each team is one player; in doubles the
	// partners sit opposite each other.
	Team int `json:"team"`
}

// QueenStatus is where the queen is in the current board.
type QueenStatus string

// The queen's states.
const (
	// QueenOnBoard: on the board (never pocketed, or returned).
	QueenOnBoard QueenStatus = "on_board"
	// QueenAwaitingCover: pocketed by Team, who must cover it next.
	QueenAwaitingCover QueenStatus = "awaiting_cover"
	// QueenAwaitingPlacement: taken out to be placed back in the centre
	// circle by the umpire (not covered, or pocketed improperly).
	QueenAwaitingPlacement QueenStatus = "awaiting_placement"
	// QueenCovered: pocketed and covered by Team.
	QueenCovered QueenStatus = "covered"
)

// Queen is the queen's status in the current board.
type Queen struct {
	Status QueenStatus `json:"status"`
	// Team is the team that pocketed (awaiting cover) or covered the queen,
	// or that failed to cover it (Uncovered); -1 otherwise.
	Team int `json:"team"`
	// Held is true while a queen awaiting placement is kept out until the
	// end of the turn (nit-delhi and jamshedpur: a queen pocketed before
	// the player may cover it returns to the centre at the end of the turn).
	Held bool `json:"held,omitempty"`
	// Uncovered is true while a queen awaiting placement was taken out
	// because Team did not cover it: until the next stroke the umpire may
	// still record it as covered (ICF Covering the Queen 8, a "cover" line).
	Uncovered bool `json:"uncovered,omitempty"`
}

// TeamState is one side of the match.
type TeamState struct {
	Name    string   `json:"name"`
	Players []string `json:"players"`
	// Colour is the colour of carrommen the team plays in the current
	// board: board.White or board.Black.
	Colour board.Kind `json:"colour"`
	// Score is the team's match score (points, as the profile counts them).
	Score int `json:"score"`
	// BoardsWon counts the boards the team has won in this match.
	BoardsWon int `json:"boards_won"`
	// OnBoard is the number of the team's carrommen on the board.
	OnBoard int `json:"on_board"`
	// Pocketed is the number of the team's carrommen pocketed (and not
	// returned) in the current board.
	Pocketed int `json:"pocketed"`
	// Owed counts dues and penalties imposed on the team that cannot be
	// taken out yet because none of its men is pocketed.
	Owed int `json:"owed"`
	// AwaitingPlacement counts the team's men taken out as due or penalty
	// that are waiting to be placed back inside the outer circle.
	AwaitingPlacement int `json:"awaiting_placement"`
	// Deferred is true while those men wait for room on the board (ICF
	// Dues and Penalties 13): they are not placed automatically.
	Deferred bool `json:"deferred,omitempty"`
	// Placer is the seat placing those men ("" when none await).
	Placer string `json:"placer,omitempty"`
	// Recovered is true when none of the team's men is pocketed (all nine
	// are on the board) but one was pocketed earlier in this board and came
	// back as a due or penalty: the team keeps the right to pocket and
	// cover the queen (ICF Covering the Queen 6), as it has whenever
	// Pocketed is not 0.
	Recovered bool `json:"recovered,omitempty"`
}

// BoardResult is how one finished board ended.
type BoardResult struct {
	// Board is the 1-based number of the board in the match.
	Board int `json:"board"`
	// Winner is the team that won the board (-1 for a board replayed or
	// cancelled).
	Winner int `json:"winner"`
	// Points is what the winner scored for the board.
	Points int `json:"points"`
	// Reason says in words how the board ended.
	Reason string `json:"reason"`
	// Rule names the rule applied, e.g. "icf: Covering the Queen 23".
	Rule string `json:"rule"`
	// Demandable is the number of additional points the winner may demand
	// for this board ("if demanded", ICF Covering the Queen 20-39);
	// Demanded is what was demanded and added to Points' team score.
	Demandable int `json:"demandable,omitempty"`
	Demanded   int `json:"demanded,omitempty"`
}

// Demand is an open option to demand additional points for the board
// that has just finished (ICF Dues and Penalties 25).
type Demand struct {
	// Board is the 1-based number of the finished board.
	Board int `json:"board"`
	// Team is the beneficiary, Points the most it may demand.
	Team   int    `json:"team"`
	Points int    `json:"points"`
	Rule   string `json:"rule"`
}

// State is the whole state of a match after an event.
type State struct {
	// Profile is the name of the rule profile ("icf", "team-3board",
	// "nit-delhi", "jamshedpur", "four-break").
	Profile string `json:"profile"`
	// Doubles is true for a doubles match (four players).
	Doubles bool         `json:"doubles"`
	Players []Player     `json:"players"`
	Teams   [2]TeamState `json:"teams"`
	// Board is the 1-based number of the board in play (or the last board,
	// when the match is over).
	Board int `json:"board"`
	// Turn is the seat of the player to strike next.
	Turn board.Side `json:"turn"`
	// Breaking is true until the break of the current board has been made;
	// BreakAttempts counts the failed attempts so far.
	Breaking      bool `json:"breaking"`
	BreakAttempts int  `json:"break_attempts"`
	// Queen is the queen's status in the current board.
	Queen Queen `json:"queen"`
	// Strokes counts the strokes played in the current board.
	Strokes int `json:"strokes"`
	// Passes counts each seat's passes in a row in the current board (ICF
	// General Rules 38: three each and the board is replayed); nil when
	// nobody has passed since the last stroke.
	Passes map[board.Side]int `json:"passes,omitempty"`
	// PlayingOn is true while the player to strike goes on after pocketing
	// an opponent's man unnoticed (ICF General Rules 22) until a "noticed"
	// line ends his turn.
	PlayingOn bool `json:"playing_on,omitempty"`
	// Boards lists the finished boards.
	Boards []BoardResult `json:"boards"`
	// MatchOver is true once the match has a winner (or was conceded);
	// Winner is the winning team, -1 while the match goes on.
	MatchOver bool `json:"match_over"`
	Winner    int  `json:"winner"`
	// Last is the last event applied, in stroke-log notation.
	Last string `json:"last,omitempty"`
	// Fouls lists the fouls called in the last stroke or decision (foul
	// codes, see the profile documentation), so displays can alert.
	Fouls []string `json:"fouls,omitempty"`

	// Format is the match format being played (e.g. "points-29").
	Format string `json:"format,omitempty"`
	// Breaker is the seat that breaks (broke) the current board.
	Breaker board.Side `json:"breaker"`
	// Placer is the seat that places the men awaiting placement ("" when
	// none are awaiting).
	Placer string `json:"placer,omitempty"`
	// Demand is the open "if demanded" option of the board that has just
	// finished; it lapses with the next event of the match.
	Demand *Demand `json:"demand,omitempty"`
	// TimeCalled is true once the umpire has called time (four-break's
	// one-hour limit).
	TimeCalled bool `json:"time_called,omitempty"`
	// MatchResult says how a match ended by a concession or a
	// disqualification ("" otherwise: see Boards and Teams); Ended says
	// who conceded or was disqualified, and why (nil otherwise).
	MatchResult string    `json:"match_result,omitempty"`
	Ended       *MatchEnd `json:"ended,omitempty"`
}

// MatchEnd is a match ended by a concession or a disqualification.
type MatchEnd struct {
	// Seat is the player who conceded or was disqualified: his side loses.
	Seat board.Side `json:"seat"`
	// Reason is the disqualification's reason; "" for a concession.
	Reason MatchLoss `json:"reason,omitempty"`
}

// TeamOf returns the team of the player sitting at seat, or -1 when the
// seat is empty.
func (s State) TeamOf(seat board.Side) int {
	for _, p := range s.Players {
		if p.Seat == seat {
			return p.Team
		}
	}
	return -1
}

// Men returns how many carrommen of colour k (board.White or board.Black)
// are on the board and how many are pocketed (awaiting placement included).
func (s State) Men(k board.Kind) (onBoard, pocketed int) {
	for _, t := range s.Teams {
		if t.Colour == k {
			return t.OnBoard, t.Pocketed
		}
	}
	return 0, 0
}
