package board

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"gopkg.in/yaml.v3"
)

// Geometry describes one carrom board. All lengths are millimetres, masses
// grams. The zero value is not useful: start from [ICF] or [Load].
type Geometry struct {
	Name string `yaml:"name"`

	// Surface is the side of the square playing surface (740, some 720).
	Surface float64 `yaml:"surface"`
	// FrameWidth is the width of the wooden frame around the surface.
	FrameWidth float64 `yaml:"frame_width"`

	// PocketDiameter is the diameter of the four corner holes (44.5 ± 1.5).
	PocketDiameter float64 `yaml:"pocket_diameter"`
	// PocketInset is the distance from each of the two adjacent edges of the
	// surface to a pocket's centre. Zero means the pocket touches both edges
	// (inset = radius).
	PocketInset float64 `yaml:"pocket_inset,omitempty"`

	// BaseLineOffset is the distance from the frame to the outer edge of the
	// rear (thick) base line: 101.5.
	BaseLineOffset float64 `yaml:"base_line_offset"`
	// RearLineThickness is the thickness of the rear base line (5.0 to 6.5).
	RearLineThickness float64 `yaml:"rear_line_thickness"`
	// FrontLineThickness is the thickness of the front (thin) base line.
	FrontLineThickness float64 `yaml:"front_line_thickness"`
	// BaseLineGap is the clear gap between the two base lines (31.8).
	BaseLineGap float64 `yaml:"base_line_gap"`
	// BaseCircleDiameter is the diameter of the base circles (31.8); they
	// fill the gap between the lines at both ends.
	BaseCircleDiameter float64 `yaml:"base_circle_diameter"`
	// BaseCircleCoreDiameter is the red core of a base circle (25.4); zero
	// for boards without red cores.
	BaseCircleCoreDiameter float64 `yaml:"base_circle_core_diameter"`
	// BaseCircleSpread is the distance from a side's centre line to the
	// centres of its base circles. Zero means the ICF construction: the
	// circles touch the adjacent sides' front lines, extended.
	BaseCircleSpread float64 `yaml:"base_circle_spread,omitempty"`

	// ArrowLength is the length of each diagonal arrow (≤ 267); zero for a
	// board without arrows.
	ArrowLength float64 `yaml:"arrow_length"`
	// ArrowThickness is the thickness of the arrows (≤ 1.5).
	ArrowThickness float64 `yaml:"arrow_thickness"`
	// ArrowPocketClearance is the clear distance from an arrow's tip to the
	// edge of its pocket (50).
	ArrowPocketClearance float64 `yaml:"arrow_pocket_clearance"`
	// ArrowArcDiameter is the decorative arch drawn at the start of an
	// arrow (65.5); zero for none.
	ArrowArcDiameter float64 `yaml:"arrow_arc_diameter"`

	// CentreCircleDiameter is the red centre circle (31.8).
	CentreCircleDiameter float64 `yaml:"centre_circle_diameter"`
	// OuterCircleDiameter is the outer ("main") circle (170).
	OuterCircleDiameter float64 `yaml:"outer_circle_diameter"`

	// ManDiameter is the diameter of a carromman (30.2 to 31.8).
	ManDiameter float64 `yaml:"man_diameter"`
	// QueenDiameter is the diameter of the queen.
	QueenDiameter float64 `yaml:"queen_diameter"`
	// StrikerDiameter is the diameter of the striker (≤ 41.5).
	StrikerDiameter float64 `yaml:"striker_diameter"`
	// ManMass and StrikerMass are in grams.
	ManMass     float64 `yaml:"man_mass"`
	StrikerMass float64 `yaml:"striker_mass"`

	// Measured are this board's markings as calibration measured them
	// (nil: the figures above). Not part of the YAML description: they
	// come with the calibration ([Geometry.WithMarkings]).
	Measured *Markings `yaml:"-"`
}

