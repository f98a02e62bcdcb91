// Package evalpipe adapts the analysis (package pipeline's contract) to
// the evaluation harness, so that `boardcam eval` measures what the daemon
// runs. It does not link OpenCV: the program that has the analysis
// (cmd/boardcam, with vision/analysis.Factory) registers it:
//
//	evalpipe.Register(analysis.Factory) // as eval.DefaultPipeline ("vision")
package evalpipe

import (
	"fmt"

	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/eval"
	"github.com/boardcam/boardcam/pipeline"
	"github.com/boardcam/boardcam/tracker"
)

// Register registers the analyses newAnalyzer makes with eval as
// eval.DefaultPipeline. Call it once, at start-up.
func Register(newAnalyzer pipeline.Factory) {
	eval.Register(eval.DefaultPipeline, func() (eval.Pipeline, error) { return &Pipeline{New: newAnalyzer}, nil })
}

// Pipeline adapts a pipeline.Analyzer to eval.Pipeline: one analyzer per
// clip, told the board and whose turn it is from the clip's configuration.
type Pipeline struct {
	// Config is the base configuration of each clip's analyzer (its
	// Geometry is replaced by the clip's).
	Config pipeline.Config
	// New makes each clip's analyzer.
	New pipeline.Factory

	a pipeline.Analyzer
	// cal is the true calibration in force (eval's --calibration truth
	// diagnostic), nil otherwise.
	cal *camera.Calibration
}

// Name implements eval.Pipeline.
func (p *Pipeline) Name() string { return eval.DefaultPipeline }

// Begin implements eval.Pipeline.
func (p *Pipeline) Begin(c eval.Clip) error {
	p.close()
	cfg, err := Configure(p.Config, c)
	if err != nil {
		return err
	}
	p.cal = nil
	if c.Calibration == eval.CalibrationTruth {
		p.cal = c.TrueCalibration
	}
	if p.New == nil {
		return fmt.Errorf("%s: evalpipe.Pipeline without an analysis (New)", c.Name)
	}
	a, err := p.New(cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Name, err)
	}
	p.a = a
	return nil
}

// Configure is the analyzer's configuration for a clip, base completed
// with what a club configures: the clip's board and lens file, the
// installed orientation (or, without one, the seat to strike first, from
// which the orientation is taken: corpus.RefereeSetup.FirstTurn) and the
// breaker's side; with eval's --calibration truth diagnostic, the true
// calibration and no check of the camera. `boardcam analyze --truth`
// configures its analyzer with it too.
func Configure(base pipeline.Config, c eval.Clip) (pipeline.Config, error) {
	cfg := base
	cfg.Geometry = c.Geometry
	if cfg.Lens == nil {
		cfg.Lens = c.Lens // the club's lens.json
	}
	if c.Calibration == eval.CalibrationTruth {
		// The diagnostic: the true calibration of every frame, given
		// by the harness; the camera's moves come with it.
		if c.TrueCalibration == nil {
			return cfg, fmt.Errorf("%s: --calibration truth without a true calibration", c.Name)
		}
		cfg.Calibration, cfg.CheckEvery = c.TrueCalibration, -1
	}
	// The seating a club configures: who breaks, and whose turn it is
	// (the match state). Where the installation says which image side
	// side S is on, that is the orientation; otherwise it is taken from
	// the first stroke, which is played from that seat.
	turn, err := c.Referee.FirstTurn()
	if err != nil {
		return cfg, fmt.Errorf("%s: %w", c.Name, err)
	}
	if cfg.Turn == nil && cfg.Calibration == nil && c.SouthAt == "" {
		cfg.Turn = &turn
	}
	if cfg.Orientation == (camera.Orientation{}) {
		south := c.SouthAt
		if south == "" {
			south = camera.Bottom
		}
		cfg.Orientation = camera.Orientation{SouthAt: south, Breaker: c.Referee.Break, BreakerSource: "config"}
	}
	return cfg, nil
}

// Frame implements eval.Pipeline.
func (p *Pipeline) Frame(f eval.Frame) (eval.Output, error) {
	if p.a == nil {
		return eval.Output{}, fmt.Errorf("frame %d before Begin", f.Index)
	}
	if f.Calibration != nil && f.Calibration != p.cal {
		// The true camera moved (diagnostic --calibration truth).
		if err := p.a.SetCalibration(f.Calibration); err != nil {
			return eval.Output{}, err
		}
		p.cal = f.Calibration
	}
	r, err := p.a.Process(f.Image, f.Index, f.T)
	if err != nil {
		return eval.Output{}, err
	}
	return output(r), nil
}

// End implements eval.Pipeline.
func (p *Pipeline) End() (eval.Output, error) {
	if p.a == nil {
		return eval.Output{}, nil
	}
	out := eval.Output{Events: p.a.Finish()}
	p.close()
	return out, nil
}

func (p *Pipeline) close() {
	if p.a != nil {
		p.a.Close()
		p.a = nil
	}
}

// output converts one frame's result: the corners when calibrated (in the
// recorded image, through the lens model when there is one), the
// pieces on the board (those not detected in this frame — hidden, or
// missed — marked Occluded: kept by the tracker, not detections), the
// events.
func output(r *pipeline.Result) eval.Output {
	var out eval.Output
	if cal := r.Calibration; cal != nil {
		// Corners in the recorded (distorted) image, as the truth has
		// them: a calibration with a lens model is in undistorted pixels.
		var c [4][2]float64
		for i, q := range cal.Corners {
			if cal.Lens != nil {
				q = cal.Lens.Distort(q)
			}
			c[i] = [2]float64{q.X, q.Y}
		}
		out.Corners = &c
	}
	for _, q := range r.Pieces {
		if !q.State.OnBoard() {
			continue
		}
		out.Pieces = append(out.Pieces, eval.Piece{Kind: q.Kind, MM: q.MM, PX: q.PX, ID: q.ID,
			Occluded: q.State == tracker.Occluded || !q.Seen})
	}
	out.Events = append(out.Events, r.Events...)
	return out
}
