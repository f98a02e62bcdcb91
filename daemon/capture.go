package daemon

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/frames/libav"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/web"
)

// Frame is one captured frame on its way through the pipeline.
type Frame struct {
	// Image is the picture (8-bit BGR), made and filled through
	// Sight.Pictures; empty while Raw holds the frame.
	Image sight.Image
	// Raw, when not empty, is the frame as the decoder made it (a file
	// read through a rawReader: YUV 4:2:0, half the bytes of BGR), waiting
	// in the queue; the analysis converts it to BGR when it takes the
	// frame (capture.picture), the same bytes Read gives.
	Raw *libav.Picture
	// Index numbers the frames of the stream from 0; a dropped frame
	// leaves a gap.
	Index int64
	// PTS is the frame's time in the source (files) or since the stream
	// started (live sources).
	PTS time.Duration
	// Captured is when the frame was read (the daemon's clock): latencies
	// count from it.
	Captured time.Time
	// Resumed marks the first frame after the picture returned from a
	// stall or a reconnection: the analyzer recalibrates.
	Resumed bool
	// CameraMissed is how many frames just before this one the camera did
	// not deliver (the numbering skips them).
	CameraMissed int64
	// Paced: a file's frame handed over at its time through the Pacer
	// (not one caught up with, read losslessly or from a live source).
	Paced bool
}

// capture reads a Source into frames for the analysis: the first
// component of the pipeline. It never waits for the analysis when the
// source is live (or a file played at its pace): when no frame buffer is
// free the frame is read anyway and dropped (counted). A live source that
// delivers nothing for StallTimeout is reported stalled; after three times
// that, or when it fails, it is closed and reopened with exponential
// backoff, the match state untouched.
type capture struct {
	cfg     SourceConfig
	queue   int   // frame_queue: the most frames waiting
	queueMB int64 // frame_queue_mb: the most bytes waiting (MiB; 0: no bound)
	// depth is the frames that may wait for the current source's frame
	// size (frame_queue, fewer when frame_queue_mb bounds them), set at
	// each open; buffers the frames in the pool (depth+1 Mats), retire
	// those to close as they come back when the depth shrank.
	depth   atomic.Int64
	buffers int
	retire  int
	log     *slog.Logger
	clock   clock.Clock
	src     Source
	pics    sight.Pictures         // makes and copies the frames' pictures
	reopen  func() (Source, error) // a new Source after a read was abandoned
	metrics *Metrics
	status  func(web.Camera)
	lost    func() // the picture was lost (stall or disconnection)
	// answer is given every frame read, analysed or dropped, before it
	// goes on (the web's requests for a frame: Daemon.answerFrame).
	answer    func(*Frame)
	pool      *framePool
	out       chan *Frame
	spare     *Frame
	catchUp   int64 // frames up to this index are read unpaced and kept
	lossless  bool  // never drop (unpaced files)
	next      int64
	resumed   bool
	lastPaced bool // the last frame read is paced (pacer)
	paceBase  time.Duration
	frames    int64 // frames read by the current connection
	// pacer hands the paced frames over (the wall clock, or a SlowCPU);
	// paceBase is the first paced frame's PTS once paceKnown; arrivedAt
	// is when the last paced frame was handed over.
	pacer     Pacer
	paceKnown bool
	arrivedAt time.Time
	// liveStart is when the first live frame was asked for.
	liveStart time.Time
	// lastDropped: the last frame read was dropped (it is in c.spare);
	// spareAt is when the spare was last taken, trimmedAt when buffers
	// were last looked at for releaseIdle.
	lastDropped bool
	spareAt     time.Time
	trimmedAt   time.Time
	// srcWithReader: an abandoned reader still uses c.src and closes it.
	srcWithReader bool
	// backoffs records each wait before a reconnection (for tests).
	backoffs []time.Duration
	// remove drops the frames it names as if no buffer were free
	// (Daemon.Remove).
	remove func(index int64) bool
	// lastTS is the camera's time stamp of the last frame read (0: none);
	// camMissed the frames the camera did not deliver since the last frame
	// handed to the analysis.
	lastTS    time.Duration
	camMissed int64
	// work is the analysis's BGR picture of a Raw frame, conv its
	// converter (both the analysis goroutine's: picture).
	work sight.Image
	conv libav.Converter
}

