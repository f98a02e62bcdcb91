package frames_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/frames"
)

// The frames equal OpenCV's VideoCapture's, byte for byte: the first 12
// frames of five corpus clips (the conversion is per frame; the decoder is
// the same libavcodec). FRAMES_ALL=1 compares every frame of every clip
// (a minute or more: not in the suite; done for docs/memory.md).
func TestMatchesOpenCV(t *testing.T) {
	clips := []string{"demo", "placement-both-lines", "arm-foul", "camera-knock", "break"}
	for i, c := range clips {
		clips[i] = "../testdata/videos/" + c + ".mp4"
	}
	limit := 12
	if os.Getenv("FRAMES_ALL") != "" {
		clips, _ = filepath.Glob("../testdata/videos/*.mp4")
		limit = -1
	}
	for _, clip := range clips {
		if _, err := os.Stat(clip); err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(clip), func(t *testing.T) { compare(t, clip, limit) })
	}
}

func compare(t *testing.T, clip string, limit int) {
	vc, err := gocv.VideoCaptureFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	v, err := frames.Open(clip)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	info := v.Info()
	if w, h := int(vc.Get(gocv.VideoCaptureFrameWidth)), int(vc.Get(gocv.VideoCaptureFrameHeight)); w != info.Width || h != info.Height {
		t.Fatalf("size %dx%d, OpenCV %dx%d", info.Width, info.Height, w, h)
	}
	if fps := vc.Get(gocv.VideoCaptureFPS); fps != info.FPS {
		t.Errorf("fps %v, OpenCV %v", info.FPS, fps)
	}
	if n := int(vc.Get(gocv.VideoCaptureFrameCount)); n != info.Frames {
		t.Errorf("frame count %d, OpenCV %d", info.Frames, n)
	}
	m := gocv.NewMat()
	defer m.Close()
	buf := make([]byte, info.FrameSize())
	n := 0
	for limit < 0 || n < limit {
		ok := vc.Read(&m) && !m.Empty()
		err := v.Next(buf)
		if !ok {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("OpenCV ended after %d frames, ffmpeg says %v", n, err)
			}
			break
		}
		if err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
		if !bytes.Equal(m.ToBytes(), buf) {
			t.Fatalf("frame %d differs from OpenCV's", n)
		}
		n++
	}
	if limit < 0 && n != info.Frames {
		t.Errorf("%d frames read, the video states %d", n, info.Frames)
	}
}

func TestErrors(t *testing.T) {
	if _, err := frames.Open("no-such.mp4"); err == nil {
		t.Error("a missing file opens")
	}
	bad := filepath.Join(t.TempDir(), "bad.mp4")
	if err := os.WriteFile(bad, []byte("not a video at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := frames.Open(bad); err == nil {
		t.Error("a file that is no video opens")
	}
	// A truncated video: the frames before the cut, then EOF or an error
	// that says where it stopped, never a short frame.
	b, err := os.ReadFile("../testdata/videos/demo.mp4")
	if err != nil {
		t.Skip(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.mp4")
	if err := os.WriteFile(cut, b[:len(b)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := frames.Open(cut)
	if err != nil {
		return // ffprobe refuses it: also fine (moov atom at the end)
	}
	defer v.Close()
	buf := make([]byte, v.Info().FrameSize())
	for i := 0; ; i++ {
		if err := v.Next(buf); err != nil {
			if errors.Is(err, io.EOF) && i == 0 {
				t.Error("no frame and no error from a truncated video")
			}
			break
		}
	}
}
