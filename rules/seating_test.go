package rules_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

func TestSeat(t *testing.T) {
	var h rules.Header
	first, err := h.Seat([]string{"E=Asha", " W = Ravi "}, nil)
	if err != nil || first != board.E {
		t.Fatalf("singles: %v %v", first, err)
	}
	if want := [2]string{"Asha", "Ravi"}; h.Teams != want || h.Players[1] != (rules.Player{Name: "Ravi", Seat: board.W, Team: 1}) {
		t.Errorf("singles: %+v", h)
	}
	first, err = h.Seat([]string{"S=Asha", "E=Ravi", "N=Meena", "W=Arjun"}, nil)
	if err != nil || first != board.S {
		t.Fatalf("doubles: %v %v", first, err)
	}
	if want := [2]string{"Asha & Meena", "Ravi & Arjun"}; h.Teams != want || len(h.Players) != 4 {
		t.Errorf("doubles: %+v", h)
	}
	if _, err := h.Seat([]string{"S=Asha", "E=Ravi", "N=Meena", "W=Arjun"}, []string{" Club ", "Guests"}); err != nil || h.Teams != [2]string{"Club", "Guests"} {
		t.Errorf("named teams: %v %v", h.Teams, err)
	}
	for _, bad := range []struct {
		players, teams []string
		teamErr        bool
	}{
		{[]string{"Asha", "N=Ravi"}, nil, false},
		{[]string{"S=Asha", "S=Ravi"}, nil, false},
		{[]string{"S=", "N=Ravi"}, nil, false},
		{[]string{"X=Asha", "N=Ravi"}, nil, false},
		{[]string{"S=Asha"}, nil, false},
		{[]string{"S=Asha", "N=Ravi"}, []string{"A", "B"}, true},
		{[]string{"S=Asha", "E=Ravi", "N=Meena", "W=Arjun"}, []string{"A"}, true},
	} {
		var h rules.Header
		_, err := h.Seat(bad.players, bad.teams)
		if err == nil || errors.Is(err, rules.ErrTeamNames) != bad.teamErr {
			t.Errorf("%v %v: %v", bad.players, bad.teams, err)
		}
	}
}

func TestSeatBySide(t *testing.T) {
	ps, teams := rules.SeatBySide(board.N, false)
	want := []rules.Player{{Name: "North", Seat: board.N, Team: 0}, {Name: "South", Seat: board.S, Team: 1}}
	if !reflect.DeepEqual(ps, want) || teams != [2]string{"North", "South"} {
		t.Errorf("singles %+v %v", ps, teams)
	}
	ps, teams = rules.SeatBySide(board.S, true)
	h := rules.Header{Profile: "icf", Players: ps, Teams: teams, Break: board.S}
	if err := h.Validate(); err != nil || teams != [2]string{"South & North", "East & West"} {
		t.Errorf("doubles %+v %v: %v", ps, teams, err)
	}
}
