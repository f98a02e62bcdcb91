package analysis

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/boardcam/boardcam/eval"
)

// The harness decodes the committed videos with OpenVideo: the truth
// pipeline scores perfectly through the whole path (file checks,
// decoding, frame sizes and count).
func TestOpenVideoDecodesTheCorpus(t *testing.T) {
	videos := filepath.Join("..", "..", "testdata", "videos")
	files, err := eval.TruthFiles([]string{filepath.Join(videos, "arm-foul.mp4"), filepath.Join(videos, "placement-cut-moon.truth.json")})
	if err != nil {
		t.Fatal(err)
	}
	open := func(path string) (eval.Video, error) { return OpenVideo(path) }
	rep, err := eval.Run(context.Background(), files, eval.Refereed(&eval.Oracle{}), eval.Options{Video: open})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	if s.Clips != 2 || s.Frames == 0 || s.DetectionRecall != 1 || s.DetectionPrecision != 1 {
		t.Errorf("summary %+v", s)
	}
	if len(rep.Clips) != 2 || rep.Clips[0].Name != "arm-foul" || rep.Clips[0].Frames == 0 {
		t.Errorf("clips %+v", rep.Clips)
	}
	if s.Fouls["cut_moon"].F1 != 1 || s.Fouls["hand_over_foul_line"].F1 != 1 {
		t.Errorf("fouls %+v", s.Fouls)
	}
}
