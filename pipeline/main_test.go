package pipeline

import (
	"fmt"
	"os"
	"testing"
)

// leakCount counts live OpenCV Mats and says where they were made; it is
// set in matprofile_test.go, which builds only with -tags matprofile.
var leakCount func() (int, string)

// TestMain fails the run when a test leaked an OpenCV Mat.
func TestMain(m *testing.M) {
	code := m.Run()
	if leakCount == nil {
		fmt.Fprintln(os.Stderr, "pipeline: built without -tags matprofile: Mat leaks not checked")
	} else if n, where := leakCount(); n != 0 {
		fmt.Fprintf(os.Stderr, "pipeline: %d OpenCV Mats leaked:\n%s", n, where)
		code = 1
	}
	os.Exit(code)
}
