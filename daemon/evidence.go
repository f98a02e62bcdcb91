package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/evidence"
	"github.com/boardcam/boardcam/foul"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sheet"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/web"
)

// evidenceKeeper is the daemon's one adapter to package evidence: it feeds
// the replay buffer with the analysis's frames and strokes, asks the
// writer for the still and clip of every foul, pending decision and held
// stroke (and of every pocketing, for the stream's replay scene), puts
// their addresses and plain-language headings into the messages, and
// serves the files to the web server (web.EvidenceSource). It never makes
// the pipeline wait: the buffer and the writer refuse work rather than
// queue it without bound.
type evidenceKeeper struct {
	log  *slog.Logger
	geom *board.Geometry
	buf  *evidence.Buffer
	w    *evidence.Writer
	// raw keeps the queue's raw frames in the buffer's slot as they are
	// (nil: every frame is copied as its BGR picture).
	raw *rawPainter
	// pre is how many frames before the strike a stroke's frames start
	// (the striker's placement); fps the source's frame rate.
	pre int64
	fps float64

	written, failed *prometheus.CounterVec
	clipSeconds     prometheus.Histogram

	// The pipeline's cost: the time Add took on the analysis goroutine.
	addN, addNs, addMax atomic.Int64

	mu                sync.Mutex
	prefix            string // the journal's base name: files are PREFIX-ID.jpg/.mp4
	dir               string // where they are
	restored          string // the prefix whose earlier files were restored
	cal               web.Calibration
	pcs               []web.Pieces   // recent piece positions, oldest first
	handFrames        []handOutlines // recent frames with hands seen, oldest first
	handWork          chan handFrame // to the outlines' goroutine
	handDone          chan struct{}
	handOnce          sync.Once
	players           map[board.Side]string
	items             map[string]*evItem // by media id
	files             map[string]*evItem // by file name
	order             []string           // media ids, oldest first (bounded)
	ready             []web.Media        // to publish
	last              *evItem            // the last settled foul or pocketing with a clip
	stroke            [2]int64           // the last stroke's frames (from, to)
	nWritten, nFailed int
	took              []time.Duration // each decision's write time
	inPlay            int64           // the stroke in play's first frame (-1: none)
	wake              func()
}

type evItem struct {
	media   web.Media
	public  bool // settled: anyone may read it
	written bool // the writer answered
	seq     int
	// earlier: written by an earlier run of the match (restored from the
	// directory after a restart).
	earlier bool
}

const keepItems = 500

// openEvidence makes the replay buffer and the writer (nothing when
// evidence is off or the source has no frames).
func (d *Daemon) openEvidence() error {
	cfg := d.Config.Evidence
	if cfg.Off || d.cap == nil {
		return nil
	}
	if d.Painter == nil {
		d.Logger.Warn("evidence: off (this build has no picture painter)")
		return nil
	}
	dir := cfg.Dir
	if dir == "" {
		dir = filepath.Join(d.Config.Journal.Dir, "evidence")
	}
	fps := d.srcInfo.FPS
	if fps <= 0 || fps > 240 {
		fps = 30
	}
	e := &evidenceKeeper{log: d.Logger.With("component", "evidence"), geom: d.geom, fps: fps, pre: int64(3 * fps),
		players: map[board.Side]string{}, items: map[string]*evItem{}, files: map[string]*evItem{}, inPlay: -1, wake: d.signal}
	e.prefix = journalPrefix(d.JournalPath())
	e.dir = dir
	if d.keeper != nil {
		snap := d.keeper.Snapshot()
		e.setPlayers(snap.State)
		if d.JournalPath() != "" {
			// A continued match: the files of its earlier runs.
			e.restore(pendingIDs(snap.Pending))
		}
	}
	var bufPainter overlay.Painter = d.Painter
	if d.Sight.Pictures != nil {
		e.raw = &rawPainter{Painter: d.Painter, pics: d.Sight.Pictures}
		bufPainter = e.raw
	}
	e.buf = &evidence.Buffer{Config: evidence.BufferConfig{Seconds: cfg.ReplaySeconds, MaxWidth: cfg.MaxWidth, MaxBytes: cfg.BufferMB << 20,
		Idle: d.srcInfo.Live || d.Config.Source.pace()}, Painter: bufPainter}
	if !cfg.ReplayInMemory {
		e.buf.Config.SpillDir = dir
	}
	if err := e.buf.Initialize(); err != nil {
		e.raw.close()
		return fmt.Errorf("%s: %w", d.Config.at("evidence"), err)
	}
	if err := e.buf.SpillErr(); err != nil {
		e.log.Warn("evidence: the replay frames are kept in memory, not on disk", "dir", dir, "err", err)
	}
	e.w = &evidence.Writer{Config: evidence.WriterConfig{Dir: dir, MaxAge: cfg.MaxAge.D(), MaxBytes: cfg.MaxMB << 20}, Painter: d.Painter, Done: e.finished}
	if err := e.w.Initialize(); err != nil {
		e.buf.Close()
		e.raw.close()
		return fmt.Errorf("%s: %w", d.Config.at("evidence.dir"), err)
	}
	if err := e.w.FFmpegErr(); err != nil {
		e.log.Warn("evidence: "+err.Error(), "dir", dir)
	}
	e.initMetrics(d.metrics)
	e.startHands()
	where := "memory"
	if e.buf.Stats().OnDisk {
		where = "disk"
	}
	e.log.Info("evidence: replay buffer and clips", "seconds", e.buf.Config.Seconds, "replay_frames_in", where, "dir", dir)
	d.ev = e
	return nil
}

