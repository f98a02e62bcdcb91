package analysis

import (
	"fmt"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/sight"
)

// FromCorners makes a calibration from the four corners of the playing
// surface (NW, NE, SE, SW) in the pixels of img, a *gocv.Mat (the
// umpire's manual calibration): calibrate.FromCorners, for the daemon,
// which holds frames only as sight.Image.
func FromCorners(img sight.Image, corners [4]camera.Point, g *board.Geometry, o camera.Orientation) (*camera.Calibration, error) {
	m, ok := img.(*gocv.Mat)
	if !ok || m == nil {
		return nil, fmt.Errorf("analysis: a %T is not an OpenCV picture", img)
	}
	cal, _, err := calibrate.FromCorners(*m, corners, calibrate.Options{Geometry: g, Orientation: o})
	return cal, err
}
