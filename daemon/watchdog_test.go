package daemon

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/internal/sdnotify"
)

// fakeSystemd is a notification socket; next returns the next datagram.
func fakeSystemd(t *testing.T, watchdogUsec int) (*sdnotify.Notifier, func() string) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	env := map[string]string{"NOTIFY_SOCKET": sock}
	if watchdogUsec > 0 {
		env["WATCHDOG_USEC"] = strconv.Itoa(watchdogUsec)
	}
	n, err := sdnotify.FromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return n, func() string {
		t.Helper()
		buf := make([]byte, 4096)
		c.SetReadDeadline(time.Now().Add(10 * time.Second)) // a guard against a hang
		k, err := c.Read(buf)
		if err != nil {
			t.Fatalf("no notification: %v", err)
		}
		return string(buf[:k])
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The watchdog pings while the daemon is healthy and withholds the ping,
// saying why, while the match component does not answer or frames are
// read and not analysed.
func TestWatchdogWithholdsPingWhenUnhealthy(t *testing.T) {
	n, next := fakeSystemd(t, 3_000_000) // WatchdogSec=3s: a check every second
	clock := clocktest.New()
	var logs syncBuffer
	var answering atomic.Bool
	var read, analysed, tick atomic.Int64
	// counted is signalled each time the watchdog has read the frame
	// counts, which it does after probing: a step waits for it before the
	// next step changes health and counts, so no check sees the next one's.
	counted := make(chan struct{})
	w := watchdog{
		n: n, clock: clock, log: slog.New(slog.NewTextHandler(&logs, nil)),
		probe: func(time.Duration, <-chan struct{}) bool { return answering.Load() },
		frames: func() (int64, int64) {
			r, a := read.Load(), analysed.Load()
			counted <- struct{}{}
			return r, a
		},
		status: func() string { return "tick " + strconv.FormatInt(tick.Load(), 10) },
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() { w.run(done); close(finished) }()
	if got := next(); got != "READY=1\nSTATUS=tick 0" {
		t.Fatalf("first notification %q", got)
	}
	<-counted // the counts the checks start from
	// step moves to the next check with the given health and frame counts.
	step := func(ok bool, r, a int64) {
		tick.Add(1)
		answering.Store(ok)
		read.Store(r)
		analysed.Store(a)
		clock.Step()
		<-counted
	}
	expect := func(want string) {
		t.Helper()
		if got := next(); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	step(true, 10, 5)
	expect("WATCHDOG=1\nSTATUS=tick 1")
	step(false, 20, 15) // the match component hangs: no ping
	step(true, 30, 25)
	expect("WATCHDOG=1\nSTATUS=tick 3")
	step(true, 40, 25) // frames read, none analysed for 1 s: still healthy
	expect("WATCHDOG=1\nSTATUS=tick 4")
	step(true, 50, 25) // … for 2 s (WatchdogSec less one check): not healthy
	step(true, 60, 25)
	step(true, 60, 25) // the camera stalls (nothing read): not the daemon's fault
	expect("WATCHDOG=1\nSTATUS=tick 7")
	close(done)
	expect("STOPPING=1")
	<-finished
	for _, want := range []string{
		"the match component has not answered for 1s",
		"frames are read but none was analysed for 2s",
		"healthy again",
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
	if c := strings.Count(logs.String(), "none was analysed"); c != 1 {
		t.Errorf("the same reason logged %d times, want once", c)
	}
}

// Without WatchdogSec the daemon still says when it is ready and stopping;
// without systemd it says nothing and does not fail.
func TestWatchdogWithoutInterval(t *testing.T) {
	n, next := fakeSystemd(t, 0)
	for _, n := range []*sdnotify.Notifier{n, nil} {
		w := watchdog{n: n, clock: clocktest.New(), log: quietLogger(),
			probe:  func(time.Duration, <-chan struct{}) bool { t.Error("probed without a watchdog"); return true },
			frames: func() (int64, int64) { return 0, 0 },
			status: func() string { return "starting" }}
		done := make(chan struct{})
		close(done)
		w.run(done)
	}
	if got := next(); got != "READY=1\nSTATUS=starting" {
		t.Errorf("got %q", got)
	}
	if got := next(); got != "STOPPING=1" {
		t.Errorf("got %q", got)
	}
}

// The daemon under systemd: READY=1 with its status, watchdog pings while
// the match component answers its probe, STOPPING=1 at the end.
func TestDaemonNotifiesSystemd(t *testing.T) {
	n, next := fakeSystemd(t, 300_000) // a check every 100 ms
	tmp := t.TempDir()
	path, _ := boardEvents(t, tmp, "autoplay-board.yaml")
	cfg := testConfig(t)
	cfg.Source.URI = "events:" + path // paced: it lasts minutes, the test cancels it
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), Notifier: n}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	if got := next(); !strings.HasPrefix(got, "READY=1\nSTATUS=camera ") || !strings.Contains(got, "board 1 0-0") {
		t.Errorf("first notification %q", got)
	}
	if !d.keeper.Alive(10*time.Second, nil) {
		t.Error("the running match component did not answer the probe")
	}
	if got := next(); !strings.HasPrefix(got, "WATCHDOG=1\nSTATUS=") {
		t.Errorf("second notification %q", got)
	}
	cancel()
	waitRun(t, done)
	for {
		got := next()
		if got == "STOPPING=1" {
			break
		}
		if !strings.HasPrefix(got, "WATCHDOG=1\n") {
			t.Fatalf("unexpected notification %q", got)
		}
	}
	if d.keeper.Alive(50*time.Millisecond, nil) {
		t.Error("a stopped match component answered the probe")
	}
}
