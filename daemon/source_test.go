package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/frames/libav"
	"github.com/boardcam/boardcam/render/paint"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/web"
)

// testVideo makes a small H.264 clip with ffmpeg's test pattern.
func testVideo(t *testing.T, frames int, extra ...string) string {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed")
	}
	path := filepath.Join(t.TempDir(), "clip.mp4")
	args := []string{"-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-frames:v", strings.TrimSpace(itoa(frames)), "-pix_fmt", "yuv420p", "-c:v", "libx264"}
	args = append(args, extra...)
	args = append(args, path)
	if out, err := exec.Command("ffmpeg", args...).CombinedOutput(); err != nil {
		t.Skipf("ffmpeg cannot make a test clip: %v %s", err, out)
	}
	return path
}

func itoa(n int) string {
	b := []byte{}
	if n == 0 {
		return "0"
	}
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func readAll(t *testing.T, s Source) (int, error) {
	t.Helper()
	if err := s.Open(); err != nil {
		return 0, err
	}
	defer s.Close()
	m := gocv.NewMat()
	defer m.Close()
	n := 0
	for {
		if _, err := s.Read(&m); err != nil {
			return n, err
		}
		n++
		if n > 10000 {
			t.Fatal("endless source")
		}
	}
}

func TestFileSource(t *testing.T) {
	path := testVideo(t, 30)
	s, err := NewCaptureSource(SourceSpec{Kind: KindFile, Target: path}, CaptureOptions{}, testSight.Pictures)
	if err != nil {
		t.Fatal(err)
	}
	n, err := readAll(t, s)
	if n != 30 || !errors.Is(err, ErrEOF) {
		t.Errorf("read %d frames, then %v; want 30 and ErrEOF", n, err)
	}
	info := s.Info()
	if info.Live || info.Identity == "" || info.Width != 160 || info.FPS != 30 || info.Frames != 30 {
		t.Errorf("info %+v", info)
	}
}

// Corrupt and truncated videos are clear errors, never a crash.
func TestCorruptVideos(t *testing.T) {
	// Moov atom at the end: a truncated file cannot be opened at all.
	path := testVideo(t, 60)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, b[:len(b)/2], 0o644)
	s, _ := NewCaptureSource(SourceSpec{Kind: KindFile, Target: path}, CaptureOptions{}, testSight.Pictures)
	if _, err := readAll(t, s); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Errorf("truncated (moov at the end): %v", err)
	}
	// Moov atom first: frames stop short of the count.
	path = testVideo(t, 60, "-movflags", "+faststart")
	b, _ = os.ReadFile(path)
	os.WriteFile(path, b[:len(b)/2], 0o644)
	s, _ = NewCaptureSource(SourceSpec{Kind: KindFile, Target: path}, CaptureOptions{}, testSight.Pictures)
	n, err := readAll(t, s)
	if !errors.Is(err, ErrCorrupt) || n >= 59 || !strings.Contains(err.Error(), "of 60") {
		t.Errorf("truncated (moov first): %d frames, %v", n, err)
	}
	// Not a video at all.
	path = filepath.Join(t.TempDir(), "notes.mp4")
	os.WriteFile(path, []byte("this is not a video\n"), 0o644)
	s, _ = NewCaptureSource(SourceSpec{Kind: KindFile, Target: path}, CaptureOptions{}, testSight.Pictures)
	if _, err := readAll(t, s); !errors.Is(err, ErrCorrupt) {
		t.Errorf("text file: %v", err)
	}
	if _, err := NewCaptureSource(SourceSpec{Kind: KindFile, Target: filepath.Join(t.TempDir(), "none.mp4")}, CaptureOptions{}, testSight.Pictures); err == nil || !strings.Contains(err.Error(), "none.mp4") {
		t.Errorf("missing file: %v", err)
	}
}

