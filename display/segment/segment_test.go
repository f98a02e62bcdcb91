package segment_test

import (
	"reflect"
	"testing"

	"github.com/boardcam/boardcam/display/segment"
)

// The digits must have the conventional "gfedcba" patterns that every
// 7-segment datasheet and library uses (e.g. HT16K33 backpacks).
func TestDigitGlyphsAreConventional(t *testing.T) {
	want := []segment.Digit{0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F}
	for i, w := range want {
		g, ok := segment.Glyph(rune('0' + i))
		if !ok || g != w {
			t.Errorf("digit %d: got %#02x, want %#02x", i, g, w)
		}
	}
	if g, _ := segment.Glyph('-'); g != segment.G {
		t.Errorf("'-' = %#02x", g)
	}
}

func TestText(t *testing.T) {
	d, err := segment.Text("q.12")
	if err != nil {
		t.Fatal(err)
	}
	want := []segment.Digit{0x67 | segment.DP, 0x06, 0x5B}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Text(q.12) = %#v, want %#v", d, want)
	}
	if _, err := segment.Text("1X"); err == nil {
		t.Error("Text accepted X, which has no glyph")
	}
}
