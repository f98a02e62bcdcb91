package calibrate

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// trueLens is the camera the synthetic chessboard views are taken with: a
// strongly barrel-distorting wide lens, as on a Raspberry Pi camera close
// over a board.
func trueLens() *Lens {
	return &Lens{
		ImageSize:    Size{W: 640, H: 480},
		CameraMatrix: [3][3]float64{{520, 0, 322}, {0, 520, 236}, {0, 0, 1}},
		Distortion:   []float64{-0.28, 0.09, 0, 0, 0},
	}
}

// chessboardViews renders n views of a 9×6 (inner corners) chessboard
// with 25 mm squares through lens l: each output pixel is undistorted,
// taken back to the board plane through the view's pose, and sampled 3×3
// for anti-aliasing.
func chessboardViews(t testing.TB, l *Lens, n int, near bool) []gocv.Mat {
	t.Helper()
	w, h := l.ImageSize.W, l.ImageSize.H
	// Undistortion of every pixel (and its sub-samples), shared by all views.
	const ss = 3
	und := make([]Point, w*h*ss*ss)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					p := Pt(float64(x)+(float64(sx)+0.5)/ss-0.5, float64(y)+(float64(sy)+0.5)/ss-0.5)
					und[((y*w+x)*ss+sy)*ss+sx] = l.Undistort(p)
				}
			}
		}
	}
	k := l.CameraMatrix
	var out []gocv.Mat
	for i := 0; i < n; i++ {
		// Pose: board (10×7 squares of 25 mm, centred) tilted differently
		// in each view, 450–600 mm from the camera, off centre.
		a := 2 * math.Pi * float64(i) / float64(n)
		rx := 0.45 * math.Cos(a)
		ry := 0.45 * math.Sin(a)
		rz := 0.3 * math.Sin(2*a)
		R := mul3(mul3(
			[3][3]float64{{1, 0, 0}, {0, math.Cos(rx), -math.Sin(rx)}, {0, math.Sin(rx), math.Cos(rx)}},
			[3][3]float64{{math.Cos(ry), 0, math.Sin(ry)}, {0, 1, 0}, {-math.Sin(ry), 0, math.Cos(ry)}}),
			[3][3]float64{{math.Cos(rz), -math.Sin(rz), 0}, {math.Sin(rz), math.Cos(rz), 0}, {0, 0, 1}})
		tz := 480 + 60*math.Cos(3*a)
		tx := 90 * math.Cos(a+1)
		ty := 60 * math.Sin(a+1)
		if near {
			// Close and square on: the board fills most of the frame,
			// where the lens bends lines most.
			rx, ry, rz = rx/4, ry/4, rz/4
			R = mul3(mul3(
				[3][3]float64{{1, 0, 0}, {0, math.Cos(rx), -math.Sin(rx)}, {0, math.Sin(rx), math.Cos(rx)}},
				[3][3]float64{{math.Cos(ry), 0, math.Sin(ry)}, {0, 1, 0}, {-math.Sin(ry), 0, math.Cos(ry)}}),
				[3][3]float64{{math.Cos(rz), -math.Sin(rz), 0}, {math.Sin(rz), math.Cos(rz), 0}, {0, 0, 1}})
			tz, tx, ty = 300, 15*math.Cos(a), 10*math.Sin(a)
		}
		M := [3][3]float64{{R[0][0], R[0][1], tx}, {R[1][0], R[1][1], ty}, {R[2][0], R[2][1], tz}}
		H := Homography(mul3(k, M)).Normalised() // board mm → undistorted px
		inv, err := H.Inverse()
		if err != nil {
			t.Fatal(err)
		}
		img := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC1)
		d, _ := img.DataPtrUint8()
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var sum float64
				for s := 0; s < ss*ss; s++ {
					q := inv.Apply(und[(y*w+x)*ss*ss+s])
					// Board: squares of 25 mm, 10×7, centred; white margin.
					u, v := q.X/25+5, q.Y/25+3.5
					val := 235.0
					if u >= 0 && u < 10 && v >= 0 && v < 7 {
						if (int(math.Floor(u))+int(math.Floor(v)))%2 == 0 {
							val = 25
						}
					} else if u < -1.5 || u > 11.5 || v < -1.5 || v > 8.5 {
						val = 110 // table beyond the paper
					}
					sum += val
				}
				d[y*w+x] = uint8(sum / (ss * ss))
			}
		}
		out = append(out, img)
	}
	return out
}

