package analysis

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/pipeline"
)

// analyseClip runs the whole pipeline (calibrate → vision → tracker) over
// a clip of the corpus, told whose turn it is as a club's configuration
// would, and returns its events and the analyzer's last calibration.
func analyseClip(t *testing.T, name string) (*corpus.Truth, []events.Event, *calibrate.Calibration) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "videos")
	truth, err := corpus.ReadTruth(filepath.Join(dir, name+".truth.json"))
	if err != nil {
		t.Skip(err)
	}
	video := filepath.Join(dir, truth.Clip.Video)
	if _, err := os.Stat(video); err != nil {
		t.Skip(err)
	}
	turn, err := truth.Referee.FirstTurn()
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(pipeline.Config{Turn: &turn})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	vc, err := OpenVideo(video)
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	var got []events.Event
	for i := 0; ; i++ {
		img, ok := vc.Read()
		if !ok {
			break
		}
		r, err := a.Process(img, i, float64(i)/float64(truth.Clip.FPS))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Events...)
	}
	if err := vc.Err(); err != nil {
		t.Fatal(err)
	}
	got = append(got, a.Finish()...)
	return truth, got, a.Calibration()
}

func count(evs []events.Event, typ events.Type) int {
	n := 0
	for _, e := range evs {
		if e.Type == typ {
			n++
		}
	}
	return n
}

// End to end on rendered clips of the corpus (slow: a few seconds each).
func TestCorpusClips(t *testing.T) {
	if testing.Short() {
		t.Skip("runs vision over rendered clips")
	}
	tol := map[events.Type]int{events.StrokeStart: 3, events.FrontLineCrossed: 3, events.Pocketed: 2, events.StrokeEnd: 3}

	// A camera turned a quarter: the sides are named from the first
	// stroke, and the white goes into NE.
	t.Run("single-pocket", func(t *testing.T) {
		truth, got, cal := analyseClip(t, "single-pocket")
		matchOne(t, truth.Events, got, tol)
		if cal == nil || cal.Orientation.SouthAt == calibrate.Bottom {
			t.Errorf("the board's orientation was not taken from the first stroke: %+v", cal)
		}
	})

	// The camera knocked before the stroke: recalibrated, the pieces at
	// rest neither moved nor placed, the stroke's events all there.
	t.Run("camera-knock", func(t *testing.T) {
		truth, got, _ := analyseClip(t, "camera-knock")
		if count(got, events.Recalibrated) != 1 {
			t.Errorf("%d recalibrated events, want 1", count(got, events.Recalibrated))
		}
		if n := count(got, events.Moved) + count(got, events.Placed); n != 0 {
			t.Errorf("%d moved or placed events: the camera moved, not the pieces", n)
		}
		matchOne(t, truth.Events, got, tol)
	})

	// A hand resting over a pocket hides two men: no pocket.
	t.Run("hand-over-pocket", func(t *testing.T) {
		truth, got, _ := analyseClip(t, "hand-over-pocket")
		if n := count(got, events.Pocketed); n != 0 {
			t.Errorf("%d pocketed events under the hand", n)
		}
		matchOne(t, truth.Events, got, tol)
	})
}
