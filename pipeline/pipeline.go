// Package pipeline is the contract of the analysis of a camera's frames,
// without OpenCV: calibrate (find the board, watch that it stays put) →
// vision (discs and hands in each frame) → tracker (identities, states,
// strokes and physical events). An [Analyzer] takes frames one at a time
// and says, for each, the events released, the twenty tracked pieces and
// what each stage cost ([Result]).
//
// The implementation is package vision/analysis (OpenCV); the programs
// that need it (cmd/boardcam) hand its [Factory] to the packages that run
// an analysis without linking OpenCV themselves: the daemon, and `boardcam
// eval` through pipeline/evalpipe. Frames travel as sight.Image handles.
package pipeline

import (
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker"
)

// Analyzer runs calibrate → vision → tracker over the frames of one
// camera. It is not safe for concurrent use.
type Analyzer interface {
	// Process analyses one frame (8-bit BGR; not kept): index is its
	// number in the video, t its time in seconds (both increasing).
	// Errors are for frames that cannot be analysed at all (empty, or a
	// different size); a board not found yet is not an error
	// (Result.Note says so). The result is reused by the next call.
	Process(img sight.Image, index int, t float64) (*Result, error)
	// SetCalibration puts a calibration in force from the next frame
	// (the true camera moved: eval's --calibration truth diagnostic).
	SetCalibration(cal *camera.Calibration) error
	// Calibration is the calibration in force (nil before the board is
	// found), turned as the board's orientation requires.
	Calibration() *camera.Calibration
	// Finish releases the events the tracker still holds at the end of
	// a video.
	Finish() []events.Event
	// Close releases the analyzer's memory.
	Close()
}

// Factory makes an analyzer.
type Factory func(cfg Config) (Analyzer, error)

// Config configures an [Analyzer]. Zero fields take the defaults
// documented on them.
type Config struct {
	// Geometry is the board (nil: ICF).
	Geometry *board.Geometry
	// Calibration, when set, is used from the first frame (a calibration
	// file); otherwise the board is found in the frames by itself.
	Calibration *camera.Calibration
	// Lens is the camera's lens model for a calibration found in the
	// frames (a given Calibration carries its own).
	Lens *camera.Lens
	// Orientation of a calibration found in the frames (zero: side S at
	// the bottom of the picture, breaker at S).
	Orientation camera.Orientation
	// Turn, when set, is the seat of the player who strikes first (the
	// match state knows it): the board's orientation in the picture is
	// then taken from the first stroke instead of Orientation.SouthAt —
	// the board frame is turned by quarter turns so that the first
	// stroke is played from Turn. Until that stroke the analyzer keeps
	// what vision reported; when it is seen, the frames since the board
	// was found are tracked again in the turned frame (see docs/tracking.md).
	Turn *board.Side
	// DetectEvery is how long (seconds of video) apart finding the board
	// is tried while it has not been found (default 0.5 s; finding takes
	// up to a second of computing at 720p).
	DetectEvery float64
	// CheckEvery is how often (seconds of video) the calibration is
	// checked against the frame (default 0.25 s; negative: never). Once a
	// check says the camera moved, every frame is checked until the move
	// is confirmed: two checks in a row that say so, the picture at rest
	// (see calibrate.Monitor), recalibrate; from the first, frames are
	// not analysed (the pieces would seem to jump).
	CheckEvery float64
	// Detector names the disc detector in vision's registry ("": the
	// default, vision.DefaultDetector).
	Detector string
	// Set is the configuration's set of pieces (nil: none given), over
	// the one the calibration learned.
	Set *board.Set
	// Tracker configures the tracker (its Geometry is set to Geometry).
	Tracker tracker.Config
	// Now is the clock used only to time the stages (nil: time.Now). The
	// events depend on the frames' times alone.
	Now func() time.Time
}

// Timing is what the stages of one frame cost.
type Timing struct {
	// Calibrate: finding the board, or checking that it has not moved
	// (with undistortion when a lens model is used).
	Calibrate time.Duration
	// Vision: detection of discs and hands.
	Vision time.Duration
	// Tracker: identities, states and events.
	Tracker time.Duration
	// Total is the whole frame.
	Total time.Duration
}

// Piece is one tracked disc, as published after a frame.
type Piece struct {
	ID    string        `json:"id"`
	Kind  board.Kind    `json:"piece"`
	State tracker.State `json:"state"`
	// MM is the centre on the board (see tracker.Piece.MM).
	MM board.Vec `json:"mm"`
	// PX is MM in the original image (through the calibration and lens;
	// zero before the board is found).
	PX [2]float64 `json:"px"`
	// Seen: detected in this frame.
	Seen   bool          `json:"seen"`
	Pocket *board.Pocket `json:"pocket,omitempty"`
}

// Result is what the analyzer says about one frame. It is reused by the
// next call to Process.
type Result struct {
	Index int
	T     float64
	// Calibrated is true when the frame was analysed against a
	// calibration (false before the board is found and while a moved
	// camera is being recalibrated).
	Calibrated bool
	// Calibration is the calibration in force (nil before the board is
	// found).
	Calibration *camera.Calibration
	// Detections are vision's raw detections of this frame.
	Detections []sight.Detection
	// Hands is the detector's occlusion of this frame as it found it
	// (nil: no hand or arm seen). Its sight.HandRegions are the hands'
	// outlines in the camera frame's pixels, which no turn of the board
	// frame changes (the evidence stills draw them).
	Hands sight.Occlusion
	// Pieces are the twenty identities (W1…W9, B1…B9, Q, S).
	Pieces []Piece
	// Events are the physical events released with this frame, in time
	// order; each carries the frame it happened in (often a few frames
	// earlier: see tracker.Update). calibrated and recalibrated are
	// among them.
	Events []events.Event
	// Note says why the frame was not analysed, or what went wrong with
	// the calibration ("" when all is well). It is not an error: the
	// analyzer goes on with the next frame.
	Note   string
	Timing Timing
	// Work is what the analysis did for the frame: unlike Timing, the
	// same on every computer and every run (the daemon's modelled slower
	// computer charges it; see daemon.SlowCPU).
	Work Work
}

// Work says which parts of the analysis ran for one frame.
type Work struct {
	// Searched: the board was looked for in the whole frame (while it is
	// not found, every DetectEvery).
	Searched bool
	// Checked: the calibration was checked against the frame (every
	// CheckEvery; every frame while a move is being confirmed).
	Checked bool
	// Detected: discs and hands were detected (the board known and not
	// suspected to have moved).
	Detected bool
	// Retracked is how many kept frames the tracker went through again
	// (the board frame turned by the first stroke).
	Retracked int
}
