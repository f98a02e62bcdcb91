package daemon

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
)

// Close while Run still analyses the demo clip (a test whose guard gave
// up, a caller that did not wait): Close stops the run and waits for the
// frame in flight before it frees the analyzer. Before, the analysis went
// on on a closed vision.Detector and panicked (nil background in observe).
// Only the first frames are analysed: a few seconds.
func TestCloseDuringRun(t *testing.T) {
	const demo = "../testdata/videos/demo.mp4"
	if _, err := os.Stat(demo); err != nil {
		t.Skip("the demo clip is not there")
	}
	cfg := testConfig(t)
	cfg.Source.URI = demo
	nopace := false
	cfg.Source.Pace = &nopace
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), NewMatch: true}
	done := runDaemon(t, d)
	guard := time.Now().Add(60 * time.Second) // a guard against a hang, not a timing
	for d.metrics.nOut.Load() < 3 {
		select {
		case err := <-done:
			t.Fatalf("the run ended before Close: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(guard) {
			t.Fatal("no frame analysed")
		}
	}
	d.Close() // Run is in flight
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run after Close: %v", err)
		}
	default:
		t.Fatal("Close returned before Run")
	}
	if err := d.Run(context.Background()); err == nil {
		t.Error("a Run after Close was accepted")
	}
}

// The vision analyzer after Close refuses frames instead of touching freed
// OpenCV memory.
func TestVisionAnalyzerClosed(t *testing.T) {
	a, err := NewVisionAnalyzer(testSight, board.ICF(), nil, nil, board.S, calibrate.Bottom, nil, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	a.Close() // twice is harmless
	if _, err := a.Flush(); !errors.Is(err, errAnalyzerClosed) {
		t.Errorf("Flush after Close: %v", err)
	}
}
