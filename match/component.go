package match

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// How automatic decisions are applied (Config.Decisions).
const (
	DecideAuto    = "auto"    // applied at once; fouls listed for review
	DecideDelay   = "delay"   // held for Config.Delay, then applied
	DecideConfirm = "confirm" // held until the umpire decides
)

// Config is the keeper's configuration.
type Config struct {
	// Dir is the directory of the match journals.
	Dir string
	// Decisions is DecideAuto, DecideDelay or DecideConfirm; Delay the
	// time a delayed decision waits.
	Decisions string
	Delay     time.Duration
	// Header describes the match to start when no unfinished match
	// continues (the configuration's profile and players).
	Header func() (rules.Header, error)
	// Resume, a stroke log read with ReadResumeLog (from the file
	// ResumePath), is the match to start when no unfinished match
	// continues: its header and lines go into the new journal first, and
	// the referee carries on from where it ends.
	Resume     *rules.Log
	ResumePath string
	// NewMatch starts a new match even when an unfinished one exists: the
	// unfinished journal is closed first. It is an explicit, one-off
	// request (boardcam new-match); a restart continues the unfinished
	// match whatever else the configuration says.
	NewMatch bool
	// Source identifies the source being read (SourceInfo.Identity; ""
	// for a live one): a restart on the same file catches up with the
	// journal.
	Source string
	// Referee makes the referee's configuration for a profile.
	Referee func(*rules.Profile) referee.Config
	// Queue is the length of the announcement queue to the publisher
	// (Announcements).
	Queue int
	// ExitAtEnd: Run returns once the observations end at the end of a
	// video.
	ExitAtEnd bool
}

// Metrics receives the keeper's figures (nil: none).
type Metrics interface {
	// JournalCommit: one commit took d (write and fsync).
	JournalCommit(d time.Duration)
	// Latency: from a capture (from: FromFrame, FromPocket) to path.
	Latency(path, from string, d time.Duration)
	// Decision: a referee decision of kind had outcome (applied, pending,
	// queued, uncertain, offered, rejected, info).
	Decision(kind, outcome string)
	// Gap: a run of frames not analysed was reported to the referee.
	Gap(moved bool)
	// SubscriberDropped: a subscriber was dropped for being slow.
	SubscriberDropped()
}

// Latency path and origins the keeper reports (Metrics.Latency).
const (
	PathJournal = "journal"
	FromFrame   = "frame"
	FromPocket  = "pocket"
)

type noMetrics struct{}

func (noMetrics) JournalCommit(time.Duration)           {}
func (noMetrics) Latency(string, string, time.Duration) {}
func (noMetrics) Decision(string, string)               {}
func (noMetrics) Gap(bool)                              {}
func (noMetrics) SubscriberDropped()                    {}

// Keeper is the match component: referee → rules → journal. It owns the
// referee, the match, the journal and the pending decisions; its Run
// goroutine is the only one that touches them. It commits every decision
// to the journal before announcing it.
//
//	k := &match.Keeper{Config: cfg, Logger: log, Clock: clk}
//	if err := k.Initialize(); err != nil { … } // replays an unfinished match
//	defer k.Close()
//	go publish(k.Announcements())               // the lossless stream
//	snap, ch, cancel := k.Subscribe(64)         // others: drop the slow
//	k.Run(ctx, observations, ended)
//
// Set the fields before Initialize.
type Keeper struct {
	Config Config
	// Logger is the parent logger (the keeper adds component=match).
	Logger *slog.Logger
	Clock  clock.Clock
	// Metrics, when set, receives the keeper's figures.
	Metrics Metrics
	// Calibrate forwards the umpire's manual calibration to the analysis
	// (nil: refused).
	Calibrate func(cornersPx [4][2]float64) error

	state

	refereeConfig func(*rules.Profile) referee.Config
	// create, when set, is the new match's journal to create when Run
	// starts (a start that fails creates no journal).
	create *newJournal
	// session is the line recording this run, committed when Run starts.
	sessionLine *Line
	catchUpTo   int64
	streamState rules.State

	out    chan Announcement
	cmds   chan command
	probes chan chan struct{}
	lost   chan struct{}
	end    chan struct{}
	outMu  sync.Mutex // serialises announce with Subscribe (snapshot and subscriber list)
	snap   Snapshot
	subs   map[chan Announcement]struct{}
	seq    uint64
	closed bool
	// dropped counts subscribers dropped for being slow.
	dropped int64
}

