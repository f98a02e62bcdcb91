package events

import (
	"strings"
	"testing"
)

func TestDoubtsOnStrokeEnd(t *testing.T) {
	ok := Event{Type: StrokeEnd, Frame: 530, Doubts: []Doubt{{Kind: DoubtFramesMissing, Reason: "frames 512–530 were not analysed while W4 moved towards NE", Frames: [2]int{512, 530}, IDs: []string{"W4"}}}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	if !ok.Uncertain() {
		t.Error("a stroke_end with a doubt is not uncertain")
	}
	b, _ := ok.Marshal()
	if !strings.Contains(string(b), `"doubts":[{"kind":"frames_missing"`) {
		t.Errorf("JSON %s", b)
	}
	for _, bad := range []Doubt{{Kind: "hunch", Reason: "x"}, {Kind: DoubtUnaccounted}} {
		e := Event{Type: StrokeEnd, Doubts: []Doubt{bad}}
		if e.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	plain := Event{Type: StrokeEnd, Pieces: []PieceAt{{ID: "W1"}}}
	if plain.Uncertain() {
		t.Error("a measured stroke_end is uncertain")
	}
	plain.Pieces[0].Inferred = true
	if !plain.Uncertain() {
		t.Error("an inferred place is not uncertain")
	}
}
