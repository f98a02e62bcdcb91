package tournament

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/boardcam/boardcam/mqtt"
)

// Config is the tournament view's configuration (`boardcam tournament`,
// deploy/tournament.example.yaml).
type Config struct {
	// MQTT is the broker connection (broker, username, password, ca,
	// cert, key); its Prefix is not used.
	MQTT mqtt.Config `yaml:"mqtt"`
	// Topics is the filter of the boards' topics (default "boardcam/#":
	// every club and board under boardcam/).
	Topics string `yaml:"topics"`
	// Listen is the web server's address (default ":8090").
	Listen string `yaml:"listen"`
	// ChiefHash is the chief referee's password hash (`boardcam passwd`);
	// empty: nobody can log in, the view only shows.
	ChiefHash string `yaml:"chief_hash"`
	// CommandKey is the private key file that signs the chief referee's
	// commands (`boardcam tournament --gen-key FILE`); the boards have its
	// public key. Empty: no commands.
	CommandKey string `yaml:"command_key"`
	// Session is how long a chief referee's login lasts (default 4h).
	Session time.Duration `yaml:"session"`
	// CommandTimeout is how long a command waits for the board's answer
	// (default 8s).
	CommandTimeout time.Duration `yaml:"command_timeout"`
}

// View is `boardcam tournament`: it subscribes to every board on the
// broker and serves the tournament page (/), the OBS page (/obs) and the
// chief referee's page (/chief), all fed by one websocket (/ws).
//
//	v := &tournament.View{Config: cfg, Logger: log}
//	if err := v.Initialize(); err != nil { … }
//	defer v.Close()
type View struct {
	Config Config
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time

	key     ed25519.PrivateKey
	boards  boards
	hub     *hub
	auth    *auth
	cm      *autopaho.ConnectionManager
	cancel  context.CancelFunc
	srv     *http.Server
	ln      net.Listener
	reg     *prometheus.Registry
	metrics *viewMetrics

	mu      sync.Mutex
	onAir   string
	replies map[string]chan mqtt.Envelope
	up      bool
}

// Initialize checks the configuration, starts connecting to the broker
// (in the background) and starts the web server.
func (v *View) Initialize() error {
	if v.Now == nil {
		v.Now = time.Now
	}
	if v.Logger == nil {
		v.Logger = slog.New(slog.DiscardHandler)
	}
	c := &v.Config
	if err := c.MQTT.Check(false); err != nil {
		return err
	}
	if c.Topics == "" {
		c.Topics = "boardcam/#"
	}
	if c.Listen == "" {
		c.Listen = ":8090"
	}
	if c.Session <= 0 {
		c.Session = 4 * time.Hour
	}
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = 8 * time.Second
	}
	if c.MQTT.ClientID == "" {
		c.MQTT.ClientID = fmt.Sprintf("boardcam-tournament-%d", v.Now().UnixNano()%1e9)
	}
	if c.CommandKey != "" {
		k, err := mqtt.ReadPrivateKey(c.CommandKey)
		if err != nil {
			return err
		}
		v.key = k
	}
	v.boards.m = map[string]*Board{}
	v.replies = map[string]chan mqtt.Envelope{}
	v.reg = prometheus.NewRegistry()
	v.metrics = newViewMetrics(v.reg)
	v.hub = newHub(v.metrics)
	v.auth = newAuth(c.ChiefHash, c.Session, v.Now)

	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return fmt.Errorf("tournament: %w", err)
	}
	v.ln = ln
	ctx, cancel := context.WithCancel(context.Background())
	v.cancel = cancel
	cm, err := mqtt.Connect(ctx, c.MQTT, mqtt.ConnOptions{
		ClientID: c.MQTT.ClientID,
		OnUp:     v.onUp,
		OnDown:   func() { v.setUp(false); v.Logger.Warn("tournament: connection to the broker lost") },
		OnError: func(err error) {
			v.Logger.Warn("tournament: cannot connect", "broker", c.MQTT.Broker, "err", mqtt.Explain(err))
		},
		OnMessage: v.onMessage,
	})
	if err != nil {
		cancel()
		ln.Close()
		return fmt.Errorf("tournament: %w", err)
	}
	v.cm = cm
	v.srv = &http.Server{Handler: v.routes(), ReadHeaderTimeout: 10 * time.Second}
	go v.srv.Serve(ln)
	return nil
}

// Addr is the web server's address.
func (v *View) Addr() string { return v.ln.Addr().String() }

// Close stops the web server and disconnects.
func (v *View) Close() {
	if v.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	v.hub.close()
	v.srv.Shutdown(ctx)
	v.cm.Disconnect(ctx)
	v.cancel()
}

func (v *View) setUp(up bool) {
	v.mu.Lock()
	v.up = up
	v.mu.Unlock()
	if up {
		v.metrics.connected.Set(1)
	} else {
		v.metrics.connected.Set(0)
	}
}

