package daemon

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/hardware"
	"github.com/boardcam/boardcam/hardware/gpio"
	"github.com/boardcam/boardcam/hardware/gpio/gpiotest"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
	"github.com/boardcam/boardcam/web/webtest"
)

// The daemon is the web server's backend: the snapshot is the match,
// /metrics has the pipeline's figures and latencies, and an umpire logged
// in on the console undoes the last event over the websocket.
func TestWebBackend(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	hash, err := web.HashPasswordIter("umpire-secret", 1000)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Source.URI = "events:" + path
	f := false
	cfg.Source.Pace, cfg.Source.ExitAtEnd = &f, &f
	listen := "127.0.0.1:0"
	cfg.Web.Listen = &listen
	cfg.Web.UmpireHash = hash
	rec := newRecorder()
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Publishers: []Publisher{rec}}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	rec.waitFor(func(m web.Message) bool { n, ok := m.(web.Notice); return ok && n.Text == "the video ended" })
	rec.waitFor(cameraIs(web.CameraStopped))
	base := "http://" + d.WebAddr()

	get := func(p string) string {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	metrics := get("/metrics")
	for _, want := range []string{
		`boardcam_decision_latency_seconds_count{from="frame",path="publish"}`,
		`boardcam_decision_latency_seconds_count{from="pocket",path="sink"}`,
		`boardcam_capture_frames_total`,
		`boardcam_journal_commit_seconds_count`,
		`boardcam_decisions_total{kind="stroke",outcome="applied"}`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	var h web.Health
	if err := json.Unmarshal([]byte(get("/healthz")), &h); err != nil || h.Camera != web.CameraStopped {
		t.Errorf("healthz %+v %v", h, err)
	}

	viewer, _, err := webtest.Dial(ctx, base, webtest.DialOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer viewer.Close()
	snap, err := webtest.Decode[web.Snapshot](viewer.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	before := d.State()
	if fingerprintOf(snap.State) != fingerprintOf(before) || len(snap.Profile.Fouls) == 0 {
		t.Errorf("snapshot %+v, daemon %+v", fingerprintOf(snap.State), fingerprintOf(before))
	}

	cookie, csrf, err := webtest.Login(base, "umpire-secret")
	if err != nil {
		t.Fatal(err)
	}
	ump, _, err := webtest.Dial(ctx, base, webtest.DialOptions{Session: cookie, CSRF: csrf, Origin: base})
	if err != nil {
		t.Fatal(err)
	}
	defer ump.Close()
	reply, _, err := ump.Do(web.Command{Name: web.CmdUndo, Note: "test"}, 10*time.Second)
	if err != nil || reply.Type != web.TypeAck {
		t.Fatalf("undo: %+v %v", reply, err)
	}
	ack, _ := webtest.Decode[web.Ack](reply)
	if !strings.Contains(ack.Message, "undone") {
		t.Errorf("ack %q", ack.Message)
	}
	st, _, err := viewer.WaitFor(10*time.Second, func(e web.Envelope) bool { return e.Type == web.TypeState })
	if err != nil {
		t.Fatal(err)
	}
	after, _ := webtest.Decode[rules.State](st)
	if fingerprintOf(after) == fingerprintOf(before) {
		t.Error("the viewer's state did not change after the undo")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	jf, err := match.ReadJournal(d.JournalPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range jf.Records {
		if _, ok := r.Event.(rules.Undo); ok && r.Meta.By == "umpire" && r.Meta.Note == "test" {
			found = true
		}
	}
	if !found {
		t.Error("the umpire's undo is not in the journal")
	}
}

// Without an SPI bus or a GPIO chip the daemon starts anyway and says
// what is missing.
func TestHardwareMissing(t *testing.T) {
	if _, err := os.Stat("/dev/spidev0.0"); err == nil {
		t.Skip("this machine has an SPI bus")
	}
	c, err := ParseConfig([]byte("hardware:\n  max7219:\n    bus: SPI0\n  gpio:\n    chip: gpiochip7\n    buzzer: GPIO18\n"), "hw.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Hardware = c.Hardware
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	cfg.Source.URI = "events:" + path
	var logs strings.Builder
	d := &Daemon{Sight: testSight, Config: cfg, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	if err := d.Initialize(); err != nil {
		t.Fatalf("the daemon did not start without hardware: %v", err)
	}
	d.Close()
	for _, want := range []string{"hardware missing", "no SPI bus", "enable SPI", "gpiochip7"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, logs.String())
		}
	}
}

// The umpire's buttons on GPIO go through the same command interface: a
// press of "undo" (debounced on the daemon's clock) undoes the last event
// and is journaled as the button's.
func TestButtonUndo(t *testing.T) {
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	c, err := ParseConfig([]byte("hardware:\n  gpio:\n    buttons: {undo: GPIO13}\n"), "hw.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Hardware = c.Hardware
	cfg.Source.URI = "events:" + path
	f := false
	cfg.Source.Pace, cfg.Source.ExitAtEnd = &f, &f
	chip := &gpiotest.Chip{}
	clock := clocktest.New()
	rec := newRecorder()
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Clock: clock, Publishers: []Publisher{rec},
		Hardware: hardware.Options{OpenGPIO: func(string) (gpio.Chip, error) { return chip, nil }}}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	rec.waitFor(func(m web.Message) bool { n, ok := m.(web.Notice); return ok && n.Text == "the video ended" })
	before := d.State()

	line := chip.Line(13)
	line.Edge(true, clock.Now())
	clock.WaitTimers(1) // the debounce
	clock.Advance(50 * time.Millisecond)
	rec.waitFor(func(m web.Message) bool { n, ok := m.(web.Notice); return ok && strings.HasPrefix(n.Text, "undo: ") })
	line.Edge(false, clock.Now())
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if fingerprintOf(d.State()) == fingerprintOf(before) {
		t.Error("the button's undo changed nothing")
	}
	jf, err := match.ReadJournal(d.JournalPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range jf.Records {
		if _, ok := r.Event.(rules.Undo); ok && r.Meta.By == "button" {
			found = true
		}
	}
	if !found {
		t.Error("no undo by the button in the journal")
	}
}
