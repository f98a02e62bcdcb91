package calibrate

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/internal/realboards"
	"gocv.io/x/gocv"
)

// repoRoot is the directory holding go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := realboards.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// realboardsDir is where the photographs are (see package realboards); the
// test is skipped when the folder is absent.
func realboardsDir(t testing.TB) string {
	t.Helper()
	dir, ok := realboards.Dir()
	if !ok {
		t.Skipf("real board photographs not found in %s (set BOARDCAM_REALBOARDS)", dir)
	}
	return dir
}

func loadAnnotations(t testing.TB) []realboards.Annotation {
	t.Helper()
	anns, err := realboards.Load()
	if err != nil {
		t.Fatal(err)
	}
	return anns
}

// checkCorners adds calibrate's own check of an annotation: the corners
// form a clockwise convex quadrilateral.
func checkCorners(a realboards.Annotation) error {
	if ok, wind := quadConvex(annCorners(a)); !ok || wind < 0 {
		return errors.New("corners_px are not a clockwise convex quadrilateral")
	}
	return nil
}

func annCorners(a realboards.Annotation) [4]Point {
	var q [4]Point
	for i, c := range a.Corners {
		q[i] = Point{c[0], c[1]}
	}
	return q
}

// boardWidth is the mean side length of the annotated surface, px.
func annWidth(a realboards.Annotation) float64 {
	q := annCorners(a)
	var s float64
	for i := 0; i < 4; i++ {
		s += q[i].Dist(q[(i+1)%4])
	}
	return s / 4
}

// cornerErrors matches found corners to the annotation (allowing for the
// corner order to start elsewhere on a board turned by about 45°) and
// returns the distance of each.
func cornerErrors(found, want [4]Point) [4]float64 {
	best := [4]float64{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)}
	bestMax := math.Inf(1)
	for shift := 0; shift < 4; shift++ {
		var e [4]float64
		m := 0.0
		for i := 0; i < 4; i++ {
			e[i] = found[(i+shift)%4].Dist(want[i])
			m = math.Max(m, e[i])
		}
		if m < bestMax {
			best, bestMax = e, m
		}
	}
	return best
}

func readImage(t testing.TB, path string) gocv.Mat {
	t.Helper()
	m := gocv.IMRead(path, gocv.IMReadColor)
	if m.Empty() {
		m.Close()
		t.Fatalf("cannot read %s", path)
	}
	return m
}

// TestAnnotationsAreConsistent checks the hand annotations themselves: the
// recorded size matches the photo, and the two frames of the same fixed
// webcam (cap1, cap2) agree on where the board is.
func TestAnnotationsAreConsistent(t *testing.T) {
	anns := loadAnnotations(t)
	for _, a := range anns {
		if err := checkCorners(a); err != nil {
			t.Errorf("%s: %v", a.File, err)
		}
	}
	byName := map[string]realboards.Annotation{}
	for _, a := range anns {
		byName[a.File] = a
	}
	c1, ok1 := byName["udayan14--cap1.jpg"]
	c2, ok2 := byName["udayan14--cap2.jpg"]
	if !ok1 || !ok2 {
		t.Fatal("annotations of udayan14--cap1.jpg and --cap2.jpg missing")
	}
	for i := range c1.Corners {
		d := annCorners(c1)[i].Dist(annCorners(c2)[i])
		if d > c1.Uncertainty[i]+c2.Uncertainty[i] {
			t.Errorf("cap1 and cap2 corner %d differ by %.2f px, more than their uncertainties", i, d)
		}
	}
	dir, ok := realboards.Dir()
	if !ok {
		t.Skip("photographs absent: sizes not checked")
	}
	for _, a := range anns {
		img := readImage(t, filepath.Join(dir, a.File))
		if img.Cols() != a.ImageSize[0] || img.Rows() != a.ImageSize[1] {
			t.Errorf("%s: annotated as %dx%d, the photo is %dx%d", a.File, a.ImageSize[0], a.ImageSize[1], img.Cols(), img.Rows())
		}
		img.Close()
	}
}

// TestDetectRealBoards runs the automatic calibration on every in-scope
// photograph and fails if any corner lies farther from the hand annotation
// than 0.5% of the board's width. Out-of-scope photos are run and logged.
func TestDetectRealBoards(t *testing.T) {
	dir := realboardsDir(t)
	var worst float64
	for _, a := range loadAnnotations(t) {
		a := a
		t.Run(a.File, func(t *testing.T) {
			img := readImage(t, filepath.Join(dir, a.File))
			defer img.Close()
			cal, rep, err := Detect(img, Options{})
			width := annWidth(a)
			tol := 0.005 * width
			if err != nil {
				if a.InScope {
					t.Fatalf("detect: %v", err)
				}
				t.Logf("out of scope (%s): detect failed: %v", a.File, err)
				return
			}
			writeDebug(t, a.File, img, cal, rep)
			e := cornerErrors(rep.ImageCorners, annCorners(a))
			mx := math.Max(math.Max(e[0], e[1]), math.Max(e[2], e[3]))
			mean := (e[0] + e[1] + e[2] + e[3]) / 4
			t.Logf("%-36s width %6.1f px  corner errors TL %.2f TR %.2f BR %.2f BL %.2f px  max %.2f px = %.2f%% of width (limit 0.5%%)  edges %v  score %.2f  %v",
				a.File, width, e[0], e[1], e[2], e[3], mx, 100*mx/width, cal.Quality.Edges, cal.Quality.Score, rep.Elapsed.Round(1e6))
			if _, rr, err := Detect(img, Options{RefineWithMarkings: true}); err == nil {
				r := cornerErrors(rr.ImageCorners, annCorners(a))
				t.Logf("%-36s with RefineWithMarkings: corner errors %.2f %.2f %.2f %.2f px (mean %.2f; without %.2f)", a.File, r[0], r[1], r[2], r[3], (r[0]+r[1]+r[2]+r[3])/4, mean)
			}
			if !a.InScope {
				t.Logf("out of scope, not asserted: %s", a.ScopeNote)
				return
			}
			if mx > tol {
				t.Errorf("%s: worst corner %.2f px from the annotation, more than 0.5%% of the %.0f px board (%.2f px)", a.File, mx, width, tol)
			}
			worst = math.Max(worst, mx/width)
		})
	}
	t.Logf("worst in-scope corner error: %.3f%% of the board width", 100*worst)
}

// writeDebug writes the debug image to $BOARDCAM_DEBUG_DIR when set.
func writeDebug(t testing.TB, name string, img gocv.Mat, cal *Calibration, rep *Report) {
	dir := os.Getenv("BOARDCAM_DEBUG_DIR")
	if dir == "" || cal == nil {
		return
	}
	out := gocv.NewMat()
	defer out.Close()
	if err := DrawDebug(img, cal, nil, rep, &out); err != nil {
		t.Fatal(err)
	}
	gocv.IMWrite(filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+".debug.png"), out)
}
