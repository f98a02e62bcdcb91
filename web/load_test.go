package web_test

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/web"
	"github.com/boardcam/boardcam/web/webtest"
)

// TestLoad200Clients is the load test of the websocket hub on loopback:
// 200 clients, 10 of them deliberately slow (a tiny receive buffer and
// never a read), while 5000 messages of the kinds a match produces are
// published in bursts. It checks, by counting rather than timing:
//   - every fast client receives every message, in order, without a gap;
//   - the slow clients are disconnected (the hub's drop counter is exactly
//     10 and each slow connection ends);
//   - Publish never waits for a client: the write timeout is an hour, so a
//     stalled client could only be dropped by a full queue, and all 5000
//     publishes complete while the slow clients never read;
//   - memory is bounded: the heap after 5000 messages is no bigger than
//     after 2500 (within 8 MiB), and no goroutine outlives its client.
//
// The figures (rates, Publish latency, heap) are logged for the report:
//
//	go test -tags matprofile -run TestLoad200Clients -v ./web/
func TestLoad200Clients(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: skipped with -short")
	}
	const (
		clients = 200
		slowN   = 10
		msgs    = 5000
		burst   = 100 // fewer than the queue (256) holds
	)
	e := newEnv(t, func(c *web.Config) {
		c.WriteTimeout = time.Hour // a stalled client is dropped only by its full queue
		c.PingInterval = 30 * time.Minute
		c.PongTimeout = time.Hour
	})
	runtime.GC()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	g0 := runtime.NumGoroutine()

	var fast []*follower
	var slow []*webtest.Client
	for i := 0; i < clients; i++ {
		if i%(clients/slowN) == 0 {
			slow = append(slow, e.dial(webtest.DialOptions{Dialer: tinyDialer()}))
		} else {
			fast = append(fast, follow(e.dial(webtest.DialOptions{}), false))
		}
	}
	if len(slow) != slowN || e.srv.Stats().Clients != clients {
		t.Fatalf("%d slow, %d connected", len(slow), e.srv.Stats().Clients)
	}

	// What a match publishes: mostly strokes and states (~1 KB), some
	// fouls with evidence, notices.
	st := webtest.DemoScript().Start.State
	message := func(i int) web.Message {
		switch i % 5 {
		case 0:
			s := st
			s.Strokes = i
			s.Last = fmt.Sprintf("S W%d", i%9+1)
			return web.StateUpdate(s)
		case 1:
			return web.Stroke{Seat: board.S, Player: "Asha", Frame: int64(i), Pocketed: web.Pocketed{White: 1}, Notation: "S W1"}
		case 2:
			return web.Foul{Code: "placement", Rule: "icf: Striking 1", Seat: board.N, Frame: int64(i), Source: web.SourceAuto,
				Evidence: web.Evidence{Positions: []web.Piece{{ID: "S", Kind: board.Striker, MM: [2]float64{1, 260}, State: web.PieceRest}}, Note: "striker off the rear line"}}
		default:
			return web.Notice{Text: fmt.Sprintf("notice %d: %s", i, strings.Repeat("x", 80))}
		}
	}

	var m1 runtime.MemStats
	lat := make([]time.Duration, 0, msgs)
	seq0 := uint64(e.srv.Stats().Published)
	start := time.Now()
	for i := 1; i <= msgs; i++ {
		m := message(i)
		t1 := time.Now()
		if err := e.srv.Publish(m); err != nil {
			t.Fatal(err)
		}
		lat = append(lat, time.Since(t1))
		if i%burst == 0 {
			// Wait, by count, until every fast client has it all.
			for _, f := range fast {
				if err := f.waitSeq(seq0 + uint64(i)); err != nil {
					t.Fatalf("fast client failed after %d messages: %v", i, err)
				}
			}
		}
		if i == msgs/2 {
			runtime.GC()
			runtime.ReadMemStats(&m1)
		}
	}
	elapsed := time.Since(start)
	runtime.GC()
	var m2 runtime.MemStats
	runtime.ReadMemStats(&m2)
	stats := e.srv.Stats()

	for i, f := range fast {
		f.mu.Lock()
		n, err := f.n, f.err
		f.mu.Unlock()
		if n != msgs || err != nil {
			t.Errorf("fast client %d got %d of %d (%v)", i, n, msgs, err)
		}
		if g := f.c.Gaps(); len(g) > 0 {
			t.Errorf("fast client %d: gaps %v", i, g)
		}
	}
	if stats.Dropped != slowN || stats.Clients != clients-slowN {
		t.Errorf("dropped %d, connected %d; want %d and %d", stats.Dropped, stats.Clients, slowN, clients-slowN)
	}
	slowRead := 0
	for i, c := range slow {
		got, err := readUntilClosed(c)
		slowRead += len(got)
		if !closedByServer(err) || len(got) >= msgs {
			t.Errorf("slow client %d read %d messages and then %v: not disconnected", i, len(got), err)
		}
	}
	heapMid, heapEnd := int64(m1.HeapInuse), int64(m2.HeapInuse)
	if growth := heapEnd - heapMid; growth > 8<<20 {
		t.Errorf("heap grew %d MiB from message %d to %d: not bounded", growth>>20, msgs/2, msgs)
	}

	for _, f := range fast {
		f.stop()
	}
	e.srv.Close()
	// Goroutines wind down asynchronously; wait for them by count.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > g0+5 && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if g := runtime.NumGoroutine(); g > g0+5 {
		t.Errorf("%d goroutines left, %d before the clients", g, g0)
	}

	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	t.Logf("clients %d (%d fast, %d slow), messages %d in bursts of %d", clients, len(fast), slowN, msgs, burst)
	t.Logf("elapsed %v: %.0f msgs/s published, %.0f msgs/s delivered to the fast clients together", elapsed.Round(time.Millisecond),
		float64(msgs)/elapsed.Seconds(), float64(msgs*len(fast))/elapsed.Seconds())
	t.Logf("Publish latency p50 %v, p99 %v, max %v (O(clients), never waiting on a socket)", pct(0.5), pct(0.99), lat[len(lat)-1])
	t.Logf("dropped slow clients %d of %d (they had read %d messages between them before the cut); fast clients complete, in order: %d of %d",
		stats.Dropped, slowN, slowRead, len(fast), len(fast))
	t.Logf("heap in use: %.1f MiB before connecting, %.1f MiB at message %d, %.1f MiB at message %d", mib(m0.HeapInuse), mib(m1.HeapInuse), msgs/2, mib(m2.HeapInuse), msgs)
	t.Logf("messages written %d (all clients), published %d", stats.Sent, stats.Published)
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
