package main

import (
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