type newJournal struct {
	h     rules.Header
	lines []Line
	why   string
}

// Initialize opens the journal of an unfinished match and replays it, or
// prepares a new match (its journal is created when Run starts). It does
// not start anything.
func (k *Keeper) Initialize() error {
	k.Clock = clock.Or(k.Clock)
	if k.Logger == nil {
		k.Logger = slog.Default()
	}
	k.log = k.Logger.With("component", "match")
	k.clock = k.Clock
	k.metrics = k.Metrics
	if k.metrics == nil {
		k.metrics = noMetrics{}
	}
	k.mode, k.delay = k.Config.Decisions, k.Config.Delay
	if k.mode == "" {
		k.mode = DecideAuto
	}
	k.refereeConfig = k.Config.Referee
	if k.refereeConfig == nil {
		k.refereeConfig = referee.DefaultConfig
	}
	k.last, k.from = noPos, noPos
	k.catchUpTo = -1
	q := k.Config.Queue
	if q <= 0 {
		q = 64
	}
	k.out = make(chan Announcement, q)
	k.cmds = make(chan command)
	k.probes = make(chan chan struct{})
	k.lost = make(chan struct{}, 1)
	k.end = make(chan struct{})
	k.subs = map[chan Announcement]struct{}{}
	if err := k.open(); err != nil {
		return err
	}
	if err := k.newReferee(); err != nil {
		return err
	}
	k.streamState = k.m.State()
	if k.cu != nil && k.cu.m != nil {
		k.streamState = k.cu.m.State()
	}
	k.snap = Snapshot{State: k.m.State(), Profile: k.describe(), Pending: []Pending{}, Journal: k.JournalPath()}
	for _, p := range k.pend {
		k.snap.Pending = append(k.snap.Pending, k.pendingMsg(p))
	}
	return nil
}

// open finds the unfinished match to continue, or prepares a new one.
func (k *Keeper) open() error {
	cfg := &k.Config
	var jf *JournalFile
	path, err := LatestJournal(cfg.Dir)
	if err != nil {
		return err
	}
	if path != "" {
		jf, err = ReadJournal(path, true)
		if err != nil {
			return fmt.Errorf("%w (move the file aside, or start a new match with boardcam new-match)", err)
		}
		if jf.Repaired != "" {
			k.log.Warn("journal: cut off the end left by a crash (it was never announced)", "journal", path, "cut", jf.Repaired)
		}
	}
	var unfinished *JournalFile
	if jf != nil {
		m, err := rules.NewMatch(jf.Header)
		if err != nil {
			return fmt.Errorf("journal %s: header: %w", jf.Path, err)
		}
		var pend []*pending
		for _, r := range jf.Records {
			if err := applyRecord(m, &pend, r); err != nil {
				return fmt.Errorf("journal %s:%d: %w (move the file aside, or start a new match with boardcam new-match)", jf.Path, r.Line, err)
			}
		}
		closed, why := jf.Closed()
		switch {
		case closed:
			k.log.Info("the last match's journal is closed: starting a new match", "journal", jf.Path, "why", why)
		case m.State().MatchOver:
			k.log.Info("the last match is over: starting a new match", "journal", jf.Path)
		case cfg.NewMatch:
			unfinished = jf
		default:
			k.m, k.pend = m, pend
			if cfg.Resume != nil {
				k.log.Warn("an unfinished match continues: the stroke log to resume from is not used (start a new match explicitly with boardcam new-match --resume)",
					"journal", jf.Path, "log", cfg.ResumePath)
			}
			j, err := openAppend(jf.Path)
			if err != nil {
				return err
			}
			k.j = j
			k.resume(jf)
			return nil
		}
	}
	var h rules.Header
	if cfg.Resume != nil {
		h = cfg.Resume.Header
	} else {
		if cfg.Header == nil {
			return errors.New("match: no header for a new match")
		}
		if h, err = cfg.Header(); err != nil {
			return err
		}
	}
	m, err := rules.NewMatch(h)
	if err != nil {
		return err
	}
	k.m = m
	k.stream, k.session = 1, 1
	nj := &newJournal{h: h}
	if cfg.Resume != nil {
		// The log's lines first, as they are: the journal replays into
		// the same match after a restart.
		for _, e := range cfg.Resume.Entries {
			if err := k.m.Apply(e.Event); err != nil {
				return fmt.Errorf("%s:%d: %w", cfg.ResumePath, e.Line, err)
			}
			nj.lines = append(nj.lines, Line{Event: e.Event, Meta: Meta{By: ByLog}})
		}
	}
	if unfinished != nil {
		nj.why = unfinished.Path
	}
	k.create = nj
	k.sessionLine = &Line{Meta: Meta{Session: 1, Source: cfg.Source, Replayable: cfg.Source != "", Stream: 1}}
	return nil
}

