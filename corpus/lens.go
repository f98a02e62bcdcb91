package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The lens files of the corpus: what a club gets by running `boardcam
// calibrate --lens` once with a printed chessboard under its camera. For
// every distinct camera of the corpus, `boardcam synth --lens` renders
// chessboard photos through that camera's lens model (render/synth.ChessboardViews),
// fits a lens to them with calibrate's chessboard calibration and writes
// LensDir/cam-ID.lens.json; LensDir/index.json says which clip uses which
// file. `boardcam eval` passes each clip's lens to the pipeline as a club's
// lens.json. The coefficients in the files are fitted, never copied from
// the camera (docs/calibration.md, "The corpus's lens files").

// LensDir is the directory, inside the corpus directory, of the lens files.
const LensDir = "lenses"

// LensIndexFile is the index of the lens files, in LensDir.
const LensIndexFile = "index.json"

// LensIndexVersion is the version of the index format.
const LensIndexVersion = 1

// LensIndex says which lens file each clip's camera has.
type LensIndex struct {
	Version int `json:"version"`
	// Pattern is the chessboard photographed: inner corners and square.
	Pattern ChessboardPattern `json:"pattern"`
	// Clips maps a clip name to its camera's lens.
	Clips map[string]LensEntry `json:"clips"`
}

// LensEntry is one clip's lens.
type LensEntry struct {
	// File is the lens file's name in LensDir.
	File string `json:"file"`
	// Camera identifies the camera the lens was fitted for
	// (CameraFingerprint of its intrinsics): a clip whose camera changed
	// needs a new lens file.
	Camera string `json:"camera"`
	// Views is how many chessboard photos the fit used; RMSPx its
	// re-projection error.
	Views int     `json:"views"`
	RMSPx float64 `json:"rms_px"`
}

// ChessboardPattern is a printed chessboard: Cols × Rows inner corners,
// squares of Square mm.
type ChessboardPattern struct {
	Cols   int     `json:"cols"`
	Rows   int     `json:"rows"`
	Square float64 `json:"square_mm"`
}

// DefaultChessboardPattern is what docs/calibration.md tells a club to
// print: 9 × 6 inner corners, 25 mm squares (an A4 sheet).
var DefaultChessboardPattern = ChessboardPattern{Cols: 9, Rows: 6, Square: 25}

// CameraFingerprint identifies a camera's intrinsics: the image size, the
// camera matrix and the distortion coefficients (k1, k2, p1, p2, k3),
// rounded so that a JSON round trip does not change it.
func CameraFingerprint(w, h int, k [3][3]float64, d [5]float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%dx%d", w, h)
	for _, v := range []float64{k[0][0], k[1][1], k[0][2], k[1][2], d[0], d[1], d[2], d[3], d[4]} {
		fmt.Fprintf(&b, " %.5f", v)
	}
	s := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(s[:])[:12]
}

// ReadLensIndex reads dir/LensDir/index.json. It returns an error wrapping
// os.ErrNotExist when the corpus has no lens files.
func ReadLensIndex(dir string) (*LensIndex, error) {
	p := filepath.Join(dir, LensDir, LensIndexFile)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var ix LensIndex
	if err := json.Unmarshal(b, &ix); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", p, jsonErr(b, err))
	}
	if ix.Version != LensIndexVersion {
		return nil, fmt.Errorf("corpus: %s: version %d, this boardcam reads version %d (regenerate with boardcam synth --lens)", p, ix.Version, LensIndexVersion)
	}
	for name, e := range ix.Clips {
		if e.File == "" || filepath.Base(e.File) != e.File {
			return nil, fmt.Errorf("corpus: %s: clips.%s.file: %q is not a file name in %s", p, name, e.File, LensDir)
		}
		if e.Camera == "" {
			return nil, fmt.Errorf("corpus: %s: clips.%s.camera: missing", p, name)
		}
	}
	return &ix, nil
}

// WriteLensIndex writes dir/LensDir/index.json (clips sorted by name).
func WriteLensIndex(dir string, ix *LensIndex) error {
	ix.Version = LensIndexVersion
	b, err := json.MarshalIndent(ix, "", "  ")
	if err != nil {
		return fmt.Errorf("corpus: lens index: %w", err)
	}
	p := filepath.Join(dir, LensDir, LensIndexFile)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	return nil
}
