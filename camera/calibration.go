package camera

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boardcam/boardcam/board"
)

// Version is the format version of the calibration file this build
// writes. It reads every version up to it: version 2 added the board's
// measured markings, the set of pieces and the camera's tilt; a version 1
// file loads without them.
const Version = 2

// Method says how the board's corners were found.
type Method string

// The calibration methods.
const (
	// Auto: found in the image by calibrate.Detect.
	Auto Method = "auto"
	// Manual: given by a person (command line or web console).
	Manual Method = "manual"
)

// Calibration ties one camera view to the board: where the playing surface
// is in the image, the homography between image pixels and board
// millimetres, the lens model, the orientation, and how good the fit is.
// It is saved as a versioned JSON file (see [Calibration.Save] and [Load]).
//
// All pixel positions are in the undistorted image: when Lens is set, every
// frame is undistorted (see calibrate.Undistorter) before these figures apply.
type Calibration struct {
	// Version is the file format version ([Version]).
	Version int `json:"version"`
	// Created is when the calibration was made.
	Created time.Time `json:"created"`
	// ImageSize is the frame size in pixels, [width, height].
	ImageSize Size `json:"image_size"`
	// Corners are the corners of the playing surface in image pixels, in
	// board order after orientation: NW, NE, SE, SW. With the default
	// orientation (side S at the bottom of the image) that is top-left,
	// top-right, bottom-right, bottom-left of the image. Corners may lie
	// outside the image when the board is cropped.
	Corners Corners `json:"corners_px"`
	// H maps undistorted image pixels to board millimetres (origin at the
	// centre of the surface, x toward E, y toward S).
	H Homography `json:"homography"`
	// HInv maps board millimetres to undistorted image pixels.
	HInv Homography `json:"inverse"`
	// Lens is the lens model, when the camera was calibrated with a
	// chessboard (boardcam calibrate --lens).
	Lens *Lens `json:"lens,omitempty"`
	// Board names the board geometry the calibration was made for.
	Board BoardInfo `json:"board"`
	// Orientation says where side S is in the image and where the breaker
	// sits.
	Orientation Orientation `json:"orientation"`
	// Quality says how well the board's markings re-project.
	Quality Quality `json:"quality"`
	// Markings are this board's markings as measured in the picture
	// (where its base lines, base circles, arrows and centre circle are
	// drawn, and how thick): the referee judges against them. Absent in
	// version 1 files and when the frame showed too little of them.
	Markings *board.Markings `json:"markings,omitempty"`
	// Set is the set of pieces learned from the picture (sizes and
	// colours), when there were pieces to learn it from.
	Set *board.Set `json:"set,omitempty"`
}

// Size is an image size, [width, height] in JSON.
type Size struct {
	W, H int
}

// MarshalJSON writes [w, h].
func (s Size) MarshalJSON() ([]byte, error) { return json.Marshal([2]int{s.W, s.H}) }

// UnmarshalJSON reads [w, h].
func (s *Size) UnmarshalJSON(b []byte) error {
	var a []int
	if err := json.Unmarshal(b, &a); err != nil {
		return fmt.Errorf("want [width, height] in whole pixels: %w", err)
	}
	if len(a) != 2 {
		return fmt.Errorf("want [width, height], got %d numbers", len(a))
	}
	s.W, s.H = a[0], a[1]
	return nil
}

// Point returns the size as an image.Point (X = width).
func (s Size) Point() image.Point { return image.Point{s.W, s.H} }

// BoardInfo names the board geometry used.
type BoardInfo struct {
	Name    string  `json:"name"`
	Surface float64 `json:"surface_mm"`
}

// Quality describes how well the calibration fits what the camera sees.
type Quality struct {
	// Method is how the corners were found: auto or manual.
	Method Method `json:"method"`
	// Score is 0 (useless) to 1 (every marking found where the geometry
	// puts it). See the package documentation for the formula.
	Score float64 `json:"score"`
	// RMSmm is the root-mean-square distance, in board millimetres,
	// between the markings found in the image and where the board geometry
	// puts them; absent when no marking was found.
	RMSmm *float64 `json:"rms_mm,omitempty"`
	// EdgeRMSpx is the root-mean-square distance in pixels of the surface
	// edge samples from the fitted edges (auto only).
	EdgeRMSpx *float64 `json:"edge_rms_px,omitempty"`
	// Edges says for each image side of the surface (in image order: top,
	// right, bottom, left) how it was obtained: "found" (measured in the
	// image), "inferred" (outside the image or hidden: from the markings
	// and the board's symmetry), "manual".
	Edges [4]string `json:"edges"`
	// Markings lists every marking looked for and whether it was found.
	Markings []Marking `json:"markings,omitempty"`
	// TiltDeg is the angle between the camera's axis and the vertical,
	// from the perspective of the board (0: looking straight down).
	TiltDeg float64 `json:"tilt_deg,omitempty"`
	// Notes are warnings worth showing to the user.
	Notes []string `json:"notes,omitempty"`
}