// resume sets the keeper up to continue a journal.
func (k *Keeper) resume(jf *JournalFile) {
	var last *Record
	maxSession, maxStream := 0, 0
	for i, r := range jf.Records {
		if r.Meta.Session > 0 {
			last = &jf.Records[i]
			maxSession = max(maxSession, r.Meta.Session)
			maxStream = max(maxStream, r.Meta.Stream)
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(r.Meta.Pending, "p")); err == nil && n > k.nextP {
			k.nextP = n
		}
	}
	k.session = maxSession + 1
	ended := false
	if last != nil {
		for _, r := range jf.Records {
			if r.Line > last.Line && r.Meta.End != "" {
				ended = true
			}
		}
	}
	st := k.m.State()
	k.log.Info("resuming the match from its journal", "journal", jf.Path, "events", len(jf.Events()),
		"board", st.Board, "score", fmt.Sprintf("%d-%d", st.Teams[0].Score, st.Teams[1].Score), "pending", len(k.pend),
		"hint", "boardcam new-match starts afresh")
	id := k.Config.Source
	meta := Meta{Session: k.session, Source: id, Replayable: id != ""}
	if last != nil && !ended && id != "" && last.Meta.Source == id {
		k.stream = last.Meta.Stream
		first := -1
		for i, r := range jf.Records {
			if r.Meta.Session > 0 && r.Meta.Stream == k.stream {
				first = i
				break
			}
		}
		if fr := jf.Records[first].Meta.From; fr != nil {
			k.from = pos{*fr, jf.Records[first].Meta.FromE}
		}
		var recs []Record
		until := noPos
		for _, r := range jf.Records[first+1:] {
			if r.Meta.Session > 0 {
				continue
			}
			recs = append(recs, r)
			if f, e := r.tag(); until.less(pos{f, e}) {
				until = pos{f, e}
			}
		}
		if until != noPos {
			m0, _ := rules.NewMatch(jf.Header)
			var p0 []*pending
			for _, r := range jf.Records[:first] {
				_ = applyRecord(m0, &p0, r)
			}
			k.cu = &catchUp{until: until, recs: recs, m: m0, pend: p0}
		}
		k.catchUpTo = max(until.F, k.from.F)
		meta.Stream, meta.Resume = k.stream, true
		k.log.Info("the source is the journal's: catching up with its frames first", "until_frame", k.catchUpTo)
	} else {
		k.stream = maxStream + 1
		meta.Stream = k.stream
	}
	k.sessionLine = &Line{Meta: meta}
}

