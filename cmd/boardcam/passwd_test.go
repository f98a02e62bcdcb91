package main

import (
	"io"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/web"
)

func TestPasswdHashVerifies(t *testing.T) {
	code, out, errOut := runCmd(t, "umpire-secret\n", "passwd")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	hash := strings.TrimSpace(out)
	ok, err := web.VerifyPassword(hash, "umpire-secret")
	if err != nil || !ok {
		t.Fatalf("hash %q does not verify: %v", hash, err)
	}
	if ok, _ := web.VerifyPassword(hash, "wrong-secret"); ok {
		t.Error("hash verifies a wrong password")
	}
}

func TestPasswdRejectsShortAndEmpty(t *testing.T) {
	for _, in := range []string{"", "ab\n"} {
		if code, _, _ := runCmd(t, in, "passwd"); code != 1 {
			t.Errorf("passwd %q: exit %d, want 1", in, code)
		}
	}
	if code, _, _ := runCmd(t, "x\n", "passwd", "extra"); code != 2 {
		t.Errorf("extra argument: exit %d, want 2", code)
	}
}

// On a terminal the password is read twice without echo, the prompts go to
// standard error and only the hash to standard output.
func TestPasswdTerminalReadsTwiceWithoutEcho(t *testing.T) {
	oldTerm, oldRead := terminal, readNoEcho
	t.Cleanup(func() { terminal, readNoEcho = oldTerm, oldRead })
	terminal = func(io.Reader) (int, bool) { return 7, true }
	for _, tc := range []struct {
		typed []string
		code  int
	}{{[]string{"umpire-secret", "umpire-secret"}, 0}, {[]string{"umpire-secret", "umpire-secreT"}, 1}} {
		typed := tc.typed
		readNoEcho = func(fd int) ([]byte, error) {
			if fd != 7 {
				t.Errorf("read from fd %d", fd)
			}
			if len(typed) == 0 {
				return nil, io.EOF
			}
			b := []byte(typed[0])
			typed = typed[1:]
			return b, nil
		}
		code, out, errOut := runCmd(t, "", "passwd")
		if code != tc.code {
			t.Fatalf("%v: exit %d, want %d (%s)", tc.typed, code, tc.code, errOut)
		}
		if !strings.Contains(errOut, "Umpire password: ") || !strings.Contains(errOut, "Again: ") || strings.Contains(errOut, "umpire-secret") {
			t.Errorf("prompts %q", errOut)
		}
		if code != 0 {
			if out != "" {
				t.Errorf("a mismatch wrote %q", out)
			}
			continue
		}
		if ok, err := web.VerifyPassword(strings.TrimSpace(out), "umpire-secret"); !ok || err != nil {
			t.Errorf("hash %q does not verify: %v", out, err)
		}
	}
}
