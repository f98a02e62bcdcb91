package vision

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/calibrate"
)

// FrameDetector is a disc detector as the analysis drives it (package
// vision/analysis): *Detector implements it, and so does any other
// detector registered with [RegisterDetector] (a learned one, say).
type FrameDetector interface {
	// Detect finds the discs and hands in one frame (8-bit BGR, not
	// undistorted: the calibration's lens is applied by the detector).
	Detect(frame gocv.Mat, index int, t float64) (Frame, error)
	// SetCalibration switches to a new calibration (the camera moved).
	SetCalibration(cal *calibrate.Calibration) error
	Close()
}

// DetectorFactory makes a detector for a calibration.
type DetectorFactory func(cal *calibrate.Calibration, cfg Config) (FrameDetector, error)

// DefaultDetector is the name of this package's own detector ([New]: the
// gradient-vote disc finder with the hand mask), used when the
// configuration names none.
const DefaultDetector = "classic"

var (
	detMu     sync.Mutex
	detectors = map[string]DetectorFactory{
		DefaultDetector: func(cal *calibrate.Calibration, cfg Config) (FrameDetector, error) {
			d, err := New(cal, cfg)
			if err != nil {
				return nil, err
			}
			return d, nil
		},
	}
)

// RegisterDetector makes a detector available by name to the daemon's
// configuration (vision.detector), `boardcam detect --detector` and
// `boardcam analyze/eval --detector`. It panics on an empty or taken name
// (a programming error, found at start-up).
func RegisterDetector(name string, f DetectorFactory) {
	detMu.Lock()
	defer detMu.Unlock()
	if name == "" || f == nil {
		panic("vision: RegisterDetector with an empty name or a nil factory")
	}
	if _, ok := detectors[name]; ok {
		panic("vision: detector " + name + " registered twice")
	}
	detectors[name] = f
}

// DetectorNames lists the registered detectors, sorted.
func DetectorNames() []string {
	detMu.Lock()
	defer detMu.Unlock()
	names := make([]string, 0, len(detectors))
	for n := range detectors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Detectors returns the factory registered under name ("": the
// default), or an error naming the registered ones.
func Detectors(name string) (DetectorFactory, error) {
	if name == "" {
		name = DefaultDetector
	}
	detMu.Lock()
	f, ok := detectors[name]
	detMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("vision: no detector %q (registered: %s)", name, strings.Join(DetectorNames(), ", "))
	}
	return f, nil
}
