package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// eval --calibration truth hands the vision pipeline the true calibration:
// the table says it is a diagnostic, the corners read no error, and
// --require-targets (the product's measure) refuses it.
func TestEvalCalibrationTruth(t *testing.T) {
	clip := "../../testdata/videos/queen-covered.truth.json" // 115 frames
	code, out, errOut := runCmd(t, "", "eval", "--quiet", "--calibration", "truth", "--json", clip)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Calibration string `json:"calibration"`
		Summary     struct {
			Corner   *float64 `json:"calibration_corner_err_px_mean"`
			Coverage float64  `json:"calibration_coverage"`
			Recall   float64  `json:"detection_recall"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Calibration != "truth" || rep.Summary.Corner == nil || *rep.Summary.Corner > 0.05 || rep.Summary.Coverage != 1 {
		t.Errorf("report %+v", rep)
	}
	// The clip's camera is turned a quarter turn: with the true
	// calibration the pieces are found where they are.
	if rep.Summary.Recall < 0.9 {
		t.Errorf("recall %.3f with the true calibration", rep.Summary.Recall)
	}
	code, out, _ = runCmd(t, "", "eval", "--quiet", "--calibration", "truth", "--pipeline", "truth", clip)
	if code != 0 || !strings.Contains(out, "calibration: truth — diagnostic, not the product's figure") {
		t.Errorf("exit %d, table:\n%s", code, out)
	}
	if code, _, errOut := runCmd(t, "", "eval", "--calibration", "truth", "--require-targets", clip); code != 2 || !strings.Contains(errOut, "--require-targets") {
		t.Errorf("--require-targets with truth: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCmd(t, "", "eval", "--calibration", "oracle", clip); code != 2 || !strings.Contains(errOut, "--calibration") {
		t.Errorf("--calibration oracle: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCmd(t, "", "eval", "--orientation", "guess", clip); code != 2 || !strings.Contains(errOut, "--orientation") {
		t.Errorf("--orientation guess: exit %d: %s", code, errOut)
	}
}
