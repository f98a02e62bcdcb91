package vision

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
)

// Config tunes a [Detector]. The zero value is usable: every field left
// zero takes the default documented on it.
type Config struct {
	// Geometry is the board (nil: board.ICF()).
	Geometry *board.Geometry
	// PixelsPerMM is the resolution of the rectified board image the
	// detector works on (0: the camera's own scale on the board, kept
	// between 0.4 and 0.62 px/mm; a 720p camera over the whole board gives
	// about 0.76, so 0.62 is used).
	PixelsPerMM float64
	// ManHeight is the height of a carromman's top face above the surface
	// in mm (0: 8), StrikerHeight the striker's (0: ManHeight + 1). They
	// correct the parallax of the raised faces: a man near the edge of the
	// board under a camera at 1.2 m appears about 2 mm farther out than
	// it lies.
	ManHeight, StrikerHeight float64
	// FocalPx is the camera's focal length in pixels, used for the
	// parallax when the calibration has no lens model (0: estimated from
	// the board's perspective when the camera is tilted enough, else a
	// 70° horizontal field of view).
	FocalPx float64
	// MinSupport is the share of a disc's outline that must be seen, with
	// edges where the outline should be, for a detection (0: 0.8).
	// Discs partly under a hand need this share of their visible outline.
	MinSupport float64
	// Classes is a class model learned before (nil: learn it from the
	// first opening arrangement seen; until then classes come from
	// priors). See [Detector.Classes] and [ClassModel].
	Classes *ClassModel
	// NoAutoLearn stops the detector from learning the class model from
	// the opening arrangement by itself.
	NoAutoLearn bool
	// Set overrides the set of pieces (sizes and colours) that the
	// calibration learned (calibrate.Calibration.Set): the fields it
	// gives take the place of the learned ones. With neither, the
	// geometry's sizes apply and colours are learned as play goes.
	Set *board.Set
	// FullEvery sets how often the whole board is searched again even
	// where nothing changed: every 10·FullEvery frames, a few tiles per
	// frame (0: 12, about every 4 s at 30 fps). Negative: the whole board
	// every frame (no reuse of unchanged regions).
	FullEvery int
	// Margin is how far beyond the playing surface the rectified image
	// reaches, mm (0: 30): arms reaching in over the frame are seen there.
	Margin float64
}

func (c Config) withDefaults() (Config, error) {
	if c.Geometry == nil {
		c.Geometry = board.ICF()
	}
	if err := c.Geometry.Validate(); err != nil {
		return c, fmt.Errorf("board geometry: %w", err)
	}
	if c.PixelsPerMM < 0 || c.PixelsPerMM > 4 || math.IsNaN(c.PixelsPerMM) {
		return c, fmt.Errorf("pixels_per_mm %v: want 0 (auto) or up to 4", c.PixelsPerMM)
	}
	if c.ManHeight == 0 {
		c.ManHeight = 8
	}
	if c.StrikerHeight == 0 {
		c.StrikerHeight = c.ManHeight + 1
	}
	if c.ManHeight < 0 || c.ManHeight > 30 || c.StrikerHeight < 0 || c.StrikerHeight > 30 {
		return c, fmt.Errorf("piece heights %v and %v mm: want 0 to 30", c.ManHeight, c.StrikerHeight)
	}
	if c.Set != nil {
		if err := c.Set.Validate(); err != nil {
			return c, fmt.Errorf("set: %w", err)
		}
	}
	if c.FocalPx < 0 {
		return c, fmt.Errorf("focal length %v px is negative", c.FocalPx)
	}
	if c.MinSupport == 0 {
		c.MinSupport = 0.8
	}
	if c.MinSupport < 0.1 || c.MinSupport > 1 {
		return c, fmt.Errorf("min_support %v: want 0.1 to 1", c.MinSupport)
	}
	if c.FullEvery == 0 {
		c.FullEvery = 12
	}
	if c.Margin == 0 {
		c.Margin = 30
	}
	if c.Margin < 0 || c.Margin > 200 {
		return c, fmt.Errorf("margin %v mm: want 0 to 200", c.Margin)
	}
	return c, nil
}
