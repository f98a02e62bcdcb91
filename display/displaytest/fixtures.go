package displaytest

import (
	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

// Singles is a singles match in board 3: Asha (team A, seat S) 12 points,
// Ravi (team B, seat N) 7, queen on the board, Asha to strike.
func Singles() rules.State {
	return rules.State{
		Profile: "icf",
		Players: []rules.Player{{Name: "Asha", Seat: board.S, Team: 0}, {Name: "Ravi", Seat: board.N, Team: 1}},
		Teams: [2]rules.TeamState{
			{Players: []string{"Asha"}, Colour: board.White, Score: 12, BoardsWon: 1, OnBoard: 5, Pocketed: 4},
			{Players: []string{"Ravi"}, Colour: board.Black, Score: 7, BoardsWon: 1, OnBoard: 9},
		},
		Board:  3,
		Turn:   board.S,
		Queen:  rules.Queen{Status: rules.QueenOnBoard, Team: -1},
		Winner: -1,
	}
}

// Doubles is a doubles match: team "Mumbai" (S, N) against "Delhi" (E, W),
// with East to strike.
func Doubles() rules.State {
	return rules.State{
		Profile: "icf",
		Doubles: true,
		Players: []rules.Player{
			{Name: "Asha", Seat: board.S, Team: 0}, {Name: "Kiran", Seat: board.E, Team: 1},
			{Name: "Meena", Seat: board.N, Team: 0}, {Name: "Ravi", Seat: board.W, Team: 1},
		},
		Teams: [2]rules.TeamState{
			{Name: "Mumbai", Players: []string{"Asha", "Meena"}, Score: 3, OnBoard: 9},
			{Name: "Delhi", Players: []string{"Kiran", "Ravi"}, Score: 18, BoardsWon: 2, OnBoard: 6},
		},
		Board:  4,
		Turn:   board.E,
		Queen:  rules.Queen{Status: rules.QueenCovered, Team: 1},
		Winner: -1,
	}
}
