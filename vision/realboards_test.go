package vision

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/internal/realboards"
	"github.com/boardcam/boardcam/render/mounting"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/internal/cvio"
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

// tally counts pieces over views.
type tally struct {
	views, pieces, found, right, extra int
}

func (t *tally) add(o tally) {
	t.views += o.views
	t.pieces += o.pieces
	t.found += o.found
	t.right += o.right
	t.extra += o.extra
}

func (t tally) String() string {
	return fmt.Sprintf("%d views: %d pieces, recall %.4f (%d), precision %.4f (%d extra), colour %.4f (%d right)",
		t.views, t.pieces, float64(t.found)/math.Max(1, float64(t.pieces)), t.found,
		float64(t.found)/math.Max(1, float64(t.found+t.extra)), t.extra, float64(t.right)/math.Max(1, float64(t.found)), t.right)
}

// piecesIn runs the detector as `boardcam detect` does (the set learned
// from the picture first) and compares what it found with the annotated
// pieces: each whole annotated piece found within 0.6 of its radius, with
// its class; detections of nothing are extra (those on pieces cut by the
// picture's border count neither way).
func piecesIn(t *testing.T, img gocv.Mat, cal *calibrate.Calibration, a realboards.Annotation) (tally, []string) {
	if set, err := LearnSet(img, cal, Config{}); err == nil {
		c := *cal
		c.Set = set
		cal = &c
	}
	det, err := New(cal, Config{})
	if err != nil {
		t.Fatal(err)
	}
	fr, err := det.Detect(img, 0, 0)
	det.Close()
	if err != nil {
		t.Fatalf("%s: %v", a.File, err)
	}
	used := map[int]bool{}
	var tl tally
	tl.views = 1
	var notes []string
	for _, p := range a.Pieces {
		bi, bd := -1, math.Inf(1)
		for j, d := range fr.Detections {
			if dd := math.Hypot(d.PX[0]-p.Center[0], d.PX[1]-p.Center[1]); dd < bd && !used[j] {
				bi, bd = j, dd
			}
		}
		hit := bi >= 0 && bd <= 0.6*p.Radius
		if hit {
			used[bi] = true
		}
		if p.Partial {
			continue
		}
		tl.pieces++
		switch {
		case !hit:
			notes = append(notes, fmt.Sprintf("missed %s at (%.0f, %.0f)", p.Class, p.Center[0], p.Center[1]))
		case fr.Detections[bi].Kind.String() != p.Class:
			tl.found++
			notes = append(notes, fmt.Sprintf("%s at (%.0f, %.0f) seen as %v", p.Class, p.Center[0], p.Center[1], fr.Detections[bi].Kind))
		default:
			tl.found++
			tl.right++
		}
	}
	for j, d := range fr.Detections {
		if used[j] {
			continue
		}
		tl.extra++
		what := fmt.Sprintf("extra %v at (%.0f, %.0f)", d.Kind, d.PX[0], d.PX[1])
		if d.Kind == board.Queen && d.MM.Len() < 5 {
			what += fmt.Sprintf(": the centre circle as a queen (score %.2f)", d.Score)
		}
		notes = append(notes, what)
	}
	return tl, notes
}

// The real photographs in ../shared/realboards and their transformed
// copies (realboards.Mountings), run as `boardcam detect` runs them: the
// board found by itself, then the set learned and every disc found.
// Where the board is refused (a view of part of the surface), the pieces
// are counted again with the annotated corners given by hand. Over the
// photographs in scope: recall, precision and colour ≥ 98%. The oblique
// photo out of scope is only logged.
func TestRealBoards(t *testing.T) {
	dir := realboardsDir(t)
	var photos, auto, given tally
	var refused []string
	for _, a := range loadAnnotations(t) {
		img, err := cvio.ReadImage(filepath.Join(dir, a.File), false)
		if err != nil {
			img.Close()
			t.Errorf("%s: cannot read the photo: %v", a.File, err)
			continue
		}
		ms := []realboards.Mounting{{Name: "photo"}}
		if a.InScope {
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
			cal, _, err := calibrate.Detect(view, calibrate.Options{})
			mode := "found"
			if err != nil {
				if !a.InScope {
					t.Logf("%-52s out of scope, refused: %v", name, err)
					if m.Name != "photo" {
						view.Close()
					}
					continue
				}
				refused = append(refused, name)
				var corners [4]calibrate.Point
				for i, c := range b.Corners {
					corners[i] = calibrate.Point{X: c[0], Y: c[1]}
				}
				if cal, _, err = calibrate.FromCorners(view, corners, calibrate.Options{}); err != nil {
					t.Fatalf("%s: corners given: %v", name, err)
				}
				mode = "given"
			}
			tl, notes := piecesIn(t, view, cal, b)
			if m.Name != "photo" {
				view.Close()
			}
			t.Logf("%-52s board %s, %v %v", name, mode, tl, notes)
			if !a.InScope {
				continue
			}
			switch {
			case m.Name == "photo":
				photos.add(tl)
			case mode == "found":
				auto.add(tl)
			default:
				given.add(tl)
			}
		}
		img.Close()
	}
	t.Logf("photos (board found or corners given): %v", photos)
	t.Logf("copies, board found:   %v", auto)
	t.Logf("copies, corners given: %v (the views refused: %v)", given, refused)
	if photos.pieces == 0 {
		t.Fatal("no annotated pieces in the photos in scope")
	}
	// The photographs themselves meet the targets, and so do the copies
	// whose board is found. The copies refused, with the corners given,
	// do not yet (docs/vision.md): their figures are held where they are,
	// so that they do not slip back.
	for _, c := range []struct {
		name                 string
		t                    tally
		recall, prec, colour float64
	}{
		{"photos", photos, 0.98, 0.98, 0.98},
		{"copies with the board found", auto, 0.98, 0.98, 0.98},
		{"copies with the corners given", given, 0.95, 0.94, 0.98},
	} {
		if c.t.pieces == 0 {
			continue
		}
		rec := float64(c.t.found) / float64(c.t.pieces)
		prec := float64(c.t.found) / float64(c.t.found+c.t.extra)
		col := float64(c.t.right) / math.Max(1, float64(c.t.found))
		if rec < c.recall || prec < c.prec || col < c.colour {
			t.Errorf("%s: recall %.4f, precision %.4f, colour %.4f: want ≥ %.2f, %.2f, %.2f", c.name, rec, prec, col, c.recall, c.prec, c.colour)
		}
	}
}
