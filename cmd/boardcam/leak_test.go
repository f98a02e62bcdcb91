package main

import (
	"fmt"
	"os"
	"testing"
)

// leakCount counts live OpenCV Mats; it is set in leak_matprofile_test.go,
// which only builds with -tags matprofile (gocv's Mat profile exists only
// then). The commands of this package share it.
var leakCount func() int

// TestMain fails the run when a command leaked an OpenCV Mat.
func TestMain(m *testing.M) {
	code := m.Run()
	if leakCount == nil {
		fmt.Fprintln(os.Stderr, "boardcam: built without -tags matprofile: Mat leaks not checked")
	} else if n := leakCount(); n != 0 {
		fmt.Fprintf(os.Stderr, "boardcam: %d OpenCV Mats leaked\n", n)
		code = 1
	}
	os.Exit(code)
}
