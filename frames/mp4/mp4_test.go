package mp4

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The demo's track as ffprobe states it: H.264, 1280×720, 1066 frames at
// 30/1 (the frames themselves: frames/libav's TestMatchesOpenCV).
func TestDemo(t *testing.T) {
	m, err := Open("../../testdata/videos/demo.mp4")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	tr := m.Track
	if tr.Codec != "avc1" || tr.Width != 1280 || tr.Height != 720 || len(tr.Samples) != 1066 || tr.FrameRateNum != 30 || tr.FrameRateDen != 1 {
		t.Errorf("track %s %dx%d, %d samples, %d/%d fps", tr.Codec, tr.Width, tr.Height, len(tr.Samples), tr.FrameRateNum, tr.FrameRateDen)
	}
	if len(tr.Config) < 7 || tr.Config[0] != 1 {
		t.Errorf("avcC record %x", tr.Config)
	}
	keys := 0
	for i, s := range tr.Samples {
		if s.Key {
			keys++
		}
		if i > 0 && s.DTS <= tr.Samples[i-1].DTS {
			t.Fatalf("sample %d: DTS %d after %d", i, s.DTS, tr.Samples[i-1].DTS)
		}
	}
	if !tr.Samples[0].Key || keys == 0 || keys == len(tr.Samples) {
		t.Errorf("%d key frames of %d (the first: %v)", keys, len(tr.Samples), tr.Samples[0].Key)
	}
	n := 0
	for {
		s, b, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != int(s.Size) || len(b) < 5 {
			t.Fatalf("sample %d: %d bytes", n, len(b))
		}
		n++
	}
	if n != 1066 {
		t.Errorf("read %d samples", n)
	}
}

// What it does not read is ErrUnsupported (the caller then uses
// libavformat): another format, an MP4 whose moov is missing.
func TestUnsupported(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.mp4")
	os.WriteFile(text, []byte("this is not a video at all, but long enough"), 0o644)
	if _, err := Open(text); !errors.Is(err, ErrUnsupported) {
		t.Errorf("text: %v", err)
	}
	b, err := os.ReadFile("../../testdata/videos/demo.mp4")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.mp4")
	os.WriteFile(cut, b[:len(b)/2], 0o644) // the demo's moov is at the end
	if _, err := Open(cut); !errors.Is(err, ErrUnsupported) {
		t.Errorf("truncated: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "none.mp4")); err == nil || errors.Is(err, ErrUnsupported) {
		t.Errorf("missing: %v", err)
	}
}
