package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/pipeline"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker"
	"github.com/boardcam/boardcam/web"
)

// Sight is what the daemon takes from the OpenCV side: the program that
// links it (cmd/boardcam, with package vision/analysis) fills it in, so
// that the daemon's own wiring does not link OpenCV.
type Sight struct {
	// NewAnalyzer makes the analysis (calibrate → vision → tracker):
	// vision/analysis.Factory.
	NewAnalyzer pipeline.Factory
	// FromCorners makes a calibration from the four corners of the
	// playing surface (NW, NE, SE, SW) in the pixels of a frame (the
	// umpire's manual calibration): vision/analysis.FromCorners.
	FromCorners func(img sight.Image, corners [4]camera.Point, g *board.Geometry, o camera.Orientation) (*camera.Calibration, error)
	// Pictures makes the capture's frames, which the sources fill and the
	// analysis reads: vision/analysis.Pictures (*gocv.Mat).
	Pictures sight.Pictures
	// NewChangeDetector makes the cheap look at a frame that leaves still
	// frames out of the analysis: vision/analysis.NewChangeDetector.
	NewChangeDetector func() sight.ChangeDetector
}

// checkFrames says what is missing to capture frames.
func (s Sight) checkFrames() error {
	if s.Pictures == nil || s.NewChangeDetector == nil {
		return errors.New("no frames: the daemon was started without its OpenCV side (Daemon.Sight.Pictures, NewChangeDetector)")
	}
	return nil
}

func (s Sight) check() error {
	if s.NewAnalyzer == nil || s.FromCorners == nil {
		return errors.New("no analysis: the daemon was started without its OpenCV side (Daemon.Sight)")
	}
	return nil
}

// VisionAnalyzer is the daemon's analysis: a pipeline.Analyzer
// (calibrate → vision → tracker) with its events, its twenty tracked
// pieces, its calibration status and its per-stage timings.
type VisionAnalyzer struct {
	// Config is the pipeline's configuration (board, calibration file,
	// orientation with the breaker's seat, detector).
	Config pipeline.Config
	sight  Sight

	// Saved, when set, is where a manual calibration (the umpire's four
	// corners) is saved, so that the daemon uses it again after a restart.
	Saved string

	// pmu is held while the pipeline works on a frame and by Close: a
	// Close from another goroutine waits for the frame in flight, and the
	// calls after it fail instead of touching freed OpenCV memory.
	pmu     sync.Mutex
	p       pipeline.Analyzer
	cal     *camera.Calibration
	note    string
	started bool

	mu     sync.Mutex
	manual *[4][2]float64
	// manualSize is the frame size saved corners were clicked on.
	manualSize camera.Size
	size       camera.Size
}

// NewVisionAnalyzer prepares the analysis s makes for a board, a calibration file
// (nil: the board is found in the frames), the camera's lens (nil: none
// known), the seat that breaks and the installation's orientation:
// southAt, the image side nearest board side S, or, with turn set, none:
// the orientation is then taken from the first stroke, played from turn
// (see pipeline.Config.Turn). set, when not nil, is the configuration's
// set of pieces, over the one the calibration learned; detector names the
// disc detector in vision's registry ("": the default).
func NewVisionAnalyzer(s Sight, g *board.Geometry, cal *camera.Calibration, lens *camera.Lens, breaker board.Side, southAt camera.Direction, turn *board.Side, set *board.Set, detector string) (*VisionAnalyzer, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	o := camera.DefaultOrientation()
	o.Breaker, o.BreakerSource = breaker, "config"
	o.SouthAt = southAt
	cfg := pipeline.Config{Geometry: g, Calibration: cal, Lens: lens, Orientation: o}
	cfg.Set, cfg.Detector = set, detector
	if cal == nil && turn != nil {
		t := *turn
		cfg.Turn = &t
	}
	p, err := s.NewAnalyzer(cfg)
	if err != nil {
		return nil, err
	}
	return &VisionAnalyzer{Config: cfg, sight: s, p: p}, nil
}

// Analyze implements Analyzer.
func (a *VisionAnalyzer) Analyze(frame sight.Image, index int64, pts time.Duration) (Analysis, error) {
	var out Analysis
	a.pmu.Lock()
	defer a.pmu.Unlock()
	if a.p == nil {
		return out, errAnalyzerClosed
	}
	a.mu.Lock()
	w, h := sight.Size(frame)
	a.size = camera.Size{W: w, H: h}
	manual := a.manual
	if a.manualSize.W != 0 && a.manualSize != a.size {
		manual = nil // saved on another camera's frames
	}
	a.manual, a.manualSize = nil, camera.Size{}
	a.mu.Unlock()
	if manual != nil {
		if err := a.useCorners(frame, *manual); err != nil {
			out.Calibration = &web.Calibration{Status: web.CalibrationSearching, Message: "manual calibration: " + err.Error(), Frame: index}
		}
	}
	r, err := a.p.Process(frame, int(index), pts.Seconds())
	if err != nil {
		return out, err
	}
	out.Timings = append(out.Timings,
		StageTiming{Stage: "calibrate", D: r.Timing.Calibrate},
		StageTiming{Stage: "vision", D: r.Timing.Vision},
		StageTiming{Stage: "tracker", D: r.Timing.Tracker})
	out.Work = r.Work
	// The result is reused by the next frame: copy what leaves (the
	// occlusion is the detector's copy of its mask, kept by nobody else).
	out.Events = append([]events.Event(nil), r.Events...)
	if h, ok := r.Hands.(sight.HandRegions); ok {
		out.Hands = h
	}
	for i, e := range out.Events {
		if e.Type == events.Calibrated && a.started {
			out.Events[i].Type = events.Recalibrated // a pipeline begun again
		}
	}
	if r.Calibration != a.cal {
		a.cal = r.Calibration
		if a.cal != nil {
			out.Calibration = calibrationStatus(a.cal, w, h, index, r.Note)
		}
	} else if a.cal == nil && r.Note != a.note {
		out.Calibration = &web.Calibration{Status: web.CalibrationSearching, Message: r.Note, Width: w, Height: h, Frame: index}
	}
	if a.cal != nil && !r.Calibrated && r.Note != "" && r.Note != a.note {
		out.Calibration = &web.Calibration{Status: web.CalibrationLost, Message: r.Note, Frame: index}
	}
	a.note = r.Note
	if !r.Calibrated {
		out.Unanalysed = r.Note
		if out.Unanalysed == "" {
			out.Unanalysed = "the board is not calibrated"
		}
	}
	if len(r.Pieces) > 0 {
		out.Pieces = make([]web.Piece, 0, len(r.Pieces))
		for _, p := range r.Pieces {
			if p.State == tracker.Unseen {
				continue
			}
			out.Pieces = append(out.Pieces, web.Piece{ID: p.ID, Kind: p.Kind, MM: [2]float64{p.MM.X, p.MM.Y}, State: pieceState(p.State)})
		}
	}
	return out, nil
}

