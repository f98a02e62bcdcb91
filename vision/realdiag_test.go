package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/internal/realboards"
	"github.com/boardcam/boardcam/render/mounting"
)

// TestRealDiag is a diagnostic, not a check: with BOARDCAM_REAL_DIAG set to
// a folder it runs the real photos' views (BOARDCAM_REAL_VIEWS: comma
// separated substrings of "file [mounting]", the perturbations of
// TestPerturbedRealBoards included) as TestRealBoards does, with
// the detector's trace, and writes each view's rectified board magnified
// (truth white, detections in their class's colour) and the trace of
// every candidate near a miss or an extra to trace.txt.
func TestRealDiag(t *testing.T) {
	out := os.Getenv("BOARDCAM_REAL_DIAG")
	if out == "" {
		t.Skip("set BOARDCAM_REAL_DIAG to a folder to run the diagnostic")
	}
	os.MkdirAll(out, 0o755)
	want := strings.Split(os.Getenv("BOARDCAM_REAL_VIEWS"), ",")
	log, err := os.Create(filepath.Join(out, "trace.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	dir := realboardsDir(t)
	for _, a := range loadAnnotations(t) {
		img, err := cvio.ReadImage(filepath.Join(dir, a.File), false)
		if err != nil {
			t.Fatal(err)
		}
		ms := append([]realboards.Mounting{{Name: "photo"}}, realboards.Mountings()...)
		ms = append(ms, realboards.Perturbations()...)
		for _, m := range ms {
			name := a.File + " [" + m.Name + "]"
			ok := false
			for _, w := range want {
				ok = ok || (w != "" && strings.Contains(name, w))
			}
			if !ok {
				continue
			}
			view, b := img, a
			if m.Name != "photo" {
				if view, b, err = mounting.Apply(m, img, a); err != nil {
					t.Fatal(err)
				}
			}
			realDiagView(t, out, log, name, view, b)
			if m.Name != "photo" {
				view.Close()
			}
		}
		img.Close()
	}
}

func realDiagView(t *testing.T, out string, log *os.File, name string, img gocv.Mat, a realboards.Annotation) {
	cal, _, err := calibrate.Detect(img, calibrate.Options{})
	mode := "found"
	if err != nil {
		var corners [4]calibrate.Point
		for i, c := range a.Corners {
			corners[i] = calibrate.Point{X: c[0], Y: c[1]}
		}
		if cal, _, err = calibrate.FromCorners(img, corners, calibrate.Options{}); err != nil {
			t.Fatal(err)
		}
		mode = "given"
	}
	set, lerr := LearnSet(img, cal, Config{})
	if lerr == nil {
		c := *cal
		c.Set = set
		cal = &c
	}
	if set == nil {
		set = &board.Set{}
	}
	det, err := New(cal, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	type traced struct {
		x, y float64
		msg  string
	}
	var msgs []traced
	det.trace = func(x, y float64, msg string) { msgs = append(msgs, traced{x, y, msg}) }
	fr, err := det.Detect(img, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(log, "=== %s board %s, set %s %.1f/%.1f colours n %d,%d (err %v), rMan %.2f rStr %.2f ppm %.3f boardY %.1f\n", name, mode, set.Source, set.ManMM, set.StrikerMM, set.Colours[0].N, set.Colours[1].N, lerr, det.rMan, det.rStr, det.v.ppm, det.stats.BoardY)
	for _, m := range msgs {
		if strings.HasPrefix(m.msg, "unlearned") {
			fmt.Fprintln(log, m.msg)
		}
	}
	if det.cls != nil {
		fmt.Fprintf(log, "classes %s %+v\n", det.cls.Source, det.cls.Kinds)
	}
	if op := det.Opening(); op != nil {
		fmt.Fprintf(log, "opening: %d whites %d blacks\n", len(op.Whites), len(op.Blacks))
	}
	rect := func(p [2]float64) (float64, float64) {
		mm := cal.ToBoard(calibrate.Point{X: p[0], Y: p[1]})
		return det.v.pxOf(det.v.fromSurface(mm, det.cfg.ManHeight))
	}
	k := 4.0
	big := gocv.NewMat()
	defer big.Close()
	gocv.Resize(det.img, &big, image.Point{}, k, k, gocv.InterpolationNearestNeighbor)
	used := map[int]bool{}
	var crops [][2]float64
	for _, p := range a.Pieces {
		x, y := rect(p.Center)
		gocv.Circle(&big, image.Pt(int(k*x), int(k*y)), 3, color.RGBA{255, 255, 255, 0}, -1)
		bi, bd := -1, math.Inf(1)
		for j, d := range fr.Detections {
			if dd := math.Hypot(d.PX[0]-p.Center[0], d.PX[1]-p.Center[1]); dd < bd && !used[j] {
				bi, bd = j, dd
			}
		}
		hit := bi >= 0 && bd <= 0.6*p.Radius
		if hit {
			used[bi] = true
			if fr.Detections[bi].Kind.String() == p.Class {
				continue
			}
			fmt.Fprintf(log, "%s at rect %.1f,%.1f seen as %v\n", p.Class, x, y, fr.Detections[bi].Kind)
		} else {
			fmt.Fprintf(log, "missed %s at rect %.1f,%.1f (img %.0f,%.0f)\n", p.Class, x, y, p.Center[0], p.Center[1])
			var nb [][2]float64
			for _, q := range a.Pieces {
				qx, qy := rect(q.Center)
				if dd := math.Hypot(qx-x, qy-y); dd > 1 && dd < 3*det.rMan {
					nb = append(nb, [2]float64{qx, qy})
				}
			}
			r := det.rMan
			all := det.vt.symmetry(x, y, r, 1.1, 1.2, nil)
			noIn := det.vt.symmetry(x, y, r, 1.1, 1.2, func(i, j int) bool { return sq(float64(i)-x)+sq(float64(j)-y) < sq(0.6*r) })
			noNb := det.vt.symmetry(x, y, r, 1.1, 1.2, func(i, j int) bool {
				for _, q := range nb {
					if sq(float64(i)-q[0])+sq(float64(j)-q[1]) <= sq(r+1.5) {
						return true
					}
				}
				return false
			})
			both := det.vt.symmetry(x, y, r, 1.1, 1.2, func(i, j int) bool {
				if sq(float64(i)-x)+sq(float64(j)-y) < sq(0.6*r) {
					return true
				}
				for _, q := range nb {
					if sq(float64(i)-q[0])+sq(float64(j)-q[1]) <= sq(r+1.5) {
						return true
					}
				}
				return false
			})
			sup, _ := det.support(x, y, det.model(x, y, false), nil)
			fmt.Fprintf(log, "    at truth: sym %.2f, without inside %.2f, without true neighbours %.2f, both %.2f; support %.2f\n", all, noIn, noNb, both, sup)
		}
		crops = append(crops, [2]float64{x, y})
		for _, m := range msgs {
			if math.Hypot(m.x-x, m.y-y) < 1.5*det.rMan {
				fmt.Fprintf(log, "    %.1f,%.1f %s\n", m.x, m.y, m.msg)
			}
		}
	}
	cols := map[string]color.RGBA{"white": {0, 255, 255, 0}, "black": {255, 0, 0, 0}, "queen": {255, 0, 255, 0}, "striker": {0, 255, 0, 0}}
	for j, d := range fr.Detections {
		mm := det.v.fromSurface(d.MM, det.cfg.ManHeight)
		x, y := det.v.pxOf(mm)
		gocv.Circle(&big, image.Pt(int(k*x), int(k*y)), int(k*d.RadiusPx*det.v.ppm/cal.PixelsPerMM()), cols[d.Kind.String()], 1)
		if used[j] {
			continue
		}
		crops = append(crops, [2]float64{x, y})
		fmt.Fprintf(log, "extra %v at rect %.1f,%.1f (img %.0f,%.0f) mm %.1f,%.1f score %.2f class %.2f\n", d.Kind, x, y, d.PX[0], d.PX[1], d.MM.X, d.MM.Y, d.Score, d.ClassScore)
		for _, m := range msgs {
			if math.Hypot(m.x-x, m.y-y) < 1.5*det.rMan {
				fmt.Fprintf(log, "    %.1f,%.1f %s\n", m.x, m.y, m.msg)
			}
		}
	}
	cvio.WriteImage(filepath.Join(out, safeDiagName(name)+".png"), big)
	for i, c := range crops {
		h := int(k * 5 * det.rMan)
		r := image.Rect(int(k*c[0])-h, int(k*c[1])-h, int(k*c[0])+h, int(k*c[1])+h).Intersect(image.Rect(0, 0, big.Cols(), big.Rows()))
		sub := big.Region(r)
		z := gocv.NewMat()
		gocv.Resize(sub, &z, image.Point{}, 2, 2, gocv.InterpolationNearestNeighbor)
		cvio.WriteImage(filepath.Join(out, fmt.Sprintf("%s-%d.png", safeDiagName(name), i)), z)
		z.Close()
		sub.Close()
	}
}

func safeDiagName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
}
