package daemon

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/clock"
	"gocv.io/x/gocv"
)

// fakeCam is a camera's controls behind OpenCV's VideoCapture: it takes
// what it allows, keeps its own value otherwise, and records the calls.
type fakeCam struct {
	vals    map[gocv.VideoCaptureProperties]float64
	refuses map[gocv.VideoCaptureProperties]bool
	calls   []string
}

func newFakeCam() *fakeCam {
	return &fakeCam{vals: map[gocv.VideoCaptureProperties]float64{
		gocv.VideoCaptureFrameWidth: 640, gocv.VideoCaptureFrameHeight: 480, gocv.VideoCaptureFPS: 30,
		gocv.VideoCaptureAutoExposure: v4l2ExposureAperturePriority, gocv.VideoCaptureExposure: 156,
	}, refuses: map[gocv.VideoCaptureProperties]bool{}}
}

func (c *fakeCam) Set(p gocv.VideoCaptureProperties, v float64) {
	c.calls = append(c.calls, fmt.Sprintf("set %d=%g", p, v))
	if !c.refuses[p] {
		c.vals[p] = v
	}
}

func (c *fakeCam) Get(p gocv.VideoCaptureProperties) float64 { return c.vals[p] }

// A V4L2 camera is asked for size, rate and a short manual exposure
// through OpenCV's properties (exposure in 100 µs units, exposure_auto 1
// = manual), and what it refused is said.
func TestConfigureV4L2(t *testing.T) {
	cam := newFakeCam()
	applied, missed := configureV4L2(cam, CaptureOptions{Width: 1280, Height: 720, FPS: 60, Format: "mjpg", Exposure: 4 * time.Millisecond})
	want := []string{
		fmt.Sprintf("set %d=%g", gocv.VideoCaptureFOURCC, float64('M'|'J'<<8|'P'<<16|'G'<<24)),
		fmt.Sprintf("set %d=1280", gocv.VideoCaptureFrameWidth), fmt.Sprintf("set %d=720", gocv.VideoCaptureFrameHeight),
		fmt.Sprintf("set %d=60", gocv.VideoCaptureFPS),
		fmt.Sprintf("set %d=1", gocv.VideoCaptureAutoExposure), fmt.Sprintf("set %d=40", gocv.VideoCaptureExposure),
	}
	if strings.Join(cam.calls, "; ") != strings.Join(want, "; ") {
		t.Errorf("calls\n %v\nwant\n %v", cam.calls, want)
	}
	if strings.Join(applied, ", ") != "pixel format MJPG, size 1280×720, 60 fps, exposure 4ms (manual)" || len(missed) != 0 {
		t.Errorf("applied %q, missed %q", applied, missed)
	}
	// A camera that keeps its automatic exposure and its 30 fps.
	cam = newFakeCam()
	cam.refuses[gocv.VideoCaptureAutoExposure] = true
	cam.refuses[gocv.VideoCaptureFPS] = true
	_, missed = configureV4L2(cam, CaptureOptions{FPS: 60, Exposure: 2 * time.Millisecond})
	if len(missed) != 2 || !strings.Contains(missed[0], "60 fps (the camera gives 30") || !strings.Contains(missed[1], "keeps its automatic exposure") {
		t.Errorf("missed %q", missed)
	}
	// Automatic exposure asked for.
	cam = newFakeCam()
	configureV4L2(cam, CaptureOptions{ExposureAuto: true})
	if len(cam.calls) != 1 || cam.calls[0] != fmt.Sprintf("set %d=3", gocv.VideoCaptureAutoExposure) {
		t.Errorf("auto exposure: %v", cam.calls)
	}
}