// Debian's OpenCV 4.6 is built with GStreamer: a pipeline ending in
// appsink is read like a camera.
func TestGStreamerSource(t *testing.T) {
	if !GStreamerAvailable() {
		t.Skip("this OpenCV has no GStreamer (or no videotestsrc)")
	}
	s, err := NewCaptureSource(SourceSpec{Kind: KindGStreamer, Target: "videotestsrc num-buffers=12 ! video/x-raw,width=80,height=60 ! videoconvert ! appsink"}, CaptureOptions{}, testSight.Pictures)
	if err != nil {
		t.Fatal(err)
	}
	n, err := readAll(t, s)
	if n != 12 || !errors.Is(err, ErrDisconnected) {
		t.Errorf("read %d frames, then %v; want 12 and the stream's end", n, err)
	}
	bad, _ := NewCaptureSource(SourceSpec{Kind: KindGStreamer, Target: "nosuchelement ! appsink"}, CaptureOptions{}, testSight.Pictures)
	if err := bad.Open(); !errors.Is(err, ErrDisconnected) || !strings.Contains(err.Error(), "gst-launch-1.0") {
		t.Errorf("bad pipeline: %v", err)
	}
	if _, err := NewCaptureSource(SourceSpec{Kind: KindGStreamer, Target: "videotestsrc ! fakesink"}, CaptureOptions{}, testSight.Pictures); err == nil || !strings.Contains(err.Error(), "appsink") {
		t.Errorf("pipeline without appsink: %v", err)
	}
}

// A camera that is not there: the daemon says so and keeps trying, with
// backoff, until stopped.
func TestMissingCamera(t *testing.T) {
	clock := clocktest.New()
	cfg := testConfig(t)
	cfg.Source.URI = "/dev/video97"
	rec := newRecorder()
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Clock: clock, Publishers: []Publisher{rec}, Analyzer: newWorldAnalyzer(nil, nil)}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	m := rec.waitFor(cameraIs(web.CameraNoSignal)).(web.Camera)
	if !strings.Contains(m.Message, "/dev/video97") || !strings.Contains(m.Message, "plugged") {
		t.Errorf("camera status message %q", m.Message)
	}
	for i := 0; i < 3; i++ {
		clock.WaitTimers(1)
		clock.AdvanceToNext()
	}
	clock.WaitTimers(1)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("stopped daemon: %v", err)
	}
	if got := d.cap.backoffs[:4]; got[0] != 500*time.Millisecond || got[3] != 4*time.Second {
		t.Errorf("backoffs %v", got)
	}
}

// A video file through the whole daemon with the board-only analyzer (no
// vision pipeline in this package's tests): read to its end without a
// drop when unpaced, the calibration status published, the journal
// closed, and a corrupt file is Run's error.
func TestVideoFileEndToEnd(t *testing.T) {
	path := testVideo(t, 20)
	cfg := testConfig(t)
	cfg.Source.URI = path
	nopace := false
	cfg.Source.Pace = &nopace
	rec := newRecorder()
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Publishers: []Publisher{rec}}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	if err := d.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	d.Close()
	sum := d.metrics.Summary(time.Now())
	if sum.FramesIn != 20 || sum.FramesOut != 20 || sum.Dropped["analyze"] != 0 || sum.Dropped["referee"] != 0 {
		t.Errorf("frames %d in, %d out, dropped %v", sum.FramesIn, sum.FramesOut, sum.Dropped)
	}
	c := rec.waitFor(func(m web.Message) bool { _, ok := m.(web.Calibration); return ok }).(web.Calibration)
	if c.Status != web.CalibrationSearching || c.Message == "" {
		t.Errorf("calibration status on a picture without a board: %+v", c)
	}
	if st := rec.cameraStatuses(); st[len(st)-1] != web.CameraStopped {
		t.Errorf("camera statuses %v", st)
	}
	if _, ok := sum.Stages["calibrate"]; !ok {
		t.Errorf("no calibrate stage timing: %v", sum.Stages)
	}

	b, _ := os.ReadFile(path)
	os.WriteFile(path, b[:len(b)/3], 0o644)
	d = &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), NewMatch: true}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	err := d.Run(context.Background())
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Errorf("corrupt video: %v", err)
	}
}

