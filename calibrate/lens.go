package calibrate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"time"

	"gocv.io/x/gocv"
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

func (c Chessboard) validate() error {
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

// OpenCV's calibrateCamera flags. gocv v0.31.0's CalibFlag constants are
// the fisheye module's values, which mean different things to
// calibrateCamera, so the real values are spelled out here.
const (
	cvCalibZeroTangentDist gocv.CalibFlag = 0x00008
	cvCalibFixK3           gocv.CalibFlag = 0x00080
)

// LensView is what happened to one chessboard image.
type LensView struct {
	Name    string
	Found   bool
	Corners []Point // inner corners, row by row, when Found
}

// FindChessboard looks for the chessboard's inner corners in img (BGR or
// grey) and refines them to sub-pixel accuracy.
func FindChessboard(img gocv.Mat, pat Chessboard) ([]Point, bool, error) {
	if err := pat.validate(); err != nil {
		return nil, false, fmt.Errorf("calibrate: %w", err)
	}
	if img.Empty() {
		return nil, false, errors.New("calibrate: find chessboard: empty image")
	}
	grey := gocv.NewMat()
	defer grey.Close()
	switch img.Channels() {
	case 1:
		img.CopyTo(&grey)
	case 3:
		gocv.CvtColor(img, &grey, gocv.ColorBGRToGray)
	case 4:
		gocv.CvtColor(img, &grey, gocv.ColorBGRAToGray)
	default:
		return nil, false, fmt.Errorf("calibrate: find chessboard: %d channels", img.Channels())
	}
	corners := gocv.NewMat()
	defer corners.Close()
	ok := gocv.FindChessboardCorners(grey, image.Pt(pat.Cols, pat.Rows), &corners,
		gocv.CalibCBAdaptiveThresh|gocv.CalibCBNormalizeImage)
	if !ok || corners.Rows() != pat.Cols*pat.Rows {
		return nil, false, nil
	}
	gocv.CornerSubPix(grey, &corners, image.Pt(5, 5), image.Pt(-1, -1),
		gocv.NewTermCriteria(gocv.Count|gocv.EPS, 40, 0.01))
	pts := gocv.NewPoint2fVectorFromMat(corners)
	defer pts.Close()
	out := make([]Point, pts.Size())
	for i, p := range pts.ToPoints() {
		out[i] = Pt(float64(p.X), float64(p.Y))
	}
	return out, true, nil
}

// CalibrateLens fits a lens model to chessboard views of one camera (all
// the same size). Views where the chessboard is not found are reported and
// skipped; at least three must be usable. Tangential distortion and k3 are
// fixed at zero unless full is true: with the handful of views a club
// takes, the simpler model generalises better.
func CalibrateLens(views []gocv.Mat, names []string, pat Chessboard, full bool, now time.Time) (*Lens, []LensView, error) {
	if err := pat.validate(); err != nil {
		return nil, nil, fmt.Errorf("calibrate: %w", err)
	}
	var size image.Point
	obj := make([]gocv.Point3f, 0, pat.Cols*pat.Rows)
	for r := 0; r < pat.Rows; r++ {
		for c := 0; c < pat.Cols; c++ {
			obj = append(obj, gocv.Point3f{X: float32(float64(c) * pat.Square), Y: float32(float64(r) * pat.Square)})
		}
	}
	var objAll [][]gocv.Point3f
	var imgAll [][]gocv.Point2f
	report := make([]LensView, len(views))
	for i, v := range views {
		name := fmt.Sprintf("image %d", i+1)
		if i < len(names) {
			name = names[i]
		}
		report[i].Name = name
		if v.Empty() {
			return nil, report, fmt.Errorf("calibrate: lens: %s is empty", name)
		}
		s := image.Pt(v.Cols(), v.Rows())
		if size == (image.Point{}) {
			size = s
		} else if s != size {
			return nil, report, fmt.Errorf("calibrate: lens: %s is %dx%d, the first image %dx%d: all views must come from the same camera mode", name, s.X, s.Y, size.X, size.Y)
		}
		pts, ok, err := FindChessboard(v, pat)
		if err != nil {
			return nil, report, fmt.Errorf("calibrate: lens: %s: %w", name, err)
		}
		report[i].Found = ok
		if !ok {
			continue
		}
		report[i].Corners = pts
		ip := make([]gocv.Point2f, len(pts))
		for j, p := range pts {
			ip[j] = gocv.Point2f{X: float32(p.X), Y: float32(p.Y)}
		}
		objAll = append(objAll, obj)
		imgAll = append(imgAll, ip)
	}
	if len(objAll) < 3 {
		return nil, report, fmt.Errorf("calibrate: lens: the %dx%d chessboard was found in %d of %d images; need at least 3 (check --cols/--rows count inner corners, and that the whole board is in view)", pat.Cols, pat.Rows, len(objAll), len(views))
	}
	ov := gocv.NewPoints3fVectorFromPoints(objAll)
	defer ov.Close()
	iv := gocv.NewPoints2fVectorFromPoints(imgAll)
	defer iv.Close()
	k := gocv.NewMat()
	defer k.Close()
	d := gocv.NewMat()
	defer d.Close()
	rv := gocv.NewMat()
	defer rv.Close()
	tv := gocv.NewMat()
	defer tv.Close()
	flags := gocv.CalibFlag(0)
	if !full {
		flags = cvCalibZeroTangentDist | cvCalibFixK3
	}
	rms := gocv.CalibrateCamera(ov, iv, size, &k, &d, &rv, &tv, flags)
	l := &Lens{ImageSize: Size{size.X, size.Y}, RMS: rms, Images: len(objAll), Pattern: pat, Created: now.UTC()}
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			l.CameraMatrix[r][c] = k.GetDoubleAt(r, c)
		}
	}
	n := d.Total()
	for i := 0; i < n; i++ {
		l.Distortion = append(l.Distortion, d.GetDoubleAt(0, i))
	}
	if len(l.Distortion) > 5 && !full {
		l.Distortion = l.Distortion[:5]
	}
	if err := l.Validate(); err != nil {
		return nil, report, fmt.Errorf("calibrate: lens fit is not usable: %w", err)
	}
	return l, report, nil
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

