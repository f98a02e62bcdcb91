package evidence

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/sight"
)

// Frame is one compressed camera frame.
type Frame struct {
	// Index is the frame's number in the stream, PTS its time in the
	// source (the buffer's seconds are counted in PTS, so that a file read
	// faster than real time keeps its own seconds).
	Index int64
	PTS   time.Duration
	// JPEG is the compressed picture, W×H its size (smaller than the
	// camera's when BufferConfig.MaxWidth scaled it down). Never modified
	// once in the buffer: slices of frames share it. Nil when the frame is
	// in the buffer's file on disk (BufferConfig.SpillDir): Bytes reads it.
	JPEG []byte
	W, H int

	// seg, off and n locate a spilled frame's JPEG.
	seg *segment
	off int64
	n   int
}

// BufferConfig sizes a [Buffer]. Zero values take the defaults.
type BufferConfig struct {
	// Seconds of frames kept (default 8).
	Seconds float64
	// StrokeSeconds bounds the frames kept for one stroke, from the
	// striker's placement to the rest (default 20): a stroke longer than
	// that keeps its last StrokeSeconds.
	StrokeSeconds float64
	// MaxWidth: wider frames are scaled down before compressing (default
	// 960: a 720p or 1080p camera's frames are kept at 960×540, about
	// 9 MiB for 8 s of the demo instead of 16 at 1280×720).
	MaxWidth int
	// Quality is the JPEG quality, 1…100 (default 80).
	Quality int
	// MaxBytes bounds all the compressed frames held: the ring's, those of
	// the stroke in play and those of the last stroke that left the ring
	// (default 12 MiB). Past it the last stroke's oldest frames go first,
	// then the ring's oldest, whatever their age: the 8 s ring of a 720p
	// camera kept at 960×540 is about 10.5 MiB, so the bound bites only on
	// strokes from placement to rest longer than about 9 s, or on larger
	// frames (kept at 1280×720 the ring is 16.4 MiB: give 20). A
	// decision's frames are spooled to disk when it is taken and do not
	// count.
	MaxBytes int64
	// Slots is the number of frames that may wait for compression (default
	// 1: each is a full camera frame, 2.76 MB at 720p, and compressing one
	// takes about 4 ms of CPU against 33 ms between frames): a frame
	// arriving while all are busy is not kept (counted in Stats.NotKept).
	Slots int
	// Nice lowers the compressing thread's CPU priority below the
	// pipeline's by this much (default 10; negative: not lowered); Idle
	// makes it SCHED_IDLE too, for a live or paced source (a file read
	// as fast as it can be keeps the CPU busy: the compressor would get
	// nothing).
	Nice int
	Idle bool
	// SpillDir, when set, holds the compressed frames on disk instead of
	// in memory (files unlinked as soon as made, in this directory): each
	// frame is written once and read back only for a decision's still and
	// clip. Which frames are kept is the same (MaxBytes bounds them all).
	// A directory in memory (tmpfs) or one that cannot be written keeps
	// them in memory (Buffer.SpillErr says why).
	SpillDir string
}

// Defaults of BufferConfig.
const (
	DefaultSeconds       = 8
	DefaultStrokeSeconds = 20
	DefaultMaxWidth      = 960
	DefaultQuality       = 80
	DefaultMaxBytes      = 12 << 20
	DefaultSlots         = 1
)

