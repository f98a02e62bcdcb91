package evidence

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardcam/boardcam/internal/overlay"
)

// WriterConfig configures a [Writer]. Zero values take the defaults.
type WriterConfig struct {
	// Dir is where stills and clips are written (created when missing).
	Dir string
	// FFmpeg is the ffmpeg program (default "ffmpeg" on the PATH). When
	// it cannot be found stills are still written and clips are skipped.
	FFmpeg string
	// MaxAge and MaxBytes are the deletion policy: after each write,
	// files older than MaxAge go, then the oldest until the directory
	// holds at most MaxBytes (defaults 30 days and 1 GiB).
	MaxAge   time.Duration
	MaxBytes int64
	// Queue is the number of requests that may wait (default 8): a
	// request beyond it is refused (Submit returns false).
	Queue int
	// Nice lowers the CPU priority of ffmpeg and of the still's drawing
	// below the pipeline's by this much (default 10).
	Nice int
}

// Defaults of WriterConfig.
const (
	DefaultMaxAge      = 30 * 24 * time.Hour
	DefaultMaxDirBytes = 1 << 30
	DefaultQueue       = 8
	DefaultNice        = 10
)

func (c WriterConfig) withDefaults() WriterConfig {
	if c.FFmpeg == "" {
		c.FFmpeg = "ffmpeg"
	}
	if c.MaxAge <= 0 {
		c.MaxAge = DefaultMaxAge
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxDirBytes
	}
	if c.Queue <= 0 {
		c.Queue = DefaultQueue
	}
	if c.Nice == 0 {
		c.Nice = DefaultNice
	}
	return c
}

// Request asks for the evidence of one decision.
type Request struct {
	// Name is the files' base name (letters, digits, '-', '_', '.'):
	// Name.jpg and Name.mp4.
	Name string
	// Frames are the clip's frames, oldest first; Decisive the index of
	// the frame the still shows (the nearest kept frame is used).
	Frames   []Frame
	Decisive int64
	// FPS is the clip's frame rate (default: from the frames' PTS).
	FPS float64
	// Scene is drawn on the still; NoStill writes the clip alone.
	Scene   Scene
	NoStill bool
}

// Result says what was written for a request.
type Result struct {
	Name string
	// Still and Clip are the files' paths ("" when not written); StillFrame
	// the frame the still shows.
	Still, Clip string
	StillFrame  int64
	Frames      int
	// Took is the time from the start of the work to the files in place;
	// ClipTook the encoding alone, ClipCPU the CPU time ffmpeg used (user
	// and system: what the encoding costs on a machine not shared).
	Took, ClipTook, ClipCPU time.Duration
	Bytes                   int64
	// Err is the first error (nil when everything was written); a clip
	// that failed leaves the still.
	Err error
	// Pruned counts files deleted by the policy after this write.
	Pruned int
}

// Writer writes stills and clips on its own goroutine.
//
//	w := &evidence.Writer{Config: evidence.WriterConfig{Dir: dir}, Done: report}
//	if err := w.Initialize(); err != nil { … }
//	defer w.Close()
//	w.Submit(req) // never waits
type Writer struct {
	Config WriterConfig
	// Painter draws and encodes the stills (the OpenCV side's,
	// render/paint.Painter, given by cmd/boardcam).
	Painter overlay.Painter
	// Done, when set, receives every request's result, on the writer's
	// goroutine.
	Done func(Result)

	cfg     WriterConfig
	ffmpeg  string
	ffErr   error
	queue   chan Request
	encode  chan spooled
	done    chan struct{}
	once    sync.Once
	refused atomic.Int64
}

// spooled is a request whose still and frames are on disk, waiting for
// the clip's encoding: it holds no frames in memory.
type spooled struct {
	res    Result
	t0     time.Time
	frames string // the spool file: the clip's JPEG frames, concatenated ("" when no clip is made)
	fps    float64
}

// encodeQueue is how many spooled requests may wait for ffmpeg (each is a
// file on disk, not memory); when full the spooling waits.
const encodeQueue = 64

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Initialize looks for ffmpeg and starts the writing goroutine. A missing
// ffmpeg is not an error (FFmpegErr says it); the directory is created at
// the first write, so an unwritable one costs evidence, not the start.
func (w *Writer) Initialize() error {
	w.cfg = w.Config.withDefaults()
	if w.cfg.Dir == "" {
		return errors.New("evidence: no directory")
	}
	if w.Painter == nil {
		return errors.New("evidence: the writer has no Painter")
	}
	p, err := exec.LookPath(w.cfg.FFmpeg)
	if err != nil {
		w.ffErr = fmt.Errorf("clips are not written: %w (install ffmpeg)", err)
	}
	w.ffmpeg = p
	w.queue = make(chan Request, w.cfg.Queue)
	w.encode = make(chan spooled, encodeQueue)
	w.done = make(chan struct{})
	// Spool files a crash left behind.
	if old, err := filepath.Glob(filepath.Join(w.cfg.Dir, "*"+spoolExt)); err == nil {
		for _, f := range old {
			os.Remove(f)
		}
	}
	go w.spoolLoop()
	go w.encodeLoop()
	return nil
}

