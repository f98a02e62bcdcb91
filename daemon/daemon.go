package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/frames/libav"
	"github.com/boardcam/boardcam/hardware"
	"github.com/boardcam/boardcam/hardware/buttons"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/internal/sdnotify"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/web"
)

// Publisher receives every message the daemon publishes (the web server is
// one). Publish must not block for long: the publishing component waits
// for it, and while it waits the referee's queue fills and capture starts
// dropping frames (never decisions).
type Publisher interface {
	Publish(web.Message) error
}

// Daemon is `boardcam run`: capture → analysis (calibrate, vision,
// tracker) → referee → rules → journal → publishers (scoreboard sinks,
// websocket), each a goroutine connected to the next by a bounded queue.
//
//	d := &daemon.Daemon{Config: cfg, Logger: log, Sight: sight} // sight: the OpenCV side (cmd/boardcam)
//	if err := d.Initialize(); err != nil { … }
//	defer d.Close()
//	err := d.Run(ctx) // until the video ends or ctx is cancelled
//
// Set the fields before Initialize.
type Daemon struct {
	Config Config
	Logger *slog.Logger
	// Clock is the time source (default the wall clock).
	Clock clock.Clock
	// Out receives the terminal scoreboard (display: term); default
	// standard output.
	Out io.Writer
	// NewMatch starts a new match even when the journal of an unfinished
	// one exists (which is closed). It is a one-off request (boardcam
	// new-match does it without running): by default a restart continues
	// the unfinished match whatever else the configuration says.
	NewMatch bool
	// Resume, a stroke log file, is the match to start when no unfinished
	// match continues: the log's header (rules, players, breaker) and its
	// lines are written to the new journal first, and the daemon referees
	// on from the state the log ends in — a match that began before
	// boardcam was switched on, or was scored by hand. The configuration's
	// match profile, players and breaker are not used.
	Resume string

	resumeLog *rules.Log

	// Source replaces the configured source; Reopen, when set, makes a
	// fresh one after a read was abandoned (default: Source again).
	Source Source
	Reopen func() (Source, error)
	// Analyzer replaces the default analyzer.
	Analyzer Analyzer
	// Sight is the OpenCV side the default analyzer is made of (given by
	// cmd/boardcam from package vision/analysis).
	Sight Sight
	// Remove, when set, drops the frames it names as the capture reads
	// them, exactly as if the analysis had been too busy to take them: a
	// slow computer's drops made repeatable (boardcam eval --remove).
	Remove func(index int64) bool
	// Pacer, when set, is the time a file is played and analysed on
	// instead of the wall clock (Clock): a SlowCPU plays it as a computer
	// that many times slower would, the same frames lost on every run
	// (boardcam run --slow-cpu, eval --remove speedK). It needs a paced
	// file source.
	Pacer Pacer
	// Publishers and Sinks are added to the web server and to the
	// terminal and hardware sinks.
	Publishers []Publisher
	Sinks      []display.Sink
	// Painter does the pixel work of the preview, the still frames and
	// the evidence (render/paint.Painter, given by cmd/boardcam; nil: no
	// preview, no evidence).
	Painter overlay.Painter
	// Hardware are the hardware openers (tests use fakes).
	Hardware hardware.Options
	// WebClock is the web server's clock (default the system clock).
	WebClock clock.Clock
	// WebTuning, when set, adjusts the web server's configuration before
	// it starts (tests shrink the per-client queues).
	WebTuning func(*web.Config)
	// Notifier tells systemd that the daemon is ready and healthy
	// (watchdog.go); nil when not run by systemd.
	Notifier *sdnotify.Notifier

	geom     *board.Geometry
	metrics  *Metrics
	web      *web.Server
	sink     display.Sink
	devices  *hardware.Devices
	keeper   *match.Keeper
	cap      *capture
	feed     *feed
	analyzer Analyzer
	ev       *evidenceKeeper // replay buffer and evidence (evidence.go)
	srcInfo  SourceInfo
	identity string
	catchUp  int64 // the last frame the journal has already (-1 none)

	calC chan web.Calibration
	wake chan struct{}

	slotMu    sync.Mutex
	camSlot   *web.Camera
	pieceSlot *web.Pieces
	anaSlot   *web.Analysis

	// snap holds the latest camera, calibration, analysis and pieces
	// published (the match's part is the keeper's: match.Snapshot);
	// resync is the new match's snapshot while the web server resyncs.
	snapMu sync.Mutex
	snap   web.Snapshot
	resync *match.Snapshot

	// frameMu guards the web's requests for the next frame (CopyFrame,
	// answered by the capture), the last frame kept once the stream
	// ended (a capture buffer, idle by then: no copy) and frameClosed.
	frameMu     sync.Mutex
	frameReqs   []*frameRequest
	ended       *Frame
	frameClosed bool
	frameConv   libav.Converter // converts a Raw frame for the web (frameMu held)

	lock        *os.File
	srcErr      error
	srcErrMu    sync.Mutex
	lastSinkLat atomic.Int64
	reportMu    sync.Mutex
	reportErrs  map[string]string
	closeOnce   sync.Once

	// A Run in flight: Close stops it and waits for it before it frees
	// what Run uses (the analyzer's OpenCV memory above all).
	runMu   sync.Mutex
	closed  bool
	runStop context.CancelFunc
	runDone chan struct{}
}

// Initialize checks the configuration, opens the journal (replaying an
// unfinished match), the source, the sinks, the hardware and the web
// server. It does not start reading. On error everything opened is
// released.
func (d *Daemon) Initialize() error {
	if err := d.initialize(); err != nil {
		d.Close()
		return err
	}
	return nil
}

