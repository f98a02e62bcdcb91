package rules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boardcam/boardcam/board"
)

// ErrTeamNames marks a seating error in the team names rather than in the
// players (callers point at the right setting or flag).
var ErrTeamNames = errors.New("team names")

// Seat fills h.Players and h.Teams from players given as "SEAT=NAME"
// items (seat S, E, N or W), in the order listed. Two players are singles
// (the first listed is team 0); four are doubles, the first listed and the
// player opposite being team 0. teams names the two doubles teams; without
// it each team is called after its players ([TeamsOf]). Seat returns the
// first seat listed (the usual breaker) and does not validate the rest of
// the header ([Header.Validate] does). This is the one reading of a seat
// list: the configuration file, the command line and the console's match
// setup all seat players through it or [TeamsOf].
func (h *Header) Seat(players, teams []string) (first board.Side, err error) {
	seated := map[board.Side]string{}
	var order []board.Side
	for _, item := range players {
		seat, nm, ok := strings.Cut(item, "=")
		if !ok {
			return 0, fmt.Errorf("%q is not SEAT=NAME (e.g. S=Asha)", strings.TrimSpace(item))
		}
		s, err := board.ParseSide(strings.TrimSpace(seat))
		if err != nil {
			return 0, err
		}
		nm = strings.TrimSpace(nm)
		if nm == "" {
			return 0, fmt.Errorf("no name for seat %s", s)
		}
		if _, dup := seated[s]; dup {
			return 0, fmt.Errorf("two players at %s", s)
		}
		seated[s] = nm
		order = append(order, s)
	}
	h.Players = nil
	switch len(order) {
	case 2:
		if len(teams) > 0 {
			return 0, fmt.Errorf("%w are for doubles (four players)", ErrTeamNames)
		}
		for t, s := range order {
			h.Players = append(h.Players, Player{Name: seated[s], Seat: s, Team: t})
		}
	case 4:
		first := order[0]
		for _, s := range order {
			t := 1
			if s == first || s == first.Opposite() {
				t = 0
			}
			h.Players = append(h.Players, Player{Name: seated[s], Seat: s, Team: t})
		}
		if len(teams) != 0 && len(teams) != 2 {
			return 0, fmt.Errorf("%w: want two, got %d", ErrTeamNames, len(teams))
		}
	default:
		return 0, fmt.Errorf("%d players: want 2 (singles, opposite seats) or 4 (doubles)", len(order))
	}
	h.Teams = TeamsOf(h.Players)
	if len(teams) == 2 {
		h.Teams = [2]string{strings.TrimSpace(teams[0]), strings.TrimSpace(teams[1])}
	}
	return order[0], nil
}

// TeamsOf names each team after its players in the order listed, joined
// by " & " (a singles team is its player's name).
func TeamsOf(players []Player) [2]string {
	var names [2][]string
	for _, p := range players {
		if p.Team == 0 || p.Team == 1 {
			names[p.Team] = append(names[p.Team], p.Name)
		}
	}
	return [2]string{strings.Join(names[0], " & "), strings.Join(names[1], " & ")}
}

// SeatName is the name a player gets from the seat alone ("South", …),
// when a log or scenario names no players.
var SeatName = [4]string{board.S: "South", board.E: "East", board.N: "North", board.W: "West"}

// SeatBySide seats players named after their sides ([SeatName]) with
// breaker b in team 0: b and the player opposite in singles, all four
// sides in doubles (partners opposite).
func SeatBySide(b board.Side, doubles bool) ([]Player, [2]string) {
	seats := []board.Side{b, b.Opposite()}
	if doubles {
		seats = []board.Side{b, b.Right(), b.Opposite(), b.Left()}
	}
	var ps []Player
	for i, s := range seats {
		ps = append(ps, Player{Name: SeatName[s], Seat: s, Team: i % 2})
	}
	return ps, TeamsOf(ps)
}