func pieceState(s tracker.State) string {
	switch s {
	case tracker.Moving:
		return web.PieceMoving
	case tracker.Occluded:
		return web.PieceHeld
	case tracker.Pocketed:
		return web.PiecePocketed
	case tracker.Overboard:
		return web.PieceOverboard
	case tracker.Missing:
		return web.PieceLost
	}
	return web.PieceRest
}

// Flush implements Flusher: the events the tracker still holds at the end
// of a video.
func (a *VisionAnalyzer) Flush() (Analysis, error) {
	a.pmu.Lock()
	defer a.pmu.Unlock()
	if a.p == nil {
		return Analysis{}, errAnalyzerClosed
	}
	return Analysis{Events: a.p.Finish()}, nil
}

var errAnalyzerClosed = errors.New("analysis: the analyzer is closed")

// Reset implements Analyzer. The pipeline keeps its tracker (the pieces'
// identities) across an outage and checks the calibration against the
// frames every quarter of a second of video: a camera that moved while the
// picture was gone is recalibrated by that check, which emits
// recalibrated.
func (a *VisionAnalyzer) Reset() {}

// Calibrate implements Analyzer: from the next frame the pipeline runs on
// the umpire's corners (a new pipeline: the tracker starts afresh, as at
// the start of a match). It may be called from any goroutine.
func (a *VisionAnalyzer) Calibrate(c [4][2]float64) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.size.W == 0 {
		return fmt.Errorf("no frame seen yet to calibrate on")
	}
	a.manual = &c
	if a.Saved != "" {
		if err := SaveCorners(a.Saved, c, a.size); err != nil {
			return fmt.Errorf("the calibration is used, but not saved for a restart: %w", err)
		}
	}
	return nil
}

// SavedCorners is the umpire's manual calibration as saved for a restart:
// the four corners of the playing surface in camera pixels (NW, NE, SE,
// SW) and the frame size they were clicked on.
type SavedCorners struct {
	CornersPx [4][2]float64 `json:"corners_px"`
	Width     int           `json:"width"`
	Height    int           `json:"height"`
}

// SaveCorners writes the corners atomically.
func SaveCorners(path string, c [4][2]float64, size camera.Size) error {
	b, err := json.MarshalIndent(SavedCorners{CornersPx: c, Width: size.W, Height: size.H}, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o640); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// LoadCorners reads corners saved by SaveCorners.
func LoadCorners(path string) (SavedCorners, error) {
	var sc SavedCorners
	b, err := os.ReadFile(path)
	if err != nil {
		return sc, err
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		return sc, fmt.Errorf("%s: %w", path, err)
	}
	if sc.Width <= 0 || sc.Height <= 0 {
		return sc, fmt.Errorf("%s: no frame size", path)
	}
	return sc, nil
}

// UseSaved makes the first frame of the right size calibrate from saved
// corners (a frame of another size: the camera changed, the corners are
// not used).
func (a *VisionAnalyzer) UseSaved(sc SavedCorners) {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := sc.CornersPx
	a.manual, a.manualSize = &c, camera.Size{W: sc.Width, H: sc.Height}
}

func (a *VisionAnalyzer) useCorners(frame sight.Image, c [4][2]float64) error {
	var pts [4]camera.Point
	for i := range c {
		pts[i] = camera.Point{X: c[i][0], Y: c[i][1]}
	}
	o := a.Config.Orientation
	if a.cal != nil {
		o = a.cal.Orientation
	}
	cal, err := a.sight.FromCorners(frame, pts, a.Config.Geometry, o)
	if err != nil {
		return err
	}
	cfg := a.Config
	cfg.Calibration = cal
	p, err := a.sight.NewAnalyzer(cfg)
	if err != nil {
		return err
	}

	a.p.Close()
	a.p, a.cal, a.started = p, nil, true
	return nil
}

// Close implements Analyzer.
func (a *VisionAnalyzer) Close() error {
	a.pmu.Lock()
	defer a.pmu.Unlock()
	if a.p != nil {
		a.p.Close()
		a.p = nil
	}
	return nil
}
