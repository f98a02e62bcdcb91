package rules

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
)

// FuzzParseLog: the parser never panics; a log it accepts formats to text
// that parses back to the same header and events; replaying never panics.
// The seed corpus is in testdata/fuzz/FuzzParseLog; the example logs of
// testdata/logs are added as seeds too.
//
//	go test ./rules -run '^$' -fuzz FuzzParseLog -fuzztime 60s
func FuzzParseLog(f *testing.F) {
	logs, _ := filepath.Glob(filepath.Join("..", "testdata", "logs", "*.log"))
	for _, p := range logs {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lg, err := ParseLog(bytes.NewReader(data))
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not a *LineError", err)
			}
			if le.Line < 1 {
				t.Fatalf("error at line %d", le.Line)
			}
			return
		}
		text := lg.Format()
		back, err := ParseLog(strings.NewReader(text))
		if err != nil {
			t.Fatalf("formatted log does not parse: %v\n%s", err, text)
		}
		if !reflect.DeepEqual(back.Header, lg.Header) {
			t.Fatalf("header changed:\n%#v\n%#v", lg.Header, back.Header)
		}
		if len(back.Entries) != len(lg.Entries) {
			t.Fatalf("%d events, then %d", len(lg.Entries), len(back.Entries))
		}
		for i := range lg.Entries {
			if !reflect.DeepEqual(back.Entries[i].Event, lg.Entries[i].Event) {
				t.Fatalf("event %d changed: %#v → %#v", i, lg.Entries[i].Event, back.Entries[i].Event)
			}
		}
		if lg.Header.Profile != "" {
			_, _ = lg.Play(nil) // errors are fine; panics are not
		}
	})
}

// FuzzParsePosition: the position line's parser never panics; a line it
// accepts writes back (Position.String) to a line that reads as the same
// Position; a match started from it (when the header accepts it) has a
// position (PositionOf) that starts a match in the same state, and plays
// on without panicking. The seed corpus is in
// testdata/fuzz/FuzzParsePosition, plus the lines below.
//
//	go test ./rules -run '^$' -fuzz FuzzParsePosition -fuzztime 60s
func FuzzParsePosition(f *testing.F) {
	for _, line := range []string{
		"turn=S white=2 black=3",
		"board=3 breaker=N turn=N white=8 black=1 queen=covered:S awaiting-white=1 awaiting-black=2 placer=S score=13-20 boards=1-1 strokes=40",
		"board=2 turn=E broken=no attempts=2 white=9 black=9 owed-white=1 strokes=2",
		"turn=S white=5 black=6 queen=held owed-black=1",
		"turn=N white=4 black=5 queen=uncovered:S awaiting-white=1 awaiting-black=1 placer-white=N placer-black=S deferred=black",
		"turn=S white=9 black=7 recovered=white passes=S:2,N:1",
		"turn=S white=4 black=3 playing-on=yes score=20-24",
		`board=3 turn=N white=9 black=9 broken=no strokes=0 score=5-0 boards=1-0 demand=S:1 demand-rule="icf: Covering the Queen 31"`,
		"board=4 turn=N white=2 black=3 score=10-12 boards=2-1 time=called",
		"turn=S white=2 black=3 match=disqualified:N:late",
		"turn=S white=2 black=3 match=conceded:S score=29-3",
	} {
		for prof := uint8(0); prof < 5; prof++ {
			f.Add(line, prof, prof%2 == 1)
		}
	}
	f.Fuzz(func(t *testing.T, line string, prof uint8, doubles bool) {
		toks, err := tokenize(line)
		if err != nil {
			return
		}
		p, err := ParsePosition(toks)
		if err != nil {
			return
		}
		back, err := tokenize(p.String())
		if err != nil {
			t.Fatalf("%q writes as %q, which does not tokenize: %v", line, p.String(), err)
		}
		p2, err := ParsePosition(back)
		if err != nil || !reflect.DeepEqual(p2, p) {
			t.Fatalf("%q writes as %q, which reads as %+v (%v), want %+v", line, p.String(), p2, err, p)
		}
		h := Header{Profile: ProfileNames()[int(prof)%len(registry)], Teams: [2]string{"A", "B"}, Break: board.S}
		h.Players = []Player{{"a", board.S, 0}, {"b", board.N, 1}}
		if doubles {
			h.Players = append(h.Players, Player{"c", board.E, 1}, Player{"d", board.W, 0})
			h.Players[1].Seat, h.Players[3].Seat = board.W, board.N
		}
		if err := h.Validate(); err != nil && !strings.HasPrefix(err.Error(), "position:") {
			t.Fatalf("header: %v", err)
		}
		h.Position = p
		m, err := NewMatch(h)
		if err != nil {
			return
		}
		q, ok := PositionOf(m.State())
		if !ok {
			t.Fatalf("%q: no position for the match it starts", line)
		}
		h2 := h
		h2.Position = q
		m2, err := NewMatch(h2)
		if err != nil {
			t.Fatalf("%q: the position of its match, %q, is refused: %v", line, q, err)
		}
		if !reflect.DeepEqual(coreState(m2), coreState(m)) {
			t.Fatalf("%q: the match from its position %q differs:\n%+v\n%+v", line, q, coreState(m2), coreState(m))
		}
		// Play on: nothing panics, and both matches take the same events
		// the same way.
		g := &gen{r: rand.New(rand.NewSource(int64(len(line)))), m: m}
		for i := 0; i < 20; i++ {
			ev := g.event()
			err1 := m.Apply(ev)
			err2 := m2.Apply(ev)
			if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(coreState(m2), coreState(m)) {
				t.Fatalf("%q: after %q the matches differ (%v, %v)", line, FormatEvent(ev), err1, err2)
			}
		}
	})
}
