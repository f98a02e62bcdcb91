package evidence

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardcam/boardcam/render/paint"
)

// feedStroke plays the same frames into b: 1 s before a stroke, a 1.7 s
// stroke (frames 30…80), 3 s after it.
func feedStroke(t *testing.T, b *Buffer) {
	t.Helper()
	for i := 0; i < 30; i++ {
		addSync(t, b, i, 160, 120)
	}
	_ = b.Sync(5 * time.Second)
	b.StrokeStart(30)
	for i := 30; i <= 80; i++ {
		addSync(t, b, i, 160, 120)
	}
	_ = b.Sync(5 * time.Second)
	b.StrokeEnd(80)
	for i := 81; i <= 170; i++ {
		addSync(t, b, i, 160, 120)
	}
	_ = b.Sync(5 * time.Second)
}

// Frames kept on disk (SpillDir) are the frames kept in memory, byte for
// byte, in the same numbers: the stroke's, from its first frame to the
// rest, after it left the ring; the process holds none of their bytes, and
// the files no frame is in any more are closed.
func TestBufferOnDiskKeepsTheSameFrames(t *testing.T) {
	cfg := BufferConfig{Seconds: 1, StrokeSeconds: 3}
	mem := &Buffer{Config: cfg, Painter: paint.Painter{}}
	cfg.SpillDir = t.TempDir()
	disk := &Buffer{Config: cfg, Painter: paint.Painter{}}
	for _, b := range []*Buffer{mem, disk} {
		if err := b.Initialize(); err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		feedStroke(t, b)
	}
	if err := disk.SpillErr(); err != nil {
		t.Fatalf("not spilled: %v", err)
	}
	ms, ds := mem.Stats(), disk.Stats()
	if !ds.OnDisk || ms.OnDisk || ds.Held != ms.Held || ds.Frames != ms.Frames || ds.StrokeFrames != ms.StrokeFrames {
		t.Fatalf("stats on disk %+v, in memory %+v", ds, ms)
	}
	for _, span := range [][2]int64{{30, 80}, {0, 170}, {140, 170}} {
		mf, df := mem.Frames(span[0], span[1]), disk.Frames(span[0], span[1])
		if len(mf) != len(df) || len(df) == 0 {
			t.Fatalf("frames %v: %d on disk, %d in memory", span, len(df), len(mf))
		}
		for i := range df {
			b, err := df[i].Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if df[i].JPEG != nil || df[i].Index != mf[i].Index || !bytes.Equal(b, mf[i].JPEG) || df[i].Size() != int64(len(b)) {
				t.Fatalf("frame %d of %v: on disk %d (%d bytes, in memory %v), in memory %d: not the same", i, span, df[i].Index, len(b), df[i].JPEG != nil, mf[i].Index)
			}
		}
		if span[0] == 30 && (df[0].Index != 30 || df[len(df)-1].Index != 80) {
			t.Fatalf("the stroke's frames on disk: %d…%d, want 30…80", df[0].Index, df[len(df)-1].Index)
		}
		Release(df)
	}
	// Held: the ring's 31 frames and the stroke's 51, about 82 × 2.5 kB:
	// a few segments; the frames in between (81…139) are in none kept open
	// beyond the segment they share.
	disk.spill.mu.Lock()
	open, size := len(disk.spill.segs), int64(0)
	for _, s := range disk.spill.segs {
		size += s.size
	}
	disk.spill.mu.Unlock()
	if size > ds.Held+2*segmentBytes {
		t.Fatalf("%d files of %d bytes open for %d bytes held", open, size, ds.Held)
	}
	// Frames handed out keep their file open until released, even after
	// the buffer let them go.
	fs := disk.Frames(30, 30)
	for i := 171; i <= 400; i++ {
		addSync(t, disk, i, 160, 120)
	}
	_ = disk.Sync(5 * time.Second)
	disk.StrokeStart(380)
	disk.StrokeEnd(400) // the first stroke is let go
	if got := disk.Frames(30, 30); len(got) != 0 {
		t.Fatalf("frame 30 still held: %+v", got)
	}
	if _, err := fs[0].Bytes(); err != nil {
		t.Fatalf("a frame handed out, read after the buffer let it go: %v", err)
	}
	Release(fs)
	disk.Close()
	disk.spill.mu.Lock()
	defer disk.spill.mu.Unlock()
	if n := len(disk.spill.segs); n != 0 {
		t.Fatalf("%d files open after Close", n)
	}
	if m, _ := filepath.Glob(filepath.Join(cfg.SpillDir, "*")); len(m) != 0 {
		t.Fatalf("files left in the directory: %v", m)
	}
}

// A directory in memory (tmpfs) is refused: the frames stay in the
// process, and SpillErr says why.
func TestBufferDoesNotSpillToMemory(t *testing.T) {
	var st syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &st) != nil || st.Type != 0x01021994 {
		t.Skip("no tmpfs at /dev/shm")
	}
	dir, err := os.MkdirTemp("/dev/shm", "boardcam-spill")
	if err != nil {
		t.Skip(err)
	}
	defer os.RemoveAll(dir)
	b := &Buffer{Config: BufferConfig{SpillDir: dir}, Painter: paint.Painter{}}
	if err := b.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	addSync(t, b, 0, 64, 48)
	_ = b.Sync(5 * time.Second)
	if !errors.Is(b.SpillErr(), errInMemory) || b.Stats().OnDisk {
		t.Fatalf("spilled to a tmpfs: %v", b.SpillErr())
	}
	fs := b.Frames(0, 0)
	if len(fs) != 1 || fs[0].JPEG == nil {
		t.Fatalf("the frame is not in memory: %+v", fs)
	}
}

// A decision's still and clip made from frames on disk hold every frame
// of the stroke, as from memory.
func TestWriterFromFramesOnDisk(t *testing.T) {
	needFFmpeg(t)
	dir := t.TempDir()
	b := &Buffer{Config: BufferConfig{Seconds: 1, StrokeSeconds: 3, SpillDir: dir}, Painter: paint.Painter{}}
	if err := b.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	feedStroke(t, b)
	var got []Result
	w := &Writer{Config: WriterConfig{Dir: dir}, Painter: paint.Painter{}, Done: func(r Result) { got = append(got, r) }}
	if err := w.Initialize(); err != nil {
		t.Fatal(err)
	}
	fs := b.Frames(30, 80)
	if !w.Submit(Request{Name: "m1-s80", Frames: fs, Decisive: 60, Scene: Scene{Title: "Asha pocketed 1 white"}}) {
		t.Fatal("Submit refused")
	}
	w.Close()
	if len(got) != 1 || got[0].Err != nil || got[0].StillFrame != 60 || got[0].Frames != 51 {
		t.Fatalf("results: %+v", got)
	}
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
		"-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", got[0].Clip).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	if s := strings.TrimSpace(string(out)); s != "51" {
		t.Fatalf("clip of %s frames, want the stroke's 51", s)
	}
	b.spill.mu.Lock()
	defer b.spill.mu.Unlock()
	for _, s := range b.spill.segs {
		if s.pins != 0 {
			t.Fatalf("a file still pinned after the writer read it: %d", s.pins)
		}
	}
}