// rawReader is a Source that can read a frame as its decoder made it,
// smaller than BGR, for the queue (libavSource: YUV 4:2:0 for H.264, 1.38
// MB at 720p against 2.76): ReadRaw reads the frame Read would have read,
// and converting it with a libav.Converter gives the bytes Read gives
// (frames/libav TestPictureConvertsAsNext).
type rawReader interface {
	ReadRaw(dst *libav.Picture) (pts time.Duration, err error)
}

// picture is f's BGR picture for the analysis (its goroutine): f.Image,
// or f.Raw converted into the capture's work picture (overwritten by the
// next frame's).
func (c *capture) picture(f *Frame) (sight.Image, error) {
	if f.Raw.Empty() {
		return f.Image, nil
	}
	if c.work == nil {
		c.work = c.pics.NewImage()
	}
	if err := convertRaw(&c.conv, c.pics, c.work, f.Raw); err != nil {
		return f.Image, err
	}
	return c.work, nil
}

// convertRaw converts p into dst (a picture of pics) with conv.
func convertRaw(conv *libav.Converter, pics sight.Pictures, dst sight.Image, p *libav.Picture) error {
	w, h := p.Size()
	buf, err := pics.BGR(dst, w, h)
	if err != nil {
		return err
	}
	return conv.Convert(p, buf)
}

// copyFrame makes dst's picture a copy of src's (Raw or BGR), freeing the
// other form in dst.
func (c *capture) copyFrame(dst, src *Frame) {
	if !src.Raw.Empty() {
		if dst.Raw == nil {
			dst.Raw = libav.NewPicture()
		}
		if err := dst.Raw.CopyFrom(src.Raw); err == nil {
			c.emptyImage(dst)
			return
		}
	}
	dst.Raw.Release()
	c.pics.Copy(dst.Image, src.Image)
}

// emptyImage frees f's BGR pixels (its Raw holds the frame).
func (c *capture) emptyImage(f *Frame) {
	if f.Image != nil && !f.Image.Empty() {
		f.Image.Close()
		f.Image = c.pics.NewImage()
	}
}

// closeFrame releases f's pictures.
func closeFrame(f *Frame) {
	if f.Image != nil {
		f.Image.Close()
	}
	f.Raw.Close()
}

// errStopped ends the capture without error (SIGTERM).
var errStopped = errors.New("stopped")

// Initialize makes the frame pool: room for queue+1 buffers (queue
// waiting, one being analysed), of which depth+1 are made (fit); the
// channel holds them all, so a frame with a buffer is never refused.
func (c *capture) Initialize() error {
	q := c.queue
	if q < 1 {
		return fmt.Errorf("capture: frame queue %d", q)
	}
	c.catchUp = -1
	if c.pacer == nil {
		c.pacer = &wallPacer{clock: c.clock}
	}
	c.out = make(chan *Frame, q+1)
	c.pool = newFramePool(q + 1)
	info := c.src.Info()
	c.fit(info.Width, info.Height)
	c.spare = c.newFrame()
	return nil
}

// newFrame is a frame with an empty picture.
func (c *capture) newFrame() *Frame { return &Frame{Image: c.pics.NewImage()} }

// queueDepth is how many frames of w×h BGR may wait for the analysis:
// queue, fewer when queueMB (MiB) holds fewer such frames, at least 2
// (one waiting while one is analysed would drop every burst). Unknown
// sizes (w or h 0) get queue.
func queueDepth(queue int, queueMB int64, w, h int) int {
	if queueMB <= 0 || w <= 0 || h <= 0 {
		return queue
	}
	n := int((queueMB << 20) / int64(w*h*3))
	return max(min(n, queue), min(2, queue))
}

// fit sizes the pool for frames of w×h (called before the first open and
// at each open, when the capture holds every buffer or the analysis has
// some): buffers are added at once, and taken out as they come back when
// there are too many.
func (c *capture) fit(w, h int) {
	d := queueDepth(c.queue, c.queueMB, w, h)
	c.depth.Store(int64(d))
	want := d + 1
	for c.buffers < want {
		if c.retire > 0 {
			c.retire--
		} else {
			c.pool.put(c.newFrame())
		}
		c.buffers++
	}
	if c.buffers > want {
		c.retire += c.buffers - want
		c.buffers = want
	}
}