func (l *Lens) mats() (gocv.Mat, gocv.Mat) {
	k := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			k.SetDoubleAt(r, c, l.CameraMatrix[r][c])
		}
	}
	d := gocv.NewMatWithSize(1, len(l.Distortion), gocv.MatTypeCV64F)
	for i, v := range l.Distortion {
		d.SetDoubleAt(0, i, v)
	}
	return k, d
}

// Undistorter removes lens distortion from frames. The remap tables are
// built once; [Undistorter.Apply] costs one remap per frame into a Mat the
// caller keeps. The undistorted image keeps the camera matrix, so it has
// the same size and scale as the frames.
type Undistorter struct {
	lens       *Lens
	map1, map2 gocv.Mat
}

// NewUndistorter builds the remap tables for l. Close it when done.
func NewUndistorter(l *Lens) (*Undistorter, error) {
	if l == nil {
		return nil, errors.New("calibrate: undistorter: no lens")
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("calibrate: undistorter: %w", err)
	}
	k, d := l.mats()
	defer k.Close()
	defer d.Close()
	r := gocv.NewMat()
	defer r.Close()
	u := &Undistorter{lens: l, map1: gocv.NewMat(), map2: gocv.NewMat()}
	gocv.InitUndistortRectifyMap(k, d, r, k, l.ImageSize.Point(), int(gocv.MatTypeCV16SC2), u.map1, u.map2)
	if u.map1.Empty() {
		u.Close()
		return nil, errors.New("calibrate: undistorter: OpenCV built no remap table")
	}
	return u, nil
}

// Apply writes the undistorted src into dst (allocated by the caller once,
// reused every frame).
func (u *Undistorter) Apply(src gocv.Mat, dst *gocv.Mat) error {
	if src.Cols() != u.lens.ImageSize.W || src.Rows() != u.lens.ImageSize.H {
		return fmt.Errorf("calibrate: undistort: frame is %dx%d, the lens was calibrated at %dx%d", src.Cols(), src.Rows(), u.lens.ImageSize.W, u.lens.ImageSize.H)
	}
	gocv.Remap(src, dst, &u.map1, &u.map2, gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	return nil
}

// Close releases the remap tables.
func (u *Undistorter) Close() {
	u.map1.Close()
	u.map2.Close()
}
