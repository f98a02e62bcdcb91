package synth

import (
	"os"
	"testing"

	"github.com/boardcam/boardcam/internal/matleak"
)

// TestMain fails the run when a test leaked an OpenCV Mat.
func TestMain(m *testing.M) { os.Exit(matleak.Run(m, "synth")) }
