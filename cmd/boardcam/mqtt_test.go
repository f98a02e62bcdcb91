package main

// `boardcam run` publishing to a real Mosquitto (internal/mosquittotest
// starts one on a loopback port): what subscribers receive, in order,
// with the right retained state, and the faults of issue 14 — the broker
// killed and restarted, the network cut, the board killed with kill -9
// and restarted, a slow subscriber. After each, the subscriber's last
// state equals the board's journal.
//
// The boards run on the corpus's recorded events (boardcam simulate
// --json of testdata/scenarios), paced at many times real time: the
// faults happen mid-match, and no video is decoded.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/internal/mosquittotest"
	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/mqtt/mqtttest"
	"github.com/boardcam/boardcam/rules"
)

// The test binary runs as `boardcam` when asked (the kill -9 test needs a
// process to kill).
func init() {
	if os.Getenv("BOARDCAM_TEST_AS_MAIN") == "1" {
		os.Exit(run(context.Background(), os.Args[1:], stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
	}
}

const (
	testPrefix = "boardcam/club/board1/"
	boardPass  = "board-secret"
	viewPass   = "view-secret"
)

// The club's broker set-up of deploy/mosquitto: passwords, and an ACL
// that lets each board write only its own topics.
var testACL = `user board1
topic readwrite boardcam/club/board1/#
topic readwrite homeassistant/#

user view
topic read boardcam/#
topic read homeassistant/#
topic write boardcam/+/+/command
`

func startBroker(t *testing.T, tls bool) *mosquittotest.Broker {
	return mosquittotest.Start(t, mosquittotest.Options{
		Users: map[string]string{"board1": boardPass, "view": viewPass},
		ACL:   testACL, TLS: tls,
	})
}

// boardConfig writes a configuration with an mqtt: section.
func boardConfig(t *testing.T, broker, ca string, extra ...string) string {
	t.Helper()
	lines := []string{
		"mqtt:",
		"  broker: " + broker,
		"  username: board1",
		"  password: " + boardPass,
		"  prefix: " + testPrefix,
		"  name: Board 1",
		// A dead connection is noticed within 1.5 keep-alives; a broker
		// back is tried again within retry_max. The defaults (15s, 10s)
		// suit a club; the tests shorten them to stay fast.
		"  keepalive: 1s",
		"  retry_max: 300ms",
		"  drain_timeout: 10s",
	}
	if ca != "" {
		lines = append(lines, "  ca: "+ca)
	}
	for _, e := range extra {
		key := strings.SplitN(strings.TrimSpace(e), ":", 2)[0]
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), key+":") {
				lines = append(lines[:i], lines[i+1:]...)
				break
			}
		}
	}
	lines = append(lines, extra...)
	p := filepath.Join(t.TempDir(), "board.yaml")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkSubscriber checks what a subscriber received from the board:
