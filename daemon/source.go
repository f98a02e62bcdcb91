package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boardcam/boardcam/sight"
)

// Errors of a Source, to be tested with errors.Is. Every error a Source
// returns wraps one of them.
var (
	// ErrEOF: a file has no more frames.
	ErrEOF = errors.New("end of video")
	// ErrStalled: no frame arrived for the stall timeout.
	ErrStalled = errors.New("no frame for too long (stalled)")
	// ErrDisconnected: the device or the stream is gone, or cannot be
	// opened (unplugged, unreachable, busy).
	ErrDisconnected = errors.New("disconnected")
	// ErrCorrupt: the file cannot be decoded (corrupt, truncated, not a
	// video).
	ErrCorrupt = errors.New("corrupt or truncated video")
	// ErrUnsupported: this OpenCV cannot read the source at all (e.g. built
	// without GStreamer).
	ErrUnsupported = errors.New("not supported by this build")
)

// SourceInfo describes a source.
type SourceInfo struct {
	// Name is what logs and the web show: the file, device or URL.
	Name string
	// Kind is file, v4l2, gstreamer, rtsp or events.
	Kind string
	// Live is true for cameras and streams: they can stall and be
	// reconnected, and frames are dropped when the pipeline is busy.
	Live bool
	// Identity names a replayable source in the journal (a file's absolute
	// path and size); empty for live sources, which cannot be replayed.
	Identity string
	// FPS, Width and Height are what the source reports (0: unknown).
	FPS           float64
	Width, Height int
	// Frames is a file's frame count (0: unknown).
	Frames int
	// Applied and Refused say, after Open, which of the settings asked of
	// a camera (size, frame rate, exposure …) it took and which it did
	// not; Pipeline is the GStreamer pipeline that opened (libcamera).
	Applied, Refused []string
	Pipeline         string
}

// Source delivers frames. Open connects (again); Read blocks until the
// next frame and fills dst (8-bit BGR, a picture of Sight.Pictures),
// returning its position in the
// stream (a live source: the camera's own time stamp, or 0 when it has
// none); Close releases the device. Read and Open are called from one
// goroutine at a time; Close may not be called while a Read is blocked.
type Source interface {
	Open() error
	Read(dst sight.Image) (pts time.Duration, err error)
	Close() error
	Info() SourceInfo
}

// frameSkipper is a Source that can read a frame without making its
// picture, for a frame the capture drops (no buffer free): Skip reads the
// next frame as Read would and returns its position, or ok false, having
// read nothing, when it cannot skip that frame (then Read is called).
type frameSkipper interface {
	Skip() (pts time.Duration, ok bool, err error)
}

// SourceSpec is a parsed source URI.
type SourceSpec struct {
	Kind string
	// Target is the path, device, URL or pipeline.
	Target string
}

// ParseSource reads a source URI: a file path, /dev/videoN, rtsp:// or
// http(s):// URLs, "gst:PIPELINE", "events:FILE"; kind forces the kind
// ("" or auto: from the URI).
func ParseSource(uri, kind string) (SourceSpec, error) {
	uri = strings.TrimSpace(uri)
	if uri == "" {
		return SourceSpec{}, errors.New("no source")
	}
	if kind == "" || kind == KindAuto {
		switch {
		case strings.HasPrefix(uri, "events:"):
			return SourceSpec{Kind: KindEvents, Target: strings.TrimPrefix(uri, "events:")}, nil
		case strings.HasPrefix(uri, "gst:"):
			return SourceSpec{Kind: KindGStreamer, Target: strings.TrimSpace(strings.TrimPrefix(uri, "gst:"))}, nil
		case strings.HasPrefix(uri, "rtsp://"), strings.HasPrefix(uri, "rtsps://"), strings.HasPrefix(uri, "http://"), strings.HasPrefix(uri, "https://"):
			return SourceSpec{Kind: KindRTSP, Target: uri}, nil
		case strings.HasPrefix(uri, "/dev/video"):
			return SourceSpec{Kind: KindV4L2, Target: uri}, nil
		case uri == "libcamera" || strings.HasPrefix(uri, "libcamera:"):
			return SourceSpec{Kind: KindLibcamera, Target: strings.TrimPrefix(strings.TrimPrefix(uri, "libcamera"), ":")}, nil
		case strings.Contains(uri, " ! "):
			return SourceSpec{Kind: KindGStreamer, Target: uri}, nil
		case strings.HasSuffix(uri, ".jsonl") || strings.HasSuffix(uri, ".ndjson"):
			return SourceSpec{Kind: KindEvents, Target: uri}, nil
		}
		return SourceSpec{Kind: KindFile, Target: uri}, nil
	}
	switch kind {
	case KindLibcamera:
		return SourceSpec{Kind: kind, Target: strings.TrimPrefix(strings.TrimPrefix(uri, "libcamera"), ":")}, nil
	case KindFile, KindV4L2, KindGStreamer, KindRTSP:
		return SourceSpec{Kind: kind, Target: strings.TrimPrefix(strings.TrimPrefix(uri, "gst:"), "events:")}, nil
	case KindEvents:
		return SourceSpec{Kind: kind, Target: strings.TrimPrefix(uri, "events:")}, nil
	}
	return SourceSpec{}, fmt.Errorf("unknown source kind %q", kind)
}