// ICF returns the tournament board of the Laws of Carrom, with the printed
// 5.18 cm figures corrected to 3.18 cm (see the package documentation).
func ICF() *Geometry {
	return &Geometry{
		Name:                   "ICF tournament board",
		Surface:                740,
		FrameWidth:             76,
		PocketDiameter:         44.5,
		BaseLineOffset:         101.5,
		RearLineThickness:      6,
		FrontLineThickness:     1,
		BaseLineGap:            31.8,
		BaseCircleDiameter:     31.8,
		BaseCircleCoreDiameter: 25.4,
		ArrowLength:            267,
		ArrowThickness:         1.5,
		ArrowPocketClearance:   50,
		ArrowArcDiameter:       65.5,
		CentreCircleDiameter:   31.8,
		OuterCircleDiameter:    170,
		ManDiameter:            31.8,
		QueenDiameter:          31.8,
		StrikerDiameter:        41.5,
		ManMass:                5.4,
		StrikerMass:            15,
	}
}

// Load reads a board description from a YAML file. Fields the file leaves
// out keep their ICF values, so a club only writes what differs.
func Load(path string) (*Geometry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	g, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("board: %s: %w", path, err)
	}
	return g, nil
}

// Parse reads a board description in YAML over the ICF defaults and
// validates it.
func Parse(b []byte) (*Geometry, error) {
	g := ICF()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(g); err != nil && !errors.Is(err, io.EOF) { // an empty file is the ICF board
		return nil, err
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// Marshal writes the geometry as YAML, the format [Parse] reads.
func (g *Geometry) Marshal() ([]byte, error) { return yaml.Marshal(g) }

// Validate checks that the figures describe a board on which the rules can
// be played: positive sizes, lines inside the surface, a striker that can
// touch both base lines, pieces that fit the pockets.
func (g *Geometry) Validate() error {
	var errs []error
	pos := func(name string, v float64) {
		if !(v > 0) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Errorf("%s must be positive, got %v", name, v))
		}
	}
	nonneg := func(name string, v float64) {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Errorf("%s must not be negative, got %v", name, v))
		}
	}
	pos("surface", g.Surface)
	nonneg("frame_width", g.FrameWidth)
	pos("pocket_diameter", g.PocketDiameter)
	nonneg("pocket_inset", g.PocketInset)
	pos("base_line_offset", g.BaseLineOffset)
	pos("rear_line_thickness", g.RearLineThickness)
	pos("front_line_thickness", g.FrontLineThickness)
	pos("base_line_gap", g.BaseLineGap)
	pos("base_circle_diameter", g.BaseCircleDiameter)
	nonneg("base_circle_core_diameter", g.BaseCircleCoreDiameter)
	nonneg("base_circle_spread", g.BaseCircleSpread)
	nonneg("arrow_length", g.ArrowLength)
	nonneg("arrow_thickness", g.ArrowThickness)
	nonneg("arrow_pocket_clearance", g.ArrowPocketClearance)
	nonneg("arrow_arc_diameter", g.ArrowArcDiameter)
	pos("centre_circle_diameter", g.CentreCircleDiameter)
	pos("outer_circle_diameter", g.OuterCircleDiameter)
	pos("man_diameter", g.ManDiameter)
	pos("queen_diameter", g.QueenDiameter)
	pos("striker_diameter", g.StrikerDiameter)
	pos("man_mass", g.ManMass)
	pos("striker_mass", g.StrikerMass)
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if g.BaseCircleCoreDiameter > g.BaseCircleDiameter {
		errs = append(errs, fmt.Errorf("base_circle_core_diameter %v exceeds base_circle_diameter %v", g.BaseCircleCoreDiameter, g.BaseCircleDiameter))
	}
	if g.FrontInner() <= g.OuterCircleDiameter/2 {
		errs = append(errs, fmt.Errorf("base lines (front line %.1f from the centre) must lie outside the outer circle (radius %.1f)", g.FrontInner(), g.OuterCircleDiameter/2))
	}
	if g.StrikerDiameter <= g.BaseLineGap {
		errs = append(errs, fmt.Errorf("a striker of %.1f cannot touch both base lines %.1f apart", g.StrikerDiameter, g.BaseLineGap))
	}
	// The men must fit the pockets; a home set's striker may not (it is
	// then never pocketed).
	if g.PocketDiameter <= g.ManDiameter {
		errs = append(errs, fmt.Errorf("pocket_diameter %.1f must exceed the carromman's diameter (%.1f)", g.PocketDiameter, g.ManDiameter))
	}
	if g.pocketInset() < g.PocketDiameter/2 || g.pocketInset() > g.Surface/4 {
		errs = append(errs, fmt.Errorf("pocket_inset %.1f must lie between the pocket radius and a quarter of the surface", g.pocketInset()))
	}
	if s := g.BaseCircleX(); s <= 0 || s > g.Half() {
		errs = append(errs, fmt.Errorf("base circles at %.1f from the centre line do not fit the board", s))
	}
	if g.ArrowLength > 0 && g.arrowTipDist()-g.ArrowLength <= 0 {
		errs = append(errs, fmt.Errorf("arrow_length %.1f is longer than the diagonal allows", g.ArrowLength))
	}
	return errors.Join(errs...)
}