// Start creates the new match's journal (or records this session in the
// continued one). Run calls it; call it earlier to have the journal
// before the first frame. It is a no-op the second time.
func (k *Keeper) Start() error {
	if nj := k.create; nj != nil {
		if nj.why != "" {
			old, err := openAppend(nj.why)
			if err != nil {
				return err
			}
			k.j = old
			err = k.commit([]Line{{Meta: Meta{Closed: "a new match was started (boardcam new-match)", By: ByUmpire}}})
			old.Close()
			k.j = nil
			if err != nil {
				return err
			}
		}
		j, err := CreateJournal(k.Config.Dir, nj.h, k.clock.Now())
		if err != nil {
			return err
		}
		k.j = j
		k.create = nil
		if len(nj.lines) > 0 {
			if err := k.commit(nj.lines); err != nil {
				return err
			}
			st := k.m.State()
			k.log.Info("new match continuing a stroke log", "journal", j.Path(), "log", k.Config.ResumePath, "lines", len(nj.lines), "profile", nj.h.Profile,
				"teams", nj.h.Teams[0]+" v "+nj.h.Teams[1], "board", st.Board, "score", fmt.Sprintf("%d-%d", st.Teams[0].Score, st.Teams[1].Score), "turn", st.Turn.String())
		} else {
			k.log.Info("new match", "journal", j.Path(), "profile", nj.h.Profile, "teams", nj.h.Teams[0]+" v "+nj.h.Teams[1], "break", nj.h.Break.String())
		}
		k.outMu.Lock()
		k.snap.Journal, k.snap.Profile = j.Path(), k.describe()
		k.outMu.Unlock()
	}
	if l := k.sessionLine; l != nil {
		k.sessionLine = nil
		if err := k.commit([]Line{*l}); err != nil {
			if l.Meta.Session > 1 {
				k.log.Error("journal: cannot record the session", "err", err)
				return nil
			}
			return err
		}
	}
	return nil
}

// CatchUpUntil is the last frame of the source that belongs to the
// journal already (-1: none): a file source reads the frames up to it
// again, unpaced and losslessly, before it goes on.
func (k *Keeper) CatchUpUntil() int64 { return k.catchUpTo }

// StreamStart is the match as the source's frames begin: as it is now,
// or, when a video is caught up with from its start after a restart, as
// it was when the journal's stream of that video began (its first stroke
// is played from that turn: see south_at first-stroke).
func (k *Keeper) StreamStart() rules.State { return k.streamState }

// JournalPath is the journal of the match in play ("" before Start
// created a new match's).
func (k *Keeper) JournalPath() string {
	if k.j == nil {
		return ""
	}
	return k.j.Path()
}

// Snapshot is the match as announced so far.
func (k *Keeper) Snapshot() Snapshot {
	k.outMu.Lock()
	defer k.outMu.Unlock()
	return k.snap.clone()
}

// Announcements is the lossless stream of announcements for the one
// publisher that drives the scoreboard and the websocket: the keeper
// waits for it (a slow publisher costs frames, never decisions). It is
// closed when Run returns. Everyone else uses Subscribe.
func (k *Keeper) Announcements() <-chan Announcement { return k.out }

// Subscribe returns the match as announced so far and a channel that
// receives every announcement after it, in order. The keeper never waits
// for a subscriber: one whose buffer is full is dropped (its channel
// closed; subscribe again for a fresh snapshot). The channel is also
// closed by cancel and when Run returns. Announcements are shared: read
// only.
func (k *Keeper) Subscribe(buffer int) (Snapshot, <-chan Announcement, func()) {
	if buffer < 1 {
		buffer = 1
	}
	ch := make(chan Announcement, buffer)
	k.outMu.Lock()
	defer k.outMu.Unlock()
	snap := k.snap.clone()
	if k.closed {
		close(ch)
		return snap, ch, func() {}
	}
	k.subs[ch] = struct{}{}
	cancel := func() {
		k.outMu.Lock()
		defer k.outMu.Unlock()
		if _, ok := k.subs[ch]; ok {
			delete(k.subs, ch)
			close(ch)
		}
	}
	return snap, ch, cancel
}

