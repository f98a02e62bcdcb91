package vision

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/calibrate"
)

func TestDetectorRegistry(t *testing.T) {
	f, err := Detectors("")
	if err != nil || f == nil {
		t.Fatalf("the default detector: %v", err)
	}
	if _, err := Detectors("nope"); err == nil || !strings.Contains(err.Error(), `no detector "nope"`) || !strings.Contains(err.Error(), DefaultDetector) {
		t.Errorf("unknown detector: %v, want an error naming the registered ones", err)
	}
	made := 0
	RegisterDetector("registry-test", func(*calibrate.Calibration, Config) (FrameDetector, error) { made++; return nil, nil })
	g, err := Detectors("registry-test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g(nil, Config{}); err != nil || made != 1 {
		t.Errorf("the registered factory was not the one returned (made %d, err %v)", made, err)
	}
	names := strings.Join(DetectorNames(), ",")
	if !strings.Contains(names, DefaultDetector) || !strings.Contains(names, "registry-test") {
		t.Errorf("DetectorNames = %s", names)
	}
	for _, name := range []string{"registry-test", DefaultDetector, ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RegisterDetector(%q) twice or empty did not panic", name)
				}
			}()
			RegisterDetector(name, func(*calibrate.Calibration, Config) (FrameDetector, error) { return nil, nil })
		}()
	}
	// The default factory makes vision's own detector (a nil calibration
	// is refused by New, and the factory's error is New's).
	if d, err := f(nil, Config{}); err == nil || d != nil {
		t.Errorf("default factory with no calibration: %v, %v", d, err)
	}
}
