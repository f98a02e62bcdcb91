package display_test

import (
	"reflect"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/rules"
)

func TestAlerts(t *testing.T) {
	type tc struct {
		name string
		edit func(prev, next *rules.State)
		want []display.Alert
	}
	cases := []tc{
		{"nothing happened", func(p, n *rules.State) { n.Turn = board.N }, nil},
		{"foul by the striker's team", func(p, n *rules.State) {
			p.Turn, n.Turn = board.N, board.S
			n.Fouls = []string{"thumbing"}
		}, []display.Alert{{Kind: display.AlertFoul, Team: 1, Board: 3, Fouls: []string{"thumbing"}}}},
		{"queen pocketed, awaiting cover", func(p, n *rules.State) {
			n.Queen = rules.Queen{Status: rules.QueenAwaitingCover, Team: 0}
		}, []display.Alert{{Kind: display.AlertQueenPocketed, Team: 0, Board: 3}}},
		{"queen pocketed and covered at once", func(p, n *rules.State) {
			n.Queen = rules.Queen{Status: rules.QueenCovered, Team: 0}
		}, []display.Alert{{Kind: display.AlertQueenPocketed, Team: 0, Board: 3}}},
		{"cover after pocketing is no new alert", func(p, n *rules.State) {
			p.Queen = rules.Queen{Status: rules.QueenAwaitingCover, Team: 0}
			n.Queen = rules.Queen{Status: rules.QueenCovered, Team: 0}
		}, nil},
		{"queen returned is no alert", func(p, n *rules.State) {
			p.Queen = rules.Queen{Status: rules.QueenAwaitingCover, Team: 0}
			n.Queen = rules.Queen{Status: rules.QueenAwaitingPlacement, Team: -1}
		}, nil},
		{"board won", func(p, n *rules.State) {
			n.Board = 4
			n.Boards = []rules.BoardResult{{Board: 3, Winner: 0, Points: 8}}
		}, []display.Alert{{Kind: display.AlertBoardWon, Team: 0, Board: 3, Points: 8}}},
		{"board replayed is no alert", func(p, n *rules.State) {
			n.Board = 4
			n.Boards = []rules.BoardResult{{Board: 3, Winner: -1}}
		}, nil},
		{"foul that ends the match", func(p, n *rules.State) {
			p.Turn = board.N
			n.Fouls = []string{"striker_overboard"}
			n.Boards = []rules.BoardResult{{Board: 3, Winner: 0, Points: 13}}
			n.MatchOver, n.Winner = true, 0
		}, []display.Alert{
			{Kind: display.AlertFoul, Team: 1, Board: 3, Fouls: []string{"striker_overboard"}},
			{Kind: display.AlertBoardWon, Team: 0, Board: 3, Points: 13},
			{Kind: display.AlertMatchWon, Team: 0, Board: 3},
		}},
		{"already over", func(p, n *rules.State) {
			p.MatchOver, p.Winner = true, 0
			n.MatchOver, n.Winner = true, 0
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prev, next := displaytest.Singles(), displaytest.Singles()
			c.edit(&prev, &next)
			got := display.Alerts(prev, next)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v\nwant %v", got, c.want)
			}
		})
	}
}

func TestAlertKinds(t *testing.T) {
	for _, k := range display.AlertKinds {
		got, err := display.ParseAlertKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseAlertKind(%q) = %v, %v", k, got, err)
		}
	}
	if _, err := display.ParseAlertKind("goal"); err == nil {
		t.Error("ParseAlertKind accepted goal")
	}
	a := display.Alert{Kind: display.AlertFoul, Team: 1, Board: 2, Fouls: []string{"push", "thumbing"}}
	if s := a.String(); s != "foul team B board 2 [push thumbing]" {
		t.Errorf("String %q", s)
	}
}
