package display_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/display/segment"
	"github.com/boardcam/boardcam/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name (or rewrites it with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs\n--- got\n%s--- want\n%s", path, got, want)
	}
}

func TestRenderTextGolden(t *testing.T) {
	pending := displaytest.Singles()
	pending.Queen = rules.Queen{Status: rules.QueenAwaitingCover, Team: 0}
	pending.Teams[1].Score = 29
	foul := displaytest.Singles()
	foul.Fouls = []string{"thumbing", "hand_over_foul_line"}
	foul.Turn = board.N
	won := displaytest.Doubles()
	won.Teams[1].Score = 25
	won.MatchOver, won.Winner = true, 1
	placement := displaytest.Singles()
	placement.Queen = rules.Queen{Status: rules.QueenAwaitingPlacement, Team: -1}
	for _, c := range []struct {
		file  string
		st    rules.State
		lit   bool
		style display.TextStyle
	}{
		{"nomatch.txt", rules.State{}, true, display.StyleBoth},
		{"singles.txt", displaytest.Singles(), true, display.StyleBoth},
		{"pending.txt", pending, true, display.StyleBoth},
		{"doubles.txt", displaytest.Doubles(), true, display.StyleBoth},
		{"foul-lit.txt", foul, true, display.StyleBoth},
		{"foul-dark.txt", foul, false, display.StyleSegments},
		{"won.txt", won, true, display.StyleBoth},
		{"placement-plain.txt", placement, true, display.StylePlain},
	} {
		t.Run(c.file, func(t *testing.T) {
			golden(t, c.file, display.RenderText(display.FromState(c.st, display.Options{}), display.DefaultLayout, c.lit, c.style))
		})
	}
}

// Every digit pattern must draw as the segments it lights: check the art
// of "8." (all on) and of a blank.
func TestSegmentArtCells(t *testing.T) {
	got := display.SegmentArt([]segment.Digit{0xFF, 0}, nil)
	want := " _\n|_|\n|_|.\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = display.SegmentArt([]segment.Digit{segment.B | segment.C, segment.B | segment.C}, display.Layout{{display.FieldScoreA, 1}, {display.FieldScoreB, 1}})
	want = "\n  |    |\n  |    |\n"
	if got != want {
		t.Errorf("gap: got %q, want %q", got, want)
	}
}

func TestParseTextStyle(t *testing.T) {
	for in, want := range map[string]display.TextStyle{"": display.StyleBoth, "both": display.StyleBoth, "segments": display.StyleSegments, "plain": display.StylePlain} {
		if got, err := display.ParseTextStyle(in); err != nil || got != want {
			t.Errorf("ParseTextStyle(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := display.ParseTextStyle("fancy"); err == nil {
		t.Error("accepted fancy")
	}
}
