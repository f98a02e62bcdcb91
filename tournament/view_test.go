package tournament

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/mosquittotest"
	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
)

// fakeDaemon is a board's daemon: a snapshot and a command sink that
// records what it is asked.
type fakeDaemon struct {
	mu   sync.Mutex
	cmds []web.Command
}

func (f *fakeDaemon) Snapshot() web.Snapshot {
	return web.Snapshot{
		State:   rules.State{Profile: "icf", Board: 1, Turn: board.S, Players: []rules.Player{{Name: "Asha", Seat: board.S}, {Name: "Ravi", Seat: board.N, Team: 1}}},
		Profile: web.ProfileInfo{Name: "icf", Fouls: []web.FoulCode{{Code: "thumbing"}}},
	}
}
func (f *fakeDaemon) MatchID() string { return "match-1" }
func (f *fakeDaemon) Do(_ context.Context, c web.Command) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cmds = append(f.cmds, c)
	if c.Pending == "p9" {
		return "", fmt.Errorf("no pending decision p9")
	}
	return c.Name + " " + c.Pending, nil
}
func (f *fakeDaemon) commands() []web.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]web.Command(nil), f.cmds...)
}

const prefix = "boardcam/club/board1/"

type rig struct {
	broker *mosquittotest.Broker
	board  *mqtt.Board
	daemon *fakeDaemon
	reg    *prometheus.Registry
	view   *View
	http   *http.Client
	base   string
	key    ed25519.PrivateKey
}

func newRig(t *testing.T) *rig {
	t.Helper()
	r := &rig{broker: mosquittotest.Start(t, mosquittotest.Options{}), daemon: &fakeDaemon{}, reg: prometheus.NewRegistry()}
	dir := t.TempDir()
	priv, pub, err := mqtt.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "command.key")
	os.WriteFile(keyFile, []byte(priv), 0o600)
	r.key, _ = mqtt.ReadPrivateKey(keyFile)
	r.board = &mqtt.Board{
		Config:     mqtt.Config{Broker: r.broker.URL(), Prefix: prefix, Name: "Board 1", Spool: filepath.Join(dir, "spool"), CommandKey: pub, KeepAlive: time.Second, RetryMax: 300 * time.Millisecond},
		Source:     r.daemon,
		Commands:   r.daemon,
		Registerer: r.reg,
	}
	if err := r.board.Initialize(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.board.Close)
	hash, _ := web.HashPasswordIter("chief-pw", 1000)
	r.view = &View{Config: Config{MQTT: mqtt.Config{Broker: r.broker.URL()}, Listen: "127.0.0.1:0", ChiefHash: hash, CommandKey: keyFile}}
	if err := r.view.Initialize(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.view.Close)
	jar, _ := cookiejar.New(nil)
	r.http = &http.Client{Jar: jar, Timeout: 15 * time.Second}
	r.base = "http://" + r.view.Addr()
	return r
}