func (d *Daemon) initialize() error {
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Out == nil {
		d.Out = os.Stdout
	}
	if d.Config.Source.Kind == "" {
		d.Config.applyDefaults()
	}
	cfg := &d.Config
	if err := cfg.Validate(); err != nil {
		return err
	}
	d.geom = board.ICF()
	if cfg.Board != "" {
		g, err := board.Load(cfg.Board)
		if err != nil {
			return fmt.Errorf("%s: %w", cfg.at("board"), err)
		}
		d.geom = g
	}
	d.calC = make(chan web.Calibration, cfg.Pipeline.PublishQueue)
	d.wake = make(chan struct{}, 1)
	d.reportErrs = map[string]string{}

	var wm *web.Metrics
	if *cfg.Web.Listen != "" {
		wm = web.NewMetrics()
	}
	d.metrics = NewMetrics(wm, d.Clock.Now())

	if d.Resume != "" {
		lg, err := match.ReadResumeLog(d.Resume)
		if err != nil {
			return err
		}
		d.resumeLog = lg
	}
	if err := d.openSource(); err != nil {
		return err
	}
	if err := d.openMatch(); err != nil {
		return err
	}
	if err := d.openAnalyzer(); err != nil {
		return err
	}
	d.catchUp = d.keeper.CatchUpUntil()
	if err := d.openEvidence(); err != nil {
		return err
	}
	if d.cap != nil {
		d.cap.catchUp = d.catchUp
	}
	if d.feed != nil {
		d.feed.catchUp = d.catchUp
	}
	d.initSnapshot()

	// Outputs.
	var sinks []display.Sink
	if cfg.Display == "term" {
		sinks = append(sinks, display.NewTerminal(d.Out, display.TerminalOptions{ANSI: isTerminal(d.Out), Clock: d.Clock, Report: d.report}))
	}
	if cfg.Hardware != (hardware.Config{}) {
		o := d.Hardware
		o.Clock, o.Report = d.Clock, d.report
		dev, err := hardware.Open(cfg.Hardware, o)
		if err != nil {
			d.sink = display.Fanout(sinks...) // closed by Close
			return fmt.Errorf("%s: %w", cfg.at("hardware"), err)
		}
		d.devices = dev
		for _, s := range dev.Opened {
			d.Logger.Info("hardware ready", "device", s)
		}
		for _, e := range dev.Missing {
			d.Logger.Warn("hardware missing: carrying on without it", "err", e)
		}
		sinks = append(sinks, dev.Sink)
	} else {
		d.Logger.Debug("no hardware configured")
	}
	sinks = append(sinks, d.Sinks...)
	d.sink = display.Fanout(sinks...)

	if *cfg.Web.Listen != "" {
		wc := d.WebClock
		if wc == nil {
			wc = clock.Real{}
		}
		tlsCfg, err := d.webTLS()
		if err != nil {
			return err
		}
		d.web = &web.Server{
			Config: web.Config{Listen: *cfg.Web.Listen, UmpireHash: cfg.Web.UmpireHash, AllowedOrigins: cfg.Web.AllowedOrigins,
				TrustedProxies: cfg.Web.TrustedProxies, TLS: tlsCfg, Board: d.geom, Clock: wc},
			Logger: d.Logger.With("component", "web"),
			Source: d, Sink: d, Frames: d, Metrics: wm, Sheet: d, Painter: d.Painter,
		}
		if d.ev != nil {
			d.web.Evidence = d.ev
		}
		if d.WebTuning != nil {
			d.WebTuning(&d.web.Config)
		}
		if err := d.web.Initialize(); err != nil {
			d.web = nil
			hint := ""
			if strings.Contains(err.Error(), "address already in use") {
				hint = " (another program uses it: set web.listen or --listen, or --listen '' to turn the web server off)"
			}
			return fmt.Errorf("%s: %w%s", cfg.at("web.listen"), err, hint)
		}
		d.Logger.Info("web server listening", "addr", d.web.Addr(), "https", tlsCfg != nil, "umpire_console", cfg.Web.UmpireHash != "")
	}
	// Last, once everything else opened: a start that fails creates no
	// journal.
	if err := d.keeper.Start(); err != nil {
		return err
	}
	d.ev.resync(d.JournalPath(), nil, d.keeper.Snapshot().Pending) // the evidence files are named after the journal
	d.Logger.Info("boardcam starting", "source", d.srcInfo.Name, "live", d.srcInfo.Live, "profile", d.keeper.Snapshot().Profile.Name,
		"decisions", cfg.Match.Decisions, "journal", d.keeper.JournalPath(), "display", cfg.Display)
	return nil
}