func (e *evidenceKeeper) initMetrics(m *Metrics) {
	e.written = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "boardcam_evidence_files_total", Help: "Evidence files written, by kind (still, clip).",
	}, []string{"kind"})
	e.failed = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "boardcam_evidence_skipped_total", Help: "Evidence not written, by reason: write (a full disk, an unwritable directory), ffmpeg (missing or failed), frames (none kept for it), busy (the writer's queue was full).",
	}, []string{"reason"})
	e.clipSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "boardcam_evidence_write_seconds", Help: "Time to write one decision's still and clip (on the writer's goroutine, never the pipeline's).",
		Buckets: []float64{.1, .25, .5, 1, 2, 5, 10, 30},
	})
	m.register(e.written, e.failed, e.clipSeconds)
}

// Close writes what is queued and stops.
func (e *evidenceKeeper) Close() {
	if e == nil {
		return
	}
	e.w.Close()
	e.buf.Close()
	e.raw.close()
	if e.handWork != nil {
		e.handOnce.Do(func() {
			close(e.handWork)
			<-e.handDone
		})
	}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// coords are board coordinates in the referee's reasons ("the striker
// stood at [-101.0, 248.4] on …"): the umpire reads words, not numbers.
var coords = regexp.MustCompile(`\s*(?:\b(?:at|from)\s+)?\[-?\d+(?:\.\d+)?, -?\d+(?:\.\d+)?\]`)

// plain removes board coordinates from a text for the umpire.
func plain(s string) string { return coords.ReplaceAllString(s, "") }

func journalPrefix(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	base = strings.Trim(unsafeName.ReplaceAllString(base, "-"), "-")
	if base == "" || base == "." {
		base = "match"
	}
	return base
}

// frame keeps a frame in the replay buffer (a copy of its picture, img,
// asked for only when the compressor has room; or nothing when it is
// busy). A frame the queue holds as the decoder made it is copied as
// such, never converted for this (rawPainter).
func (e *evidenceKeeper) frame(f *Frame, img func() sight.Image) {
	if e == nil {
		return
	}
	t0 := time.Now()
	if e.raw != nil && !f.Raw.Empty() {
		img = func() sight.Image { return rawFrame{f.Raw} }
	}
	e.buf.AddFunc(img, f.Index, f.PTS)
	d := int64(time.Since(t0))
	e.addN.Add(1)
	e.addNs.Add(d)
	if d > e.addMax.Load() {
		e.addMax.Store(d) // one writer: the analysis goroutine
	}
}

// events follows the strokes: a stroke's frames are kept from shortly
// before the strike (the placement) to the rest.
func (e *evidenceKeeper) events(evs []events.Event) {
	if e == nil {
		return
	}
	for _, ev := range evs {
		switch ev.Type {
		case events.StrokeStart:
			from := max(0, int64(ev.Frame)-e.pre)
			e.buf.StrokeStart(from)
			e.mu.Lock()
			e.inPlay = from
			e.mu.Unlock()
		case events.StrokeEnd:
			e.buf.StrokeEnd(int64(ev.Frame))
			e.mu.Lock()
			if e.inPlay >= 0 {
				e.stroke = [2]int64{e.inPlay, int64(ev.Frame)}
			}
			e.inPlay = -1
			e.mu.Unlock()
		}
	}
}

// pieces remembers recent positions (the still shows the decisive
// frame's).
func (e *evidenceKeeper) pieces(p web.Pieces) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if n := len(e.pcs); n > 0 && e.pcs[n-1].Frame >= p.Frame {
		if e.pcs[n-1].Frame == p.Frame {
			e.pcs[n-1] = p
			return
		}
		e.pcs = nil // a new stream
	}
	e.pcs = append(e.pcs, p)
	if len(e.pcs) > 600 {
		e.pcs = append(e.pcs[:0:0], e.pcs[len(e.pcs)-300:]...)
	}
}