// ws connects to the view's websocket and returns a reader of its
// messages.
func (r *rig) ws(t *testing.T) (*websocket.Conn, func() pageMessage) {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial("ws://"+r.view.Addr()+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, func() pageMessage {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		var m pageMessage
		_, b, err := c.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(b, &m)
		return m
	}
}

func (r *rig) post(t *testing.T, path, csrf string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", r.base+path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if csrf != "" {
		req.Header.Set("X-CSRF-Token", csrf)
	}
	resp, err := r.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// waitBoard waits until the view's model of the board satisfies ok.
func (r *rig) waitBoard(t *testing.T, ok func(*Board) bool) *Board {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var list []*Board
		json.Unmarshal(r.view.boards.json(), &list)
		for _, b := range list {
			if b.ID == strings.TrimSuffix(prefix, "/") && ok(b) {
				return b
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the view's board never got there: %s", r.view.boards.json())
		}
	}
}

// The view follows a board: its snapshot, events and health; a page's
// websocket gets them; a pending decision is confirmed by the logged-in
// chief referee through the broker, and the board checks the command.
func TestViewFollowsBoardAndRelaysCommands(t *testing.T) {
	r := newRig(t)
	// The view has subscribed once it has the board's retained messages.
	r.waitBoard(t, func(b *Board) bool { return b.Snapshot != nil && b.Health != nil })
	_, next := r.ws(t)
	if m := next(); m.Type != "boards" {
		t.Fatalf("first message %+v", m)
	}
	st := r.daemon.Snapshot().State
	st.Teams[0].Score = 3
	r.board.Publish(web.StateUpdate(st))
	r.board.Publish(web.Pending{ID: "p1", Summary: "placement?"})
	b := r.waitBoard(t, func(b *Board) bool {
		return b.Snapshot != nil && len(b.Snapshot.Pending) == 1 && b.Health != nil && b.Health.Status == mqtt.Online
	})
	if b.Name != "Board 1" || b.Snapshot.State.Teams[0].Score != 3 || b.Seq != 3 || b.Match != "match-1" {
		t.Errorf("board %+v", b)
	}
	// The page saw the events, in order (the board's first snapshot may
	// have come before the page connected: it was in "boards").
	var types []string
	for len(types) == 0 || types[len(types)-1] != "pending" {
		m := next()
		if m.Type == "event" && m.Topic == mqtt.TopicEvents && m.Env.Type != web.TypeSnapshot {
			types = append(types, m.Env.Type)
		}
	}
	if strings.Join(types, " ") != "state pending" {
		t.Errorf("the page got %v", types)
	}

	// Commands need the chief referee's login.
	if code, _ := r.post(t, "/api/command", "", CommandRequest{Board: "boardcam/club/board1", Command: web.Command{Name: "confirm", Pending: "p1"}}); code != http.StatusUnauthorized {
		t.Errorf("a command without login: %d", code)
	}
	if code, _ := r.post(t, "/api/login", "", map[string]string{"password": "wrong"}); code != http.StatusUnauthorized {
		t.Errorf("a wrong password: %d", code)
	}
	code, out := r.post(t, "/api/login", "", map[string]string{"password": "chief-pw"})
	if code != 200 {
		t.Fatalf("login: %d %v", code, out)
	}
	csrf, _ := out["csrf"].(string)
	if code, _ := r.post(t, "/api/command", "", CommandRequest{Board: "boardcam/club/board1", Command: web.Command{Name: "confirm", Pending: "p1"}}); code != http.StatusUnauthorized {
		t.Errorf("a command without the CSRF token: %d", code)
	}
	code, out = r.post(t, "/api/command", csrf, CommandRequest{Board: "boardcam/club/board1", Command: web.Command{Name: "confirm", Pending: "p1"}})
	if code != 200 || out["message"] != "confirm p1" {
		t.Errorf("confirm: %d %v", code, out)
	}
	// The board refuses what its console would refuse, and says why.
	code, out = r.post(t, "/api/command", csrf, CommandRequest{Board: "boardcam/club/board1", Command: web.Command{Name: "foul", Seat: ptr(board.N), Code: "juggling"}})
	if code != http.StatusUnprocessableEntity || out["code"] != web.ErrInvalidCommand {
		t.Errorf("an unknown foul: %d %v", code, out)
	}
	code, out = r.post(t, "/api/command", csrf, CommandRequest{Board: "boardcam/club/board1", Command: web.Command{Name: "overrule", Pending: "p9"}})
	if code != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(out["error"]), "no pending decision p9") {
		t.Errorf("a command the daemon refuses: %d %v", code, out)
	}
	cmds := r.daemon.commands()
	if len(cmds) != 2 || cmds[0].Name != "confirm" || !strings.Contains(cmds[0].Note, "chief referee") {
		t.Errorf("the daemon got %+v", cmds)
	}
	if got := testutil.ToFloat64(r.view.metrics.logins.WithLabelValues("refused")); got != 1 {
		t.Errorf("refused logins counted %v", got)
	}

	// On air: the OBS page follows the producer's choice.
	if code, _ := r.post(t, "/api/on_air", csrf, map[string]string{"board": "boardcam/club/board1"}); code != 200 {
		t.Errorf("on air: %d", code)
	}
	for {
		if m := next(); m.Type == "on_air" {
			if *m.OnAir != "boardcam/club/board1" {
				t.Errorf("on air %q", *m.OnAir)
			}
			break
		}
	}
	for _, p := range []string{"/", "/obs", "/chief", "/static/tournament.js", "/metrics", "/healthz"} {
		resp, err := r.http.Get(r.base + p)
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("GET %s: %v %v", p, err, resp.StatusCode)
		}
		resp.Body.Close()
	}
}

func ptr[T any](v T) *T { return &v }