// DroppedSubscribers counts the subscribers dropped for being slow.
func (k *Keeper) DroppedSubscribers() int64 {
	k.outMu.Lock()
	defer k.outMu.Unlock()
	return k.dropped
}

// announce numbers a, folds it into the snapshot, hands it to the
// subscribers without waiting and to the publisher, waiting.
func (k *Keeper) announce(a Announcement) {
	if len(a.Items) == 0 && a.State == nil && !a.NewMatch {
		return
	}
	k.outMu.Lock()
	k.seq++
	a.Seq = k.seq
	k.snap.fold(a)
	for ch := range k.subs {
		select {
		case ch <- a:
		default:
			delete(k.subs, ch)
			close(ch)
			k.dropped++
			k.metrics.SubscriberDropped()
			k.log.Warn("a subscriber to the match's announcements was too slow: dropped")
		}
	}
	k.outMu.Unlock()
	k.out <- a
}

// describe describes the match's profile and format.
func (k *Keeper) describe() Profile {
	return DescribeMatch(k.m.Profile(), k.m.State().Format, k.JournalPath())
}

// announceNewMatch announces the match just started.
func (k *Keeper) announceNewMatch() {
	st := k.m.State()
	s := Snapshot{State: st, Profile: k.describe(), Pending: []Pending{}, Journal: k.JournalPath()}
	k.announce(Announcement{NewMatch: true, State: &st, Snapshot: &s})
}

// Do carries out an umpire command between two observations. It fails
// when ctx ends first or the keeper has stopped.
func (k *Keeper) Do(ctx context.Context, c Command) (string, error) {
	cm := command{Command: c, reply: make(chan cmdResult, 1)}
	select {
	case k.cmds <- cm:
	case <-ctx.Done():
		return "", fmt.Errorf("boardcam is busy: %w", ctx.Err())
	case <-k.end:
		return "", errors.New("boardcam is shutting down")
	}
	select {
	case r := <-cm.reply:
		return r.msg, r.err
	case <-ctx.Done():
		return "", fmt.Errorf("no answer in time: %w (the command may still be carried out)", ctx.Err())
	}
}

// PictureLost tells the keeper that the camera stalled or disconnected
// (it never blocks).
func (k *Keeper) PictureLost() {
	select {
	case k.lost <- struct{}{}:
	default:
	}
}

// Alive asks the Run goroutine for a sign of life within wait; done
// cancels the question (and counts as alive). A keeper whose Run has
// returned is not alive.
func (k *Keeper) Alive(wait time.Duration, done <-chan struct{}) bool {
	p := make(chan struct{})
	t := k.clock.NewTimer(wait)
	defer t.Stop()
	select {
	case k.probes <- p:
	case <-t.C():
		return false
	case <-done:
		return true
	case <-k.end:
		return false // stopped
	}
	select {
	case <-p:
		return true
	case <-t.C():
		return false
	case <-done:
		return true
	}
}

// Done is closed when Run has returned.
func (k *Keeper) Done() <-chan struct{} { return k.end }

// Ending says how the observations ended (Run asks when their channel
// is closed): EOF when a video ended, Err when the source failed for
// good (Run then returns).
type Ending struct {
	EOF bool
	Err error
}

