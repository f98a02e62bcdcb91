package daemon

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardcam/boardcam/sight"

	"github.com/boardcam/boardcam/internal/tail"
)

// Cameras (V4L2 devices, Raspberry Pi camera modules through libcamera)
// and user GStreamer pipelines are read through a gst-launch-1.0 child
// process that writes raw BGR frames to a pipe: boardcam links no
// GStreamer and no OpenCV videoio (docs/memory.md). The process prints the
// negotiated caps (the frame size and rate) and each frame's time stamp
// (an identity element), which the source reads from its -v output.

// GstLaunch is the gst-launch command (Debian: gstreamer1.0-tools); tests
// may point it elsewhere.
var GstLaunch = "gst-launch-1.0"

// gstTail replaces a pipeline's final appsink: BGR frames, each time
// stamp printed, written to file descriptor 3 without waiting for the
// clock.
const gstTail = "videoconvert ! video/x-raw,format=BGR ! identity name=boardcamts silent=false ! fdsink fd=3 sync=false"

// launchPipeline turns a pipeline that ends in appsink (the form the
// configuration and libcameraPipelines use) into the one gst-launch runs.
func launchPipeline(p string) (string, error) {
	i := strings.LastIndex(p, "!")
	last := strings.TrimSpace(p[i+1:])
	if i < 0 || !(last == "appsink" || strings.HasPrefix(last, "appsink ")) {
		return "", fmt.Errorf("GStreamer pipeline %q must end in appsink (e.g. \"libcamerasrc ! video/x-raw,width=1280,height=720 ! videoconvert ! appsink\")", p)
	}
	return strings.TrimSpace(p[:i]) + " ! " + gstTail, nil
}

// gstFrames is a running pipeline: raw BGR frames of the caps' size.
type gstFrames struct {
	w, h  int
	fps   float64
	r     io.Reader
	pts   chan time.Duration // one per frame, in order (best effort)
	close func() error
	tail  func() string // the end of what the process said on stderr
}

// gstSource reads a camera or a pipeline through gst-launch.
type gstSource struct {
	spec SourceSpec
	opt  CaptureOptions
	info SourceInfo
	pics sight.Pictures
	// pipelines are tried in turn, best first; omits says what each leaves
	// out of what was asked; notes are said at every Open.
	pipelines []string
	omits     [][]string
	notes     []string
	// start runs a pipeline (default: gst-launch); tests replace it.
	start func(pipeline string) (*gstFrames, error)
	// controls opens a V4L2 device's controls (default: ioctls).
	controls func(dev string) (v4l2Controls, error)
	f        *gstFrames
	read     int
	noPTS    bool
	lastErr  error
}

func (s *gstSource) Info() SourceInfo { return s.info }

func (s *gstSource) Open() error {
	s.Close()
	s.read, s.noPTS, s.lastErr = 0, false, nil
	s.info.Applied, s.info.Refused = nil, append([]string(nil), s.notes...)
	start := s.start
	if start == nil {
		start = startGst
	}
	var f *gstFrames
	for i, p := range s.pipelines {
		g, err := start(p)
		if err != nil {
			s.lastErr = err
			continue
		}
		f = g
		s.info.Pipeline = p
		if i < len(s.omits) {
			s.info.Refused = append(s.info.Refused, s.refusals(s.omits[i])...)
		}
		break
	}
	if f == nil {
		return s.openError()
	}
	s.f = f
	s.info.Width, s.info.Height, s.info.FPS = f.w, f.h, f.fps
	if s.spec.Kind == KindV4L2 {
		s.info.Applied = append(s.info.Applied, s.v4l2Applied()...)
		open := s.controls
		if open == nil {
			open = openV4L2Controls
		}
		if s.opt.Exposure > 0 || s.opt.ExposureAuto {
			c, err := open(s.spec.Target)
			if err != nil {
				s.info.Refused = append(s.info.Refused, fmt.Sprintf("exposure: the camera's controls cannot be opened (%v)", err))
			} else {
				a, r := configureExposure(c, s.opt)
				c.Close()
				s.info.Applied, s.info.Refused = append(s.info.Applied, a...), append(s.info.Refused, r...)
			}
		}
	}
	return nil
}

// refusals words what a pipeline leaves out.
func (s *gstSource) refusals(omits []string) []string {
	var out []string
	for _, o := range omits {
		switch o {
		case "exposure":
			out = append(out, fmt.Sprintf("exposure %s: this libcamera has no exposure-time property on libcamerasrc (libcamera 0.3 or later has); the camera keeps its automatic exposure and fast strokes may blur", s.opt.Exposure))
		case "focus":
			out = append(out, fmt.Sprintf("focus %s: this libcamera or camera refuses af-mode/lens-position on libcamerasrc (a camera without a focus motor, or libcamera before 0.3); focus the lens by hand", s.opt.Focus))
		case "format":
			out = append(out, fmt.Sprintf("pixel format %s (the camera does not give it at this size and rate)", strings.ToUpper(s.opt.Format)))
		case "fps":
			out = append(out, fmt.Sprintf("%g fps (the camera does not give it at this size: at high rates many USB cameras need format: mjpg)", s.opt.FPS))
		case "size":
			out = append(out, fmt.Sprintf("size %d×%d (the camera does not give it)", s.opt.Width, s.opt.Height))
		}
	}
	return out
}

