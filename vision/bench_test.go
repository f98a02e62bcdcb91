package vision

import (
	"syscall"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// benchFrames renders a short sequence at 1280×720 (or the size given):
// the opening arrangement at rest, then the same with the striker moving
// and a hand reaching in, alternating so that every frame changes
// somewhere.
func benchFrames(b testing.TB, w, h int) (*render.Renderer, []gocv.Mat) {
	s := render.DefaultSettings()
	s.Width, s.Height = w, h
	r := newRenderer(b, s, 1)
	g := board.ICF()
	var frames []gocv.Mat
	for i := 0; i < 8; i++ {
		sc := render.OpeningScene(g, board.S)
		sc.T = float64(i) / 30
		st, _ := sc.Disc("S")
		st.Pos = board.Vec{X: -200 + 40*float64(i), Y: g.BaseCircleY()}
		if i%2 == 1 {
			st.State, st.Vel = scene.Moving, board.Vec{X: 1200}
			sc.Hands = []scene.Hand{{Owner: "E", Elbow: board.Vec{X: 600, Y: 60}, Wrist: board.Vec{X: 380 - 5*float64(i), Y: 20}, Fingertip: board.Vec{X: 250 - 5*float64(i), Y: 10}, ArmWidth: 70, HandWidth: 85, Z: 15}}
		}
		frames = append(frames, renderScene(b, r, sc))
	}
	return r, frames
}

// cpuTime is the CPU time (user and system) the process has used so far.
// On a shared machine the wall clock counts the time others run; the
// benchmarks report this too ("cpu-ms/frame", "cpu-frames/s": one core
// under taskset -c 0, the garbage collector's work included).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the CPU time per frame since cpu0 to the benchmark's
// figures.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	cpu := cpuTime(b) - cpu0
	b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "cpu-ms/frame")
	b.ReportMetric(float64(b.N)/cpu.Seconds(), "cpu-frames/s")
}

func benchDetect(b *testing.B, w, h int, full bool) {
	r, frames := benchFrames(b, w, h)
	defer r.Close()
	defer func() {
		for _, f := range frames {
			f.Close()
		}
	}()
	cfg := Config{}
	if full {
		cfg.FullEvery = -1
	}
	det, err := New(truthCalibration(b, r, 0), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer det.Close()
	if _, err := det.Detect(frames[0], 0, 0); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuTime(b)
	var dirty float64
	for i := 0; i < b.N; i++ {
		if _, err := det.Detect(frames[i%len(frames)], i+1, float64(i+1)/30); err != nil {
			b.Fatal(err)
		}
		dirty += det.Stats().DirtyTiles
	}
	b.StopTimer()
	reportCPU(b, cpu0)
	b.ReportMetric(dirty/float64(b.N), "dirty")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}

// BenchmarkDetect720p is the per-frame cost at 1280×720 in play: each
// frame differs from the last (a striker moving, a hand coming and going),
// the rest of the board reused where unchanged.
func BenchmarkDetect720p(b *testing.B) { benchDetect(b, 1280, 720, false) }

// BenchmarkDetect720pFull searches the whole board every frame (the worst
// case: every frame changes everywhere, e.g. a flickering lamp).
func BenchmarkDetect720pFull(b *testing.B) { benchDetect(b, 1280, 720, true) }

// BenchmarkDetect1080p is BenchmarkDetect720p at 1920×1080.
func BenchmarkDetect1080p(b *testing.B) { benchDetect(b, 1920, 1080, false) }

// BenchmarkDetectBreak720p runs the detector over the break of
// testdata/scenarios/break.yaml rendered at 1280×720, 30 fps, in order:
// the striker placed by hand, aimed, struck into the pack, everything
// scattering and coming to rest — the mix of still and busy frames of
// real play.
func BenchmarkDetectBreak720p(b *testing.B) {
	c := simClip(b, "break", render.DefaultSettings(), 30, 0, 0)
	defer c.close()
	det, err := New(c.cal, Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer det.Close()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	var dirty float64
	for i := 0; i < b.N; i++ {
		k := i % len(c.frames)
		if k == 0 && i > 0 {
			// back to the first frame: a new clip
			b.StopTimer()
			t0 := cpuTime(b)
			if err := det.SetCalibration(c.cal); err != nil {
				b.Fatal(err)
			}
			cpu0 += cpuTime(b) - t0 // not counted either
			b.StartTimer()
		}
		if _, err := det.Detect(c.frames[k], k, float64(k)/30); err != nil {
			b.Fatal(err)
		}
		dirty += det.Stats().DirtyTiles
	}
	b.StopTimer()
	reportCPU(b, cpu0)
	b.ReportMetric(dirty/float64(b.N), "dirty")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}

// BenchmarkNew720p is the cost of a new calibration: the two remap tables
// and the buffers (the first frame then searches the whole board).
func BenchmarkNew720p(b *testing.B) {
	s := render.DefaultSettings()
	s.Width, s.Height = 1280, 720
	s.Sensor.Supersample = 1
	r := newRenderer(b, s, 1)
	defer r.Close()
	cal := truthCalibration(b, r, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		det, err := New(cal, Config{})
		if err != nil {
			b.Fatal(err)
		}
		det.Close()
	}
}
