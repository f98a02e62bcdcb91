package calibrate_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/eval"
	"github.com/boardcam/boardcam/internal/cvio"
)

const corpusDir = "../testdata/videos"

// corpusClip is one corpus clip prepared as a club would have it: its
// lens file, its installation orientation, its truth (for scoring only).
type corpusClip struct {
	name  string
	truth *corpus.Truth
	g     *board.Geometry
	lens  *calibrate.Lens
	south calibrate.Direction
}

func loadCorpusClip(t testing.TB, path string) corpusClip {
	tr, err := corpus.ReadTruth(path)
	if err != nil {
		t.Fatal(err)
	}
	c := corpusClip{name: tr.Clip.Name, truth: tr, g: board.ICF()}
	if tr.Clip.BoardFile != "" {
		if c.g, err = board.Load(filepath.Join(corpusDir, tr.Clip.BoardFile)); err != nil {
			t.Fatal(err)
		}
	}
	if ix, err := corpus.ReadLensIndex(corpusDir); err == nil {
		if e, ok := ix.Clips[c.name]; ok {
			if c.lens, err = calibrate.LoadLens(filepath.Join(corpusDir, corpus.LensDir, e.File)); err != nil {
				t.Fatal(err)
			}
		}
	}
	c.south, _ = eval.SouthAtOf(&tr.Cameras[0], c.g)
	if c.south == "" {
		c.south = calibrate.Bottom
	}
	return c
}

// frames decodes the clip's frames listed in want (sorted), undistorted
// with the lens, and calls f with each.
func (c corpusClip) frames(t testing.TB, want []int, f func(i int, img gocv.Mat)) {
	vc, err := cvio.OpenVideo(filepath.Join(corpusDir, c.truth.Clip.Video))
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	img, und := gocv.NewMat(), gocv.NewMat()
	defer img.Close()
	defer und.Close()
	var u *calibrate.Undistorter
	if c.lens != nil {
		if u, err = calibrate.NewUndistorter(c.lens); err != nil {
			t.Fatal(err)
		}
		defer u.Close()
	}
	k := 0
	for i := 0; k < len(want); i++ {
		if i != want[k] {
			// decoded, not converted: the frames between those wanted
			if !vc.Skip() {
				break
			}
			continue
		}
		if !vc.Read(&img) || img.Empty() {
			break
		}
		k++
		if u == nil {
			f(i, img)
			continue
		}
		if err := u.Apply(img, &und); err != nil {
			t.Fatal(err)
		}
		f(i, und)
	}
}

// cornerError is the mean distance (px, recorded image) of cal's corners
// from the truth's in frame i.
func (c corpusClip) cornerError(cal *calibrate.Calibration, i int) float64 {
	cam := c.truth.Camera(i)
	var e float64
	for k, p := range cal.Corners {
		if c.lens != nil {
			p = c.lens.Distort(p)
		}
		e += math.Hypot(p.X-cam.CornersPx[k][0], p.Y-cam.CornersPx[k][1])
	}
	return e / 4
}

// TestDetectCorpus finds the board in frames spread over every clip of
// the corpus, as the pipeline does (frames undistorted with the clip's
// lens file, the installation's orientation), and compares the corners
// with the truth: the mean over the 720p clips must be within the
// project's target of 1.0 px, and no clip's mean above 1 px (every frame
// found: a frame not found counts as an infinite error).
// BOARDCAM_CORPUS_DEBUG=DIR writes each clip's worst frame's debug image.
func TestDetectCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes the corpus")
	}
	files, err := eval.TruthFiles([]string{corpusDir})
	if err != nil {
		t.Skip(err)
	}
	debug := os.Getenv("BOARDCAM_CORPUS_DEBUG")
	var sum720 float64
	var n720 int
	var lines []string
	for _, path := range files {
		c := loadCorpusClip(t, path)
		n := c.truth.Clip.Frames
		var want []int
		for i := 0; i < n; i += max(1, n/6) {
			want = append(want, i)
		}
		var errs []string
		var worst, mean float64
		worstFrame := -1
		cnt := 0
		c.frames(t, want, func(i int, img gocv.Mat) {
			cal, rep, err := calibrate.Detect(img, calibrate.Options{Geometry: c.g,
				Orientation: calibrate.Orientation{SouthAt: c.south, Breaker: board.S, BreakerSource: "config"}})
			e := math.Inf(1)
			if err == nil {
				e = c.cornerError(cal, i)
			}
			errs = append(errs, fmt.Sprintf("%d:%.2f", i, e))
			mean += e
			cnt++
			if e > worst || worstFrame < 0 {
				worst, worstFrame = e, i
				if debug != "" && rep != nil {
					out := gocv.NewMat()
					if calibrate.DrawDebug(img, cal, c.g, rep, &out) == nil && !out.Empty() {
						cvio.WriteImage(filepath.Join(debug, c.name+".png"), out)
					}
					out.Close()
				}
			}
		})
		mean /= float64(cnt)
		lines = append(lines, fmt.Sprintf("%-22s mean %7.2f px  worst %7.2f (frame %d)  %s", c.name, mean, worst, worstFrame, strings.Join(errs, " ")))
		if c.truth.Clip.Height == 720 {
			sum720 += mean
			n720++
		}
		if mean > 1 {
			t.Errorf("%s: mean corner error %.2f px", c.name, mean)
		}
	}
	sort.Strings(lines)
	for _, l := range lines {
		t.Log(l)
	}
	m := sum720 / float64(n720)
	t.Logf("mean over %d 720p clips: %.3f px", n720, m)
	if m > 1 {
		t.Errorf("mean corner error at 720p %.2f px, target 1.0", m)
	}
}