// Close releases every frame buffer; call after run has returned and the
// analysis has given its frames back.
func (c *capture) Close() {
	if c.pool == nil {
		return
	}
	for {
		f := c.pool.get()
		if f == nil {
			if c.spare != nil {
				closeFrame(c.spare)
				c.spare = nil
			}
			if c.work != nil {
				c.work.Close()
				c.work = nil
			}
			c.conv.Close()
			return
		}
		closeFrame(f)
	}
}

func (c *capture) setStatus(st, msg string) {
	info := c.src.Info()
	cam := web.Camera{Status: st, Source: info.Name, Width: info.Width, Height: info.Height, FPS: info.FPS, Frame: c.next - 1, Message: msg}
	if c.status != nil {
		c.status(cam)
	}
}

// run captures until the source ends (ErrEOF), fails for good (a file
// that cannot be decoded: ErrCorrupt; ErrUnsupported), or done is closed
// (nil). The caller closes c.out after recording the result.
func (c *capture) run(done <-chan struct{}) error {
	defer c.pacer.End()
	live := c.src.Info().Live
	backoff := c.cfg.ReconnectMin.D()
	attempts := 0
	for {
		select {
		case <-done:
			return nil
		default:
		}
		if attempts == 0 {
			c.setStatus(web.CameraStarting, "")
		}
		err := c.src.Open()
		if err != nil {
			if !live || errors.Is(err, ErrUnsupported) || errors.Is(err, ErrCorrupt) {
				c.setStatus(web.CameraError, err.Error())
				return err
			}
			attempts++
			c.setStatus(web.CameraNoSignal, fmt.Sprintf("%v; next attempt in %s", err, backoff))
			c.log.Warn("source unavailable; retrying", "source", c.src.Info().Name, "err", err, "attempt", attempts, "retry_in", backoff)
			c.backoffs = append(c.backoffs, backoff)
			if !clock.Sleep(c.clock, backoff, done) {
				return nil
			}
			backoff = min(2*backoff, c.cfg.ReconnectMax.D())
			continue
		}
		info := c.src.Info()
		if attempts > 0 || c.next > 0 {
			c.resumed = true
			c.metrics.reconnect()
			c.log.Info("source reconnected", "source", info.Name, "width", info.Width, "height", info.Height, "fps", info.FPS)
		} else {
			c.log.Info("source opened", "source", info.Name, "kind", info.Kind, "width", info.Width, "height", info.Height, "fps", info.FPS, "frames", info.Frames)
		}
		if len(info.Applied) > 0 {
			c.log.Info("camera settings applied", "source", info.Name, "settings", strings.Join(info.Applied, ", "))
		}
		if info.Pipeline != "" {
			c.log.Info("GStreamer pipeline", "source", info.Name, "pipeline", info.Pipeline)
		}
		for _, r := range info.Refused {
			c.log.Warn("camera setting not applied", "source", info.Name, "setting", r)
		}
		c.fit(info.Width, info.Height)
		c.setStatus(web.CameraOK, "")
		c.frames = 0
		c.lastTS = 0
		if live {
			err = c.readLive(done)
		} else {
			err = c.readFile(done)
		}
		switch {
		case errors.Is(err, errStopped):
			if !c.srcWithReader {
				c.src.Close()
			}
			return nil
		case errors.Is(err, ErrEOF):
			c.deliverLast(done)
			c.pacer.End()
			c.src.Close()
			c.setStatus(web.CameraStopped, "end of the video")
			return err
		case !live:
			c.src.Close()
			c.setStatus(web.CameraError, err.Error())
			return err
		}
		// A live source was lost.
		if c.frames > 0 {
			backoff = c.cfg.ReconnectMin.D()
		}
		if c.lost != nil {
			c.lost()
		}
		attempts = 1
		c.setStatus(web.CameraNoSignal, fmt.Sprintf("%v; reconnecting in %s", err, backoff))
		c.log.Warn("source lost; reconnecting", "source", info.Name, "err", err, "retry_in", backoff)
		c.backoffs = append(c.backoffs, backoff)
		if !clock.Sleep(c.clock, backoff, done) {
			return nil
		}
		backoff = min(2*backoff, c.cfg.ReconnectMax.D())
	}
}