// CaptureOptions are asked of a device.
type CaptureOptions struct {
	Width, Height int
	FPS           float64
	// Format is a V4L2 pixel format ("mjpg", "yuyv"; "" the camera's).
	Format string
	// Exposure is the exposure time asked of a camera (0: none asked);
	// ExposureAuto asks for the camera's automatic exposure instead.
	Exposure     time.Duration
	ExposureAuto bool
	// Focus is asked of a libcamera camera with a focus motor.
	Focus Focus
}

// NewCaptureSource returns the Source of a video file or an rtsp/http
// stream (FFmpeg's libraries in boardcam: libavSource), or of a camera or
// GStreamer pipeline (a gst-launch-1.0 process: gstSource). Both decode
// without OpenCV into pictures of pics (Sight.Pictures). A pipeline
// given by the user must end in appsink (what OpenCV's GStreamer backend
// took; the source puts its own sink there).
func NewCaptureSource(spec SourceSpec, o CaptureOptions, pics sight.Pictures) (Source, error) {
	if pics == nil {
		return nil, errors.New("no pictures to read frames into (Sight.Pictures)")
	}
	info := SourceInfo{Name: spec.Target, Kind: spec.Kind, Live: spec.Kind != KindFile}
	switch spec.Kind {
	case KindFile:
		abs, err := filepath.Abs(spec.Target)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("video %s: %w", spec.Target, err)
		}
		if st.IsDir() {
			return nil, fmt.Errorf("video %s is a directory", spec.Target)
		}
		info.Identity = fmt.Sprintf("file:%s#%d", abs, st.Size())
		return &libavSource{spec: spec, info: info, pics: pics}, nil
	case KindRTSP:
		info.Name = redactURL(spec.Target)
		return &libavSource{spec: spec, info: info, pics: pics}, nil
	case KindV4L2:
		s := &gstSource{spec: spec, opt: o, info: info, pics: pics}
		s.pipelines, s.omits = v4l2Pipelines(spec.Target, o)
		return s, nil
	case KindGStreamer:
		if _, err := launchPipeline(spec.Target); err != nil {
			return nil, err
		}
		s := &gstSource{spec: spec, opt: o, info: info, pics: pics, pipelines: []string{spec.Target}}
		if o.Exposure > 0 && strings.Contains(spec.Target, "libcamerasrc") && !strings.Contains(spec.Target, "exposure") {
			s.notes = append(s.notes, fmt.Sprintf("exposure %s: the pipeline is used as given and sets none on libcamerasrc (add exposure-time=%d, or use source libcamera)", o.Exposure, o.Exposure.Microseconds()))
		}
		return s, nil
	case KindLibcamera:
		s := &gstSource{spec: spec, opt: o, info: info, pics: pics}
		s.pipelines, s.omits = libcameraPipelineList(spec.Target, o)
		s.info.Name = "libcamera"
		if spec.Target != "" {
			s.info.Name += ":" + spec.Target
		}
		return s, nil
	}
	return nil, fmt.Errorf("source kind %q is not a video source", spec.Kind)
}

// redactURL hides a password in a URL for logs.
func redactURL(u string) string {
	if at := strings.Index(u, "@"); at > 0 {
		if s := strings.Index(u, "://"); s > 0 && s < at {
			if c := strings.Index(u[s+3:at], ":"); c >= 0 {
				return u[:s+3+c] + ":***" + u[at:]
			}
		}
	}
	return u
}
