package daemon

import (
	"os"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/web"
)

// analyzeUntil feeds frames of the clip until an event of type typ comes
// out (or n frames), and returns the analyses.
func analyzeUntil(t *testing.T, a Analyzer, src Source, frame *gocv.Mat, from *int64, n int, typ events.Type) []Analysis {
	t.Helper()
	var out []Analysis
	for i := 0; i < n; i++ {
		pts, err := src.Read(frame)
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Analyze(frame, *from, pts)
		*from++
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, res)
		for _, e := range res.Events {
			if e.Type == typ {
				return out
			}
		}
	}
	t.Fatalf("no %s event in %d frames", typ, n)
	return nil
}

// The vision pipeline on the demo clip, through the daemon's adapter: the
// board is found (calibrated, status ok with a quality and a homography),
// the tracked pieces and the stage timings are passed on, and after the
// umpire's four corners the pipeline runs on them (recalibrated, status
// manual).
func TestVisionAnalyzer(t *testing.T) {
	const demo = "../testdata/videos/demo.mp4"
	if _, err := os.Stat(demo); err != nil {
		t.Skip("the demo clip is not there")
	}
	src, err := NewCaptureSource(SourceSpec{Kind: KindFile, Target: demo}, CaptureOptions{}, testSight.Pictures)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Open(); err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	frame := gocv.NewMat()
	defer frame.Close()
	a, err := NewVisionAnalyzer(testSight, board.ICF(), nil, nil, board.S, calibrate.Bottom, nil, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Calibrate([4][2]float64{}); err == nil {
		t.Error("manual calibration before any frame was accepted")
	}
	var idx int64
	res := analyzeUntil(t, a, src, &frame, &idx, 60, events.Calibrated)
	var cal *web.Calibration
	var corners [][2]float64
	pieces := 0
	for _, r := range res {
		if r.Calibration != nil && r.Calibration.Status == web.CalibrationOK {
			cal = r.Calibration
		}
		for _, e := range r.Events {
			if e.Type == events.Calibrated {
				corners = e.CornersPx
			}
		}
		pieces = max(pieces, len(r.Pieces))
		if len(r.Timings) != 3 {
			t.Errorf("timings %+v", r.Timings)
		}
	}
	if cal == nil || cal.Quality <= 0 || len(cal.CornersPx) != 4 || cal.Homography == nil || len(corners) != 4 {
		t.Fatalf("calibration %+v, corners %v", cal, corners)
	}
	// A few more frames: the opening arrangement is tracked.
	for i := 0; i < 5; i++ {
		pts, _ := src.Read(&frame)
		r, err := a.Analyze(&frame, idx, pts)
		idx++
		if err != nil {
			t.Fatal(err)
		}
		pieces = max(pieces, len(r.Pieces))
	}
	// How many are found is the tracker's business (boardcam eval measures
	// it); the adapter must pass them on.
	if pieces == 0 {
		t.Errorf("no tracked piece passed on for the opening arrangement")
	}
	var c [4][2]float64
	copy(c[:], corners)
	if err := a.Calibrate(c); err != nil {
		t.Fatal(err)
	}
	res = analyzeUntil(t, a, src, &frame, &idx, 30, events.Recalibrated)
	manual := false
	for _, r := range res {
		manual = manual || (r.Calibration != nil && r.Calibration.Status == web.CalibrationManual)
	}
	if !manual {
		t.Error("no manual calibration status after the umpire's corners")
	}
}
