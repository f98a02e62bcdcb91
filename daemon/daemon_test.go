package daemon

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/referee/refsim"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/web"
)

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// testConfig is a configuration for in-process tests: no web server, the
// simulator's exact events (no measurement tolerance).
func testConfig(t *testing.T) Config {
	cfg := DefaultConfig()
	cfg.Journal.Dir = t.TempDir()
	off := ""
	cfg.Web.Listen = &off
	zero := 0.0
	cfg.Referee.ToleranceMM, cfg.Referee.TimeToleranceS = &zero, &zero
	cfg.Evidence.Off = true // evidence_test.go turns it on
	return cfg
}

// simBoard plays a full board under the rules and returns its events and
// the match state the referee and the rules engine reach on them.
func simBoard(t *testing.T, scenario string) ([]events.Event, rules.State, *refsim.Result) {
	t.Helper()
	sc, err := sim.Load("../testdata/scenarios/" + scenario)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := rules.ProfileByName("icf")
	cfg := referee.DefaultConfig(p)
	cfg.Tolerance, cfg.TimeTolerance = 0, 0
	res, err := refsim.Play(sc, refsim.DefaultHeader(sc, "icf"), cfg, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The daemon's default match seats S=South, N=North, S breaking: the
	// same as refsim's default header for a scenario S breaks.
	ref, err := refsim.Referee(res.Trace.Events, refsim.DefaultHeader(sc, "icf"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res.Trace.Events, ref.Match.State(), res
}

func lastFrame(evs []events.Event) int {
	n := 0
	for _, e := range evs {
		n = max(n, e.Frame)
	}
	return n
}

// quietFrame returns a frame just after a stroke ended, when nothing is in
// progress (the k-th stroke_end).
func quietFrame(t *testing.T, evs []events.Event, k int) int {
	t.Helper()
	seen := 0
	for i, e := range evs {
		if e.Type != events.StrokeEnd {
			continue
		}
		seen++
		if seen == k {
			for _, n := range evs[i+1:] {
				if n.Frame > e.Frame+1 {
					return e.Frame + 1
				}
				if n.Frame > e.Frame {
					break
				}
			}
		}
	}
	t.Fatalf("no quiet frame after stroke %d", k)
	return 0
}

func runDaemon(t *testing.T, d *Daemon) chan error {
	t.Helper()
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Run(context.Background()) }()
	return done
}

func waitRun(t *testing.T, done chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Minute): // a guard against a hang, not a timing (the demo clip alone takes 36 s on an idle core)
		t.Fatal("the daemon did not finish")
	}
}

