package calibrate

import (
	"errors"
	"math"
	"sort"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
)

var fixedNow = func() time.Time { return time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) }

// TestDetectSynthetic calibrates synthetic 720p views (turned, tilted,
// shaded, cropped, with pieces and a hand over an edge) and checks every
// corner against the exact one.
func TestDetectSynthetic(t *testing.T) {
	g := board.ICF()
	names := make([]string, 0)
	for n := range syntheticViews() {
		names = append(names, n)
	}
	sort.Strings(names)
	var all []float64
	for _, name := range names {
		v := syntheticViews()[name]
		t.Run(name, func(t *testing.T) {
			img, truth := renderView(t, g, v)
			defer img.Close()
			cal, rep, err := Detect(img, Options{Geometry: g, Now: fixedNow})
			if err != nil {
				t.Fatalf("detect: %v", err)
			}
			writeDebug(t, "synthetic-"+name+".png", img, cal, rep)
			e := cornerErrors(rep.ImageCorners, imageOrder(truth))
			mean := (e[0] + e[1] + e[2] + e[3]) / 4
			mx := math.Max(math.Max(e[0], e[1]), math.Max(e[2], e[3]))
			all = append(all, e[:]...)
			t.Logf("%-14s corner errors %.2f %.2f %.2f %.2f px (mean %.2f, max %.2f), edges %v, score %.2f, %v",
				name, e[0], e[1], e[2], e[3], mean, mx, cal.Quality.Edges, cal.Quality.Score, rep.Elapsed.Round(time.Millisecond))
			if _, rr, err := Detect(img, Options{Geometry: g, RefineWithMarkings: true}); err == nil {
				r := cornerErrors(rr.ImageCorners, imageOrder(truth))
				t.Logf("%-14s with RefineWithMarkings: mean %.2f px (without %.2f)", name, (r[0]+r[1]+r[2]+r[3])/4, mean)
			}
			limit := 1.0
			if name == "cropped top" {
				limit = 2.5 // two corners extrapolated from the markings
			}
			if mx > limit {
				t.Errorf("worst corner %.2f px off (limit %.1f px)", mx, limit)
			}
			// The homography maps the true corners onto the board corners.
			for i, p := range imageOrder(truth) {
				got := cal.ToBoard(p)
				if d := math.Hypot(math.Abs(got.X)-g.Half(), math.Abs(got.Y)-g.Half()); d > 3 {
					t.Errorf("true corner %d maps to (%.1f, %.1f) mm, %.1f mm from a surface corner", i, got.X, got.Y, d)
				}
			}
			if cal.Quality.Score < 0.5 {
				t.Errorf("quality score %.2f on a clean synthetic board", cal.Quality.Score)
			}
		})
	}
	var s float64
	for _, e := range all {
		s += e
	}
	t.Logf("mean corner error over %d synthetic corners: %.3f px", len(all), s/float64(len(all)))
}

// TestDetectNoBoard fails cleanly on images without a board.
func TestDetectNoBoard(t *testing.T) {
	blank := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 90, 90, 0), 480, 640, gocv.MatTypeCV8UC3)
	defer blank.Close()
	if _, _, err := Detect(blank, Options{}); !errors.Is(err, ErrNoBoard) {
		t.Errorf("blank image: got %v, want ErrNoBoard", err)
	}
	empty := gocv.NewMat()
	defer empty.Close()
	if _, _, err := Detect(empty, Options{}); err == nil {
		t.Error("empty image: no error")
	}
}
