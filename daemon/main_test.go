package daemon

import (
	"os"
	"testing"

	"github.com/boardcam/boardcam/internal/matleak"
)

// TestMain runs the tests and fails the run when a test leaked an OpenCV
// Mat. It also serves as the daemon child process of the recovery test
// (recovery_test.go).
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(childMain())
	}
	os.Exit(matleak.Run(m, "daemon"))
}
