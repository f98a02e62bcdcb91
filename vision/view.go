package vision

import (
	"errors"
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
)

// view relates the camera image to the rectified board image and to the
// board in three dimensions: where the camera's centre is (for the
// parallax of the discs' raised top faces) and how board millimetres map
// to rectified and original pixels.
type view struct {
	cal *calibrate.Calibration
	// hb maps board mm (on the surface) to undistorted image pixels.
	hb calibrate.Homography
	// cam is the camera's centre in board coordinates: X, Y in mm and
	// height H in mm above the surface.
	camX, camY, camH float64
	// focal is the focal length used (px) and focalFrom says where it
	// came from: "lens", "homography" or "default".
	focal     float64
	focalFrom string

	// The rectified board image: n×n pixels at ppm pixels per mm; pixel
	// (i, j) (centres at integers) is board point ((i-c)/ppm, (j-c)/ppm).
	n   int
	ppm float64
	c   float64
}

// autoMaxPPM is the finest rectified resolution chosen by default: a man
// is then 20 pixels across, enough for sub-millimetre centres, and the
// board 496 pixels square.
const autoMaxPPM = 0.62

// newView derives the camera geometry from a calibration. focalPx, when
// positive, is the focal length to assume for a calibration without lens.
func newView(cal *calibrate.Calibration, g *board.Geometry, ppm, margin, focalPx float64) (*view, error) {
	if cal == nil {
		return nil, errors.New("no calibration")
	}
	if cal.ImageSize.W <= 0 || cal.ImageSize.H <= 0 {
		return nil, fmt.Errorf("calibration image size %dx%d", cal.ImageSize.W, cal.ImageSize.H)
	}
	v := &view{cal: cal, hb: cal.HInv}
	w, h := float64(cal.ImageSize.W), float64(cal.ImageSize.H)
	cx, cy := (w-1)/2, (h-1)/2
	fx, fy := 0.0, 0.0
	switch {
	case cal.Lens != nil:
		k := cal.Lens.CameraMatrix
		fx, fy, cx, cy = k[0][0], k[1][1], k[0][2], k[1][2]
		v.focalFrom = "lens"
	case focalPx > 0:
		fx, fy = focalPx, focalPx
		v.focalFrom = "config"
	default:
		if f, ok := calibrate.FocalFromHomography(v.hb, cx, cy, w); ok {
			fx, fy = f, f
			v.focalFrom = "homography"
		} else {
			fx = w / 2 / math.Tan(calibrate.DefaultHFOV/2*math.Pi/180)
			fy = fx
			v.focalFrom = "default"
		}
	}
	v.focal = (fx + fy) / 2
	if err := v.pose(fx, fy, cx, cy); err != nil {
		return nil, err
	}
	if ppm <= 0 {
		ppm = math.Max(0.4, math.Min(autoMaxPPM, cal.PixelsPerMM()))
	}
	ext := g.Half() + margin
	v.ppm = ppm
	v.n = int(math.Ceil(2 * ext * ppm))
	v.c = float64(v.n-1) / 2
	return v, nil
}

// pose finds the camera's centre from the homography and the intrinsics.
func (v *view) pose(fx, fy, cx, cy float64) error {
	hb := v.hb
	// m = K⁻¹ hb
	var m [3][3]float64
	for j := 0; j < 3; j++ {
		m[0][j] = (hb[0][j] - cx*hb[2][j]) / fx
		m[1][j] = (hb[1][j] - cy*hb[2][j]) / fy
		m[2][j] = hb[2][j]
	}
	n1 := math.Sqrt(m[0][0]*m[0][0] + m[1][0]*m[1][0] + m[2][0]*m[2][0])
	n2 := math.Sqrt(m[0][1]*m[0][1] + m[1][1]*m[1][1] + m[2][1]*m[2][1])
	if n1 == 0 || n2 == 0 {
		return errors.New("degenerate homography")
	}
	lam := 2 / (n1 + n2)
	if m[2][2] < 0 { // the board lies in front of the camera
		lam = -lam
	}
	var r1, r2, t [3]float64
	for i := 0; i < 3; i++ {
		r1[i], r2[i], t[i] = lam*m[i][0], lam*m[i][1], lam*m[i][2]
	}
	r3 := [3]float64{r1[1]*r2[2] - r1[2]*r2[1], r1[2]*r2[0] - r1[0]*r2[2], r1[0]*r2[1] - r1[1]*r2[0]}
	dot := func(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
	// C = −Rᵀ t; the board's third axis points into the board, so the
	// camera's height is −C_z.
	v.camX, v.camY = -dot(r1, t), -dot(r2, t)
	v.camH = math.Abs(dot(r3, t))
	if !(v.camH > 1) || math.IsNaN(v.camX) || math.IsNaN(v.camY) {
		return fmt.Errorf("camera height %.1f mm from the homography is not plausible", v.camH)
	}
	return nil
}

// lift returns the factor by which a horizontal disc at height z appears
// larger in the rectified board image (the central projection from the
// camera onto the surface).
func (v *view) lift(z float64) float64 { return v.camH / (v.camH - z) }

// toSurface returns the true position of a point at height z that the
// rectified image shows at the surface point p.
func (v *view) toSurface(p board.Vec, z float64) board.Vec {
	k := (v.camH - z) / v.camH
	return board.Vec{X: v.camX + (p.X-v.camX)*k, Y: v.camY + (p.Y-v.camY)*k}
}

// fromSurface is the inverse of toSurface: where a point at height z above
// the surface point p appears on the surface.
func (v *view) fromSurface(p board.Vec, z float64) board.Vec {
	k := v.camH / (v.camH - z)
	return board.Vec{X: v.camX + (p.X-v.camX)*k, Y: v.camY + (p.Y-v.camY)*k}
}

// mmOf returns the board point of rectified pixel coordinates.
func (v *view) mmOf(x, y float64) board.Vec {
	return board.Vec{X: (x - v.c) / v.ppm, Y: (y - v.c) / v.ppm}
}

// pxOf returns the rectified pixel coordinates of a board point.
func (v *view) pxOf(p board.Vec) (float64, float64) {
	return p.X*v.ppm + v.c, p.Y*v.ppm + v.c
}

// imageOf returns the original (distorted) image position of the surface
// point p.
func (v *view) imageOf(p board.Vec) calibrate.Point {
	u := v.hb.Apply(calibrate.Point{X: p.X, Y: p.Y})
	if v.cal.Lens != nil {
		u = v.cal.Lens.Distort(u)
	}
	return u
}

// imageScale returns the original image's pixels per surface millimetre
// around the surface point p.
func (v *view) imageScale(p board.Vec) float64 {
	a := v.imageOf(p)
	b := v.imageOf(board.Vec{X: p.X + 1, Y: p.Y})
	c := v.imageOf(board.Vec{X: p.X, Y: p.Y + 1})
	return (a.Dist(b) + a.Dist(c)) / 2
}

// model returns how a disc of radius rad (mm) whose top face is at height
// z appears around the rectified position (x, y) of its top face's centre.
func (v *view) model(x, y, rad, z float64) discModel {
	t := v.mmOf(x, y)
	foot := v.toSurface(t, z)
	return discModel{
		r0:    rad * v.lift(z) * v.ppm,
		sideX: (foot.X - t.X) * v.ppm,
		sideY: (foot.Y - t.Y) * v.ppm,
		footR: rad * v.ppm,
	}
}