// v4l2Applied says which of the asked size, rate and format the camera
// took (the negotiated caps).
func (s *gstSource) v4l2Applied() []string {
	var a []string
	p := s.info.Pipeline
	if s.opt.Format != "" && (strings.Contains(p, "image/jpeg") || strings.Contains(p, "format=YUY2")) {
		a = append(a, "pixel format "+strings.ToUpper(s.opt.Format))
	}
	if (s.opt.Width > 0 || s.opt.Height > 0) && strings.Contains(p, "width=") {
		a = append(a, fmt.Sprintf("size %d×%d", s.info.Width, s.info.Height))
	}
	if s.opt.FPS > 0 && strings.Contains(p, "framerate=") {
		a = append(a, fmt.Sprintf("%g fps", s.info.FPS))
	}
	return a
}

// openError explains why no pipeline started.
func (s *gstSource) openError() error {
	why := ""
	if s.lastErr != nil {
		why = ": " + s.lastErr.Error()
	}
	if !GStreamerAvailable() {
		return fmt.Errorf("%s: %w: %s cannot run even the test pipeline \"videotestsrc num-buffers=1 ! fakesink\" (apt install gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good)%s", s.info.Name, ErrUnsupported, GstLaunch, why)
	}
	switch s.spec.Kind {
	case KindV4L2:
		if _, err := os.Stat(s.spec.Target); err != nil {
			return fmt.Errorf("camera %s: %w: %v (is it plugged in? ls /dev/video*)", s.spec.Target, ErrDisconnected, err)
		}
		if f, err := os.Open(s.spec.Target); err != nil {
			hint := ""
			if errors.Is(err, os.ErrPermission) {
				hint = " (add the user to the video group: sudo adduser $USER video)"
			}
			return fmt.Errorf("camera %s: %w: %v%s", s.spec.Target, ErrDisconnected, err, hint)
		} else {
			f.Close()
		}
		return fmt.Errorf("camera %s: %w: GStreamer's v4l2src cannot read it (busy, or not a capture device? v4l2-ctl --list-devices)%s", s.spec.Target, ErrDisconnected, why)
	case KindLibcamera:
		return fmt.Errorf("libcamera: %w: no camera module answers through libcamerasrc (is it connected and enabled? rpicam-hello --list-cameras; apt install gstreamer1.0-libcamera)%s", ErrDisconnected, why)
	}
	return fmt.Errorf("GStreamer pipeline %q: %w: it does not start (check it with gst-launch-1.0, replacing appsink by fakesink)%s", s.spec.Target, ErrDisconnected, why)
}

func (s *gstSource) Read(dst sight.Image) (time.Duration, error) {
	f := s.f
	if f == nil {
		return 0, fmt.Errorf("%s: %w: not open", s.info.Name, ErrDisconnected)
	}
	buf, err := s.pics.BGR(dst, f.w, f.h)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", s.info.Name, err)
	}
	if _, err := io.ReadFull(f.r, buf); err != nil {
		msg := "no frame (unplugged, or the pipeline ended)"
		if t := strings.TrimSpace(f.tail()); t != "" {
			msg += ": " + t
		}
		return 0, fmt.Errorf("%s: %w: %s", s.info.Name, ErrDisconnected, msg)
	}
	s.read++
	if s.noPTS {
		return 0, nil
	}
	// The frame's time stamp, printed by the identity element just before
	// fdsink wrote the frame; a time stamp that does not come in time means
	// the pairing is lost: none from then on (the capture then counts
	// frames, not time).
	select {
	case pts := <-f.pts:
		return pts, nil
	case <-time.After(200 * time.Millisecond):
		s.noPTS = true
		return 0, nil
	}
}

func (s *gstSource) Close() error {
	if s.f != nil {
		err := s.f.close()
		s.f = nil
		return err
	}
	return nil
}

var (
	capsRe = regexp.MustCompile(`GstFdSink:[^:]*\.GstPad:sink: caps = video/x-raw, format=\(string\)BGR, width=\(int\)(\d+), height=\(int\)(\d+)(?:, framerate=\(fraction\)(\d+)/(\d+))?`)
	ptsRe  = regexp.MustCompile(`GstIdentity:boardcamts: last-message = chain .*pts: (\d+):(\d\d):(\d\d)\.(\d{9})`)
)

