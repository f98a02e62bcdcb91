package analysis

import (
	"reflect"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
)

// Shared board searches give each analyzer a calibration equal to its own
// search's, field for field (markings and quality included), but its own
// copy; a search that fails fails the same way for each.
func TestSharedSearchesCopyTheCalibration(t *testing.T) {
	vc, err := OpenVideo("../../testdata/videos/nudge.mp4")
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	img, ok := vc.Read()
	if !ok {
		t.Fatal(vc.Err())
	}
	frame := *img.(*gocv.Mat)
	opt := calibrate.Options{Geometry: board.ICF(), Orientation: calibrate.DefaultOrientation(), Now: func() time.Time { return clock(0.5) }}
	own, _, err := calibrate.Detect(frame, opt)
	if err != nil {
		t.Fatal(err)
	}
	if own.Markings == nil || own.Quality.RMSmm == nil || own.Quality.EdgeRMSpx == nil {
		t.Fatalf("the first frame's calibration has no markings or RMS: nothing to copy (markings %v)", own.Markings != nil)
	}
	blank := gocv.NewMatWithSize(frame.Rows(), frame.Cols(), frame.Type())
	defer blank.Close()
	_, _, ownErr := calibrate.Detect(blank, opt)
	if ownErr == nil {
		t.Fatal("a board found in a black picture")
	}

	ShareSearches()
	defer func() {
		searches.mu.Lock()
		searches.on, searches.m = false, nil
		searches.mu.Unlock()
	}()
	first, err := detect(frame, opt, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	second, err := detect(frame, opt, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(searches.m); n != 1 {
		t.Errorf("%d searches kept, want 1", n)
	}
	for i, c := range []*calibrate.Calibration{first, second} {
		if !reflect.DeepEqual(c, own) {
			t.Errorf("search %d: %+v, want %+v", i+1, c, own)
		}
	}
	if first == second || first.Markings == second.Markings || first.Quality.RMSmm == second.Quality.RMSmm || (first.Set != nil && first.Set == second.Set) {
		t.Error("the two analyzers share parts of one calibration")
	}
	// Another time in the video is another search.
	if _, err := detect(frame, opt, 1); err != nil {
		t.Fatal(err)
	}
	if n := len(searches.m); n != 2 {
		t.Errorf("%d searches kept, want 2", n)
	}
	for i := 0; i < 2; i++ {
		if _, err := detect(blank, opt, 0.5); err == nil || err.Error() != ownErr.Error() {
			t.Errorf("the black picture, search %d: %v, want %v", i+1, err, ownErr)
		}
	}
}
