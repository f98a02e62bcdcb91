package evidence

import (
	"image"
	"runtime"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/render/paint"
)

// The README's figures (docs/evidence.md): the replay buffer's memory for
// 8 s of the demo clip at 720p and scaled up to 1080p, and the time to
// write a still and an 8 s clip.
//
//	go test -tags matprofile -run '^$' -bench . -benchtime 1x ./evidence/

const demoClip = "../testdata/videos/demo.mp4"

// demoFrames reads n frames of the demo clip, resized to w×h.
func demoFrames(b *testing.B, n, w, h int) []gocv.Mat {
	vc, err := gocv.VideoCaptureFile(demoClip)
	if err != nil {
		b.Skipf("demo clip: %v", err)
	}
	defer vc.Close()
	var out []gocv.Mat
	m := gocv.NewMat()
	defer m.Close()
	for len(out) < n && vc.Read(&m) && !m.Empty() {
		r := gocv.NewMat()
		gocv.Resize(m, &r, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
		out = append(out, r)
	}
	if len(out) < n {
		b.Skipf("demo clip: %d frames", len(out))
	}
	return out
}

func closeAll(ms []gocv.Mat) {
	for _, m := range ms {
		m.Close()
	}
}

// heapInUse is the Go heap's live bytes after a collection.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

func benchBuffer(b *testing.B, w, h, maxWidth int, spill string) {
	frames := demoFrames(b, 240, w, h)
	defer closeAll(frames)
	b.ResetTimer()
	var st Stats
	var heap int64
	for i := 0; i < b.N; i++ {
		heap0 := heapInUse()
		buf := &Buffer{Config: BufferConfig{Seconds: 8, MaxWidth: maxWidth, SpillDir: spill}, Painter: paint.Painter{}}
		_ = buf.Initialize()
		var addNs int64
		for j, f := range frames {
			t0 := time.Now()
			for !buf.Add(&f, int64(j), fps30(j)) {
				_ = buf.Sync(10 * time.Second)
				t0 = time.Now()
			}
			addNs += int64(time.Since(t0))
		}
		_ = buf.Sync(10 * time.Second)
		st = buf.Stats()
		heap = heapInUse() - heap0
		buf.Close()
		b.ReportMetric(float64(addNs)/float64(len(frames))/1e6, "ms-add/frame")
	}
	b.ReportMetric(float64(st.Bytes)/(1<<20), "MiB/8s")
	b.ReportMetric(float64(heap)/(1<<20), "MiB-heap")
	b.ReportMetric(float64(st.EncodeMean.Microseconds())/1000, "ms-compress/frame")
	b.ReportMetric(float64(st.EncodeCPU.Microseconds())/1000, "ms-cpu-compress/frame")
}

func BenchmarkBuffer720p(b *testing.B)           { benchBuffer(b, 1280, 720, 0, "") }
func BenchmarkBuffer720pOnDisk(b *testing.B)     { benchBuffer(b, 1280, 720, 0, b.TempDir()) }
func BenchmarkBuffer720pFullWidth(b *testing.B)  { benchBuffer(b, 1280, 720, 1280, "") }
func BenchmarkBuffer1080pScaled(b *testing.B)    { benchBuffer(b, 1920, 1080, 0, "") }
func BenchmarkBuffer1080pFullWidth(b *testing.B) { benchBuffer(b, 1920, 1080, 1920, "") }

// BenchmarkWriteClip8s: the still and an 8 s clip of the demo at 720p.
func BenchmarkWriteClip8s(b *testing.B) {
	frames := demoFrames(b, 240, 1280, 720)
	defer closeAll(frames)
	buf := &Buffer{Config: BufferConfig{Seconds: 8}, Painter: paint.Painter{}}
	_ = buf.Initialize()
	for j, f := range frames {
		for !buf.Add(&f, int64(j), fps30(j)) {
			_ = buf.Sync(10 * time.Second)
		}
	}
	_ = buf.Sync(10 * time.Second)
	fs := buf.Frames(0, 239)
	buf.Close()
	dir := b.TempDir()
	var res Result
	w := &Writer{Config: WriterConfig{Dir: dir}, Painter: paint.Painter{}, Done: func(r Result) { res = r }}
	_ = w.Initialize()
	defer w.Close()
	b.ResetTimer()
	var took, clip, cpu time.Duration
	for i := 0; i < b.N; i++ {
		r := w.finish(w.spool(Request{Name: "bench", Frames: fs, Decisive: 120, Scene: Scene{Title: "bench"}}))
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		res = r
		took += r.Took
		clip += r.ClipTook
		cpu += r.ClipCPU
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "s-cpu-clip")
	b.ReportMetric(took.Seconds()/float64(b.N), "s-total")
	b.ReportMetric(clip.Seconds()/float64(b.N), "s-clip")
	b.ReportMetric(float64(res.Bytes)/(1<<20), "MiB-files")
}
