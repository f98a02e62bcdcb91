package main

// The load figure of the tournament view (README: "A tournament"): 64
// simulated boards — the recorded stream of a corpus match replayed at
// 10× through the board's own publisher (package mqtt: spool, QoS 1) —
// one Mosquitto, one `boardcam tournament` process, one page on its
// websocket. It reports the latency from a board's announcement (its
// Publish) to the page's websocket, p50 and p99, and the view's CPU and
// memory. A benchmark, not a test: it asserts no speed.
//
//	go test ./cmd/boardcam -run '^$' -bench Tournament64 -benchtime 1x
//
// BOARDCAM_LOAD_BOARDS and BOARDCAM_LOAD_SPEED change 64 and 10.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/boardcam/boardcam/internal/mosquittotest"
	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/web"
)

// recorded is one message of a board's recorded stream.
type recorded struct {
	at  time.Duration // since the first message, at the recording's speed
	msg web.Message
}

// recordMatch runs `boardcam run` on the corpus's autoplay match at
// recSpeed× real time with an MQTT broker, and reads back what the board
// published from its spool, with the times it was published.
func recordMatch(b *testing.B, broker string, recSpeed int) []recorded {
	b.Helper()
	cmd := func(args ...string) (int, string, string) {
		var out, errb strings.Builder
		code := run(context.Background(), args, stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
		return code, out.String(), errb.String()
	}
	code, out, errOut := cmd("simulate", "--json", "../../testdata/scenarios/autoplay-match.yaml")
	if code != 0 {
		b.Fatalf("simulate: %s", errOut)
	}
	dir := b.TempDir()
	src := filepath.Join(dir, "events.jsonl")
	os.WriteFile(src, []byte(out), 0o644)
	journal := filepath.Join(dir, "journal")
	code, _, errOut = cmd("run", "--source", "events:"+src, "--speed", strconv.Itoa(recSpeed), "--listen", "",
		"--journal-dir", journal, "--players", "S=Asha,N=Ravi", "--mqtt", broker, "--mqtt-prefix", "rec/club/board/", "--quiet")
	if code != 0 {
		b.Fatalf("run: %s", errOut)
	}
	files, _ := filepath.Glob(filepath.Join(journal, "mqtt", "*.jsonl"))
	if len(files) != 1 {
		b.Fatalf("spool %v", files)
	}
	f, _ := os.Open(files[0])
	defer f.Close()
	var recs []recorded
	var t0 time.Time
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var e mqtt.Envelope
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Type == "" {
			continue
		}
		if t0.IsZero() {
			t0 = e.T
		}
		m, err := decodeMessage(e)
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, recorded{at: e.T.Sub(t0), msg: m})
	}
	return recs
}

func decodeMessage(e mqtt.Envelope) (web.Message, error) {
	var err error
	switch e.Type {
	case web.TypeSnapshot:
		var m web.Snapshot
		err = json.Unmarshal(e.Data, &m)
		return m, err
	case web.TypeState:
		var m web.StateUpdate
		err = json.Unmarshal(e.Data, &m)
		return m, err
	case web.TypeStroke:
		var m web.Stroke
		err = json.Unmarshal(e.Data, &m)
		return m, err
	case web.TypeFoul:
		var m web.Foul
		err = json.Unmarshal(e.Data, &m)
		return m, err
	case web.TypePending:
		var m web.Pending
		err = json.Unmarshal(e.Data, &m)
		return m, err
	case web.TypeDecided:
		var m web.Decided
		err = json.Unmarshal(e.Data, &m)
		return m, err
	case web.TypeCalibration:
		var m web.Calibration
		err = json.Unmarshal(e.Data, &m)
		return m, err
	case web.TypeNotice:
		var m web.Notice
		err = json.Unmarshal(e.Data, &m)
		return m, err
	}
	return nil, fmt.Errorf("recorded type %q", e.Type)
}

type simSource struct {
	snap  web.Snapshot
	match string
}

func (s simSource) Snapshot() web.Snapshot { return s.snap }
func (s simSource) MatchID() string        { return s.match }

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// procStat returns a process's CPU time (user+system) and peak and
// current resident memory.
func procStat(pid int) (cpu time.Duration, hwm, rss int64) {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		cpu = time.Duration(ut+st) * time.Second / 100 // USER_HZ
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Fields(l)
			if len(f) >= 2 && (f[0] == "VmHWM:" || f[0] == "VmRSS:") {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				if f[0] == "VmHWM:" {
					hwm = kb << 10
				} else {
					rss = kb << 10
				}
			}
		}
	}
	return
}