const spoolExt = ".frames.tmp"

// FFmpegErr says why clips cannot be written (nil when they can).
func (w *Writer) FFmpegErr() error { return w.ffErr }

// Dir is the directory written to.
func (w *Writer) Dir() string { return w.cfg.Dir }

// Submit queues a request and returns at once: false when the queue is
// full or the writer closed (the request is dropped and counted).
func (w *Writer) Submit(r Request) (ok bool) {
	defer func() {
		if recover() != nil { // closed
			Release(r.Frames)
			ok = false
		}
	}()
	select {
	case w.queue <- r:
		return true
	default:
		w.refused.Add(1)
		Release(r.Frames)
		return false
	}
}

// Refused counts requests dropped because the queue was full.
func (w *Writer) Refused() int64 { return w.refused.Load() }

// Close writes what is queued and stops.
func (w *Writer) Close() {
	if w.queue == nil {
		return
	}
	w.once.Do(func() {
		close(w.queue)
		<-w.done
	})
}

// spoolLoop writes each request's still and puts its frames on disk at
// once, so that a request waiting for ffmpeg holds no memory: the frames
// in memory are the replay buffer's, within its bound, and those of the
// request being spooled.
func (w *Writer) spoolLoop() {
	defer close(w.encode)
	lowerThreadPriority(w.cfg.Nice, true) // the still's drawing yields to the pipeline
	for r := range w.queue {
		sp := w.spool(r)
		Release(r.Frames) // read: the replay buffer's files may close
		w.encode <- sp
	}
}

// encodeLoop encodes the spooled clips one after the other.
func (w *Writer) encodeLoop() {
	defer close(w.done)
	// ffmpeg, started from this thread, inherits its lower priority.
	lowerThreadPriority(w.cfg.Nice, true)
	for sp := range w.encode {
		res := w.finish(sp)
		if w.Done != nil {
			w.Done(res)
		}
	}
}

// Path returns the path of a file the writer made (for serving): name must
// be a plain file name.
func (w *Writer) Path(name string) (string, bool) {
	if !nameRE.MatchString(name) || strings.Contains(name, "..") {
		return "", false
	}
	return filepath.Join(w.cfg.Dir, name), true
}

// spool writes the still and the clip's frames (the spool file).
func (w *Writer) spool(r Request) spooled {
	sp := spooled{t0: time.Now(), res: Result{Name: r.Name, Frames: len(r.Frames)}}
	res := &sp.res
	fail := func(err error) {
		if res.Err == nil {
			res.Err = err
		}
	}
	if !nameRE.MatchString(r.Name) {
		fail(fmt.Errorf("evidence: bad name %q", r.Name))
		return sp
	}
	if len(r.Frames) == 0 {
		fail(fmt.Errorf("evidence %s: no frames kept for it (the replay buffer had none in range)", r.Name))
		return sp
	}
	if err := os.MkdirAll(w.cfg.Dir, 0o750); err != nil {
		fail(fmt.Errorf("evidence %s: %w", r.Name, err))
		return sp
	}
	if !r.NoStill {
		f := nearest(r.Frames, r.Decisive)
		res.StillFrame = f.Index
		p := filepath.Join(w.cfg.Dir, r.Name+".jpg")
		if n, err := w.writeStill(p, f, r.Scene); err != nil {
			fail(fmt.Errorf("evidence %s: still: %w", r.Name, err))
		} else {
			res.Still, res.Bytes = p, res.Bytes+n
		}
	}
	if w.ffErr != nil {
		fail(fmt.Errorf("evidence %s: %w", r.Name, w.ffErr))
		return sp
	}
	sp.fps = r.FPS
	if sp.fps <= 0 {
		sp.fps = clipFPS(r.Frames)
	}
	p := filepath.Join(w.cfg.Dir, r.Name+spoolExt)
	if err := writeFrames(p, r.Frames); err != nil {
		fail(fmt.Errorf("evidence %s: clip: %w", r.Name, err))
		return sp
	}
	sp.frames = p
	return sp
}

