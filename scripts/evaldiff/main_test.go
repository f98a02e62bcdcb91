package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const base = `{"pipeline":"auto","summary":{"frames":113,"fps":30,"detection_recall":0.95,
 "position_err_mm_p95":0.5,"counts":{"detections":307,"false_positives":0},
 "events":{"pocketed":{"truth":1,"reported":1,"matched":1}}},
 "clips":[{"name":"arm-foul","fps":29.7,"id_switches":0,"calibration_corner_err_px_mean":0.1,
 "fouls":{"hand_over_foul_line":{"truth":1,"reported":1,"matched":1,"timing_err_frames_mean":0}}}],
 "targets":[{"name":"detection_recall","value":0.95,"pass":false}]}`

func variant(t *testing.T, edit func(m map[string]any)) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(base), &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, _ := json.Marshal(m)
	p := filepath.Join(t.TempDir(), "b.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func sum(m map[string]any) map[string]any   { return m["summary"].(map[string]any) }
func clip0(m map[string]any) map[string]any { return m["clips"].([]any)[0].(map[string]any) }

func TestEvaldiff(t *testing.T) {
	a := variant(t, func(map[string]any) {})
	cases := []struct {
		name string
		edit func(m map[string]any)
		want int
		says string
	}{
		{"identical", func(map[string]any) {}, 0, "equal"},
		{"speed is not compared", func(m map[string]any) { sum(m)["fps"] = 2.1; clip0(m)["fps"] = 2.0 }, 0, "equal"},
		{"pixel figures within tolerance", func(m map[string]any) {
			sum(m)["detection_recall"] = 0.955
			sum(m)["position_err_mm_p95"] = 0.9
			sum(m)["counts"].(map[string]any)["detections"] = 306.0
			clip0(m)["calibration_corner_err_px_mean"] = 0.12
		}, 0, "4 figures within tolerance"},
		{"recall beyond tolerance", func(m map[string]any) { sum(m)["detection_recall"] = 0.9 }, 1, "summary.detection_recall"},
		{"a foul missed", func(m map[string]any) {
			clip0(m)["fouls"].(map[string]any)["hand_over_foul_line"].(map[string]any)["matched"] = 0.0
		}, 1, "clips[0].fouls.hand_over_foul_line.matched"},
		{"an event one frame late", func(m map[string]any) {
			clip0(m)["fouls"].(map[string]any)["hand_over_foul_line"].(map[string]any)["timing_err_frames_mean"] = 1.0
		}, 1, "timing_err_frames_mean"},
		{"an identity switch", func(m map[string]any) { clip0(m)["id_switches"] = 1.0 }, 1, "clips[0].id_switches"},
		{"a clip missing", func(m map[string]any) { m["clips"] = []any{} }, 1, "clips"},
		{"a new figure is exact", func(m map[string]any) { sum(m)["new_figure"] = 1.0 }, 1, "summary.new_figure"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			got := run([]string{a, variant(t, c.edit)}, &out)
			if got != c.want || !strings.Contains(out.String(), c.says) {
				t.Errorf("exit %d, want %d, output lacks %q:\n%s", got, c.want, c.says, out.String())
			}
		})
	}
}

func TestEvaldiffRejectsOtherFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(p, []byte(`{"a":1}`), 0o644)
	var out strings.Builder
	if got := run([]string{p, p}, &out); got != 2 || !strings.Contains(out.String(), "not the output of boardcam eval") {
		t.Errorf("exit %d: %s", got, out.String())
	}
	if got := run([]string{p}, &out); got != 2 {
		t.Errorf("one argument: exit %d", got)
	}
}