// openSource resolves the source and makes the capture or the feed.
func (d *Daemon) openSource() error {
	cfg := &d.Config
	src := d.Source
	if src == nil {
		uri := cfg.Source.URI
		if uri == "" {
			p, err := FindDemoClip()
			if err != nil {
				return err
			}
			uri = p
			cfg.Source.URI = p
			d.Logger.Info("no source given: playing the demo clip", "file", p)
		}
		spec, err := ParseSource(uri, cfg.Source.Kind)
		if err != nil {
			return fmt.Errorf("%s: %w", cfg.at("source.uri"), err)
		}
		if spec.Kind == KindEvents {
			f := &feed{path: spec.Target, queue: cfg.Pipeline.EventQueue, cfg: cfg.Source, log: d.Logger.With("component", "events"),
				clock: d.Clock, metrics: d.metrics, status: d.cameraStatus}
			if err := f.Initialize(); err != nil {
				return fmt.Errorf("%s: %w", cfg.at("source.uri"), err)
			}
			d.feed = f
			d.identity = f.identity
			d.srcInfo = SourceInfo{Name: spec.Target, Kind: KindEvents, Identity: f.identity}
			return nil
		}
		if err := d.Sight.checkFrames(); err != nil {
			return err
		}
		opt := CaptureOptions{Width: cfg.Source.Width, Height: cfg.Source.Height, FPS: cfg.Source.FPS, Format: strings.ToLower(cfg.Source.Format),
			Exposure: cfg.Source.Exposure.Time(), ExposureAuto: cfg.Source.Exposure.Auto, Focus: cfg.Source.Focus}
		pics := d.Sight.Pictures
		s, err := NewCaptureSource(spec, opt, pics)
		if err != nil {
			return fmt.Errorf("%s: %w", cfg.at("source.uri"), err)
		}
		src = s
		if d.Reopen == nil {
			d.Reopen = func() (Source, error) { return NewCaptureSource(spec, opt, pics) }
		}
	}
	if err := d.Sight.checkFrames(); err != nil {
		return err
	}
	d.srcInfo = src.Info()
	d.identity = d.srcInfo.Identity
	if d.Pacer != nil && (d.srcInfo.Live || !cfg.Source.pace()) {
		return fmt.Errorf("a modelled computer (%T) plays a video file paced at its frame rate: %s is live or not paced", d.Pacer, d.srcInfo.Name)
	}
	c := &capture{cfg: cfg.Source, queue: cfg.Pipeline.FrameQueue, queueMB: cfg.Pipeline.FrameQueueMB, src: src, pics: d.Sight.Pictures, log: d.Logger.With("component", "capture"),
		clock: d.Clock, pacer: d.Pacer, metrics: d.metrics, status: d.cameraStatus, answer: d.answerFrame}
	if err := c.Initialize(); err != nil {
		return err
	}
	c.lost = func() {
		if d.keeper != nil {
			d.keeper.PictureLost()
		}
	}
	c.reopen = d.Reopen
	if c.reopen == nil {
		c.reopen = func() (Source, error) { return src, nil }
	}
	c.lossless = !d.srcInfo.Live && !cfg.Source.pace()
	c.remove = d.Remove
	d.cap = c
	return nil
}

// openAnalyzer makes the vision pipeline (once the match is open: the
// breaker numbers the opening's men, and the first-stroke orientation
// needs the seat to strike).
func (d *Daemon) openAnalyzer() error {
	cfg := &d.Config
	defer func() {
		if a := d.analyzer; a != nil {
			d.keeper.Calibrate = func(c [4][2]float64) error { return a.Calibrate(c) }
		}
	}()
	if d.cap == nil {
		return nil // an events source: no frames to analyse
	}
	d.analyzer = d.Analyzer
	if d.analyzer != nil {
		return nil
	}
	var cal *camera.Calibration
	if cfg.Calibration != "" {
		c, err := camera.Load(cfg.Calibration)
		if err != nil {
			return fmt.Errorf("%s: %w", cfg.at("calibration"), err)
		}
		cal = c
	}
	var lens *camera.Lens
	if cfg.Lens != "" {
		l, err := camera.LoadLens(cfg.Lens)
		if err != nil {
			return fmt.Errorf("%s: %w", cfg.at("lens"), err)
		}
		lens = l
	}
	st := d.keeper.StreamStart()
	south, turn := camera.Bottom, (*board.Side)(nil)
	switch cfg.SouthAt {
	case "":
	case SouthAtFirstStroke:
		t := st.Turn
		turn = &t
	default:
		south, _ = camera.ParseDirection(cfg.SouthAt) // validated
	}
	a, err := NewVisionAnalyzer(d.Sight, d.geom, cal, lens, st.Breaker, south, turn, cfg.Set.set(), cfg.Pipeline.Detector)
	if err != nil {
		if cfg.Pipeline.Detector != "" {
			return fmt.Errorf("vision pipeline (%s %q): %w", cfg.at("pipeline.detector"), cfg.Pipeline.Detector, err)
		}
		return fmt.Errorf("vision pipeline: %w", err)
	}
	// The umpire's manual calibration, saved by the last run, is used
	// again (a configured calibration file wins).
	a.Saved = filepath.Join(cfg.Journal.Dir, ManualCalibration)
	if cal == nil {
		if sc, err := LoadCorners(a.Saved); err == nil {
			a.UseSaved(sc)
			d.Logger.Info("using the manual calibration saved from the umpire console", "file", a.Saved, "corners_px", sc.CornersPx)
		} else if !errors.Is(err, os.ErrNotExist) {
			d.Logger.Warn("the saved manual calibration is unusable: finding the board instead", "err", err)
		}
	}
	d.analyzer = a
	return nil
}

// ManualCalibration is the file, in the journal directory, where the
// umpire's manual calibration is saved and from which it is used again
// after a restart (delete it to let the daemon find the board again).
const ManualCalibration = "calibration-manual.json"

// lockJournalDir makes sure one daemon at a time writes the journals of a
// directory: two would interleave their lines.
func (d *Daemon) lockJournalDir() error {
	f, err := match.LockDir(d.Config.Journal.Dir)
	if err != nil {
		return fmt.Errorf("%s: %w", d.Config.at("journal.dir"), err)
	}
	d.lock = f
	return nil
}

