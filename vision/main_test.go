package vision

import (
	"fmt"
	"os"
	"testing"
)

// leakCount counts live OpenCV Mats; it is set in matprofile_test.go, which
// only builds with -tags matprofile (gocv's Mat profile exists only then).
var leakCount func() int

// TestMain fails the run when any OpenCV Mat was leaked.
func TestMain(m *testing.M) {
	code := m.Run()
	if leakCount == nil {
		fmt.Fprintln(os.Stderr, "vision: built without -tags matprofile: Mat leaks not checked")
	} else if n := leakCount(); n != 0 {
		fmt.Fprintf(os.Stderr, "vision: %d OpenCV Mats leaked\n", n)
		code = 1
	}
	os.Exit(code)
}
