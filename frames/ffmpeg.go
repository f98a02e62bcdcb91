package frames

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/boardcam/boardcam/internal/tail"
)

// Info describes a video.
type Info struct {
	Width, Height int
	// FPS is the frame rate the video states (0: none).
	FPS float64
	// Frames is the number of frames the container states (0: unknown).
	Frames int
}

// FrameSize is the size of one BGR frame in bytes.
func (i Info) FrameSize() int { return i.Width * i.Height * 3 }

// Source delivers BGR frames one at a time.
type Source interface {
	Info() Info
	// Next fills dst (Info().FrameSize() bytes) with the next frame; it
	// returns io.EOF after the last.
	Next(dst []byte) error
	Close() error
}

// Commands found on PATH (tests may point them elsewhere).
var (
	FFmpeg  = "ffmpeg"
	FFprobe = "ffprobe"
)

// Video is a video file decoded by an ffmpeg process.
type Video struct {
	info   Info
	path   string
	cmd    *exec.Cmd
	out    io.ReadCloser
	r      *bufio.Reader
	stderr *tail.Buffer
	read   int
	peak   int64 // the decoder's VmHWM in KiB, sampled while it runs
	once   sync.Once
	err    error
}

// Open probes path with ffprobe and starts ffmpeg decoding it.
func Open(path string) (*Video, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("frames: %w", err)
	}
	info, err := Probe(path)
	if err != nil {
		return nil, err
	}
	v := &Video{info: info, path: path, stderr: &tail.Buffer{Max: 4096}}
	// -sws_flags bicubic: OpenCV's conversion (cap_ffmpeg_impl.hpp:
	// sws_getCachedContext(…, SWS_BICUBIC, …)) for the auto-inserted scaler.
	v.cmd = exec.Command(FFmpeg, "-hide_banner", "-nostdin", "-v", "error",
		"-i", path, "-map", "0:v:0", "-sws_flags", "bicubic",
		"-f", "rawvideo", "-pix_fmt", "bgr24", "pipe:1")
	v.cmd.Stderr = v.stderr
	out, err := v.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("frames: %w", err)
	}
	if err := v.cmd.Start(); err != nil {
		return nil, fmt.Errorf("frames: %s: cannot start %s (apt install ffmpeg): %w", path, FFmpeg, err)
	}
	v.out = out
	v.r = bufio.NewReaderSize(out, 1<<16)
	return v, nil
}

// Info describes the video.
func (v *Video) Info() Info { return v.info }

// Next reads the next frame into dst.
func (v *Video) Next(dst []byte) error {
	if len(dst) != v.info.FrameSize() {
		return fmt.Errorf("frames: buffer of %d bytes for a %dx%d frame (%d)", len(dst), v.info.Width, v.info.Height, v.info.FrameSize())
	}
	if v.read%64 == 0 {
		v.sample()
	}
	n, err := io.ReadFull(v.r, dst)
	switch {
	case err == nil:
		v.read++
		return nil
	case errors.Is(err, io.EOF):
		if werr := v.wait(); werr != nil {
			return werr
		}
		return io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		_ = v.wait()
		return fmt.Errorf("frames: %s: the decoder stopped inside frame %d (%d of %d bytes)%s", v.path, v.read, n, len(dst), v.stderr.Said())
	}
	return fmt.Errorf("frames: %s: %w", v.path, err)
}

// Read is the number of frames read so far.
func (v *Video) Read() int { return v.read }

// PeakRSS is the decoder process's peak resident memory in KiB, as last
// sampled (every 64 frames and at the end): 0 when /proc cannot say.
func (v *Video) PeakRSS() int64 { return v.peak }

func (v *Video) sample() {
	if v.cmd == nil || v.cmd.Process == nil {
		return
	}
	if kb := vmHWM(v.cmd.Process.Pid); kb > v.peak {
		v.peak = kb
	}
}