// FindDemoClip looks for the bundled demo clip relative to the working
// directory, then to the binary.
func FindDemoClip() (string, error) {
	tried := []string{DemoClip}
	if _, err := os.Stat(DemoClip); err == nil {
		return DemoClip, nil
	}
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		for _, base := range []string{dir, filepath.Dir(dir)} {
			p := filepath.Join(base, DemoClip)
			tried = append(tried, p)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("the demo clip is missing (looked for %s): give a source with --source FILE, /dev/video0, rtsp://… or gst:PIPELINE", strings.Join(tried, ", "))
}

func (d *Daemon) refereeConfig(p *rules.Profile) referee.Config {
	rc := referee.DefaultConfig(p)
	rc.Geometry = d.geom
	if t := d.Config.Referee.ToleranceMM; t != nil {
		rc.Tolerance = *t
	}
	if t := d.Config.Referee.TimeToleranceS; t != nil {
		rc.TimeTolerance = *t
	}
	rc.ApplyLowConfidence = d.Config.Referee.ApplyLowConfidence
	return rc
}

// openMatch makes the match component: it replays the journal of an
// unfinished match or prepares a new one (whose journal is created at the
// end of Initialize: a start that fails creates no journal).
func (d *Daemon) openMatch() error {
	cfg := &d.Config
	if err := d.lockJournalDir(); err != nil {
		return err
	}
	k := &match.Keeper{
		Config: match.Config{Dir: cfg.Journal.Dir, Decisions: cfg.Match.Decisions, Delay: cfg.Match.Delay.D(),
			Header: cfg.Header, Resume: d.resumeLog, ResumePath: d.Resume, NewMatch: d.NewMatch,
			Source: d.identity, Referee: d.refereeConfig, Queue: cfg.Pipeline.PublishQueue, ExitAtEnd: cfg.Source.exitAtEnd()},
		Logger: d.Logger, Clock: d.Clock, Metrics: d.metrics,
	}
	if err := k.Initialize(); err != nil {
		return err
	}
	d.keeper = k
	return nil
}

// initSnapshot sets the camera's, calibration's and analysis's first
// statuses.
func (d *Daemon) initSnapshot() {
	d.snap = web.Snapshot{
		Calibration: web.Calibration{Status: web.CalibrationNone},
		Camera:      web.Camera{Status: web.CameraStarting, Source: d.srcInfo.Name},
		Analysis:    web.Analysis{Status: web.AnalysisOK},
	}
}

// Snapshot implements web.StateSource.
func (d *Daemon) Snapshot() web.Snapshot {
	d.snapMu.Lock()
	ms := d.resync
	d.snapMu.Unlock()
	if ms == nil {
		m := d.keeper.Snapshot()
		ms = &m
	}
	s := web.SnapshotOf(*ms)
	d.snapMu.Lock()
	s.Calibration, s.Camera, s.Analysis, s.Pieces = d.snap.Calibration, d.snap.Camera, d.snap.Analysis, d.snap.Pieces
	s.Pieces.Pieces = append([]web.Piece(nil), d.snap.Pieces.Pieces...)
	s.Analysis.Missed = append([]web.Missed(nil), d.snap.Analysis.Missed...)
	d.snapMu.Unlock()
	d.ev.snapshot(&s)
	return s
}

// State returns the match state as announced.
func (d *Daemon) State() rules.State {
	return d.keeper.Snapshot().State
}

// Match is the match component.
func (d *Daemon) Match() *match.Keeper { return d.keeper }

// JournalPath is the journal of the match in play ("" while a new
// match's is not created yet).
func (d *Daemon) JournalPath() string {
	if d.keeper == nil {
		return ""
	}
	return d.keeper.JournalPath()
}

// Metrics returns the daemon's metrics.
func (d *Daemon) Metrics() *Metrics { return d.metrics }

// WebAddr is the web server's address ("" without one).
func (d *Daemon) WebAddr() string {
	if d.web == nil {
		return ""
	}
	return d.web.Addr()
}

// Do implements web.CommandSink: the command is carried out by the match
// component, between two frames.
func (d *Daemon) Do(ctx context.Context, c web.Command) (string, error) {
	return d.keeper.Do(ctx, web.CommandOf(c, match.ByUmpire))
}

// frameWait is how long CopyFrame waits for the next frame the capture
// reads: far longer than a camera's frame interval, short enough for the
// web's preview loop to go on when none comes (a stalled camera).
const frameWait = 500 * time.Millisecond

// frameRequest is a web request for the next frame, copied into dst.
type frameRequest struct {
	dst   sight.Image
	index int64
	ok    bool
	done  chan struct{}
}

// CopyFrame implements web.FrameSource. While the source delivers, it is
// the next frame the capture reads (analysed or dropped), copied into dst
// by the capture's goroutine when asked for: the daemon keeps no copy of
// the last frame (2.76 MB at 720p) and copies nothing while nobody
// watches. ok is false when none comes within frameWait (a stalled
// camera). Once the stream has ended (the end of a video), it is the last
// frame, kept in its capture buffer.
func (d *Daemon) CopyFrame(dst sight.Image) (int64, bool) {
	if d.Painter == nil || dst == nil || d.cap == nil {
		return 0, false
	}
	r := &frameRequest{dst: dst, done: make(chan struct{})}
	d.frameMu.Lock()
	if d.frameClosed {
		d.frameMu.Unlock()
		return 0, false
	}
	if d.ended != nil {
		defer d.frameMu.Unlock()
		d.copyFrame(dst, d.ended)
		return d.ended.Index, true
	}
	d.frameReqs = append(d.frameReqs, r)
	d.frameMu.Unlock()
	t := time.NewTimer(frameWait)
	defer t.Stop()
	select {
	case <-r.done:
	case <-t.C:
	}
	d.frameMu.Lock()
	defer d.frameMu.Unlock()
	// Answered, or withdrawn (dst is then never written after this).
	for i, q := range d.frameReqs {
		if q == r {
			d.frameReqs = append(d.frameReqs[:i], d.frameReqs[i+1:]...)
			break
		}
	}
	if !r.ok && d.ended != nil && !d.frameClosed {
		// The stream ended while it waited.
		d.copyFrame(dst, d.ended)
		return d.ended.Index, true
	}
	return r.index, r.ok
}

// copyFrame copies f's picture into dst, converting a Raw frame (frameMu
// held).
func (d *Daemon) copyFrame(dst sight.Image, f *Frame) {
	if f.Raw.Empty() {
		d.Painter.Copy(dst, f.Image)
		return
	}
	if err := convertRaw(&d.frameConv, d.cap.pics, dst, f.Raw); err != nil {
		d.Logger.Warn("web: converting the frame", "frame", f.Index, "err", err)
	}
}

// answerFrame answers the web's requests for a frame with f (the
// capture's goroutine, f just read).
func (d *Daemon) answerFrame(f *Frame) {
	d.frameMu.Lock()
	defer d.frameMu.Unlock()
	for _, r := range d.frameReqs {
		d.copyFrame(r.dst, f)
		r.index, r.ok = f.Index, true
		close(r.done)
	}
	clear(d.frameReqs)
	d.frameReqs = d.frameReqs[:0]
}

// keepEnded keeps f, the last frame the analysis took, for the web once the
// stream has ended: its buffer is idle in the capture's pool from then on
// (nothing is read any more), so it is kept without a copy until Close.
func (d *Daemon) keepEnded(f *Frame) {
	if f == nil {
		return
	}
	d.frameMu.Lock()
	defer d.frameMu.Unlock()
	if !d.frameClosed {
		d.ended = f
	}
	for _, r := range d.frameReqs {
		d.copyFrame(r.dst, f)
		r.index, r.ok = f.Index, true
		close(r.done)
	}
	clear(d.frameReqs)
	d.frameReqs = d.frameReqs[:0]
}

func (d *Daemon) signal() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// cameraStatus is called by the capture: it never blocks.
func (d *Daemon) cameraStatus(c web.Camera) {
	d.slotMu.Lock()
	d.camSlot = &c
	d.slotMu.Unlock()
	d.signal()
}

// putAnalysis hands the analysis status to the publishers (latest wins).
func (d *Daemon) putAnalysis(a web.Analysis) {
	d.slotMu.Lock()
	d.anaSlot = &a
	d.slotMu.Unlock()
	d.signal()
}

// putPieces hands live positions to the publishers (latest wins).
func (d *Daemon) putPieces(p web.Pieces) {
	d.ev.pieces(p)
	d.slotMu.Lock()
	if d.pieceSlot != nil {
		d.metrics.drop("publish")
	}
	d.pieceSlot = &p
	d.slotMu.Unlock()
	d.signal()
}

// report receives the sinks' reports: errors are logged (once per change),
// device writes timed.
func (d *Daemon) report(r display.Report) {
	if r.Err != nil {
		d.reportMu.Lock()
		was := d.reportErrs[r.Sink]
		d.reportErrs[r.Sink] = r.Err.Error()
		d.reportMu.Unlock()
		if was != r.Err.Error() {
			d.Logger.Warn("output device error", "sink", r.Sink, "op", r.Op, "err", r.Err)
		}
		return
	}
	d.reportMu.Lock()
	if d.reportErrs[r.Sink] != "" {
		d.reportErrs[r.Sink] = ""
		d.reportMu.Unlock()
		d.Logger.Info("output device works again", "sink", r.Sink)
	} else {
		d.reportMu.Unlock()
	}
	if r.Queued.IsZero() || r.Unchanged || !(r.Op == "show" || strings.HasPrefix(r.Op, "alert")) {
		return
	}
	if l := d.lastSinkLat.Load(); l > 0 {
		d.metrics.observe(PathDevice, FromFrame, time.Duration(l)+r.Done.Sub(r.Queued))
	}
}

func (d *Daemon) setSrcErr(err error) {
	d.srcErrMu.Lock()
	d.srcErr = err
	d.srcErrMu.Unlock()
}

func (d *Daemon) getSrcErr() error {
	d.srcErrMu.Lock()
	defer d.srcErrMu.Unlock()
	return d.srcErr
}

// Run runs the pipeline until the video ends (with exit_at_end), the
// source fails for good, or ctx is cancelled (SIGTERM): then capture
// stops, the queues drain, the journal is closed. It returns nil at the
// end of a video and on cancellation, and the source's error (a corrupt
// file, an unsupported source) otherwise.
func (d *Daemon) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d.runMu.Lock()
	if d.closed || d.runDone != nil {
		d.runMu.Unlock()
		return errors.New("daemon: Run after Close, or twice")
	}
	d.runStop, d.runDone = cancel, make(chan struct{})
	defer close(d.runDone)
	d.runMu.Unlock()
	done := make(chan struct{})
	stop := sync.OnceFunc(func() { close(done) })
	go func() {
		select {
		case <-ctx.Done():
			stop()
		case <-d.keeper.Done():
		}
	}()
	var wg sync.WaitGroup
	var obs <-chan match.Observation
	if d.feed != nil {
		obs = d.feed.out
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := d.feed.run(done)
			d.setSrcErr(err)
			close(d.feed.out)
		}()
	} else {
		o := make(chan match.Observation, d.Config.Pipeline.EventQueue)
		obs = o
		wg.Add(2)
		go func() {
			defer wg.Done()
			err := d.cap.run(done)
			d.setSrcErr(err)
			close(d.cap.out)
		}()
		go func() {
			defer wg.Done()
			d.analyze(o)
		}()
	}
	d.sink.Show(d.State()) // the match as replayed, before the first frame
	pubDone := make(chan struct{})
	go func() {
		defer close(pubDone)
		d.publishLoop()
	}()
	if d.devices != nil && d.devices.Buttons != nil {
		go d.buttonLoop(ctx)
	}
	if d.web != nil {
		go func() {
			select {
			case err := <-d.web.Err():
				d.Logger.Error("web server stopped", "err", err)
			case <-d.keeper.Done():
			}
		}()
	}
	wdDone := make(chan struct{})
	go func() {
		defer close(wdDone)
		w := watchdog{n: d.Notifier, clock: d.Clock, log: d.Logger, probe: d.keeper.Alive,
			frames: func() (int64, int64) { return d.metrics.nIn.Load(), d.metrics.nOut.Load() },
			status: d.healthLine}
		w.run(done)
	}()
	kerr := d.keeper.Run(ctx, obs, func() match.Ending {
		err := d.getSrcErr()
		if errors.Is(err, ErrEOF) {
			return match.Ending{EOF: true}
		}
		return match.Ending{Err: err}
	})
	stop()
	wg.Wait()
	<-pubDone
	<-wdDone
	if kerr != nil {
		return kerr
	}
	err := d.getSrcErr()
	if errors.Is(err, ErrEOF) {
		err = nil
	}
	return err
}

