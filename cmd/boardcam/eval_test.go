package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// eval --json prints one object with the summary fields the issue names,
// for the summary and each clip; the none pipeline reads zero.
func TestEvalJSON(t *testing.T) {
	code, out, errOut := runCmd(t, "", "eval", "--json", "--quiet", "--pipeline", "none", "../../testdata/videos/camera-knock.mp4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var sum map[string]any
	if err := json.Unmarshal(rep["summary"], &sum); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"clips", "frames", "calibration_corner_err_px_mean", "detection_recall", "detection_precision",
		"classification_accuracy", "position_err_mm_mean", "position_err_mm_p95", "id_switches", "events", "fouls", "fps"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary lacks %s", k)
		}
	}
	if sum["clips"].(float64) != 1 || sum["detection_recall"].(float64) != 0 {
		t.Errorf("summary %v", sum)
	}
	ev := sum["events"].(map[string]any)["pocketed"].(map[string]any)
	for _, k := range []string{"precision", "recall", "f1", "timing_err_frames_mean"} {
		if _, ok := ev[k]; !ok {
			t.Errorf("events.pocketed lacks %s", k)
		}
	}
	var clips []map[string]any
	if err := json.Unmarshal(rep["clips"], &clips); err != nil || len(clips) != 1 || clips[0]["name"] != "camera-knock" {
		t.Fatalf("clips %v %v", clips, err)
	}
	if _, ok := clips[0]["detection_precision"]; !ok {
		t.Error("the clip lacks the summary's fields")
	}
}

// The truth pipeline meets every target the clip can measure, and the
// table says so; --require-targets fails for the none pipeline, naming
// the targets it misses.
func TestEvalTable(t *testing.T) {
	code, out, errOut := runCmd(t, "", "eval", "--quiet", "--pipeline", "truth", "../../testdata/videos/camera-knock.truth.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"pipeline truth: 1 clips", "camera-knock", "100.00%", "pocketed", "targets", "detection_recall"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	code, _, errOut = runCmd(t, "", "eval", "--quiet", "--pipeline", "none", "--require-targets", "../../testdata/videos/camera-knock.mp4")
	if code != 1 || !strings.Contains(errOut, "targets missed") || !strings.Contains(errOut, "detection_recall") {
		t.Errorf("none with --require-targets: exit %d: %s", code, errOut)
	}
}

func TestEvalUsage(t *testing.T) {
	if code, _, errOut := runCmd(t, "", "eval", "--pipeline", "magic", "../../testdata/videos/camera-knock.mp4"); code != 2 || !strings.Contains(errOut, `no pipeline "magic"`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCmd(t, "", "eval", "/nonexistent"); code != 1 {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, _ := runCmd(t, "", "eval", "--event-window", "0"); code != 2 {
		t.Errorf("exit %d", code)
	}
}
