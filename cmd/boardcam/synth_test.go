package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/corpus"
)

const tinySpec = `# A tiny clip for the command's tests.
fps: 30
arrangement:
  positions: {W1: [0, 0], B1: [100, 50]}
timeline:
  - wait: 0.5
render:
  width: 320
  height: 180
  sensor: {supersample: 1}
expect:
  covers: [fps_60]
`

// synth writes a clip and its truth, --check passes on them and fails,
// naming the clip, once a byte changed.
func TestSynthWritesAndChecks(t *testing.T) {
	dir := t.TempDir()
	spec := strings.Replace(tinySpec, "covers: [fps_60]", "covers: []", 1)
	if err := os.WriteFile(filepath.Join(dir, "tiny.yaml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "", "synth", "--jobs", "1", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "tiny") || !strings.Contains(errOut, "tiny: done") {
		t.Errorf("output %q / %q", out, errOut)
	}
	tr, err := corpus.ReadTruth(corpus.TruthFile(dir, "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Clip.Frames != 31 || tr.Clip.Width != 320 || len(tr.Frames) != 31 || tr.Clip.SHA256 == "" {
		t.Errorf("truth %+v", tr.Clip)
	}
	code, out, errOut = runCmd(t, "", "synth", "--check", "--quiet", dir)
	if code != 0 || !strings.Contains(out, "all 1 clips regenerate bit for bit") {
		t.Fatalf("check: exit %d: %s %s", code, out, errOut)
	}
	f, err := os.OpenFile(corpus.VideoFile(dir, "tiny"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0})
	f.Close()
	code, out, errOut = runCmd(t, "", "synth", "--check", "--quiet", dir)
	if code != 1 || !strings.Contains(errOut, "differ from the committed files: tiny") || !strings.Contains(out, "tiny: video: tiny.mp4 differs") {
		t.Errorf("check after a change: exit %d: %s %s", code, out, errOut)
	}
}

// A spec that does not show what it expects is refused before anything is
// rendered; --dry-run says so too.
func TestSynthRefusesDrift(t *testing.T) {
	dir := t.TempDir()
	spec := strings.Replace(tinySpec, "covers: [fps_60]", "covers: [fps_60]\n  pocketed: [W1@NE]", 1)
	os.WriteFile(filepath.Join(dir, "tiny.yaml"), []byte(spec), 0o644)
	for _, args := range [][]string{{"synth", "--quiet", dir}, {"synth", "--dry-run", dir}} {
		code, _, errOut := runCmd(t, "", args...)
		if code != 1 || !strings.Contains(errOut, "expect.pocketed: want [W1@NE], the truth has []") || !strings.Contains(errOut, "covers fps_60: fps is not 60") {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
	if _, err := os.Stat(corpus.VideoFile(dir, "tiny")); err == nil {
		t.Error("a video was written for a spec that failed")
	}
}

func TestSynthUsage(t *testing.T) {
	for _, args := range [][]string{
		{"synth", "--jobs", "0"},
		{"synth", "--check", "--dry-run"},
		{"synth", "a", "b"},
		{"synth", "--only", "nosuchclip", "../../testdata/videos"},
	} {
		if code, _, errOut := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
	if code, _, errOut := runCmd(t, "", "synth", "/nonexistent/dir"); code != 1 || !strings.Contains(errOut, "not a directory") {
		t.Errorf("missing dir: exit %d: %s", code, errOut)
	}
}

// The committed corpus regenerates bit for bit (one short clip, to keep
// the suite fast; 'boardcam synth --check' checks them all).
func TestSynthCheckCommittedClip(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a clip")
	}
	code, out, errOut := runCmd(t, "", "synth", "--check", "--quiet", "--only", "arm-foul", "../../testdata/videos")
	if code != 0 || !strings.Contains(out, "all 1 clips regenerate bit for bit") {
		t.Errorf("exit %d: %s %s", code, out, errOut)
	}
}