// startGst runs a pipeline (ending in appsink) with gst-launch and waits
// for its caps.
func startGst(pipeline string) (*gstFrames, error) {
	p, err := launchPipeline(pipeline)
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(GstLaunch, append([]string{"-v"}, strings.Fields(p)...)...)
	cmd.ExtraFiles = []*os.File{w}
	stderr := &tail.Buffer{Max: 2048}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("cannot start %s (apt install gstreamer1.0-tools): %w", GstLaunch, err)
	}
	w.Close()
	type caps struct {
		w, h int
		fps  float64
	}
	capsCh := make(chan caps, 1)
	pts := make(chan time.Duration, 1024)
	exited := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if m := ptsRe.FindStringSubmatch(line); m != nil {
				h, _ := strconv.Atoi(m[1])
				mi, _ := strconv.Atoi(m[2])
				se, _ := strconv.Atoi(m[3])
				ns, _ := strconv.Atoi(m[4])
				select {
				case pts <- time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(se)*time.Second + time.Duration(ns):
				default:
				}
				continue
			}
			if m := capsRe.FindStringSubmatch(line); m != nil && !sent {
				c := caps{}
				c.w, _ = strconv.Atoi(m[1])
				c.h, _ = strconv.Atoi(m[2])
				if m[3] != "" {
					n, _ := strconv.Atoi(m[3])
					d, _ := strconv.Atoi(m[4])
					if d > 0 {
						c.fps = math.Round(float64(n)/float64(d)*1000) / 1000
					}
				}
				capsCh <- c
				sent = true
			}
		}
	}()
	var once sync.Once
	var waitErr error
	wait := func() error {
		once.Do(func() { waitErr = cmd.Wait(); close(exited) })
		return waitErr
	}
	go wait()
	stop := func() error {
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
		r.Close()
		wait()
		return nil
	}
	select {
	case c := <-capsCh:
		if c.w <= 0 || c.h <= 0 {
			stop()
			return nil, fmt.Errorf("the pipeline gives frames of %d×%d", c.w, c.h)
		}
		return &gstFrames{w: c.w, h: c.h, fps: c.fps, r: bufio.NewReaderSize(r, c.w*c.h*3), pts: pts, close: stop, tail: stderr.String}, nil
	case <-exited:
		stop()
		return nil, fmt.Errorf("%s", strings.TrimSpace(firstLine(stderr.String(), "gst-launch-1.0 ended before the first frame")))
	case <-time.After(gstStartTimeout):
		stop()
		return nil, fmt.Errorf("no frame format after %s (%s)", gstStartTimeout, strings.TrimSpace(stderr.String()))
	}
}

// gstStartTimeout bounds how long a camera may take to start streaming.
var gstStartTimeout = 15 * time.Second

func firstLine(s, dflt string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return dflt
}

var (
	gstOnce sync.Once
	gstOK   bool
)

// GStreamerAvailable reports whether gst-launch can run a pipeline here
// (it tries a one-frame test pipeline once).
func GStreamerAvailable() bool {
	gstOnce.Do(func() {
		cmd := exec.Command(GstLaunch, "-q", "videotestsrc", "num-buffers=1", "!", "fakesink")
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			return
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			gstOK = err == nil
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return gstOK
}

// v4l2Pipelines are the pipelines that read a V4L2 camera, best first:
// everything asked (pixel format, size, rate), then without the format,
// without the rate, without anything.
func v4l2Pipelines(dev string, o CaptureOptions) (pipelines []string, omits [][]string) {
	src := "v4l2src device=" + dev
	size := ""
	if o.Width > 0 && o.Height > 0 {
		size = fmt.Sprintf(",width=%d,height=%d", o.Width, o.Height)
	}
	rate := ""
	if o.FPS > 0 {
		n, d := rational(o.FPS)
		rate = fmt.Sprintf(",framerate=%d/%d", n, d)
	}
	caps := func(format, size, rate string) string {
		switch format {
		case "mjpg":
			return " ! image/jpeg" + size + rate + " ! jpegdec"
		case "yuyv":
			return " ! video/x-raw,format=YUY2" + size + rate
		}
		if size+rate == "" {
			return ""
		}
		return " ! video/x-raw" + size + rate
	}
	tail := " ! videoconvert ! appsink"
	add := func(c string, om ...string) {
		p := src + c + tail
		for _, q := range pipelines {
			if q == p {
				return
			}
		}
		pipelines = append(pipelines, p)
		omits = append(omits, om)
	}
	f := strings.ToLower(o.Format)
	add(caps(f, size, rate))
	if f != "" {
		add(caps("", size, rate), "format")
	}
	if rate != "" {
		add(caps(f, size, ""), "fps")
		if f != "" {
			add(caps("", size, ""), "format", "fps")
		}
	}
	if size != "" {
		var om []string
		if f != "" {
			om = append(om, "format")
		}
		if rate != "" {
			om = append(om, "fps")
		}
		add("", append(om, "size")...)
	}
	return pipelines, omits
}
