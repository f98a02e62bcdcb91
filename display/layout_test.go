package display_test

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/display"
)

func TestParseLayout(t *testing.T) {
	l, err := display.ParseLayout("score_a:2 queen_a board:2, queen_b score_b")
	if err != nil {
		t.Fatal(err)
	}
	if l.String() != display.DefaultLayout.String() {
		t.Errorf("got %q, want %q", l, display.DefaultLayout)
	}
	if l.Digits() != 8 {
		t.Errorf("digits %d", l.Digits())
	}
	for _, tc := range []struct{ in, err string }{
		{"", "no cells"},
		{"score_c:2", `unknown field "score_c"`},
		{"score_a:x", `cell 1 "score_a:x": width "x"`},
		{"board:2 score_a:9", `cell 2 "score_a:9"`},
		{strings.Repeat("score_a:8 ", 9), "more than 64"},
	} {
		_, err := display.ParseLayout(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseLayout(%q) error %v, want %q", tc.in, err, tc.err)
		}
	}
}

func TestLayoutFit(t *testing.T) {
	for _, tc := range []struct {
		l      display.Layout
		digits int
		want   string
		err    bool
	}{
		{nil, 8, display.DefaultLayout.String(), false},
		{nil, 16, display.DefaultLayout.String() + " " + display.DefaultLayout.String(), false},
		{nil, 4, display.ShortLayout.String(), false},
		{nil, 2, "score_a:2", false},
		{display.ShortLayout, 8, display.ShortLayout.String(), false},
		{display.DefaultLayout, 4, "", true},
	} {
		got, err := tc.l.Fit(tc.digits)
		if (err != nil) != tc.err || (err == nil && got.String() != tc.want) {
			t.Errorf("%q.Fit(%d) = %q, %v; want %q (error %v)", tc.l, tc.digits, got, err, tc.want, tc.err)
		}
	}
}

func TestLayoutText(t *testing.T) {
	var l display.Layout
	if err := l.UnmarshalText([]byte("men_a men_b")); err != nil || l.Digits() != 2 {
		t.Fatalf("UnmarshalText: %v %v", l, err)
	}
	b, _ := l.MarshalText()
	if string(b) != "men_a:1 men_b:1" {
		t.Errorf("MarshalText %q", b)
	}
	if err := l.UnmarshalText([]byte("nope")); err == nil {
		t.Error("UnmarshalText accepted nope")
	}
}