// Bad payloads on a board's topics and commands with bad credentials are
// refused and counted; nothing crashes, and the board and the view carry
// on.
func TestBadPayloadsAndForgedCommands(t *testing.T) {
	r := newRig(t)
	r.waitBoard(t, func(b *Board) bool { return b.Snapshot != nil })
	pub := mqtttestPublisher(t, r.broker.URL())
	big := `{"v":1,"type":"state","board":"boardcam/club/board1","seq":99,"data":"` + strings.Repeat("x", mqtt.MaxPayload) + `"}`
	for _, p := range []struct{ topic, payload string }{
		{prefix + "events", "not json"},
		{prefix + "events", big},
		{prefix + "events", `{"v":2,"type":"state","board":"boardcam/club/board1","seq":50}`},
		{prefix + "events", `{"v":1,"type":"state","board":"boardcam/club/other","seq":50}`},
		{prefix + "snapshot", `{"v":1,"type":"snapshot","board":"boardcam/club/board1","seq":60,"data":[1,2]}`},
		{"boardcam/stray", `{}`},
	} {
		pub(p.topic, []byte(p.payload))
	}
	for reason, want := range map[string]float64{"malformed": 2, "oversized": 1, "version": 1, "board": 1, "topic": 1} {
		for deadline := time.Now().Add(5 * time.Second); testutil.ToFloat64(r.view.metrics.rejected.WithLabelValues(reason)) < want && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if got := testutil.ToFloat64(r.view.metrics.rejected.WithLabelValues(reason)); got != want {
			t.Errorf("view rejected %s: %v, want %v", reason, got, want)
		}
	}

	// Commands: unsigned, signed by another key, stale, replayed,
	// malformed, oversized. Only the good one is carried out, once.
	other := ed25519.NewKeyFromSeed(make([]byte, 32))
	cmd := func(id string, at time.Time, key ed25519.PrivateKey) []byte {
		e := mqtt.Envelope{V: 1, Type: "command", Board: "boardcam/club/board1", ID: id, T: at, Data: json.RawMessage(`{"name":"undo"}`)}
		if key != nil {
			mqtt.Sign(&e, prefix+"command", "chief referee", key)
		}
		b, _ := json.Marshal(e)
		return b
	}
	now := time.Now()
	replies := subscribeReplies(t, r.broker.URL())
	pub(prefix+"command", cmd("c1", now, nil))
	pub(prefix+"command", cmd("c2", now, other))
	pub(prefix+"command", cmd("c3", now.Add(-time.Hour), r.key))
	pub(prefix+"command", cmd("c4", now, r.key))
	pub(prefix+"command", cmd("c4", now, r.key))
	pub(prefix+"command", []byte("{"))
	pub(prefix+"command", []byte(`{"v":1,"type":"command","id":"c5","data":"`+strings.Repeat("y", mqtt.MaxCommand)+`"}`))
	// c4 is answered twice: carried out, and refused as a replay.
	want := map[string]string{"c1": "unauthorized", "c2": "unauthorized", "c3": "unauthorized", "c4": "ack unauthorized"}
	got := map[string]string{}
	for deadline := time.Now().Add(10 * time.Second); len(got) < len(want) || len(strings.Fields(got["c4"])) < 2; {
		if time.Now().After(deadline) {
			break
		}
		select {
		case e := <-replies:
			code := "ack"
			if e.Type != web.TypeAck {
				var ed web.ErrorData
				json.Unmarshal(e.Data, &ed)
				code = ed.Code
			}
			f := append(strings.Fields(got[e.ID]), code)
			sort.Strings(f)
			got[e.ID] = strings.Join(f, " ")
		case <-time.After(100 * time.Millisecond):
		}
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("reply to %s: %q, want %q (all: %v)", id, got[id], w, got)
		}
	}
	if cmds := r.daemon.commands(); len(cmds) != 1 || cmds[0].Name != "undo" {
		t.Errorf("the daemon carried out %+v", cmds)
	}
	for reason, w := range map[string]float64{"auth": 2, "stale": 1, "replayed": 1, "malformed": 1, "oversized": 1} {
		for deadline := time.Now().Add(5 * time.Second); counter(r.reg, "boardcam_mqtt_rejected_total", reason) < w && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if g := counter(r.reg, "boardcam_mqtt_rejected_total", reason); g != w {
			t.Errorf("board rejected %s: %v, want %v", reason, g, w)
		}
	}
	// Both still work.
	r.board.Publish(web.Notice{Text: "still here"})
	r.waitBoard(t, func(b *Board) bool { return b.Seq == 2 })
}

func counter(reg *prometheus.Registry, name, reason string) float64 {
	mfs, _ := reg.Gather()
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "reason" && l.GetValue() == reason {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// mqtttestPublisher publishes raw payloads (QoS 1) as an anonymous client.
func mqtttestPublisher(t *testing.T, broker string) func(topic string, payload []byte) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cm, err := mqtt.Connect(ctx, mqtt.Config{Broker: broker, RetryMax: 300 * time.Millisecond, KeepAlive: 5 * time.Second}, mqtt.ConnOptions{ClientID: "raw-" + randID()})
	if err != nil {
		t.Fatal(err)
	}
	if err := cm.AwaitConnection(ctx); err != nil {
		t.Fatal(err)
	}
	return func(topic string, payload []byte) {
		pctx, c := context.WithTimeout(ctx, 5*time.Second)
		defer c()
		if _, err := cm.Publish(pctx, &paho.Publish{Topic: topic, QoS: 1, Payload: payload}); err != nil {
			t.Fatalf("publish %s: %v", topic, err)
		}
	}
}

func subscribeReplies(t *testing.T, broker string) <-chan mqtt.Envelope {
	t.Helper()
	ch := make(chan mqtt.Envelope, 64)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ready := make(chan struct{}, 1)
	_, err := mqtt.Connect(ctx, mqtt.Config{Broker: broker, RetryMax: 300 * time.Millisecond, KeepAlive: 5 * time.Second}, mqtt.ConnOptions{
		ClientID: "replies-" + randID(),
		OnUp: func(cm *autopaho.ConnectionManager) {
			go func() {
				cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: prefix + mqtt.TopicReply, QoS: 1}}})
				ready <- struct{}{}
			}()
		},
		OnMessage: func(p paho.PublishReceived) {
			var e mqtt.Envelope
			json.Unmarshal(p.Packet.Payload, &e)
			ch <- e
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("no subscription to replies")
	}
	return ch
}

func randID() string {
	b := make([]byte, 6)
	rand.Read(b)
	return fmt.Sprintf("%x", b)
}
