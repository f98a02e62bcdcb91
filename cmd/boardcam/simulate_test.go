package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/events"
)

const singlePocket = "../../testdata/scenarios/single-pocket.yaml"

func TestSimulateJSONLines(t *testing.T) {
	code, out, errOut := runCmd(t, "", "simulate", "--json", singlePocket)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e events.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not an event line %q: %v", line, err)
		}
		if err := e.Validate(); err != nil {
			t.Error(err)
		}
		types = append(types, string(e.Type))
	}
	if got := strings.Join(types, ","); got != "stroke_start,front_line_crossed,contact,pocketed,stroke_end" {
		t.Errorf("events %s", got)
	}
}

func TestSimulateFrames(t *testing.T) {
	code, out, errOut := runCmd(t, "", "simulate", "--frames", "--fps", "30", singlePocket)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lastFrame, scenes, evs := -1, 0, 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var l struct {
			Type  string            `json:"type"`
			Frame int               `json:"frame"`
			Discs []json.RawMessage `json:"discs"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Type == "scene" {
			if l.Frame != lastFrame+1 || len(l.Discs) != 20 {
				t.Fatalf("scene line for frame %d after %d with %d discs", l.Frame, lastFrame, len(l.Discs))
			}
			lastFrame = l.Frame
			scenes++
			continue
		}
		evs++
		// An event follows the scene of its own frame.
		if l.Frame != lastFrame {
			t.Errorf("%s event of frame %d printed after the scene of frame %d", l.Type, l.Frame, lastFrame)
		}
	}
	if evs != 5 || scenes < 90 {
		t.Errorf("%d events, %d scenes", evs, scenes)
	}
}

func TestSimulateSummary(t *testing.T) {
	code, out, errOut := runCmd(t, "", "simulate", singlePocket)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{`scenario "single pocket"`, "1 stroke", "W1 into NE", "baseline"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	// --seed changes an automatic board.
	_, a, _ := runCmd(t, "", "simulate", "--json", "--seed", "1", "../../testdata/scenarios/autoplay-board.yaml")
	_, b, _ := runCmd(t, "", "simulate", "--json", "--seed", "2", "../../testdata/scenarios/autoplay-board.yaml")
	if a == b || a == "" {
		t.Error("--seed does not change the automatic board")
	}
}

func TestSimulateErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: bad\ntimeline:\n  - strike: {side: X, direction: 0, speed: 1}\n"), 0o644)
	code, _, errOut := runCmd(t, "", "simulate", bad)
	if code != 1 || !strings.Contains(errOut, "bad.yaml:3:") || !strings.Contains(errOut, `unknown side "X"`) {
		t.Errorf("bad scenario: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCmd(t, "", "simulate"); code != 2 || !strings.Contains(errOut, "one scenario file") {
		t.Errorf("no file: exit %d, %q", code, errOut)
	}
	if code, _, _ := runCmd(t, "", "simulate", "--fps", "-3", singlePocket); code != 2 {
		t.Errorf("bad --fps: exit %d", code)
	}
}
