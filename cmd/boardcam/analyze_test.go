package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/events"
)

func TestAnalyzeUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze"}, "no video given"},
		{[]string{"analyze", "a.mp4", "b.mp4"}, "one video at a time"},
		{[]string{"analyze", "--fps", "-3", "a.mp4"}, "--fps"},
		{[]string{"analyze", "--south-at", "up", "a.mp4"}, "--south-at"},
		{[]string{"analyze", "--breaker", "X", "a.mp4"}, "--breaker"},
		{[]string{"analyze", "--turn", "Q", "a.mp4"}, "--turn"},
		{[]string{"analyze", "--frobnicate", "a.mp4"}, "frobnicate"},
	} {
		code, _, errOut := runCmd(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", c.args, code, errOut, c.want)
		}
	}
}

// Unreadable input: a clear error naming the file, never a crash or an
// empty success.
func TestAnalyzeBadVideo(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd(t, "", "analyze", filepath.Join(dir, "missing.mp4"))
	if code != 1 || !strings.Contains(errOut, "missing.mp4") || out != "" {
		t.Errorf("missing file: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	junk := filepath.Join(dir, "junk.mp4")
	if err := os.WriteFile(junk, []byte(strings.Repeat("this is not a video\n", 500)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCmd(t, "", "analyze", "--fps", "30", junk)
	if code != 1 || !strings.Contains(errOut, "junk.mp4") || !(strings.Contains(errOut, "cannot open") || strings.Contains(errOut, "no frame could be decoded")) || out != "" {
		t.Errorf("corrupt file: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	cal := filepath.Join(dir, "cal.json")
	if err := os.WriteFile(cal, []byte(`{"version": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCmd(t, "", "analyze", "--calibration", cal, junk)
	if code != 1 || !strings.Contains(errOut, "cal.json") {
		t.Errorf("bad calibration file: exit %d, stderr %q", code, errOut)
	}
}

// A clip of the corpus: the events of its ground truth, as JSON lines that
// are valid events, and as readable lines.
func TestAnalyzeCorpusClip(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole pipeline over a clip")
	}
	video := filepath.Join("..", "..", "testdata", "videos", "queen-covered.mp4")
	truth, err := corpus.ReadTruth(filepath.Join("..", "..", "testdata", "videos", "queen-covered.truth.json"))
	if err != nil {
		t.Skip(err)
	}
	code, out, errOut := runCmd(t, "", "analyze", "--json", video)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "analyze: done:") {
		t.Errorf("no progress report on stderr: %q", errOut)
	}
	var got []events.Event
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e events.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not a JSON event: %q: %v", line, err)
		}
		if err := e.Validate(); err != nil {
			t.Errorf("invalid event %q: %v", line, err)
		}
		got = append(got, e)
	}
	if len(got) == 0 || got[0].Type != events.Calibrated || got[0].Frame != 0 {
		t.Fatalf("the first event is not calibrated at frame 0: %v", got)
	}
	for k := 1; k < len(got); k++ {
		if got[k].T < got[k-1].T {
			t.Errorf("events out of order: %s at %.3f after %s at %.3f", got[k].Type, got[k].T, got[k-1].Type, got[k-1].T)
		}
	}
	// Every stroke event and pocket of the truth, within two frames.
	for _, te := range truth.Events {
		switch te.Type {
		case events.StrokeStart, events.FrontLineCrossed, events.Pocketed, events.StrokeEnd:
		default:
			continue
		}
		found := false
		for _, ge := range got {
			if ge.Type == te.Type && abs(ge.Frame-te.Frame) <= 2 &&
				(te.Pocket == nil || ge.Pocket != nil && *ge.Pocket == *te.Pocket) &&
				(te.Piece == nil || ge.Piece != nil && *ge.Piece == *te.Piece) &&
				(te.Side == nil || ge.Side != nil && *ge.Side == *te.Side) {
				found = true
			}
		}
		if !found {
			t.Errorf("missing %s at frame %d", te.Type, te.Frame)
		}
	}
	code, out, errOut = runCmd(t, "", "analyze", video)
	if code != 0 || !strings.Contains(out, "pocketed") || !strings.Contains(out, "queen Q into pocket") || !strings.Contains(out, "E strikes") {
		t.Errorf("readable output: exit %d\n%s\n%s", code, out, errOut)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// --decoder ffmpeg decodes in an ffmpeg process: the same frames, so the
// same events, byte for byte (docs/memory.md says what it costs).
func TestAnalyzeFFmpegDecoderSameOutput(t *testing.T) {
	clip := "../../testdata/videos/placement-both-lines.mp4"
	code, want, errOut := runCmd(t, "", "analyze", "--json", clip)
	if code != 0 {
		t.Fatalf("opencv: %d %s", code, errOut)
	}
	code, got, errOut := runCmd(t, "", "analyze", "--json", "--decoder", "ffmpeg", "--progress", clip)
	if code != 0 {
		t.Fatalf("ffmpeg: %d %s", code, errOut)
	}
	if got != want || want == "" {
		t.Errorf("events differ:\nffmpeg:\n%s\nopencv:\n%s", got, want)
	}
	if !strings.Contains(errOut, "decoder process's peak resident memory") {
		t.Errorf("--progress does not report the decoder's memory: %s", errOut)
	}
	if code, _, errOut := runCmd(t, "", "analyze", "--decoder", "vlc", clip); code == 0 || !strings.Contains(errOut, "unknown decoder") {
		t.Errorf("--decoder vlc: %d %s", code, errOut)
	}
}
