package board

import (
	"errors"
	"fmt"
	"math"
)

// Set describes the pieces of the set in play: their diameters and their
// colours, learned by the camera from the opening arrangement or the first
// frames at rest, or configured. Sets differ: the laws allow a range of
// strikers, and home sets have men of other sizes and colours and
// strikers up to twice a man's size. Zero diameters are not known (the
// geometry's figures apply).
type Set struct {
	// Source says where it came from: "opening", "frames", "config" or
	// "file".
	Source string `json:"source"`
	// Diameters in mm.
	ManMM     float64 `json:"man_mm,omitempty"`
	QueenMM   float64 `json:"queen_mm,omitempty"`
	StrikerMM float64 `json:"striker_mm,omitempty"`
	// Colours describe each kind in the order of [Kind] (white, black,
	// queen, striker) by the vision package's colour features: the
	// brightness relative to the board's, and red − green and green − blue
	// relative to the board's brightness.
	Colours [4]ColourStats `json:"colours"`
}

// ColourStats are the mean and spread of one kind's colour features over
// N discs (N = 0: not learned).
type ColourStats struct {
	Mean [3]float64 `json:"mean"`
	Std  [3]float64 `json:"std"`
	N    int        `json:"n"`
}

// Validate checks that the diameters are plausible for carrom pieces and
// the statistics are numbers.
func (s *Set) Validate() error {
	if s == nil {
		return errors.New("no set")
	}
	var errs []error
	for _, d := range []struct {
		name string
		v    float64
	}{{"man_mm", s.ManMM}, {"queen_mm", s.QueenMM}, {"striker_mm", s.StrikerMM}} {
		if d.v != 0 && (!(d.v >= 15) || !(d.v <= 80)) {
			errs = append(errs, fmt.Errorf("%s %v is not a carrom piece's diameter (15 to 80 mm)", d.name, d.v))
		}
	}
	for k, c := range s.Colours {
		for i := 0; i < 3; i++ {
			if math.IsNaN(c.Mean[i]) || math.IsInf(c.Mean[i], 0) || !(c.Std[i] >= 0) || math.IsInf(c.Std[i], 0) {
				errs = append(errs, fmt.Errorf("colours[%d] (%v): bad statistics", k, Kind(k)))
				break
			}
		}
		if c.N < 0 {
			errs = append(errs, fmt.Errorf("colours[%d] (%v): negative count", k, Kind(k)))
		}
	}
	return errors.Join(errs...)
}

// Merge returns s with the fields o gives (non-zero diameters, colours
// learned) taking their place: a configuration overriding what was
// learned. Either may be nil.
func (s *Set) Merge(o *Set) *Set {
	if s == nil && o == nil {
		return nil
	}
	var out Set
	if s != nil {
		out = *s
	}
	if o == nil {
		return &out
	}
	if o.ManMM > 0 {
		out.ManMM = o.ManMM
	}
	if o.QueenMM > 0 {
		out.QueenMM = o.QueenMM
	}
	if o.StrikerMM > 0 {
		out.StrikerMM = o.StrikerMM
	}
	for k, c := range o.Colours {
		if c.N > 0 {
			out.Colours[k] = c
		}
	}
	if o.Source != "" {
		out.Source = o.Source
	}
	return &out
}

// WithSet returns a copy of the geometry whose pieces have the set's
// diameters (those it knows). The copy is not validated: a home striker
// may be too large for the pockets.
func (g *Geometry) WithSet(s *Set) *Geometry {
	c := *g
	if s == nil {
		return &c
	}
	if s.ManMM > 0 {
		c.ManDiameter = s.ManMM
		if s.QueenMM <= 0 {
			c.QueenDiameter = s.ManMM
		}
	}
	if s.QueenMM > 0 {
		c.QueenDiameter = s.QueenMM
	}
	if s.StrikerMM > 0 {
		c.StrikerDiameter = s.StrikerMM
	}
	return &c
}
