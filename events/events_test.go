package events

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
)

func TestJSONLines(t *testing.T) {
	evs := []Event{
		{Type: Calibrated, Frame: 0, CornersPx: [][2]float64{{1, 2}, {3, 4}, {5, 6}, {7, 8}}},
		{Type: StrokeStart, Frame: 41, T: 1.367, Side: SidePtr(board.S), StrikerMM: MMPtr(board.V(12.5, 246.1))},
		{Type: Contact, Frame: 47, A: "S", B: "W3"},
		{Type: Pocketed, Frame: 60, T: 2, Piece: KindPtr(board.White), ID: "W3", Pocket: PocketPtr(board.NE)},
		{Type: StrokeEnd, Frame: 90, Pieces: []PieceAt{{Piece: board.Queen, ID: "Q", MM: MM{0, 0}}}},
		{Type: Placed, Frame: 120, Piece: KindPtr(board.Black), MM: MMPtr(board.V(10, -20))},
	}
	wants := []string{
		`{"type":"calibrated","frame":0,"t":0,"corners_px":[[1,2],[3,4],[5,6],[7,8]]}`,
		`{"type":"stroke_start","frame":41,"t":1.367,"side":"S","striker_mm":[12.5,246.1]}`,
		`{"type":"contact","frame":47,"t":0,"a":"S","b":"W3"}`,
		`{"type":"pocketed","frame":60,"t":2,"piece":"white","id":"W3","pocket":"NE"}`,
		`{"type":"stroke_end","frame":90,"t":0,"pieces":[{"piece":"queen","id":"Q","mm":[0,0]}]}`,
		`{"type":"placed","frame":120,"t":0,"piece":"black","mm":[10,-20]}`,
	}
	for i, e := range evs {
		if err := e.Validate(); err != nil {
			t.Errorf("%d: %v", i, err)
		}
		b, err := e.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != wants[i] {
			t.Errorf("%d:\n got %s\nwant %s", i, b, wants[i])
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		b2, _ := back.Marshal()
		if string(b2) != string(b) {
			t.Errorf("%d: round trip %s", i, b2)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	bad := []Event{
		{Type: "splash"},
		{Type: Calibrated, CornersPx: [][2]float64{{1, 2}}},
		{Type: StrokeStart, Side: SidePtr(board.S)},
		{Type: Contact, A: "S"},
		{Type: Pocketed, Piece: KindPtr(board.White)},
		{Type: Placed, Piece: KindPtr(board.White)},
	}
	for _, e := range bad {
		if err := e.Validate(); err == nil {
			t.Errorf("%+v accepted", e)
		}
	}
	var e Event
	if err := json.Unmarshal([]byte(`{"type":"pocketed","piece":"purple"}`), &e); err == nil || !strings.Contains(err.Error(), "purple") {
		t.Errorf("bad kind: %v", err)
	}
}