// Marking is one board marking looked for in the image.
type Marking struct {
	// Kind is rear_line, front_line, base_circle, arrow, centre_circle or
	// pocket (base_line in version 1 files: the rear line).
	Kind string `json:"kind"`
	// Name says which one: a side for base lines ("S"), a side and end for
	// base circles ("S left"), a pocket name ("NE").
	Name  string `json:"name"`
	Found bool   `json:"found"`
	// ErrorMM is the distance between where it was found and where the
	// board geometry puts it (for a line: how far its centre line lies
	// from the nominal one).
	ErrorMM float64 `json:"error_mm,omitempty"`
}

// Found counts the markings of a kind that were found, and how many were
// looked for.
func (q Quality) Found(kind string) (found, of int) {
	for _, m := range q.Markings {
		if m.Kind == kind {
			of++
			if m.Found {
				found++
			}
		}
	}
	return found, of
}

// ToBoard maps an (undistorted) image point to board millimetres.
func (c *Calibration) ToBoard(p Point) board.Vec {
	q := c.H.Apply(p)
	return board.Vec{X: q.X, Y: q.Y}
}

// ToImage maps a point in board millimetres to (undistorted) image pixels.
func (c *Calibration) ToImage(v board.Vec) Point { return c.HInv.Apply(Pt(v.X, v.Y)) }

// CornersPx returns the corners as the [][2]float64 of a calibrated or
// recalibrated event (events.Event.CornersPx): NW, NE, SE, SW.
func (c *Calibration) CornersPx() [][2]float64 {
	out := make([][2]float64, 4)
	for i, p := range c.Corners {
		out[i] = [2]float64{p.X, p.Y}
	}
	return out
}

// ImageCorners returns the corners in image order: the corner that lies
// top-left in the image first, then clockwise.
func (c *Calibration) ImageCorners() [4]Point {
	q := c.Orientation.SouthAt.QuarterTurns()
	var out [4]Point
	for j := 0; j < 4; j++ {
		out[j] = c.Corners[(j+q)%4]
	}
	return out
}

// PixelsPerMM returns the mean scale of the surface in the image.
func (c *Calibration) PixelsPerMM() float64 {
	var per float64
	for i := 0; i < 4; i++ {
		per += c.Corners[i].Dist(c.Corners[(i+1)%4])
	}
	if c.Board.Surface <= 0 {
		return 0
	}
	return per / 4 / c.Board.Surface
}

// BoardCorners returns the surface corners in mm, NW, NE, SE, SW.
func BoardCorners(surface float64) [4]Point {
	h := surface / 2
	return [4]Point{Pt(-h, -h), Pt(h, -h), Pt(h, h), Pt(-h, h)}
}

// New builds a calibration from the four surface corners given in image
// order (top-left, top-right, bottom-right, bottom-left of the image, as
// the board lies in the picture) for a frame of the given size. The
// orientation decides which of them is NW. Method and quality are left for
// the caller (see calibrate.FromCorners and calibrate.Detect).
func New(imageCorners [4]Point, size Size, g *board.Geometry, o Orientation, now time.Time) (*Calibration, error) {
	if g == nil {
		g = board.ICF()
	}
	if size.W <= 0 || size.H <= 0 {
		return nil, fmt.Errorf("calibrate: image size %dx%d is not positive", size.W, size.H)
	}
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	for i, p := range imageCorners {
		if !p.Finite() {
			return nil, fmt.Errorf("calibrate: corner %d (%s) is not finite", i+1, imageCornerNames[i])
		}
	}
	if ok, wind := QuadConvex(imageCorners); !ok {
		return nil, errors.New("calibrate: the four corners do not form a convex quadrilateral (give them as top-left, top-right, bottom-right, bottom-left)")
	} else if wind < 0 {
		return nil, errors.New("calibrate: the corners run anticlockwise; give them clockwise: top-left, top-right, bottom-right, bottom-left")
	}
	if a := QuadArea(imageCorners); a < 0.01*float64(size.W*size.H) {
		return nil, fmt.Errorf("calibrate: the corners enclose only %.0f px², under 1%% of the image", a)
	}
	c := &Calibration{
		Version:     Version,
		Created:     now.UTC(),
		ImageSize:   size,
		Board:       BoardInfo{Name: g.Name, Surface: g.Surface},
		Orientation: o,
	}
	q := o.SouthAt.QuarterTurns()
	for i := 0; i < 4; i++ {
		c.Corners[i] = imageCorners[((i-q)%4+4)%4]
	}
	if err := c.computeH(); err != nil {
		return nil, err
	}
	return c, nil
}

