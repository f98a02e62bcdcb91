package synth

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/render"
)

// lensError is the largest distance (px) over a grid of the picture
// between where the camera's own undistortion and the fitted lens's put a
// recorded point, once a homography relates the two undistorted pictures
// (a homography is what calibration fits anyway: a principal point or a
// focal length a little off only moves and scales the undistorted
// picture; a wrong distortion bends it).
func lensError(cam *render.Camera, l *calibrate.Lens) float64 {
	return lensErrorWithin(cam, l, 2)
}

// lensErrorWithin is lensError over the points within frac of the
// picture's half-diagonal from its centre.
func lensErrorWithin(cam *render.Camera, l *calibrate.Lens, frac float64) float64 {
	rmax := frac * math.Hypot(float64(cam.Width), float64(cam.Height)) / 2
	var fit, real []calibrate.Point
	for y := 0.0; y <= float64(cam.Height-1); y += float64(cam.Height-1) / 12 {
		for x := 0.0; x <= float64(cam.Width-1); x += float64(cam.Width-1) / 20 {
			if math.Hypot(x-float64(cam.Width-1)/2, y-float64(cam.Height-1)/2) > rmax {
				continue
			}
			ux, uy := cam.Undistort(x, y)
			real = append(real, calibrate.Pt(ux, uy))
			fit = append(fit, l.Undistort(calibrate.Pt(x, y)))
		}
	}
	h, err := calibrate.FitHomography(fit, real)
	if err != nil {
		return math.Inf(1)
	}
	var worst float64
	for i := range fit {
		worst = math.Max(worst, h.Apply(fit[i]).Dist(real[i]))
	}
	return worst
}

// Chessboard photos rendered through a clip's lens and fitted by
// calibrate's chessboard calibration give back the camera's lens: over the
// whole picture the fitted model undistorts every point within half a
// pixel of where the camera's own model does (0.2 px within 80% of the
// half-diagonal, where the board lies) — for the strongest lens of the corpus
// (arm-foul's wide-angle module) and an ordinary one. A lens fitted to one
// camera's photos does not fit another's (the check can fail).
func TestChessboardViewsGiveTheLens(t *testing.T) {
	if testing.Short() {
		t.Skip("renders chessboard views")
	}
	cams := map[string]*render.Camera{}
	lenses := map[string]*calibrate.Lens{}
	for _, name := range []string{"arm-foul", "queen-returned"} {
		sp, err := corpus.LoadSpec(filepath.Join("..", "..", "testdata", "videos", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		cam, err := LensCamera(sp)
		if err != nil {
			t.Fatal(err)
		}
		views, err := ChessboardViews(cam, corpus.DefaultChessboardPattern, 15, 7)
		if err != nil {
			t.Fatal(err)
		}
		if dir := os.Getenv("BOARDCAM_LENS_VIEWS"); dir != "" {
			for i, v := range views {
				gocv.IMWrite(filepath.Join(dir, fmt.Sprintf("%s-%02d.png", name, i)), v)
			}
		}
		pat := calibrate.Chessboard{Cols: corpus.DefaultChessboardPattern.Cols, Rows: corpus.DefaultChessboardPattern.Rows, Square: corpus.DefaultChessboardPattern.Square}
		l, rep, err := calibrate.CalibrateLens(views, nil, pat, false, time.Unix(0, 0))
		for _, v := range views {
			v.Close()
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		found := 0
		for _, r := range rep {
			if r.Found {
				found++
			}
		}
		e := lensError(cam, l)
		for _, r := range rep {
			if !r.Found {
				t.Logf("%s: not found in %s", name, r.Name)
			}
		}
		t.Logf("%s: %d/%d views, rms %.3f px, fitted k1 %.4f k2 %.4f (camera %.4f %.4f), fx %.1f (camera %.1f), cx %.2f cy %.2f (camera %.2f %.2f), worst %.3f px (%.3f within 80%% of the half-diagonal)",
			name, found, len(rep), l.RMS, l.Distortion[0], l.Distortion[1], cam.K1, cam.K2, l.CameraMatrix[0][0], cam.Fx, l.CameraMatrix[0][2], l.CameraMatrix[1][2], cam.Cx, cam.Cy, e, lensErrorWithin(cam, l, 0.8))
		if found < 10 || l.RMS > 0.3 {
			t.Errorf("%s: chessboard found in %d of %d views, rms %.3f px", name, found, len(rep), l.RMS)
		}
		if e80 := lensErrorWithin(cam, l, 0.8); e > 0.5 || e80 > 0.2 {
			t.Errorf("%s: the fitted lens is %.2f px off the camera's somewhere in the picture, %.2f px within 80%% of the half-diagonal", name, e, e80)
		}
		cams[name], lenses[name] = cam, l
	}
	if e := lensError(cams["arm-foul"], lenses["queen-returned"]); e < 2 {
		t.Errorf("queen-returned's lens fits arm-foul's camera within %.2f px: the comparison cannot fail", e)
	}
}