// framePool holds the free frame buffers, the one given back last taken
// first: while the analysis keeps up the same few buffers go round and the
// others are never filled (a buffer's Mat gets its pixels at its first
// read), so the memory follows the backlog the analysis actually let
// build up, not the queue's bound (a FIFO channel filled every buffer in
// turn: 5 × 2.76 MB at 720p whatever the backlog). A buffer a backlog
// filled and that then stays unused for idleBuffer has its pixels freed
// (releaseIdle): the board search at the start, or one slow moment, does
// not keep the whole queue resident for the rest of the match.
type framePool struct {
	mu   sync.Mutex
	free []*Frame
	at   []time.Time   // when each of free was given back
	n    chan struct{} // one token per buffer in free
	now  func() time.Time
}

// idleBuffer is how long a free frame buffer keeps its pixels unused:
// longer than the gaps between a match's strokes' bursts, so that a
// buffer is not made again at each (making one is an allocation, about
// 1 ms of page faults at 720p, on the capture's goroutine).
const idleBuffer = 3 * time.Second

func newFramePool(capacity int) *framePool {
	return &framePool{n: make(chan struct{}, capacity), now: time.Now}
}

// put gives a buffer back; it never blocks (the capacity is every
// buffer's).
func (p *framePool) put(f *Frame) {
	p.mu.Lock()
	p.free = append(p.free, f)
	p.at = append(p.at, p.now())
	p.mu.Unlock()
	p.n <- struct{}{}
}

// get takes the buffer given back last, or nil when none is free.
func (p *framePool) get() *Frame {
	select {
	case <-p.n:
		return p.pop()
	default:
		return nil
	}
}

// wait takes a buffer when one is free, or nil when done is closed first.
func (p *framePool) wait(done <-chan struct{}) *Frame {
	select {
	case <-p.n:
		return p.pop()
	case <-done:
		return nil
	}
}

func (p *framePool) pop() *Frame {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free) - 1
	f := p.free[n]
	p.free[n] = nil
	p.free, p.at = p.free[:n], p.at[:n]
	return f
}

// releaseIdle frees the pixels of the free buffers given back before
// cutoff (the bottom of the stack: the least recently used), leaving
// each an empty picture of pics that gets pixels again at its next read;
// it returns how many it emptied.
func (p *framePool) releaseIdle(cutoff time.Time, pics sight.Pictures) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for i, f := range p.free {
		if !p.at[i].Before(cutoff) {
			break // the rest were given back later
		}
		if f.Image != nil && !f.Image.Empty() {
			f.Image.Close()
			f.Image = pics.NewImage()
			n++
		}
		if !f.Raw.Empty() {
			f.Raw.Release()
			n++
		}
	}
	return n
}

// len is the number of free buffers.
func (p *framePool) len() int { return len(p.n) }

// take returns a free frame buffer, or the spare (dropped) one when none
// is free and the capture may not wait.
func (c *capture) take(done <-chan struct{}, wait bool) (*Frame, bool, error) {
	c.releaseIdle()
	for {
		f := c.pool.get()
		if f == nil {
			if !wait {
				c.spareAt = c.pool.now()
				return c.spare, false, nil
			}
			if f = c.pool.wait(done); f == nil {
				return nil, false, errStopped
			}
		}
		if c.retire == 0 {
			return f, true, nil
		}
		// The frames grew: one buffer fewer.
		closeFrame(f)
		c.retire--
	}
}

// releaseIdle frees the pixels of the frame buffers unused for idleBuffer,
// the spare's among them unless it holds a dropped last frame (at most
// once a second).
func (c *capture) releaseIdle() {
	now := c.pool.now()
	if now.Sub(c.trimmedAt) < time.Second {
		return
	}
	c.trimmedAt = now
	cutoff := now.Add(-idleBuffer)
	c.pool.releaseIdle(cutoff, c.pics)
	if s := c.spare; s != nil && !c.lastDropped && c.spareAt.Before(cutoff) {
		c.emptyImage(s)
		s.Raw.Release()
	}
}