// Run keeps the match: it observes the frames' events, carries out the
// umpire's commands and applies delayed decisions, until the
// observations end (at the end of a video with Config.ExitAtEnd, or a
// source failure: ended says which) or ctx is cancelled (the
// observations are drained first). It closes Announcements and the
// subscribers' channels when it returns.
func (k *Keeper) Run(ctx context.Context, obs <-chan Observation, ended func() Ending) error {
	defer func() {
		k.outMu.Lock()
		k.closed = true
		for ch := range k.subs {
			delete(k.subs, ch)
			close(ch)
		}
		k.outMu.Unlock()
		close(k.out)
		close(k.end)
	}()
	if err := k.Start(); err != nil {
		return err
	}
	k.applyQueued() // settled before a restart, not yet applied
	var timer clock.Timer
	var timerAt time.Time
	for {
		var timerC <-chan time.Time
		if due, ok := k.nextDue(); ok {
			if timer == nil || !due.Equal(timerAt) {
				if timer != nil {
					timer.Stop()
				}
				timer, timerAt = k.clock.NewTimer(due.Sub(k.clock.Now())), due
			}
			timerC = timer.C()
		} else if timer != nil {
			timer.Stop()
			timer = nil
		}
		select {
		case o, ok := <-obs:
			if !ok {
				obs = nil
				if k.ended(ended) || k.Config.ExitAtEnd {
					return nil
				}
				continue
			}
			k.observe(o)
		case c := <-k.cmds:
			msg, err := k.do(c)
			c.reply <- cmdResult{msg, err}
		case p := <-k.probes:
			close(p)
		case <-k.lost:
			k.pictureLost()
		case <-timerC:
			timer = nil
			k.applyDue(k.clock.Now())
		case <-ctx.Done():
			if obs != nil {
				for o := range obs {
					k.observe(o)
				}
				k.ended(ended)
			}
			return nil
		}
	}
}

// ended handles the end of the observations; it reports whether Run must
// stop (a fatal source error).
func (k *Keeper) ended(how func() Ending) bool {
	if how == nil {
		return false
	}
	e := how()
	switch {
	case e.EOF:
		k.finishCatchUp(fmt.Sprintf("the source ended before frame %d", k.last.F))
		k.flush()
		k.closeAtEnd("the video ended")
		k.announce(Announcement{Items: []Item{Notice{Text: "the video ended", Level: LevelInfo}}})
		st := k.m.State()
		k.log.Info("end of the video", "board", st.Board, "score", fmt.Sprintf("%d-%d", st.Teams[0].Score, st.Teams[1].Score))
		return false
	case e.Err != nil:
		k.log.Error("source failed", "err", e.Err)
		return true
	}
	return false
}

// Close closes the journal. Run must have returned (or never run).
func (k *Keeper) Close() {
	if k.j != nil {
		_ = k.j.Close()
	}
}

// LockDir makes sure one process at a time writes the journals of dir
// (two would interleave their lines): it returns the lock, released by
// closing it.
func LockDir(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o640)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("another boardcam is running with the journals in %s (%v)", dir, err)
	}
	return f, nil
}

// Started is what StartNew did.
type Started struct {
	// Journal is the new match's journal; Closed the unfinished match's,
	// closed first ("" when there was none).
	Journal, Closed string
	State           rules.State
}

// StartNew starts a new match in cfg.Dir without refereeing it (boardcam
// new-match): the journal of an unfinished match is closed, the new
// match's created with cfg.Header (or cfg.Resume's header and lines). The
// next keeper to Initialize in cfg.Dir continues it. The caller holds the
// directory's lock (LockDir).
func StartNew(cfg Config, log *slog.Logger) (Started, error) {
	cfg.NewMatch = true
	k := &Keeper{Config: cfg, Logger: log}
	if err := k.Initialize(); err != nil {
		return Started{}, err
	}
	defer k.Close()
	var closed string
	if k.create != nil {
		closed = k.create.why
	}
	k.sessionLine = nil // no session: nothing was refereed
	if err := k.Start(); err != nil {
		return Started{}, err
	}
	return Started{Journal: k.JournalPath(), Closed: closed, State: k.m.State()}, nil
}
