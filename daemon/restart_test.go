package daemon

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/match"
)

// A restart continues the unfinished match whatever flags start the
// daemon (a stroke log to resume from, other players, another profile);
// only an explicit new match (Daemon.NewMatch, boardcam new-match) starts
// another, and it closes the unfinished one's journal.
func TestRestartContinuesWhateverFlags(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	logPath := filepath.Join(tmp, "so-far.log")
	if err := os.WriteFile(logPath, []byte(resumeLog), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Source.URI = "events:" + path
	start := func(d *Daemon) *Daemon {
		t.Helper()
		if d.Logger == nil {
			d.Logger = quietLogger()
		}
		if err := d.Initialize(); err != nil {
			t.Fatal(err)
		}
		d.Close()
		return d
	}
	first := start(&Daemon{Sight: testSight, Config: cfg, Resume: logPath})
	want := first.State()
	if first.JournalPath() == "" || want.Teams[0].Name != "Asha" {
		t.Fatalf("the match from the log: %s %+v", first.JournalPath(), want)
	}
	// The same command line again (systemd restarting the service).
	again := start(&Daemon{Sight: testSight, Config: cfg, Resume: logPath})
	// Other flags: another profile and other players, no log.
	other := cfg
	other.Match.Profile = "four-break"
	other.Match.Players = []string{"S=Zed", "N=Yan"}
	changed := start(&Daemon{Sight: testSight, Config: other})
	for name, d := range map[string]*Daemon{"same flags": again, "other flags": changed} {
		if d.JournalPath() != first.JournalPath() || fingerprintOf(d.State()) != fingerprintOf(want) || d.State().Teams[0].Name != "Asha" {
			t.Errorf("restart with %s: journal %s, %+v; want %s, %+v", name, d.JournalPath(), d.State().Teams, first.JournalPath(), want.Teams)
		}
	}
	jf, err := match.ReadJournal(first.JournalPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	if closed, _ := jf.Closed(); closed {
		t.Fatal("a restart closed the match")
	}

	// An explicit new match: the old journal is closed, the new one is
	// the configuration's match, and a restart continues it.
	fresh := start(&Daemon{Sight: testSight, Config: other, NewMatch: true})
	if fresh.JournalPath() == first.JournalPath() || fresh.State().Teams[0].Name != "Zed" || fresh.State().Profile != "four-break" {
		t.Errorf("new match: %s %+v", fresh.JournalPath(), fresh.State().Teams)
	}
	if jf, err = match.ReadJournal(first.JournalPath(), false); err != nil {
		t.Fatal(err)
	}
	if closed, why := jf.Closed(); !closed || !strings.Contains(why, "new match") {
		t.Errorf("the old journal is not closed: %v %q", closed, why)
	}
	if d := start(&Daemon{Sight: testSight, Config: cfg, Resume: logPath}); d.JournalPath() != fresh.JournalPath() {
		t.Errorf("restart after the new match: %s, want %s", d.JournalPath(), fresh.JournalPath())
	}
}

// A start that fails (an unreadable source, a port in use, bad hardware)
// creates no journal: the next start is not a "restart" of a match that
// never ran.
func TestFailedStartCreatesNoJournal(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := busy.Addr().String()
	for name, set := range map[string]func(*Config){
		"unreadable source": func(c *Config) { c.Source.URI = filepath.Join(tmp, "none.mp4") },
		"port in use":       func(c *Config) { c.Source.URI = "events:" + path; c.Web.Listen = &port },
	} {
		cfg := testConfig(t)
		set(&cfg)
		d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger()}
		err := d.Initialize()
		d.Close()
		if err == nil {
			t.Errorf("%s: the start did not fail", name)
			continue
		}
		if p, _ := match.LatestJournal(cfg.Journal.Dir); p != "" {
			t.Errorf("%s (%v): a journal was created: %s", name, err, p)
		}
	}
}