// TestCalibrateLensRecoversDistortion calibrates from synthetic views of
// a lens with known coefficients and checks they come back.
func TestCalibrateLensRecoversDistortion(t *testing.T) {
	want := trueLens()
	views := chessboardViews(t, want, 10, false)
	defer func() {
		for _, v := range views {
			v.Close()
		}
	}()
	got, rep, err := CalibrateLens(views, nil, DefaultChessboard, false, fixedNow())
	if err != nil {
		for _, r := range rep {
			t.Logf("%s: found %v", r.Name, r.Found)
		}
		t.Fatal(err)
	}
	t.Logf("rms %.3f px over %d views; K %v; dist %v", got.RMS, got.Images, got.CameraMatrix, got.Distortion)
	if got.Images < 8 {
		t.Errorf("chessboard found in only %d of 10 views", got.Images)
	}
	if got.RMS > 0.3 {
		t.Errorf("re-projection RMS %.3f px", got.RMS)
	}
	if d := math.Abs(got.CameraMatrix[0][0]-520) / 520; d > 0.01 {
		t.Errorf("fx %.1f, want 520 ±1%%", got.CameraMatrix[0][0])
	}
	if d := math.Hypot(got.CameraMatrix[0][2]-322, got.CameraMatrix[1][2]-236); d > 3 {
		t.Errorf("principal point (%.1f, %.1f), want (322, 236) ±3 px", got.CameraMatrix[0][2], got.CameraMatrix[1][2])
	}
	if math.Abs(got.Distortion[0]-(-0.28)) > 0.02 || math.Abs(got.Distortion[1]-0.09) > 0.03 {
		t.Errorf("k1, k2 = %.3f, %.3f; want -0.28 ±0.02, 0.09 ±0.03", got.Distortion[0], got.Distortion[1])
	}
	// What matters in use: the fitted model moves points like the true one.
	var worst float64
	for y := 0.0; y < 480; y += 40 {
		for x := 0.0; x < 640; x += 40 {
			p := Pt(x, y)
			worst = math.Max(worst, got.Undistort(p).Dist(want.Undistort(p)))
		}
	}
	t.Logf("largest difference of undistorted positions over the image: %.2f px", worst)
	if worst > 1.0 {
		t.Errorf("fitted lens undistorts up to %.2f px differently from the true one", worst)
	}

	// Save and load round trip.
	path := filepath.Join(t.TempDir(), "lens.json")
	if err := got.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadLens(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.CameraMatrix != got.CameraMatrix || len(back.Distortion) != len(got.Distortion) {
		t.Errorf("lens changed on the way through JSON")
	}
}

// TestUndistorterStraightensLines undistorts a view and checks that the
// chessboard's rows, bowed by the lens, come out straight.
func TestUndistorterStraightensLines(t *testing.T) {
	l := trueLens()
	views := chessboardViews(t, l, 3, true)
	defer func() {
		for _, v := range views {
			v.Close()
		}
	}()
	u, err := NewUndistorter(l)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	dst := gocv.NewMat()
	defer dst.Close()
	for i, v := range views {
		if err := u.Apply(v, &dst); err != nil {
			t.Fatal(err)
		}
		before := rowStraightness(t, v)
		after := rowStraightness(t, dst)
		t.Logf("view %d: worst row bow %.2f px before, %.2f px after undistortion", i, before, after)
		if before < 1 {
			t.Errorf("view %d: the synthetic lens bends rows only %.2f px: the test proves nothing", i, before)
		}
		if after > 0.25 {
			t.Errorf("view %d: rows still bow %.2f px after undistortion", i, after)
		}
	}
	wrong := gocv.NewMatWithSize(100, 100, gocv.MatTypeCV8UC1)
	defer wrong.Close()
	if err := u.Apply(wrong, &dst); err == nil {
		t.Error("a frame of the wrong size was accepted")
	}
}

// rowStraightness finds the chessboard and returns the largest distance of
// a corner from the straight line through its row.
func rowStraightness(t *testing.T, img gocv.Mat) float64 {
	t.Helper()
	pts, ok, err := FindChessboard(img, DefaultChessboard)
	if err != nil || !ok {
		t.Fatalf("chessboard not found (%v)", err)
	}
	var worst float64
	for r := 0; r < DefaultChessboard.Rows; r++ {
		row := pts[r*DefaultChessboard.Cols : (r+1)*DefaultChessboard.Cols]
		f, ok := fitLine(row, 100)
		if !ok {
			t.Fatal("row fit failed")
		}
		for _, p := range row {
			worst = math.Max(worst, math.Abs(f.L.Dist(p)))
		}
	}
	return worst
}

// TestLensPointsMatchOpenCV checks the Go distortion model against
// OpenCV's undistortPoints.
func TestLensPointsMatchOpenCV(t *testing.T) {
	l := trueLens()
	l.Distortion = []float64{-0.28, 0.09, 0.001, -0.0015, 0.02}
	k, d := lensMats(l)
	defer k.Close()
	defer d.Close()
	var pts []gocv.Point2f
	for y := 10.0; y < 480; y += 47 {
		for x := 10.0; x < 640; x += 53 {
			pts = append(pts, gocv.Point2f{X: float32(x), Y: float32(y)})
		}
	}
	src := gocv.NewMatWithSize(len(pts), 1, gocv.MatTypeCV32FC2)
	defer src.Close()
	for i, p := range pts {
		src.SetFloatAt(i, 0, p.X)
		src.SetFloatAt(i, 1, p.Y)
	}
	dst := gocv.NewMat()
	defer dst.Close()
	r := gocv.NewMat()
	defer r.Close()
	gocv.UndistortPoints(src, &dst, k, d, r, k)
	var worst float64
	for i, p := range pts {
		cv := Pt(float64(dst.GetFloatAt(i, 0)), float64(dst.GetFloatAt(i, 1)))
		g := l.Undistort(Pt(float64(p.X), float64(p.Y)))
		worst = math.Max(worst, cv.Dist(g))
		if back := l.Distort(g); back.Dist(Pt(float64(p.X), float64(p.Y))) > 1e-3 {
			t.Errorf("Distort(Undistort(%v)) = %v", p, back)
		}
	}
	if worst > 0.05 {
		t.Errorf("Go and OpenCV undistort points up to %.3f px apart", worst)
	}
}

func TestLensValidate(t *testing.T) {
	good := trueLens()
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := *trueLens()
	bad.Distortion = []float64{0.1, 0.2, 0.3}
	if err := bad.Validate(); err == nil {
		t.Error("three coefficients accepted")
	}
	bad = *trueLens()
	bad.CameraMatrix[0][0] = 0
	if err := bad.Validate(); err == nil {
		t.Error("zero focal length accepted")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "lens.json")
	if err := os.WriteFile(p, []byte(`{"image_size":[640,480],"camera_matrix":[[1,0,0],[0,1,0],[0,0,1]],"dist_coeffs":[0,0,0,0],"rms_px":0.1,"images":3,"pattern":{"cols":9,"rows":6,"square_mm":25},"created":"2025-01-01T00:00:00Z","extra":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadLens(p); err == nil {
		t.Error("unknown field accepted")
	}
	views := []gocv.Mat{gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC1)}
	defer views[0].Close()
	if _, _, err := CalibrateLens(views, []string{"blank.png"}, DefaultChessboard, false, fixedNow()); err == nil {
		t.Error("calibration from a blank image succeeded")
	}
}