// The libcamera source's pipelines, best first: exposure with its mode
// (libcamera 0.5), exposure alone (0.3, 0.4), none.
func TestLibcameraPipelines(t *testing.T) {
	got := libcameraPipelines("", CaptureOptions{Width: 1280, Height: 720, FPS: 60, Exposure: 4 * time.Millisecond})
	tail := " ! video/x-raw,width=1280,height=720,framerate=60/1 ! videoconvert ! video/x-raw,format=BGR ! appsink"
	want := []string{
		"libcamerasrc exposure-time-mode=manual exposure-time=4000" + tail,
		"libcamerasrc exposure-time=4000" + tail,
		"libcamerasrc" + tail,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pipelines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := libcameraPipelines("/base/axi/imx708", CaptureOptions{}); len(got) != 1 || got[0] != `libcamerasrc camera-name="/base/axi/imx708" ! video/x-raw ! videoconvert ! video/x-raw,format=BGR ! appsink` {
		t.Errorf("named camera, no options: %q", got)
	}
	spec, err := ParseSource("libcamera", "")
	if err != nil || spec.Kind != KindLibcamera || spec.Target != "" {
		t.Errorf("ParseSource(libcamera) = %+v %v", spec, err)
	}
}

// A libcamera that refuses the exposure properties: the source opens the
// next pipeline and says the exposure was not applied. (A video file
// stands for the camera that opens.)
func TestLibcameraFallsBack(t *testing.T) {
	src, err := NewCaptureSource(SourceSpec{Kind: KindLibcamera}, CaptureOptions{FPS: 30, Exposure: 4 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c := src.(*captureSource)
	var tried []string
	c.open = func(target string, _ gocv.VideoCaptureAPI) (*gocv.VideoCapture, error) {
		tried = append(tried, target)
		if strings.Contains(target, "exposure") {
			return nil, errors.New("no property exposure-time-mode in element libcamerasrc")
		}
		return gocv.VideoCaptureFile("../" + DemoClip)
	}
	if err := c.Open(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	info := c.Info()
	if len(tried) != 3 || info.Pipeline != tried[2] || len(info.Refused) != 1 || !strings.Contains(info.Refused[0], "no exposure-time property") {
		t.Errorf("tried %q; info %+v", tried, info)
	}
	// Reopened (a reconnection): said once, not twice.
	if err := c.Open(); err != nil {
		t.Fatal(err)
	}
	if n := len(c.Info().Refused); n != 1 {
		t.Errorf("%d refusals after a reopen", n)
	}
}

func TestExposureSetting(t *testing.T) {
	var e Exposure
	if e.Time() != DefaultExposure {
		t.Errorf("default %v", e.Time())
	}
	if err := e.Set("auto"); err != nil || e.Time() != 0 || e.String() != "auto" {
		t.Errorf("auto: %v %v", e, err)
	}
	if err := e.Set("2.5ms"); err != nil || e.Time() != 2500*time.Microsecond {
		t.Errorf("2.5ms: %v %v", e, err)
	}
	if err := e.Set("fast"); err == nil {
		t.Error("accepted fast")
	}
	cfg, err := ParseConfig([]byte("source:\n  uri: libcamera\n  fps: 120\n  exposure: 10ms\n"), "x.yaml")
	if err == nil || !strings.Contains(err.Error(), "x.yaml:4: source.exposure: 10ms is longer than a frame at 120 fps") {
		t.Errorf("exposure longer than a frame: %v", err)
	}
	cfg, err = ParseConfig([]byte("source:\n  uri: /dev/video0\n  fps: 60\n  format: mjpg\n  exposure: auto\n"), "x.yaml")
	if err != nil || !cfg.Source.Exposure.Auto || cfg.Source.Format != "mjpg" {
		t.Errorf("config %+v %v", cfg.Source, err)
	}
}

// stampedSource is a live camera whose frames carry its own time stamps,
// 1/60 s apart, some missing.
type stampedSource struct {
	stamps []time.Duration
	i      int
}

func (s *stampedSource) Open() error  { return nil }
func (s *stampedSource) Close() error { return nil }
func (s *stampedSource) Info() SourceInfo {
	return SourceInfo{Name: "stamped", Kind: KindV4L2, Live: true, FPS: 60}
}
func (s *stampedSource) Read(dst *gocv.Mat) (time.Duration, error) {
	if s.i >= len(s.stamps) {
		return 0, fmt.Errorf("stamped: %w", ErrEOF)
	}
	writeWorldFrame(dst, s.i)
	s.i++
	return s.stamps[s.i-1], nil
}

// Frames a camera did not deliver (its time stamps jump) leave a gap in
// the numbering, so the analysis reports them.
func TestCameraGapFromTimeStamps(t *testing.T) {
	tick := time.Second / 60
	var stamps []time.Duration
	for _, i := range []int{0, 1, 2, 6, 7} { // 3, 4, 5 never came
		stamps = append(stamps, time.Second+time.Duration(i)*tick)
	}
	c := &capture{cfg: DefaultConfig().Source, queue: 8, log: quietLogger(), clock: clock.Real{}, src: &stampedSource{stamps: stamps},
		metrics: NewMetrics(nil, time.Now()), lossless: true}
	if err := c.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan struct{})
	go func() { _ = c.run(done); close(c.out) }()
	var idx []int64
	var missed int64
	for f := range c.out {
		idx = append(idx, f.Index)
		missed += f.CameraMissed
		c.pool <- f
	}
	if fmt.Sprint(idx) != "[0 1 2 6 7]" || missed != 3 {
		t.Errorf("indices %v, camera missed %d; want [0 1 2 6 7] and 3", idx, missed)
	}
	if n := c.metrics.droppedCount("camera"); n != 3 {
		t.Errorf("%d frames counted not delivered, want 3", n)
	}
}

// source.focus on libcamerasrc: with each exposure variant, then without
// the focus (a camera without a focus motor refuses the properties).
func TestLibcameraFocus(t *testing.T) {
	var f Focus
	for _, bad := range []string{"near", "-1", "40"} {
		if err := f.Set(bad); err == nil {
			t.Errorf("focus %q accepted", bad)
		}
	}
	if err := f.Set("0.95"); err != nil || f.String() != "0.95" {
		t.Fatalf("focus 0.95: %v %v", f, err)
	}
	got, omits := libcameraPipelineList("", CaptureOptions{Exposure: 4 * time.Millisecond, Focus: f})
	tail := " ! video/x-raw ! videoconvert ! video/x-raw,format=BGR ! appsink"
	want := []string{
		"libcamerasrc exposure-time-mode=manual exposure-time=4000 af-mode=manual lens-position=0.95" + tail,
		"libcamerasrc exposure-time=4000 af-mode=manual lens-position=0.95" + tail,
		"libcamerasrc af-mode=manual lens-position=0.95" + tail,
		"libcamerasrc exposure-time-mode=manual exposure-time=4000" + tail,
		"libcamerasrc exposure-time=4000" + tail,
		"libcamerasrc" + tail,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pipelines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fmt.Sprint(omits) != "[[] [] [exposure] [focus] [focus] [exposure focus]]" {
		t.Errorf("omits %v", omits)
	}
	if err := f.Set("continuous"); err != nil {
		t.Fatal(err)
	}
	if got, _ := libcameraPipelineList("", CaptureOptions{Focus: f}); len(got) != 2 || !strings.HasPrefix(got[0], "libcamerasrc af-mode=continuous !") {
		t.Errorf("continuous: %q", got)
	}
	c, err := ParseConfig([]byte("source:\n  uri: libcamera\n  focus: 1.1\n"), "c.yaml")
	if err != nil || !c.Source.Focus.Given || c.Source.Focus.Dioptres != 1.1 {
		t.Errorf("config focus: %+v %v", c.Source.Focus, err)
	}
	if _, err := ParseConfig([]byte("source:\n  uri: libcamera\n  focus: sharp\n"), "c.yaml"); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad focus: %v", err)
	}
}