func (c BufferConfig) withDefaults() BufferConfig {
	if c.Seconds <= 0 {
		c.Seconds = DefaultSeconds
	}
	if c.StrokeSeconds <= 0 {
		c.StrokeSeconds = DefaultStrokeSeconds
	}
	if c.MaxWidth <= 0 {
		c.MaxWidth = DefaultMaxWidth
	}
	if c.Quality <= 0 || c.Quality > 100 {
		c.Quality = DefaultQuality
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.Slots <= 0 {
		c.Slots = DefaultSlots
	}
	if c.Nice == 0 {
		c.Nice = DefaultNice
	}
	return c
}

// Buffer is the replay buffer: the last Seconds of frames, compressed, and
// the frames of the stroke in play and of the last stroke, from the
// striker's placement to the rest.
//
//	b := &evidence.Buffer{Config: evidence.BufferConfig{Seconds: 8}, Painter: paint.Painter{}}
//	if err := b.Initialize(); err != nil { … }
//	defer b.Close()
//	b.Add(img, index, pts) // in the frame loop: never waits
//	frames := b.Frames(from, to)
type Buffer struct {
	Config BufferConfig
	// Painter copies and compresses the frames (the OpenCV side's,
	// render/paint.Painter, given by cmd/boardcam).
	Painter overlay.Painter

	cfg  BufferConfig
	free chan *slot
	work chan *slot
	done chan struct{}

	mu        sync.Mutex
	ring      []Frame
	ringBytes int64
	open      bool  // a stroke is in play
	from      int64 // its first frame
	last      []Frame
	lastBytes int64
	maxHeld   int64

	spill    *spill
	spillErr error

	added, notKept, failed atomic.Int64
	encodeNs, encodeCPU    atomic.Int64
	closed                 atomic.Bool
	closeOnce              sync.Once
}

type slot struct {
	img   sight.Image
	index int64
	pts   time.Duration
}

// Stats describe a buffer's content and work.
type Stats struct {
	// Frames and Bytes are in the ring; StrokeFrames and StrokeBytes in
	// the last complete stroke (shared with the ring where both hold a
	// frame); Held is the bytes of all the frames held, at most
	// BufferConfig.MaxBytes, and MaxHeld the most it has been; OnDisk
	// says they are in the buffer's files (BufferConfig.SpillDir), not
	// in memory, SpillFailed how many frames could not be written there
	// (kept in memory instead).
	Frames        int
	Bytes         int64
	StrokeFrames  int
	StrokeBytes   int64
	Held, MaxHeld int64
	OnDisk        bool
	SpillFailed   int64
	// Span is the PTS span of the ring.
	Span time.Duration
	// Added counts frames kept, NotKept frames refused because every
	// compression slot was busy, Failed frames that did not compress.
	Added, NotKept, Failed int64
	// EncodeMean is the mean time to scale and compress one frame,
	// EncodeCPU the mean CPU time it took (the same on a machine not
	// shared; less when other programs compete for the CPU).
	EncodeMean, EncodeCPU time.Duration
}

// Initialize starts the compressing goroutine.
func (b *Buffer) Initialize() error {
	if b.Painter == nil {
		return errors.New("evidence: the replay buffer has no Painter")
	}
	b.cfg = b.Config.withDefaults()
	if b.cfg.SpillDir != "" {
		b.spill, b.spillErr = newSpill(b.cfg.SpillDir)
	}
	b.free = make(chan *slot, b.cfg.Slots)
	b.work = make(chan *slot, b.cfg.Slots)
	b.done = make(chan struct{})
	for i := 0; i < b.cfg.Slots; i++ {
		b.free <- &slot{img: b.Painter.NewImage()}
	}
	go b.compress()
	return nil
}

// Close stops the compressing goroutine and releases the slots' Mats.
func (b *Buffer) Close() {
	if b.work == nil {
		return
	}
	b.closeOnce.Do(func() {
		b.closed.Store(true)
		close(b.work)
		<-b.done
		for i := 0; i < b.cfg.Slots; i++ {
			s := <-b.free
			s.img.Close()
		}
		if b.spill != nil {
			b.spill.closeAll()
		}
	})
}

// SpillErr says why the frames are kept in memory although
// BufferConfig.SpillDir asked for the disk (nil when they are on disk or
// none was asked for).
func (b *Buffer) SpillErr() error { return b.spillErr }

// Add copies a frame for compression and returns at once; it reports
// false (and counts the frame in Stats.NotKept) when every slot is busy.
// The copy is the only work done on the caller's goroutine.
func (b *Buffer) Add(img sight.Image, index int64, pts time.Duration) bool {
	if img == nil || img.Empty() {
		return false
	}
	return b.AddFunc(func() sight.Image { return img }, index, pts)
}

// AddFunc is Add of the picture img returns, asked for only when a slot is
// free (a frame whose picture must be made first: the daemon's queue holds
// frames as the decoder made them).
func (b *Buffer) AddFunc(img func() sight.Image, index int64, pts time.Duration) bool {
	if b.closed.Load() {
		return false
	}
	var s *slot
	select {
	case s = <-b.free:
	default:
		b.notKept.Add(1)
		return false
	}
	im := img()
	if im == nil || im.Empty() {
		b.free <- s
		return false
	}
	b.Painter.Copy(s.img, im)
	s.index, s.pts = index, pts
	b.work <- s // never blocks: as many places as slots
	return true
}

func (b *Buffer) compress() {
	defer close(b.done)
	// One OS thread, so that its CPU time is the compression's, at a
	// lower priority than the pipeline's: on a busy CPU the analysis
	// goes first and frames the compressor has no time for are not kept
	// (counted), rather than the analysis falling behind.
	lowerThreadPriority(b.cfg.Nice, b.cfg.Idle)
	cpu0 := threadCPU()
	for s := range b.work {
		t0 := time.Now()
		jpeg, w, h, err := b.Painter.Encode(s.img, b.cfg.MaxWidth, b.cfg.Quality, nil)
		if err != nil {
			b.failed.Add(1)
			b.free <- s
			continue
		}
		f := Frame{Index: s.index, PTS: s.pts, JPEG: jpeg, W: w, H: h}
		if b.spill != nil {
			if seg, off, err := b.spill.write(jpeg); err == nil {
				f.JPEG, f.seg, f.off, f.n = nil, seg, off, len(jpeg)
			}
		}
		b.encodeNs.Add(int64(time.Since(t0)))
		cpu := threadCPU()
		b.encodeCPU.Add(int64(cpu - cpu0))
		cpu0 = cpu
		b.added.Add(1)
		b.put(f)
		b.free <- s
	}
}

// put appends a compressed frame and lets the oldest go.
func (b *Buffer) put(f Frame) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n := len(b.ring); n > 0 && f.Index <= b.ring[n-1].Index {
		// The stream started again (a restarted source numbers from 0):
		// what was kept belongs to the old one.
		b.ring, b.ringBytes = nil, 0
	}
	b.ring = append(b.ring, f)
	b.ringBytes += int64(f.Size())
	keep := time.Duration(b.cfg.Seconds * float64(time.Second))
	stroke := time.Duration(b.cfg.StrokeSeconds * float64(time.Second))
	cut := 0
	for cut < len(b.ring)-1 {
		old := b.ring[cut]
		age := f.PTS - old.PTS
		over := b.ringBytes > b.cfg.MaxBytes
		pinned := b.open && old.Index >= b.from && age <= stroke
		if !over && (age <= keep || pinned) {
			break
		}
		b.ringBytes -= int64(old.Size())
		cut++
	}
	if cut > 0 {
		b.ring = append(b.ring[:0:0], b.ring[cut:]...)
	}
	b.bound()
	if h := b.ringBytes + b.outside(); h > b.maxHeld {
		b.maxHeld = h
	}
	b.retire()
}

