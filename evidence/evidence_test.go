package evidence

import (
	"bytes"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/render/paint"
)

// frame makes a small picture with a moving square, so that consecutive
// frames differ.
func frame(t testing.TB, w, h int, i int) gocv.Mat {
	t.Helper()
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 90, 140, 0), h, w, gocv.MatTypeCV8UC3)
	x := (i * 7) % max(1, w-20)
	gocv.Rectangle(&m, image.Rect(x, h/3, x+20, h/3+20), color.RGBA{250, 250, 250, 0}, -1)
	return m
}

func fps30(i int) time.Duration { return time.Duration(i) * time.Second / 30 }

func addSync(t *testing.T, b *Buffer, i int, w, h int) {
	t.Helper()
	m := frame(t, w, h, i)
	defer m.Close()
	for !b.Add(&m, int64(i), fps30(i)) {
		if err := b.Sync(5 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBufferKeepsItsSecondsAndTheStroke(t *testing.T) {
	b := &Buffer{Config: BufferConfig{Seconds: 1, StrokeSeconds: 3}, Painter: paint.Painter{}}
	if err := b.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := 0; i < 60; i++ { // 2 s at 30 fps
		addSync(t, b, i, 64, 48)
	}
	if err := b.Sync(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	st := b.Stats()
	if st.Frames != 31 || st.Span != time.Second {
		t.Fatalf("ring after 2 s with Seconds 1: %d frames over %v, want 31 over 1s", st.Frames, st.Span)
	}
	// A stroke from frame 60 to 140 (2.7 s): all of it is kept although
	// longer than Seconds.
	b.StrokeStart(60)
	for i := 60; i <= 150; i++ {
		addSync(t, b, i, 64, 48)
	}
	_ = b.Sync(5 * time.Second)
	b.StrokeEnd(140)
	fs := b.Frames(60, 140)
	if len(fs) != 81 || fs[0].Index != 60 || fs[80].Index != 140 {
		t.Fatalf("stroke frames: %d (%d…%d), want 81 (60…140)", len(fs), fs[0].Index, fs[len(fs)-1].Index)
	}
	// Once the stroke is over the ring shrinks back to its second, the
	// last stroke stays.
	for i := 151; i <= 250; i++ {
		addSync(t, b, i, 64, 48)
	}
	_ = b.Sync(5 * time.Second)
	st = b.Stats()
	if st.Span != time.Second || st.StrokeFrames != 81 {
		t.Fatalf("after the stroke: ring %v, last stroke %d frames; want 1s and 81", st.Span, st.StrokeFrames)
	}
	if fs := b.Frames(130, 250); len(fs) != 11+31 {
		t.Fatalf("Frames across the stroke and the ring: %d, want 42", len(fs))
	}
}

func TestBufferStrokeLongerThanItsBoundKeepsItsEnd(t *testing.T) {
	b := &Buffer{Config: BufferConfig{Seconds: 0.5, StrokeSeconds: 1}, Painter: paint.Painter{}}
	if err := b.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.StrokeStart(0)
	for i := 0; i < 90; i++ {
		addSync(t, b, i, 32, 24)
	}
	_ = b.Sync(5 * time.Second)
	if st := b.Stats(); st.Span != time.Second {
		t.Fatalf("a 3 s stroke with StrokeSeconds 1 keeps %v", st.Span)
	}
}

func TestBufferBytesBound(t *testing.T) {
	b := &Buffer{Config: BufferConfig{Seconds: 100, MaxBytes: 20000}, Painter: paint.Painter{}}
	if err := b.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := 0; i < 40; i++ {
		addSync(t, b, i, 320, 240)
	}
	_ = b.Sync(5 * time.Second)
	st := b.Stats()
	if st.Bytes > 20000 || st.Frames < 1 || st.Frames == 40 {
		t.Fatalf("MaxBytes 20000: %d bytes in %d frames", st.Bytes, st.Frames)
	}
}

// MaxBytes bounds the ring and the last stroke together: the stroke's
// oldest frames outside the ring go first, the ring keeps its seconds.
func TestBufferBoundsRingAndStrokeTogether(t *testing.T) {
	probe := &Buffer{Config: BufferConfig{Seconds: 1}, Painter: paint.Painter{}}
	if err := probe.Initialize(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 31; i++ {
		addSync(t, probe, i, 64, 48)
	}
	_ = probe.Sync(5 * time.Second)
	ps := probe.Stats()
	probe.Close()
	per := ps.Bytes / int64(ps.Frames)
	limit := 60 * per // the ring's 31 frames and about 29 of the stroke's

	b := &Buffer{Config: BufferConfig{Seconds: 1, StrokeSeconds: 3, MaxBytes: limit}, Painter: paint.Painter{}}
	if err := b.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.StrokeStart(0)
	for i := 0; i <= 50; i++ { // a 1.7 s stroke
		addSync(t, b, i, 64, 48)
	}
	_ = b.Sync(5 * time.Second)
	b.StrokeEnd(50)
	for i := 51; i <= 150; i++ { // the stroke leaves the ring
		addSync(t, b, i, 64, 48)
	}
	_ = b.Sync(5 * time.Second)
	st := b.Stats()
	if st.Held > limit || st.MaxHeld > limit {
		t.Fatalf("held %d bytes, at most %d; the bound is %d", st.Held, st.MaxHeld, limit)
	}
	if st.Span != time.Second {
		t.Fatalf("the ring keeps %v, want its 1s", st.Span)
	}
	fs := b.Frames(0, 50)
	if len(fs) == 0 || len(fs) == 51 || fs[len(fs)-1].Index != 50 {
		t.Fatalf("the last stroke keeps %d frames, want its newest, fewer than 51", len(fs))
	}
	if st.Held < st.Bytes+int64(len(fs))*per/2 {
		t.Fatalf("held %d bytes: the ring's %d and the stroke's %d frames are not counted", st.Held, st.Bytes, len(fs))
	}
}

// Add never waits: with every slot taken (no compressor running) frames
// are refused and counted.
func TestBufferAddNeverWaits(t *testing.T) {
	b := &Buffer{cfg: BufferConfig{Slots: 2}.withDefaults(), Painter: paint.Painter{}}
	b.free = make(chan *slot, 2)
	b.work = make(chan *slot, 2)
	for i := 0; i < 2; i++ {
		b.free <- &slot{img: b.Painter.NewImage()}
	}
	m := frame(t, 32, 24, 0)
	defer m.Close()
	got := []bool{b.Add(&m, 0, 0), b.Add(&m, 1, 0), b.Add(&m, 2, 0)}
	if !got[0] || !got[1] || got[2] {
		t.Fatalf("Add with 2 slots and no compressor: %v", got)
	}
	if b.Stats().NotKept != 1 {
		t.Fatalf("NotKept = %d", b.Stats().NotKept)
	}
	close(b.work)
	for s := range b.work {
		s.img.Close()
	}
}

func TestBufferScalesWideFrames(t *testing.T) {
	b := &Buffer{Config: BufferConfig{MaxWidth: 160}, Painter: paint.Painter{}}
	if err := b.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	addSync(t, b, 0, 320, 180)
	_ = b.Sync(5 * time.Second)
	f, ok := b.Latest()
	if !ok || f.W != 160 || f.H != 90 {
		t.Fatalf("kept %dx%d, want 160x90", f.W, f.H)
	}
}

func framesFor(t *testing.T, n, w, h int) []Frame {
	b := &Buffer{Config: BufferConfig{Seconds: 60}, Painter: paint.Painter{}}
	if err := b.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := 0; i < n; i++ {
		addSync(t, b, i, w, h)
	}
	_ = b.Sync(5 * time.Second)
	return b.Frames(0, int64(n))
}

func needFFmpeg(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed")
	}
}

func TestWriterWritesStillAndClip(t *testing.T) {
	needFFmpeg(t)
	dir := t.TempDir()
	var got []Result
	w := &Writer{Config: WriterConfig{Dir: dir}, Painter: paint.Painter{}, Done: func(r Result) { got = append(got, r) }}
	if err := w.Initialize(); err != nil {
		t.Fatal(err)
	}
	fs := framesFor(t, 20, 160, 120)
	if !w.Submit(Request{Name: "m1-p3", Frames: fs, Decisive: 10, Scene: Scene{Title: "Asha's hand crossed the foul line, 17 mm"}}) {
		t.Fatal("Submit refused")
	}
	w.Close()
	if len(got) != 1 || got[0].Err != nil {
		t.Fatalf("results: %+v", got)
	}
	r := got[0]
	if r.StillFrame != 10 || r.Still != filepath.Join(dir, "m1-p3.jpg") || r.Clip != filepath.Join(dir, "m1-p3.mp4") {
		t.Fatalf("result: %+v", r)
	}
	still, _ := os.ReadFile(r.Still)
	if !bytes.HasPrefix(still, []byte{0xff, 0xd8}) {
		t.Fatal("the still is not a JPEG")
	}
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
		"-show_entries", "stream=codec_name,pix_fmt,nb_read_frames", "-of", "csv=p=0", r.Clip).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	if s := strings.TrimSpace(string(out)); s != "h264,yuv420p,20" {
		t.Fatalf("clip: %q, want h264,yuv420p,20", s)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.tmp*")); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}
}

// An unwritable directory or a missing ffmpeg costs the evidence, with an
// error in the result, and nothing else.
func TestWriterFailuresAreReported(t *testing.T) {
	fs := framesFor(t, 3, 64, 48)
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []Result
	w := &Writer{Config: WriterConfig{Dir: filepath.Join(blocker, "evidence")}, Painter: paint.Painter{}, Done: func(r Result) { got = append(got, r) }}
	if err := w.Initialize(); err != nil {
		t.Fatal(err)
	}
	w.Submit(Request{Name: "a", Frames: fs})
	w.Submit(Request{Name: "b"}) // no frames kept
	w.Close()
	if len(got) != 2 || got[0].Err == nil || got[0].Still != "" || got[1].Err == nil || !strings.Contains(got[1].Err.Error(), "no frames") {
		t.Fatalf("results: %+v", got)
	}

	dir := t.TempDir()
	got = nil
	w = &Writer{Config: WriterConfig{Dir: dir, FFmpeg: "/nonexistent/ffmpeg"}, Painter: paint.Painter{}, Done: func(r Result) { got = append(got, r) }}
	if err := w.Initialize(); err != nil {
		t.Fatal(err)
	}
	if w.FFmpegErr() == nil {
		t.Fatal("no error for a missing ffmpeg")
	}
	w.Submit(Request{Name: "c", Frames: fs})
	w.Close()
	if len(got) != 1 || got[0].Still == "" || got[0].Clip != "" || got[0].Err == nil {
		t.Fatalf("without ffmpeg: %+v", got)
	}
	if w.Submit(Request{Name: "d", Frames: fs}) {
		t.Fatal("Submit after Close accepted")
	}
}

func TestWriterQueueRefusesRatherThanWaits(t *testing.T) {
	w := &Writer{cfg: WriterConfig{Queue: 1}.withDefaults()}
	w.queue = make(chan Request, 1) // no goroutine takes them
	if !w.Submit(Request{Name: "a"}) || w.Submit(Request{Name: "b"}) || w.Refused() != 1 {
		t.Fatalf("a full queue: refused %d", w.Refused())
	}
}

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	mk := func(name string, size int, age time.Duration) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, size), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	mk("old.mp4", 10, 48*time.Hour)
	mk("a.jpg", 100, 3*time.Hour)
	mk("b.mp4", 100, 2*time.Hour)
	mk("c.mp4", 100, time.Hour)
	mk("journal.log", 1000, 100*time.Hour) // not evidence: kept
	if n := Prune(dir, 24*time.Hour, 250, now); n != 2 {
		t.Fatalf("pruned %d, want 2 (old.mp4 by age, a.jpg by size)", n)
	}
	for name, want := range map[string]bool{"old.mp4": false, "a.jpg": false, "b.mp4": true, "c.mp4": true, "journal.log": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", name, err == nil, want)
		}
	}
}

func TestWriterPathRefusesTraversal(t *testing.T) {
	w := &Writer{cfg: WriterConfig{Dir: "/x"}}
	for _, n := range []string{"../etc/passwd", "a/b", "", ".hidden", "a..b"} {
		if _, ok := w.Path(n); ok {
			t.Errorf("Path(%q) accepted", n)
		}
	}
	if p, ok := w.Path("m-p3.mp4"); !ok || p != "/x/m-p3.mp4" {
		t.Errorf("Path(m-p3.mp4) = %q %v", p, ok)
	}
}

func TestMarkingShapes(t *testing.T) {
	g := board.ICF()
	for _, name := range []string{"front line S", "base line N", "base lines E", "rear line W", "base circle S left",
		"base circle S right", "arrow NE", "arrow", "foul line", "imaginary line", "outer circle", "centre circle"} {
		s, c := MarkingShape(g, name, board.S)
		if len(s)+len(c) == 0 {
			t.Errorf("%q: no shape", name)
		}
	}
	if s, c := MarkingShape(g, "nothing known", board.S); len(s)+len(c) != 0 {
		t.Error("an unknown marking has a shape")
	}
	if s, _ := MarkingShape(g, "front line N", board.S); s[0] != g.FrontLine(board.N) {
		t.Error("front line N is not N's")
	}
}

// Draw marks the hand, the broken line and the caption where the
// homography puts them.
func TestDrawAnnotates(t *testing.T) {
	g := board.ICF()
	// Board mm → pixels of a 740×740 picture: 1 px per mm, centred.
	half := g.Half()
	h := [9]float64{0.5, 0, 370, 0, 0.5, 370, 0, 0, 1}
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 90, 90, 0), 740, 740, gocv.MatTypeCV8UC3)
	defer img.Close()
	hand := board.FromLocal(board.S, board.V(half*0.6, half*0.5))
	paint.Paint(&img, Draw(740, 740, Scene{Geometry: g, H: &h, CalW: 740, Marking: "foul line", Seat: board.S, Hand: &hand,
		Discs: []Disc{{ID: "S", Kind: board.Striker, MM: board.V(0, 0)}}, Involved: []string{"S"},
		Title: "Asha's hand crossed the foul line, 17 mm", Detail: "frame 512"}))
	at := func(p board.Vec) color.RGBA {
		x, y := int(0.5*p.X+370), int(0.5*p.Y+370)
		v := img.GetVecbAt(y, x)
		return color.RGBA{v[2], v[1], v[0], 255}
	}
	if c := at(hand); c.R < 200 || c.G > 120 {
		t.Errorf("the hand's point is %v, not the foul colour", c)
	}
	bottom := img.GetVecbAt(739, 5)
	if bottom[0] != 0 || bottom[1] != 0 || bottom[2] != 0 {
		// the caption band is shaded black
		t.Errorf("caption band at the bottom: %v", bottom)
	}
	// The markings: the outer circle's rightmost point in the marking
	// colour.
	marked := false
	for dx := -1.0; dx <= 1; dx++ {
		if c := at(board.V(g.OuterCircle().R+2*dx, 0)); c.B > 200 && c.R < 100 {
			marked = true
		}
	}
	if !marked {
		t.Errorf("the outer circle's rightmost point is %v, not the marking colour", at(board.V(g.OuterCircle().R, 0)))
	}
	if v := img.GetVecbAt(20, 725); v[0] == 90 && v[1] == 90 && v[2] == 90 {
		t.Error("no legend in the top-right corner")
	}
}