// analyze is the analysis component: frames in, observations out. When
// it falls behind the capture it sees less, in a planned way: while
// everything is at rest it leaves out frames that a cheap check finds
// unchanged; while pieces move it leaves out every other frame. Every
// frame it does not analyse (left out while moving, dropped by the
// capture, unusable) is accounted for and reported to the referee with the
// next frame analysed (observation.Gap), so that no decision rests on
// frames nobody saw without the umpire being asked.
func (d *Daemon) analyze(out chan<- match.Observation) {
	defer close(out)
	a := d.analyzer
	var lastErr string
	lossless := d.cap.lossless
	catchUp := d.catchUp
	last := int64(-1)
	// ended is the last frame taken: once the stream has ended, kept for
	// the web (keepEnded).
	var ended *Frame
	acc := newAccount()
	pacer := d.cap.pacer
	if pacer == nil {
		pacer = &wallPacer{clock: d.Clock}
	}
	det := d.Sight.NewChangeDetector()
	defer det.Close()
	st := newAnalysisStatus(d)
	atRest, inStroke, decimatedLast := false, false, false
	queue := d.Config.Pipeline.FrameQueue
	// The analysis's cost per frame and the interval between frames
	// arriving (running means): a backlog drains while cost < interval.
	var cost, interval float64
	var lastArrival time.Time
	defer func() { d.keepEnded(ended) }()
	defer func() {
		st.publish(d.Clock.Now(), 0, true)
		fl, ok := a.(Flusher)
		if !ok || !errors.Is(d.getSrcErr(), ErrEOF) {
			return
		}
		res, err := fl.Flush()
		if err != nil {
			d.Logger.Warn("analysis: flushing at the end of the video", "err", err)
		}
		if res.Pieces != nil {
			d.putPieces(web.Pieces{Frame: last + 1, Pieces: res.Pieces})
		}
		o := match.Observation{Frame: last + 1, Captured: d.Clock.Now(), Events: res.Events, Gap: acc.tail(last)}
		if len(o.Events) > 0 || o.Gap != nil {
			out <- o
		}
	}()
	for f := range d.cap.out {
		last = f.Index
		if n := d.cap.depth.Load(); n > 0 {
			queue = int(n) // frame_queue, or fewer frames of this size (frame_queue_mb)
		}
		backlog := len(d.cap.out)
		d.metrics.setBacklog(backlog)
		if !lastArrival.IsZero() && f.Captured.After(lastArrival) {
			interval = ewma(interval, f.Captured.Sub(lastArrival).Seconds())
		}
		lastArrival = f.Captured
		pacer.Take(f.Index, f.Captured, f.Paced)
		if f.Resumed {
			a.Reset()
			acc.lost()
			det.Forget()
		}
		if f.CameraMissed > 0 {
			acc.cameraMissed(f.CameraMissed)
		}
		// The frame's BGR picture, converted from the queue's Raw form
		// when first needed (not for a frame left out that the evidence
		// has no room for).
		var img sight.Image
		bgr := func() sight.Image {
			if img == nil {
				var err error
				if img, err = d.cap.picture(f); err != nil && err.Error() != lastErr {
					lastErr = err.Error()
					d.Logger.Warn("converting a frame for the analysis", "frame", f.Index, "err", err)
				}
			}
			return img
		}
		// Seeing less to keep up (never while catching up with a journal,
		// nor reading a file losslessly: then the capture waits).
		if !lossless && f.Index > catchUp && !f.Resumed && acc.last >= 0 {
			skip := ""
			switch {
			case atRest && backlog >= 2:
				t0 := time.Now()
				if !det.Changed(bgr()) {
					skip = "rest"
				}
				d.metrics.stage("rest_check", pacer.Charge(t0, Work{RestCheck: true}))
			case !atRest && !decimatedLast && (backlog >= max(2, queue-2) || (backlog >= max(2, queue/2) && cost >= interval)):
				// About to drop, or half full and not draining: every
				// other frame, rather than the capture dropping bursts.
				skip = "motion"
			}
			if skip != "" {
				ended = f
				d.ev.frame(f, bgr)
				captured := f.Captured
				pacer.Release(func() { d.cap.pool.put(f) })
				if skip == "rest" {
					acc.skippedAtRest()
					d.metrics.degraded(DegradedAtRest)
				} else {
					acc.missed(causeDecimated, "")
					d.metrics.degraded(DegradedInMotion)
				}
				decimatedLast = skip == "motion"
				st.left(skip, captured)
				st.publish(d.Clock.Now(), backlog, false)
				continue
			}
		}
		decimatedLast = false
		start := time.Now()
		res, err := a.Analyze(bgr(), f.Index, f.PTS)
		took := pacer.Charge(start, Work{Analysed: true, Did: res.Work})
		cost = ewma(cost, took.Seconds())
		d.metrics.stage("analyze", took)
		for _, t := range res.Timings {
			d.metrics.stage(t.Stage, t.D)
		}
		ended = f
		d.ev.frame(f, bgr)
		switch {
		case lossless:
			// the capture waits: no frame is ever checked against a reference
		case err == nil && res.Unanalysed == "" && backlog >= 1:
			t0 := time.Now()
			det.Reference(bgr()) // what the next frames are checked against
			pacer.Charge(t0, Work{Reference: true})
		default:
			det.Forget()
		}
		captured, index, pts := f.Captured, f.Index, f.PTS
		pacer.Release(func() { d.cap.pool.put(f) })
		d.metrics.frameOut(d.Clock.Now())
		if err != nil {
			if err.Error() != lastErr {
				lastErr = err.Error()
				d.Logger.Warn("analysis failed on a frame", "frame", index, "err", err)
			}
			acc.missed(causeFailed, "")
			d.metrics.unanalysable(causeFailed)
			atRest = false
			continue
		}
		if res.Pieces != nil {
			d.putPieces(web.Pieces{Frame: index, Pieces: res.Pieces})
		}
		if res.Calibration != nil {
			d.calibration(*res.Calibration, index)
		}
		o := match.Observation{Frame: index, Captured: captured, Events: res.Events}
		d.ev.events(res.Events)
		if res.Hands != nil {
			d.ev.hands(index, outlines(res.Hands))
		}
		for _, e := range res.Events {
			switch e.Type {
			case events.StrokeStart:
				inStroke = true
			case events.StrokeEnd:
				inStroke = false
			}
		}
		if res.Unanalysed != "" {
			acc.missed(causeBoardLost, res.Unanalysed)
			if acc.last >= 0 {
				d.metrics.unanalysable(causeBoardLost)
			}
			atRest = false
		} else {
			o.Gap = acc.analysed(index, pts, res.Pieces)
			if o.Gap != nil {
				st.gap(*o.Gap, inStroke, captured)
			}
			atRest = !inStroke && allAtRest(res.Pieces)
		}
		st.publish(d.Clock.Now(), backlog, o.Gap != nil)
		if len(o.Events) > 0 || o.Gap != nil || lossless || index <= catchUp {
			out <- o
			continue
		}
		select {
		case out <- o:
		default:
			d.metrics.drop("referee")
		}
	}
}

