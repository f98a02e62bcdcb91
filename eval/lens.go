package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/corpus"
)

// LensSource says whether the pipeline gets a lens model.
type LensSource string

const (
	// LensFiles: each clip's lens file from the corpus's lenses/
	// directory (made by `boardcam synth --lens` from simulated chessboard
	// photos, as a club makes its lens.json), when there is one.
	LensFiles LensSource = "files"
	// LensNone: no lens model; the frames are used as recorded.
	LensNone LensSource = "none"
)

// ParseLensSource reads files or none.
func ParseLensSource(s string) (LensSource, error) {
	switch l := LensSource(s); l {
	case LensFiles, LensNone:
		return l, nil
	case "":
		return LensFiles, nil
	}
	return "", fmt.Errorf("unknown lens source %q (want files or none)", s)
}

// clipLens returns the lens file of a clip (nil, "" when the corpus has
// none for it). The index names the camera each file was fitted for; a
// clip whose camera has changed since (its truth's intrinsics give
// another fingerprint) is an error: the lens files must be regenerated.
func clipLens(dir string, t *corpus.Truth) (*camera.Lens, string, error) {
	ix, err := corpus.ReadLensIndex(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("eval: %w", err)
	}
	e, ok := ix.Clips[t.Clip.Name]
	if !ok || len(t.Cameras) == 0 {
		return nil, "", nil
	}
	c := t.Cameras[0]
	if fp := corpus.CameraFingerprint(t.Clip.Width, t.Clip.Height, c.CameraMatrix, c.DistCoeffs); fp != e.Camera {
		return nil, "", fmt.Errorf("eval: %s: the lens file %s was made for camera %s, the clip's camera is now %s: regenerate the lens files with boardcam synth --lens", t.Clip.Name, e.File, e.Camera, fp)
	}
	path := filepath.Join(dir, corpus.LensDir, e.File)
	l, err := camera.LoadLens(path)
	if err != nil {
		return nil, "", fmt.Errorf("eval: %s: %w", t.Clip.Name, err)
	}
	if l.ImageSize.W != t.Clip.Width || l.ImageSize.H != t.Clip.Height {
		return nil, "", fmt.Errorf("eval: %s: the lens file %s is for %dx%d frames, the clip is %dx%d", t.Clip.Name, path, l.ImageSize.W, l.ImageSize.H, t.Clip.Width, t.Clip.Height)
	}
	return l, path, nil
}
