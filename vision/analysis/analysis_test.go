package analysis

import (
	"errors"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/pipeline"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
	"github.com/boardcam/boardcam/vision"
)

// synthDetector reports the synthetic detections of a simulator trace
// (package trackertest: realistic detector errors) in the board frame of a
// camera turned by k quarter turns: what vision says about a board whose
// sides it has not yet named right.
type synthDetector struct {
	s      *trackertest.Synth
	k      int
	cals   int
	closed bool
}

func (d *synthDetector) Detect(frame gocv.Mat, index int, t float64) (vision.Frame, error) {
	f, _ := d.s.Frame(index)
	if d.k != 0 {
		s := board.Side(d.k)
		for i := range f.Detections {
			f.Detections[i].MM = board.FromLocal(s, f.Detections[i].MM)
		}
		if f.Occlusion != nil {
			f.Occlusion = turnedOcclusion{f.Occlusion, board.Side((4 - d.k) % 4)}
		}
	}
	return f, nil
}

func (d *synthDetector) SetCalibration(*calibrate.Calibration) error { d.cals++; return nil }
func (d *synthDetector) Close()                                      { d.closed = true }

func scenario(t *testing.T, name string, fps int) *sim.Trace {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	tr, err := sim.RunFile(filepath.Join(filepath.Dir(file), "..", "..", "testdata", "scenarios", name), sim.Options{FPS: fps})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// testCalibration is a camera looking straight down on the ICF board.
func testCalibration(t *testing.T) *calibrate.Calibration {
	t.Helper()
	cal, err := calibrate.New([4]calibrate.Point{{X: 340, Y: 60}, {X: 940, Y: 60}, {X: 940, Y: 660}, {X: 340, Y: 660}},
		calibrate.Size{W: 1280, H: 720}, board.ICF(), calibrate.DefaultOrientation(), time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	cal.Quality.Method = calibrate.Manual
	cal.Quality.Edges = [4]string{"manual", "manual", "manual", "manual"}
	return cal
}

// tickClock advances a millisecond each time it is read.
func tickClock() func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time { t = t.Add(time.Millisecond); return t }
}

// run drives an analyzer over every frame of a trace with a blank image.
func run(t *testing.T, a *Analyzer, tr *sim.Trace) []events.Event {
	t.Helper()
	img := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer img.Close()
	var out []events.Event
	for i := range tr.NumFrames() {
		r, err := a.Process(&img, i, tr.FrameTime(i))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Pieces) != 20 {
			t.Fatalf("frame %d: %d pieces", i, len(r.Pieces))
		}
		if !r.Calibrated || r.Calibration == nil {
			t.Fatalf("frame %d not analysed (%s)", i, r.Note)
		}
		if r.Timing.Total <= 0 || r.Timing.Vision <= 0 || r.Timing.Tracker <= 0 ||
			r.Timing.Total < r.Timing.Calibrate+r.Timing.Vision+r.Timing.Tracker {
			t.Fatalf("frame %d: stage timings %+v", i, r.Timing)
		}
		for _, p := range r.Pieces {
			if !p.State.OnBoard() {
				continue
			}
			q := r.Calibration.ToImage(p.MM)
			if math.Hypot(q.X-p.PX[0], q.Y-p.PX[1]) > 1e-6 {
				t.Fatalf("frame %d: %s at %v mm is at %v px, the calibration puts it at %v", i, p.ID, p.MM, p.PX, q)
			}
		}
		out = append(out, r.Events...)
	}
	return append(out, a.Finish()...)
}

// matchOne finds, for each truth event of the types listed, an event of
// the same type and attributes within tol frames.
func matchOne(t *testing.T, truth, got []events.Event, tol map[events.Type]int) {
	t.Helper()
	used := make([]bool, len(got))
	for _, te := range truth {
		w, ok := tol[te.Type]
		if !ok {
			continue
		}
		found := false
		for k, ge := range got {
			if used[k] || ge.Type != te.Type || !sameAttrs(te, ge) || abs(ge.Frame-te.Frame) > w {
				continue
			}
			used[k], found = true, true
			break
		}
		if !found {
			t.Errorf("missing: %s at frame %d (%s)", te.Type, te.Frame, describe(te))
		}
	}
	for k, ge := range got {
		if _, ok := tol[ge.Type]; ok && !used[k] {
			t.Errorf("extra: %s at frame %d (%s)", ge.Type, ge.Frame, describe(ge))
		}
	}
}

func sameAttrs(a, b events.Event) bool {
	eqSide := (a.Side == nil) == (b.Side == nil) && (a.Side == nil || *a.Side == *b.Side)
	eqKind := (a.Piece == nil) == (b.Piece == nil) && (a.Piece == nil || *a.Piece == *b.Piece)
	eqPocket := (a.Pocket == nil) == (b.Pocket == nil) && (a.Pocket == nil || *a.Pocket == *b.Pocket)
	return eqSide && eqKind && eqPocket
}

