// Package evalpipe registers the analysis pipeline (package pipeline) with
// the evaluation harness as eval.DefaultPipeline ("vision"), so that
// `boardcam eval` measures it and the daemon runs it. Import it for its
// side effect:
//
//	import _ "github.com/boardcam/boardcam/pipeline/evalpipe"
package evalpipe

import (
	"fmt"

	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/eval"
	"github.com/boardcam/boardcam/pipeline"
	"github.com/boardcam/boardcam/tracker"
)

func init() {
	eval.Register(eval.DefaultPipeline, func() (eval.Pipeline, error) { return &Pipeline{}, nil })
}

// Pipeline adapts a pipeline.Analyzer to eval.Pipeline: one analyzer per
// clip, told the board and whose turn it is from the clip's configuration.
type Pipeline struct {
	// Config is the base configuration of each clip's analyzer (its
	// Geometry is replaced by the clip's).
	Config pipeline.Config

	a *pipeline.Analyzer
}

// Name implements eval.Pipeline.
func (p *Pipeline) Name() string { return eval.DefaultPipeline }

// Begin implements eval.Pipeline.
func (p *Pipeline) Begin(c eval.Clip) error {
	p.close()
	cfg := p.Config
	cfg.Geometry = c.Geometry
	// The seating a club configures: who breaks, and whose turn it is
	// (the match state). The camera's orientation is taken from the
	// first stroke, which is played from that seat.
	turn := c.Referee.Break
	if c.Referee.Context != nil {
		turn = c.Referee.Context.Turn
	}
	if cfg.Turn == nil && cfg.Calibration == nil {
		cfg.Turn = &turn
	}
	if cfg.Orientation == (calibrate.Orientation{}) {
		cfg.Orientation = calibrate.Orientation{SouthAt: calibrate.Bottom, Breaker: c.Referee.Break, BreakerSource: "config"}
	}
	a, err := pipeline.New(cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Name, err)
	}
	p.a = a
	return nil
}

// Frame implements eval.Pipeline.
func (p *Pipeline) Frame(f eval.Frame) (eval.Output, error) {
	if p.a == nil {
		return eval.Output{}, fmt.Errorf("frame %d before Begin", f.Index)
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

// output converts one frame's result: the corners when calibrated, the
// pieces on the board (those not detected in this frame — hidden, or
// missed — marked Occluded: kept by the tracker, not detections), the
// events.
func output(r *pipeline.Result) eval.Output {
	var out eval.Output
	if r.Calibration != nil {
		var c [4][2]float64
		copy(c[:], r.Calibration.CornersPx())
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
