// Package analysis is the analysis of a camera's frames with OpenCV, the
// implementation of package pipeline's contract: calibrate (find the
// board, watch that it stays put) → vision (discs and hands in each
// frame, by the detector the configuration names in vision's registry) →
// tracker (identities, states, strokes and physical events). An
// [Analyzer] takes frames one at a time and says, for each, the events
// released, the twenty tracked pieces and what each stage cost. It is
// what `boardcam analyze` runs over a video file, what `boardcam eval`
// measures (pipeline/evalpipe, given [Factory] by cmd/boardcam) and what
// the daemon runs on the live camera (given [Factory] the same way).
//
// Frames are 8-bit BGR *gocv.Mat (as sight.Image) of one size. The
// analyzer keeps no reference to them; its own Mats (the undistorted copy
// used to check the calibration) are allocated once and released by
// Close.
package analysis

import (
	"fmt"
	"math"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/pipeline"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker"
	"github.com/boardcam/boardcam/vision"
)

// Analyzer runs calibrate → vision → tracker over the frames of one
// camera. It is not safe for concurrent use.
type Analyzer struct {
	cfg    pipeline.Config
	newDet vision.DetectorFactory
	g      *board.Geometry
	now    func() time.Time

	cal     *calibrate.Calibration
	mon     *calibrate.Monitor
	det     vision.FrameDetector
	tk      *tracker.Tracker
	und     *calibrate.Undistorter
	undist  gocv.Mat
	hasMat  bool
	size    calibrate.Size
	lastTry float64
	tried   bool
	lastChk float64
	checked bool
	suspect bool // the last check said the camera moved
	res     pipeline.Result

	// Orientation from the first stroke: while orienting, every analysed
	// frame is kept (buffer) to be tracked again once the turn is known;
	// turn is the quarter turns applied to what vision reports, rep the
	// calibration as reported (cal turned by turn).
	orienting bool
	buffer    []vision.Frame
	released  float64 // time of the last event released while orienting
	turn      int
	rep       *calibrate.Calibration
	// provisional: turned from where the striker was first placed, to be
	// confirmed by the first stroke.
	provisional bool
	// pending is a calibration given by SetCalibration, put in force at
	// the next frame.
	pending *calibrate.Calibration
}

// maxOrientFrames bounds the frames kept while waiting for the first
// stroke (five minutes at 30 fps); after that the orientation is left as
// found.
const maxOrientFrames = 9000

// New prepares an analyzer.
func New(cfg pipeline.Config) (*Analyzer, error) { return NewWithDetector(cfg, nil) }

// Factory is [New] as a pipeline.Factory: what cmd/boardcam gives the
// daemon and eval.
func Factory(cfg pipeline.Config) (pipeline.Analyzer, error) {
	a, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return a, nil
}