func BenchmarkTournament64Boards(b *testing.B) {
	nBoards := envInt("BOARDCAM_LOAD_BOARDS", 64)
	speed := envInt("BOARDCAM_LOAD_SPEED", 10)
	const recSpeed = 100
	broker := mosquittotest.Start(b, mosquittotest.Options{})
	recs := recordMatch(b, broker.URL(), recSpeed)
	scale := float64(recSpeed) / float64(speed) // recorded at 100×, replayed at 10×
	matchLen := time.Duration(float64(recs[len(recs)-1].at) * scale)
	b.Logf("recorded %d messages; each board replays them over %v", len(recs), matchLen.Round(time.Second))

	// The view, a process of its own (its CPU and memory are its own).
	port := mosquittotest.FreePort(b)
	view := exec.Command(os.Args[0], "tournament", "--broker", broker.URL(), "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--log-level", "warn")
	view.Env = append(os.Environ(), "BOARDCAM_TEST_AS_MAIN=1")
	view.Stderr = os.Stderr
	if err := view.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { view.Process.Kill(); view.Wait() }()
	var ws *websocket.Conn
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, _, err := websocket.DefaultDialer.Dial(fmt.Sprintf("ws://127.0.0.1:%d/ws", port), nil)
		if err == nil {
			ws = c
			break
		}
		if time.Now().After(deadline) {
			b.Fatal(err)
		}
	}
	defer ws.Close()
	time.Sleep(500 * time.Millisecond) // the view subscribes

	var mu sync.Mutex
	var lat []time.Duration
	pageDone := make(chan struct{})
	go func() {
		defer close(pageDone)
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			now := time.Now()
			var m struct {
				Type  string        `json:"type"`
				Topic string        `json:"topic"`
				Env   mqtt.Envelope `json:"env"`
			}
			if json.Unmarshal(data, &m) == nil && m.Type == "event" && m.Topic == mqtt.TopicEvents {
				mu.Lock()
				lat = append(lat, now.Sub(m.Env.T))
				mu.Unlock()
			}
		}
	}()

	cpu0, _, _ := procStat(view.Process.Pid)
	start := time.Now()
	snap0 := recs[0].msg.(web.Snapshot)
	var wg sync.WaitGroup
	var published sync.WaitGroup
	boards := make([]*mqtt.Board, nBoards)
	for i := range boards {
		bd := &mqtt.Board{
			Config: mqtt.Config{Broker: broker.URL(), Prefix: fmt.Sprintf("boardcam/load/board%02d/", i+1), Name: fmt.Sprintf("Board %d", i+1),
				Spool: b.TempDir(), HomeAssistant: "off", DrainTimeout: 30 * time.Second},
			Source: simSource{snap: snap0, match: fmt.Sprintf("load-%02d", i+1)},
		}
		if err := bd.Initialize(); err != nil {
			b.Fatal(err)
		}
		boards[i] = bd
	}
	b.ResetTimer()
	for i, bd := range boards {
		wg.Add(1)
		published.Add(1)
		// Boards start spread over the first 5 s, as a club's do not start
		// in the same millisecond.
		offset := time.Duration(i) * 5 * time.Second / time.Duration(nBoards)
		go func(bd *mqtt.Board) {
			defer wg.Done()
			defer published.Done()
			t0 := time.Now().Add(offset)
			for _, r := range recs[1:] {
				time.Sleep(time.Until(t0.Add(time.Duration(float64(r.at) * scale))))
				bd.Publish(r.msg)
			}
		}(bd)
	}
	wg.Wait()
	for _, bd := range boards {
		bd.Close() // waits for the spool to empty
	}
	time.Sleep(time.Second)
	wall := time.Since(start)
	b.StopTimer()
	cpu1, hwm, rss := procStat(view.Process.Pid)
	ws.Close()
	<-pageDone

	mu.Lock()
	defer mu.Unlock()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	want := nBoards * len(recs) // the snapshot each board starts with, and the recorded events
	cpuPct := 100 * float64(cpu1-cpu0) / float64(wall)
	b.ReportMetric(float64(q(0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(q(0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(cpuPct, "view-cpu-%")
	b.ReportMetric(float64(hwm)/(1<<20), "view-peak-MiB")
	fmt.Printf("tournament load: %d boards × %d events at %d× (%v), %d of %d events reached the page; "+
		"announcement → page: p50 %v, p99 %v, max %v; view CPU %.1f%% of one core (%v in %v), peak RSS %.1f MiB (now %.1f MiB)\n",
		nBoards, len(recs)-1, speed, wall.Round(time.Second), len(lat), want,
		q(0.5).Round(100*time.Microsecond), q(0.99).Round(100*time.Microsecond), q(1).Round(time.Millisecond),
		cpuPct, (cpu1 - cpu0).Round(10*time.Millisecond), wall.Round(time.Second), float64(hwm)/(1<<20), float64(rss)/(1<<20))
}
