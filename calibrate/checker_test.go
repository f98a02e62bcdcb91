package calibrate

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strconv"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
)

// calibrated renders v, calibrates it and returns the frame and the
// calibration (the caller closes the frame).
func calibrated(t testing.TB, v view) (gocv.Mat, *Calibration) {
	t.Helper()
	img, _ := renderView(t, board.ICF(), v)
	cal, _, err := Detect(img, Options{Now: fixedNow})
	if err != nil {
		img.Close()
		t.Fatal(err)
	}
	return img, cal
}

func TestCheckerSeesMoves(t *testing.T) {
	base := view{W: 1280, H: 720, Fill: 0.86, Noise: 3, Blur: 0.7, Seed: 1}
	ref, cal := calibrated(t, base)
	defer ref.Close()
	ch, err := NewChecker(cal, CheckerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.SetReference(ref); err != nil {
		t.Fatal(err)
	}
	check := func(name string, v view) CheckResult {
		t.Helper()
		img, _ := renderView(t, board.ICF(), v)
		defer img.Close()
		r, err := ch.Check(img)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-22s %-9s shift %.2f px, sides %.2f, seen %.0f%%", name, r.Status, r.ShiftPx, r.Sides, 100*r.Seen)
		return r
	}
	// The same scene with fresh noise is unmoved.
	same := base
	same.Seed = 7
	if r := check("unmoved", same); r.Status != CheckOK || r.ShiftPx > 0.5 {
		t.Errorf("unmoved frame: %s, shift %.2f px", r.Status, r.ShiftPx)
	}
	// A hand over an edge and pieces near it do not count as a move.
	busy := base
	busy.Hand, busy.Pieces, busy.Seed = true, true, 8
	if r := check("hand over an edge", busy); r.Status == CheckMoved || r.Status == CheckLost {
		t.Errorf("hand over the edge reported as %s (shift %.2f px)", r.Status, r.ShiftPx)
	}
	// Knocked by 6 px sideways.
	knocked := base
	knocked.Shift = Pt(6.0/1280, 0)
	r := check("knocked 6 px", knocked)
	if r.Status != CheckMoved || math.Abs(r.ShiftPx-6) > 1 {
		t.Errorf("6 px knock: %s, shift %.2f px", r.Status, r.ShiftPx)
	}
	// Turned by 1°.
	turned := base
	turned.Rotation = 1
	if r := check("turned 1°", turned); r.Status != CheckMoved {
		t.Errorf("1° turn: %s, shift %.2f px", r.Status, r.ShiftPx)
	}
	// Moved far: the edges are nowhere near.
	far := base
	far.Shift = Pt(0.12, 0.1)
	if r := check("moved far", far); r.Status != CheckMoved && r.Status != CheckLost {
		t.Errorf("large move: %s", r.Status)
	}
	// A frame of another size is an error, not a verdict.
	small := gocv.NewMatWithSize(10, 10, gocv.MatTypeCV8UC3)
	defer small.Close()
	if _, err := ch.Check(small); err == nil {
		t.Error("frame of the wrong size accepted")
	}
}

func TestMonitorRecalibrates(t *testing.T) {
	base := view{W: 1280, H: 720, Fill: 0.86, Noise: 3, Blur: 0.7, Seed: 1}
	ref, cal := calibrated(t, base)
	defer ref.Close()
	m, err := NewMonitor(cal, ref, Monitor{Interval: 2 * time.Second, Confirm: 2})
	if err != nil {
		t.Fatal(err)
	}
	moved := base
	moved.Shift = Pt(0.02, -0.015)
	movedImg, truth := renderView(t, board.ICF(), moved)
	defer movedImg.Close()
	t0 := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	steps := []struct {
		at      time.Duration
		frame   gocv.Mat
		checked bool
		status  CheckStatus
		recal   bool
	}{
		{0, ref, true, CheckOK, false},
		{time.Second, movedImg, false, "", false}, // too soon
		{2 * time.Second, movedImg, true, CheckMoved, false},
		{4 * time.Second, movedImg, true, CheckMoved, true},
		{6 * time.Second, movedImg, true, CheckOK, false},
	}
	for i, s := range steps {
		res, newCal, err := m.Observe(s.frame, t0.Add(s.at))
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if (res != nil) != s.checked {
			t.Fatalf("step %d: checked %v, want %v", i, res != nil, s.checked)
		}
		if res != nil && res.Status != s.status {
			t.Errorf("step %d: %s (shift %.1f px), want %s", i, res.Status, res.ShiftPx, s.status)
		}
		if (newCal != nil) != s.recal {
			t.Fatalf("step %d: recalibrated %v, want %v", i, newCal != nil, s.recal)
		}
		if newCal != nil {
			e := cornerErrors(newCal.ImageCorners(), imageOrder(truth))
			for k, d := range e {
				if d > 1 {
					t.Errorf("recalibrated corner %d is %.2f px off", k, d)
				}
			}
			if !newCal.Created.Equal(t0.Add(s.at)) {
				t.Errorf("recalibration stamped %v, want the observed time", newCal.Created)
			}
			if m.Calibration() != newCal {
				t.Error("monitor did not switch to the new calibration")
			}
		}
	}
}

// TestMonitorWaitsForRest: a knocked camera shakes before it settles. The
// monitor recalibrates only when two checks see the edges in the same
// place, checks every frame while a move is pending, and (with SettlePx)
// after the recalibration catches the camera coming to rest a pixel
// further on (less than the move tolerance) and recalibrates once more.
func TestMonitorWaitsForRest(t *testing.T) {
	base := view{W: 1280, H: 720, Fill: 0.86, Noise: 3, Blur: 0.7, Seed: 1}
	ref, cal := calibrated(t, base)
	defer ref.Close()
	m, err := NewMonitor(cal, ref, Monitor{Interval: 2 * time.Second, Confirm: 2, SettlePx: 0.31})
	if err != nil {
		t.Fatal(err)
	}
	render := func(shift Point) (gocv.Mat, [4]Point) {
		v := base
		v.Shift = shift
		img, truth := renderView(t, board.ICF(), v)
		return img, imageOrder(truth)
	}
	shaking, _ := render(Pt(0.008, -0.01))
	defer shaking.Close()
	knocked, knockedTruth := render(Pt(0.0092, -0.0112)) // 1.5 px and 0.9 px on from shaking
	defer knocked.Close()
	settled, settledTruth := render(Pt(0.0100, -0.0112)) // 1 px on: under the move tolerance
	defer settled.Close()
	t0 := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	steps := []struct {
		at      time.Duration
		frame   gocv.Mat
		checked bool
		recal   bool
		pending bool
		truth   *[4]Point
	}{
		{0, ref, true, false, false, nil},
		{2000 * ms, shaking, true, false, true, nil},           // moved: pending
		{2033 * ms, knocked, true, false, true, nil},           // moved, but not where it was a frame ago
		{2066 * ms, knocked, true, true, false, &knockedTruth}, // at rest: recalibrated
		{4066 * ms, settled, true, false, true, nil},           // 1 px further while settling
		{4100 * ms, settled, true, true, false, &settledTruth}, // still there: recalibrated again
		{6100 * ms, settled, true, false, false, nil},
		{8100 * ms, settled, true, false, false, nil},
	}
	for i, s := range steps {
		res, newCal, err := m.Observe(s.frame, t0.Add(s.at))
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if (res != nil) != s.checked {
			t.Fatalf("step %d: checked %v, want %v", i, res != nil, s.checked)
		}
		if (newCal != nil) != s.recal {
			t.Fatalf("step %d: recalibrated %v, want %v (%s, shift %.2f px, sides %.2f)", i, newCal != nil, s.recal, res.Status, res.ShiftPx, res.Sides)
		}
		if m.Pending() != s.pending {
			t.Errorf("step %d: pending %v, want %v (%s, shift %.2f px)", i, m.Pending(), s.pending, res.Status, res.ShiftPx)
		}
		if newCal != nil && s.truth != nil {
			for k, d := range cornerErrors(newCal.ImageCorners(), *s.truth) {
				if d > 0.6 {
					t.Errorf("step %d: recalibrated corner %d is %.2f px off", i, k, d)
				}
			}
		}
	}
}

// TestMonitorBacksOffAfterFailure: when the board cannot be found again
// (here: it is gone), the monitor reports the error and waits for its
// Interval before the next try instead of recalibrating at every frame.
func TestMonitorBacksOffAfterFailure(t *testing.T) {
	ref, cal := calibrated(t, view{W: 1280, H: 720, Fill: 0.86, Noise: 3, Blur: 0.7, Seed: 1})
	defer ref.Close()
	m, err := NewMonitor(cal, ref, Monitor{Interval: 2 * time.Second, Confirm: 2})
	if err != nil {
		t.Fatal(err)
	}
	empty := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 70, 75, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer empty.Close()
	t0 := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	if res, _, err := m.Observe(empty, t0); err != nil || res == nil || res.Status != CheckLost || !m.Pending() {
		t.Fatalf("first check: %+v, %v, pending %v; want lost and pending", res, err, m.Pending())
	}
	if _, newCal, err := m.Observe(empty, t0.Add(33*time.Millisecond)); err == nil || newCal != nil {
		t.Fatalf("recalibration on an empty frame: %v, %v; want an error", newCal, err)
	}
	if m.Pending() {
		t.Error("still pending after a failed recalibration")
	}
	if res, _, _ := m.Observe(empty, t0.Add(66*time.Millisecond)); res != nil {
		t.Error("checked again a frame after a failed recalibration")
	}
	if res, _, err := m.Observe(empty, t0.Add(2100*time.Millisecond)); res == nil || err == nil {
		t.Errorf("no new try after the interval: %v, %v", res, err)
	}
	if m.Calibration() != cal {
		t.Error("the calibration in force changed")
	}
}

// TestManualCorners builds calibrations from hand-given corners: the right
// ones score well, corners 2% off score clearly worse.
func TestManualCorners(t *testing.T) {
	g := board.ICF()
	v := view{W: 1280, H: 720, Fill: 0.86, Noise: 3, Blur: 0.7, Seed: 1, Rotation: 4}
	img, truth := renderView(t, g, v)
	defer img.Close()
	good, _, err := FromCorners(img, imageOrder(truth), Options{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	off := imageOrder(truth)
	off[1] = off[1].Add(Pt(12, 9))
	off[2] = off[2].Add(Pt(14, -6))
	bad, _, err := FromCorners(img, off, Options{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("true corners: score %.2f, rms %s mm; corners 2%% off: score %.2f, rms %s mm", good.Quality.Score, rmsText(good.Quality.RMSmm), bad.Quality.Score, rmsText(bad.Quality.RMSmm))
	if good.Quality.Method != Manual || good.Quality.Edges[0] != "manual" {
		t.Errorf("method %s, edges %v", good.Quality.Method, good.Quality.Edges)
	}
	if good.Quality.Score < 0.85 {
		t.Errorf("true corners score only %.2f", good.Quality.Score)
	}
	if bad.Quality.Score > good.Quality.Score-0.2 {
		t.Errorf("corners 2%% off score %.2f, true ones %.2f: the score does not see the error", bad.Quality.Score, good.Quality.Score)
	}
	if n, of := good.Quality.Found("rear_line"); n != 4 || of != 4 {
		t.Errorf("base lines found %d of %d", n, of)
	}
	// Re-scoring a calibration against a frame from a moved camera.
	moved := v
	moved.Shift = Pt(0.03, 0)
	mImg, _ := renderView(t, g, moved)
	defer mImg.Close()
	q, _, err := MeasureQuality(mImg, good, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("same calibration on a frame moved 38 px: score %.2f", q.Score)
	if q.Score > good.Quality.Score-0.2 {
		t.Errorf("moved camera scores %.2f against %.2f", q.Score, good.Quality.Score)
	}
}

func rmsText(r *float64) string {
	if r == nil {
		return "none"
	}
	return strconv.FormatFloat(*r, 'f', 2, 64)
}

// TestDetectThroughLens renders a board through a distorting lens,
// undistorts the frame with the lens model and calibrates: the corners
// must land where the undistorted camera puts them, and far off without
// the undistortion.
func TestDetectThroughLens(t *testing.T) {
	g := board.ICF()
	l := &Lens{ImageSize: Size{W: 1280, H: 720}, CameraMatrix: [3][3]float64{{860, 0, 641}, {0, 860, 357}, {0, 0, 1}}, Distortion: []float64{-0.3, 0.1, 0, 0, 0}}
	v := view{W: 1280, H: 720, Fill: 0.8, Noise: 3, Blur: 0.7, Seed: 1, Lens: l, Rotation: 3}
	img, _ := renderView(t, g, v)
	defer img.Close()
	truth := [4]Point{}
	h := v.camera(g)
	for i, c := range camera.BoardCorners(g.Surface + 1/texPerMM) {
		truth[i] = h.Apply(c)
	}
	u, err := NewUndistorter(l)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	und := gocv.NewMat()
	defer und.Close()
	if err := u.Apply(img, &und); err != nil {
		t.Fatal(err)
	}
	cal, rep, err := Detect(und, Options{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	writeDebug(t, "synthetic-lens.png", und, cal, rep)
	e := cornerErrors(rep.ImageCorners, imageOrder(truth))
	t.Logf("undistorted: corner errors %.2f %.2f %.2f %.2f px", e[0], e[1], e[2], e[3])
	for i, d := range e {
		if d > 1 {
			t.Errorf("corner %d %.2f px off after undistortion", i, d)
		}
	}
	// Without undistortion the markings do not fit: the score drops.
	// (The bowed edges may not even be found: then the board is refused
	// as unsure, and the calibration comes with the error.)
	raw, _, err := Detect(img, Options{Now: fixedNow})
	if err != nil && !errors.Is(err, ErrUnsure) {
		t.Fatal(err)
	}
	if err != nil {
		t.Logf("without undistortion: %v", err)
	}
	t.Logf("quality with lens model %.2f (rms %s mm), without %.2f (rms %s mm)", cal.Quality.Score, rmsText(cal.Quality.RMSmm), raw.Quality.Score, rmsText(raw.Quality.RMSmm))
	if raw.Quality.RMSmm != nil && cal.Quality.RMSmm != nil && *raw.Quality.RMSmm <= *cal.Quality.RMSmm {
		t.Errorf("markings fit no worse without undistortion (%.2f vs %.2f mm)", *raw.Quality.RMSmm, *cal.Quality.RMSmm)
	}
}

// TestObserveRawIsObserveOfTheUndistorted: a monitor given the camera's
// frames (ObserveRaw, which undistorts only the parts of a frame its
// checks read) finds what one given the whole frames undistorted
// (Observe) finds, check for check and recalibration for recalibration:
// the parts are the very pixels of the whole frame's remap.
func TestObserveRawIsObserveOfTheUndistorted(t *testing.T) {
	lens, err := LoadLens("../testdata/videos/lenses/cam-0b18d44c3397.lens.json")
	if err != nil {
		t.Fatal(err)
	}
	u, err := NewUndistorter(lens)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	base := view{W: 1280, H: 720, Fill: 0.86, Noise: 3, Blur: 0.7, Seed: 1}
	// The rendered views play the camera's frames; the monitors watch the
	// calibration of the first one undistorted.
	raw := func(shift Point, rotation float64, seed int64) gocv.Mat {
		v := base
		v.Shift, v.Rotation, v.Seed = shift, rotation, seed
		img, _ := renderView(t, board.ICF(), v)
		return img
	}
	undist := func(m gocv.Mat) gocv.Mat {
		out := gocv.NewMat()
		if err := u.Apply(m, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	ref := raw(Pt(0, 0), 0, 1)
	defer ref.Close()
	refU := undist(ref)
	defer refU.Close()
	cal, _, err := Detect(refU, Options{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	cal.Lens = lens
	whole, err := NewMonitor(cal, refU, Monitor{Interval: 2 * time.Second, Confirm: 2, SettlePx: 0.31})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	parts, err := NewMonitor(cal, refU, Monitor{Interval: 2 * time.Second, Confirm: 2, SettlePx: 0.31})
	if err != nil {
		t.Fatal(err)
	}
	defer parts.Close()
	if err := parts.PrepareRaw(u); err != nil {
		t.Fatal(err)
	}

	// The parts are the whole remap's pixels.
	if err := parts.parts.apply(ref); err != nil {
		t.Fatal(err)
	}
	for i, r := range parts.checker.Rects() {
		a := refU.Region(r)
		b := parts.parts.img.Region(image.Rect(0, parts.parts.rows[i], r.Dx(), parts.parts.rows[i]+r.Dy()))
		diff := gocv.NewMat()
		gocv.AbsDiff(a, b, &diff)
		flat := diff.Reshape(1, 0)
		n := gocv.CountNonZero(flat)
		flat.Close()
		a.Close()
		b.Close()
		diff.Close()
		if n != 0 {
			t.Fatalf("part %d (%v): %d values differ from the whole frame's remap", i, r, n)
		}
	}

	frames := []gocv.Mat{
		ref,
		raw(Pt(0, 0), 0, 7),              // fresh noise
		raw(Pt(0.008, -0.01), 0, 2),      // knocked, shaking
		raw(Pt(0.0092, -0.0112), 0, 3),   // at rest
		raw(Pt(0.0100, -0.0112), 0, 4),   // settling a pixel on
		raw(Pt(0.0100, -0.0112), 0.6, 5), // turned
		raw(Pt(0.0100, -0.0112), 0.6, 6), // at rest again
		raw(Pt(0.0100, -0.0112), 0.6, 8), // quiet
	}
	for _, f := range frames[1:] {
		defer f.Close()
	}
	t0 := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	recals := 0
	for i, f := range frames {
		at := t0.Add(time.Duration(i) * 2100 * time.Millisecond)
		fu := undist(f)
		resW, calW, errW := whole.Observe(fu, at)
		fu.Close()
		resP, calP, errP := parts.ObserveRaw(f, at)
		if (errW == nil) != (errP == nil) {
			t.Fatalf("frame %d: errors %v and %v", i, errW, errP)
		}
		if (resW == nil) != (resP == nil) {
			t.Fatalf("frame %d: checked %v and %v", i, resW != nil, resP != nil)
		}
		if resW != nil && fmt.Sprint(*resW) != fmt.Sprint(*resP) {
			t.Errorf("frame %d: whole frame %+v, parts %+v", i, *resW, *resP)
		}
		if (calW == nil) != (calP == nil) {
			t.Fatalf("frame %d: recalibrated %v and %v", i, calW != nil, calP != nil)
		}
		if calW != nil {
			recals++
			if fmt.Sprint(calW.ImageCorners()) != fmt.Sprint(calP.ImageCorners()) {
				t.Errorf("frame %d: recalibrated to %v and %v", i, calW.ImageCorners(), calP.ImageCorners())
			}
		}
		if resW != nil {
			t.Logf("frame %d: %s, shift %.3f px, recalibrated %v", i, resW.Status, resW.ShiftPx, calW != nil)
		}
	}
	if recals == 0 {
		t.Error("no recalibration: the test does not compare one")
	}
}