// every event numbered 1, 2, 3 … per match in order once duplicates are
// left out, the events folding to the journal's state, and the retained
// snapshot equal to it.
func checkSubscriber(t *testing.T, sub *mqtttest.Subscriber, want rules.State, strict bool) {
	t.Helper()
	var evs []mqtt.Envelope
	var dups int
	deadline := time.Now().Add(15 * time.Second)
	for {
		evs, dups = mqtttest.Events(sub.Messages(), testPrefix)
		snap, ok := sub.Last(testPrefix + mqtt.TopicSnapshot)
		st, _ := mqtttest.StateOf(snap)
		if ok && len(evs) > 0 && snap.Seq == evs[len(evs)-1].Seq && reflect.DeepEqual(st, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the subscriber's retained snapshot (seq %d of %d events) never equalled the journal", snap.Seq, len(evs))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if msg := mqtttest.CheckOrder(evs); msg != "" {
		if strict {
			t.Error(msg)
		} else {
			t.Log("gap (the broker was killed: see the test): ", msg)
		}
	}
	folded, ok := mqtttest.Fold(evs)
	if !ok || !reflect.DeepEqual(folded, want) {
		t.Errorf("the events fold to a state other than the journal's:\n got %+v\nwant %+v", folded.Teams, want.Teams)
	}
	t.Logf("%d events, %d received twice", len(evs), dups)
}

// runBoard runs `boardcam run` in this process; it returns the journal's
// state and the log.
func runBoard(t *testing.T, src, cfg, journal string, args ...string) (rules.State, string) {
	t.Helper()
	a := append([]string{"run", "--config", cfg, "--source", "events:" + src, "--listen", "", "--journal-dir", journal, "--players", "S=Asha,N=Ravi"}, args...)
	code, out, errOut := runCmd(t, "", a...)
	if code != 0 {
		t.Fatalf("boardcam run: exit %d: %s", code, errOut)
	}
	_, st := journalState(t, out)
	return st, errOut
}

// wantLog fails unless the board's log says it.
func wantLog(t *testing.T, log string, says ...string) {
	t.Helper()
	for _, s := range says {
		if !strings.Contains(log, s) {
			t.Errorf("the board's log does not say %q:\n%s", s, log)
		}
	}
}

// A board publishes over TLS with a password: every event in order, the
// retained snapshot and health, Home Assistant's discovery.
func TestMQTTRunPublishes(t *testing.T) {
	b := startBroker(t, true)
	sub := mqtttest.Subscribe(t, b.URL(), "view", viewPass, "view-1", "#")
	src := simulated(t, "autoplay-board.yaml")
	want, log := runBoard(t, src, boardConfig(t, b.TLSURL(), b.CAFile), t.TempDir(), "--no-pace")
	wantLog(t, log, "mqtt: connected")
	checkSubscriber(t, sub, want, true)
	// Each finished board, and the match's end, as events of their own.
	evs, _ := mqtttest.Events(sub.Messages(), testPrefix)
	var results []mqtt.BoardResult
	matchEnd := 0
	for _, e := range evs {
		switch e.Type {
		case mqtt.TypeBoardResult:
			var r mqtt.BoardResult
			json.Unmarshal(e.Data, &r)
			results = append(results, r)
		case mqtt.TypeMatchResult:
			matchEnd++
		}
	}
	if len(want.Boards) == 0 || len(results) != len(want.Boards) || results[0].Board != 1 || results[0].WinnerName == "" {
		t.Errorf("board results %+v, the journal has %d boards", results, len(want.Boards))
	}
	t.Logf("%d board results, match over %v", len(results), want.MatchOver)
	if want.MatchOver != (matchEnd == 1) {
		t.Errorf("%d match results; match over: %v", matchEnd, want.MatchOver)
	}

	h, ok := sub.Last(testPrefix + mqtt.TopicHealth)
	var health mqtt.Health
	json.Unmarshal(h.Data, &health)
	if !ok || health.Status != mqtt.Offline || health.Name != "Board 1" {
		t.Errorf("retained health after the board stopped: %+v", health)
	}
	n := 0
	for _, m := range sub.Messages() {
		if strings.HasPrefix(m.Topic, "homeassistant/") && strings.HasSuffix(m.Topic, "/config") {
			var cfg map[string]any
			if err := json.Unmarshal(m.Raw, &cfg); err != nil || cfg["unique_id"] == nil || cfg["state_topic"] == nil {
				t.Errorf("discovery %s: %s", m.Topic, m.Raw)
			}
			n++
		}
	}
	if n != len(mqtt.Discovery(mqtt.Config{Prefix: testPrefix, HomeAssistant: "homeassistant"})) {
		t.Errorf("%d discovery messages", n)
	}
}

// A wrong password: the broker refuses the board, which referees on and
// keeps every event in its spool; the next start with the right password
// publishes them, in order.
func TestMQTTBadCredentialsThenSpool(t *testing.T) {
	b := startBroker(t, false)
	sub := mqtttest.Subscribe(t, b.URL(), "view", viewPass, "view-1", "#")
	src := simulated(t, "autoplay-board.yaml")
	journal := t.TempDir()
	bad := boardConfig(t, b.URL(), "", "  drain_timeout: 500ms")
	os.WriteFile(bad, []byte(strings.Replace(mustRead(t, bad), boardPass, "wrong", 1)), 0o600)
	want, log := runBoard(t, src, bad, journal, "--no-pace")
	wantLog(t, log, "mqtt: cannot connect", "not authorized", "stay in the spool")
	if evs, _ := mqtttest.Events(sub.Messages(), testPrefix); len(evs) != 0 {
		t.Fatalf("a board with a wrong password published %d events", len(evs))
	}
	spooled, _ := filepath.Glob(filepath.Join(journal, "mqtt", "*.jsonl"))
	if len(spooled) != 1 {
		t.Fatalf("spool: %v", spooled)
	}
	// The next start, with the right password, publishes what waited
	// (before the events of this run).
	again, _ := runBoard(t, src, boardConfig(t, b.URL(), ""), journal, "--no-pace")
	if !reflect.DeepEqual(again, want) {
		t.Fatalf("the journal changed across the restart")
	}
	checkSubscriber(t, sub, want, true)
}

// The network cut (the broker's port dropping packets, as a firewall
// would) mid-match: the board referees on, notices the dead connection by
// its keep-alive, and on reconnect publishes what the broker missed, in
// order. A club's cut may last an hour; what matters is that it outlasts
// the keep-alive, so the test cuts for 2.5 s with a 1 s keep-alive (the
// spool is the same for a minute or an hour: docs/mqtt.md).
func TestMQTTNetworkCut(t *testing.T) {
	b := startBroker(t, false)
	proxy := mqtttest.NewProxy(t, fmt.Sprintf("127.0.0.1:%d", b.Port))
	sub := mqtttest.Subscribe(t, b.URL(), "view", viewPass, "view-1", "#")
	src := simulated(t, "autoplay-board.yaml")
	go func() {
		time.Sleep(1500 * time.Millisecond)
		proxy.Cut()
		time.Sleep(2500 * time.Millisecond)
		proxy.Restore()
	}()
	start := time.Now()
	want, log := runBoard(t, src, boardConfig(t, proxy.URL(), ""), t.TempDir(), "--speed", "50")
	wantLog(t, log, "mqtt: connection lost")
	t.Logf("the match took %v", time.Since(start).Round(time.Millisecond))
	checkSubscriber(t, sub, want, true)
}

// The broker killed (SIGKILL) mid-match and restarted a second later.
// The board republishes what the broker had not acknowledged. A
// subscriber with a persistent session gets the rest when it reconnects;
// what the broker acknowledged but had not yet saved (mosquitto saves
// every autosave_interval) dies with it: the subscriber sees the gap in
// the numbering, and the retained snapshot, republished once the board is
// through, puts its state right. The test requires that state and the
// order; a gap is logged.
func TestMQTTBrokerKilled(t *testing.T) {
	b := startBroker(t, false)
	sub := mqtttest.Subscribe(t, b.URL(), "view", viewPass, "view-1", "#")
	src := simulated(t, "autoplay-board.yaml")
	go func() {
		time.Sleep(1500 * time.Millisecond)
		b.Kill()
		time.Sleep(time.Second)
		b.Restart()
	}()
	want, log := runBoard(t, src, boardConfig(t, b.URL(), ""), t.TempDir(), "--speed", "50")
	wantLog(t, log, "mqtt: connection lost", "mqtt: cannot connect")
	checkSubscriber(t, sub, want, false)
}

// A slow subscriber (20 ms a message) does not slow the board: the
// broker queues for it; it ends with everything, in order.
func TestMQTTSlowSubscriber(t *testing.T) {
	b := startBroker(t, false)
	slow := mqtttest.Subscribe(t, b.URL(), "view", viewPass, "view-slow", testPrefix+"#")
	slow.Delay = 20 * time.Millisecond
	fast := mqtttest.Subscribe(t, b.URL(), "view", viewPass, "view-fast", "#")
	src := simulated(t, "autoplay-board.yaml")
	journal := t.TempDir()
	want, log := runBoard(t, src, boardConfig(t, b.URL(), ""), journal, "--no-pace")
	wantLog(t, log, "mqtt: connected")
	// The board finished with nothing left to send, whatever the slow
	// subscriber had taken so far.
	got, _ := mqtttest.Events(slow.Messages(), testPrefix)
	all := spoolAcked(t, journal)
	t.Logf("when the board stopped, the slow subscriber had %d of %d events", len(got), all)
	checkSubscriber(t, fast, want, true)
	checkSubscriber(t, slow, want, true)
}

// The board killed with kill -9 mid-match and started again: it replays
// its journal, republishes from its spool what the broker had not
// acknowledged, and numbers on.
func TestMQTTBoardKilled(t *testing.T) {
	b := startBroker(t, false)
	sub := mqtttest.Subscribe(t, b.URL(), "view", viewPass, "view-1", "#")
	src := simulated(t, "autoplay-board.yaml")
	cfg := boardConfig(t, b.URL(), "")
	journal := t.TempDir()
	args := []string{"run", "--config", cfg, "--source", "events:" + src, "--listen", "", "--journal-dir", journal, "--players", "S=Asha,N=Ravi", "--speed", "50"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "BOARDCAM_TEST_AS_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once the match is under way (some events published).
	var before []mqtt.Envelope
	for deadline := time.Now().Add(20 * time.Second); len(before) < 10; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the board published %d events in 20 s: %s", len(before), stderr.String())
		}
		before, _ = mqtttest.Events(sub.Messages(), testPrefix)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	t.Logf("killed after %d events", len(before))
	want, log := runBoard(t, src, cfg, journal, "--speed", "50")
	wantLog(t, log, "mqtt: connected", "unsent=")
	checkSubscriber(t, sub, want, true)
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// spoolAcked checks that everything in the board's spool was
// acknowledged and returns how many events it holds.
func spoolAcked(t *testing.T, journal string) int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(journal, "mqtt", "*.jsonl"))
	n := 0
	for _, f := range files {
		var last, acked uint64
		for _, line := range strings.Split(strings.TrimSpace(mustRead(t, f)), "\n") {
			var h struct {
				Acked *uint64 `json:"acked"`
				Seq   uint64  `json:"seq"`
			}
			json.Unmarshal([]byte(line), &h)
			if h.Acked != nil {
				acked = max(acked, *h.Acked)
			} else {
				last = max(last, h.Seq)
				n++
			}
		}
		if acked != last {
			t.Errorf("%s: %d events, the broker acknowledged up to %d", f, last, acked)
		}
	}
	return n
}

