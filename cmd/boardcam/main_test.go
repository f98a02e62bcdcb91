package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// runCmd runs a command line and returns the exit status and both outputs.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, stdio{In: strings.NewReader(stdin), Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

func TestHelpListsEveryCommand(t *testing.T) {
	code, _, errOut := runCmd(t, "", "help")
	if code != 0 {
		t.Fatalf("help exit %d", code)
	}
	for name := range commands {
		if !strings.Contains(errOut, name) {
			t.Errorf("help does not list %q", name)
		}
	}
}

func TestEveryCommandHasHelp(t *testing.T) {
	for name := range commands {
		code, _, errOut := runCmd(t, "", name, "--help")
		if code != 0 || !strings.Contains(errOut, "usage: boardcam "+name) {
			t.Errorf("%s --help: exit %d, output %q", name, code, errOut)
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, errOut := runCmd(t, "", "frobnicate")
	if code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("exit %d, %q", code, errOut)
	}
	if code, _, _ := runCmd(t, ""); code != 2 {
		t.Errorf("no command: exit %d", code)
	}
}

// One vocabulary across the commands (README, "Command-line flags"); the
// old names still work for scripts but are not listed.
func TestOldFlagNamesStillWork(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // in the error: the new name
	}{
		{[]string{"referee", "--break", "X", "-"}, "--breaker"},
		{[]string{"analyze", "--breaker-side", "X", "a.mp4"}, "--breaker"},
		{[]string{"detect", "x.png", "--breaker-side", "X"}, "--breaker"},
		{[]string{"calibrate", "x.png", "--breaker-side", "X"}, "--breaker"},
	} {
		code, _, errOut := runCmd(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.want+":") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %s", c.args, code, errOut, c.want)
		}
	}
	for name, old := range map[string][]string{
		"analyze": {"breaker-side", "turn", "progress"}, "referee": {"break"}, "run": {"break", "lens"},
		"simulate": {"progress"}, "calibrate": {"breaker-side"}, "detect": {"breaker-side"},
	} {
		_, _, help := runCmd(t, "", name, "--help")
		for _, o := range old {
			if strings.Contains(help, "\n  -"+o+" ") || strings.Contains(help, "\n  -"+o+"\n") {
				t.Errorf("%s --help lists the old --%s", name, o)
			}
		}
	}
	// run: --break and --lens set the new flags (the configuration's
	// match.breaker and lens, named by the new flags in errors).
	dir := t.TempDir()
	code, _, errOut := runCmd(t, "", "run", "--journal-dir", dir, "--lens", filepath.Join(dir, "none.json"))
	if code != 1 || !strings.Contains(errOut, "--lens-file: ") {
		t.Errorf("run --lens: exit %d, %q", code, errOut)
	}
}