// Half is half the playing surface: the surface spans [-Half, Half] on both axes.
func (g *Geometry) Half() float64 { return g.Surface / 2 }

// Radius returns the radius of a disc of kind k.
func (g *Geometry) Radius(k Kind) float64 {
	switch k {
	case Striker:
		return g.StrikerDiameter / 2
	case Queen:
		return g.QueenDiameter / 2
	}
	return g.ManDiameter / 2
}

// Mass returns the mass in grams of a disc of kind k.
func (g *Geometry) Mass(k Kind) float64 {
	if k == Striker {
		return g.StrikerMass
	}
	return g.ManMass
}

// Side-local distances from the centre toward a side's edge (see ToLocal).

// RearOuter is the local y of the rear line's outer edge (nearest the frame).
func (g *Geometry) RearOuter() float64 { return g.Half() - g.BaseLineOffset }

// RearInner is the local y of the rear line's inner edge.
func (g *Geometry) RearInner() float64 { return g.RearOuter() - g.RearLineThickness }

// FrontOuter is the local y of the front line's edge nearer the player.
func (g *Geometry) FrontOuter() float64 { return g.RearInner() - g.BaseLineGap }

// FrontInner is the local y of the front line's edge nearer the centre.
func (g *Geometry) FrontInner() float64 { return g.FrontOuter() - g.FrontLineThickness }

// BaseCircleY is the local y of the base circles' centres (mid-gap).
func (g *Geometry) BaseCircleY() float64 { return (g.RearInner() + g.FrontOuter()) / 2 }

// BaseCircleX is the local |x| of the base circles' centres.
func (g *Geometry) BaseCircleX() float64 {
	if g.BaseCircleSpread > 0 {
		return g.BaseCircleSpread
	}
	return g.FrontInner() - g.BaseCircleDiameter/2
}

func (g *Geometry) pocketInset() float64 {
	if g.PocketInset > 0 {
		return g.PocketInset
	}
	return g.PocketDiameter / 2
}

// arrowTipDist is the distance from the centre, along a diagonal, of an
// arrow's pocket end.
func (g *Geometry) arrowTipDist() float64 {
	c := g.Half() - g.pocketInset()
	return c*math.Sqrt2 - g.PocketDiameter/2 - g.ArrowPocketClearance
}

// Board markings in world coordinates.

// The markings in board coordinates, as the referee judges them: the
// measured ones when calibration set them, else the nominal ones (see
// [Geometry.Marks]).

// FrontLine returns the front base line of side s as a segment along its
// centre line, running between the base circle centres.
func (g *Geometry) FrontLine(s Side) Segment { return g.Marks().FrontLine(s) }

// RearLine returns the rear base line of side s likewise.
func (g *Geometry) RearLine(s Side) Segment { return g.Marks().RearLine(s) }

// BaseCircles returns side s's two base circles: first the one on the
// player's left, then the one on the right.
func (g *Geometry) BaseCircles(s Side) [2]Circle { return g.Marks().BaseCircles(s) }

// CentreCircle returns the red centre circle.
func (g *Geometry) CentreCircle() Circle { return g.Marks().CentreCircle() }

// OuterCircle returns the outer ("main") circle.
func (g *Geometry) OuterCircle() Circle { return g.Marks().OuterCircle() }

// Arrow returns the arrow pointing at pocket p (zero segment when the board
// has no arrows). A is the end nearer the centre, B the tip by the pocket.
func (g *Geometry) Arrow(p Pocket) Segment { return g.Marks().Arrow(p) }

// Corners returns the four corners of the playing surface in the order
// top-left (NW), top-right (NE), bottom-right (SE), bottom-left (SW).
func (g *Geometry) Corners() [4]Vec {
	h := g.Half()
	return [4]Vec{{-h, -h}, {h, -h}, {h, h}, {-h, h}}
}
