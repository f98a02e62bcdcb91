package vision

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
)

// The camera's centre found from the calibration (homography and lens) is
// where the renderer put it, for level, tilted and turned cameras; and a
// disc's raised top face maps back to its foot.
func TestCameraPose(t *testing.T) {
	for _, cs := range []render.CameraSettings{
		{Height: 1200, Fill: 0.94, K1: -0.06, K2: 0.012},
		{Height: 900, Fill: 0.94, Tilt: 10, TiltDirection: 30, Rotation: 12, K1: -0.08, K2: 0.02},
		{Height: 1500, Fill: 0.9, Tilt: 6, TiltDirection: 200, Rotation: -20, Offset: [2]float64{40, -30}},
	} {
		s := render.DefaultSettings()
		s.Width, s.Height = 320, 180
		s.Sensor.Supersample = 1
		cs.Exposure = 8
		s.Camera = cs
		r := newRenderer(t, s, 1)
		cam := r.CameraAt(0)
		v, err := newView(truthCalibration(t, r, 0), board.ICF(), 0, 30, 0)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Hypot(v.camX-cam.Pos[0], v.camY-cam.Pos[1]); d > 0.5 || math.Abs(v.camH+cam.Pos[2]) > 0.5 {
			t.Errorf("%+v: camera at (%.1f, %.1f, %.1f), truth (%.1f, %.1f, %.1f)", cs, v.camX, v.camY, v.camH, cam.Pos[0], cam.Pos[1], -cam.Pos[2])
		}
		// a point 8 mm up, seen on the surface, maps back to its foot
		for _, p := range []board.Vec{{}, {X: 300, Y: -250}, {X: -340, Y: 340}} {
			x, y, _ := cam.ProjectUndistorted(p, 8)
			seen := v.cal.ToBoard(calibratePt(x, y))
			if got := v.toSurface(seen, 8); got.Dist(p) > 0.05 {
				t.Errorf("%+v: point %v at 8 mm seen at %v, put back at %v", cs, p, seen, got)
			}
			if back := v.fromSurface(v.toSurface(seen, 8), 8); back.Dist(seen) > 1e-9 {
				t.Errorf("fromSurface does not undo toSurface: %v → %v", seen, back)
			}
		}
	}
}

// Without a lens model the focal length is estimated from the board's
// perspective when the camera is tilted, and assumed when it looks
// straight down.
func TestFocalFromHomography(t *testing.T) {
	for _, c := range []struct {
		tilt     float64
		estimate bool
	}{{0, false}, {8, true}, {14, true}} {
		s := render.DefaultSettings()
		s.Width, s.Height = 320, 180
		s.Sensor.Supersample = 1
		s.Camera.Tilt, s.Camera.TiltDirection, s.Camera.K1, s.Camera.K2 = c.tilt, 45, 0, 0
		r := newRenderer(t, s, 1)
		cal := truthCalibration(t, r, 0)
		cam := r.CameraAt(0)
		r.Close()
		cal.Lens = nil
		v, err := newView(cal, board.ICF(), 0, 30, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.focalFrom == "homography"; got != c.estimate {
			t.Errorf("tilt %v: focal length from %s", c.tilt, v.focalFrom)
		}
		if c.estimate && math.Abs(v.focal-cam.Fx)/cam.Fx > 0.03 {
			t.Errorf("tilt %v: focal %.1f px, truth %.1f", c.tilt, v.focal, cam.Fx)
		}
		if c.estimate && math.Abs(v.camH+cam.Pos[2]) > 0.03*(-cam.Pos[2]) {
			t.Errorf("tilt %v: camera height %.0f mm, truth %.0f", c.tilt, v.camH, -cam.Pos[2])
		}
	}
}
