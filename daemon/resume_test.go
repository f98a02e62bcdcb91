package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
)

const resumeLog = `profile icf
player S Asha
player N Ravi
break N

N www
N -
S bb
S -
`

// A match resumed from a stroke log: the log's header and lines open the
// journal (marked as the log's), the daemon starts in the state the log
// ends in, and after a restart the journal replays into the same match.
func TestResumeFromLog(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	logPath := filepath.Join(tmp, "so-far.log")
	if err := os.WriteFile(logPath, []byte(resumeLog), 0o644); err != nil {
		t.Fatal(err)
	}
	lg, err := rules.ParseLog(strings.NewReader(resumeLog))
	if err != nil {
		t.Fatal(err)
	}
	m, err := lg.Play(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := m.State()

	cfg := testConfig(t)
	cfg.Source.URI = "events:" + path
	cfg.Match.Profile = "four-break" // the log's header wins
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Resume: logPath}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	got := d.State()
	if fingerprintOf(got) != fingerprintOf(want) || got.Profile != "icf" || got.Teams[0].Name != "Asha" || got.Turn.String() != "N" {
		t.Errorf("resumed state %+v (profile %s, %s), want %+v", fingerprintOf(got), got.Profile, got.Teams[0].Name, fingerprintOf(want))
	}
	jpath := d.JournalPath()
	d.Close()

	jf, err := match.ReadJournal(jpath, false)
	if err != nil {
		t.Fatal(err)
	}
	var fromLog []string
	for _, r := range jf.Records {
		if r.Event != nil {
			if r.Meta.By != match.ByLog {
				t.Errorf("journal line %d %q is not marked as the log's", r.Line, rules.FormatEvent(r.Event))
			}
			fromLog = append(fromLog, rules.FormatEvent(r.Event))
		}
	}
	if strings.Join(fromLog, "|") != "N www|N -|S bb|S -" {
		t.Errorf("journal events %q", fromLog)
	}
	if jf.Header.Teams != [2]string{"Asha", "Ravi"} || jf.Header.Break.String() != "N" {
		t.Errorf("journal header %+v", jf.Header)
	}

	// A restart without --resume carries on with the journal.
	d2 := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger()}
	if err := d2.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if d2.JournalPath() != jpath || fingerprintOf(d2.State()) != fingerprintOf(want) {
		t.Errorf("after a restart: journal %s state %+v, want %s %+v", d2.JournalPath(), fingerprintOf(d2.State()), jpath, fingerprintOf(want))
	}
}

// A board joined in the middle: a log that is only a header with a
// position line starts the match there, the journal keeps the position,
// and a restart replays into the same match.
func TestResumeFromPosition(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	const log = "profile icf\nplayer S Asha\nplayer N Ravi\nbreak S\nposition board=2 turn=S white=4 black=2 queen=pending:S score=3-6 boards=1-0\n"
	logPath := filepath.Join(tmp, "now.log")
	if err := os.WriteFile(logPath, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Source.URI = "events:" + path
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Resume: logPath}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	st := d.State()
	// Board 2 is broken by N, who plays white.
	if st.Board != 2 || st.Turn.String() != "S" || st.Teams[0].Score != 3 || st.Teams[1].Score != 6 || st.Teams[0].Colour.String() != "black" ||
		st.Teams[1].OnBoard != 4 || st.Teams[0].OnBoard != 2 || st.Queen.Status != rules.QueenAwaitingCover || st.Queen.Team != 0 {
		t.Errorf("state %+v", st)
	}
	jpath := d.JournalPath()
	d.Close()
	jf, err := match.ReadJournal(jpath, false)
	if err != nil {
		t.Fatal(err)
	}
	if p := jf.Header.Position; p == nil || p.String() != "board=2 turn=S white=4 black=2 queen=pending:S score=3-6 boards=1-0" {
		t.Errorf("journal position %v", p)
	}
	d2 := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger()}
	if err := d2.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if d2.JournalPath() != jpath || fingerprintOf(d2.State()) != fingerprintOf(st) {
		t.Errorf("after a restart: %s %+v, want %s %+v", d2.JournalPath(), fingerprintOf(d2.State()), jpath, fingerprintOf(st))
	}
}

// A log that cannot be continued is refused with its file and line.
func TestResumeErrors(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	for _, tc := range []struct{ name, log, want string }{
		{"illegal", "profile icf\nplayer S A\nplayer N B\nbreak S\n\nS ww\nN b\n", "bad.log:7: rules: N b: it is A (S)'s turn"},
		{"syntax", "profile icf\nplayer S A\nplayer N B\nbreak S\n\nS wx\n", "bad.log: line 6"},
		{"no profile", "player S A\nplayer N B\nbreak S\n", "profile"},
		{"position", "profile icf\nplayer S A\nplayer N B\nbreak S\nposition turn=E white=1 black=1\n", "bad.log: line 5: position: turn: no player sits at E"},
		{"missing", "", "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lp := filepath.Join(t.TempDir(), "bad.log")
			if tc.name != "missing" {
				os.WriteFile(lp, []byte(tc.log), 0o644)
			}
			cfg := testConfig(t)
			cfg.Source.URI = "events:" + path
			d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Resume: lp}
			err := d.Initialize()
			if err == nil {
				d.Close()
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}
