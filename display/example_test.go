package display_test

import (
	"fmt"
	"os"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/rules"
)

func ExampleRenderText() {
	st := rules.State{
		Players: []rules.Player{{Name: "Asha", Seat: board.S, Team: 0}, {Name: "Ravi", Seat: board.N, Team: 1}},
		Teams:   [2]rules.TeamState{{Score: 12, OnBoard: 5}, {Score: 7, OnBoard: 9}},
		Board:   3,
		Turn:    board.N,
		Queen:   rules.Queen{Status: rules.QueenCovered, Team: 0},
		Winner:  -1,
	}
	sb := display.FromState(st, display.Options{})
	fmt.Print(display.RenderText(sb, display.DefaultLayout, true, display.StyleBoth))
	fmt.Println("turn LEDs:", sb.Turn)
	// Output:
	//      _    _        _             _
	//   |  _|  |_|       _|             |
	//   | |_     |       _|             |
	//
	// board 3  queen: covered by A  turn: N Ravi (B)
	// A  Asha   12  boards 0  men 5
	// B  Ravi    7  boards 0  men 9
	// turn LEDs: [false false true false]
}

// The daemon's loop, with the terminal as the only output.
func ExampleAlerts() {
	term := display.NewTerminal(os.Stdout, display.TerminalOptions{Style: display.StylePlain})
	prev := rules.State{
		Players: []rules.Player{{Name: "Asha", Seat: board.S, Team: 0}, {Name: "Ravi", Seat: board.N, Team: 1}},
		Board:   1, Turn: board.S, Queen: rules.Queen{Status: rules.QueenOnBoard, Team: -1}, Winner: -1,
	}
	next := prev
	next.Turn = board.N
	next.Fouls = []string{"thumbing"}
	for _, a := range display.Alerts(prev, next) {
		term.Alert(a)
	}
	term.Close()
	// Output:
	// ** FOUL by A: thumbing **
}
