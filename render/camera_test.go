package render

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
	"gocv.io/x/gocv"
)

func testCameras(t *testing.T) map[string]*Camera {
	t.Helper()
	g := board.ICF()
	out := map[string]*Camera{}
	cases := map[string]CameraSettings{
		"straight":     {Height: 1200, Fill: 0.94},
		"tilted":       {Height: 900, Fill: 0.94, Tilt: 10, TiltDirection: 35, K1: -0.08, K2: 0.02},
		"rotated":      {Height: 1500, Fill: 0.9, Rotation: 47, Tilt: 4, TiltDirection: 200, K1: -0.05, Offset: [2]float64{30, -20}},
		"wide pi cam":  {Height: 1000, FOV: 102, K1: -0.25, K2: 0.06, Tilt: 3},
		"pincushion":   {Height: 1100, FOV: 66, K1: 0.05, Rotation: -90, Tilt: 8, TiltDirection: 90},
		"principal px": {Height: 1200, Fill: 0.94, PrincipalOffset: [2]float64{12, -7}, K1: -0.1, K2: 0.03, K3: -0.005},
	}
	for name, cs := range cases {
		for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
			in, err := newIntrinsics(cs, size[0], size[1], g)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out[name+" "+string(rune('0'+size[0]/1000))] = cameraAt(in, cs)
		}
	}
	return out
}

// Board mm → distorted px → undistorted px → homography → board mm must
// come back to within a hundredth of a millimetre.
func TestProjectionRoundTrip(t *testing.T) {
	g := board.ICF()
	h := g.Half()
	for name, c := range testCameras(t) {
		hom := c.Homography()
		var worst float64
		for x := -h; x <= h; x += h / 6 {
			for y := -h; y <= h; y += h / 6 {
				p := board.Vec{X: x, Y: y}
				u, v, ok := c.Project(p, 0)
				if !ok {
					t.Fatalf("%s: %v behind the camera", name, p)
				}
				ux, uy := c.Undistort(u, v)
				mx, my := ApplyHomography(hom, ux, uy)
				worst = math.Max(worst, p.Dist(board.Vec{X: mx, Y: my}))
				// and back through Unproject
				q, ok := c.Unproject(u, v, 0)
				if !ok || q.Dist(p) > 1e-6 {
					t.Errorf("%s: Unproject(%v) = %v", name, p, q)
				}
			}
		}
		if worst > 0.01 {
			t.Errorf("%s: round trip error %.4f mm", name, worst)
		}
	}
}

// The camera matrix and distortion coefficients follow OpenCV's convention:
// cv::undistortPoints with them undoes our projection.
func TestOpenCVConvention(t *testing.T) {
	for name, c := range testCameras(t) {
		if math.Abs(c.K1) > 0.15 {
			continue // OpenCV's fixed 5 iterations do not converge far out with strong distortion
		}
		var pts []board.Vec
		for x := -300.0; x <= 300; x += 150 {
			for y := -300.0; y <= 300; y += 150 {
				pts = append(pts, board.Vec{X: x, Y: y})
			}
		}
		src := gocv.NewMatWithSize(len(pts), 1, gocv.MatTypeCV64FC2)
		k := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
		d := gocv.NewMatWithSize(1, 5, gocv.MatTypeCV64F)
		r := gocv.NewMat()
		dst := gocv.NewMat()
		km := c.CameraMatrix()
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				k.SetDoubleAt(i, j, km[i][j])
			}
		}
		for i, v := range c.DistCoeffs() {
			d.SetDoubleAt(0, i, v)
		}
		sv, _ := src.DataPtrFloat64()
		for i, p := range pts {
			u, v, _ := c.Project(p, 0)
			sv[2*i], sv[2*i+1] = u, v
		}
		gocv.UndistortPoints(src, &dst, k, d, r, k)
		dv, _ := dst.DataPtrFloat64()
		hom := c.Homography()
		for i, p := range pts {
			mx, my := ApplyHomography(hom, dv[2*i], dv[2*i+1])
			if e := p.Dist(board.Vec{X: mx, Y: my}); e > 0.1 {
				t.Errorf("%s: %v through OpenCV comes back %.3f mm off", name, p, e)
			}
		}
		for _, m := range []*gocv.Mat{&src, &k, &d, &r, &dst} {
			m.Close()
		}
	}
}

