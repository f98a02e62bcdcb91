package calibrate

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"time"

	"gocv.io/x/gocv"
)

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
	if err := pat.Validate(); err != nil {
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
	if err := pat.Validate(); err != nil {
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
	l := &Lens{ImageSize: Size{W: size.X, H: size.Y}, RMS: rms, Images: len(objAll), Pattern: pat, Created: now.UTC()}
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

func lensMats(l *Lens) (gocv.Mat, gocv.Mat) {
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
	k, d := lensMats(l)
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

// partUndistorter undistorts only some rectangles of frames: the parts a
// Checker reads. The remap tables of those rectangles are copied from a
// whole frame's, stacked one under the other (rectangle k at row rows[k],
// column 0), and one remap makes the stacked parts: each pixel is the
// whole frame remap's (remap reads a pixel's own table entries only), at
// a few hundred small rectangles' cost instead of the whole frame's tables
// (5.5 MB at 720p) and undistorted copy (2.76 MB).
type partUndistorter struct {
	map1, map2 gocv.Mat
	img        gocv.Mat // the stacked parts of the last frame
	rows       []int
	size       Size
}

// parts makes a partUndistorter for rects from u's tables.
func (u *Undistorter) parts(rects []image.Rectangle) *partUndistorter {
	w, h := 1, 0
	rows := make([]int, len(rects))
	for i, r := range rects {
		rows[i] = h
		h += r.Dy()
		w = max(w, r.Dx())
	}
	h = max(h, 1)
	// Cells of no rectangle point far outside the frame: remap leaves
	// them black, and nothing reads them.
	p := &partUndistorter{
		map1: gocv.NewMatWithSizeFromScalar(gocv.NewScalar(-16, -16, 0, 0), h, w, gocv.MatTypeCV16SC2),
		map2: gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), h, w, gocv.MatTypeCV16UC1),
		img:  gocv.NewMat(),
		rows: rows,
		size: u.lens.ImageSize,
	}
	for i, r := range rects {
		to := image.Rect(0, rows[i], r.Dx(), rows[i]+r.Dy())
		for _, m := range [][2]*gocv.Mat{{&u.map1, &p.map1}, {&u.map2, &p.map2}} {
			src := m[0].Region(r)
			dst := m[1].Region(to)
			src.CopyTo(&dst)
			src.Close()
			dst.Close()
		}
	}
	return p
}

// apply undistorts the parts of src into p.img.
func (p *partUndistorter) apply(src gocv.Mat) error {
	if src.Cols() != p.size.W || src.Rows() != p.size.H {
		return fmt.Errorf("calibrate: undistort: frame is %dx%d, the lens was calibrated at %dx%d", src.Cols(), src.Rows(), p.size.W, p.size.H)
	}
	gocv.Remap(src, &p.img, &p.map1, &p.map2, gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	return nil
}

func (p *partUndistorter) Close() {
	p.map1.Close()
	p.map2.Close()
	p.img.Close()
}