// ewma is a running mean over about ten values.
func ewma(mean, v float64) float64 {
	if mean == 0 {
		return v
	}
	return 0.9*mean + 0.1*v
}

// allAtRest reports whether the tracker has pieces and all of them lie
// still (at rest, or off the board).
func allAtRest(ps []web.Piece) bool {
	if len(ps) == 0 {
		return false
	}
	for _, p := range ps {
		if p.State == web.PieceMoving || p.State == web.PieceHeld {
			return false
		}
	}
	return true
}

// calibration logs a change of the calibration status and queues it for
// the publishers (in order: every change is published).
func (d *Daemon) calibration(c web.Calibration, frame int64) {
	switch c.Status {
	case web.CalibrationOK, web.CalibrationManual:
		d.Logger.Info("board found", "component", "analysis", "status", c.Status, "quality", fmt.Sprintf("%.2f", c.Quality), "frame", frame, "note", c.Message)
	case web.CalibrationLost:
		d.Logger.Warn("board lost", "component", "analysis", "frame", frame, "why", c.Message)
	default:
		d.Logger.Debug("looking for the board", "component", "analysis", "frame", frame, "why", c.Message)
	}
	d.calC <- c
}

// publishLoop is the publishing component.
func (d *Daemon) publishLoop() {
	ann := d.keeper.Announcements()
	for {
		select {
		case a, ok := <-ann:
			if !ok {
				for {
					select {
					case c := <-d.calC:
						d.publishCalibration(c)
						continue
					default:
					}
					break
				}
				d.publishSlots()
				return
			}
			d.publish(a)
		case c := <-d.calC:
			d.publishCalibration(c)
		case <-d.wake:
			d.publishSlots()
		}
	}
}

