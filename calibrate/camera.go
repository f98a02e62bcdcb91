package calibrate

import (
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
)

// The calibration's data (the file, the homography, the lens model, the
// orientation) lives in package camera, without OpenCV, so that the
// packages downstream of vision read calibrations without linking it.
// This package finds and checks calibrations in pictures; these names
// keep its code and the OpenCV side's callers reading as before. Code
// outside calibrate, vision and render names camera.X.

type (
	Calibration = camera.Calibration
	Size        = camera.Size
	BoardInfo   = camera.BoardInfo
	Quality     = camera.Quality
	Marking     = camera.Marking
	Method      = camera.Method
	Point       = camera.Point
	Corners     = camera.Corners
	Line        = camera.Line
	Homography  = camera.Homography
	Direction   = camera.Direction
	Orientation = camera.Orientation
	Lens        = camera.Lens
	Chessboard  = camera.Chessboard
)

const (
	Version     = camera.Version
	DefaultHFOV = camera.DefaultHFOV
	Auto        = camera.Auto
	Manual      = camera.Manual
	Bottom      = camera.Bottom
	Right       = camera.Right
	Top         = camera.Top
	Left        = camera.Left
)

var (
	// Identity is the identity homography.
	Identity = camera.Identity
	// DefaultChessboard is OpenCV's usual 9×6 pattern with 25 mm squares.
	DefaultChessboard = camera.DefaultChessboard
)

// Pt is camera.Pt.
func Pt(x, y float64) Point { return camera.Pt(x, y) }

// New is camera.New.
func New(imageCorners [4]Point, size Size, g *board.Geometry, o Orientation, now time.Time) (*Calibration, error) {
	return camera.New(imageCorners, size, g, o, now)
}

// Load is camera.Load.
func Load(path string) (*Calibration, error) { return camera.Load(path) }

// Parse is camera.Parse.
func Parse(b []byte) (*Calibration, error) { return camera.Parse(b) }

// LoadLens is camera.LoadLens.
func LoadLens(path string) (*Lens, error) { return camera.LoadLens(path) }

// ParseDirection is camera.ParseDirection.
func ParseDirection(s string) (Direction, error) { return camera.ParseDirection(s) }

// DefaultOrientation is camera.DefaultOrientation.
func DefaultOrientation() Orientation { return camera.DefaultOrientation() }

// FitHomography is camera.FitHomography.
func FitHomography(src, dst []Point) (Homography, error) { return camera.FitHomography(src, dst) }

// HomographyFrom4 is camera.HomographyFrom4.
func HomographyFrom4(src, dst [4]Point) (Homography, error) { return camera.HomographyFrom4(src, dst) }

// LineThrough is camera.LineThrough.
func LineThrough(p, d Point) Line { return camera.LineThrough(p, d) }

// LineJoining is camera.LineJoining.
func LineJoining(p, q Point) Line { return camera.LineJoining(p, q) }

// FocalFromHomography is camera.FocalFromHomography.
func FocalFromHomography(hb Homography, cx, cy, w float64) (float64, bool) {
	return camera.FocalFromHomography(hb, cx, cy, w)
}