// The hand's outline (the vision's hand stage, in pixels of the
// calibrated frame) is shaded as it is, scaled to the kept frame; the
// patch around the hand's point is drawn only without it.
func TestDrawHandOutline(t *testing.T) {
	g := board.ICF()
	h := [9]float64{0.5, 0, 370, 0, 0.5, 370, 0, 0, 1}
	hand := board.V(100, 200)
	outline := [][2]float64{{400, 600}, {700, 600}, {700, 900}, {400, 900}} // of a 1480-wide frame
	d := Draw(740, 740, Scene{Geometry: g, H: &h, CalW: 1480, Hand: &hand, HandOutlines: [][][2]float64{outline, {{1, 1}, {2, 2}}}})
	var fills, patches int
	for _, op := range d.Ops {
		if op.Kind == overlay.OpPolygon && op.Th < 0 && op.Colour == overlay.Hand {
			if len(op.Pts) == 4 {
				fills++
				if op.Pts[0].X != 200 || op.Pts[2].Y != 450 || op.Alpha <= 0 || op.Alpha >= 1 {
					t.Errorf("outline not scaled to the kept frame: %v", op.Pts)
				}
			} else {
				patches++
			}
		}
	}
	if fills != 1 || patches != 0 {
		t.Fatalf("%d outlines and %d patches shaded, want the outline alone", fills, patches)
	}
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), 740, 740, gocv.MatTypeCV8UC3)
	defer img.Close()
	paint.Paint(&img, d)
	if v := img.GetVecbAt(300, 250); v[2] < 60 || v[1] > 10 {
		t.Errorf("inside the outline: %v, want shaded red", v)
	}
	if v := img.GetVecbAt(300, 150); v[2] != 0 {
		t.Errorf("outside the outline: %v, want untouched", v)
	}
	without := Draw(740, 740, Scene{Geometry: g, H: &h, CalW: 1480, Hand: &hand})
	patches = 0
	for _, op := range without.Ops {
		if op.Kind == overlay.OpPolygon && op.Colour == overlay.Hand {
			patches++
		}
	}
	if patches != 1 {
		t.Fatalf("without an outline %d patches, want 1 around the hand's point", patches)
	}
}
