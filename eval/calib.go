package eval

import (
	"fmt"
	"math"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/corpus"
)

// CalibrationSource says where the pipeline's calibration comes from.
type CalibrationSource string

const (
	// CalibrationAuto: the pipeline finds the board in the frames itself
	// (the product; the figure the targets are about).
	CalibrationAuto CalibrationSource = "auto"
	// CalibrationTruth: a diagnostic. The pipeline is handed the true
	// calibration of every frame (corners, homography and lens from the
	// truth's camera), so that vision and the tracker can be measured
	// apart from calibration. Its figures are not the product's.
	CalibrationTruth CalibrationSource = "truth"
)

// ParseCalibrationSource reads auto or truth.
func ParseCalibrationSource(s string) (CalibrationSource, error) {
	switch c := CalibrationSource(s); c {
	case CalibrationAuto, CalibrationTruth:
		return c, nil
	case "":
		return CalibrationAuto, nil
	}
	return "", fmt.Errorf("unknown calibration source %q (want auto or truth)", s)
}

// OrientationSource says how the pipeline learns which side of the
// picture board side S is on.
type OrientationSource string

const (
	// OrientationInstalled: the clip carries the installation setting a
	// club configures once when it mounts the camera (calibrate's
	// --south-at): the image side nearest side S, from the truth camera's
	// rotation rounded to a quarter turn. A camera turned by about 45°
	// cannot be described by a quarter turn; such a clip is left
	// unconfigured (see SouthAtOf).
	OrientationInstalled OrientationSource = "installed"
	// OrientationInferred: nothing is configured; the pipeline infers the
	// orientation from the first stroke (played from the seat whose turn
	// it is).
	OrientationInferred OrientationSource = "inferred"
)

// ParseOrientationSource reads installed or inferred.
func ParseOrientationSource(s string) (OrientationSource, error) {
	switch o := OrientationSource(s); o {
	case OrientationInstalled, OrientationInferred:
		return o, nil
	case "":
		return OrientationInstalled, nil
	}
	return "", fmt.Errorf("unknown orientation source %q (want installed or inferred)", s)
}

// southAtAmbiguous is how close (degrees) to a diagonal the side S may
// point before a quarter turn no longer describes the camera.
const southAtAmbiguous = 10.0

// SouthAtOf returns the image side nearest board side S for a camera: what
// an installer configures (the camera's rotation rounded to the nearest
// quarter turn). ok is false when side S points within 10° of an image
// diagonal (a camera turned by about 45°), where no quarter turn
// describes it.
func SouthAtOf(cam *corpus.CameraTruth, g *board.Geometry) (camera.Direction, bool) {
	h := camera.Homography(cam.Homography)
	inv, err := h.Inverse()
	if err != nil {
		return "", false
	}
	c := inv.Apply(camera.Pt(0, 0))
	s := inv.Apply(camera.Pt(0, g.Surface/2))
	a := math.Atan2(s.Y-c.Y, s.X-c.X) * 180 / math.Pi // 90: down the image
	dirs := []struct {
		d camera.Direction
		a float64
	}{{camera.Bottom, 90}, {camera.Right, 0}, {camera.Top, -90}, {camera.Left, 180}}
	best, off := camera.Bottom, 360.0
	for _, d := range dirs {
		diff := math.Abs(math.Remainder(a-d.a, 360))
		if diff < off {
			best, off = d.d, diff
		}
	}
	return best, off <= 45-southAtAmbiguous
}

// trueEpoch stamps the true calibrations (they are made from a file, not
// at a time).
var trueEpoch = time.Unix(0, 0).UTC()

// TrueCalibration is the calibration the truth's camera implies: its
// homography (undistorted pixels → board mm), the surface corners through
// it, the lens (camera matrix and distortion coefficients) and the
// orientation o (its SouthAt is replaced by the camera's own, rounded to
// a quarter turn, so that the corners' image order is consistent). It is
// the diagnostic of `boardcam eval --calibration truth`, never what the
// product is measured with.
func TrueCalibration(cam *corpus.CameraTruth, w, hgt int, g *board.Geometry, o camera.Orientation) (*camera.Calibration, error) {
	if g == nil {
		g = board.ICF()
	}
	h := camera.Homography(cam.Homography)
	inv, err := h.Inverse()
	if err != nil {
		return nil, fmt.Errorf("eval: true calibration: %w", err)
	}
	if o == (camera.Orientation{}) {
		o = camera.DefaultOrientation()
	}
	o.SouthAt, _ = SouthAtOf(cam, g)
	half := g.Surface / 2
	cal := &camera.Calibration{
		Version:     camera.Version,
		Created:     trueEpoch,
		ImageSize:   camera.Size{W: w, H: hgt},
		H:           h,
		HInv:        inv,
		Board:       camera.BoardInfo{Name: g.Name, Surface: g.Surface},
		Orientation: o,
		Quality: camera.Quality{Method: camera.Manual, Score: 1,
			Edges: [4]string{"manual", "manual", "manual", "manual"},
			Notes: []string{"ground truth of the corpus (eval --calibration truth): a diagnostic"}},
	}
	for i, p := range [4]camera.Point{{X: -half, Y: -half}, {X: half, Y: -half}, {X: half, Y: half}, {X: -half, Y: half}} {
		cal.Corners[i] = inv.Apply(p)
	}
	if cam.DistCoeffs != ([5]float64{}) {
		cal.Lens = &camera.Lens{ImageSize: cal.ImageSize, CameraMatrix: cam.CameraMatrix,
			Distortion: append([]float64(nil), cam.DistCoeffs[:]...), Created: trueEpoch}
	}
	if err := cal.Validate(); err != nil {
		return nil, fmt.Errorf("eval: true calibration: %w", err)
	}
	return cal, nil
}

// trueCalibrations makes the true calibration of each camera entry of the
// truth (one pointer per entry: it stays the same while the camera does
// not move).
func trueCalibrations(t *corpus.Truth, g *board.Geometry, o camera.Orientation) ([]*camera.Calibration, error) {
	out := make([]*camera.Calibration, len(t.Cameras))
	for k := range t.Cameras {
		c, err := TrueCalibration(&t.Cameras[k], t.Clip.Width, t.Clip.Height, g, o)
		if err != nil {
			return nil, fmt.Errorf("eval: %s: camera %d (frames %d–%d): %w", t.Clip.Name, k, t.Cameras[k].From, t.Cameras[k].To, err)
		}
		out[k] = c
	}
	return out, nil
}

// cameraIndex returns the index of the camera entry of frame i (-1: none).
func cameraIndex(t *corpus.Truth, i int) int {
	for k := range t.Cameras {
		if c := &t.Cameras[k]; i >= c.From && i <= c.To {
			return k
		}
	}
	return -1
}
