package daemon

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"bytes"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/sight"
	"gocv.io/x/gocv"
)

// fakeCam is a V4L2 camera's controls: it takes what it allows, keeps its
// own value otherwise, and records the calls.
type fakeCam struct {
	vals    map[uint32]int32
	refuses map[uint32]bool
	calls   []string
}

func newFakeCam() *fakeCam {
	return &fakeCam{vals: map[uint32]int32{v4l2CIDExposureAuto: v4l2ExposureAperturePriority, v4l2CIDExposureAbsolute: 156}, refuses: map[uint32]bool{}}
}

func (c *fakeCam) Set(id uint32, v int32) error {
	c.calls = append(c.calls, fmt.Sprintf("set %#x=%d", id, v))
	if c.refuses[id] {
		return errors.New("invalid argument")
	}
	c.vals[id] = v
	return nil
}

func (c *fakeCam) Get(id uint32) (int32, error) { return c.vals[id], nil }
func (c *fakeCam) Close() error                 { return nil }

// A V4L2 camera is asked for a short manual exposure through its controls
// (exposure_auto 1 = manual, exposure_absolute in 100 µs units), and what
// it refused is said.
func TestConfigureExposure(t *testing.T) {
	cam := newFakeCam()
	applied, missed := configureExposure(cam, CaptureOptions{Exposure: 4 * time.Millisecond})
	if want := "set 0x9a0901=1; set 0x9a0902=40"; strings.Join(cam.calls, "; ") != want {
		t.Errorf("calls %v, want %s", cam.calls, want)
	}
	if strings.Join(applied, ", ") != "exposure 4ms (manual)" || len(missed) != 0 {
		t.Errorf("applied %q, missed %q", applied, missed)
	}
	// A camera that keeps its automatic exposure.
	cam = newFakeCam()
	cam.refuses[v4l2CIDExposureAuto] = true
	_, missed = configureExposure(cam, CaptureOptions{Exposure: 2 * time.Millisecond})
	if len(missed) != 1 || !strings.Contains(missed[0], "keeps its automatic exposure") {
		t.Errorf("missed %q", missed)
	}
	// A camera that rounds the exposure far off.
	cam = newFakeCam()
	cam.refuses[v4l2CIDExposureAbsolute] = true
	_, missed = configureExposure(cam, CaptureOptions{Exposure: 2 * time.Millisecond})
	if len(missed) != 1 || !strings.Contains(missed[0], "the camera took 15.6ms") {
		t.Errorf("missed %q", missed)
	}
	// Automatic exposure asked for.
	cam = newFakeCam()
	configureExposure(cam, CaptureOptions{ExposureAuto: true})
	if len(cam.calls) != 1 || cam.calls[0] != "set 0x9a0901=3" {
		t.Errorf("auto exposure: %v", cam.calls)
	}
}