func (d *Daemon) publishCalibration(c web.Calibration) {
	d.snapMu.Lock()
	d.snap.Calibration = c
	d.snapMu.Unlock()
	d.ev.calibration(c)
	d.send(c)
}

func (d *Daemon) publishSlots() {
	d.slotMu.Lock()
	cam, pcs, ana := d.camSlot, d.pieceSlot, d.anaSlot
	d.camSlot, d.pieceSlot, d.anaSlot = nil, nil, nil
	d.slotMu.Unlock()
	if ana != nil {
		d.snapMu.Lock()
		d.snap.Analysis = *ana
		d.snapMu.Unlock()
		d.send(*ana)
	}
	if cam != nil {
		d.snapMu.Lock()
		d.snap.Camera = *cam
		d.snapMu.Unlock()
		d.send(*cam)
	}
	if pcs != nil {
		d.snapMu.Lock()
		d.snap.Pieces = *pcs
		d.snapMu.Unlock()
		d.send(*pcs)
	}
	for _, m := range d.ev.drain() {
		d.snapMu.Lock()
		for i := range d.snap.Pending {
			if d.snap.Pending[i].ID == m.ID {
				mm := m
				d.snap.Pending[i].Media = &mm
			}
		}
		d.snapMu.Unlock()
		d.send(m)
	}
}

