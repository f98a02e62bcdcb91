package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gocv.io/x/gocv"
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
// next frame and fills dst (8-bit BGR), returning its position in the
// stream (a live source: the camera's own time stamp, or 0 when it has
// none); Close releases the device. Read and Open are called from one
// goroutine at a time; Close may not be called while a Read is blocked.
type Source interface {
	Open() error
	Read(dst *gocv.Mat) (pts time.Duration, err error)
	Close() error
	Info() SourceInfo
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

// NewCaptureSource returns a Source read with OpenCV's VideoCapture: a file
// (FFmpeg), a V4L2 device, a GStreamer pipeline (which must end in
// appsink) or an RTSP/HTTP stream (FFmpeg).
func NewCaptureSource(spec SourceSpec, o CaptureOptions) (Source, error) {
	c := &captureSource{spec: spec, opt: o}
	c.info = SourceInfo{Name: spec.Target, Kind: spec.Kind, Live: spec.Kind != KindFile}
	switch spec.Kind {
	case KindFile:
		c.api = gocv.VideoCaptureFFmpeg
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
		c.info.Identity = fmt.Sprintf("file:%s#%d", abs, st.Size())
	case KindV4L2:
		c.api = gocv.VideoCaptureV4L2
	case KindGStreamer:
		c.api = gocv.VideoCaptureGstreamer
		if !strings.Contains(spec.Target, "appsink") {
			return nil, fmt.Errorf("GStreamer pipeline %q must end in appsink (e.g. \"libcamerasrc ! video/x-raw,width=1280,height=720 ! videoconvert ! appsink\")", spec.Target)
		}
		c.pipelines = []string{spec.Target}
		if o.Exposure > 0 && strings.Contains(spec.Target, "libcamerasrc") && !strings.Contains(spec.Target, "exposure") {
			c.notes = append(c.notes, fmt.Sprintf("exposure %s: the pipeline is used as given and sets none on libcamerasrc (add exposure-time=%d, or use source libcamera)", o.Exposure, o.Exposure.Microseconds()))
		}
	case KindLibcamera:
		c.api = gocv.VideoCaptureGstreamer
		c.pipelines, c.omits = libcameraPipelineList(spec.Target, o)
		c.info.Name = "libcamera"
		if spec.Target != "" {
			c.info.Name += ":" + spec.Target
		}
	case KindRTSP:
		c.api = gocv.VideoCaptureFFmpeg
		c.info.Name = redactURL(spec.Target)
	default:
		return nil, fmt.Errorf("source kind %q is not read with OpenCV", spec.Kind)
	}
	return c, nil
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

type captureSource struct {
	spec SourceSpec
	opt  CaptureOptions
	api  gocv.VideoCaptureAPI
	info SourceInfo
	vc   *gocv.VideoCapture
	read int // frames read since Open
	// pipelines are the GStreamer pipelines to try, best first.
	pipelines []string
	// omits says what each pipeline leaves out of what was asked.
	omits [][]string
	// open opens a capture (default: OpenCV's); tests replace it.
	open func(target string, api gocv.VideoCaptureAPI) (*gocv.VideoCapture, error)
	// notes are said at every Open (settings the source cannot apply).
	notes []string
}

func (c *captureSource) Info() SourceInfo { return c.info }

var ffmpegOptionsOnce sync.Once

func (c *captureSource) Open() error {
	if c.vc != nil {
		c.vc.Close()
		c.vc = nil
	}
	c.read = 0
	if c.spec.Kind == KindRTSP {
		// Bound how long FFmpeg waits for a silent stream (microseconds),
		// and prefer TCP, unless the user set the options already.
		ffmpegOptionsOnce.Do(func() {
			if os.Getenv("OPENCV_FFMPEG_CAPTURE_OPTIONS") == "" {
				os.Setenv("OPENCV_FFMPEG_CAPTURE_OPTIONS", "rtsp_transport;tcp|stimeout;5000000|timeout;5000000")
			}
		})
	}
	c.info.Applied, c.info.Refused = nil, append([]string(nil), c.notes...)
	targets := c.pipelines
	if len(targets) == 0 {
		targets = []string{c.spec.Target}
	}
	open := c.open
	if open == nil {
		open = gocv.VideoCaptureFileWithAPI
	}
	var vc *gocv.VideoCapture
	for i, t := range targets {
		v, err := open(t, c.api)
		if err == nil && v != nil && v.IsOpened() {
			vc = v
			if len(c.pipelines) > 0 {
				c.info.Pipeline = t
			}
			if c.spec.Kind == KindLibcamera && i < len(c.omits) {
				for _, o := range c.omits[i] {
					switch o {
					case "exposure":
						c.info.Refused = append(c.info.Refused, fmt.Sprintf("exposure %s: this libcamera has no exposure-time property on libcamerasrc (libcamera 0.3 or later has); the camera keeps its automatic exposure and fast strokes may blur", c.opt.Exposure))
					case "focus":
						c.info.Refused = append(c.info.Refused, fmt.Sprintf("focus %s: this libcamera or camera refuses af-mode/lens-position on libcamerasrc (a camera without a focus motor, or libcamera before 0.3); focus the lens by hand", c.opt.Focus))
					}
				}
			}
			break
		}
		if v != nil {
			v.Close()
		}
	}
	if vc == nil {
		return c.openError()
	}
	if c.spec.Kind == KindV4L2 {
		a, r := configureV4L2(vc, c.opt)
		c.info.Applied, c.info.Refused = a, append(c.info.Refused, r...)
	}
	c.vc = vc
	c.info.FPS = vc.Get(gocv.VideoCaptureFPS)
	c.info.Width = int(vc.Get(gocv.VideoCaptureFrameWidth))
	c.info.Height = int(vc.Get(gocv.VideoCaptureFrameHeight))
	if c.spec.Kind == KindFile {
		c.info.Frames = int(vc.Get(gocv.VideoCaptureFrameCount))
	}
	return nil
}

// openError explains why OpenCV could not open the source.
func (c *captureSource) openError() error {
	switch c.spec.Kind {
	case KindFile:
		return fmt.Errorf("video %s: %w: OpenCV (FFmpeg) cannot open it as a video", c.spec.Target, ErrCorrupt)
	case KindV4L2:
		if _, err := os.Stat(c.spec.Target); err != nil {
			return fmt.Errorf("camera %s: %w: %v (is it plugged in? ls /dev/video*)", c.spec.Target, ErrDisconnected, err)
		}
		if f, err := os.Open(c.spec.Target); err != nil {
			hint := ""
			if errors.Is(err, os.ErrPermission) {
				hint = " (add the user to the video group: sudo adduser $USER video)"
			}
			return fmt.Errorf("camera %s: %w: %v%s", c.spec.Target, ErrDisconnected, err, hint)
		} else {
			f.Close()
		}
		return fmt.Errorf("camera %s: %w: OpenCV's V4L2 backend cannot open it (busy, or not a capture device? v4l2-ctl --list-devices)", c.spec.Target, ErrDisconnected)
	case KindGStreamer, KindLibcamera:
		if !GStreamerAvailable() {
			return fmt.Errorf("GStreamer pipeline: %w: OpenCV cannot run even the test pipeline \"videotestsrc num-buffers=1 ! videoconvert ! appsink\": this OpenCV was built without GStreamer, or the GStreamer base plugins are missing (apt install gstreamer1.0-plugins-base gstreamer1.0-plugins-good)", ErrUnsupported)
		}
		if c.spec.Kind == KindLibcamera {
			return fmt.Errorf("libcamera: %w: no camera module answers through libcamerasrc (is it connected and enabled? libcamera-hello --list-cameras; apt install gstreamer1.0-libcamera)", ErrDisconnected)
		}
		return fmt.Errorf("GStreamer pipeline %q: %w: it does not start (check it with gst-launch-1.0, replacing appsink by fakesink; for a Pi camera module: apt install gstreamer1.0-libcamera)", c.spec.Target, ErrDisconnected)
	case KindRTSP:
		return fmt.Errorf("stream %s: %w: cannot connect (address, credentials, network?)", c.info.Name, ErrDisconnected)
	}
	return fmt.Errorf("%s: %w", c.spec.Target, ErrDisconnected)
}

var (
	gstOnce sync.Once
	gstOK   bool
)

// GStreamerAvailable reports whether OpenCV can run a GStreamer pipeline
// here (it tries a one-frame test pipeline once).
func GStreamerAvailable() bool {
	gstOnce.Do(func() {
		vc, err := gocv.VideoCaptureFileWithAPI("videotestsrc num-buffers=1 ! video/x-raw,width=64,height=48 ! videoconvert ! appsink", gocv.VideoCaptureGstreamer)
		if err != nil || vc == nil {
			return
		}
		defer vc.Close()
		if !vc.IsOpened() {
			return
		}
		m := gocv.NewMat()
		defer m.Close()
		gstOK = vc.Read(&m) && !m.Empty()
	})
	return gstOK
}

func (c *captureSource) Read(dst *gocv.Mat) (time.Duration, error) {
	if c.vc == nil {
		return 0, fmt.Errorf("%s: %w: not open", c.info.Name, ErrDisconnected)
	}
	if !c.vc.Read(dst) || dst.Empty() {
		if c.spec.Kind == KindFile {
			n := c.info.Frames
			if c.read == 0 {
				return 0, fmt.Errorf("video %s: %w: no frame could be decoded", c.spec.Target, ErrCorrupt)
			}
			if n > 0 && c.read < n-1 {
				return 0, fmt.Errorf("video %s: %w: decoding stopped at frame %d of %d", c.spec.Target, ErrCorrupt, c.read, n)
			}
			return 0, fmt.Errorf("video %s: %w after %d frames", c.spec.Target, ErrEOF, c.read)
		}
		return 0, fmt.Errorf("%s: %w: no frame (unplugged, or the stream ended)", c.info.Name, ErrDisconnected)
	}
	if dst.Type() != gocv.MatTypeCV8UC3 {
		return 0, fmt.Errorf("%s: %w: frames are of type %v, want 8-bit BGR", c.info.Name, ErrCorrupt, dst.Type())
	}
	c.read++
	var pts time.Duration
	if c.spec.Kind == KindFile {
		if fps := c.info.FPS; fps > 0 {
			pts = time.Duration(float64(c.read-1) / fps * float64(time.Second))
		} else {
			pts = time.Duration(c.vc.Get(gocv.VideoCapturePosMsec) * float64(time.Millisecond))
		}
	} else if ms := c.vc.Get(gocv.VideoCapturePosMsec); ms > 0 {
		// A camera's own time stamp of the frame (V4L2 buffer time,
		// GStreamer PTS), when the backend gives one: the capture sees
		// from it the frames the camera did not deliver.
		pts = time.Duration(ms * float64(time.Millisecond))
	}
	if c.info.Width == 0 {
		c.info.Width, c.info.Height = dst.Cols(), dst.Rows()
	}
	return pts, nil
}

func (c *captureSource) Close() error {
	if c.vc != nil {
		err := c.vc.Close()
		c.vc = nil
		return err
	}
	return nil
}
