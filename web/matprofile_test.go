//go:build matprofile

package web

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// TestMain fails the run when a test leaked an OpenCV Mat. The suite runs
// with -tags matprofile; gocv only counts Mats with that tag.
func TestMain(m *testing.M) {
	code := m.Run()
	if n := gocv.MatProfile.Count(); n != 0 {
		var b strings.Builder
		_ = gocv.MatProfile.WriteTo(&b, 1)
		fmt.Fprintf(os.Stderr, "web: %d OpenCV Mats leaked:\n%s\n", n, b.String())
		code = 1
	}
	os.Exit(code)
}
