package referee

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

// Defaults of [Config].
const (
	// DefaultTolerance is the camera's measurement noise in mm: calls
	// closer than this to the boundary they depend on are flagged
	// low-confidence.
	DefaultTolerance = 1.0
	// DefaultTimeTolerance is how close in time (seconds) two contacts of
	// the striker must be to count as simultaneous: about one frame at
	// 60 fps.
	DefaultTimeTolerance = 0.02
	// DefaultArmFoulWindow is how long (seconds) before a stroke_start an
	// arm_over_foul_line event may arrive and still belong to that stroke.
	DefaultArmFoulWindow = 0.5
	// DefaultPlacingWindow is how long (seconds) after a due man is placed
	// another piece moved by hand counts as disturbed by the placing (ICF
	// Dues and Penalties 23) rather than touched (General Rules 34).
	DefaultPlacingWindow = 3.0
)

// Config is what a [Referee] needs to know besides the events.
type Config struct {
	// Geometry is the board (nil: the ICF board).
	Geometry *board.Geometry
	// Profile is the rule profile; it decides which fouls exist, their rule
	// references and how they are penalised. Required.
	Profile *rules.Profile
	// Tolerance is the measurement noise in mm. A call whose margin (how
	// far the disc lies on the foul side of the boundary that decides it)
	// is below Tolerance is flagged low-confidence. Zero means exact input
	// (the simulator's ground truth): no call is ever low-confidence.
	Tolerance float64
	// TimeTolerance (seconds): when another contact of the striker comes
	// this close in time to the one a call depends on ("directly", "first"),
	// the order is uncertain and the call is low-confidence. Zero: exact.
	TimeTolerance float64
	// ApplyLowConfidence writes low-confidence calls into the event like
	// any other. By default they are only offered to the umpire: the
	// player has the benefit of the doubt.
	ApplyLowConfidence bool
	// HandOverImaginaryLine allows the hand (not the arm) beyond the
	// imaginary extension of the arrows (ICF Sitting Position 7, Striking
	// 6); over the drawn arrows neither hand nor arm may go (Striking 5).
	// It only matters when the event says which part crossed and where.
	// Nil: true when the profile's hand_over_foul_line reference cites
	// Sitting Position 7, false otherwise (the document forbids the hand
	// too).
	HandOverImaginaryLine *bool
	// ArmFoulWindow (seconds) lets an arm_over_foul_line event that
	// arrives just before its stroke_start count for that stroke.
	ArmFoulWindow float64
	// PlacingWindow (seconds): a piece moved by hand this soon after a due
	// man was placed was disturbed by the placing.
	PlacingWindow float64
}

// DefaultConfig returns the configuration for a camera over an ICF board
// under profile p: 1 mm tolerance, one-frame time tolerance, low-confidence
// calls offered, not applied.
func DefaultConfig(p *rules.Profile) Config {
	return Config{
		Geometry:      board.ICF(),
		Profile:       p,
		Tolerance:     DefaultTolerance,
		TimeTolerance: DefaultTimeTolerance,
		ArmFoulWindow: DefaultArmFoulWindow,
		PlacingWindow: DefaultPlacingWindow,
	}
}

// Validate checks the configuration.
func (c Config) Validate() error {
	var errs []error
	if c.Profile == nil {
		errs = append(errs, errors.New("no rule profile"))
	}
	if c.Geometry != nil {
		if err := c.Geometry.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("board: %w", err))
		}
	}
	check := func(name string, v float64) {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Errorf("%s must be a finite number ≥ 0, got %v", name, v))
		}
	}
	check("tolerance", c.Tolerance)
	check("time tolerance", c.TimeTolerance)
	check("arm foul window", c.ArmFoulWindow)
	check("placing window", c.PlacingWindow)
	return errors.Join(errs...)
}

// handOverImaginaryLine resolves the HandOverImaginaryLine default from the
// profile's reference for the foul.
func (c Config) handOverImaginaryLine() bool {
	if c.HandOverImaginaryLine != nil {
		return *c.HandOverImaginaryLine
	}
	r, ok := c.Profile.Foul(rules.FoulHandOverFoulLine)
	return ok && strings.Contains(r.Ref, "Sitting Position 7")
}