// writeFrames writes the frames' JPEGs one after the other.
func writeFrames(path string, fs []Frame) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o640)
	if err != nil {
		return err
	}
	for _, fr := range fs {
		var b []byte
		if b, err = fr.Bytes(); err != nil {
			break
		}
		if _, err = f.Write(b); err != nil {
			break
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// finish encodes a spooled clip and applies the deletion policy.
func (w *Writer) finish(sp spooled) Result {
	res := sp.res
	if sp.frames != "" {
		tc := time.Now()
		p := filepath.Join(w.cfg.Dir, res.Name+".mp4")
		n, cpu, err := w.writeClip(p, sp.frames, sp.fps)
		os.Remove(sp.frames)
		res.ClipCPU = cpu
		if err != nil {
			if res.Err == nil {
				res.Err = fmt.Errorf("evidence %s: clip: %w", res.Name, err)
			}
		} else {
			res.Clip, res.Bytes = p, res.Bytes+n
		}
		res.ClipTook = time.Since(tc)
	}
	res.Took = time.Since(sp.t0)
	if res.Frames > 0 && nameRE.MatchString(res.Name) {
		res.Pruned = w.prune(time.Now())
	}
	return res
}

// nearest is the frame closest to index.
func nearest(fs []Frame, index int64) Frame {
	best := fs[0]
	for _, f := range fs[1:] {
		if abs64(f.Index-index) < abs64(best.Index-index) {
			best = f
		}
	}
	return best
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// writeStill draws the scene on the frame and writes a JPEG atomically
// (a temporary file renamed).
func (w *Writer) writeStill(path string, f Frame, s Scene) (int64, error) {
	jpeg, err := f.Bytes()
	if err != nil {
		return 0, err
	}
	b, err := w.Painter.Repaint(jpeg, 88, func(w, h int) overlay.Drawing { return Draw(w, h, s) })
	if err != nil {
		return 0, err
	}
	return writeAtomic(path, b)
}

func writeAtomic(path string, b []byte) (int64, error) {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o640); err != nil {
		os.Remove(tmp)
		return 0, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return 0, err
	}
	return int64(len(b)), nil
}

// clipFPS is the frame rate of the frames (their median PTS interval),
// 30 when unknown.
func clipFPS(fs []Frame) float64 {
	var d []time.Duration
	for i := 1; i < len(fs); i++ {
		if dt := fs[i].PTS - fs[i-1].PTS; dt > 0 {
			d = append(d, dt)
		}
	}
	if len(d) == 0 {
		return 30
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	fps := float64(time.Second) / float64(d[len(d)/2])
	if fps < 1 || fps > 120 {
		return 30
	}
	return fps
}

// writeClip has ffmpeg encode the spooled JPEG frames into an H.264 MP4
// (yuv420p, faststart: plays in Chromium and Firefox) at low priority.
func (w *Writer) writeClip(path, frames string, fps float64) (int64, time.Duration, error) {
	tmp := path + ".tmp.mp4"
	cmd := exec.Command(w.ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
		"-f", "image2pipe", "-c:v", "mjpeg", "-framerate", strconv.FormatFloat(fps, 'f', 3, 64), "-i", frames,
		"-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2", "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
		"-threads", "1", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-an", tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	err := cmd.Wait()
	var cpu time.Duration
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	if err != nil {
		os.Remove(tmp)
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 300 {
			msg = msg[len(msg)-300:]
		}
		if msg != "" {
			return 0, cpu, fmt.Errorf("ffmpeg: %v: %s", err, msg)
		}
		return 0, cpu, fmt.Errorf("ffmpeg: %w", err)
	}
	st, err := os.Stat(tmp)
	if err != nil {
		return 0, cpu, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return 0, cpu, err
	}
	return st.Size(), cpu, nil
}

// prune applies the deletion policy to the directory and returns how many
// files it deleted.
func (w *Writer) prune(now time.Time) int {
	return Prune(w.cfg.Dir, w.cfg.MaxAge, w.cfg.MaxBytes, now)
}

// Prune deletes the stills and clips (*.jpg, *.mp4, and the *.json that
// describe them) of dir older than
// maxAge, then the oldest until the rest hold at most maxBytes, and
// returns how many it deleted.
func Prune(dir string, maxAge time.Duration, maxBytes int64, now time.Time) int {
	type file struct {
		path string
		mod  time.Time
		size int64
	}
	var files []file
	var total int64
	n := 0
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".jpg") || strings.HasSuffix(name, ".mp4") || strings.HasSuffix(name, ".json")) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		p := filepath.Join(dir, name)
		if now.Sub(info.ModTime()) > maxAge {
			if os.Remove(p) == nil {
				n++
			}
			continue
		}
		files = append(files, file{p, info.ModTime(), info.Size()})
		total += info.Size()
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= maxBytes {
			break
		}
		if os.Remove(f.path) == nil {
			n++
			total -= f.size
		}
	}
	return n
}