// deliver hands a frame to the analysis, or drops it: now is when it
// arrived.
func (c *capture) deliver(f *Frame, pooled bool, now time.Time) {
	c.metrics.frameIn(now)
	f.Index = c.next
	c.next++
	c.frames++
	if c.answer != nil {
		c.answer(f)
	}
	if pooled && c.remove != nil && c.remove(f.Index) {
		// Dropped as if no buffer were free: it becomes the spare, so
		// that a video's last frame still reaches the analysis.
		c.copyFrame(c.spare, f)
		c.spare.Index, c.spare.PTS = f.Index, f.PTS
		c.pool.put(f)
		pooled = false
	}
	if !pooled {
		c.metrics.drop("analyze")
		c.lastDropped = true
		return
	}
	c.lastDropped = false
	f.Captured, f.Paced = now, c.lastPaced
	f.Resumed, c.resumed = c.resumed, false
	f.CameraMissed, c.camMissed = c.camMissed, 0
	if f.Paced {
		c.pacer.Handed()
	}
	select {
	case c.out <- f:
	default: // cannot happen: the channel holds every buffer of the pool
		c.metrics.drop("analyze")
		c.pool.put(f)
	}
}

// dropSkipped counts a frame read without its picture (frameSkipper),
// arrived at now, as dropped. It is never the video's last (Skip refuses that one), so there
// is nothing for deliverLast; the web is answered by a frame with a
// picture.
func (c *capture) dropSkipped(now time.Time) {
	c.metrics.frameIn(now)
	c.next++
	c.frames++
	c.metrics.drop("analyze")
	c.lastDropped = false
}

// deliverLast hands the analysis the last frame of a stream that ended,
// if it was dropped: whatever the pipeline missed on the way, it sees the
// final picture (the pieces at rest after the last stroke).
func (c *capture) deliverLast(done <-chan struct{}) {
	if !c.lastDropped || c.spare == nil {
		return
	}
	if c.lastPaced {
		c.pacer.Last()
	}
	f, _, err := c.take(done, true)
	if err != nil {
		return
	}
	c.copyFrame(f, c.spare)
	f.Index, f.PTS, f.Captured, f.Resumed, f.CameraMissed = c.spare.Index, c.spare.PTS, c.clock.Now(), false, c.camMissed
	if f.Paced = c.lastPaced; f.Paced {
		// it arrived when it was read (on the pacer's clock)
		f.Captured = c.arrivedAt
		c.pacer.Handed()
	}
	c.lastDropped = false
	c.out <- f
}

// readFile reads a file: paced at its frame rate (times Speed) unless
// pacing is off or the frames are being caught up with.
func (c *capture) readFile(done <-chan struct{}) error {
	pace := c.cfg.pace()
	rr, raw := c.src.(rawReader)
	for {
		select {
		case <-done:
			return errStopped
		default:
		}
		catching := c.next <= c.catchUp
		wait := c.lossless || catching || !pace
		f, pooled, err := c.take(done, wait)
		if err != nil {
			return err
		}
		var pts time.Duration
		skipped := false
		if sk, ok := c.src.(frameSkipper); ok && !pooled {
			// Dropped: decoded, no picture made (the spare keeps none).
			pts, skipped, err = sk.Skip()
		}
		if !skipped && err == nil {
			if raw {
				// Held as the decoder made it: converted when the
				// analysis takes it.
				if f.Raw == nil {
					f.Raw = libav.NewPicture()
				}
				c.emptyImage(f)
				pts, err = rr.ReadRaw(f.Raw)
			} else {
				f.Raw.Release()
				pts, err = c.src.Read(f.Image)
			}
		}
		if err != nil {
			if pooled {
				c.pool.put(f)
			}
			return err
		}
		f.PTS = pts
		c.lastPaced = pace && !catching
		now := c.clock.Now()
		if c.lastPaced {
			if !c.paceKnown {
				c.paceKnown, c.paceBase = true, pts
			}
			t, ok := c.pacer.Arrive(time.Duration(float64(pts-c.paceBase)/c.cfg.Speed), done)
			if !ok {
				if pooled {
					c.pool.put(f)
				}
				return errStopped
			}
			now, c.arrivedAt = t, t
		}
		if skipped {
			c.dropSkipped(now)
			continue
		}
		c.deliver(f, pooled, now)
	}
}

