package render

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
)

// Camera is a pinhole camera with radial lens distortion (OpenCV's model)
// looking down on the board.
//
// World coordinates are board millimetres with x to the right (E) and y
// down (S) as seen from above, and a third axis pointing down into the
// board, so a point at height z above the playing surface has world
// coordinate (x, y, -z). The camera frame is OpenCV's: x right, y down,
// z along the optical axis.
type Camera struct {
	// Width and Height of the image in pixels.
	Width, Height int
	// Fx, Fy, Cx, Cy are the focal lengths and the principal point, px.
	Fx, Fy, Cx, Cy float64
	// K1, K2, K3 are the radial distortion coefficients.
	K1, K2, K3 float64
	// R rotates world coordinates into the camera frame.
	R [3][3]float64
	// Pos is the centre of the lens in world coordinates (Pos[2] = -height).
	Pos [3]float64
}

// intrinsics are the parts of a camera that do not change when it is knocked.
type intrinsics struct {
	w, h           int
	fx, cx, cy     float64
	k1, k2, k3     float64
	maxRu          float64 // largest undistorted radius that reaches the image
	undistortValid bool
}

func newIntrinsics(s CameraSettings, w, h int, g *board.Geometry) (intrinsics, error) {
	in := intrinsics{w: w, h: h, k1: s.K1, k2: s.K2, k3: s.K3,
		cx: float64(w)/2 - 0.5 + s.PrincipalOffset[0], cy: float64(h)/2 - 0.5 + s.PrincipalOffset[1]}
	if s.FOV > 0 {
		in.fx = float64(w) / 2 / math.Tan(s.FOV*math.Pi/360)
	} else {
		th := s.Rotation * math.Pi / 180
		extent := (g.Surface + 2*g.FrameWidth) * (math.Abs(math.Cos(th)) + math.Abs(math.Sin(th)))
		in.fx = s.Fill * float64(h) * s.Height / extent
	}
	// The distortion must not fold over inside the image: r_d(r_u) has to
	// grow up to the radius of the farthest image corner.
	var rdMax float64
	for _, c := range [][2]float64{{-0.5, -0.5}, {float64(w) - 0.5, -0.5}, {-0.5, float64(h) - 0.5}, {float64(w) - 0.5, float64(h) - 0.5}} {
		rdMax = math.Max(rdMax, math.Hypot((c[0]-in.cx)/in.fx, (c[1]-in.cy)/in.fx))
	}
	rdMax *= 1.05
	prev := 0.0
	for ru := 0.0; ; ru += 0.0005 {
		rd := in.distortR(ru)
		if ru > 0 && rd <= prev {
			return in, fmt.Errorf("camera: the distortion k1=%v k2=%v k3=%v folds over inside the image (at %.0f%% of the corner radius); use smaller coefficients", s.K1, s.K2, s.K3, 100*prev/rdMax)
		}
		if rd >= rdMax {
			in.maxRu = ru
			break
		}
		if ru > 20 {
			return in, fmt.Errorf("camera: the distortion k1=%v k2=%v k3=%v cannot be inverted over the image", s.K1, s.K2, s.K3)
		}
		prev = rd
	}
	return in, nil
}

func (in intrinsics) distortR(ru float64) float64 {
	r2 := ru * ru
	return ru * (1 + r2*(in.k1+r2*(in.k2+r2*in.k3)))
}

