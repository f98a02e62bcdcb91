package vision

import (
	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/sight"
)

// The contract between detection (this package) and the tracker, what one
// processed frame says, lives in package sight (without OpenCV, so that
// the tracker and everything after it build without cgo). These aliases
// keep vision's own code and its callers reading as before.

// Detection is one disc found in a frame (see sight.Detection).
type Detection = sight.Detection

// Occlusion is the foreign-object mask of one frame (see sight.Occlusion).
type Occlusion = sight.Occlusion

// Frame is everything detection found in one video frame (see sight.Frame).
type Frame = sight.Frame

// A *gocv.Mat is the OpenCV side's sight.Image.
var _ sight.Image = (*gocv.Mat)(nil)
