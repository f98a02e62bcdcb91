package mp4

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/boardcam/boardcam/frames/mp4/internal/legacy"
)

// The sample tables read through mp4ff are the hand-written demuxer's, on
// every clip there is.
func TestMatchesLegacy(t *testing.T) {
	var clips []string
	for _, g := range []string{"../../testdata/*/*.mp4", "../../../shared/independent/clips/*.mp4", os.Getenv("MP4_EXTRA")} {
		m, _ := filepath.Glob(g)
		clips = append(clips, m...)
	}
	if len(clips) < 25 {
		t.Fatalf("%d clips", len(clips))
	}
	for _, clip := range clips {
		old, errOld := legacy.Open(clip)
		m, err := Open(clip)
		if errOld != nil && err != nil && errors.Is(errOld, legacy.ErrUnsupported) == errors.Is(err, ErrUnsupported) {
			t.Logf("%s: both refuse it: old %v, new %v", filepath.Base(clip), errOld, err)
			continue
		}
		if errOld != nil || err != nil {
			t.Errorf("%s: old %v, new %v", clip, errOld, err)
			continue
		}
		a, b := old.Track, m.Track
		if a.Codec != b.Codec || a.Width != b.Width || a.Height != b.Height || a.Timescale != b.Timescale ||
			!bytes.Equal(a.Config, b.Config) || a.Duration != b.Duration ||
			a.FrameRateNum != b.FrameRateNum || a.FrameRateDen != b.FrameRateDen || len(a.Samples) != len(b.Samples) {
			t.Errorf("%s: old %s %dx%d ts %d dur %d %d/%d %d samples config %x\nnew %s %dx%d ts %d dur %d %d/%d %d samples config %x", clip,
				a.Codec, a.Width, a.Height, a.Timescale, a.Duration, a.FrameRateNum, a.FrameRateDen, len(a.Samples), a.Config,
				b.Codec, b.Width, b.Height, b.Timescale, b.Duration, b.FrameRateNum, b.FrameRateDen, len(b.Samples), b.Config)
		} else {
			for i := range a.Samples {
				if x, y := a.Samples[i], b.Samples[i]; x.Offset != y.Offset || x.Size != y.Size || x.DTS != y.DTS || x.PTS != y.PTS || x.Key != y.Key {
					t.Errorf("%s: sample %d: old %+v new %+v", clip, i, x, y)
					break
				}
			}
		}
		reordered := 0
		for _, s := range b.Samples {
			if s.PTS != s.DTS {
				reordered++
			}
		}
		t.Logf("%s: %s %dx%d, %d samples, %d with PTS ≠ DTS, %d/%d fps", filepath.Base(clip), b.Codec, b.Width, b.Height, len(b.Samples), reordered, b.FrameRateNum, b.FrameRateDen)
		old.Close()
		m.Close()
	}
	// What the old one refuses, the new one refuses.
	for _, f := range []string{"../../go.mod", "../../testdata/videos/demo.yaml"} {
		_, errOld := legacy.Open(f)
		_, err := Open(f)
		if !errors.Is(errOld, legacy.ErrUnsupported) || !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: old %v, new %v", f, errOld, err)
		}
	}
}
