package main

import (
	"bytes"
	"context"
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