// A camera that stalls between two strokes: the daemon says so, keeps the
// match, gives the connection up after three stall timeouts, reconnects
// with exponential backoff (the camera refuses twice), recalibrates when
// the picture returns, and the match ends exactly as without the stall.
// Every wait is on the fake clock.
func TestStalledSourceRecovers(t *testing.T) {
	evs, want, _ := simBoard(t, "autoplay-board.yaml")
	stallAt := quietFrame(t, evs, 10)
	src := newWorldSource(lastFrame(evs)+5, stallAt, 2, true)
	ana := newWorldAnalyzer(evs, src.tokens)
	rec := newRecorder()
	clock := clocktest.New()
	cfg := testConfig(t)
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Clock: clock, Source: src, Analyzer: ana, Publishers: []Publisher{rec}}
	done := runDaemon(t, d)
	defer d.Close()
	guard := time.AfterFunc(2*time.Minute, func() { panic("TestStalledSourceRecovers hung: the daemon did not get past the stall") })
	defer guard.Stop()

	<-src.stalled
	before := d.State()
	clock.WaitTimers(1) // the stall watchdog
	clock.Advance(3 * time.Second)
	rec.waitFor(cameraIs(web.CameraStalled))
	clock.WaitTimers(1) // giving the connection up
	clock.Advance(6 * time.Second)
	rec.waitFor(cameraIs(web.CameraNoSignal))
	for _, wait := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second} {
		clock.WaitTimers(1) // the backoff
		if got := clock.Pending(); got != 1 {
			t.Fatalf("%d timers armed during the backoff", got)
		}
		clock.Advance(wait)
	}
	waitRun(t, done)

	if d.cap.backoffs[0] != 500*time.Millisecond || d.cap.backoffs[1] != time.Second || d.cap.backoffs[2] != 2*time.Second || len(d.cap.backoffs) != 3 {
		t.Errorf("backoffs %v, want 500ms 1s 2s", d.cap.backoffs)
	}
	st := rec.cameraStatuses()
	wantSeq := []string{web.CameraStalled, web.CameraNoSignal, web.CameraOK, web.CameraStopped}
	if !subsequence(st, wantSeq) {
		t.Errorf("camera statuses %v, want in order %v", st, wantSeq)
	}
	if ana.resets != 1 || ana.recals != 1 {
		t.Errorf("analyzer reset %d times, recalibrated %d: want 1 and 1", ana.resets, ana.recals)
	}
	if before.Strokes == 0 && before.Board == 1 {
		t.Errorf("the stall came before any stroke: %+v", before)
	}
	if src.opens != 4 || src.refused != 2 {
		t.Errorf("%d opens, %d refused; want 4 and 2", src.opens, src.refused)
	}
	if g, w := fingerprintOf(d.State()), fingerprintOf(want); g != w {
		t.Fatalf("final state %+v, want %+v (as without the stall)", g, w)
	}
	if d.metrics.Summary(clock.Now()).Reconnects != 1 {
		t.Errorf("reconnects %d", d.metrics.Summary(clock.Now()).Reconnects)
	}
}

func subsequence(have, want []string) bool {
	i := 0
	for _, h := range have {
		if i < len(want) && h == want[i] {
			i++
		}
	}
	return i == len(want)
}

// A publisher that does not return never stalls capture: the camera is
// read on while the publisher is stuck, frames are dropped and counted,
// and once it returns every decision is journaled and published, none
// lost (the analysis reports events late over dropped frames, as a
// tracker does, never loses them).
func TestSlowPublisherNeverStallsCapture(t *testing.T) {
	evs, want, res := simBoard(t, "autoplay-board.yaml")
	// The world goes on 300 frames after the last event, so that frames
	// dropped at the end cannot hide it.
	n := lastFrame(evs) + 300
	src := newWorldSource(n, -1, 0, false)
	pause := quietFrame(t, evs, 30) // half the board while the publisher is stuck
	src.pauseAt = pause
	ana := newWorldAnalyzer(evs, src.tokens)
	rec := newRecorder()
	rec.block = make(chan struct{})
	cfg := testConfig(t)
	cfg.Pipeline.FrameQueue, cfg.Pipeline.EventQueue, cfg.Pipeline.PublishQueue = 2, 2, 2
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Source: src, Analyzer: ana, Publishers: []Publisher{rec}}
	done := runDaemon(t, d)
	defer d.Close()

	select {
	case <-src.paused:
	case <-time.After(60 * time.Second): // a guard, not a timing
		t.Fatalf("capture stalled behind the publisher: %d frames read", src.readFrames)
	}
	if src.readFrames != pause {
		t.Fatalf("%d frames read before the pause at %d", src.readFrames, pause)
	}
	rec.mu.Lock()
	published := len(rec.msgs)
	rec.mu.Unlock()
	sum := d.metrics.Summary(time.Now())
	if published != 0 || sum.Dropped["analyze"] == 0 {
		t.Errorf("%d messages got through the stuck publisher; dropped %v (want some frames)", published, sum.Dropped)
	}
	if sum.FramesIn != int64(pause) {
		t.Errorf("frames in %d, want %d", sum.FramesIn, pause)
	}
	t.Logf("while the publisher was stuck: %d frames read, %d analysed, dropped %v", sum.FramesIn, sum.FramesOut, sum.Dropped)
	close(rec.block)
	close(src.resume)
	waitRun(t, done)

	// Nothing is lost: the strokes whose frames were dropped wait for the
	// umpire with the reason, and confirming every best guess gives the
	// match of the simulator.
	jf, err := match.ReadJournal(d.JournalPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	st, open := settledAsGuessed(t, jf)
	if g, w := fingerprintOf(st), fingerprintOf(want); g != w {
		got := eventLines(jf)
		for _, o := range open {
			got = append(got, o.Decision.Log+" (held)")
		}
		var exp []string
		for _, dc := range res.Decisions {
			if dc.Log != "" {
				exp = append(exp, dc.Log)
			}
		}
		for i := range got {
			if i >= len(exp) || got[i] != exp[i] {
				t.Logf("first difference at %d: got %v, want %v", i, got[max(0, i-3):min(len(got), i+3)], exp[max(0, i-3):min(len(exp), i+3)])
				break
			}
		}
		t.Fatalf("final state with the held decisions confirmed %+v, want %+v", g, w)
	}
	if len(open) == 0 {
		t.Error("no decision waits for the umpire although frames of strokes were dropped")
	}
	strokes, held := 0, 0
	for _, m := range rec.all() {
		if _, ok := m.(web.Stroke); ok {
			strokes++
		}
	}
	for _, o := range open {
		if o.Decision.Kind == "stroke" {
			held++
		}
	}
	if strokes+held != len(res.Strokes) {
		t.Errorf("%d strokes published and %d held, want %d in all", strokes, held, len(res.Strokes))
	}
}