var imageCornerNames = [4]string{"top-left", "top-right", "bottom-right", "bottom-left"}

func (c *Calibration) computeH() error {
	h, err := HomographyFrom4(c.Corners, BoardCorners(c.Board.Surface))
	if err != nil {
		return fmt.Errorf("calibrate: homography: %w", err)
	}
	inv, err := h.Inverse()
	if err != nil {
		return fmt.Errorf("calibrate: homography: %w", err)
	}
	c.H, c.HInv = h, inv
	return nil
}

// Rotate renames the board's sides by k quarter turns: side S becomes
// S+k in the order S, E, N, W (k = 1 renames S to E, E to N, …). The
// corners are relabelled and the homography recomputed; the camera view is
// unchanged. Use it to put the breaker on a configured side (see
// calibrate.InferBreaker).
func (c *Calibration) Rotate(k int) error {
	k = ((k % 4) + 4) % 4
	if k == 0 {
		return nil
	}
	img := c.ImageCorners()
	q := ((c.Orientation.SouthAt.QuarterTurns()-k)%4 + 4) % 4
	c.Orientation.SouthAt = directions[q]
	for i := 0; i < 4; i++ {
		c.Corners[i] = img[((i-q)%4+4)%4]
	}
	c.Orientation.Breaker = board.Side((int(c.Orientation.Breaker) + k) % 4)
	if c.Markings != nil {
		c.Markings = c.Markings.Rotated(k)
	}
	return c.computeH()
}

// Save writes the calibration as indented JSON, atomically (a temporary
// file renamed over path), after validating it.
func (c *Calibration) Save(path string) error {
	c.Version = Version
	if err := c.Validate(); err != nil {
		return fmt.Errorf("calibrate: not saving %s: %w", path, err)
	}
	b, err := c.Marshal()
	if err != nil {
		return fmt.Errorf("calibrate: %s: %w", path, err)
	}
	return writeAtomic(path, b)
}

// Marshal returns the calibration as indented JSON with a final newline.
func (c *Calibration) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func writeAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	tmp := f.Name()
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("calibrate: writing %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("calibrate: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("calibrate: writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("calibrate: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("calibrate: %w", err)
	}
	return nil
}

// Load reads and validates a calibration file.
func Load(path string) (*Calibration, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	c, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("calibrate: %s: %w", path, err)
	}
	return c, nil
}

