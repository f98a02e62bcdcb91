package camera

import "math"

// DefaultHFOV is the horizontal field of view assumed when the focal
// length can be found neither from a lens model nor from the perspective
// of the board (a camera looking straight down): about that of the usual
// overhead camera modules.
const DefaultHFOV = 70.0

// FocalFromHomography estimates the focal length in pixels from the
// perspective of the board plane, given hb mapping the plane to the image,
// assuming square pixels and the principal point at (cx, cy) (Zhang's two
// constraints on the image of the absolute conic, solved together by least
// squares); w is the image width. It fails when the camera looks nearly
// straight down, where the perspective says nothing about it.
func FocalFromHomography(hb Homography, cx, cy, w float64) (float64, bool) {
	// Move the principal point to the origin.
	var a [3][2]float64
	for j := 0; j < 2; j++ {
		a[0][j] = hb[0][j] - cx*hb[2][j]
		a[1][j] = hb[1][j] - cy*hb[2][j]
		a[2][j] = hb[2][j]
	}
	// Scale so that the in-plane part is about 1.
	s := math.Hypot(a[0][0], a[1][0])
	if s == 0 {
		return 0, false
	}
	for i := range a {
		for j := range a[i] {
			a[i][j] /= s
		}
	}
	// (h11 h12 + h21 h22) w + h31 h32 = 0; (h11² + h21² − h12² − h22²) w + h31² − h32² = 0
	p := a[0][0]*a[0][1] + a[1][0]*a[1][1]
	q := a[2][0] * a[2][1]
	r := a[0][0]*a[0][0] + a[1][0]*a[1][0] - a[0][1]*a[0][1] - a[1][1]*a[1][1]
	t := a[2][0]*a[2][0] - a[2][1]*a[2][1]
	den := p*p + r*r
	if den == 0 {
		return 0, false
	}
	wv := -(p*q + r*t) / den
	if !(wv > 0) {
		return 0, false
	}
	f := 1 / math.Sqrt(wv)
	// The perspective terms must be large enough to carry information: a
	// tilt of about 4° or more at this focal length.
	tilt := math.Hypot(a[2][0], a[2][1]) * f
	if tilt < 0.07 || f < 0.3*w || f > 4*w {
		return 0, false
	}
	return f, true
}

// Focal returns the focal length in pixels the calibration implies and
// where it comes from: the lens model ("lens"), the perspective of the
// board ("homography"), or the usual overhead module's field of view
// ("default") when the camera looks straight down.
func (c *Calibration) Focal() (f, cx, cy float64, from string) {
	w, h := float64(c.ImageSize.W), float64(c.ImageSize.H)
	cx, cy = (w-1)/2, (h-1)/2
	if c.Lens != nil {
		k := c.Lens.CameraMatrix
		return (k[0][0] + k[1][1]) / 2, k[0][2], k[1][2], "lens"
	}
	if f, ok := FocalFromHomography(c.HInv, cx, cy, w); ok {
		return f, cx, cy, "homography"
	}
	return w / 2 / math.Tan(DefaultHFOV/2*math.Pi/180), cx, cy, "default"
}

// Tilt returns the angle in degrees between the camera's axis and the
// perpendicular to the board: 0 for a camera looking straight down.
func (c *Calibration) Tilt() float64 {
	f, cx, cy, _ := c.Focal()
	return tiltOf(c.HInv, f, cx, cy)
}

// tiltOf is the camera's tilt from the plane-to-image homography hb and
// the intrinsics.
func tiltOf(hb Homography, f, cx, cy float64) float64 {
	var m [3][2]float64
	for j := 0; j < 2; j++ {
		m[0][j] = (hb[0][j] - cx*hb[2][j]) / f
		m[1][j] = (hb[1][j] - cy*hb[2][j]) / f
		m[2][j] = hb[2][j]
	}
	var r [2][3]float64
	for j := 0; j < 2; j++ {
		n := math.Sqrt(m[0][j]*m[0][j] + m[1][j]*m[1][j] + m[2][j]*m[2][j])
		if n == 0 {
			return 90
		}
		for i := 0; i < 3; i++ {
			r[j][i] = m[i][j] / n
		}
	}
	// The board's normal in camera coordinates; its z component is the
	// cosine of the tilt.
	nz := r[0][0]*r[1][1] - r[0][1]*r[1][0]
	nx := r[0][1]*r[1][2] - r[0][2]*r[1][1]
	ny := r[0][2]*r[1][0] - r[0][0]*r[1][2]
	n := math.Sqrt(nx*nx + ny*ny + nz*nz)
	if n == 0 {
		return 90
	}
	return math.Acos(math.Min(1, math.Abs(nz)/n)) * 180 / math.Pi
}