// retire closes the buffer's files no frame held is in any more (b.mu
// held).
func (b *Buffer) retire() {
	if b.spill == nil {
		return
	}
	held := map[*segment]bool{}
	var last *segment
	for _, fs := range [][]Frame{b.last, b.ring} {
		for _, f := range fs {
			if f.seg != nil && f.seg != last {
				held[f.seg], last = true, f.seg
			}
		}
	}
	b.spill.retire(held)
}

// outside is the bytes of the last stroke's frames no longer in the ring
// (b.mu held): with the ring's, the memory the frames hold.
func (b *Buffer) outside() int64 {
	var n int64
	for _, f := range b.last {
		if len(b.ring) > 0 && f.Index >= b.ring[0].Index {
			break
		}
		n += int64(f.Size())
	}
	return n
}

// bound keeps the frames held within MaxBytes (b.mu held): the last
// stroke's oldest frames outside the ring go first, then the ring's
// oldest.
func (b *Buffer) bound() {
	out := b.outside()
	for b.ringBytes+out > b.cfg.MaxBytes {
		switch {
		case out > 0:
			n := int64(b.last[0].Size())
			out -= n
			b.lastBytes -= n
			b.last = b.last[1:]
		case len(b.ring) > 1:
			b.ringBytes -= int64(b.ring[0].Size())
			b.ring = b.ring[1:]
			out = b.outside() // frames of the last stroke may have left the ring
		default:
			return
		}
	}
}