// A V4L2 camera's pipelines, best first: what was asked, then without
// the pixel format, without the rate, without anything.
func TestV4L2Pipelines(t *testing.T) {
	got, omits := v4l2Pipelines("/dev/video0", CaptureOptions{Width: 1280, Height: 720, FPS: 60, Format: "mjpg"})
	want := []string{
		"v4l2src device=/dev/video0 ! image/jpeg,width=1280,height=720,framerate=60/1 ! jpegdec ! videoconvert ! appsink",
		"v4l2src device=/dev/video0 ! video/x-raw,width=1280,height=720,framerate=60/1 ! videoconvert ! appsink",
		"v4l2src device=/dev/video0 ! image/jpeg,width=1280,height=720 ! jpegdec ! videoconvert ! appsink",
		"v4l2src device=/dev/video0 ! video/x-raw,width=1280,height=720 ! videoconvert ! appsink",
		"v4l2src device=/dev/video0 ! videoconvert ! appsink",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pipelines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fmt.Sprint(omits) != "[[] [format] [fps] [format fps] [format fps size]]" {
		t.Errorf("omits %v", omits)
	}
	if got, _ := v4l2Pipelines("/dev/video2", CaptureOptions{}); len(got) != 1 || got[0] != "v4l2src device=/dev/video2 ! videoconvert ! appsink" {
		t.Errorf("nothing asked: %q", got)
	}
}

// A V4L2 camera that refuses the first pipelines: the source says what it
// did not get, sets the exposure through the controls, and reads frames
// of the negotiated size.
func TestV4L2Source(t *testing.T) {
	src, err := NewCaptureSource(SourceSpec{Kind: KindV4L2, Target: "/dev/video0"}, CaptureOptions{Width: 1280, Height: 720, FPS: 60, Format: "mjpg", Exposure: 4 * time.Millisecond}, testSight.Pictures)
	if err != nil {
		t.Fatal(err)
	}
	s := src.(*gstSource)
	var tried []string
	s.start = func(p string) (*gstFrames, error) {
		tried = append(tried, p)
		if strings.Contains(p, "framerate") {
			return nil, errors.New("streaming stopped, reason not-negotiated")
		}
		return fakeFrames(1280, 720, 0, 2), nil
	}
	cam := newFakeCam()
	s.controls = func(dev string) (v4l2Controls, error) { return cam, nil }
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info := s.Info()
	if len(tried) != 3 || info.Pipeline != tried[2] {
		t.Errorf("tried %q, opened %q", tried, info.Pipeline)
	}
	if a := strings.Join(info.Applied, ", "); a != "pixel format MJPG, size 1280×720, exposure 4ms (manual)" {
		t.Errorf("applied %q", a)
	}
	if len(info.Refused) != 1 || !strings.Contains(info.Refused[0], "60 fps") {
		t.Errorf("refused %q", info.Refused)
	}
	m := gocv.NewMat()
	defer m.Close()
	for i := 0; i < 2; i++ {
		if _, err := s.Read(&m); err != nil || m.Cols() != 1280 || m.Rows() != 720 {
			t.Fatalf("frame %d: %v %dx%d", i, err, m.Cols(), m.Rows())
		}
	}
	if _, err := s.Read(&m); !errors.Is(err, ErrDisconnected) {
		t.Errorf("after the last frame: %v", err)
	}
}

// fakeFrames is a pipeline that gives n frames (of byte value i) and, from
// pts0 on, their time stamps 1/30 s apart (pts0 < 0: none).
func fakeFrames(w, h int, pts0 time.Duration, n int) *gstFrames {
	b := make([]byte, w*h*3*n)
	for i := 0; i < n; i++ {
		for j := range b[i*w*h*3 : (i+1)*w*h*3] {
			b[i*w*h*3+j] = byte(i)
		}
	}
	pts := make(chan time.Duration, n)
	if pts0 >= 0 {
		for i := 0; i < n; i++ {
			pts <- pts0 + time.Duration(i)*time.Second/30
		}
	}
	return &gstFrames{w: w, h: h, fps: 30, r: bytes.NewReader(b), pts: pts, close: func() error { return nil }, tail: func() string { return "" }}
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
// next pipeline and says the exposure was not applied.
func TestLibcameraFallsBack(t *testing.T) {
	src, err := NewCaptureSource(SourceSpec{Kind: KindLibcamera}, CaptureOptions{FPS: 30, Exposure: 4 * time.Millisecond}, testSight.Pictures)
	if err != nil {
		t.Fatal(err)
	}
	c := src.(*gstSource)
	var tried []string
	c.start = func(target string) (*gstFrames, error) {
		tried = append(tried, target)
		if strings.Contains(target, "exposure") {
			return nil, errors.New("no property exposure-time-mode in element libcamerasrc")
		}
		return fakeFrames(64, 48, time.Second, 3), nil
	}
	if err := c.Open(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	info := c.Info()
	if len(tried) != 3 || info.Pipeline != tried[2] || len(info.Refused) != 1 || !strings.Contains(info.Refused[0], "no exposure-time property") {
		t.Errorf("tried %q; info %+v", tried, info)
	}
	// The camera's time stamps come with the frames.
	m := gocv.NewMat()
	defer m.Close()
	for i := 0; i < 3; i++ {
		pts, err := c.Read(&m)
		if want := time.Second + time.Duration(i)*time.Second/30; err != nil || pts != want {
			t.Errorf("frame %d: pts %v (%v), want %v", i, pts, err, want)
		}
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
func (s *stampedSource) Read(dst sight.Image) (time.Duration, error) {
	if s.i >= len(s.stamps) {
		return 0, fmt.Errorf("stamped: %w", ErrEOF)
	}
	writeWorldFrame(dst.(*gocv.Mat), s.i)
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
	c := &capture{cfg: DefaultConfig().Source, queue: 8, log: quietLogger(), clock: clock.Real{}, src: &stampedSource{stamps: stamps}, pics: testSight.Pictures,
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
		c.pool.put(f)
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

// pipeline.frame_queue_mb bounds the frame queue by the frames' size: the
// pool holds depth+1 buffers, and buffers beyond it are closed as they
// are taken when the frames grow (a frame finding none free is dropped
// and counted as before).
func TestFrameQueueBoundedInBytes(t *testing.T) {
	for _, c := range []struct {
		queue int
		mb    int64
		w, h  int
		depth int
	}{
		{30, 12, 1280, 720, 4}, {30, 12, 1920, 1080, 2}, {30, 12, 640, 480, 13}, {30, 12, 3840, 2160, 2},
		{30, 0, 1280, 720, 30}, {30, 12, 0, 0, 30}, {8, 100, 640, 480, 8}, {1, 12, 1920, 1080, 1},
	} {
		if d := queueDepth(c.queue, c.mb, c.w, c.h); d != c.depth {
			t.Errorf("queueDepth(%d, %d MiB, %d×%d) = %d, want %d", c.queue, c.mb, c.w, c.h, d, c.depth)
		}
	}
	c := &capture{queue: 30, queueMB: 12, src: &stampedSource{}, pics: testSight.Pictures}
	if err := c.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.fit(1280, 720)
	if d := c.depth.Load(); d != 4 {
		t.Fatalf("depth %d at 720p, want 4", d)
	}
	var taken []*Frame
	for i := 0; i < 10; i++ {
		f, pooled, err := c.take(nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if pooled != (i < 5) {
			t.Fatalf("take %d: pooled %v; want 5 buffers (4 waiting, 1 analysed)", i, pooled)
		}
		if pooled {
			taken = append(taken, f)
		}
	}
	for _, f := range taken {
		c.pool.put(f)
	}
	c.fit(640, 480) // smaller frames: more buffers again
	if d, n := c.depth.Load(), c.pool.len(); d != 13 || n != 14 {
		t.Fatalf("at 640×480: depth %d, %d buffers; want 13 and 14", d, n)
	}
}

// While the analysis keeps up (each frame given back before the next is
// read) one buffer goes round: the others are never filled, so the
// memory follows the backlog reached, not the queue's bound.
func TestFramePoolReusesTheBufferGivenBackLast(t *testing.T) {
	c := &capture{queue: 30, queueMB: 12, src: &stampedSource{}, pics: testSight.Pictures}
	if err := c.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.fit(1280, 720)
	for i := 0; i < 20; i++ {
		f, pooled, err := c.take(nil, false)
		if err != nil || !pooled {
			t.Fatalf("take %d: pooled %v, %v", i, pooled, err)
		}
		writeWorldFrame(f.Image.(*gocv.Mat), i)
		c.pool.put(f)
	}
	var filled []*Frame
	for f := c.pool.get(); f != nil; f = c.pool.get() {
		if !f.Image.Empty() {
			filled = append(filled, f)
		}
		defer c.pool.put(f)
	}
	if len(filled) != 1 {
		t.Errorf("%d buffers filled after 20 frames analysed one at a time, want 1", len(filled))
	}
}

// A buffer a backlog filled and that then stays unused for idleBuffer has
// its pixels freed, the least recently given back first, and gets them
// again at its next read; the spare too, unless it holds a dropped frame
// (the video's last, maybe).
func TestFramePoolReleasesIdleBuffers(t *testing.T) {
	pics := testSight.Pictures
	c := &capture{pool: newFramePool(4), pics: pics}
	now := time.Unix(1000, 0)
	c.pool.now = func() time.Time { return now }
	filledFrame := func() *Frame {
		f := &Frame{Image: pics.NewImage()}
		if _, err := pics.BGR(f.Image, 64, 48); err != nil {
			t.Fatal(err)
		}
		return f
	}
	var all []*Frame
	for i := 0; i < 3; i++ {
		f := filledFrame()
		all = append(all, f)
		c.pool.put(f) // at 0, 1 and 2 s
		now = now.Add(time.Second)
	}
	c.spare = filledFrame()
	c.spareAt = now.Add(-10 * time.Second)
	c.lastDropped = true
	defer func() {
		for _, f := range append(all, c.spare) {
			f.Image.Close()
		}
	}()
	now = now.Add(time.Second) // 4 s: the first given back 4 s ago, the second 3 s
	c.releaseIdle()
	var empty []bool
	for _, f := range all {
		empty = append(empty, f.Image.Empty())
	}
	if fmt.Sprint(empty) != "[true false false]" {
		t.Errorf("emptied %v, want [true false false] (only the one unused for more than %v)", empty, idleBuffer)
	}
	if c.spare.Image.Empty() {
		t.Error("the spare emptied while it held a dropped frame")
	}
	c.lastDropped = false
	now = now.Add(500 * time.Millisecond)
	c.releaseIdle() // within a second of the last look: nothing done
	if all[1].Image.Empty() || c.spare.Image.Empty() {
		t.Error("buffers looked at again within a second")
	}
	now = now.Add(500 * time.Millisecond) // 5 s: the second given back 4 s ago, the third 3 s
	c.releaseIdle()
	if !all[1].Image.Empty() || all[2].Image.Empty() || !c.spare.Image.Empty() {
		t.Errorf("at 5 s: second emptied %v (want true), third %v (want false), spare %v (want true)", all[1].Image.Empty(), all[2].Image.Empty(), c.spare.Image.Empty())
	}
	// The buffer given back last is taken first, and an emptied one reads again.
	if f := c.pool.get(); f != all[2] {
		t.Error("not the buffer given back last")
	}
	f := c.pool.get()
	if _, err := pics.BGR(f.Image, 64, 48); err != nil || f.Image.Empty() {
		t.Errorf("an emptied buffer does not take pixels again: %v", err)
	}
}
