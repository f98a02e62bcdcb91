package evalpipe

import (
	"path/filepath"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/eval"
	"github.com/boardcam/boardcam/pipeline"
)

func clipOf(t *testing.T, name string) eval.Clip {
	t.Helper()
	tr, err := corpus.ReadTruth(filepath.Join("..", "..", "testdata", "videos", name))
	if err != nil {
		t.Fatal(err)
	}
	return eval.Clip{Name: tr.Clip.Name, Geometry: board.ICF(), Referee: tr.Referee, Calibration: eval.CalibrationAuto}
}

// The seat to strike first, when the orientation is to be taken from the
// first stroke: the breaker of a new match, the context's turn mid-board,
// the turn the stroke log ends in for a resumed match (the demo: North
// broke board 1; South strikes first in the clip).
func TestConfigureTurn(t *testing.T) {
	for _, c := range []struct {
		clip string
		want board.Side
	}{
		{"break.truth.json", board.S},
		{"arm-foul.truth.json", board.W},
		{"hand-over-pocket.truth.json", board.N},
		{"demo.truth.json.gz", board.S},
	} {
		clip := clipOf(t, c.clip)
		cfg, err := Configure(pipeline.Config{}, clip)
		if err != nil {
			t.Fatalf("%s: %v", c.clip, err)
		}
		if cfg.Turn == nil || *cfg.Turn != c.want {
			t.Errorf("%s: turn %v, want %s", c.clip, cfg.Turn, c.want)
		}
		if cfg.Orientation.Breaker != clip.Referee.Break || cfg.Orientation.SouthAt != camera.Bottom {
			t.Errorf("%s: orientation %+v", c.clip, cfg.Orientation)
		}
		// An installed orientation is used as it is.
		clip.SouthAt = camera.Left
		if cfg, err = Configure(pipeline.Config{}, clip); err != nil || cfg.Turn != nil || cfg.Orientation.SouthAt != camera.Left {
			t.Errorf("%s installed: turn %v, orientation %+v, %v", c.clip, cfg.Turn, cfg.Orientation, err)
		}
	}
	// The diagnostic without its calibration is an error.
	clip := clipOf(t, "break.truth.json")
	clip.Calibration = eval.CalibrationTruth
	if _, err := Configure(pipeline.Config{}, clip); err == nil {
		t.Error("--calibration truth without a true calibration: no error")
	}
}
