package calibrate

import (
	"fmt"
	"os"
	"testing"
)

// leakCount counts live OpenCV Mats and a description of where they were
// made; it is set in matprofile_test.go, which only builds with -tags
// matprofile (gocv's Mat profile exists only then).
var leakCount func() (int, string)

// TestMain fails the run when any test leaked an OpenCV Mat.
func TestMain(m *testing.M) {
	code := m.Run()
	if leakCount == nil {
		fmt.Fprintln(os.Stderr, "calibrate: built without -tags matprofile: Mat leaks not checked")
	} else if n, where := leakCount(); n != 0 {
		fmt.Fprintf(os.Stderr, "calibrate: %d OpenCV Mats leaked:\n%s", n, where)
		code = 1
	}
	os.Exit(code)
}
