package calibrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// annotation is one hand annotation in testdata/realboards (the format is
// documented in docs/calibration.md).
type annotation struct {
	File           string        `json:"file"`
	Version        int           `json:"version"`
	ImageSize      [2]int        `json:"image_size"`
	InScope        bool          `json:"in_scope"`
	ScopeNote      string        `json:"scope_note"`
	Corners        [4][2]float64 `json:"corners_px"`
	Outside        [4]bool       `json:"corners_outside"`
	Uncertainty    [4]float64    `json:"corner_uncertainty_px"`
	CornerMethod   string        `json:"corner_method"`
	Pieces         []annPiece    `json:"pieces"`
	PiecesComplete bool          `json:"pieces_complete"`
	Notes          string        `json:"notes"`
}

type annPiece struct {
	Class   string     `json:"class"`
	Center  [2]float64 `json:"center_px"`
	Radius  float64    `json:"radius_px"`
	Partial bool       `json:"partial"`
	Note    string     `json:"note"`
}

// repoRoot walks up from the working directory to the directory holding
// go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// realboardsDir is where the photographs are: $BOARDCAM_REALBOARDS, else
// ../shared/realboards next to the repository. It skips the test when the
// folder is absent.
func realboardsDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("BOARDCAM_REALBOARDS")
	if dir == "" {
		dir = filepath.Join(repoRoot(t), "..", "shared", "realboards")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("real board photographs not found in %s (set BOARDCAM_REALBOARDS)", dir)
	}
	return dir
}

func loadAnnotations(t testing.TB) []annotation {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "testdata", "realboards", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no annotations in testdata/realboards")
	}
	sort.Strings(files)
	var out []annotation
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var a annotation
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := a.validate(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if filepath.Base(f) != a.File+".json" {
			t.Fatalf("%s annotates %q: the file must be named after the photo", f, a.File)
		}
		out = append(out, a)
	}
	return out
}

func (a annotation) validate() error {
	if a.Version != 1 {
		return fmt.Errorf("version %d", a.Version)
	}
	if a.ImageSize[0] <= 0 || a.ImageSize[1] <= 0 {
		return errors.New("image_size")
	}
	var q [4]Point
	for i, c := range a.Corners {
		q[i] = Point{c[0], c[1]}
		out := c[0] < -0.5 || c[1] < -0.5 || c[0] > float64(a.ImageSize[0])-0.5 || c[1] > float64(a.ImageSize[1])-0.5
		if out != a.Outside[i] {
			return fmt.Errorf("corners_outside[%d] is %v but the corner (%.1f, %.1f) is %s the image", i, a.Outside[i], c[0], c[1], map[bool]string{true: "outside", false: "inside"}[out])
		}
	}
	if ok, wind := quadConvex(q); !ok || wind < 0 {
		return errors.New("corners_px are not a clockwise convex quadrilateral")
	}
	for i, u := range a.Uncertainty {
		if !(u > 0) {
			return fmt.Errorf("corner_uncertainty_px[%d] missing", i)
		}
	}
	if !a.InScope && a.ScopeNote == "" {
		return errors.New("out of scope without a scope_note")
	}
	for i, p := range a.Pieces {
		switch p.Class {
		case "white", "black", "queen", "striker":
		default:
			return fmt.Errorf("pieces[%d]: class %q", i, p.Class)
		}
		if !(p.Radius > 0) {
			return fmt.Errorf("pieces[%d]: radius_px", i)
		}
		if !p.Partial && (p.Center[0] < 0 || p.Center[1] < 0 || p.Center[0] > float64(a.ImageSize[0]) || p.Center[1] > float64(a.ImageSize[1])) {
			return fmt.Errorf("pieces[%d]: centre outside the image but not marked partial", i)
		}
	}
	return nil
}

func (a annotation) corners() [4]Point {
	var q [4]Point
	for i, c := range a.Corners {
		q[i] = Point{c[0], c[1]}
	}
	return q
}

// boardWidth is the mean side length of the annotated surface, px.
func (a annotation) boardWidth() float64 {
	q := a.corners()
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
	byName := map[string]annotation{}
	for _, a := range anns {
		byName[a.File] = a
	}
	c1, ok1 := byName["udayan14--cap1.jpg"]
	c2, ok2 := byName["udayan14--cap2.jpg"]
	if !ok1 || !ok2 {
		t.Fatal("annotations of udayan14--cap1.jpg and --cap2.jpg missing")
	}
	for i := range c1.Corners {
		d := c1.corners()[i].Dist(c2.corners()[i])
		if d > c1.Uncertainty[i]+c2.Uncertainty[i] {
			t.Errorf("cap1 and cap2 corner %d differ by %.2f px, more than their uncertainties", i, d)
		}
	}
	dir := os.Getenv("BOARDCAM_REALBOARDS")
	if dir == "" {
		dir = filepath.Join(repoRoot(t), "..", "shared", "realboards")
	}
	if _, err := os.Stat(dir); err != nil {
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
			width := a.boardWidth()
			tol := 0.005 * width
			if err != nil {
				if a.InScope {
					t.Fatalf("detect: %v", err)
				}
				t.Logf("out of scope (%s): detect failed: %v", a.File, err)
				return
			}
			writeDebug(t, a.File, img, cal, rep)
			e := cornerErrors(rep.ImageCorners, a.corners())
			mx := math.Max(math.Max(e[0], e[1]), math.Max(e[2], e[3]))
			mean := (e[0] + e[1] + e[2] + e[3]) / 4
			t.Logf("%-36s width %6.1f px  corner errors TL %.2f TR %.2f BR %.2f BL %.2f px  max %.2f px = %.2f%% of width (limit 0.5%%)  edges %v  score %.2f  %v",
				a.File, width, e[0], e[1], e[2], e[3], mx, 100*mx/width, cal.Quality.Edges, cal.Quality.Score, rep.Elapsed.Round(1e6))
			if _, rr, err := Detect(img, Options{RefineWithMarkings: true}); err == nil {
				r := cornerErrors(rr.ImageCorners, a.corners())
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