func (v *View) onUp(cm *autopaho.ConnectionManager) {
	v.setUp(true)
	v.Logger.Info("tournament: connected", "broker", v.Config.MQTT.Broker, "topics", v.Config.Topics)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: v.Config.Topics, QoS: 1}}}); err != nil {
			v.Logger.Warn("tournament: cannot subscribe", "topics", v.Config.Topics, "err", err)
		}
	}()
}

// onMessage folds one board message and forwards it to the pages. A
// payload that is too large, not JSON, of another version, or on a topic
// that is no board's is refused and counted; nothing it holds is used.
func (v *View) onMessage(p paho.PublishReceived) {
	id, suffix, ok := mqtt.SplitTopic(p.Packet.Topic)
	if !ok {
		v.metrics.rejected.WithLabelValues("topic").Inc()
		return
	}
	switch suffix {
	case mqtt.TopicEvents, mqtt.TopicSnapshot, mqtt.TopicHealth, mqtt.TopicReply:
	case mqtt.TopicCommand:
		return // the chief's own commands, and anyone else's: not for the view
	default:
		v.metrics.rejected.WithLabelValues("topic").Inc()
		return
	}
	e, err := mqtt.Decode(p.Packet.Payload, mqtt.MaxPayload)
	if err != nil {
		reason := "malformed"
		var de *mqtt.DecodeError
		if errors.As(err, &de) {
			reason = de.Reason
		}
		v.metrics.rejected.WithLabelValues(reason).Inc()
		v.Logger.Debug("tournament: payload refused", "topic", p.Packet.Topic, "err", err)
		return
	}
	if e.Board != id {
		v.metrics.rejected.WithLabelValues("board").Inc()
		return
	}
	if suffix == mqtt.TopicReply {
		v.mu.Lock()
		ch := v.replies[e.ID]
		v.mu.Unlock()
		if ch != nil {
			select {
			case ch <- e:
			default:
			}
		}
		return
	}
	res, err := v.boards.apply(id, suffix, e)
	if err != nil {
		v.metrics.rejected.WithLabelValues("malformed").Inc()
		return
	}
	v.metrics.received.WithLabelValues(suffix, result(res)).Inc()
	if res != applied {
		return
	}
	msg, _ := json.Marshal(pageMessage{Type: "event", Board: id, Topic: suffix, Env: &e})
	v.hub.broadcast(msg)
}

func result(o outcome) string {
	switch o {
	case duplicate:
		return "duplicate"
	case stale:
		return "stale"
	case otherMatch:
		return "other_match"
	}
	return "applied"
}

// pageMessage is what the view's websocket sends:
//
//	{"type":"boards","boards":[Board…],"on_air":"club/board1"}   on connect
//	{"type":"event","board":"club/board1","topic":"events","env":{…}}  a board's message, as published
//	{"type":"on_air","on_air":"club/board2"}                    the producer's choice changed
type pageMessage struct {
	Type   string          `json:"type"`
	Board  string          `json:"board,omitempty"`
	Topic  string          `json:"topic,omitempty"`
	Env    *mqtt.Envelope  `json:"env,omitempty"`
	Boards json.RawMessage `json:"boards,omitempty"`
	OnAir  *string         `json:"on_air,omitempty"`
}

type viewMetrics struct {
	connected prometheus.Gauge
	received  *prometheus.CounterVec
	rejected  *prometheus.CounterVec
	clients   prometheus.Gauge
	dropped   prometheus.Counter
	logins    *prometheus.CounterVec
	commands  *prometheus.CounterVec
}

func newViewMetrics(r prometheus.Registerer) *viewMetrics {
	m := &viewMetrics{
		connected: prometheus.NewGauge(prometheus.GaugeOpts{Name: "boardcam_tournament_connected", Help: "1 while connected to the broker."}),
		received:  prometheus.NewCounterVec(prometheus.CounterOpts{Name: "boardcam_tournament_messages_total", Help: "Board messages received, by topic and result (applied, duplicate, stale, other_match)."}, []string{"topic", "result"}),
		rejected:  prometheus.NewCounterVec(prometheus.CounterOpts{Name: "boardcam_tournament_rejected_total", Help: "Payloads refused, by reason (oversized, malformed, version, topic, board)."}, []string{"reason"}),
		clients:   prometheus.NewGauge(prometheus.GaugeOpts{Name: "boardcam_tournament_ws_clients", Help: "Pages connected."}),
		dropped:   prometheus.NewCounter(prometheus.CounterOpts{Name: "boardcam_tournament_ws_dropped_total", Help: "Pages disconnected for being too slow."}),
		logins:    prometheus.NewCounterVec(prometheus.CounterOpts{Name: "boardcam_tournament_logins_total", Help: "Chief referee logins, by result."}, []string{"result"}),
		commands:  prometheus.NewCounterVec(prometheus.CounterOpts{Name: "boardcam_tournament_commands_total", Help: "Commands relayed to boards, by result."}, []string{"result"}),
	}
	r.MustRegister(m.connected, m.received, m.rejected, m.clients, m.dropped, m.logins, m.commands)
	return m
}

func (v *View) metricsHandler() http.Handler {
	return promhttp.HandlerFor(v.reg, promhttp.HandlerOpts{})
}