func (d *Daemon) send(m web.Message) {
	if d.web != nil {
		if err := d.web.Publish(m); err != nil {
			d.Logger.Warn("web: publish", "type", m.MessageType(), "err", err)
		}
	}
	for _, p := range d.Publishers {
		if err := p.Publish(m); err != nil {
			d.Logger.Warn("publish", "type", m.MessageType(), "err", err)
		}
	}
}

func (d *Daemon) publish(a match.Announcement) {
	if a.NewMatch {
		var pending []match.Pending
		if a.Snapshot != nil {
			pending = a.Snapshot.Pending
		}
		d.ev.resync(d.JournalPath(), a.State, pending)
	}
	msgs := d.ev.annotate(web.Messages(a))
	if a.NewMatch && a.Snapshot != nil {
		d.snapMu.Lock()
		d.resync = a.Snapshot
		d.snapMu.Unlock()
		if d.web != nil {
			if err := d.web.Resync(); err != nil {
				d.Logger.Warn("web: resync", "err", err)
			}
		}
		snap := d.Snapshot()
		d.snapMu.Lock()
		d.resync = nil
		d.snapMu.Unlock()
		for _, p := range d.Publishers {
			_ = p.Publish(snap)
		}
	}
	if a.State != nil {
		d.sink.Show(*a.State)
		if a.Prev != nil {
			for _, al := range display.Alerts(*a.Prev, *a.State) {
				d.sink.Alert(al)
			}
		}
		if !a.Captured.IsZero() {
			now := d.Clock.Now()
			lat := now.Sub(a.Captured)
			d.lastSinkLat.Store(int64(lat))
			d.metrics.observe(PathSink, FromFrame, lat)
			for _, p := range a.Pockets {
				d.metrics.observe(PathSink, FromPocket, now.Sub(p))
			}
		}
	}
	for _, m := range msgs {
		d.send(m)
	}
	if !a.Captured.IsZero() {
		now := d.Clock.Now()
		switch {
		case a.PocketNotice():
			d.metrics.observe(PathNotice, FromPocket, now.Sub(a.Captured))
		case a.State != nil:
			d.metrics.observe(PathPublish, FromFrame, now.Sub(a.Captured))
			for _, p := range a.Pockets {
				d.metrics.observe(PathPublish, FromPocket, now.Sub(p))
			}
		}
	}
}

// buttonLoop turns the umpire's buttons into commands.
func (d *Daemon) buttonLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.keeper.Done():
			return
		case p, ok := <-d.devices.Presses():
			if !ok {
				return
			}
			var name string
			switch p.Command {
			case buttons.Confirm:
				name = match.CmdConfirm
			case buttons.Overrule:
				name = match.CmdOverrule
			case buttons.Undo:
				name = match.CmdUndo
			case buttons.NextBoard:
				name = match.CmdNextBoard
			default:
				continue
			}
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			msg, err := d.keeper.Do(cctx, match.Command{Name: name, By: match.ByButton})
			cancel()
			if err != nil {
				d.Logger.Warn("button", "command", name, "line", p.Line, "err", err)
				d.send(web.Notice{Text: fmt.Sprintf("button %s: %v", name, err), Level: "warning"})
			} else {
				d.Logger.Info("button", "command", name, "line", p.Line, "result", msg)
			}
		}
	}
}

// Close releases everything Initialize opened. A Run still in flight is
// stopped first (as by cancelling its context) and awaited: the analysis
// must not run on a closed analyzer.
func (d *Daemon) Close() {
	d.runMu.Lock()
	d.closed = true
	stop, running := d.runStop, d.runDone
	d.runMu.Unlock()
	if running != nil {
		stop()
		<-running
	}
	d.closeOnce.Do(func() {
		if d.web != nil {
			d.web.Close()
		}
		// No frame copied for the web from here on: the capture's buffers
		// (the one kept at the end among them) are closed below.
		d.frameMu.Lock()
		d.frameClosed = true
		d.ended = nil
		for _, r := range d.frameReqs {
			close(r.done) // not ok
		}
		d.frameReqs = nil
		d.frameConv.Close()
		d.frameMu.Unlock()
		if d.sink != nil {
			if err := d.sink.Close(); err != nil {
				d.Logger.Warn("closing the outputs", "err", err)
			}
		}
		if d.devices != nil {
			_ = d.devices.Close()
		}
		if d.analyzer != nil {
			_ = d.analyzer.Close()
		}
		if d.cap != nil {
			d.cap.Close()
		}
		d.ev.Close() // writes what is queued
		if d.feed != nil {
			d.feed.Close()
		}
		if d.keeper != nil {
			d.keeper.Close()
		}
		if d.lock != nil {
			_ = d.lock.Close() // releases the lock
		}
	})
}

// isTerminal reports whether w is a character device (an interactive
// terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
