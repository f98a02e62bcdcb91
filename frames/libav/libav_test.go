package libav_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/frames/libav"
	"strings"
	"time"
)

// The same bytes as OpenCV's VideoCapture: the first 30 frames of five
// clips; FRAMES_ALL=1 every frame of every clip.
func TestMatchesOpenCV(t *testing.T) {
	clips, limit := framesClips("demo", "placement-both-lines", "arm-foul", "camera-knock", "break")
	for _, clip := range clips {
		t.Run(filepath.Base(clip), func(t *testing.T) {
			vc, err := gocv.VideoCaptureFile(clip)
			if err != nil {
				t.Fatal(err)
			}
			defer vc.Close()
			v, err := libav.Open(clip)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			in := v.Info()
			if w, h, fps, n := int(vc.Get(gocv.VideoCaptureFrameWidth)), int(vc.Get(gocv.VideoCaptureFrameHeight)), vc.Get(gocv.VideoCaptureFPS), int(vc.Get(gocv.VideoCaptureFrameCount)); w != in.Width || h != in.Height || fps != in.FPS || n != in.Frames {
				t.Errorf("info %+v, OpenCV %dx%d %v fps %d frames", in, w, h, fps, n)
			}
			m := gocv.NewMat()
			defer m.Close()
			buf := make([]byte, in.FrameSize())
			for n := 0; limit < 0 || n < limit; n++ {
				ok := vc.Read(&m) && !m.Empty()
				err := v.Next(buf)
				if !ok {
					if !errors.Is(err, io.EOF) {
						t.Fatalf("OpenCV ended after %d frames, libav says %v", n, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("frame %d: %v", n, err)
				}
				if !bytes.Equal(m.ToBytes(), buf) {
					t.Fatalf("frame %d differs from OpenCV's", n)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	if _, err := libav.Open("no-such.mp4"); err == nil {
		t.Error("a missing file opens")
	}
	bad := filepath.Join(t.TempDir(), "bad.mp4")
	if err := os.WriteFile(bad, []byte("not a video at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := libav.Open(bad); err == nil {
		t.Error("a file that is no video opens")
	}
	v, err := libav.Open("../../testdata/videos/demo.mp4")
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Next(make([]byte, 10)); err == nil {
		t.Error("a short buffer accepted")
	}
	v.Close()
	if err := v.Next(make([]byte, v.Info().FrameSize())); err == nil {
		t.Error("Next after Close")
	}
}

// PTS is each frame's position; OpenStream takes FFmpeg's options (a
// file is a stream too).
func TestStreamAndPTS(t *testing.T) {
	v, err := libav.OpenStream("../../testdata/videos/demo.mp4", "demo", map[string]string{"probesize": "5000000", "fflags": "+genpts"})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if _, ok := v.PTS(); ok {
		t.Error("a time stamp before the first frame")
	}
	buf := make([]byte, v.Info().FrameSize())
	fps := v.Info().FPS
	for i := 0; i < 4; i++ {
		if err := v.Next(buf); err != nil {
			t.Fatal(err)
		}
		pts, ok := v.PTS()
		want := time.Duration(float64(i) / fps * float64(time.Second))
		if d := pts - want; !ok || d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("frame %d: pts %v (%v), want %v", i, pts, ok, want)
		}
	}
	if v.Frames() != 4 {
		t.Errorf("Frames() = %d", v.Frames())
	}
	if _, err := libav.OpenStream("rtsp://127.0.0.1:1/none", "rtsp://127.0.0.1:1/none", map[string]string{"rtsp_transport": "tcp", "timeout": "500000"}); err == nil || !strings.Contains(err.Error(), "rtsp://127.0.0.1:1/none") {
		t.Errorf("an unreachable stream: %v", err)
	}
}

// Skip decodes a frame without converting it: the frames after skipped
// ones are the bytes Next gives reading every frame, and Frames and PTS
// count the skipped ones; both through the MP4 demuxer and libavformat.
func TestSkip(t *testing.T) {
	const path = "../../testdata/videos/demo.mp4"
	for _, viaFormat := range []bool{false, true} {
		open := func() *libav.Video {
			var v *libav.Video
			var err error
			if viaFormat {
				v, err = libav.OpenStream(path, "demo", nil)
			} else {
				v, err = libav.Open(path)
			}
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		all, some := open(), open()
		if all.ExactFrames() == viaFormat {
			t.Errorf("libavformat %v: ExactFrames %v", viaFormat, all.ExactFrames())
		}
		a := make([]byte, all.Info().FrameSize())
		b := make([]byte, some.Info().FrameSize())
		for i := 0; i < 40; i++ {
			if err := all.Next(a); err != nil {
				t.Fatal(err)
			}
			var err error
			if i >= 5 && i < 30 {
				err = some.Skip()
			} else {
				err = some.Next(b)
			}
			if err != nil {
				t.Fatal(err)
			}
			pa, _ := all.PTS()
			pb, _ := some.PTS()
			if pa != pb || all.Frames() != some.Frames() {
				t.Fatalf("libavformat %v, frame %d: PTS %v / %v, Frames %d / %d", viaFormat, i, pa, pb, all.Frames(), some.Frames())
			}
			if (i < 5 || i >= 30) && !bytes.Equal(a, b) {
				t.Fatalf("libavformat %v: frame %d differs after skipping", viaFormat, i)
			}
		}
		all.Close()
		some.Close()
	}
}

// A frame decoded as the decoder made it (NextPicture) and converted later
// (Converter) is the bytes Next gives: the first 30 frames of three clips
// (a 1080p one among them), through the MP4 demuxer and libavformat, the
// pictures converted one to three frames after they were decoded and
// copied once (as the daemon's queue does); FRAMES_ALL=1 every frame of
// every clip.
func TestPictureConvertsAsNext(t *testing.T) {
	clips, limit := framesClips("demo", "break", "arm-foul")
	for _, clip := range clips {
		for _, viaFormat := range []bool{false, true} {
			if viaFormat && !strings.HasSuffix(clip, "demo.mp4") {
				continue
			}
			t.Run(filepath.Base(clip), func(t *testing.T) {
				open := func() *libav.Video {
					var v *libav.Video
					var err error
					if viaFormat {
						v, err = libav.OpenStream(clip, clip, nil)
					} else {
						v, err = libav.Open(clip)
					}
					if err != nil {
						t.Fatal(err)
					}
					return v
				}
				ref, raw := open(), open()
				defer ref.Close()
				defer raw.Close()
				var conv libav.Converter
				defer conv.Close()
				pics := []*libav.Picture{libav.NewPicture(), libav.NewPicture(), libav.NewPicture()}
				defer func() {
					for _, p := range pics {
						p.Close()
					}
				}()
				spare := libav.NewPicture()
				defer spare.Close()
				var want [3][]byte
				for i := range want {
					want[i] = make([]byte, ref.Info().FrameSize())
				}
				got := make([]byte, ref.Info().FrameSize())
				// check converts the picture of frame n (decoded three
				// frames ago), through a copy every other frame.
				checked := 0
				check := func(n int) {
					p, src := pics[n%3], pics[n%3]
					if n%2 == 0 {
						if err := spare.CopyFrom(p); err != nil {
							t.Fatal(err)
						}
						p.Release()
						src = spare
					}
					if err := conv.Convert(src, got); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want[n%3]) {
						t.Fatalf("frame %d converted later differs from Next's", n)
					}
					checked++
				}
				n := 0
				defer func() {
					if !t.Failed() {
						for k := checked; k < n; k++ {
							check(k)
						}
						if checked != n || n == 0 {
							t.Fatalf("%d of %d frames checked", checked, n)
						}
					}
				}()
				for ; limit < 0 || n < limit; n++ {
					p := pics[n%3]
					if n >= 3 {
						check(n - 3)
					}
					errRef, errRaw := ref.Next(want[n%3]), raw.NextPicture(p)
					if errors.Is(errRef, io.EOF) && errors.Is(errRaw, io.EOF) {
						return
					}
					if errRef != nil || errRaw != nil {
						t.Fatalf("frame %d: Next %v, NextPicture %v", n, errRef, errRaw)
					}
					if pa, _ := ref.PTS(); pa != mustPTS(raw) {
						t.Fatalf("frame %d: PTS %v and %v", n, pa, mustPTS(raw))
					}
					if w, h := p.Size(); w != ref.Info().Width || h != ref.Info().Height || p.Bytes() >= ref.Info().FrameSize() {
						t.Fatalf("picture %dx%d of %d bytes for a %dx%d frame of %d BGR bytes", w, h, p.Bytes(), ref.Info().Width, ref.Info().Height, ref.Info().FrameSize())
					}
				}
			})
		}
	}
}

func mustPTS(v *libav.Video) time.Duration {
	p, _ := v.PTS()
	return p
}

// framesClips gives the corpus clips named and how many of their first
// frames a test compares (30); with FRAMES_ALL=1 every clip of the corpus
// and every frame (limit -1).
func framesClips(names ...string) (clips []string, limit int) {
	if os.Getenv("FRAMES_ALL") != "" {
		clips, _ = filepath.Glob("../../testdata/videos/*.mp4")
		return clips, -1
	}
	for _, c := range names {
		clips = append(clips, "../../testdata/videos/"+c+".mp4")
	}
	return clips, 30
}

// ScaleYUV420 gives the picture Scale gives, as a JPEG's YCbCr: the
// planes, turned back into BGR by JFIF's formulas (BT.601, full range),
// are Scale's BGR pixels within rounding and the chroma's half
// resolution; a plane left in video range (16–235), or Cb and Cr
// swapped, is far off.
func TestScaleYUV420AsScale(t *testing.T) {
	v, err := libav.Open("../../testdata/videos/demo.mp4")
	if err != nil {
		t.Skip(err)
	}
	defer v.Close()
	p := libav.NewPicture()
	defer p.Close()
	var conv, yconv libav.Converter
	defer conv.Close()
	defer yconv.Close()
	const w, h = 960, 540
	cw, ch := w/2, h/2
	bgr := make([]byte, w*h*3)
	y, cb, cr := make([]byte, w*h), make([]byte, cw*ch), make([]byte, cw*ch)
	for i := 0; i < 60; i++ {
		if err := v.NextPicture(p); err != nil {
			t.Fatal(err)
		}
		if i%30 != 0 {
			continue
		}
		if err := conv.Scale(p, bgr, w, h); err != nil {
			t.Fatal(err)
		}
		if err := yconv.ScaleYUV420(p, y, cb, cr, w, h); err != nil {
			t.Fatal(err)
		}
		lo, hi := 255, 0
		sum, n := 0.0, 0
		for r := 0; r < h; r++ {
			for c := 0; c < w; c++ {
				Y := float64(y[r*w+c])
				U := float64(cb[r/2*cw+c/2]) - 128
				V := float64(cr[r/2*cw+c/2]) - 128
				lo, hi = min(lo, int(y[r*w+c])), max(hi, int(y[r*w+c]))
				for k, x := range []float64{Y + 1.772*U, Y - 0.344136*U - 0.714136*V, Y + 1.402*V} {
					d := math.Abs(math.Round(min(max(x, 0), 255)) - float64(bgr[(r*w+c)*3+k]))
					sum += d
					n++
				}
			}
		}
		mean := sum / float64(n)
		t.Logf("frame %d: |YCbCr → BGR − Scale| mean %.2f levels; Y %d–%d", i, mean, lo, hi)
		if mean > 2 {
			t.Errorf("frame %d: the YUV planes are %.2f levels from Scale's picture on average", i, mean)
		}
	}
	if err := yconv.ScaleYUV420(p, y, cb[:10], cr, w, h); err == nil {
		t.Error("a short plane: no error")
	}
}