// cameraAt builds the camera for the (knocked) settings s.
func cameraAt(in intrinsics, s CameraSettings) *Camera {
	c := &Camera{Width: in.w, Height: in.h, Fx: in.fx, Fy: in.fx, Cx: in.cx, Cy: in.cy, K1: in.k1, K2: in.k2, K3: in.k3}
	th := s.Rotation * math.Pi / 180
	xc := [3]float64{math.Cos(th), -math.Sin(th), 0}
	yc := [3]float64{math.Sin(th), math.Cos(th), 0}
	zc := [3]float64{0, 0, 1}
	tau := s.Tilt * math.Pi / 180
	phi := s.TiltDirection * math.Pi / 180
	if tau != 0 {
		// Rodrigues: rotate about k = z × a by tau, taking z to the axis a.
		k := [3]float64{-math.Sin(phi), math.Cos(phi), 0}
		rot := func(v [3]float64) [3]float64 {
			kxv := cross(k, v)
			kv := dot(k, v)
			var o [3]float64
			for i := range o {
				o[i] = v[i]*math.Cos(tau) + kxv[i]*math.Sin(tau) + k[i]*kv*(1-math.Cos(tau))
			}
			return o
		}
		xc, yc, zc = rot(xc), rot(yc), rot(zc)
	}
	c.R = [3][3]float64{xc, yc, zc}
	d := s.Height * math.Tan(tau)
	c.Pos = [3]float64{s.Offset[0] - d*math.Cos(phi), s.Offset[1] - d*math.Sin(phi), -s.Height}
	return c
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// poseAt applies the knocks up to time t to the camera settings.
func poseAt(s CameraSettings, t float64) CameraSettings {
	tx := s.Tilt * math.Cos(s.TiltDirection*math.Pi/180)
	ty := s.Tilt * math.Sin(s.TiltDirection*math.Pi/180)
	for _, k := range s.Knocks {
		if t < k.T {
			continue
		}
		kd := k.TiltDirection * math.Pi / 180
		s.Rotation += k.Rotation
		tx += k.Tilt * math.Cos(kd)
		ty += k.Tilt * math.Sin(kd)
		s.Offset[0] += k.Offset[0]
		s.Offset[1] += k.Offset[1]
		s.Height += k.Height
		dur := k.Duration
		if dur <= 0 {
			dur = 0.4
		}
		if dt := t - k.T; k.Shake > 0 && dt < dur {
			a := k.Shake * math.Exp(-4*dt/dur) * math.Sin(2*math.Pi*7*dt)
			s.Rotation += 0.6 * a
			tx += a * math.Cos(kd+0.7)
			ty += a * math.Sin(kd+0.7)
		}
	}
	s.Tilt = math.Hypot(tx, ty)
	if s.Tilt > 0 {
		s.TiltDirection = math.Atan2(ty, tx) * 180 / math.Pi
	}
	return s
}

// wobbling reports whether the camera is still shaking from a knock at t.
func wobbling(s CameraSettings, t float64) bool {
	for _, k := range s.Knocks {
		dur := k.Duration
		if dur <= 0 {
			dur = 0.4
		}
		if k.Shake > 0 && t >= k.T && t < k.T+dur {
			return true
		}
	}
	return false
}

// world turns a board point at height z into world coordinates.
func world(p board.Vec, z float64) [3]float64 { return [3]float64{p.X, p.Y, -z} }

// toCamera returns camera-frame coordinates of a world point.
func (c *Camera) toCamera(w [3]float64) [3]float64 {
	d := [3]float64{w[0] - c.Pos[0], w[1] - c.Pos[1], w[2] - c.Pos[2]}
	return [3]float64{dot(c.R[0], d), dot(c.R[1], d), dot(c.R[2], d)}
}

// Project returns the image position (distorted pixels) of the board point p
// at height z mm above the playing surface. ok is false for a point behind
// the camera.
func (c *Camera) Project(p board.Vec, z float64) (x, y float64, ok bool) {
	q := c.toCamera(world(p, z))
	if q[2] <= 1e-9 {
		return 0, 0, false
	}
	x, y = c.distortNorm(q[0]/q[2], q[1]/q[2])
	return x, y, true
}

// ProjectUndistorted is [Camera.Project] without the lens distortion: the
// pixel an ideal pinhole camera would see (what the homography relates).
func (c *Camera) ProjectUndistorted(p board.Vec, z float64) (x, y float64, ok bool) {
	q := c.toCamera(world(p, z))
	if q[2] <= 1e-9 {
		return 0, 0, false
	}
	return c.Fx*q[0]/q[2] + c.Cx, c.Fy*q[1]/q[2] + c.Cy, true
}

func (c *Camera) distortNorm(xn, yn float64) (float64, float64) {
	r2 := xn*xn + yn*yn
	k := 1 + r2*(c.K1+r2*(c.K2+r2*c.K3))
	return c.Fx*xn*k + c.Cx, c.Fy*yn*k + c.Cy
}

// Distort maps an undistorted pixel to the distorted image.
func (c *Camera) Distort(x, y float64) (float64, float64) {
	return c.distortNorm((x-c.Cx)/c.Fx, (y-c.Cy)/c.Fy)
}

// undistortNorm returns the normalised undistorted coordinates of a
// distorted pixel (Newton's method on the radius).
func (c *Camera) undistortNorm(x, y float64) (float64, float64) {
	xd, yd := (x-c.Cx)/c.Fx, (y-c.Cy)/c.Fy
	rd := math.Hypot(xd, yd)
	if rd == 0 || (c.K1 == 0 && c.K2 == 0 && c.K3 == 0) {
		return xd, yd
	}
	ru := rd
	for i := 0; i < 20; i++ {
		r2 := ru * ru
		f := ru*(1+r2*(c.K1+r2*(c.K2+r2*c.K3))) - rd
		df := 1 + r2*(3*c.K1+r2*(5*c.K2+7*r2*c.K3))
		if df <= 1e-6 {
			break
		}
		step := f / df
		ru -= step
		if math.Abs(step) < 1e-13 {
			break
		}
	}
	s := ru / rd
	return xd * s, yd * s
}

// Undistort maps a distorted image pixel to where an ideal pinhole camera
// would have it.
func (c *Camera) Undistort(x, y float64) (float64, float64) {
	xn, yn := c.undistortNorm(x, y)
	return c.Fx*xn + c.Cx, c.Fy*yn + c.Cy
}

// ray returns the world direction of the ray through normalised
// undistorted coordinates (xn, yn).
func (c *Camera) ray(xn, yn float64) [3]float64 {
	return [3]float64{
		c.R[0][0]*xn + c.R[1][0]*yn + c.R[2][0],
		c.R[0][1]*xn + c.R[1][1]*yn + c.R[2][1],
		c.R[0][2]*xn + c.R[1][2]*yn + c.R[2][2],
	}
}

// Unproject returns the board point at height z that the (distorted) image
// pixel (x, y) sees; ok is false when the ray does not reach that plane.
func (c *Camera) Unproject(x, y, z float64) (board.Vec, bool) {
	xn, yn := c.undistortNorm(x, y)
	d := c.ray(xn, yn)
	if d[2] <= 1e-12 {
		return board.Vec{}, false
	}
	t := (-z - c.Pos[2]) / d[2]
	if t <= 0 {
		return board.Vec{}, false
	}
	return board.Vec{X: c.Pos[0] + t*d[0], Y: c.Pos[1] + t*d[1]}, true
}

// Corners returns the four corners of the playing surface in distorted image
// pixels, in the order NW, NE, SE, SW (top-left, top-right, bottom-right,
// bottom-left in board terms) — the calibration's ground truth.
func (c *Camera) Corners(g *board.Geometry) [4][2]float64 {
	var out [4][2]float64
	for i, p := range g.Corners() {
		x, y, _ := c.Project(p, 0)
		out[i] = [2]float64{x, y}
	}
	return out
}

// CameraMatrix returns OpenCV's camera matrix K.
func (c *Camera) CameraMatrix() [3][3]float64 {
	return [3][3]float64{{c.Fx, 0, c.Cx}, {0, c.Fy, c.Cy}, {0, 0, 1}}
}

// DistCoeffs returns the distortion coefficients in OpenCV's order
// (k1, k2, p1, p2, k3); this model has no tangential terms.
func (c *Camera) DistCoeffs() [5]float64 { return [5]float64{c.K1, c.K2, 0, 0, c.K3} }

// BoardToImage returns the homography from board mm (on the playing
// surface, z = 0) to undistorted image pixels, normalised so that [2][2] = 1.
func (c *Camera) BoardToImage() [3][3]float64 {
	t := c.toCamera([3]float64{0, 0, 0})
	var m [3][3]float64
	for i := 0; i < 3; i++ {
		m[i] = [3]float64{c.R[i][0], c.R[i][1], t[i]}
	}
	k := c.CameraMatrix()
	h := mul3(k, m)
	return norm3(h)
}

// Homography returns the homography from undistorted image pixels to board
// mm on the playing surface (the inverse of [Camera.BoardToImage]): undistort
// a pixel with the camera matrix and distortion coefficients, then map it.
func (c *Camera) Homography() [3][3]float64 { return norm3(inv3(c.BoardToImage())) }

// Scale returns image pixels per board millimetre at the centre of the board.
func (c *Camera) Scale() float64 {
	x0, y0, _ := c.Project(board.Vec{}, 0)
	x1, y1, _ := c.Project(board.Vec{X: 10}, 0)
	x2, y2, _ := c.Project(board.Vec{Y: 10}, 0)
	return (math.Hypot(x1-x0, y1-y0) + math.Hypot(x2-x0, y2-y0)) / 20
}

// ApplyHomography maps (x, y) through the homography h.
func ApplyHomography(h [3][3]float64, x, y float64) (float64, float64) {
	w := h[2][0]*x + h[2][1]*y + h[2][2]
	return (h[0][0]*x + h[0][1]*y + h[0][2]) / w, (h[1][0]*x + h[1][1]*y + h[1][2]) / w
}

func mul3(a, b [3][3]float64) [3][3]float64 {
	var o [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				o[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return o
}

func inv3(m [3][3]float64) [3][3]float64 {
	det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	var o [3][3]float64
	o[0][0] = (m[1][1]*m[2][2] - m[1][2]*m[2][1]) / det
	o[0][1] = (m[0][2]*m[2][1] - m[0][1]*m[2][2]) / det
	o[0][2] = (m[0][1]*m[1][2] - m[0][2]*m[1][1]) / det
	o[1][0] = (m[1][2]*m[2][0] - m[1][0]*m[2][2]) / det
	o[1][1] = (m[0][0]*m[2][2] - m[0][2]*m[2][0]) / det
	o[1][2] = (m[0][2]*m[1][0] - m[0][0]*m[1][2]) / det
	o[2][0] = (m[1][0]*m[2][1] - m[1][1]*m[2][0]) / det
	o[2][1] = (m[0][1]*m[2][0] - m[0][0]*m[2][1]) / det
	o[2][2] = (m[0][0]*m[1][1] - m[0][1]*m[1][0]) / det
	return o
}

func norm3(m [3][3]float64) [3][3]float64 {
	k := m[2][2]
	for i := range m {
		for j := range m[i] {
			m[i][j] /= k
		}
	}
	return m
}