// wait reaps the decoder once and reports how it ended.
func (v *Video) wait() error {
	v.once.Do(func() {
		v.sample()
		err := v.cmd.Wait()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) && ee.Exited() {
				v.err = fmt.Errorf("frames: %s: %s failed (%v)%s", v.path, FFmpeg, err, v.stderr.Said())
			}
			// Killed by Close: not the video's fault.
		}
	})
	return v.err
}

// Close stops the decoder.
func (v *Video) Close() error {
	if v.cmd == nil || v.cmd.Process == nil {
		return nil
	}
	v.sample()
	_ = v.out.Close()
	_ = v.cmd.Process.Kill()
	_ = v.wait()
	return nil
}

// vmHWM reads a process's peak resident set size (KiB) from /proc.
func vmHWM(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}

// Probe reads a video's size, frame rate and frame count with ffprobe, as
// the frames will come out: rotated when the video says so (ffmpeg turns
// them upright, as OpenCV does).
func Probe(path string) (Info, error) {
	cmd := exec.Command(FFprobe, "-v", "error", "-select_streams", "v:0",
		"-show_entries", "stream=width,height,avg_frame_rate,r_frame_rate,nb_frames,duration:stream_side_data=rotation:stream_tags=rotate",
		"-of", "json", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return Info{}, fmt.Errorf("frames: %s: not a video ffprobe can read: %s", path, strings.TrimSpace(stderr.String()))
		}
		return Info{}, fmt.Errorf("frames: cannot run %s (apt install ffmpeg): %w", FFprobe, err)
	}
	var doc struct {
		Streams []struct {
			Width, Height int
			AvgFrameRate  string `json:"avg_frame_rate"`
			RFrameRate    string `json:"r_frame_rate"`
			NbFrames      string `json:"nb_frames"`
			Duration      string `json:"duration"`
			SideData      []struct {
				Rotation float64 `json:"rotation"`
			} `json:"side_data_list"`
			Tags struct {
				Rotate string `json:"rotate"`
			} `json:"tags"`
		} `json:"streams"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return Info{}, fmt.Errorf("frames: %s: ffprobe: %w", path, err)
	}
	if len(doc.Streams) == 0 || doc.Streams[0].Width <= 0 || doc.Streams[0].Height <= 0 {
		return Info{}, fmt.Errorf("frames: %s: no video stream", path)
	}
	s := doc.Streams[0]
	info := Info{Width: s.Width, Height: s.Height}
	// OpenCV's CAP_PROP_FPS is av_guess_frame_rate: r_frame_rate unless
	// the average is the better guess; for camera clips they agree.
	info.FPS = rate(s.RFrameRate)
	if a := rate(s.AvgFrameRate); a > 0 && (info.FPS == 0 || info.FPS > 1000) {
		info.FPS = a
	}
	if n, err := strconv.Atoi(s.NbFrames); err == nil {
		info.Frames = n
	} else if d, err := strconv.ParseFloat(s.Duration, 64); err == nil && info.FPS > 0 {
		info.Frames = int(math.Round(d * info.FPS))
	}
	rot := 0.0
	for _, sd := range s.SideData {
		if sd.Rotation != 0 {
			rot = sd.Rotation
		}
	}
	if rot == 0 && s.Tags.Rotate != "" {
		rot, _ = strconv.ParseFloat(s.Tags.Rotate, 64)
	}
	if r := int(math.Abs(math.Round(rot))) % 180; r == 90 {
		info.Width, info.Height = info.Height, info.Width
	}
	return info, nil
}

func rate(s string) float64 {
	num, den, ok := strings.Cut(s, "/")
	n, err1 := strconv.ParseFloat(num, 64)
	if !ok {
		if err1 != nil {
			return 0
		}
		return n
	}
	d, err2 := strconv.ParseFloat(den, 64)
	if err1 != nil || err2 != nil || d == 0 {
		return 0
	}
	return n / d
}
