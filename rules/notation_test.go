package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
)

func TestParseEvents(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Event
	}{
		{"S -", Stroke{Seat: board.S}},
		{"S", Stroke{Seat: board.S}},
		{"n wwq", Stroke{Seat: board.N, White: 2, Queen: true}},
		{"N w w q", Stroke{Seat: board.N, White: 2, Queen: true}},
		{"E 3wb", Stroke{Seat: board.E, White: 3, Black: 1}},
		{"W bs !push !touched_piece", Stroke{Seat: board.W, Black: 1, Striker: true, Fouls: []Foul{FoulPush, FoulTouchedPiece}}},
		{"S - off:bs", Stroke{Seat: board.S, Overboard: [4]int{0, 1, 0, 1}}},
		{"S - nobreak", Stroke{Seat: board.S, NoBreak: true}},
		{"S w # comment", Stroke{Seat: board.S, White: 1}},
		{"S pass", Pass{Seat: board.S}},
		{"place ww", Place{White: 2}},
		{"place bq !due_on_centre_circle", Place{Black: 1, Queen: true, Fouls: []Foul{FoulDueOnCentreCircle}}},
		{"forfeit", Forfeit{}},
		{"defer", Defer{}},
		{"foul N talking !powder", FoulCall{Seat: board.N, Fouls: []Foul{FoulTalking, FoulPowder}}},
		{"demand", DemandPoints{}},
		{"demand 2", DemandPoints{Points: 2}},
		{"concede E", Concede{Seat: board.E}},
		{"concede E match", Concede{Seat: board.E, Match: true}},
		{"disqualify W late", Disqualify{Seat: board.W, Reason: LossLate}},
		{"replay", Replay{}},
		{"replay no_space", Replay{Reason: ReplayNoSpace}},
		{"time", CallTime{}},
		{"cover", CoverQueen{}},
		{"undo", Undo{}},
	} {
		got, err := ParseEvent(tc.line)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q = %#v, want %#v", tc.line, got, tc.want)
		}
		// Formatting gives the same event back.
		back, err := ParseEvent(FormatEvent(got))
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("%q: FormatEvent %q parses to %#v (%v)", tc.line, FormatEvent(got), back, err)
		}
	}
}

func TestFormatEventCanonical(t *testing.T) {
	for _, tc := range []struct {
		ev   Event
		want string
	}{
		{Stroke{Seat: board.S}, "S -"},
		{Stroke{Seat: board.N, White: 2, Black: 1, Queen: true, Striker: true}, "N wwbqs"},
		{Stroke{Seat: board.E, White: 9}, "E 9w"},
		{Stroke{Seat: board.W, Overboard: [4]int{1, 0, 1, 0}, Fouls: []Foul{FoulPush}, NoBreak: true}, "W - off:wq !push nobreak"},
		{Place{White: 1, Queen: true}, "place wq"},
		{FoulCall{Seat: board.S, Fouls: []Foul{FoulGotUp}}, "foul S !got_up"},
		{Concede{Seat: board.N}, "concede N board"},
	} {
		if got := FormatEvent(tc.ev); got != tc.want {
			t.Errorf("FormatEvent(%#v) = %q, want %q", tc.ev, got, tc.want)
		}
	}
}

func TestParseLogHeader(t *testing.T) {
	lg := mustParse(t, `# a doubles final
profile team-3board
format points-29
title "Inter-hostel final #2"
date 2024-03-09
team "Blue Club" S:"Ravi K" N:Meena
team Red E:Kiran W:Arun
break E

E ww
`)
	h := lg.Header
	want := Header{
		Profile: "team-3board", Format: "points-29", Teams: [2]string{"Blue Club", "Red"}, Break: board.E,
		Players: []Player{{"Ravi K", board.S, 0}, {"Meena", board.N, 0}, {"Kiran", board.E, 1}, {"Arun", board.W, 1}},
		Meta:    []Meta{{"title", "Inter-hostel final #2"}, {"date", "2024-03-09"}},
	}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("header\n got %#v\nwant %#v", h, want)
	}
	if len(lg.Entries) != 1 || lg.Entries[0].Line != 10 {
		t.Fatalf("entries %+v", lg.Entries)
	}
	// FormatHeader round trip.
	back := mustParse(t, FormatHeader(h))
	if !reflect.DeepEqual(back.Header, h) {
		t.Errorf("FormatHeader round trip:\n%s\ngives %#v", FormatHeader(h), back.Header)
	}
	// Singles with player lines.
	lg = mustParse(t, "profile icf\nplayer N Meena Devi\nplayer S Ravi\nbreak N\n")
	if lg.Header.Teams != [2]string{"Meena Devi", "Ravi"} || lg.Header.Players[0].Seat != board.N || lg.Header.Doubles() {
		t.Errorf("singles header %#v", lg.Header)
	}
	if f := FormatHeader(lg.Header); !strings.Contains(f, `player N "Meena Devi"`) {
		t.Errorf("FormatHeader:\n%s", f)
	}
}

