// Package matleak makes a test binary fail when its tests leaked OpenCV
// Mats. gocv counts live Mats only when built with -tags matprofile (the
// test suite always is); without the tag the check is skipped and says so.
//
// Every test package that uses gocv has:
//
//	func TestMain(m *testing.M) { os.Exit(matleak.Run(m, "vision")) }
package matleak

import (
	"fmt"
	"os"
	"testing"
)

// live returns the number of live Mats and where they were made; nil when
// built without -tags matprofile.
var live func() (int, string)

// Run runs the tests and returns the exit code, 1 when any Mat was leaked.
func Run(m *testing.M, pkg string) int {
	code := m.Run()
	if Check(pkg) != 0 && code == 0 {
		code = 1
	}
	return code
}

// Check reports leaked Mats on standard error and returns 1 if there are
// any, else 0.
func Check(pkg string) int {
	if live == nil {
		fmt.Fprintf(os.Stderr, "%s: built without -tags matprofile: Mat leaks not checked\n", pkg)
		return 0
	}
	if n, where := live(); n != 0 {
		fmt.Fprintf(os.Stderr, "%s: %d OpenCV Mats leaked:\n%s", pkg, n, where)
		return 1
	}
	return 0
}
