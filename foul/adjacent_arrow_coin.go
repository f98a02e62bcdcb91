package foul

import "github.com/boardcam/boardcam/events"

// AdjacentArrowCoin: the striker hit a man lying on an arrow toward one of
// the two pockets of the striker's side (team-3board General Rules 8: "If
// the coin is on the adjacent arrow, it should not be hit"). The camera
// sees the strike and the striker's contacts; the referee judges from the
// man's place at rest before the stroke (referee/arrowcoin.go).
const AdjacentArrowCoin Code = "adjacent_arrow_coin"

func init() {
	Register(Desc{Code: AdjacentArrowCoin, Summary: "coin lying on the adjacent arrow was hit",
		Heading: "'s striker hit a coin on the adjacent arrow",
		Refs:    map[string]string{"team-3board": "General Rules 8"},
		Camera: &Camera{
			Sees:    []events.Type{events.StrokeStart, events.Contact},
			RestsOn: StrikerContacts | PiecePlaces,
			Truth: Truth{Tag: "adjacent_arrow_coin", Required: true,
				How: "a strike at a man lying on an arrow toward a pocket of the striker's side, under team-3board (corpus: adjacent-arrow-coin)"},
		}})
}
