package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"gocv.io/x/gocv"
)

// EncoderOptions configure the H.264 encoder.
type EncoderOptions struct {
	// FPS is the frame rate (30, 60, 120, …).
	FPS int
	// Video holds x264's rate factor, preset and bit-rate cap.
	Video VideoSettings
	// FFmpeg is the ffmpeg command (default "ffmpeg" from PATH).
	FFmpeg string
}

// Encoder writes frames to an H.264 MP4 file by piping raw BGR frames to
// the ffmpeg command. The output is deterministic: one x264 thread, fixed
// settings, no timestamps or version strings in the container, so the same
// frames give the same bytes. The file appears under its name only when
// Close succeeds (until then it is written as NAME.part).
type Encoder struct {
	path, part string
	w, h       int
	frames     int
	cmd        *exec.Cmd
	in         io.WriteCloser
	stderr     *limitedBuffer
	done       chan error
	closed     bool
}

// limitedBuffer keeps the last few kB of ffmpeg's messages.
type limitedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if b.buf.Len() > 8192 {
		rest := b.buf.Bytes()[b.buf.Len()-4096:]
		b.buf.Reset()
		b.buf.Write(rest)
	}
	return len(p), nil
}

func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(b.buf.String())
}

// EncoderArgs returns ffmpeg's arguments for encoding w×h BGR frames from
// standard input into the MP4 file out.
func EncoderArgs(out string, w, h int, o EncoderOptions) []string {
	v := o.Video
	args := []string{"-hide_banner", "-loglevel", "error",
		"-f", "rawvideo", "-pix_fmt", "bgr24", "-video_size", fmt.Sprintf("%dx%d", w, h),
		"-framerate", strconv.Itoa(o.FPS), "-i", "pipe:0",
		"-an", "-c:v", "libx264", "-preset", v.Preset, "-crf", strconv.Itoa(v.CRF)}
	if v.MaxKbps > 0 {
		args = append(args, "-maxrate", fmt.Sprintf("%dk", v.MaxKbps), "-bufsize", fmt.Sprintf("%dk", 2*v.MaxKbps))
	}
	args = append(args,
		"-pix_fmt", "yuv420p", "-g", strconv.Itoa(2*o.FPS),
		"-threads", "1", "-x264-params", "threads=1:lookahead-threads=1:sliced-threads=0",
		"-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1",
		"-movflags", "+faststart", "-f", "mp4", "-y", out)
	return args
}

// NewEncoder starts ffmpeg writing a w×h video to path.
func NewEncoder(path string, w, h int, o EncoderOptions) (*Encoder, error) {
	if o.FPS <= 0 {
		return nil, fmt.Errorf("render: encoder: fps %d must be positive", o.FPS)
	}
	if w <= 0 || h <= 0 || w%2 != 0 || h%2 != 0 {
		return nil, fmt.Errorf("render: encoder: frame size %dx%d must be positive and even (yuv420p)", w, h)
	}
	if o.Video.Preset == "" {
		o.Video = DefaultSettings().Video
	}
	bin := o.FFmpeg
	if bin == "" {
		bin = "ffmpeg"
	}
	if _, err := exec.LookPath(bin); err != nil {
		return nil, fmt.Errorf("render: encoder: %w (install ffmpeg with libx264)", err)
	}
	e := &Encoder{path: path, part: path + ".part", w: w, h: h, stderr: &limitedBuffer{}, done: make(chan error, 1)}
	e.cmd = exec.Command(bin, EncoderArgs(e.part, w, h, o)...)
	e.cmd.Stderr = e.stderr
	in, err := e.cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("render: encoder: %w", err)
	}
	e.in = in
	if err := e.cmd.Start(); err != nil {
		return nil, fmt.Errorf("render: encoder: start %s: %w", bin, err)
	}
	go func() { e.done <- e.cmd.Wait() }()
	return e, nil
}

// Write appends one frame (8-bit BGR of the encoder's size).
func (e *Encoder) Write(frame gocv.Mat) error {
	if e.closed {
		return errors.New("render: encoder: write after close")
	}
	if frame.Cols() != e.w || frame.Rows() != e.h || frame.Type() != gocv.MatTypeCV8UC3 {
		return fmt.Errorf("render: encoder: frame %d is %dx%d type %v, want %dx%d 8-bit BGR", e.frames, frame.Cols(), frame.Rows(), frame.Type(), e.w, e.h)
	}
	var b []byte
	if frame.IsContinuous() {
		var err error
		if b, err = frame.DataPtrUint8(); err != nil {
			return fmt.Errorf("render: encoder: %w", err)
		}
	} else {
		b = frame.ToBytes()
	}
	if _, err := e.in.Write(b); err != nil {
		return fmt.Errorf("render: encoder: frame %d: %w: %s", e.frames, err, e.stderr.String())
	}
	e.frames++
	return nil
}

// Frames returns how many frames were written.
func (e *Encoder) Frames() int { return e.frames }

// Close finishes the video and moves it to its name.
func (e *Encoder) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	e.in.Close()
	if err := <-e.done; err != nil {
		os.Remove(e.part)
		return fmt.Errorf("render: encoder: ffmpeg: %w: %s", err, e.stderr.String())
	}
	if e.frames == 0 {
		os.Remove(e.part)
		return errors.New("render: encoder: no frames written")
	}
	if err := os.Rename(e.part, e.path); err != nil {
		return fmt.Errorf("render: encoder: %w", err)
	}
	return nil
}

// Abort stops ffmpeg and removes the partial file.
func (e *Encoder) Abort() {
	if e.closed {
		return
	}
	e.closed = true
	e.in.Close()
	if e.cmd.Process != nil {
		e.cmd.Process.Kill()
	}
	<-e.done
	os.Remove(e.part)
}
