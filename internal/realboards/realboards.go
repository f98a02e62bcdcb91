// Package realboards gives tests the real board photographs and their hand
// annotations. The photographs are not the project's and are never
// committed: they are read from $BOARDCAM_REALBOARDS, else from
// ../shared/realboards next to the repository, and tests skip when they are
// absent. The annotations live in testdata/realboards/<photo>.json; their
// format is documented in docs/calibration.md.
package realboards

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Annotation is the hand annotation of one photograph.
type Annotation struct {
	File           string        `json:"file"`
	Version        int           `json:"version"`
	ImageSize      [2]int        `json:"image_size"`
	InScope        bool          `json:"in_scope"`
	ScopeNote      string        `json:"scope_note"`
	Corners        [4][2]float64 `json:"corners_px"`
	Outside        [4]bool       `json:"corners_outside"`
	Uncertainty    [4]float64    `json:"corner_uncertainty_px"`
	CornerMethod   string        `json:"corner_method"`
	Pieces         []Piece       `json:"pieces"`
	PiecesComplete bool          `json:"pieces_complete"`
	Notes          string        `json:"notes"`
}

// Piece is one annotated disc.
type Piece struct {
	Class   string     `json:"class"`
	Center  [2]float64 `json:"center_px"`
	Radius  float64    `json:"radius_px"`
	Partial bool       `json:"partial"`
	Note    string     `json:"note"`
}

// RepoRoot walks up from the working directory to the directory holding go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("realboards: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Dir returns the folder of the photographs and whether it exists.
func Dir() (string, bool) {
	dir := os.Getenv("BOARDCAM_REALBOARDS")
	if dir == "" {
		root, err := RepoRoot()
		if err != nil {
			return "", false
		}
		dir = filepath.Join(root, "..", "shared", "realboards")
	}
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// Load reads and checks every annotation in testdata/realboards, sorted by
// photo name.
func Load() ([]Annotation, error) {
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(root, "testdata", "realboards", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("realboards: no annotations in testdata/realboards")
	}
	sort.Strings(files)
	var out []Annotation
	for _, f := range files {
		a, err := load(f)
		if err != nil {
			return nil, fmt.Errorf("realboards: %s: %w", f, err)
		}
		out = append(out, a)
	}
	return out, nil
}

func load(path string) (Annotation, error) {
	var a Annotation
	fh, err := os.Open(path)
	if err != nil {
		return a, err
	}
	defer fh.Close()
	dec := json.NewDecoder(fh)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, err
	}
	if filepath.Base(path) != a.File+".json" {
		return a, fmt.Errorf("annotates %q: the file must be named after the photo", a.File)
	}
	return a, a.Validate()
}

// Validate checks the annotation's own consistency: version, image size,
// corners flagged outside exactly when they are, uncertainties given, a
// reason for photos out of scope, and well-formed pieces.
func (a Annotation) Validate() error {
	if a.Version != 1 {
		return fmt.Errorf("version %d (want 1)", a.Version)
	}
	if a.ImageSize[0] <= 0 || a.ImageSize[1] <= 0 {
		return errors.New("image_size must be positive")
	}
	for i, c := range a.Corners {
		out := c[0] < -0.5 || c[1] < -0.5 || c[0] > float64(a.ImageSize[0])-0.5 || c[1] > float64(a.ImageSize[1])-0.5
		if out != a.Outside[i] {
			where := map[bool]string{true: "outside", false: "inside"}[out]
			return fmt.Errorf("corners_outside[%d] is %v but the corner (%.1f, %.1f) is %s the image", i, a.Outside[i], c[0], c[1], where)
		}
	}
	for i, u := range a.Uncertainty {
		if !(u > 0) {
			return fmt.Errorf("corner_uncertainty_px[%d] missing", i)
		}
	}
	if !a.InScope && a.ScopeNote == "" {
		return errors.New("out of scope without a scope_note")
	}
	for i, p := range a.Pieces {
		switch p.Class {
		case "white", "black", "queen", "striker":
		default:
			return fmt.Errorf("pieces[%d]: class %q", i, p.Class)
		}
		if !(p.Radius > 0) {
			return fmt.Errorf("pieces[%d]: radius_px must be positive", i)
		}
		if !p.Partial && (p.Center[0] < 0 || p.Center[1] < 0 || p.Center[0] > float64(a.ImageSize[0]) || p.Center[1] > float64(a.ImageSize[1])) {
			return fmt.Errorf("pieces[%d]: centre outside the image but not marked partial", i)
		}
	}
	return nil
}
