package daemon

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/boardcam/boardcam/sight"

	"github.com/boardcam/boardcam/frames/libav"
)

// libavSource reads a video file or a network stream (rtsp, http) with
// FFmpeg's libraries inside boardcam (package frames/libav): the frames
// OpenCV's VideoCapture gave (the same libavcodec and the same swscale
// conversion), without linking OpenCV's videoio.
type libavSource struct {
	spec SourceSpec
	info SourceInfo
	pics sight.Pictures
	v    *libav.Video
	read int
}

// streamOptions are FFmpeg's options for a network stream: TCP for RTSP
// (no lost UDP packets), and how long to wait for a silent stream (µs),
// unless OPENCV_FFMPEG_CAPTURE_OPTIONS ("key;value|key;value", as
// OpenCV's FFmpeg backend read it) gives others.
func streamOptions(url string) map[string]string {
	if env := os.Getenv("OPENCV_FFMPEG_CAPTURE_OPTIONS"); env != "" {
		o := map[string]string{}
		for _, kv := range strings.Split(env, "|") {
			if k, v, ok := strings.Cut(kv, ";"); ok && k != "" {
				o[k] = v
			}
		}
		return o
	}
	if strings.HasPrefix(url, "rtsp") {
		return map[string]string{"rtsp_transport": "tcp", "timeout": "5000000"}
	}
	return map[string]string{"rw_timeout": "5000000"}
}

func (s *libavSource) Info() SourceInfo { return s.info }

func (s *libavSource) Open() error {
	s.Close()
	s.read = 0
	var v *libav.Video
	var err error
	if s.spec.Kind == KindFile {
		v, err = libav.Open(s.spec.Target)
		if err != nil {
			return fmt.Errorf("video %s: %w: FFmpeg cannot open it as a video (%v)", s.spec.Target, ErrCorrupt, err)
		}
	} else {
		v, err = libav.OpenStream(s.spec.Target, s.info.Name, streamOptions(s.spec.Target))
		if err != nil {
			return fmt.Errorf("stream %s: %w: cannot connect (address, credentials, network?): %v", s.info.Name, ErrDisconnected, err)
		}
	}
	s.v = v
	in := v.Info()
	s.info.FPS, s.info.Width, s.info.Height = in.FPS, in.Width, in.Height
	if s.spec.Kind == KindFile {
		s.info.Frames = in.Frames
	}
	return nil
}

func (s *libavSource) Read(dst sight.Image) (time.Duration, error) {
	if s.v == nil {
		return 0, fmt.Errorf("%s: %w: not open", s.info.Name, ErrDisconnected)
	}
	in := s.v.Info()
	buf, err := s.pics.BGR(dst, in.Width, in.Height)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", s.info.Name, err)
	}
	return s.after(s.v.Next(buf))
}

// ReadRaw implements rawReader: the frame Read would read, as the decoder
// made it (a video file's frames wait in the capture's queue in this form,
// half the bytes of BGR for H.264).
func (s *libavSource) ReadRaw(dst *libav.Picture) (time.Duration, error) {
	if s.v == nil {
		return 0, fmt.Errorf("%s: %w: not open", s.info.Name, ErrDisconnected)
	}
	return s.after(s.v.NextPicture(dst))
}

// after gives the position of the frame just read, or the Source error
// for err (the decoder's).
func (s *libavSource) after(err error) (time.Duration, error) {
	if err != nil {
		if s.spec.Kind != KindFile {
			return 0, fmt.Errorf("%s: %w: no frame (the stream ended or broke: %v)", s.info.Name, ErrDisconnected, err)
		}
		n := s.info.Frames
		switch {
		case s.read == 0:
			return 0, fmt.Errorf("video %s: %w: no frame could be decoded (%v)", s.spec.Target, ErrCorrupt, err)
		case !errors.Is(err, io.EOF):
			return 0, fmt.Errorf("video %s: %w: decoding stopped at frame %d of %d: %v", s.spec.Target, ErrCorrupt, s.read, n, err)
		case n > 0 && s.read < n-1:
			return 0, fmt.Errorf("video %s: %w: decoding stopped at frame %d of %d", s.spec.Target, ErrCorrupt, s.read, n)
		}
		return 0, fmt.Errorf("video %s: %w after %d frames", s.spec.Target, ErrEOF, s.read)
	}
	s.read++
	if s.spec.Kind == KindFile {
		if fps := s.info.FPS; fps > 0 {
			return time.Duration(float64(s.read-1) / fps * float64(time.Second)), nil
		}
	}
	// A stream's own time stamp of the frame: the capture sees from it the
	// frames the camera did not deliver.
	pts, _ := s.v.PTS()
	return pts, nil
}

// Skip implements frameSkipper: a file's frame the capture drops is
// decoded (the decoder needs every frame) but not converted to BGR, unless
// it may be the video's last (the capture hands the last frame to the
// analysis even when it was dropped) or the frame count is only the
// container's estimate.
func (s *libavSource) Skip() (time.Duration, bool, error) {
	if s.v == nil || s.spec.Kind != KindFile || !s.v.ExactFrames() || s.read >= s.info.Frames-1 {
		return 0, false, nil
	}
	if err := s.v.Skip(); err != nil {
		return 0, false, fmt.Errorf("video %s: %w: decoding stopped at frame %d of %d: %v", s.spec.Target, ErrCorrupt, s.read, s.info.Frames, err)
	}
	s.read++
	if fps := s.info.FPS; fps > 0 {
		return time.Duration(float64(s.read-1) / fps * float64(time.Second)), true, nil
	}
	pts, _ := s.v.PTS()
	return pts, true, nil
}

func (s *libavSource) Close() error {
	if s.v != nil {
		err := s.v.Close()
		s.v = nil
		return err
	}
	return nil
}