// Parse decodes and validates a calibration. Files of a newer format
// version are rejected with a message saying so; unknown fields are errors.
func Parse(b []byte) (*Calibration, error) {
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, jsonError(b, err)
	}
	switch {
	case head.Version == nil:
		return nil, errors.New("no \"version\" field: not a boardcam calibration file")
	case *head.Version > Version:
		return nil, fmt.Errorf("format version %d was written by a newer boardcam; this build reads version %d (upgrade boardcam or calibrate again)", *head.Version, Version)
	case *head.Version < 1:
		return nil, fmt.Errorf("version: %d is not a valid format version", *head.Version)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c Calibration
	if err := dec.Decode(&c); err != nil {
		return nil, jsonError(b, err)
	}
	if dec.More() {
		return nil, errors.New("trailing data after the calibration object")
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// jsonError turns a decoding error into one that names the line and column
// (and the field, for type errors).
func jsonError(b []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		l, col := lineCol(b, se.Offset)
		return fmt.Errorf("line %d, column %d: %v", l, col, se)
	case errors.As(err, &te):
		l, col := lineCol(b, te.Offset)
		return fmt.Errorf("line %d, column %d: field %q: cannot use %s as %v", l, col, te.Field, te.Value, te.Type)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return errors.New("unexpected end of file")
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		return fmt.Errorf("unknown field %s (misspelt, or written by a newer boardcam?)", strings.TrimPrefix(msg, "json: unknown field "))
	}
	// Errors from our own UnmarshalJSON methods carry no offset.
	return fmt.Errorf("%v", strings.TrimPrefix(msg, "json: "))
}

func lineCol(b []byte, off int64) (int, int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	line, col := 1, 1
	for _, c := range b[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// Validate checks that the calibration is complete and self-consistent.
// Errors name the JSON field at fault.
func (c *Calibration) Validate() error {
	var errs []error
	add := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, a...)))
	}
	if c.Version < 1 || c.Version > Version {
		add("version", "%d (this build reads 1 to %d)", c.Version, Version)
	}
	if c.Markings != nil {
		if err := c.Markings.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("markings: %w", err))
		}
	}
	if c.Set != nil {
		if err := c.Set.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("set: %w", err))
		}
	}
	if c.Created.IsZero() {
		add("created", "missing")
	}
	if c.ImageSize.W <= 0 || c.ImageSize.H <= 0 {
		add("image_size", "%dx%d is not positive", c.ImageSize.W, c.ImageSize.H)
	}
	if !(c.Board.Surface > 0) || math.IsInf(c.Board.Surface, 0) {
		add("board.surface_mm", "%v is not a positive size", c.Board.Surface)
	}
	if err := c.Orientation.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("orientation: %w", err))
	}
	cornersOK := true
	for i, p := range c.Corners {
		if !p.Finite() {
			add(fmt.Sprintf("corners_px[%d]", i), "not finite")
			cornersOK = false
		}
		w, h := float64(c.ImageSize.W), float64(c.ImageSize.H)
		if p.X < -w || p.X > 2*w || p.Y < -h || p.Y > 2*h {
			add(fmt.Sprintf("corners_px[%d]", i), "(%.1f, %.1f) lies far outside the %dx%d image", p.X, p.Y, c.ImageSize.W, c.ImageSize.H)
			cornersOK = false
		}
	}
	if cornersOK {
		if ok, wind := QuadConvex(c.Corners); !ok {
			add("corners_px", "the corners do not form a convex quadrilateral")
			cornersOK = false
		} else if wind < 0 {
			add("corners_px", "the corners run anticlockwise in the image (a mirrored view is not supported)")
		}
	}
	if !c.H.Finite() || !c.HInv.Finite() {
		add("homography", "not finite")
	} else if cornersOK && c.Board.Surface > 0 {
		bc := BoardCorners(c.Board.Surface)
		names := [4]string{"NW", "NE", "SE", "SW"}
		for i := range c.Corners {
			if d := c.H.Apply(c.Corners[i]).Dist(bc[i]); !(d < 0.5) {
				add("homography", "maps corners_px[%d] %.1f mm away from the %s corner of the surface", i, d, names[i])
				break
			}
			if d := c.HInv.Apply(bc[i]).Dist(c.Corners[i]); !(d < 0.5) {
				add("inverse", "maps the %s corner %.1f px away from corners_px[%d]", names[i], d, i)
				break
			}
		}
	}
	if c.Lens != nil {
		if err := c.Lens.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("lens: %w", err))
		} else if c.Lens.ImageSize != c.ImageSize {
			add("lens.image_size", "%dx%d differs from image_size %dx%d", c.Lens.ImageSize.W, c.Lens.ImageSize.H, c.ImageSize.W, c.ImageSize.H)
		}
	}
	switch c.Quality.Method {
	case Auto, Manual:
	default:
		add("quality.method", "%q (want auto or manual)", c.Quality.Method)
	}
	if !(c.Quality.Score >= 0 && c.Quality.Score <= 1) {
		add("quality.score", "%v is not between 0 and 1", c.Quality.Score)
	}
	if r := c.Quality.RMSmm; r != nil && !(*r >= 0) {
		add("quality.rms_mm", "%v is not a distance", *r)
	}
	for i, e := range c.Quality.Edges {
		switch e {
		case "found", "inferred", "manual":
		default:
			add(fmt.Sprintf("quality.edges[%d]", i), "%q (want found, inferred or manual)", e)
		}
	}
	return errors.Join(errs...)
}
