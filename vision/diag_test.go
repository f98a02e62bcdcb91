package vision

import (
	"fmt"
	"image"
	"image/color"
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
	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/scene"
)

// TestCorpusDiag is a diagnostic, not a check: with BOARDCAM_VISION_DIAG
// set to a folder it runs the detector over the corpus with the true
// calibration (as TestCorpusVision) and writes, per clip, every miss,
// invented disc, wrong class and position error over 2 mm of the discs at
// rest to issues.txt, and PNG crops of the first frames of each kind of
// slip (per disc) with the truth (white) and the detections (in their
// class's colour) drawn, magnified. BOARDCAM_VISION_CLIPS (comma
// separated) limits it to some clips.
//
//	BOARDCAM_VISION_DIAG=/tmp/diag go test -tags matprofile -run TestCorpusDiag -v ./vision/
func TestCorpusDiag(t *testing.T) {
	out := os.Getenv("BOARDCAM_VISION_DIAG")
	if out == "" {
		t.Skip("set BOARDCAM_VISION_DIAG to a folder to run the diagnostic")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	var only map[string]bool
	if s := os.Getenv("BOARDCAM_VISION_CLIPS"); s != "" {
		only = map[string]bool{}
		for _, n := range strings.Split(s, ",") {
			only[strings.TrimSpace(n)] = true
		}
	}
	// BOARDCAM_VISION_CAL=auto: the board found in the frames as the
	// product does (see autoCalibration), not the true calibration
	corpusAutoCal = os.Getenv("BOARDCAM_VISION_CAL") == "auto"
	defer func() { corpusAutoCal = false }()
	// BOARDCAM_VISION_FRAMES=A-B: every detection and every candidate's
	// fate in frames A to B
	traceFrom, traceTo := -1, -1
	if s := os.Getenv("BOARDCAM_VISION_FRAMES"); s != "" {
		if _, err := fmt.Sscanf(s, "%d-%d", &traceFrom, &traceTo); err != nil {
			t.Fatalf("BOARDCAM_VISION_FRAMES=%s: want A-B", s)
		}
	}
	log, err := os.Create(filepath.Join(out, "issues.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	var all frameScore
	for _, f := range corpusTruthFiles(t) {
		tr, err := corpus.ReadTruth(f)
		if err != nil {
			t.Fatal(err)
		}
		if only != nil && !only[tr.Clip.Name] {
			continue
		}
		dumped := map[string]int{}
		lastSeen := map[string]int{}
		var cs frameScore
		type traced struct {
			x, y float64
			msg  string
		}
		var msgs []traced
		corpusTrace = func(x, y float64, msg string) { msgs = append(msgs, traced{x, y, msg}) }
		defer func() { corpusTrace = nil }()
		runCorpusClip(t, f, tr, func(i int, frame gocv.Mat, det *Detector, fr Frame) {
			defer func() { msgs = msgs[:0] }()
			toTruth, fromTruth := diagFrames(det, tr.Camera(i))
			fr.Detections = append([]Detection(nil), fr.Detections...)
			for k := range fr.Detections {
				fr.Detections[k].MM = toTruth(fr.Detections[k].MM)
			}
			if i >= traceFrom && i <= traceTo {
				fmt.Fprintf(log, "%s %4d: hands %v, dirty %.3f\n", tr.Clip.Name, i, det.stats.Hands, det.stats.DirtyTiles)
				for _, dd := range fr.Detections {
					fmt.Fprintf(log, "        %-7v (%7.1f, %7.1f) mm score %.2f class %.2f partial %v\n", dd.Kind, dd.MM.X, dd.MM.Y, dd.Score, dd.ClassScore, dd.Partial)
				}
				for _, td := range tr.Frames[i].Discs {
					if td.MM != nil && td.State.OnBoard() {
						p := td.Pos()
						fmt.Fprintf(log, "        truth %s %v (%.1f, %.1f) mm %v\n", td.ID, td.Kind, p.X, p.Y, td.State)
					}
				}
				for _, m := range msgs {
					p := toTruth(det.v.mmOf(m.x, m.y))
					fmt.Fprintf(log, "        [%.0f,%.0f mm] %s\n", p.X, p.Y, m.msg)
				}
			}
			s := scoreTruth(tr, tr.Frames[i], fr)
			cs.add(s)
			type slip struct{ key, text, id string }
			var slips []slip
			for _, id := range s.missed {
				slips = append(slips, slip{"missed " + id, "missed " + id, id})
			}
			for _, w := range s.wrongs {
				id := strings.Fields(w)[0]
				slips = append(slips, slip{"class " + w, "class " + w, id})
			}
			for _, e := range s.extras {
				key := fmt.Sprintf("extra %v@%.0f,%.0f", e.Kind, math.Round(e.MM.X/20)*20, math.Round(e.MM.Y/20)*20)
				slips = append(slips, slip{key, fmt.Sprintf("extra %v at (%.1f, %.1f) mm score %.2f class %.2f", e.Kind, e.MM.X, e.MM.Y, e.Score, e.ClassScore), fmt.Sprintf("@%.1f,%.1f", e.MM.X, e.MM.Y)})
			}
			for id, e := range s.errOf {
				if e > 2 {
					slips = append(slips, slip{"pos " + id, fmt.Sprintf("position %s off %.2f mm", id, e), id})
				}
			}
			sort.Slice(slips, func(a, b int) bool { return slips[a].key < slips[b].key })
			for _, sl := range slips {
				fmt.Fprintf(log, "%s %4d %s\n", tr.Clip.Name, i, sl.text)
				n := dumped[sl.key]
				dumped[sl.key]++
				onset := lastSeen[sl.key] != i-1
				lastSeen[sl.key] = i
				if !onset && n != 10 && n != 50 {
					continue
				}
				// what the detector did around it
				var at board.Vec
				ok := false
				if strings.HasPrefix(sl.id, "@") {
					fmt.Sscanf(sl.id, "@%g,%g", &at.X, &at.Y)
					ok = true
				}
				for _, d := range tr.Frames[i].Discs {
					if d.ID == sl.id && d.MM != nil {
						at, ok = d.Pos(), true
					}
				}
				if ok {
					x, y := det.v.pxOf(det.v.fromSurface(fromTruth(at), det.cfg.ManHeight))
					fmt.Fprintf(log, "        at %.1f,%.1f px: tile dirty %v, hands %v\n", x, y, det.grid.at(x, y), det.stats.Hands)
					for _, m := range msgs {
						if math.Hypot(m.x-x, m.y-y) < 1.5*det.rMan {
							fmt.Fprintf(log, "        %.1f,%.1f %s\n", m.x, m.y, m.msg)
						}
					}
				}
				if n >= 60 {
					continue // enough pictures of this one
				}
				name := fmt.Sprintf("%s-%04d-%s.png", tr.Clip.Name, i, strings.NewReplacer(" ", "_", "@", "at", ",", "_").Replace(sl.key))
				dumpCrop(t, filepath.Join(out, name), det, frame, tr, i, fr, sl.id)
			}
		})
		t.Logf("%-22s %v", tr.Clip.Name, cs)
		fmt.Fprintf(log, "# %-22s %v\n", tr.Clip.Name, cs)
		all.add(cs)
	}
	t.Logf("all: %v", all)
}

// dumpCrop writes a magnified crop of the frame around the disc id (or the
// board point "@x,y") with the truth and the detections drawn.
func dumpCrop(t *testing.T, path string, det *Detector, frame gocv.Mat, tr *corpus.Truth, i int, fr Frame, id string) {
	ft := tr.Frames[i]
	var cx, cy float64
	found := false
	if strings.HasPrefix(id, "@") {
		var x, y float64
		fmt.Sscanf(id, "@%g,%g", &x, &y)
		for _, d := range fr.Detections {
			if math.Abs(d.MM.X-x) < 0.2 && math.Abs(d.MM.Y-y) < 0.2 {
				cx, cy, found = d.PX[0], d.PX[1], true
			}
		}
	}
	for _, d := range ft.Discs {
		if d.ID == id && d.PX != nil {
			cx, cy, found = float64(d.PX[0]), float64(d.PX[1]), true
		}
	}
	if !found {
		return
	}
	ct := tr.Camera(i)
	scale := 1.0
	if ct != nil {
		scale = ct.PxPerMM
	}
	half := int(math.Round(70 * scale))
	const mag = 5
	rect := image.Rect(int(cx)-half, int(cy)-half, int(cx)+half, int(cy)+half).Intersect(image.Rect(0, 0, frame.Cols(), frame.Rows()))
	if rect.Empty() {
		return
	}
	drawn := gocv.NewMat()
	defer drawn.Close()
	if err := det.Draw(frame, Frame{Occlusion: fr.Occlusion}, &drawn); err != nil {
		t.Fatal(err)
	}
	sub := drawn.Region(rect)
	big := gocv.NewMat()
	defer big.Close()
	gocv.Resize(sub, &big, image.Pt(rect.Dx()*mag, rect.Dy()*mag), 0, 0, gocv.InterpolationNearestNeighbor)
	sub.Close()
	at := func(x, y float64) image.Point {
		return image.Pt(int(math.Round((x-float64(rect.Min.X)+0.5)*mag)), int(math.Round((y-float64(rect.Min.Y)+0.5)*mag)))
	}
	for _, d := range ft.Discs {
		if d.PX == nil || !d.State.OnBoard() {
			continue
		}
		r := tr.Clip.ManRadius
		if d.Kind == board.Striker {
			r = tr.Clip.StrikerRadius
		}
		p := at(float64(d.PX[0]), float64(d.PX[1]))
		col := color.RGBA{255, 255, 255, 255}
		if d.State != scene.Rest {
			col = color.RGBA{160, 160, 160, 255}
		}
		gocv.Circle(&big, p, int(r*scale*mag), col, 1)
		gocv.Circle(&big, p, 2, col, -1)
		gocv.PutText(&big, fmt.Sprintf("%s %s", d.ID, d.State), image.Pt(p.X-20, p.Y+int(r*scale*mag)+14), gocv.FontHersheySimplex, 0.45, col, 1)
	}
	for _, d := range fr.Detections {
		p := at(d.PX[0], d.PX[1])
		col := overlay.Kind(d.Kind)
		gocv.Circle(&big, p, int(d.RadiusPx*mag), col, 1)
		gocv.Line(&big, image.Pt(p.X-6, p.Y), image.Pt(p.X+6, p.Y), col, 1)
		gocv.Line(&big, image.Pt(p.X, p.Y-6), image.Pt(p.X, p.Y+6), col, 1)
		gocv.PutText(&big, fmt.Sprintf("%c %.2f/%.2f", "WBQS"[d.Kind], d.Score, d.ClassScore), image.Pt(p.X+8, p.Y-8), gocv.FontHersheySimplex, 0.45, col, 1)
	}
	gocv.PutText(&big, fmt.Sprintf("%s frame %d: %s", tr.Clip.Name, i, id), image.Pt(5, 18), gocv.FontHersheySimplex, 0.55, color.RGBA{255, 255, 0, 255}, 1)
	if err := cvio.WriteImage(path, big); err != nil {
		t.Errorf("cannot write %s: %v", path, err)
	}
}

// diagFrames returns the conversions between the detector's board
// coordinates and the truth's (the same unless the board was found in the
// frames, whose orientation may differ by quarter turns).
func diagFrames(det *Detector, ct *corpus.CameraTruth) (toTruth, fromTruth func(board.Vec) board.Vec) {
	id := func(p board.Vec) board.Vec { return p }
	if !corpusAutoCal || ct == nil {
		return id, id
	}
	h := calibrate.Homography(ct.Homography)
	inv, err := h.Inverse()
	if err != nil {
		return id, id
	}
	cal := det.cal
	toTruth = func(p board.Vec) board.Vec {
		q := h.Apply(cal.HInv.Apply(calibrate.Point{X: p.X, Y: p.Y}))
		return board.Vec{X: q.X, Y: q.Y}
	}
	fromTruth = func(p board.Vec) board.Vec {
		q := cal.H.Apply(inv.Apply(calibrate.Point{X: p.X, Y: p.Y}))
		return board.Vec{X: q.X, Y: q.Y}
	}
	return toTruth, fromTruth
}