// outlines is the hands' outlines of h, computed when called.
func outlines(h sight.HandRegions) func() [][][2]float64 {
	return func() [][][2]float64 {
		var out [][][2]float64
		for _, r := range h.HandRegions() {
			out = append(out, r.Outline)
		}
		return out
	}
}

// handFrame is a frame's hands as vision found them; outlines computes
// their outlines.
type handFrame struct {
	frame    int64
	outlines func() [][][2]float64
}

// handOutlines are a frame's hands' outlines, computed.
type handOutlines struct {
	frame    int64
	outlines [][][2]float64
}

// keepHands is how many frames' hand outlines are remembered (about 10 s
// at 30 fps); handQueue how many frames may wait for their outlines to
// be computed (beyond it a frame's hands are not remembered: its still
// shades a patch around the hand's point instead).
const (
	keepHands = 300
	handQueue = 32
)

// startHands starts the goroutine that computes the hands' outlines off
// the pipeline, so that only the outlines (small polygons) are kept, not
// vision's masks.
func (e *evidenceKeeper) startHands() {
	e.handWork = make(chan handFrame, handQueue)
	e.handDone = make(chan struct{})
	go func() {
		defer close(e.handDone)
		for hf := range e.handWork {
			o := hf.outlines()
			e.mu.Lock()
			if n := len(e.handFrames); n > 0 && e.handFrames[n-1].frame >= hf.frame {
				e.handFrames = nil // a new stream
			}
			e.handFrames = append(e.handFrames, handOutlines{hf.frame, o})
			if len(e.handFrames) > keepHands {
				e.handFrames = append(e.handFrames[:0:0], e.handFrames[len(e.handFrames)-keepHands/2:]...)
			}
			e.mu.Unlock()
		}
	}()
}

// hands hands the hands seen in an analysed frame to the outlines'
// goroutine (outlines computes them in the camera frame's pixels; nil:
// none seen). It never waits.
func (e *evidenceKeeper) hands(frame int64, outlines func() [][][2]float64) {
	if e == nil || outlines == nil || e.handWork == nil {
		return
	}
	defer func() { _ = recover() }() // closed: the daemon is stopping
	select {
	case e.handWork <- handFrame{frame, outlines}:
	default:
	}
}

// syncHands waits until the frames handed over have their outlines (tests).
func (e *evidenceKeeper) syncHands() {
	for len(e.handWork) > 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * time.Millisecond) // the one being computed
}

// handsAt are the outlines of the hands in frame (none when the frame was
// not analysed or showed no hand).
func (e *evidenceKeeper) handsAt(frame int64) [][][2]float64 {
	for i := len(e.handFrames) - 1; i >= 0; i-- {
		if h := e.handFrames[i]; h.frame == frame {
			return h.outlines
		} else if h.frame < frame {
			break
		}
	}
	return nil
}

