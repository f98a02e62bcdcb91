package daemon

import (
	"fmt"
	"os"
	"testing"
)

// leakCount counts live OpenCV Mats and says where they were made; it is
// set in matprofile_test.go, which only builds with -tags matprofile
// (gocv's Mat profile exists only then).
var leakCount func() (int, string)

// TestMain runs the tests and fails the run when a test leaked an OpenCV
// Mat. It also serves as the daemon child process of the recovery test
// (recovery_test.go).
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(childMain())
	}
	code := m.Run()
	if leakCount == nil {
		fmt.Fprintln(os.Stderr, "daemon: built without -tags matprofile: Mat leaks not checked")
	} else if n, where := leakCount(); n != 0 {
		fmt.Fprintf(os.Stderr, "daemon: %d OpenCV Mats leaked:\n%s", n, where)
		code = 1
	}
	os.Exit(code)
}
