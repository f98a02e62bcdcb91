package render

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
	"gocv.io/x/gocv"
)

func needFFmpeg(t testing.TB) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed")
	}
}

// encodeClip renders n frames of a disc crossing the board and encodes them.
func encodeClip(t testing.TB, path string, s Settings, n int) {
	t.Helper()
	r, err := New(s, board.ICF(), 9)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	enc, err := NewEncoder(path, s.Width, s.Height, EncoderOptions{FPS: s.FPS, Video: s.Video})
	if err != nil {
		t.Fatal(err)
	}
	m := gocv.NewMat()
	defer m.Close()
	sc := OpeningScene(board.ICF(), board.S)
	st, _ := sc.Disc("S")
	for i := 0; i < n; i++ {
		tm := float64(i) / float64(s.FPS)
		st.State, st.Vel = scene.Moving, board.Vec{Y: -1500}
		st.Pos = board.Vec{Y: 250 - 1500*tm}
		sc.T = tm
		if err := r.Render(sc, &m); err != nil {
			enc.Abort()
			t.Fatal(err)
		}
		if err := enc.Write(m); err != nil {
			enc.Abort()
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
}

// The encoder writes an MP4 that OpenCV reads back frame by frame with the
// right count, size and rate; the same frames give the same bytes.
func TestEncoderReadBack(t *testing.T) {
	needFFmpeg(t)
	dir := t.TempDir()
	for _, fps := range []int{30, 60, 120} {
		s := small(320, 240)
		s.FPS = fps
		path := filepath.Join(dir, "clip.mp4")
		const n = 17
		encodeClip(t, path, s, n)
		if _, err := os.Stat(path + ".part"); !os.IsNotExist(err) {
			t.Errorf("partial file left behind")
		}
		vc, err := gocv.VideoCaptureFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := vc.Get(gocv.VideoCaptureFPS); got < float64(fps)-0.01 || got > float64(fps)+0.01 {
			t.Errorf("fps %v, want %d", got, fps)
		}
		m := gocv.NewMat()
		count := 0
		for vc.Read(&m) {
			if m.Empty() {
				break
			}
			if m.Cols() != 320 || m.Rows() != 240 {
				t.Errorf("frame %d is %dx%d", count, m.Cols(), m.Rows())
			}
			count++
		}
		m.Close()
		vc.Close()
		if count != n {
			t.Errorf("%d fps: read back %d frames, wrote %d", fps, count, n)
		}
		if fps == 30 {
			a, _ := os.ReadFile(path)
			encodeClip(t, path, s, n)
			b, _ := os.ReadFile(path)
			if !bytes.Equal(a, b) {
				t.Error("encoding the same frames twice gave different files")
			}
		}
	}
}

func TestEncoderErrors(t *testing.T) {
	needFFmpeg(t)
	dir := t.TempDir()
	if _, err := NewEncoder(filepath.Join(dir, "x.mp4"), 321, 240, EncoderOptions{FPS: 30}); err == nil {
		t.Error("odd width accepted")
	}
	if _, err := NewEncoder(filepath.Join(dir, "x.mp4"), 320, 240, EncoderOptions{FPS: 0}); err == nil {
		t.Error("fps 0 accepted")
	}
	if _, err := NewEncoder(filepath.Join(dir, "x.mp4"), 320, 240, EncoderOptions{FPS: 30, FFmpeg: "no-such-ffmpeg-here"}); err == nil {
		t.Error("missing ffmpeg not reported")
	}
	enc, err := NewEncoder(filepath.Join(dir, "y.mp4"), 320, 240, EncoderOptions{FPS: 30})
	if err != nil {
		t.Fatal(err)
	}
	wrong := gocv.NewMatWithSize(100, 100, gocv.MatTypeCV8UC3)
	defer wrong.Close()
	if err := enc.Write(wrong); err == nil {
		t.Error("wrong frame size accepted")
	}
	if err := enc.Close(); err == nil {
		t.Error("a video without frames closed without error")
	}
	if _, err := os.Stat(filepath.Join(dir, "y.mp4")); !os.IsNotExist(err) {
		t.Error("empty video left behind")
	}
	// Into a directory that does not exist: ffmpeg fails, Close says so.
	enc, err = NewEncoder(filepath.Join(dir, "nope", "z.mp4"), 320, 240, EncoderOptions{FPS: 30})
	if err != nil {
		t.Fatal(err)
	}
	ok := gocv.NewMatWithSize(240, 320, gocv.MatTypeCV8UC3)
	defer ok.Close()
	werr := enc.Write(ok)
	cerr := enc.Close()
	if werr == nil && cerr == nil {
		t.Error("writing into a missing directory reported no error")
	}
}

// BenchmarkClip5s renders and encodes a 5-second clip (the opening break:
// a fast striker, men scattering, a hand withdrawing, realistic noise) and
// reports its size in MB, the figure the corpus budget (≤ 3 MB a clip)
// depends on.
func BenchmarkClip5s(b *testing.B) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		b.Skip("ffmpeg not installed")
	}
	for _, c := range []struct {
		name      string
		w, h, fps int
	}{{"720p30", 1280, 720, 30}, {"720p60", 1280, 720, 60}, {"720p120", 1280, 720, 120}, {"1080p30", 1920, 1080, 30}} {
		b.Run(c.name, func(b *testing.B) {
			s := DefaultSettings()
			s.Width, s.Height, s.FPS = c.w, c.h, c.fps
			path := filepath.Join(b.TempDir(), "clip.mp4")
			for i := 0; i < b.N; i++ {
				r, err := New(s, board.ICF(), 1)
				if err != nil {
					b.Fatal(err)
				}
				enc, err := NewEncoder(path, c.w, c.h, EncoderOptions{FPS: c.fps, Video: s.Video})
				if err != nil {
					b.Fatal(err)
				}
				m := gocv.NewMat()
				base := OpeningScene(board.ICF(), board.S)
				n := 5 * c.fps
				for f := 0; f < n; f++ {
					tm := float64(f) / float64(c.fps)
					sc := *base
					sc.T = tm
					sc.Discs = append([]scene.Disc(nil), base.Discs...)
					for k := range sc.Discs {
						d := &sc.Discs[k]
						if tm > 1 {
							// everything slides away from the centre, slowing down
							dir := d.Pos.Unit()
							if d.ID == "S" {
								dir = board.Vec{Y: -1}
							}
							v0 := 1200.0
							dt := math.Min(tm-1, v0/400)
							d.Pos = d.Pos.Add(dir.Scale(v0*dt - 200*dt*dt))
							d.Vel = dir.Scale(math.Max(v0-400*(tm-1), 0))
							d.State = scene.Moving
						}
					}
					if tm < 1.5 {
						y := 250 + 300*math.Max(tm-0.7, 0)
						sc.Hands = []scene.Hand{{Owner: "S", Elbow: board.Vec{X: 60, Y: y + 380}, Wrist: board.Vec{X: 20, Y: y + 140}, Fingertip: board.Vec{X: 5, Y: y - 10}, ArmWidth: 70, HandWidth: 85, Z: 8}}
					}
					if err := r.Render(&sc, &m); err != nil {
						b.Fatal(err)
					}
					if err := enc.Write(m); err != nil {
						b.Fatal(err)
					}
				}
				m.Close()
				r.Close()
				if err := enc.Close(); err != nil {
					b.Fatal(err)
				}
			}
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(st.Size())/1e6, "MB/5s")
		})
	}
}