// instantPacer hands every paced frame over at once (the analysis never
// keeps up: frames without a free buffer are dropped).
type instantPacer struct{ wallPacer }

func (p *instantPacer) Arrive(time.Duration, <-chan struct{}) (time.Time, bool) {
	return time.Now(), true
}

// spareCounter counts the frames read into the capture's spare buffer
// (frames dropped with their picture made) and every frame read.
type spareCounter struct {
	*libavSource
	c     *capture
	spare int
	read  atomic.Int64 // frames read or skipped (the test waits on it)
}

func (s *spareCounter) Read(dst sight.Image) (time.Duration, error) {
	pts, err := s.libavSource.Read(dst)
	if err == nil {
		if s.c.spare != nil && dst == s.c.spare.Image {
			s.spare++
		}
		s.read.Add(1)
	}
	return pts, err
}

func (s *spareCounter) ReadRaw(dst *libav.Picture) (time.Duration, error) {
	pts, err := s.libavSource.ReadRaw(dst)
	if err == nil {
		if s.c.spare != nil && dst == s.c.spare.Raw {
			s.spare++
		}
		s.read.Add(1)
	}
	return pts, err
}

func (s *spareCounter) Skip() (time.Duration, bool, error) {
	pts, ok, err := s.libavSource.Skip()
	if ok && err == nil {
		s.read.Add(1)
	}
	return pts, ok, err
}

// A video file's frames the capture drops are decoded without a picture
// (no conversion, the spare buffer left empty), except the video's last,
// which still reaches the analysis with its picture.
func TestDroppedFramesNotConverted(t *testing.T) {
	const n = 40
	path := testVideo(t, n)
	src, err := NewCaptureSource(SourceSpec{Kind: KindFile, Target: path}, CaptureOptions{}, testSight.Pictures)
	if err != nil {
		t.Fatal(err)
	}
	lib := src.(*libavSource)
	ref := testSight.Pictures.NewImage() // the video's last frame
	defer ref.Close()
	whole := &libavSource{spec: lib.spec, info: lib.info, pics: testSight.Pictures}
	if err := whole.Open(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, err := whole.Read(ref); err != nil {
			t.Fatal(err)
		}
	}
	whole.Close()
	sc := &spareCounter{libavSource: lib}
	m := NewMetrics(nil, time.Now())
	c := &capture{cfg: DefaultConfig().Source, queue: 4, log: quietLogger(), clock: clock.Real{}, src: sc, pics: testSight.Pictures, metrics: m, pacer: &instantPacer{}}
	sc.c = c
	if err := c.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	errc := make(chan error, 1)
	go func() { errc <- c.run(make(chan struct{})); close(c.out) }()
	// Nothing is taken until the video's last frame has been read.
	for deadline := time.Now().Add(20 * time.Second); sc.read.Load() < n && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	var got []int64
	var last *Frame
	for f := range c.out {
		got = append(got, f.Index)
		if last != nil {
			c.pool.put(last)
		}
		last = f
	}
	if err := <-errc; !errors.Is(err, ErrEOF) {
		t.Fatalf("capture ended with %v", err)
	}
	if fmt.Sprint(got) != "[0 1 2 3 4 39]" {
		t.Errorf("frames handed over %v, want the five the queue holds and the last", got)
	}
	if sc.spare != 1 {
		t.Errorf("%d frames read into the spare with their picture, want 1 (the last)", sc.spare)
	}
	if d := m.Summary(time.Now()).Dropped["analyze"]; d != n-5 {
		t.Errorf("%d frames counted dropped, want %d (the last among them)", d, n-5)
	}
	img, err := c.picture(last)
	if err != nil {
		t.Fatal(err)
	}
	if nz := differ(img, ref); nz != 0 {
		t.Errorf("the last frame handed over differs from the video's last in %d values", nz)
	}
	c.pool.put(last)
}

// differ counts the values in which two BGR pictures differ.
func differ(a, b sight.Image) int {
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(*a.(*gocv.Mat), *b.(*gocv.Mat), &diff)
	flat := diff.Reshape(1, 0)
	defer flat.Close()
	return gocv.CountNonZero(flat)
}

