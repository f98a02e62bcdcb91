package match

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

func testHeader() rules.Header {
	return rules.Header{Profile: "icf", Teams: [2]string{"Asha", "Ravi"}, Break: board.S,
		Players: []rules.Player{{Name: "Asha", Seat: board.S, Team: 0}, {Name: "Ravi", Seat: board.N, Team: 1}}}
}

var t0 = time.Date(2025, 5, 1, 18, 0, 0, 0, time.UTC)

func mustEvent(t *testing.T, line string) rules.Event {
	t.Helper()
	e, err := rules.ParseEvent(line)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func i64(v int64) *int64 { return &v }

// The journal is a stroke log: rules.ParseLog (and so `boardcam score`)
// reads it as it is, and ReadJournal gives back the events with the
// daemon's information.
func TestJournalAppendAndRead(t *testing.T) {
	dir := t.TempDir()
	j, err := CreateJournal(dir, testHeader(), t0)
	if err != nil {
		t.Fatal(err)
	}
	lines := []Line{
		{Meta: Meta{Session: 1, Source: "file:/x.mp4#10", Replayable: true, Stream: 1}},
		{Event: mustEvent(t, "S ww"), Meta: Meta{F: i64(120), E: 2, By: "auto"}},
	}
	if err := j.Commit(lines[:1]); err != nil {
		t.Fatal(err)
	}
	if err := j.Commit(lines[1:]); err != nil {
		t.Fatal(err)
	}
	// A commit of two lines (a correction: undo and the new event).
	if err := j.Commit([]Line{
		{Event: rules.Undo{}, Meta: Meta{F: i64(130), By: "umpire", P: "p1"}},
		{Event: mustEvent(t, "S ww !cut_moon"), Meta: Meta{F: i64(130), By: "umpire", P: "p1", Note: "confirmed"}},
	}); err != nil {
		t.Fatal(err)
	}
	j.Close()

	b, err := os.ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	lg, err := rules.ParseLog(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("the journal is not a stroke log: %v\n%s", err, b)
	}
	if len(lg.Entries) != 3 || lg.Header.Teams != testHeader().Teams {
		t.Fatalf("parsed %d entries, header %+v", len(lg.Entries), lg.Header)
	}
	jf, err := ReadJournal(j.Path(), true)
	if err != nil {
		t.Fatal(err)
	}
	if jf.Repaired != "" {
		t.Errorf("a whole journal was repaired: %s", jf.Repaired)
	}
	if len(jf.Records) != 4 {
		t.Fatalf("%d records, want 4: %+v", len(jf.Records), jf.Records)
	}
	r := jf.Records[1]
	if rules.FormatEvent(r.Event) != "S ww" || r.Meta.F == nil || *r.Meta.F != 120 || r.Meta.E != 2 || r.Meta.By != "auto" {
		t.Errorf("record %+v", r)
	}
	if jf.Records[2].Meta.B != "1/2" || jf.Records[3].Meta.B != "2/2" || jf.Records[3].Meta.Note != "confirmed" {
		t.Errorf("commit tags %q %q", jf.Records[2].Meta.B, jf.Records[3].Meta.B)
	}
	m, err := jf.Replay()
	if err != nil {
		t.Fatal(err)
	}
	st := m.State()
	if st.Strokes != 1 || st.Teams[0].Pocketed != 2 || len(st.Fouls) == 0 {
		t.Errorf("replayed state: strokes %d pocketed %d fouls %v", st.Strokes, st.Teams[0].Pocketed, st.Fouls)
	}
}

func writeJournal(t *testing.T, extra string) string {
	t.Helper()
	dir := t.TempDir()
	j, err := CreateJournal(dir, testHeader(), t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Commit([]Line{{Event: mustEvent(t, "S w"), Meta: Meta{F: i64(10)}}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	f, err := os.OpenFile(j.Path(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(extra); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return j.Path()
}

// A crash leaves at most a line without its newline, NULs, or part of a
// commit: they are cut off (never announced), the rest is kept, and the
// file is repaired so that the next commit starts on a clean line.
func TestJournalTornEnd(t *testing.T) {
	whole := FormatLine(Line{Event: rules.Stroke{Seat: board.S}, Meta: Meta{F: i64(20)}}) + "\n"
	part1 := FormatLine(Line{Event: rules.Undo{}, Meta: Meta{F: i64(30), B: "1/2"}}) + "\n"
	cases := []struct {
		name, tail string
		keep       int // events kept after "S w"
		want       string
	}{
		{"whole", whole, 1, ""},
		{"torn line", whole + "N bb  #@ {\"f\":4", 1, "incomplete last line"},
		{"torn word", "N b", 0, "incomplete last line"},
		{"NULs", whole + "N b\x00\x00\x00\x00", 1, "NULs"},
		{"half a commit", whole + part1, 1, "incomplete commit (1 of 2 lines)"},
		{"half a commit, torn", whole + part1 + "S w  #@ {\"f\":30,\"b\":\"2/", 1, "incomplete commit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeJournal(t, c.tail)
			jf, err := ReadJournal(path, true)
			if err != nil {
				t.Fatal(err)
			}
			if (c.want == "") != (jf.Repaired == "") || !strings.Contains(jf.Repaired, c.want) {
				t.Errorf("repaired %q, want %q", jf.Repaired, c.want)
			}
			if n := len(jf.Events()); n != 1+c.keep {
				t.Errorf("%d events kept, want %d", n, 1+c.keep)
			}
			// The file itself was cut: it reads whole now, and appending
			// works.
			again, err := ReadJournal(path, false)
			if err != nil || again.Repaired != "" {
				t.Fatalf("after repair: %v, repaired %q", err, again.Repaired)
			}
			j, err := openAppend(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Commit([]Line{{Event: rules.Pass{Seat: board.N}}}); err != nil {
				t.Fatal(err)
			}
			j.Close()
			last, err := ReadJournal(path, false)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(last.Events()); n != 2+c.keep {
				t.Errorf("after an append: %d events, want %d", n, 2+c.keep)
			}
		})
	}
}

// Without repair the file is left alone.
func TestJournalReadOnly(t *testing.T) {
	path := writeJournal(t, "N b")
	before, _ := os.ReadFile(path)
	jf, err := ReadJournal(path, false)
	if err != nil || jf.Repaired == "" {
		t.Fatalf("%v %q", err, jf.Repaired)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("ReadJournal without repair changed the file")
	}
}

func TestJournalErrors(t *testing.T) {
	path := writeJournal(t, "S ww !no_such_foul\n")
	if _, err := ReadJournal(path, true); err == nil || !strings.Contains(err.Error(), filepath.Base(path)+":") {
		t.Errorf("bad event line: %v", err)
	}
	path = writeJournal(t, "#@ {not json\n")
	_, err := ReadJournal(path, true)
	if err == nil || !strings.Contains(err.Error(), "not valid") {
		t.Errorf("bad information line: %v", err)
	}
	// An event the rules refuse (the same player twice after a miss).
	path = writeJournal(t, "S -\nS w\n")
	jf, err := ReadJournal(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jf.Replay(); err == nil || !strings.Contains(err.Error(), ":11:") {
		t.Errorf("illegal event: %v", err)
	}
}

func TestLatestJournal(t *testing.T) {
	dir := t.TempDir()
	if p, err := LatestJournal(filepath.Join(dir, "none")); p != "" || err != nil {
		t.Errorf("missing dir: %q %v", p, err)
	}
	a, _ := CreateJournal(dir, testHeader(), t0)
	a.Close()
	b, _ := CreateJournal(dir, testHeader(), t0) // same second: a new name
	b.Close()
	if a.Path() == b.Path() {
		t.Fatal("two journals share a name")
	}
	now := time.Now()
	os.Chtimes(a.Path(), now.Add(-time.Hour), now.Add(-time.Hour))
	os.Chtimes(b.Path(), now, now)
	if p, _ := LatestJournal(dir); p != b.Path() {
		t.Errorf("latest %q, want %q", p, b.Path())
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	if p, _ := LatestJournal(dir); p != b.Path() {
		t.Errorf("latest %q, want %q", p, b.Path())
	}
	// The match closed just before the next was created is written last:
	// still the newer journal is the latest.
	os.Chtimes(a.Path(), now.Add(time.Second), now.Add(time.Second))
	if p, _ := LatestJournal(dir); p != b.Path() {
		t.Errorf("latest after the old one was closed %q, want %q", p, b.Path())
	}
	c, _ := CreateJournal(dir, testHeader(), t0.Add(time.Minute))
	c.Close()
	os.Chtimes(c.Path(), now.Add(-2*time.Hour), now.Add(-2*time.Hour))
	if p, _ := LatestJournal(dir); p != c.Path() {
		t.Errorf("latest %q, want the one created last %q", p, c.Path())
	}
}

// A failed sync is an error: the caller must not announce.
func TestJournalSyncFailure(t *testing.T) {
	j, err := CreateJournal(t.TempDir(), testHeader(), t0)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.sync = func() error { return os.ErrClosed }
	if err := j.Commit([]Line{{Event: rules.Pass{Seat: board.S}}}); err == nil {
		t.Error("a commit whose sync failed returned nil")
	}
}
