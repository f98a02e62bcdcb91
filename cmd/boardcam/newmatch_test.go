package main

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/match"
)

// A new match is explicit: boardcam new-match closes the unfinished one and
// creates the new one's journal (which the next run continues); run has no
// flag that would start a new match at every restart.
func TestNewMatchCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd(t, "", "new-match", "--journal-dir", dir, "--players", "S=Asha,N=Ravi")
	if code != 0 || !strings.Contains(out, "new match: Asha v Ravi (icf)") {
		t.Fatalf("new-match: exit %d %q %q", code, out, errOut)
	}
	first, err := match.LatestJournal(dir)
	if err != nil || first == "" || !strings.Contains(out, first) {
		t.Fatalf("journal %q %v, output %q", first, err, out)
	}
	code, out, errOut = runCmd(t, "", "new-match", "--journal-dir", dir, "--profile", "nit-delhi", "--players", "E=Ann,W=Bo")
	if code != 0 || !strings.Contains(out, "closed the unfinished match: "+first) || !strings.Contains(out, "Ann v Bo (nit-delhi)") {
		t.Fatalf("second new-match: exit %d %q %q", code, out, errOut)
	}
	jf, err := match.ReadJournal(first, false)
	if err != nil {
		t.Fatal(err)
	}
	if closed, why := jf.Closed(); !closed || !strings.Contains(why, "new-match") {
		t.Errorf("the first match's journal: closed %v %q", closed, why)
	}
	second, _ := match.LatestJournal(dir)
	if second == first {
		t.Fatal("no new journal")
	}
	if jf, err = match.ReadJournal(second, false); err != nil || jf.Header.Profile != "nit-delhi" || len(jf.Records) != 0 {
		t.Errorf("the new journal: %v %+v", err, jf)
	}
	code, _, errOut = runCmd(t, "", "run", "--journal-dir", dir, "--new-match")
	if code != 2 || !strings.Contains(errOut, "boardcam new-match") {
		t.Errorf("run --new-match: exit %d %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "", "new-match", "--journal-dir", dir, "--resume", "x.log", "--players", "S=A,N=B")
	if code != 2 || !strings.Contains(errOut, "--players with --resume") {
		t.Errorf("new-match --resume --players: exit %d %q", code, errOut)
	}
}