// NewWithDetector prepares an analyzer whose vision stage newDet makes
// (nil: the detector cfg.Detector names in vision's registry). Tests
// substitute their own detectors this way.
func NewWithDetector(cfg pipeline.Config, newDet vision.DetectorFactory) (*Analyzer, error) {
	if cfg.Geometry == nil {
		cfg.Geometry = board.ICF()
	}
	if err := cfg.Geometry.Validate(); err != nil {
		return nil, fmt.Errorf("pipeline: board geometry: %w", err)
	}
	if cfg.DetectEvery <= 0 {
		cfg.DetectEvery = 0.5
	}
	if cfg.CheckEvery == 0 {
		cfg.CheckEvery = 0.25
	}
	if cfg.Orientation == (calibrate.Orientation{}) {
		cfg.Orientation = calibrate.DefaultOrientation()
	}
	if newDet == nil {
		f, err := vision.Detectors(cfg.Detector)
		if err != nil {
			return nil, fmt.Errorf("pipeline: %w", err)
		}
		newDet = f
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.Tracker.Geometry = cfg.Geometry
	if cfg.Calibration != nil {
		if err := cfg.Calibration.Validate(); err != nil {
			return nil, fmt.Errorf("pipeline: calibration: %w", err)
		}
		if s := cfg.Calibration.Board.Surface; s > 0 && math.Abs(s-cfg.Geometry.Surface) > 0.5 {
			return nil, fmt.Errorf("pipeline: the calibration is for a %.0f mm playing surface, the board for %.0f mm", s, cfg.Geometry.Surface)
		}
		cfg.Tracker.Breaker = cfg.Calibration.Orientation.Breaker
	} else {
		cfg.Tracker.Breaker = cfg.Orientation.Breaker
	}
	tk, err := tracker.New(cfg.Tracker)
	if err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	a := &Analyzer{cfg: cfg, newDet: newDet, g: cfg.Geometry, now: cfg.Now, tk: tk}
	a.orienting = cfg.Turn != nil
	a.res.Pieces = make([]pipeline.Piece, 0, 20)
	return a, nil
}

// Tracker returns the tracker (for its configuration and state).
func (a *Analyzer) Tracker() *tracker.Tracker { return a.tk }

// Calibration returns the calibration in force (nil before the board is
// found), turned as the board's orientation requires.
func (a *Analyzer) Calibration() *calibrate.Calibration { return a.rep }

// Close releases the OpenCV memory of the analyzer and its detector.
func (a *Analyzer) Close() {
	if a.det != nil {
		a.det.Close()
		a.det = nil
	}
	if a.mon != nil {
		a.mon.Close()
		a.mon = nil
	}
	a.dropUndistorted()
}

// dropUndistorted releases the whole frame's remap tables and undistorted
// copy (8.3 MB at 720p): once the board is found the checks undistort
// only the parts of the frame they read (Monitor.ObserveRaw), and a
// recalibration makes them again for the one frame.
func (a *Analyzer) dropUndistorted() {
	a.dropUndistorter()
	if a.hasMat {
		a.undist.Close()
		a.hasMat = false
	}
}

// clock turns a frame time into the time the calibration monitor runs on,
// so that checks follow the video, not the wall clock.
func clock(t float64) time.Time { return time.Unix(0, 0).Add(time.Duration(t * float64(time.Second))) }

// Process analyses one frame: index is its number in the video, t its
// time in seconds (both increasing). Errors are for frames that cannot be
// analysed at all (empty, or a different size); a board not found yet is
// not an error (Result.Note says so).
// The image is a *gocv.Mat (the OpenCV side's sight.Image).
func (a *Analyzer) Process(img sight.Image, index int, t float64) (*pipeline.Result, error) {
	m, ok := img.(*gocv.Mat)
	if !ok || m == nil {
		return nil, fmt.Errorf("pipeline: frame %d is a %T, not an OpenCV picture", index, img)
	}
	frame := *m
	start := a.now()
	r := &a.res
	r.Index, r.T, r.Calibrated, r.Note = index, t, false, ""
	r.Detections, r.Events = r.Detections[:0], r.Events[:0]
	r.Timing, r.Work = pipeline.Timing{}, pipeline.Work{}
	r.Hands = nil
	if frame.Empty() {
		return nil, fmt.Errorf("pipeline: frame %d is empty", index)
	}
	size := calibrate.Size{W: frame.Cols(), H: frame.Rows()}
	if a.size.W == 0 {
		a.size = size
	} else if size != a.size {
		return nil, fmt.Errorf("pipeline: frame %d is %dx%d, the earlier frames %dx%d", index, size.W, size.H, a.size.W, a.size.H)
	}
	if frame.Channels() != 3 {
		return nil, fmt.Errorf("pipeline: frame %d has %d channels, want BGR", index, frame.Channels())
	}

	// Calibrate: find the board, or check that it is where it was.
	t0 := a.now()
	if err := a.calibrate(frame, index, t); err != nil {
		return nil, err
	}
	r.Timing.Calibrate = a.now().Sub(t0)

	// Vision.
	vf := vision.Frame{Index: index, T: t}
	if a.det != nil && !a.suspect {
		t1 := a.now()
		f, err := a.det.Detect(frame, index, t)
		r.Timing.Vision = a.now().Sub(t1)
		r.Work.Detected = true
		if err != nil {
			return nil, fmt.Errorf("pipeline: frame %d: %w", index, err)
		}
		vf = f
		r.Hands = f.Occlusion
		vf.Index, vf.T, vf.Calibrated = index, t, true
		// Our own copy (the detector's slice is its own), in the board
		// frame as oriented.
		r.Detections = append(r.Detections, f.Detections...)
		vf.Detections = r.Detections
		turnFrame(&vf, a.turn)
		r.Calibrated = true
	}

	// Tracker.
	t2 := a.now()
	u := a.tk.Update(vf)
	r.Events = append(r.Events, u.Events...)
	if a.orienting && vf.Calibrated {
		a.orient(vf, &u)
	}
	r.Timing.Tracker = a.now().Sub(t2)
	a.pieces(u.Pieces)
	r.Calibration = a.rep
	r.Timing.Total = a.now().Sub(start)
	return r, nil
}

// orient keeps the frames analysed while the orientation is not known.
// When the striker first comes to rest on a base line (placed for the
// first stroke) the board frame is turned so that this base line is
// Config.Turn's, provisionally; when the first stroke starts it is
// turned for good so that the stroke is played from Config.Turn. Each
// time the kept frames are tracked again in the turned frame.
func (a *Analyzer) orient(raw vision.Frame, u *tracker.Update) {
	r := &a.res
	// The frame's detections are the caller's until the next Detect: copy,
	// as vision reported them (before any turn).
	raw.Detections = append([]vision.Detection(nil), raw.Detections...)
	turnFrame(&raw, (4-a.turn)%4)
	a.buffer = append(a.buffer, raw)
	for _, e := range u.Events {
		a.released = math.Max(a.released, e.T)
	}
	side, final := a.tk.StrokeSide()
	if !final {
		if a.provisional {
			goto wait
		}
		s := a.tk.Pieces()[len(a.tk.Pieces())-1]
		if s.State != tracker.Rest && s.State != tracker.Placed {
			goto wait
		}
		sd, ok := a.g.BaseLineSide(s.MM, a.g.StrikerDiameter/2)
		if !ok {
			goto wait
		}
		side = sd
		a.provisional = true
	}
	if final {
		a.orienting = false
	}
	if k := (int(*a.cfg.Turn) - int(side) + 4) % 4; k != 0 {
		a.retrack((a.turn+k)%4, u)
		r.Note = fmt.Sprintf("the striker is played from %s: the board frame is turned %d quarter turns", *a.cfg.Turn, a.turn)
	}
	if final {
		a.buffer = nil
	}
	return
wait:
	if len(a.buffer) > maxOrientFrames {
		a.orienting, a.buffer = false, nil
		r.Note = "no stroke seen to take the board's orientation from: kept as found"
	}
}

// retrack starts the tracker again in the board frame turned by k and
// tracks the kept frames; this frame's events are those of the new
// tracker not released before.
func (a *Analyzer) retrack(k int, u *tracker.Update) {
	r := &a.res
	tk, err := tracker.New(a.cfg.Tracker)
	if err != nil {
		r.Note = "orientation: " + err.Error()
		return
	}
	a.turn, a.rep, a.tk = k, turned(a.cal, k), tk
	r.Work.Retracked += len(a.buffer)
	var evs []events.Event
	var last tracker.Update
	for _, f := range a.buffer {
		f.Detections = append([]vision.Detection(nil), f.Detections...)
		turnFrame(&f, k)
		last = a.tk.Update(f)
		for _, e := range last.Events {
			if e.T > a.released {
				evs = append(evs, e)
			}
		}
	}
	*u = last
	u.Events = nil
	r.Events = append(r.Events[:0], evs...)
	r.Detections = r.Detections[:0]
	if n := len(a.buffer); n > 0 {
		f := a.buffer[n-1]
		r.Detections = append(r.Detections, f.Detections...)
		for i := range r.Detections {
			r.Detections[i].MM = board.FromLocal(board.Side(k), r.Detections[i].MM)
		}
	}
}

// turnFrame turns a frame's board coordinates by k quarter turns (side S
// becomes S+k, as calibrate.Calibration.Rotate renames them).
func turnFrame(f *vision.Frame, k int) {
	if k == 0 {
		return
	}
	s := board.Side(k)
	for i := range f.Detections {
		f.Detections[i].MM = board.FromLocal(s, f.Detections[i].MM)
	}
	if f.Occlusion != nil {
		f.Occlusion = turnedOcclusion{f.Occlusion, s}
	}
}

// turnedOcclusion answers for board coordinates turned by s.
type turnedOcclusion struct {
	o vision.Occlusion
	s board.Side
}

func (t turnedOcclusion) Hidden(c board.Vec, r float64) float64 {
	return t.o.Hidden(board.ToLocal(t.s, c), r)
}

// ReachMM passes on the mask's reach (sight.OcclusionReach), 0 when the
// occlusion does not say.
func (t turnedOcclusion) ReachMM() float64 {
	if r, ok := t.o.(sight.OcclusionReach); ok {
		return r.ReachMM()
	}
	return 0
}

// turned returns cal with the board frame turned by k quarter turns.
func turned(cal *calibrate.Calibration, k int) *calibrate.Calibration {
	if cal == nil || k == 0 {
		return cal
	}
	c := *cal
	if err := c.Rotate(k); err != nil {
		return cal
	}
	return &c
}

// Finish ends the video: the events still held are released (a stroke
// still in progress gets no stroke_end).
func (a *Analyzer) Finish() []events.Event {
	return append([]events.Event(nil), a.tk.Flush()...)
}

// SetCalibration puts cal in force from the next frame processed on, as
// if it had been found in that frame: a calibrated event (recalibrated
// when one was in force). It is for calibrations known from outside the
// frames, such as the true calibration of `boardcam eval --calibration
// truth` (a diagnostic). cal must be for the frames' size; its own lens
// model applies.
func (a *Analyzer) SetCalibration(cal *calibrate.Calibration) error {
	if cal == nil {
		return fmt.Errorf("pipeline: set calibration: nil")
	}
	if err := cal.Validate(); err != nil {
		return fmt.Errorf("pipeline: set calibration: %w", err)
	}
	if s := cal.Board.Surface; s > 0 && math.Abs(s-a.g.Surface) > 0.5 {
		return fmt.Errorf("pipeline: set calibration: it is for a %.0f mm playing surface, the board is %.0f mm", s, a.g.Surface)
	}
	a.pending = cal
	return nil
}

// calibrate finds the board while it is not known, then checks it every
// CheckEvery seconds with calibrate.Monitor; events go to the tracker's
// queue so that they leave in time order with the others.
func (a *Analyzer) calibrate(frame gocv.Mat, index int, t float64) error {
	r := &a.res
	if cal := a.pending; cal != nil {
		a.pending = nil
		if cal.ImageSize != a.size {
			return fmt.Errorf("pipeline: the calibration is for %dx%d frames, the video is %dx%d", cal.ImageSize.W, cal.ImageSize.H, a.size.W, a.size.H)
		}
		typ := events.Calibrated
		if a.cal != nil {
			typ = events.Recalibrated
		}
		return a.use(cal, nil, index, t, typ)
	}
	if a.cal == nil && a.cfg.Calibration != nil {
		cal := *a.cfg.Calibration
		if cal.ImageSize != a.size {
			return fmt.Errorf("pipeline: the calibration is for %dx%d frames, the video is %dx%d", cal.ImageSize.W, cal.ImageSize.H, a.size.W, a.size.H)
		}
		return a.use(&cal, nil, index, t, events.Calibrated)
	}
	if a.cal == nil {
		if a.tried && t-a.lastTry < a.cfg.DetectEvery {
			r.Note = "looking for the board"
			return nil
		}
		a.tried, a.lastTry = true, t
		r.Work.Searched = true
		img, err := a.undistorted(frame, a.cfg.Lens)
		if err != nil {
			return err
		}
		// The whole frame's remap tables (5.5 MB at 720p) are not kept
		// while the board is looked for: the frames wait in the capture's
		// queue meanwhile, and this is the daemon's busiest moment.
		a.dropUndistorter()
		cal, err := detect(img, calibrate.Options{Geometry: a.g, Orientation: a.cfg.Orientation, Now: func() time.Time { return clock(t) }}, t)
		if err != nil {
			r.Note = "board not found: " + err.Error()
			return nil
		}
		cal.Lens = a.cfg.Lens
		return a.use(cal, &img, index, t, events.Calibrated)
	}
	// A move seen and not yet confirmed is checked again at the next
	// frame (the monitor waits for the picture to come to rest).
	if a.mon == nil || a.cfg.CheckEvery < 0 || (a.checked && t-a.lastChk < a.cfg.CheckEvery-1e-9 && !a.mon.Pending()) {
		return nil
	}
	a.checked, a.lastChk = true, t
	r.Work.Checked = true
	res, cal, err := a.mon.ObserveRaw(frame, clock(t))
	switch {
	case err != nil:
		// The camera moved and the board could not be found again yet:
		// keep looking at the next checks; meanwhile nothing is analysed.
		a.suspect = true
		r.Note = err.Error()
	case cal != nil:
		cal.Lens = a.cal.Lens
		// The new monitor's reference: the frame undistorted again, as
		// the monitor did for the recalibration.
		img, err := a.undistorted(frame, a.cal.Lens)
		if err != nil {
			return err
		}
		if err := a.use(cal, &img, index, t, events.Recalibrated); err != nil {
			return err
		}
		r.Note = fmt.Sprintf("the camera moved %.1f px: recalibrated", res.ShiftPx)
	case res != nil && (res.Status == calibrate.CheckMoved || res.Status == calibrate.CheckLost):
		a.suspect = true
		r.Note = fmt.Sprintf("the board seems to have moved %.1f px: checking again", res.ShiftPx)
	case res != nil && res.Status == calibrate.CheckOK:
		a.suspect = false
	}
	return nil
}

// use puts cal in force and emits typ. ref is the undistorted frame cal
// was made from (nil: none, a calibration file), the reference of the
// moved-camera check.
func (a *Analyzer) use(cal *calibrate.Calibration, ref *gocv.Mat, index int, t float64, typ events.Type) error {
	if a.det == nil {
		det, err := a.newDet(cal, vision.Config{Geometry: a.g, Set: a.cfg.Set})
		if err != nil {
			return fmt.Errorf("pipeline: %w", err)
		}
		a.det = det
	} else if err := a.det.SetCalibration(cal); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	img := ref
	if img == nil {
		empty := gocv.NewMat()
		defer empty.Close()
		img = &empty
	}
	mon, err := calibrate.NewMonitor(cal, *img, calibrate.Monitor{
		Interval: time.Nanosecond, // the analyzer decides when to check
		Options:  calibrate.Options{Geometry: a.g, Orientation: cal.Orientation},
	})
	if err != nil {
		// A calibration with no edge in view to watch (all inferred) is
		// used without the check.
		mon = nil
	}
	if a.mon != nil {
		a.mon.Close()
	}
	a.mon = mon
	// The undistorted frame is no longer needed; the checks' tables are
	// made with the whole frame's (for the moment) after it is released.
	a.dropUndistorted()
	if mon != nil {
		// An error shows at the first check.
		_ = mon.PrepareRaw(nil)
	}
	if typ == events.Recalibrated {
		a.tk.Recalibrated()
	}
	a.cal, a.suspect = cal, false
	a.rep = turned(cal, a.turn)
	// The set the referee judges with: the calibration's (learned) with
	// the configuration's over it.
	set := a.rep.Set.Merge(a.cfg.Set)
	a.tk.Emit(events.Event{Type: typ, Frame: index, T: t, CornersPx: a.rep.CornersPx(), Markings: a.rep.Markings, Set: set})
	return nil
}

// dropUndistorter releases the whole frame's remap tables.
func (a *Analyzer) dropUndistorter() {
	if a.und != nil {
		a.und.Close()
		a.und = nil
	}
}

// undistorted returns the frame without lens distortion (the frame itself
// when there is no lens model), in a Mat the analyzer keeps.
func (a *Analyzer) undistorted(frame gocv.Mat, lens *calibrate.Lens) (gocv.Mat, error) {
	if lens == nil {
		return frame, nil
	}
	if a.und == nil {
		u, err := calibrate.NewUndistorter(lens)
		if err != nil {
			return frame, fmt.Errorf("pipeline: %w", err)
		}
		a.und = u
	}
	if !a.hasMat {
		a.undist = gocv.NewMat()
		a.hasMat = true
	}
	if err := a.und.Apply(frame, &a.undist); err != nil {
		return frame, fmt.Errorf("pipeline: %w", err)
	}
	return a.undist, nil
}

// pieces converts the tracker's pieces, projecting them into the image.
func (a *Analyzer) pieces(ps []tracker.Piece) {
	r := &a.res
	r.Pieces = r.Pieces[:0]
	for _, p := range ps {
		q := pipeline.Piece{ID: p.ID, Kind: p.Kind, State: p.State, MM: p.MM, Seen: p.Seen, Pocket: p.Pocket}
		if a.rep != nil {
			q.PX = a.toImage(p.MM)
		}
		r.Pieces = append(r.Pieces, q)
	}
}

// toImage maps board mm to the original (distorted) image.
func (a *Analyzer) toImage(v board.Vec) [2]float64 {
	p := a.rep.ToImage(v)
	if a.rep.Lens != nil {
		p = a.rep.Lens.Distort(p)
	}
	return [2]float64{p.X, p.Y}
}
