package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
	"github.com/boardcam/boardcam/web/webtest"
)

// wsFollower reads every message of one websocket client.
type wsFollower struct {
	c    *webtest.Client
	mu   sync.Mutex
	n    int
	byT  map[string]int
	last web.Envelope // the last state message
	err  error
	done chan struct{}
}

func followWS(c *webtest.Client) *wsFollower {
	f := &wsFollower{c: c, byT: map[string]int{}, done: make(chan struct{})}
	go func() {
		defer close(f.done)
		for {
			m, err := c.Next(2 * time.Minute) // a guard against a hang, not a timing
			f.mu.Lock()
			if err != nil {
				f.err = err
				f.mu.Unlock()
				return
			}
			f.n++
			f.byT[m.Type]++
			if m.Type == web.TypeState {
				f.last = m
			}
			f.mu.Unlock()
		}
	}()
	return f
}

// slowDialer connects with a tiny receive buffer; its client never reads.
func slowDialer() *websocket.Dialer {
	return &websocket.Dialer{
		HandshakeTimeout: 10 * time.Second,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			var d net.Dialer
			conn, err := d.DialContext(ctx, network, addr)
			if tc, ok := conn.(*net.TCPConn); ok && err == nil {
				_ = tc.SetReadBuffer(4096)
			}
			return conn, err
		},
		ReadBufferSize: 1024,
	}
}

func rssMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		var kb float64
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			if _, err := fmt.Sscan(rest, &kb); err == nil {
				return kb / 1024
			}
		}
	}
	return 0
}

// The load test of the whole daemon: the demo clip through the real
// vision pipeline (read as fast as it can be analysed, so every frame
// counts) while 200 websocket clients watch, ten of them deliberately
// slow (a tiny receive buffer, never reading). It checks by counting:
//   - no frame is dropped: every frame of the clip is analysed;
//   - every fast client gets the snapshot and then every broadcast
//     message, numbered without a gap, and its last state is the
//     daemon's final state (the websocket protocol end to end);
//   - the ten slow clients are disconnected, and only they;
//   - memory stays bounded.
//
// The figures are logged for the report:
//
//	go test -tags matprofile -run TestDemoClipUnderLoad -v ./daemon/
func TestDemoClipUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: skipped with -short")
	}
	demo := "../" + DemoClip
	if _, err := os.Stat(demo); err != nil {
		t.Skip("the demo clip is not there")
	}
	const clients, slowN = 200, 10
	cfg := DefaultConfig()
	cfg.Journal.Dir = t.TempDir()
	listen := "127.0.0.1:0"
	cfg.Web.Listen = &listen
	cfg.Source.URI = demo
	nopace := false
	cfg.Source.Pace = &nopace
	// The websocket fan-out and the pipeline alone: the replay buffer's
	// own memory (about 16 MiB at 720p, bounded) is measured by the
	// evidence package and stated in the README.
	cfg.Evidence.Off = true
	d := &Daemon{Sight: testSight, Config: cfg, Logger: quietLogger(), NewMatch: true, WebTuning: func(c *web.Config) {
		c.SendBuffer = 16          // a slow client is dropped after 16 queued messages …
		c.SocketWriteBuffer = 4096 // … once its socket is full
	}}
	if lp := strings.TrimSuffix(demo, ".mp4") + ".log"; fileExists(lp) {
		d.Resume = lp // as scripts/demo.sh plays it
	}
	if err := d.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	base := "http://" + d.WebAddr()
	ctx := context.Background()
	runtime.GC()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	rss0 := rssMiB()

	var fast []*wsFollower
	var slow []*webtest.Client
	for i := 0; i < clients; i++ {
		if i%(clients/slowN) == 0 {
			c, _, err := webtest.Dial(ctx, base, webtest.DialOptions{Dialer: slowDialer()})
			if err != nil {
				t.Fatal(err)
			}
			slow = append(slow, c)
			continue
		}
		c, _, err := webtest.Dial(ctx, base, webtest.DialOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fast = append(fast, followWS(c))
	}
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	waitRun(t, done)
	elapsed := time.Since(start)
	final := d.State()
	sum := d.metrics.Summary(time.Now())
	stats := d.web.Stats()
	runtime.GC()
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)
	rss1 := rssMiB()
	d.Close() // the server closes every connection: the followers end

	if sum.FramesIn == 0 || sum.FramesOut != sum.FramesIn || sum.Dropped["analyze"] != 0 || sum.Dropped["referee"] != 0 {
		t.Errorf("frames %d read, %d analysed, dropped %v: a frame was lost", sum.FramesIn, sum.FramesOut, sum.Dropped)
	}
	complete := 0
	for i, f := range fast {
		<-f.done
		f.mu.Lock()
		if g := f.c.Gaps(); len(g) > 0 {
			t.Errorf("fast client %d: gaps %v", i, g)
		}
		var st rules.State
		if f.last.Type != "" {
			st, _ = webtest.Decode[rules.State](f.last)
		}
		switch {
		case f.last.Type == "" || fingerprintOf(st) != fingerprintOf(final):
			t.Errorf("fast client %d: last state %+v, the daemon's %+v", i, fingerprintOf(st), fingerprintOf(final))
		case f.byT[web.TypeStroke] == 0 || f.byT[web.TypePieces] == 0:
			t.Errorf("fast client %d: messages %v", i, f.byT)
		default:
			complete++
		}
		f.mu.Unlock()
	}
	slowRead := 0
	for i, c := range slow {
		n := 0
		var err error
		for err == nil {
			_, err = c.Next(30 * time.Second)
			if err == nil {
				n++
			}
		}
		slowRead += n
		var ce *websocket.CloseError
		if !errors.As(err, &ce) && !strings.Contains(err.Error(), "reset") && !strings.Contains(err.Error(), "EOF") {
			t.Errorf("slow client %d: %v after %d messages", i, err, n)
		}
		c.Close()
	}
	if stats.Dropped != slowN {
		t.Errorf("%d clients dropped, want the %d slow ones", stats.Dropped, slowN)
	}
	if growth := int64(m1.HeapInuse) - int64(m0.HeapInuse); growth > 64<<20 {
		t.Errorf("Go heap grew %d MiB over the clip", growth>>20)
	}
	f0 := fast[0]
	t.Logf("demo clip: %d frames analysed of %d read in %v (%.0f frames/s), dropped %v", sum.FramesOut, sum.FramesIn,
		elapsed.Round(time.Millisecond), float64(sum.FramesOut)/elapsed.Seconds(), sum.Dropped)
	t.Logf("clients %d: %d fast complete and in order (each got %d messages: %v), %d slow dropped (they read %d between them before the cut)",
		clients, complete, f0.n, f0.byT, stats.Dropped, slowRead)
	t.Logf("messages published %d, written %d; Go heap in use %.1f → %.1f MiB; resident %.0f → %.0f MiB",
		stats.Published, stats.Sent, mib(m0.HeapInuse), mib(m1.HeapInuse), rss0, rss1)
	for _, k := range []string{PathPublish + "/" + FromPocket, PathSink + "/" + FromPocket, PathPublish + "/" + FromFrame} {
		if l, ok := sum.Latency[k]; ok {
			t.Logf("latency %s: n %d mean %v p95 %v max %v", k, l.N, l.Mean.Round(time.Millisecond), l.P95.Round(time.Millisecond), l.Max.Round(time.Millisecond))
		}
	}
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
