package display

import (
	"fmt"
	"strings"

	"github.com/boardcam/boardcam/rules"
)

// AlertKind is a moment the club should hear (buzzer) or be told about.
type AlertKind uint8

// The alerts, from least to most important. A more important alert
// pre-empts a less important one on the buzzer.
const (
	AlertFoul AlertKind = iota + 1
	AlertQueenPocketed
	AlertBoardWon
	AlertMatchWon
)

func (k AlertKind) String() string {
	switch k {
	case AlertFoul:
		return "foul"
	case AlertQueenPocketed:
		return "queen_pocketed"
	case AlertBoardWon:
		return "board_won"
	case AlertMatchWon:
		return "match_won"
	}
	return fmt.Sprintf("AlertKind(%d)", int(k))
}

// ParseAlertKind reads "foul", "queen_pocketed", "board_won" or "match_won".
func ParseAlertKind(s string) (AlertKind, error) {
	for k := AlertFoul; k <= AlertMatchWon; k++ {
		if strings.EqualFold(s, k.String()) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown alert %q (want foul, queen_pocketed, board_won or match_won)", s)
}

// AlertKinds lists every alert kind.
var AlertKinds = []AlertKind{AlertFoul, AlertQueenPocketed, AlertBoardWon, AlertMatchWon}

// Alert is one alert for the sinks.
type Alert struct {
	Kind AlertKind
	// Team is the team concerned: the team of the player who had the turn
	// (for a foul), the team that pocketed the queen, the board's or the
	// match's winner; -1 when not known.
	Team int
	// Board is the board the alert is about.
	Board int
	// Fouls are the foul codes (AlertFoul only).
	Fouls []string
	// Points is what the winner scored for the board (AlertBoardWon only).
	Points int
}

func (a Alert) String() string {
	var b strings.Builder
	b.WriteString(a.Kind.String())
	if a.Team >= 0 {
		fmt.Fprintf(&b, " team %s", TeamLetter(a.Team))
	}
	if a.Board > 0 {
		fmt.Fprintf(&b, " board %d", a.Board)
	}
	if len(a.Fouls) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(a.Fouls, " "))
	}
	if a.Kind == AlertBoardWon {
		fmt.Fprintf(&b, " +%d", a.Points)
	}
	return b.String()
}

// Alerts lists the alerts raised by the change from prev to next, where next
// is the state after applying one event to prev: a foul (next has fouls),
// the queen pocketed (it left the board into a team's hands), a board won
// (a finished board with a winner was added) and the match won (the match
// became over with a winner), in that order.
//
// Call it once per applied event, not after an undo: the state after an
// undo carries the fouls of the event before the undone one.
func Alerts(prev, next rules.State) []Alert {
	var out []Alert
	if len(next.Fouls) > 0 {
		team := -1
		for _, p := range next.Players {
			if p.Seat == prev.Turn {
				team = p.Team
				break
			}
		}
		out = append(out, Alert{Kind: AlertFoul, Team: team, Board: prev.Board, Fouls: append([]string(nil), next.Fouls...)})
	}
	inHand := func(s rules.QueenStatus) bool {
		return s == rules.QueenAwaitingCover || s == rules.QueenCovered
	}
	if !inHand(prev.Queen.Status) && inHand(next.Queen.Status) && next.Board == prev.Board {
		out = append(out, Alert{Kind: AlertQueenPocketed, Team: next.Queen.Team, Board: next.Board})
	}
	if len(next.Boards) > len(prev.Boards) {
		for _, r := range next.Boards[len(prev.Boards):] {
			if r.Winner >= 0 {
				out = append(out, Alert{Kind: AlertBoardWon, Team: r.Winner, Board: r.Board, Points: r.Points})
			}
		}
	}
	if !prev.MatchOver && next.MatchOver && next.Winner >= 0 {
		out = append(out, Alert{Kind: AlertMatchWon, Team: next.Winner, Board: next.Board})
	}
	return out
}
