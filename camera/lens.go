package camera

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"time"
)

// Lens is a camera's intrinsic model from a chessboard calibration:
// OpenCV's pinhole model with radial and tangential distortion.
type Lens struct {
	// ImageSize is the frame size the model was fitted for, [width, height].
	ImageSize Size `json:"image_size"`
	// CameraMatrix is [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] in pixels.
	CameraMatrix [3][3]float64 `json:"camera_matrix"`
	// Distortion holds the coefficients in OpenCV's order:
	// k1, k2, p1, p2[, k3[, k4, k5, k6]].
	Distortion []float64 `json:"dist_coeffs"`
	// RMS is the root-mean-square re-projection error of the chessboard
	// corners, in pixels.
	RMS float64 `json:"rms_px"`
	// Images is the number of chessboard views the fit used.
	Images int `json:"images"`
	// Pattern is the chessboard used.
	Pattern Chessboard `json:"pattern"`
	// Created is when the lens was calibrated.
	Created time.Time `json:"created"`
}

// Chessboard describes a printed calibration chessboard by its inner
// corners (a board of 10×7 squares has 9×6 inner corners).
type Chessboard struct {
	Cols   int     `json:"cols"`
	Rows   int     `json:"rows"`
	Square float64 `json:"square_mm"`
}

// DefaultChessboard is OpenCV's usual 9×6 pattern with 25 mm squares.
var DefaultChessboard = Chessboard{Cols: 9, Rows: 6, Square: 25}

// Validate checks the pattern: 3 to 50 inner corners each way, different
// counts, a positive square.
func (c Chessboard) Validate() error {
	if c.Cols < 3 || c.Rows < 3 || c.Cols > 50 || c.Rows > 50 {
		return fmt.Errorf("chessboard of %dx%d inner corners: each must be 3 to 50", c.Cols, c.Rows)
	}
	if c.Cols == c.Rows {
		return fmt.Errorf("chessboard of %dx%d inner corners: use a board with different counts so its orientation is unambiguous", c.Cols, c.Rows)
	}
	if !(c.Square > 0) || math.IsInf(c.Square, 0) {
		return fmt.Errorf("chessboard square %v mm is not positive", c.Square)
	}
	return nil
}

// Validate checks the model.
func (l *Lens) Validate() error {
	var errs []error
	if l.ImageSize.W <= 0 || l.ImageSize.H <= 0 {
		errs = append(errs, fmt.Errorf("image_size: %dx%d is not positive", l.ImageSize.W, l.ImageSize.H))
	}
	k := l.CameraMatrix
	for r := range k {
		for c := range k[r] {
			if math.IsNaN(k[r][c]) || math.IsInf(k[r][c], 0) {
				errs = append(errs, fmt.Errorf("camera_matrix[%d][%d]: not finite", r, c))
			}
		}
	}
	if !(k[0][0] > 0) || !(k[1][1] > 0) {
		errs = append(errs, fmt.Errorf("camera_matrix: focal lengths %v, %v must be positive", k[0][0], k[1][1]))
	}
	if k[1][0] != 0 || k[2][0] != 0 || k[2][1] != 0 || k[2][2] != 1 {
		errs = append(errs, errors.New("camera_matrix: want [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]"))
	}
	switch len(l.Distortion) {
	case 4, 5, 8:
	default:
		errs = append(errs, fmt.Errorf("dist_coeffs: %d coefficients (want 4, 5 or 8: k1, k2, p1, p2[, k3[, k4, k5, k6]])", len(l.Distortion)))
	}
	for i, v := range l.Distortion {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Errorf("dist_coeffs[%d]: not finite", i))
		}
	}
	if !(l.RMS >= 0) {
		errs = append(errs, fmt.Errorf("rms_px: %v", l.RMS))
	}
	return errors.Join(errs...)
}

// Save writes the lens model as indented JSON, atomically.
func (l *Lens) Save(path string) error {
	if err := l.Validate(); err != nil {
		return fmt.Errorf("calibrate: not saving %s: %w", path, err)
	}
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return fmt.Errorf("calibrate: %s: %w", path, err)
	}
	return writeAtomic(path, append(b, '\n'))
}

// LoadLens reads and validates a lens file written by [Lens.Save].
func LoadLens(path string) (*Lens, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var l Lens
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("calibrate: %s: %w", path, jsonError(b, err))
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("calibrate: %s: %w", path, err)
	}
	return &l, nil
}

func (l *Lens) coeffs() (k1, k2, p1, p2, k3, k4, k5, k6 float64) {
	d := make([]float64, 8)
	copy(d, l.Distortion)
	return d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]
}

// distortNorm applies the distortion to normalised camera coordinates.
func (l *Lens) distortNorm(x, y float64) (float64, float64) {
	k1, k2, p1, p2, k3, k4, k5, k6 := l.coeffs()
	r2 := x*x + y*y
	radial := (1 + r2*(k1+r2*(k2+r2*k3))) / (1 + r2*(k4+r2*(k5+r2*k6)))
	xd := x*radial + 2*p1*x*y + p2*(r2+2*x*x)
	yd := y*radial + p1*(r2+2*y*y) + 2*p2*x*y
	return xd, yd
}

// Distort maps an undistorted pixel position to where the camera records
// it.
func (l *Lens) Distort(p Point) Point {
	k := l.CameraMatrix
	x := (p.X - k[0][2]) / k[0][0]
	y := (p.Y - k[1][2]) / k[1][1]
	xd, yd := l.distortNorm(x, y)
	return Pt(xd*k[0][0]+k[0][2], yd*k[1][1]+k[1][2])
}

// Undistort maps a recorded (distorted) pixel position to the undistorted
// image, the inverse of [Lens.Distort] (solved by Newton iteration; exact
// to well under 0.01 px inside the image).
func (l *Lens) Undistort(p Point) Point {
	k := l.CameraMatrix
	xd := (p.X - k[0][2]) / k[0][0]
	yd := (p.Y - k[1][2]) / k[1][1]
	x, y := xd, yd
	for it := 0; it < 30; it++ {
		fx, fy := l.distortNorm(x, y)
		ex, ey := fx-xd, fy-yd
		if ex*ex+ey*ey < 1e-20 {
			break
		}
		// Numerical Jacobian of the distortion.
		const h = 1e-7
		ax, ay := l.distortNorm(x+h, y)
		bx, by := l.distortNorm(x, y+h)
		j00, j01 := (ax-fx)/h, (bx-fx)/h
		j10, j11 := (ay-fy)/h, (by-fy)/h
		det := j00*j11 - j01*j10
		if det == 0 {
			break
		}
		x -= (j11*ex - j01*ey) / det
		y -= (-j10*ex + j00*ey) / det
	}
	return Pt(x*k[0][0]+k[0][2], y*k[1][1]+k[1][2])
}
