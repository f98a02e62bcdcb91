package synth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/corpus"
)

const tinyCheckSpec = `# A tiny clip for Check's tests.
fps: 30
arrangement:
  positions: {W1: [0, 0], B1: [100, 50]}
timeline:
  - wait: 0.3
render:
  width: 320
  height: 180
  sensor: {supersample: 1}
expect:
  covers: []
`

// Check compares what the spec and the code determine (the frames and the
// truth) and takes a video that another machine's x264 encoded into other
// bytes from the same frames for a note, not a difference; a changed frame,
// a video that is not its truth's, or (in a truth without the frames' hash)
// other video bytes are differences.
func TestCheckComparesFramesNotEncoderBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a clip")
	}
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed")
	}
	dir := t.TempDir()
	specPath := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(specPath, []byte(tinyCheckSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	sp, err := corpus.LoadSpec(specPath)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Generate(sp, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Clip.FramesSHA256) != 64 {
		t.Fatalf("frames_sha256 %q", tr.Clip.FramesSHA256)
	}
	check := func(what string) CheckResult {
		t.Helper()
		res, err := Check(sp, dir, t.TempDir(), Options{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return res
	}
	if res := check("as generated"); len(res.Diffs)+len(res.Notes) > 0 {
		t.Errorf("as generated: %+v", res)
	}

	// Another machine's encoder: the same frames, other bytes (here a
	// re-encoding), and the truth records that video.
	video := corpus.VideoFile(dir, "tiny")
	other := filepath.Join(dir, "other.mp4")
	out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", video, "-c:v", "libx264", "-crf", "30",
		"-pix_fmt", "yuv420p", "-threads", "1", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", "-y", other).CombinedOutput()
	if err != nil {
		t.Fatalf("re-encoding: %v: %s", err, out)
	}
	if err := os.Rename(other, video); err != nil {
		t.Fatal(err)
	}
	rewrite := func(edit func(*corpus.Truth)) {
		t.Helper()
		p, err := corpus.FindTruth(dir, "tiny")
		if err != nil {
			t.Fatal(err)
		}
		c, err := corpus.ReadTruth(p)
		if err != nil {
			t.Fatal(err)
		}
		edit(c)
		data, _, err := c.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, size, err := corpus.FileSHA256(video)
	if err != nil {
		t.Fatal(err)
	}
	rewrite(func(c *corpus.Truth) { c.Clip.SHA256, c.Clip.Bytes = sum, size })
	res := check("encoded elsewhere")
	if len(res.Diffs) > 0 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "tiny.mp4 is encoded differently on this machine from identical frames") {
		t.Errorf("encoded elsewhere: %+v", res)
	}

	// The frames the code renders changed.
	frames := tr.Clip.FramesSHA256
	rewrite(func(c *corpus.Truth) { c.Clip.FramesSHA256 = strings.Repeat("0", 64) })
	if res := check("other frames"); len(res.Diffs) != 1 || !strings.Contains(res.Diffs[0], "frames: the rendered frames differ") {
		t.Errorf("other frames: %+v", res)
	}

	// Anything else in the truth changed.
	rewrite(func(c *corpus.Truth) { c.Clip.FramesSHA256 = frames; c.Clip.Seed++ })
	if res := check("other truth"); len(res.Diffs) != 1 || !strings.Contains(res.Diffs[0], "truth: tiny.truth.json differs") {
		t.Errorf("other truth: %+v", res)
	}

	// A truth from before the frames were hashed: only the video's bytes
	// can tell, and they differ.
	rewrite(func(c *corpus.Truth) { c.Clip.FramesSHA256 = ""; c.Clip.Seed-- })
	res = check("no frames hash")
	if len(res.Diffs) != 2 || !strings.Contains(res.Diffs[0], "video: tiny.mp4 differs") || !strings.Contains(res.Diffs[1], "truth: tiny.truth.json differs") {
		t.Errorf("no frames hash: %+v", res)
	}

	// A video that is not the one its truth describes.
	rewrite(func(c *corpus.Truth) { c.Clip.FramesSHA256 = frames })
	f, err := os.OpenFile(video, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0})
	f.Close()
	if res := check("changed video"); len(res.Diffs) != 1 || !strings.Contains(res.Diffs[0], "differs from the video its truth describes") {
		t.Errorf("changed video: %+v", res)
	}
}