func TestCameraPose(t *testing.T) {
	g := board.ICF()
	in, err := newIntrinsics(CameraSettings{Height: 1200, Fill: 0.94}, 1280, 720, g)
	if err != nil {
		t.Fatal(err)
	}
	// Straight down: N at the top, E on the right, centre in the middle.
	c := cameraAt(in, CameraSettings{Height: 1200})
	x, y, _ := c.Project(board.Vec{}, 0)
	if math.Abs(x-639.5) > 1e-6 || math.Abs(y-359.5) > 1e-6 {
		t.Errorf("centre at %.2f,%.2f", x, y)
	}
	cn := c.Corners(g)
	if !(cn[0][0] < cn[1][0] && cn[0][1] < cn[3][1] && cn[2][0] > cn[3][0]) {
		t.Errorf("corners not NW, NE, SE, SW: %v", cn)
	}
	// The board spans about Fill of the image height.
	span := (cn[3][1] - cn[0][1]) * (g.Surface + 2*g.FrameWidth) / g.Surface
	if math.Abs(span/720-0.94) > 0.03 {
		t.Errorf("board spans %.2f of the height", span/720)
	}
	// Rotation 90° clockwise: E goes to the bottom of the image.
	c = cameraAt(in, CameraSettings{Height: 1200, Rotation: 90})
	ex, ey, _ := c.Project(board.Vec{X: 300}, 0)
	if math.Abs(ex-639.5) > 1 || ey <= 359.5 {
		t.Errorf("E after a 90° rotation at %.1f,%.1f", ex, ey)
	}
	// Tilt toward S: the optical axis still meets the offset point, the
	// camera moved north, and S looks smaller than N.
	c = cameraAt(in, CameraSettings{Height: 1200, Tilt: 10, TiltDirection: 90})
	x, y, _ = c.Project(board.Vec{}, 0)
	if math.Abs(x-639.5) > 1e-6 || math.Abs(y-359.5) > 1e-6 {
		t.Errorf("tilted: aim point at %.2f,%.2f", x, y)
	}
	if c.Pos[1] >= 0 {
		t.Errorf("camera tilted toward S sits at y=%.1f", c.Pos[1])
	}
	cn = c.Corners(g)
	if top, bottom := cn[1][0]-cn[0][0], cn[2][0]-cn[3][0]; bottom >= top {
		t.Errorf("N edge %.1f px, S edge %.1f px: no perspective", top, bottom)
	}
	// A point above the board projects farther from the image centre.
	x0, _, _ := c.Project(board.Vec{X: 300}, 0)
	x1, _, _ := c.Project(board.Vec{X: 300}, 50)
	if x1 <= x0 {
		t.Errorf("height: %.2f <= %.2f", x1, x0)
	}
	// Distortion that folds over is refused.
	if _, err := newIntrinsics(CameraSettings{Height: 1200, FOV: 110, K1: -0.9}, 1280, 720, g); err == nil {
		t.Error("k1 = -0.9 at 110° accepted")
	}
}

func TestKnocks(t *testing.T) {
	s := small(320, 180)
	s.Camera.Knocks = []Knock{{T: 1, Rotation: 2, Tilt: 1.5, TiltDirection: 30, Offset: [2]float64{10, 0}, Shake: 1}}
	r, err := New(s, board.ICF(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g := r.Geometry()
	before := r.CameraAt(0.9).Corners(g)
	during := r.CameraAt(1.05).Corners(g)
	after := r.CameraAt(2).Corners(g)
	later := r.CameraAt(3).Corners(g)
	if before == after {
		t.Error("knock does not move the corners")
	}
	if after != later {
		t.Error("camera keeps moving after the wobble")
	}
	if during == after {
		t.Error("no wobble right after the knock")
	}
	if r.CameraAt(0).Corners(g) != before {
		t.Error("camera moves before the knock")
	}
	// Frames during the wobble render (at native resolution) and differ
	// from frame to frame; afterwards the picture settles.
	m := gocv.NewMat()
	defer m.Close()
	var hashes []string
	for _, tm := range []float64{1.05, 1.1, 2, 3} {
		if err := r.Render(&scene.Scene{T: tm}, &m); err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, hashMat(m))
	}
	if hashes[0] == hashes[1] {
		t.Error("the wobble does not move the picture")
	}
}