// A video file's frames wait in the queue as the decoder made them (YUV
// 4:2:0, half the bytes of BGR at 720p; here, 160 pixels wide, padded rows), without a BGR picture, and the analysis's
// picture of each (capture.picture) is bit for bit the frame Read gives.
func TestQueueHoldsDecodedFramesConvertedAsRead(t *testing.T) {
	const n = 12
	path := testVideo(t, n)
	src, err := NewCaptureSource(SourceSpec{Kind: KindFile, Target: path}, CaptureOptions{}, testSight.Pictures)
	if err != nil {
		t.Fatal(err)
	}
	lib := src.(*libavSource)
	whole := &libavSource{spec: lib.spec, info: lib.info, pics: testSight.Pictures}
	if err := whole.Open(); err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	ref := testSight.Pictures.NewImage()
	defer ref.Close()
	c := &capture{cfg: DefaultConfig().Source, queue: 4, log: quietLogger(), clock: clock.Real{}, src: src, pics: testSight.Pictures,
		metrics: NewMetrics(nil, time.Now()), pacer: &instantPacer{}, lossless: true}
	if err := c.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	errc := make(chan error, 1)
	go func() { errc <- c.run(make(chan struct{})); close(c.out) }()
	i := 0
	for f := range c.out {
		if f.Index != int64(i) {
			t.Fatalf("frame %d handed over as %d", i, f.Index)
		}
		w, h := f.Raw.Size()
		if f.Raw.Empty() || !f.Image.Empty() || f.Raw.Bytes() >= w*h*3 {
			t.Fatalf("frame %d waits as Raw %v (%d bytes for %dx%d), BGR %v", i, !f.Raw.Empty(), f.Raw.Bytes(), w, h, !f.Image.Empty())
		}
		if _, err := whole.Read(ref); err != nil {
			t.Fatal(err)
		}
		img, err := c.picture(f)
		if err != nil {
			t.Fatal(err)
		}
		if nz := differ(img, ref); nz != 0 {
			t.Fatalf("frame %d: the analysis's picture differs from Read's in %d values", i, nz)
		}
		c.pool.put(f)
		i++
	}
	if err := <-errc; !errors.Is(err, ErrEOF) || i != n {
		t.Fatalf("capture ended with %v after %d frames, want %d", err, i, n)
	}
}

// The web's copy of a frame waiting as the decoder made it (the next frame
// read, or the last one kept once the video ended) is Read's picture.
func TestCopyFrameOfADecodedFrame(t *testing.T) {
	path := testVideo(t, 3)
	src, err := NewCaptureSource(SourceSpec{Kind: KindFile, Target: path}, CaptureOptions{}, testSight.Pictures)
	if err != nil {
		t.Fatal(err)
	}
	lib := src.(*libavSource)
	if err := lib.Open(); err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	whole := &libavSource{spec: lib.spec, info: lib.info, pics: testSight.Pictures}
	if err := whole.Open(); err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	f := &Frame{Image: testSight.Pictures.NewImage(), Raw: libav.NewPicture(), Index: 0}
	defer closeFrame(f)
	ref := testSight.Pictures.NewImage()
	defer ref.Close()
	dst := paint.Painter{}.NewImage()
	defer dst.Close()
	d := &Daemon{Painter: paint.Painter{}, Logger: quietLogger(), cap: &capture{pics: testSight.Pictures}}
	defer d.frameConv.Close()
	for i := 0; i < 3; i++ {
		if _, err := lib.ReadRaw(f.Raw); err != nil {
			t.Fatal(err)
		}
		if _, err := whole.Read(ref); err != nil {
			t.Fatal(err)
		}
		d.frameMu.Lock()
		d.copyFrame(dst, f)
		d.frameMu.Unlock()
		if nz := differ(dst, ref); nz != 0 {
			t.Fatalf("frame %d: the web's copy differs from Read's picture in %d values", i, nz)
		}
	}
}