func describe(e events.Event) string {
	var s []string
	if e.Side != nil {
		s = append(s, e.Side.String())
	}
	if e.Piece != nil {
		s = append(s, e.Piece.String())
	}
	if e.Pocket != nil {
		s = append(s, e.Pocket.String())
	}
	return strings.Join(s, " ")
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var strokeTol = map[events.Type]int{
	events.StrokeStart: 3, events.FrontLineCrossed: 3, events.Pocketed: 2, events.Overboard: 2, events.StrokeEnd: 3,
}

// The analyzer over a calibration file and (synthetic) detections: the
// events of the simulator's truth, the pieces projected into the image,
// every stage timed, the calibrated event first.
func TestAnalyzerEvents(t *testing.T) {
	tr := scenario(t, "striker-pocketed.yaml", 60)
	det := &synthDetector{s: trackertest.NewSynth(tr, trackertest.Realistic)}
	cal := testCalibration(t)
	a, err := NewWithDetector(pipeline.Config{Calibration: cal, CheckEvery: -1, Now: tickClock()}, func(c *calibrate.Calibration, _ vision.Config) (vision.FrameDetector, error) {
		if c.CornersPx()[0] != cal.CornersPx()[0] {
			t.Errorf("detector made for corners %v, want %v", c.CornersPx(), cal.CornersPx())
		}
		return det, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := run(t, a, tr)
	a.Close()
	if !det.closed {
		t.Error("Close did not close the detector")
	}
	if len(got) == 0 || got[0].Type != events.Calibrated || got[0].Frame != 0 || len(got[0].CornersPx) != 4 || got[0].CornersPx[2] != cal.CornersPx()[2] {
		t.Fatalf("first event %+v, want calibrated at frame 0 with the calibration's corners", got[0])
	}
	for k := 1; k < len(got); k++ {
		if got[k].T < got[k-1].T {
			t.Errorf("events out of time order: %s at %.3f after %s at %.3f", got[k].Type, got[k].T, got[k-1].Type, got[k-1].T)
		}
	}
	matchOne(t, tr.Events, got, strokeTol)
}

// A camera turned a quarter: vision names the sides wrong until the first
// stroke shows where the player whose turn it is sits; from then on the
// events name them right, and the frames before are tracked again.
func TestOrientationFromFirstStroke(t *testing.T) {
	tr := scenario(t, "single-pocket.yaml", 60)
	for k := 1; k < 4; k++ {
		det := &synthDetector{s: trackertest.NewSynth(tr, trackertest.Realistic), k: k}
		turn := board.S // the truth's first stroke is S's
		a, err := NewWithDetector(pipeline.Config{Calibration: testCalibration(t), CheckEvery: -1, Turn: &turn, Now: tickClock()}, func(*calibrate.Calibration, vision.Config) (vision.FrameDetector, error) { return det, nil })
		if err != nil {
			t.Fatal(err)
		}
		got := run(t, a, tr)
		if a.turn != (4-k)%4 {
			t.Errorf("camera turned %d: the analyzer turned the board %d quarter turns, want %d", k, a.turn, (4-k)%4)
		}
		if c := a.Calibration(); c.Orientation.SouthAt == calibrate.Bottom {
			t.Errorf("camera turned %d: the calibration still has S at the bottom", k)
		}
		a.Close()
		t.Run(string(rune('0'+k)), func(t *testing.T) { matchOne(t, tr.Events, got, strokeTol) })
	}
}

// Frames that cannot be analysed are errors that say which frame and why.
func TestProcessErrors(t *testing.T) {
	cal := testCalibration(t)
	newA := func(c *calibrate.Calibration) *Analyzer {
		a, err := NewWithDetector(pipeline.Config{Calibration: c, CheckEvery: -1}, func(*calibrate.Calibration, vision.Config) (vision.FrameDetector, error) {
			return &synthDetector{s: trackertest.NewSynth(scenario(t, "nudge.yaml", 30), trackertest.Realistic)}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := newA(cal)
	defer a.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	if _, err := a.Process(&empty, 0, 0); err == nil || !strings.Contains(err.Error(), "frame 0 is empty") {
		t.Errorf("empty frame: %v", err)
	}
	small := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	defer small.Close()
	b := newA(cal)
	defer b.Close()
	if _, err := b.Process(&small, 3, 0.1); err == nil || !strings.Contains(err.Error(), "1280x720") {
		t.Errorf("frames of another size than the calibration: %v", err)
	}
	big := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer big.Close()
	if _, err := a.Process(&big, 1, 0.1); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Process(&small, 2, 0.2); err == nil || !strings.Contains(err.Error(), "frame 2 is 640x480") {
		t.Errorf("a frame of another size: %v", err)
	}
	grey := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8U)
	defer grey.Close()
	if _, err := a.Process(&grey, 3, 0.3); err == nil || !strings.Contains(err.Error(), "channels") {
		t.Errorf("a grey frame: %v", err)
	}
	g := board.ICF()
	g.Surface = 720
	if _, err := New(pipeline.Config{Calibration: cal, Geometry: g}); err == nil || !strings.Contains(err.Error(), "740 mm") {
		t.Errorf("calibration for another board: %v", err)
	}
	failing := errors.New("no camera model")
	c, err := NewWithDetector(pipeline.Config{Calibration: cal}, func(*calibrate.Calibration, vision.Config) (vision.FrameDetector, error) { return nil, failing })
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Process(&big, 0, 0); !errors.Is(err, failing) {
		t.Errorf("detector error not passed on: %v", err)
	}
}

// The detector is chosen by name in vision's registry; an unknown name is
// refused when the analyzer is made, naming the registered ones.
func TestDetectorByName(t *testing.T) {
	if _, err := New(pipeline.Config{Detector: "nope"}); err == nil || !strings.Contains(err.Error(), vision.DefaultDetector) {
		t.Errorf("unknown detector: %v", err)
	}
	a, err := New(pipeline.Config{Detector: vision.DefaultDetector})
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
}