// `boardcam tournament --gen-key` writes a private key and prints the
// public key a board's configuration takes; without a broker the view
// says what it needs.
func TestTournamentCommand(t *testing.T) {
	key := filepath.Join(t.TempDir(), "command.key")
	code, out, errOut := runCmd(t, "", "tournament", "--gen-key", key)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := mqtt.ParsePublicKey(strings.TrimSpace(out)); err != nil {
		t.Errorf("printed %q: %v", out, err)
	}
	if _, err := mqtt.ReadPrivateKey(key); err != nil {
		t.Error(err)
	}
	if code, _, _ := runCmd(t, "", "tournament", "--gen-key", key); code == 0 {
		t.Error("--gen-key overwrote a key")
	}
	code, _, errOut = runCmd(t, "", "tournament")
	if code == 0 || !strings.Contains(errOut, "--broker") {
		t.Errorf("no broker: exit %d %s", code, errOut)
	}
}

// A board refereeing a corpus clip (video, the whole pipeline) publishes
// what its journal holds. Under BOARDCAM_E2E (CI sets it) as the other
// clip runs: the smallest clip, a few seconds of analysis.
func TestMQTTCorpusClip(t *testing.T) {
	if os.Getenv("BOARDCAM_E2E") == "" {
		t.Skip("set BOARDCAM_E2E=1 to run a corpus clip through boardcam run with MQTT")
	}
	const dir, name = "../../testdata/videos", "single-pocket"
	tp, err := corpus.FindTruth(dir, name)
	if err != nil {
		t.Skip("the corpus clip is not rendered")
	}
	truth, err := corpus.ReadTruth(tp)
	if err != nil {
		t.Fatal(err)
	}
	lenses, err := corpus.ReadLensIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := newClipRun(dir, filepath.Join(dir, name+".mp4"), name, truth, lenses, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.cleanup()
	b := startBroker(t, false)
	sub := mqtttest.Subscribe(t, b.URL(), "view", viewPass, "view-1", "#")
	args := append(append([]string{"run"}, c.Args...), "--no-pace", "--listen", "", "--journal-dir", t.TempDir(),
		"--config", boardConfig(t, b.URL(), ""), "--no-evidence")
	code, out, errOut := runCmd(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, want := journalState(t, out)
	checkSubscriber(t, sub, want, true)
	evs, _ := mqtttest.Events(sub.Messages(), testPrefix)
	strokes := 0
	for _, e := range evs {
		if e.Type == "stroke" {
			strokes++
		}
	}
	if strokes == 0 {
		t.Errorf("no stroke published: %d events", len(evs))
	}
}
