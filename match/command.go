package match

import (
	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

// Command names (Command.Name).
const (
	CmdConfirm     = "confirm"      // confirm pending decision Pending
	CmdOverrule    = "overrule"     // overrule pending decision Pending
	CmdUndo        = "undo"         // revert the last rules event
	CmdFoul        = "foul"         // declare foul Code against Seat
	CmdDemand      = "demand"       // Team, the last board's winner, demands Points "if demanded" points
	CmdConcede     = "concede"      // Team concedes the match
	CmdReplayBoard = "replay_board" // replay the current board
	CmdNextBoard   = "next_board"   // start the next board
	CmdStartMatch  = "start_match"  // start a new match with Match
	CmdCalibrate   = "calibrate"    // calibrate from four corners
	CmdCorrect     = "correct"      // settle pending decision Pending with the events of Notation instead
)

// Who decides (Command.By, and the journal's "by").
const (
	ByAuto   = "auto"
	ByUmpire = "umpire"
	ByButton = "button"
)

// Command is one umpire command. Fields that do not apply to Name are
// left out; the web console's and the buttons' commands are converted to
// it at their edge.
type Command struct {
	Name string
	// By says who gave it: ByUmpire (the console), ByButton.
	By string
	// Pending is the id of a pending decision (confirm, overrule,
	// correct); empty for confirm and overrule: the oldest.
	Pending string
	// Seat is the offending player (foul).
	Seat *board.Side
	// Code is a foul code of the match's profile (foul).
	Code string
	// Team is 0 or 1 (demand: the team the points go to; concede: the
	// team conceding); Points what is demanded (0: all available).
	Team   *int
	Points int
	// Note is the umpire's remark, kept in the journal.
	Note string
	// Notation is what happened instead of a pending decision (correct).
	Notation string
	// Match describes the new match (start_match).
	Match *Setup
	// CornersPx are the corners of the playing surface (calibrate).
	CornersPx [][2]float64
}

// Setup is a new match: the profile, the players and the breaker.
type Setup struct {
	Profile string
	Players []rules.Player
	Breaker board.Side
}