// StrokeStart marks the start of a stroke (the striker's placement, or the
// strike when the placement was not seen): the frames from index on are
// kept until StrokeEnd, up to StrokeSeconds. A second start before the
// end keeps the first.
func (b *Buffer) StrokeStart(index int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open {
		return
	}
	b.open, b.from = true, index
}

// StrokeEnd closes the stroke in play at index (the rest): its frames
// become the last stroke's, kept until the next stroke ends.
func (b *Buffer) StrokeEnd(index int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.open {
		return
	}
	b.open = false
	b.last, b.lastBytes = nil, 0
	for _, f := range b.ring {
		if f.Index >= b.from && f.Index <= index {
			b.last = append(b.last, f)
			b.lastBytes += int64(f.Size())
		}
	}
	b.bound()
}

// Frames returns the frames kept with from ≤ Index ≤ to, oldest first,
// from the ring and the last stroke together. The frames are shared: do
// not modify their JPEG. Read their bytes with Frame.Bytes, then give them
// back with Release (their files on disk stay open until then).
func (b *Buffer) Frames(from, to int64) []Frame {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Frame
	// The last stroke first: its frames may have left the ring.
	for _, f := range b.last {
		if f.Index >= from && f.Index <= to {
			out = append(out, f)
		}
	}
	for _, f := range b.ring {
		if f.Index >= from && f.Index <= to && (len(out) == 0 || f.Index > out[len(out)-1].Index) {
			out = append(out, f)
		}
	}
	b.pin(out)
	return out
}

// pin marks frames handed out as read (b.mu held): their files stay open
// until Release.
func (b *Buffer) pin(fs []Frame) {
	if b.spill == nil {
		return
	}
	b.spill.mu.Lock()
	defer b.spill.mu.Unlock()
	for _, f := range fs {
		if f.seg != nil {
			f.seg.pins++
		}
	}
}

// Latest returns the newest frame kept (give it back with Release).
func (b *Buffer) Latest() (Frame, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.ring) == 0 {
		return Frame{}, false
	}
	f := b.ring[len(b.ring)-1]
	b.pin([]Frame{f})
	return f, true
}

// Stats returns the buffer's content and counters.
func (b *Buffer) Stats() Stats {
	b.mu.Lock()
	s := Stats{Frames: len(b.ring), Bytes: b.ringBytes, StrokeFrames: len(b.last), StrokeBytes: b.lastBytes,
		Held: b.ringBytes + b.outside(), MaxHeld: b.maxHeld, OnDisk: b.spill != nil}
	if b.spill != nil {
		b.spill.mu.Lock()
		s.SpillFailed = b.spill.failed
		b.spill.mu.Unlock()
	}
	if n := len(b.ring); n > 1 {
		s.Span = b.ring[n-1].PTS - b.ring[0].PTS
	}
	b.mu.Unlock()
	s.Added, s.NotKept, s.Failed = b.added.Load(), b.notKept.Load(), b.failed.Load()
	if s.Added > 0 {
		s.EncodeMean = time.Duration(b.encodeNs.Load() / s.Added)
		s.EncodeCPU = time.Duration(b.encodeCPU.Load() / s.Added)
	}
	return s
}

// Sync waits until the frames already added are compressed (tests, and
// the end of a video). It returns an error if that takes longer than d.
func (b *Buffer) Sync(d time.Duration) error {
	deadline := time.Now().Add(d)
	for len(b.free) < b.cfg.Slots {
		if time.Now().After(deadline) {
			return errors.New("evidence: the replay buffer is still compressing")
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// threadCPU is the CPU time of the calling OS thread (0 where unknown).
func threadCPU() time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD, Linux
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// String summarises the buffer for logs.
func (s Stats) String() string {
	where := "in memory"
	if s.OnDisk {
		where = "on disk"
		if s.SpillFailed > 0 {
			where += fmt.Sprintf(" (%d in memory: not written)", s.SpillFailed)
		}
	}
	return fmt.Sprintf("%d frames, %.1f MiB over %.1f s; last stroke %d frames, %.1f MiB; %.1f MiB held %s, %.1f MiB at most; not kept %d",
		s.Frames, float64(s.Bytes)/(1<<20), s.Span.Seconds(), s.StrokeFrames, float64(s.StrokeBytes)/(1<<20),
		float64(s.Held)/(1<<20), where, float64(s.MaxHeld)/(1<<20), s.NotKept)
}