func TestParseLogErrors(t *testing.T) {
	const hdr = "profile icf\nplayer S a\nplayer N b\nbreak S\n" // lines 1-4
	for _, tc := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"unknown profile", "profile pool\n", 1, "unknown profile"},
		{"two profiles", "profile icf\nprofile icf\n", 2, "second \"profile\""},
		{"no sides", "profile icf\nbreak S\nS w\n", 3, "two sides"},
		{"no break", "profile icf\nplayer S a\nplayer N b\nS w\n", 4, "break SEAT"},
		{"not opposite", "profile icf\nplayer S a\nplayer E b\nbreak S\n", 3, "opposite"},
		{"break at empty seat", "profile icf\nplayer S a\nplayer N b\nbreak E\n", 4, "no player sits at E"},
		{"bad format", "profile icf\nformat best-of-three\nplayer S a\nplayer N b\nbreak S\n", 2, "no format"},
		{"third side", "profile icf\nplayer S a\nplayer N b\nplayer E c\n", 4, "two sides"},
		{"unterminated quote", "profile icf\ntitle \"abc\n", 2, "unterminated"},
		{"header after events", hdr + "S w\ntitle late\n", 6, "after the first event"},
		{"unknown event", hdr + "S w\nflip S\n", 6, "unknown line"},
		{"bad piece", hdr + "S wx\n", 5, "unexpected"},
		{"bad count", hdr + "S 0w\n", 5, "count of 0"},
		{"too many", hdr + "S wwwwwwwwww\n", 5, "more than 9"},
		{"two queens", hdr + "S qq\n", 5, "one queen"},
		{"unknown foul", hdr + "S - !sneeze\n", 5, "unknown foul"},
		{"dash with pieces", hdr + "S - w\n", 5, "nothing pocketed"},
		{"pass with more", hdr + "S pass w\n", 5, "pass stands alone"},
		{"place nothing", hdr + "place\n", 5, "what"},
		{"place striker", hdr + "place s\n", 5, "striker is not placed"},
		{"foul without code", hdr + "foul N\n", 5, "seat and foul codes"},
		{"demand zero", hdr + "demand 0\n", 5, "not a number"},
		{"concede what", hdr + "concede N game\n", 5, "board or match"},
		{"disqualify why", hdr + "disqualify N rude\n", 5, "unknown reason"},
		{"undo args", hdr + "undo 2\n", 5, "takes nothing"},
		{"control char", hdr + "S w\x01\n", 5, "control character"},
		{"bad utf8", hdr + "S \xff\n", 5, "UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLog(strings.NewReader(tc.text))
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not a *LineError", err)
			}
			if le.Line != tc.line || !strings.Contains(le.Error(), tc.want) {
				t.Errorf("got %q (line %d), want line %d containing %q", le.Error(), le.Line, tc.line, tc.want)
			}
		})
	}
}

func TestPlayErrorsAreLineNumbered(t *testing.T) {
	lg := mustParse(t, singlesHeader+"S ww\n\n# comment\nS w\nN q\n")
	_, err := lg.Play(nil)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 9 {
		t.Fatalf("error %v, want one at line 9", err)
	}
	if want := "line 9: N q: it is Ravi (S)'s turn to strike"; !strings.HasPrefix(le.Error(), want) {
		t.Errorf("error %q, want it to start with %q", le.Error(), want)
	}
	var ie *IllegalEventError
	if !errors.As(err, &ie) {
		t.Error("a replay error does not wrap the IllegalEventError")
	}
}

func TestLongLine(t *testing.T) {
	_, err := ParseLog(strings.NewReader(singlesHeader + "S " + strings.Repeat("w", maxLine) + "\n"))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 5 {
		t.Fatalf("error %v, want a line error at line 5", err)
	}
}