// settledAsGuessed replays a journal and then applies the decisions still
// held at its end as the referee guessed them (the umpire confirming
// each). Every held decision must be uncertain with a reason, or queued
// behind one.
func settledAsGuessed(t *testing.T, jf *match.JournalFile) (rules.State, []match.OpenDecision) {
	t.Helper()
	m, err := jf.Replay()
	if err != nil {
		t.Fatal(err)
	}
	open, err := jf.Open()
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range open {
		if !o.Held {
			continue
		}
		if i == 0 && (o.Queued || len(o.Decision.Doubts) == 0) {
			t.Errorf("%s waits first but is not uncertain: %+v", o.ID, o.Decision)
		}
		for _, x := range o.Decision.Doubts {
			if x.Reason == "" {
				t.Errorf("%s: a doubt without a reason: %+v", o.ID, x)
			}
		}
		if ev := o.Decision.Event(); ev != nil {
			if err := m.Apply(ev); err != nil {
				t.Fatalf("%s (%s) does not apply: %v", o.ID, o.Decision.Log, err)
			}
		}
	}
	return m.State(), open
}

// A file of events played into the referee: the journal is a stroke log
// that `boardcam score` reads, and a second run continues a closed
// journal's match no more: it starts a new one.
func TestEventsFeed(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	_, want, _ := simBoard(t, "autoplay-board.yaml")
	cfg := testConfig(t)
	cfg.Source.URI = "events:" + path
	nopace := false
	cfg.Source.Pace = &nopace
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger()}
	waitRun(t, runDaemon(t, d))
	d.Close()
	if g, w := fingerprintOf(d.State()), fingerprintOf(want); g != w {
		t.Fatalf("final state %+v, want %+v", g, w)
	}
	jf, err := match.ReadJournal(d.JournalPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	if closed, why := jf.Closed(); !closed || !strings.Contains(why, "ended") {
		t.Errorf("journal not closed at the end of the file: %v %q", closed, why)
	}
	d2 := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger()}
	if err := d2.Initialize(); err != nil {
		t.Fatal(err)
	}
	if d2.JournalPath() == d.JournalPath() {
		t.Error("a closed journal was continued")
	}
	d2.Close()
}

// A corrupt events file is a clear error naming the line, not a crash.
func TestEventsFeedCorrupt(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b[:len(b)*2/3], 0o644); err != nil { // truncated mid-line
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Source.URI = "events:" + path
	nopace := false
	cfg.Source.Pace = &nopace
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger()}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	err = d.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "board.jsonl:") || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("truncated events: %v", err)
	}
}