// readLive reads a camera or stream through a reader goroutine, so that a
// Read that never returns is noticed (stalled) and, after three stall
// timeouts, given up: the reader is abandoned (it closes the source when
// its Read returns) and the source reopened.
func (c *capture) readLive(done <-chan struct{}) error {
	r := newReader(c.src)
	defer r.stop()
	if c.liveStart.IsZero() {
		c.liveStart = c.clock.Now() // frame times run on across reconnections
	}
	start := c.liveStart
	stall := c.cfg.StallTimeout.D()
	for {
		f, pooled, err := c.take(done, c.lossless)
		if err != nil {
			return err
		}
		r.req <- f
		t := c.clock.NewTimer(stall)
		stalled := false
		var res readResult
	wait:
		for {
			select {
			case res = <-r.res:
				t.Stop()
				break wait
			case <-t.C():
				if !stalled {
					stalled = true
					c.setStatus(web.CameraStalled, fmt.Sprintf("no frame for %s", stall))
					c.log.Warn("source stalled", "source", c.src.Info().Name, "after", stall)
					if c.lost != nil {
						c.lost()
					}
					t = c.clock.NewTimer(2 * stall)
					continue
				}
				// Give the connection up; the frame buffer stays with
				// the abandoned reader, which closes it.
				r.abandon(f)
				c.abandonFrame(f, pooled)
				if c.reopen != nil {
					if src, err := c.reopen(); err == nil {
						c.src = src
					}
				}
				return fmt.Errorf("%w: no frame for %s", ErrStalled, 3*stall)
			case <-done:
				t.Stop()
				r.abandon(f)
				c.abandonFrame(f, pooled)
				c.srcWithReader = true
				return errStopped
			}
		}
		if res.err != nil {
			if pooled {
				c.pool.put(f)
			}
			if errors.Is(res.err, ErrStalled) && !stalled {
				c.setStatus(web.CameraStalled, res.err.Error())
			}
			return res.err
		}
		if stalled {
			c.resumed = true
			c.setStatus(web.CameraOK, "frames again")
			c.log.Info("source resumed", "source", c.src.Info().Name)
		}
		c.cameraGap(res.pts)
		f.PTS = c.clock.Now().Sub(start)
		c.lastPaced = false
		c.deliver(f, pooled, c.clock.Now())
	}
}

// cameraGap numbers past the frames a live camera did not deliver: when
// its time stamps (ts, 0: none) jump by more than one frame interval, the
// frame numbers jump too, so the analysis reports the frames nobody saw
// (counted as dropped by the camera).
func (c *capture) cameraGap(ts time.Duration) {
	last := c.lastTS
	c.lastTS = ts
	fps := c.src.Info().FPS
	if ts <= 0 || last <= 0 || ts <= last || fps <= 0 || c.frames == 0 {
		return
	}
	interval := time.Duration(float64(time.Second) / fps)
	n := int64(math.Round(float64(ts-last)/float64(interval))) - 1
	if n <= 0 {
		return
	}
	c.next += n
	c.camMissed += n
	for i := int64(0); i < n; i++ {
		c.metrics.drop("camera")
	}
}

// abandonFrame replaces a frame buffer left with an abandoned reader.
func (c *capture) abandonFrame(f *Frame, pooled bool) {
	if pooled {
		c.pool.put(c.newFrame())
	} else {
		c.spare = c.newFrame()
	}
}

type readResult struct {
	pts time.Duration
	err error
}

// reader runs a Source's blocking Reads in its own goroutine.
type reader struct {
	src       Source
	req       chan *Frame
	res       chan readResult
	mu        sync.Mutex
	abandoned bool
	quit      chan struct{}
	once      sync.Once
}

func newReader(src Source) *reader {
	r := &reader{src: src, req: make(chan *Frame), res: make(chan readResult, 1), quit: make(chan struct{})}
	go r.loop()
	return r
}

func (r *reader) loop() {
	for {
		select {
		case f := <-r.req:
			pts, err := r.src.Read(f.Image)
			r.mu.Lock()
			if r.abandoned {
				r.mu.Unlock()
				f.Image.Close()
				r.src.Close()
				return
			}
			r.res <- readResult{pts, err}
			r.mu.Unlock()
		case <-r.quit:
			return
		}
	}
}

// abandon leaves the reader to finish its Read alone: it then closes the
// frame buffer f and the source. If the Read has returned already, both
// are closed here.
func (r *reader) abandon(f *Frame) {
	r.mu.Lock()
	r.abandoned = true
	r.mu.Unlock()
	r.stop()
	select {
	case <-r.res:
		f.Image.Close()
		r.src.Close()
	default:
	}
}

// stop ends an idle reader.
func (r *reader) stop() { r.once.Do(func() { close(r.quit) }) }
