package calibrate

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/internal/realboards"
	"github.com/boardcam/boardcam/render/mounting"
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
	if ok, wind := camera.QuadConvex(annCorners(a)); !ok || wind < 0 {
		return errors.New("corners_px are not a clockwise convex quadrilateral")
	}
	return nil
}

func annCorners(a realboards.Annotation) [4]Point {
	var q [4]Point
	for i, c := range a.Corners {
		q[i] = Pt(c[0], c[1])
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
	m, err := cvio.ReadImage(path, false)
	if err != nil {
		m.Close()
		t.Fatalf("cannot read %s: %v", path, err)
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

// TestDetectRealBoards runs the automatic calibration on every photograph
// and on transformed copies of the photos in scope standing for other
// mountings (realboards.Mountings: framed on the surface, turned,
// downscaled, darkened with a colour cast, compressed; the annotation
// carried through the same homography). A view showing the whole surface
// must be found with every corner within 0.5% of the board's width; a view
// showing less (a corner outside the picture) may be refused, never
// accepted with a corner further off. The photo taken from the side must be
// refused as too oblique, and so must its copies, never accepted.
func TestDetectRealBoards(t *testing.T) {
	dir := realboardsDir(t)
	var worst float64
	var found, refused, views int
	var refusals []string
	for _, a := range loadAnnotations(t) {
		img := readImage(t, filepath.Join(dir, a.File))
		ms := []realboards.Mounting{{Name: "photo"}}
		if a.InScope || testing.Verbose() {
			ms = append(ms, realboards.Mountings()...)
		}
		for _, m := range ms {
			view, b := img, a
			if m.Name != "photo" {
				var err error
				if view, b, err = mounting.Apply(m, img, a); err != nil {
					t.Fatal(err)
				}
			}
			name := b.File
			if m.Name == "photo" {
				name = a.File
			}
			cal, rep, err := Detect(view, Options{})
			width := b.Width()
			whole := true
			for _, o := range b.Outside {
				whole = whole && !o
			}
			views++
			switch {
			case err != nil && !a.InScope:
				t.Logf("%-52s refused (out of scope): %v", name, err)
				if !errors.Is(err, ErrTooOblique) && !errors.Is(err, ErrUnsure) && !errors.Is(err, ErrNoBoard) {
					t.Errorf("%s: refused with an unexpected error: %v", name, err)
				}
				if m.Name == "photo" && !errors.Is(err, ErrTooOblique) {
					t.Errorf("%s: the side view is not reported as too oblique: %v", name, err)
				}
			case err != nil:
				refused++
				refusals = append(refusals, name)
				t.Logf("%-52s refused: %v", name, err)
				if whole {
					t.Errorf("%s: a view of the whole surface was refused: %v", name, err)
				}
			case !a.InScope:
				t.Errorf("%s (out of scope): accepted with confidence %.2f, tilt %.0f°", name, cal.Quality.Score, cal.Tilt())
			default:
				found++
				writeDebug(t, safeName(name)+".png", view, cal, rep)
				e := cornerErrors(rep.ImageCorners, annCorners(b))
				mx := math.Max(math.Max(e[0], e[1]), math.Max(e[2], e[3]))
				t.Logf("%-52s width %6.1f px  corners %.2f %.2f %.2f %.2f px, worst %.2f%% of the width  edges %v  confidence %.2f  tilt %.0f°  %v",
					name, width, e[0], e[1], e[2], e[3], 100*mx/width, cal.Quality.Edges, cal.Quality.Score, cal.Tilt(), rep.Elapsed.Round(1e6))
				if mx > 0.005*width {
					what := "a view of the whole surface"
					if !whole {
						what = "a view of part of the surface, wrongly accepted"
					}
					t.Errorf("%s: %s: worst corner %.2f px from the annotation, more than 0.5%% of the %.0f px board", name, what, mx, width)
				}
				worst = math.Max(worst, mx/width)
			}
			if m.Name != "photo" {
				view.Close()
			}
		}
		img.Close()
	}
	t.Logf("%d views: %d found (worst corner %.3f%% of the board width), %d refused (views of part of the surface: %s)", views, found, 100*worst, refused, strings.Join(refusals, ", "))
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
	cvio.WriteImage(filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+".debug.png"), out)
}

// safeName turns a transformed copy's name into a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
}
