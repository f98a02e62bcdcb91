package daemon

import (
	"time"

	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/pipeline"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/web"
)

// Analyzer is the calibrate → vision → tracker part of the pipeline: it
// turns frames into physical events and tracked pieces. The daemon calls it
// from one goroutine, frame after frame.
type Analyzer interface {
	// Analyze processes one frame (8-bit BGR, a picture of
	// Sight.Pictures filled by the daemon's sources; the analyzer must
	// not keep it): index is the
	// frame's number in the stream (gaps where frames were dropped), pts
	// its time in the stream.
	Analyze(frame sight.Image, index int64, pts time.Duration) (Analysis, error)
	// Reset is called when the picture returns after the camera stalled
	// or was reconnected: the camera may have moved, so the analyzer makes
	// sure its calibration still holds, recalibrating (and emitting a
	// recalibrated event) when it does not.
	Reset()
	// Calibrate replaces the calibration by one from the four corners of
	// the playing surface (NW, NE, SE, SW) in the pixels of the current
	// frames (the umpire's manual calibration).
	Calibrate(cornersPx [4][2]float64) error
	Close() error
}

// Flusher is an Analyzer that holds events back (a stroke still being
// watched) and can report them when the video ends.
type Flusher interface {
	Flush() (Analysis, error)
}

// Analysis is what an Analyzer found in one frame.
type Analysis struct {
	// Events are the physical events completed by this frame.
	Events []events.Event
	// Pieces are the tracked pieces (nil: none, or unchanged).
	Pieces []web.Piece
	// Calibration is set when the calibration status changed.
	Calibration *web.Calibration
	// Unanalysed, when set, says why the frame could not be analysed for
	// pieces (the board not found yet, lost, or being found again after
	// the camera moved): the daemon counts it as a frame not analysed.
	Unanalysed string
	// Timings are the analyzer's own stages (calibrate, vision, tracker).
	Timings []StageTiming
	// Work is what the analysis did for the frame (what a modelled
	// computer charges: see SlowCPU).
	Work pipeline.Work
	// Hands are the hands and arms seen in the frame (nil: none), whose
	// outlines the evidence stills draw.
	Hands sight.HandRegions
}

// StageTiming is how long a stage took for one frame.
type StageTiming struct {
	Stage string
	D     time.Duration
}

// calibrationStatus is the web's calibration message for cal.
func calibrationStatus(cal *camera.Calibration, width, height int, index int64, msg string) *web.Calibration {
	st := web.CalibrationOK
	if cal.Quality.Method == camera.Manual {
		st = web.CalibrationManual
	}
	c := &web.Calibration{Status: st, Quality: cal.Quality.Score, CornersPx: cal.CornersPx(),
		Width: width, Height: height, Frame: index, Message: msg}
	var h [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			h[i*3+j] = cal.HInv[i][j]
		}
	}
	c.Homography = &h
	return c
}