func (e *evidenceKeeper) piecesAt(frame int64) []web.Piece {
	best := -1
	for i, p := range e.pcs {
		if best < 0 || abs(p.Frame-frame) < abs(e.pcs[best].Frame-frame) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return e.pcs[best].Pieces
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// calibration follows the camera's calibration (the stills draw the
// board through it).
func (e *evidenceKeeper) calibration(c web.Calibration) {
	if e == nil {
		return
	}
	e.mu.Lock()
	e.cal = c
	e.mu.Unlock()
}

// resync follows a new match (its journal names the files) and, for a
// continued one, restores the files of its earlier runs; pending are the
// decisions still awaiting the umpire (their files stay the umpire's).
func (e *evidenceKeeper) resync(journal string, st *rules.State, pending []match.Pending) {
	if e == nil {
		return
	}
	if journal != "" {
		e.mu.Lock()
		e.prefix = journalPrefix(journal)
		e.mu.Unlock()
		e.restore(pendingIDs(pending))
	}
	if st != nil {
		e.mu.Lock()
		e.setPlayers(*st)
		e.mu.Unlock()
	}
}

func pendingIDs(ps []match.Pending) map[string]bool {
	ids := map[string]bool{}
	for _, p := range ps {
		ids[p.ID] = true
	}
	return ids
}

// restore registers the stills and clips an earlier run of the match
// wrote (PREFIX-ID.jpg/.mp4, described by PREFIX-ID.json), once per match,
// so that they are served after a restart: a decision still pending only
// to the umpire, the others to everyone.
func (e *evidenceKeeper) restore(pending map[string]bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dir == "" || e.restored == e.prefix {
		return
	}
	e.restored = e.prefix
	ents, err := os.ReadDir(e.dir)
	if err != nil {
		return // nothing written yet
	}
	type found struct {
		base      string
		jpg, mp4  bool
		mod       time.Time
		media     *web.Media
		mediaFile bool
	}
	byBase := map[string]*found{}
	var bases []*found
	for _, de := range ents {
		name := de.Name()
		ext := filepath.Ext(name)
		base := strings.TrimSuffix(name, ext)
		if de.IsDir() || !strings.HasPrefix(base, e.prefix+"-") || (ext != ".jpg" && ext != ".mp4" && ext != ".json") {
			continue
		}
		if e.files[base+".jpg"] != nil {
			continue // this run's
		}
		f := byBase[base]
		if f == nil {
			f = &found{base: base}
			byBase[base] = f
			bases = append(bases, f)
		}
		if info, err := de.Info(); err == nil && info.ModTime().After(f.mod) {
			f.mod = info.ModTime()
		}
		switch ext {
		case ".jpg":
			f.jpg = true
		case ".mp4":
			f.mp4 = true
		case ".json":
			f.mediaFile = true
		}
	}
	sort.Slice(bases, func(i, j int) bool { return bases[i].mod.Before(bases[j].mod) })
	n := 0
	for i, f := range bases {
		if !f.jpg && !f.mp4 {
			continue
		}
		m := web.Media{ID: strings.TrimPrefix(f.base, e.prefix+"-")}
		if f.mediaFile {
			if b, err := os.ReadFile(filepath.Join(e.dir, f.base+".json")); err == nil {
				var saved web.Media
				if json.Unmarshal(b, &saved) == nil && saved.ID != "" {
					m = saved
				}
			}
		}
		if m.Kind == "" {
			m.Kind = kindOfID(m.ID)
		}
		m.Status, m.Still, m.Clip, m.Message = web.MediaReady, "", "", ""
		if f.jpg {
			m.Still = "/api/evidence/" + f.base + ".jpg"
		}
		if f.mp4 {
			m.Clip = "/api/evidence/" + f.base + ".mp4"
		}
		// Earlier than anything of this run (the replay scene plays the
		// newest).
		it := &evItem{media: m, public: !pending[m.ID], written: true, seq: i - len(bases), earlier: true}
		e.files[f.base+".jpg"] = it
		e.files[f.base+".mp4"] = it
		// A pending decision keeps its id across restarts (the journal
		// numbers them on); a foul's or pocketing's id is its frame's
		// number, which a new run counts again from 0: those are served,
		// never taken for a new decision's.
		if pending[m.ID] && e.items[m.ID] == nil {
			e.items[m.ID] = it
		}
		e.considerReplay(it)
		n++
	}
	if n > 0 {
		e.log.Info("evidence: the files of earlier runs of this match are served", "files", n, "pending", len(pending), "dir", e.dir)
	}
}

// kindOfID guesses the kind of an earlier run's evidence from its id
// (files written before the .json descriptions).
func kindOfID(id string) string {
	switch {
	case strings.HasPrefix(id, "f-"):
		return "foul"
	case strings.HasPrefix(id, "s-"):
		return "pocketing"
	}
	return "decision"
}

func (e *evidenceKeeper) setPlayers(st rules.State) {
	for _, p := range st.Players {
		e.players[p.Seat] = p.Name
	}
}

func (e *evidenceKeeper) name(seat board.Side) string {
	if n := e.players[seat]; n != "" {
		return n
	}
	return seat.String()
}

// annotate runs on the publishing goroutine before the messages go out:
// it asks for evidence and fills in the messages' media and headings.
func (e *evidenceKeeper) annotate(msgs []web.Message) []web.Message {
	if e == nil {
		return msgs
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, m := range msgs {
		switch v := m.(type) {
		case web.Notice:
			v.Text = plain(v.Text)
			msgs[i] = v
		case web.Calibration:
			e.cal = v
		case web.StateUpdate:
			e.setPlayers(rules.State(v))
		case web.Pending:
			v = e.worded(v)
			it := e.items[v.ID]
			if it == nil {
				kind := "decision"
				if len(v.Fouls) > 0 {
					kind = "foul"
				}
				it = e.request(v.ID, kind, v.Heading, decisive(v), v.Fouls, false)
			}
			media := it.media
			v.Media = &media
			for j := range v.Fouls {
				v.Fouls[j].Media = &media
			}
			msgs[i] = v
		case web.Foul:
			v.Evidence.Note = plain(v.Evidence.Note)
			v.Heading = e.foulHeading(v)
			id := v.Pending
			if id == "" {
				id = fmt.Sprintf("f-%d-%s", v.Frame, v.Code)
			}
			it := e.items[id]
			if it == nil {
				it = e.request(id, "foul", v.Heading, v.Frame, []web.Foul{v}, v.Pending == "")
			}
			media := it.media
			v.Media = &media
			msgs[i] = v
		case web.Stroke:
			p := v.Pocketed
			if v.Pending != "" || (p.White == 0 && p.Black == 0 && !p.Queen) {
				continue
			}
			id := fmt.Sprintf("s-%d", v.Frame)
			if e.items[id] == nil {
				e.request(id, "pocketing", e.pocketHeading(v), v.Frame, nil, true)
			}
		case web.Decided:
			if it := e.items[v.ID]; it != nil {
				it.public = true
				e.considerReplay(it)
			}
		}
	}
	return msgs
}

// decisive is the frame a pending decision's still shows: its first
// foul's, else its own.
func decisive(p web.Pending) int64 {
	for _, f := range p.Fouls {
		if f.Frame > 0 {
			return f.Frame
		}
	}
	if p.Stroke != nil && p.Stroke.Frame > 0 {
		return p.Stroke.Frame
	}
	return p.Frame
}

// request submits the writing of one decision's evidence (e.mu held).
func (e *evidenceKeeper) request(id, kind, heading string, frame int64, fouls []web.Foul, public bool) *evItem {
	base := e.prefix + "-" + strings.Trim(unsafeName.ReplaceAllString(id, "-"), "-")
	// An earlier run's decision with the same frame number (a new run
	// counts frames from 0 again) keeps its files: this one gets a name
	// of its own.
	for n, b := 2, base; e.files[base+".jpg"] != nil; n++ {
		base = fmt.Sprintf("%s-%d", b, n)
	}
	it := &evItem{public: public, seq: len(e.order)}
	it.media = web.Media{ID: id, Status: web.MediaPreparing, Frame: frame, Heading: heading, Kind: kind,
		Still: "/api/evidence/" + base + ".jpg", Clip: "/api/evidence/" + base + ".mp4"}
	e.items[id] = it
	e.files[base+".jpg"] = it
	e.files[base+".mp4"] = it
	e.order = append(e.order, id)
	if len(e.order) > keepItems {
		old := e.order[0]
		e.order = e.order[1:]
		if o := e.items[old]; o != nil {
			delete(e.files, filepath.Base(o.media.Still))
			delete(e.files, filepath.Base(o.media.Clip))
			delete(e.items, old)
		}
	}
	from, to := frame-int64(4*e.fps), frame+int64(e.fps)
	if s := e.stroke; s[1] > 0 && frame >= s[0] && frame <= s[1]+int64(2*e.fps) {
		from, to = s[0], max(s[1], frame)+int64(e.fps/2)
	}
	frames := e.buf.Frames(from, to)
	// The still shows the kept frame nearest the decisive one, and the
	// hands of that very frame.
	still := frame
	for i, f := range frames {
		if i == 0 || abs(f.Index-frame) < abs(still-frame) {
			still = f.Index
		}
	}
	req := evidence.Request{Name: base, Frames: frames, Decisive: still, Scene: e.scene(frame, fouls, heading, frames)}
	req.Scene.HandOutlines = e.handsAt(still)
	if !e.w.Submit(req) {
		e.failed.WithLabelValues("busy").Inc()
		e.log.Warn("evidence: the writer is behind: no still or clip for this decision", "id", id)
		it.media.Status, it.media.Still, it.media.Clip = web.MediaFailed, "", ""
		it.media.Message = "the evidence writer was busy"
		it.written = true
	}
	return it
}

// scene is what the still shows (e.mu held).
func (e *evidenceKeeper) scene(frame int64, fouls []web.Foul, heading string, frames []evidence.Frame) evidence.Scene {
	s := evidence.Scene{Geometry: e.geom, Title: heading}
	if e.cal.Usable() {
		if h, err := e.cal.BoardToPixels(e.geom); err == nil {
			s.H, s.CalW = &h, e.cal.Width
			if s.CalW == 0 && len(frames) > 0 {
				s.CalW = frames[0].W
			}
		}
	}
	for _, p := range e.piecesAt(frame) {
		switch p.State {
		case web.PieceRest, web.PieceMoving, web.PieceHeld, "":
			s.Discs = append(s.Discs, evidence.Disc{ID: p.ID, Kind: p.Kind, MM: board.V(p.MM[0], p.MM[1])})
		}
	}
	detail := fmt.Sprintf("frame %d", frame)
	if len(fouls) > 0 {
		f := fouls[0]
		s.Marking, s.Seat = f.Evidence.Marking, f.Seat
		if h := f.Evidence.HandMM; h != nil {
			v := board.V(h[0], h[1])
			s.Hand = &v
		}
		for _, p := range f.Evidence.Positions {
			s.Involved = append(s.Involved, p.ID)
			if !hasDisc(s.Discs, p.ID) {
				s.Discs = append(s.Discs, evidence.Disc{ID: p.ID, Kind: p.Kind, MM: board.V(p.MM[0], p.MM[1])})
			}
		}
		if f.Evidence.Marking != "" {
			detail += "  " + f.Evidence.Marking
		}
		if m := f.Evidence.MarginMM; m != nil {
			detail += "  margin " + evidence.Margin(*m)
		}
	}
	s.Detail = detail
	return s
}

func hasDisc(ds []evidence.Disc, id string) bool {
	for _, d := range ds {
		if d.ID == id {
			return true
		}
	}
	return false
}

// finished receives the writer's results (on its goroutine).
func (e *evidenceKeeper) finished(r evidence.Result) {
	e.mu.Lock()
	defer e.mu.Unlock()
	it := e.files[r.Name+".jpg"]
	if r.Still != "" {
		e.written.WithLabelValues("still").Inc()
	}
	if r.Clip != "" {
		e.written.WithLabelValues("clip").Inc()
		e.clipSeconds.Observe(r.Took.Seconds())
	}
	if r.Err != nil {
		e.nFailed++
	} else {
		e.nWritten++
	}
	e.took = append(e.took, r.Took)
	if r.Err != nil {
		reason := "write"
		switch {
		case r.Frames == 0:
			reason = "frames"
		case strings.Contains(r.Err.Error(), "ffmpeg"):
			reason = "ffmpeg"
		}
		e.failed.WithLabelValues(reason).Inc()
		e.log.Warn("evidence: not all written (refereeing goes on)", "name", r.Name, "err", r.Err)
	} else {
		e.log.Debug("evidence written", "name", r.Name, "frames", r.Frames, "took", r.Took.Round(time.Millisecond), "bytes", r.Bytes)
	}
	if it == nil {
		return // forgotten meanwhile
	}
	it.written = true
	m := &it.media
	if r.Still == "" {
		m.Still = ""
	}
	if r.Clip == "" {
		m.Clip = ""
	}
	m.Frame, m.Frames, m.FPS = r.StillFrame, r.Frames, e.fps
	switch {
	case m.Still == "" && m.Clip == "":
		m.Status = web.MediaFailed
	default:
		m.Status = web.MediaReady
	}
	if r.Err != nil {
		m.Message = shortErr(r.Err)
	}
	if m.Status == web.MediaReady {
		e.describe(r.Name, *m)
	}
	e.ready = append(e.ready, *m)
	e.considerReplay(it)
	e.wake()
}

// describe writes NAME.json beside a decision's still and clip: what a
// restart needs to serve them again with their heading (restore). It is
// deleted with them by the policy; failing to write it costs only that.
func (e *evidenceKeeper) describe(name string, m web.Media) {
	p, ok := e.w.Path(name + ".json")
	if !ok {
		return
	}
	b, err := json.Marshal(m)
	if err == nil {
		tmp := p + ".tmp"
		if err = os.WriteFile(tmp, b, 0o640); err == nil {
			err = os.Rename(tmp, p)
		}
		if err != nil {
			os.Remove(tmp)
		}
	}
	if err != nil {
		e.log.Debug("evidence: description not written", "name", name, "err", err)
	}
}

// snapshot completes the pending decisions of a snapshot as annotate
// completes the messages (a restart's pending decisions come in the
// snapshot, not in messages): plain texts, headings and, when an earlier
// run wrote them, the still and clip.
func (e *evidenceKeeper) snapshot(s *web.Snapshot) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, v := range s.Pending {
		v = e.worded(v)
		if it := e.items[v.ID]; it != nil {
			media := it.media
			v.Media = &media
			for j := range v.Fouls {
				v.Fouls[j].Media = &media
			}
		}
		s.Pending[i] = v
	}
}

// worded gives a pending decision the words a person reads: plain texts
// (no notation, no coordinates) and the headings of the card and its fouls.
// The fouls and doubts are copied, not changed in place, since the message
// they came in may be read elsewhere. Called with e.mu held.
func (e *evidenceKeeper) worded(v web.Pending) web.Pending {
	v.Summary = plain(v.Summary)
	v.Fouls = append([]web.Foul(nil), v.Fouls...)
	for j := range v.Fouls {
		v.Fouls[j].Evidence.Note = plain(v.Fouls[j].Evidence.Note)
		v.Fouls[j].Heading = e.foulHeading(v.Fouls[j])
	}
	v.Doubts = append([]web.Doubt(nil), v.Doubts...)
	for j := range v.Doubts {
		v.Doubts[j].Reason = plain(v.Doubts[j].Reason)
	}
	v.Heading, v.Clean = e.pendingHeading(v)
	return v
}

func shortErr(err error) string {
	s := err.Error()
	if i := strings.Index(s, ": "); i > 0 && strings.HasPrefix(s, "evidence ") {
		s = s[i+2:]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// considerReplay makes a settled foul's or pocketing's clip the one the
// replay scene plays (e.mu held).
func (e *evidenceKeeper) considerReplay(it *evItem) {
	if !it.public || !it.written || it.media.Clip == "" || it.media.Kind == "decision" {
		return
	}
	if e.last == nil || it.seq >= e.last.seq {
		e.last = it
	}
}

// drain returns the evidence ready to publish.
func (e *evidenceKeeper) drain() []web.Media {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.ready
	e.ready = nil
	return out
}

// EvidenceFile implements web.EvidenceSource.
func (e *evidenceKeeper) EvidenceFile(name string) (string, bool, bool) {
	e.mu.Lock()
	it := e.files[name]
	public := it != nil && it.public
	e.mu.Unlock()
	if it == nil {
		return "", false, false
	}
	p, ok := e.w.Path(name)
	return p, public, ok
}

// LastReplay implements web.EvidenceSource.
func (e *evidenceKeeper) LastReplay() (web.Media, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.last == nil {
		return web.Media{}, false
	}
	return e.last.media, true
}

// Headings in plain words.

// foulPhrase says a foul after the player's name ("Asha" + "'s hand
// crossed the foul line"), as its description (package foul) words it.
func foulPhrase(code string) (string, bool) {
	if d, ok := foul.Lookup(foul.Code(code)); ok && d.Heading != "" {
		return d.Heading, true
	}
	return "", false
}

// foulHeading: "Asha's hand crossed the foul line, 17 mm" (e.mu held).
func (e *evidenceKeeper) foulHeading(f web.Foul) string {
	who := e.name(f.Seat)
	var h string
	if p, ok := foulPhrase(f.Code); ok {
		if strings.Contains(p, "%s") {
			part := "hand"
			switch note := f.Evidence.Note; {
			case strings.Contains(note, "hand or arm"):
				part = "hand or arm"
			case strings.Contains(note, "the arm of"):
				part = "arm"
			}
			p = fmt.Sprintf(p, part)
		}
		h = who + p
	} else {
		what := f.Text
		if what == "" {
			what = strings.ReplaceAll(f.Code, "_", " ")
		}
		h = who + ": " + what
	}
	// The margin beyond the line or circle broken (a measure against
	// no marking, e.g. how far a touched piece moved, is not a margin).
	if m := f.Evidence.MarginMM; m != nil && *m > 0 && f.Evidence.Marking != "" {
		h += ", " + evidence.Margin(*m)
	}
	return h
}

// pendingHeading titles a pending card and says whether it is a clean
// stroke (e.mu held).
func (e *evidenceKeeper) pendingHeading(p web.Pending) (string, bool) {
	if len(p.Fouls) > 0 {
		h := p.Fouls[0].Heading
		if n := len(p.Fouls) - 1; n > 0 {
			h += fmt.Sprintf(" (and %d more)", n)
		}
		if p.Fouls[0].Evidence.LowConfidence {
			h += " — not sure"
		}
		return h, false
	}
	seat, stroke := board.S, p.Stroke
	if stroke != nil {
		seat = stroke.Seat
	}
	who := e.name(seat)
	if len(p.Doubts) > 0 {
		return fmt.Sprintf("%s's stroke: the camera is not sure (%s)", who, p.Doubts[0].Reason), false
	}
	if stroke == nil {
		return p.Summary, false
	}
	return who + "'s stroke: " + pocketWords(stroke.Pocketed), !p.Queued
}

func (e *evidenceKeeper) pocketHeading(s web.Stroke) string {
	return e.name(s.Seat) + " pocketed " + strings.TrimPrefix(pocketWords(s.Pocketed), "pocketed ")
}

// pocketWords: "pocketed 2 white and the queen", "nothing pocketed".
func pocketWords(p web.Pocketed) string {
	var parts []string
	if p.White > 0 {
		parts = append(parts, fmt.Sprintf("%d white", p.White))
	}
	if p.Black > 0 {
		parts = append(parts, fmt.Sprintf("%d black", p.Black))
	}
	if p.Queen {
		parts = append(parts, "the queen")
	}
	if p.Striker {
		parts = append(parts, "the striker")
	}
	if len(parts) == 0 {
		return "nothing pocketed"
	}
	if len(parts) > 1 {
		return "pocketed " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	return "pocketed " + parts[0]
}

// sortedIDs is for tests.
func (e *evidenceKeeper) sortedIDs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ids []string
	for id := range e.items {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// EvidenceSummary says, for the exit summary, what the evidence cost the
// pipeline (the frame copy on the analysis goroutine) and what the writer
// did ("" when evidence is off).
func (d *Daemon) EvidenceSummary() string {
	e := d.ev
	if e == nil {
		return ""
	}
	st := e.buf.Stats()
	var mean time.Duration
	if n := e.addN.Load(); n > 0 {
		mean = time.Duration(e.addNs.Load() / n)
	}
	e.mu.Lock()
	took := append([]time.Duration(nil), e.took...)
	written, failed := e.nWritten, e.nFailed
	e.mu.Unlock()
	s := fmt.Sprintf("evidence: replay buffer %s; the pipeline's copy %s mean, %s max per frame; compressing %s CPU per frame (own goroutine)",
		st, mean.Round(time.Microsecond), time.Duration(e.addMax.Load()).Round(time.Microsecond), st.EncodeCPU.Round(time.Microsecond))
	if len(took) > 0 {
		sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
		var sum time.Duration
		for _, t := range took {
			sum += t
		}
		s += fmt.Sprintf("\n  %d decisions written, %d with something missing; still + clip %s mean, %s max (writer goroutine and ffmpeg, never the pipeline)",
			written, failed, (sum / time.Duration(len(took))).Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
	}
	return s
}

// WriteSheet implements web.SheetSource: the match sheet (package sheet)
// of the journal in play, as the umpire console downloads it.
func (d *Daemon) WriteSheet(w io.Writer, format string) error {
	return writeSheet(w, d.JournalPath(), format)
}

func writeSheet(w io.Writer, journal, format string) error {
	if journal == "" {
		return errors.New("no journal yet")
	}
	jf, err := match.ReadJournal(journal, false)
	if err != nil {
		return err
	}
	var lines []sheet.Line
	for _, r := range jf.Records {
		if r.Event != nil {
			lines = append(lines, sheet.Line{Line: r.Line, Event: r.Event, By: r.Meta.By, Note: r.Meta.Note})
		}
	}
	sh, err := sheet.Build(jf.Header, lines)
	if err != nil {
		return err
	}
	if format == "csv" {
		return sheet.WriteCSV(w, sh)
	}
	return sheet.WritePDF(w, sh)
}
