package tracker

import (
	"errors"
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
)

// Config tunes a [Tracker]. The zero value of every field takes the
// default documented on it (see [DefaultConfig]); docs/tracking.md explains
// how each figure was chosen.
type Config struct {
	// Geometry is the board (nil: board.ICF()).
	Geometry *board.Geometry
	// Breaker is the side the breaker sits on. It only decides how the
	// pieces of the opening arrangement are numbered (W1 is the white of
	// the inner ring pointing at the breaker, as in the simulator); every
	// numbering is equally valid for tracking.
	Breaker board.Side

	// NoiseMM is the expected standard deviation of a detected centre,
	// per axis, for a disc in full view (default 0.8 mm). Gates and
	// thresholds scale with it.
	NoiseMM float64
	// Deceleration is the friction deceleration of a sliding disc, mm/s²
	// (default 1177: μ = 0.12, the simulator's board; real powdered
	// boards lie between about 700 and 2000).
	Deceleration float64
	// MaxSpeed is the fastest a disc is expected to move, mm/s (default
	// 7000: a hard break). It bounds how far a disc that was not seen can
	// have gone.
	MaxSpeed float64

	// MoveMM is how far (mm) a disc at rest must be seen from its resting
	// place, in two frames running, before it counts as moving (default
	// the larger of 3.5 mm and 4.5 × NoiseMM). One detection three times
	// as far is enough.
	MoveMM float64
	// RestMM and RestTime: a moving disc is at rest again when all its
	// detections of the last RestTime seconds (at least 3 frames) lie
	// within RestMM of their mean and the first and last of them within
	// 1.5 × RestMM (defaults: 1.5 mm + 2.5 × NoiseMM = 3.5 mm, and
	// 0.1 s; both widened for detections under a hand). That is a speed
	// below about 1.5·RestMM/RestTime ≈ 50 mm/s; a disc that slow on a
	// powdered board stops within 0.05 s and 1.1 mm.
	RestMM   float64
	RestTime float64
	// StrokeEndTime: a stroke ends when every disc on the board has been
	// found at rest at least this long ago (default 0.15 s: 5 frames at
	// 30 fps, 9 at 60) and every disc lost from sight has had time to
	// reappear; the stroke_end event carries the moment the last disc
	// stopped or left the board.
	StrokeEndTime float64
	// StrikeSpeed is the least speed (mm/s) of a striker leaving the base
	// line on its own for a stroke to start (default 150). A striker
	// carried or pushed by a hand is hidden by it and never starts one.
	StrikeSpeed float64
	// MovedMM is how far (mm) a disc at rest must end up from where it lay
	// for a `moved` event outside a stroke (default 3).
	MovedMM float64
	// ConfirmTime: a new disc must be seen in this many seconds' worth of
	// frames in a row (at least 3 frames) before it is tracked (default
	// 0.1 s); a disc that vanishes must stay unseen this long (at least 2
	// frames) before it counts as pocketed (default 0.05 s).
	ConfirmTime   float64
	PocketTime    float64
	OverboardTime float64 // likewise for overboard (default 0.12 s, at least 3 frames)
	// MissingTime: a disc in plain view that is not detected for this long
	// is marked missing (default 1 s); it keeps its identity and is taken
	// up again when it is seen near where it was.
	MissingTime float64
	// OccludedFraction is the part of a disc a hand must cover for an
	// undetected disc to count as occluded rather than missed (default 0.3).
	OccludedFraction float64
	// InitTime is how long after the first calibrated frame new discs are
	// taken as the initial position rather than placed (default 1 s).
	InitTime float64
	// ContactMM is the tolerance (mm) added to the sum of two radii when
	// deciding that two discs touched (default 6).
	ContactMM float64
	// EventDelay is how long (seconds) events are held so that they leave
	// in time order even when some are recognised later than others
	// (default 0.12 s); events are never held past the end of a stroke.
	EventDelay float64
}

// DefaultConfig returns the defaults for the ICF board.
func DefaultConfig() Config {
	c := Config{}
	c.fill()
	return c
}

// fill replaces zero fields with their defaults.
func (c *Config) fill() {
	if c.Geometry == nil {
		c.Geometry = board.ICF()
	}
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.NoiseMM, 0.8)
	def(&c.Deceleration, 0.12*9810)
	def(&c.MaxSpeed, 7000)
	def(&c.MoveMM, math.Max(3.5, 4.5*c.NoiseMM))
	def(&c.RestMM, 1.5+2.5*c.NoiseMM)
	def(&c.RestTime, 0.1)
	def(&c.StrokeEndTime, 0.15)
	def(&c.StrikeSpeed, 150)
	def(&c.MovedMM, 3)
	def(&c.ConfirmTime, 0.1)
	def(&c.PocketTime, 0.05)
	def(&c.OverboardTime, 0.12)
	def(&c.MissingTime, 1)
	def(&c.OccludedFraction, 0.3)
	def(&c.InitTime, 1)
	def(&c.ContactMM, 6)
	def(&c.EventDelay, 0.12)
}

// Validate checks the configuration after defaults are applied.
func (c Config) Validate() error {
	c.fill()
	var errs []error
	if err := c.Geometry.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("geometry: %w", err))
	}
	if c.Breaker < board.S || c.Breaker > board.W {
		errs = append(errs, fmt.Errorf("breaker: %v is not a side", c.Breaker))
	}
	pos := func(name string, v float64) {
		if !(v > 0) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Errorf("%s must be positive, got %v", name, v))
		}
	}
	pos("noise_mm", c.NoiseMM)
	pos("deceleration", c.Deceleration)
	pos("max_speed", c.MaxSpeed)
	pos("move_mm", c.MoveMM)
	pos("rest_mm", c.RestMM)
	pos("rest_time", c.RestTime)
	pos("stroke_end_time", c.StrokeEndTime)
	pos("strike_speed", c.StrikeSpeed)
	pos("moved_mm", c.MovedMM)
	pos("confirm_time", c.ConfirmTime)
	pos("pocket_time", c.PocketTime)
	pos("overboard_time", c.OverboardTime)
	pos("missing_time", c.MissingTime)
	pos("init_time", c.InitTime)
	pos("contact_mm", c.ContactMM)
	pos("event_delay", c.EventDelay)
	if !(c.OccludedFraction > 0 && c.OccludedFraction < 1) {
		errs = append(errs, fmt.Errorf("occluded_fraction must lie in (0, 1), got %v", c.OccludedFraction))
	}
	if c.RestMM >= c.MoveMM*2 {
		errs = append(errs, fmt.Errorf("rest_mm %.1f must be less than twice move_mm %.1f", c.RestMM, c.MoveMM))
	}
	return errors.Join(errs...)
}
