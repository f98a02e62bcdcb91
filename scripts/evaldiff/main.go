// Command evaldiff compares two `boardcam eval --json` outputs of the same
// clips, made on two architectures (scripts/test-arm64.sh: amd64 natively,
// arm64 under qemu), and fails when they differ by more than the
// tolerances below.
//
//	go run ./scripts/evaldiff amd64.json arm64.json
//
// What the referee decides must not depend on the processor: every event
// and foul count (truth, reported, matched) and timing, identity switches,
// classification, calibration coverage and the frame counts must be equal.
// Pixel-level figures may differ a little: Go fuses multiply-adds on arm64
// (not on amd64) and OpenCV's NEON and SSE/AVX kernels round differently
// (resize, remap, colour conversion), so a disc on the edge of a threshold
// is found in one frame on one machine and not on the other. Those figures
// have the tolerances of [tolerances]; any other number must be equal, so
// a figure added to eval later is compared exactly until it is given one.
// Speed figures (fps) are not compared.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
)

// tolerance of a figure: |a-b| ≤ Abs, or ≤ Rel·max(|a|,|b|) when Rel > 0.
type tolerance struct {
	Abs, Rel float64
	Why      string
}

// tolerances by the end of a figure's path: "counts.matched" is a number
// of sightings, while "events.pocketed.matched" (no tolerance) is a number
// of pocketings.
var tolerances = map[string]tolerance{
	"calibration_corner_err_px_mean":      {Abs: 0.05, Why: "sub-pixel corner refinement"},
	"calibration_corner_err_px_mean_720p": {Abs: 0.05, Why: "sub-pixel corner refinement"},
	"detection_recall":                    {Abs: 0.01, Why: "discs on a threshold's edge"},
	"detection_precision":                 {Abs: 0.01, Why: "discs on a threshold's edge"},
	"detection_recall_all":                {Abs: 0.01, Why: "discs on a threshold's edge"},
	"detection_precision_all":             {Abs: 0.01, Why: "discs on a threshold's edge"},
	"position_err_mm_mean":                {Abs: 0.1, Why: "sub-pixel centres"},
	"position_err_mm_mean_moving":         {Abs: 0.1, Why: "sub-pixel centres"},
	"position_err_mm_p95":                 {Abs: 1, Why: "a 95th percentile of a few hundred samples; 1 mm is 1.3 px at 720p"},
	"counts.detections":                   {Abs: 3, Rel: 0.01, Why: "discs on a threshold's edge"},
	"counts.matched":                      {Abs: 3, Rel: 0.01, Why: "discs on a threshold's edge"},
	"counts.matched_at_rest":              {Abs: 3, Rel: 0.01, Why: "discs on a threshold's edge"},
	"counts.tracked":                      {Abs: 3, Rel: 0.01, Why: "discs on a threshold's edge"},
	"counts.false_positives":              {Abs: 3, Why: "discs on a threshold's edge"},
}

// ignored figures: timings, and the targets (their values are the
// summary's figures, compared there; a target met on one machine may be
// missed on the other by a value within tolerance).
var ignored = map[string]bool{"fps": true, "targets": true}

// A difference found by compare.
type difference struct {
	Path      string
	A, B      any
	Tolerated bool
}

func compare(a, b any) []difference {
	var out []difference
	walk("", a, b, &out)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func walk(path string, a, b any, out *[]difference) {
	last := path[strings.LastIndexAny(path, ".]")+1:]
	if ignored[last] {
		return
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			*out = append(*out, difference{Path: path, A: a, B: b})
			return
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		for k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			va, oka := x[k]
			vb, okb := y[k]
			if !oka || !okb {
				*out = append(*out, difference{Path: p, A: va, B: vb})
				continue
			}
			walk(p, va, vb, out)
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			*out = append(*out, difference{Path: path, A: a, B: b})
			return
		}
		for i := range x {
			walk(fmt.Sprintf("%s[%d]", path, i), x[i], y[i], out)
		}
	case float64:
		y, ok := b.(float64)
		if !ok {
			*out = append(*out, difference{Path: path, A: a, B: b})
			return
		}
		if x == y {
			return
		}
		t, ok := tolerances[last]
		if i := strings.LastIndex(path, "counts."); i >= 0 {
			t, ok = tolerances[path[i:]]
		}
		lim := t.Abs
		if t.Rel > 0 {
			lim = math.Max(lim, t.Rel*math.Max(math.Abs(x), math.Abs(y)))
		}
		*out = append(*out, difference{Path: path, A: a, B: b, Tolerated: ok && math.Abs(x-y) <= lim})
	case bool:
		if y, ok := b.(bool); !ok || x != y {
			*out = append(*out, difference{Path: path, A: a, B: b})
		}
	default:
		if fmt.Sprint(a) != fmt.Sprint(b) {
			*out = append(*out, difference{Path: path, A: a, B: b})
		}
	}
}

func load(path string) (any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m, ok := v.(map[string]any)
	if !ok || m["clips"] == nil {
		return nil, fmt.Errorf("%s: not the output of boardcam eval --json", path)
	}
	return v, nil
}

func run(args []string, w io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(w, "usage: evaldiff A.json B.json")
		return 2
	}
	a, err := load(args[0])
	if err != nil {
		fmt.Fprintln(w, "evaldiff:", err)
		return 2
	}
	b, err := load(args[1])
	if err != nil {
		fmt.Fprintln(w, "evaldiff:", err)
		return 2
	}
	diffs := compare(a, b)
	bad := 0
	for _, d := range diffs {
		mark := "within tolerance"
		if !d.Tolerated {
			mark = "DIFFERS"
			bad++
		}
		fmt.Fprintf(w, "  %-60s %v  %v  %s\n", d.Path, d.A, d.B, mark)
	}
	if bad > 0 {
		fmt.Fprintf(w, "evaldiff: %d figures differ beyond tolerance (%d within)\n", bad, len(diffs)-bad)
		return 1
	}
	fmt.Fprintf(w, "evaldiff: equal (%d figures within tolerance, events and fouls identical)\n", len(diffs))
	return 0
}

func main() { os.Exit(run(os.Args[1:], os.Stdout)) }
