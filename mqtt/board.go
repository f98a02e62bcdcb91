package mqtt

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
)

// Board publishes one board's match to the broker and takes the chief
// referee's signed commands from it: the `mqtt:` section of `boardcam run`.
//
//	b := &mqtt.Board{Config: cfg, Logger: log, Source: d, Commands: d}
//	if err := b.Initialize(); err != nil { … }
//	defer b.Close()
//	d.Publishers = append(d.Publishers, b) // every message the daemon publishes
//
// Publish writes each event message to the spool (the outbox) and returns;
// a goroutine publishes the spool in order with QoS 1 whenever the broker
// is reachable. Nothing waits for the network.
type Board struct {
	Config Config
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Source gives the snapshot the board publishes when it starts and
	// names the match (its journal); Commands carries out the commands.
	Source   Source
	Commands web.CommandSink
	// Registerer, when set, gets the board's metrics.
	Registerer prometheus.Registerer

	spool   *spool
	pub     ed25519.PublicKey
	cm      *autopaho.ConnectionManager
	cancel  context.CancelFunc
	wake    chan struct{}
	done    chan struct{}
	cmdq    chan Envelope
	cmdDone chan struct{}
	metrics *boardMetrics
	started time.Time

	mu        sync.Mutex
	match     string
	snap      web.Snapshot
	snapSeq   uint64 // the seq of the last event folded into snap
	snapSent  string // match/seq of the snapshot last retained
	health    Health
	healthOut bool // health changed since it was last published
	up        bool
	connCtx   context.Context // ends when the connection drops
	connDown  context.CancelFunc
	upEvent   bool // a new connection: health and discovery to publish
	seen      map[string]time.Time
	closed    atomic.Bool
}

// Source is what the board needs of the daemon (one small adapter,
// cmd/boardcam/run_mqtt.go).
type Source interface {
	// Snapshot is the match as it is now.
	Snapshot() web.Snapshot
	// MatchID names the match in play (its journal file's name): the
	// sequence numbers count within it.
	MatchID() string
}

// Initialize checks the configuration, opens the spool and starts
// connecting (in the background: a broker down at start is no error).
func (b *Board) Initialize() error {
	if b.Now == nil {
		b.Now = time.Now
	}
	if b.Logger == nil {
		b.Logger = slog.New(slog.DiscardHandler)
	}
	if err := b.Config.Check(true); err != nil {
		return err
	}
	if b.Config.Spool == "" {
		return errors.New("mqtt: no spool directory")
	}
	if b.Config.CommandKey != "" {
		pub, err := ParsePublicKey(b.Config.CommandKey)
		if err != nil {
			return err
		}
		b.pub = pub
	}
	sp, err := openSpool(b.Config.Spool)
	if err != nil {
		return err
	}
	b.spool = sp
	b.metrics = newBoardMetrics(b.Registerer)
	b.wake = make(chan struct{}, 1)
	b.done = make(chan struct{})
	b.cmdq = make(chan Envelope, 16)
	b.cmdDone = make(chan struct{})
	b.seen = map[string]time.Time{}
	b.started = b.Now()
	b.health = Health{Status: Online, Name: b.Config.Name}
	if n := sp.pending(); n > 0 {
		b.Logger.Info("mqtt: events from before the restart wait for the broker", "count", n)
	}

	// The match as the journal has it: a snapshot event starts this
	// process's stream, so a subscriber's last state equals the journal
	// whatever was lost in a crash.
	b.match = b.Source.MatchID()
	b.snap = b.Source.Snapshot()
	if err := b.spoolMsg(b.snap); err != nil {
		sp.close()
		return err
	}
	sp.prune(b.match)

	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	will, _ := json.Marshal(b.envelope(TypeHealth, Health{Status: Offline, Name: b.Config.Name, Since: b.Now()}))
	cm, err := Connect(ctx, b.Config, ConnOptions{
		ClientID:    b.Config.ClientID,
		WillTopic:   b.Config.Prefix + TopicHealth,
		WillPayload: will,
		OnUp:        b.onUp,
		OnDown:      b.onDown,
		OnError: func(err error) {
			b.metrics.connectErrors.Inc()
			b.Logger.Warn("mqtt: cannot connect", "broker", b.Config.Broker, "err", Explain(err))
		},
		OnMessage: b.onMessage,
	})
	if err != nil {
		cancel()
		sp.close()
		return fmt.Errorf("mqtt: %w", err)
	}
	b.cm = cm
	go b.sendLoop(ctx)
	go b.commandLoop(ctx)
	return nil
}

// Publish implements the daemon's Publisher: event messages go to the
// spool, the camera's and the analysis's status to the health topic,
// pieces nowhere (the websocket has them).
func (b *Board) Publish(m web.Message) error {
	if b.closed.Load() {
		return nil
	}
	switch v := m.(type) {
	case web.Camera:
		b.setHealth(func(h *Health) {
			h.Camera = v.Status
			if v.Status != web.CameraOK {
				h.Message = v.Message
			} else {
				h.Message = ""
			}
		})
		return nil
	case web.Analysis:
		b.setHealth(func(h *Health) { h.Analysis = v.Status })
		return nil
	case web.Pieces, web.Replay:
		return nil
	case web.Media:
		// The evidence's still and clip: absolute URLs on the board's
		// web server, so that any subscriber can fetch them.
		if base := strings.TrimSuffix(b.Config.PublicURL, "/"); base != "" {
			if strings.HasPrefix(v.Still, "/") {
				v.Still = base + v.Still
			}
			if strings.HasPrefix(v.Clip, "/") {
				v.Clip = base + v.Clip
			}
		}
		m = v
	case web.Calibration:
		b.setHealth(func(h *Health) { h.Calibration = v.Status })
	case web.Snapshot:
		// A new match (or the journal replayed): its own numbering.
		b.mu.Lock()
		b.match = b.Source.MatchID()
		b.mu.Unlock()
	}
	if err := b.spoolMsg(m); err != nil {
		b.metrics.spoolErrors.Inc()
		return err
	}
	b.signal()
	return nil
}

// spoolMsg folds m into the snapshot and writes it to the spool.
func (b *Board) spoolMsg(m web.Message) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch v := m.(type) {
	case web.Snapshot:
		v.Events, v.Profiles, v.You, v.Server = nil, nil, nil, nil
		b.snap = v
		m = v
	case web.StateUpdate:
		prev := b.snap.State
		b.snap.State = rules.State(v)
		defer b.results(prev, rules.State(v))
	case web.Calibration:
		b.snap.Calibration = v
	case web.Pending:
		b.snap.Pending = append(b.snap.Pending, v)
	case web.Decided:
		for i, p := range b.snap.Pending {
			if p.ID == v.ID {
				b.snap.Pending = append(b.snap.Pending[:i:i], b.snap.Pending[i+1:]...)
				break
			}
		}
	}
	e := b.envelope(m.MessageType(), m)
	if err := b.spool.add(&e); err != nil {
		return err
	}
	b.snapSeq = e.Seq
	b.metrics.spooled.Inc()
	return nil
}

// Results derived from the state, for subscribers that want only them
// (Home Assistant automations, a streamer's graphics).
const (
	TypeBoardResult = "board_result" // BoardResult: a board of the match finished
	TypeMatchResult = "match_result" // MatchResult: the match is over
)

// BoardResult is the data of a board_result event.
type BoardResult struct {
	rules.BoardResult
	// WinnerName is the winning team's name ("" for a board replayed).
	WinnerName string `json:"winner_name,omitempty"`
}

// MatchResult is the data of a match_result event.
type MatchResult struct {
	Winner     int                `json:"winner"`
	WinnerName string             `json:"winner_name,omitempty"`
	Teams      [2]rules.TeamState `json:"teams"`
	Boards     int                `json:"boards"`
	Ended      *rules.MatchEnd    `json:"ended,omitempty"`
}

// results spools a board_result for each board that finished between
// prev and st, and a match_result when the match ended (b.mu held, after
// the state message itself).
func (b *Board) results(prev, st rules.State) {
	name := func(team int) string {
		if team >= 0 && team < len(st.Teams) {
			return st.Teams[team].Name
		}
		return ""
	}
	var out []Envelope
	if len(st.Boards) > len(prev.Boards) && prev.Profile != "" {
		for _, r := range st.Boards[len(prev.Boards):] {
			out = append(out, b.envelope(TypeBoardResult, BoardResult{BoardResult: r, WinnerName: name(r.Winner)}))
		}
	}
	if st.MatchOver && !prev.MatchOver && prev.Profile != "" {
		out = append(out, b.envelope(TypeMatchResult, MatchResult{Winner: st.Winner, WinnerName: name(st.Winner), Teams: st.Teams, Boards: len(st.Boards), Ended: st.Ended}))
	}
	for i := range out {
		if err := b.spool.add(&out[i]); err != nil {
			b.metrics.spoolErrors.Inc()
			continue
		}
		b.snapSeq = out[i].Seq
		b.metrics.spooled.Inc()
	}
}

func (b *Board) envelope(typ string, data any) Envelope {
	raw, _ := json.Marshal(data)
	return Envelope{V: ProtocolVersion, Type: typ, Board: b.Config.BoardID(), Match: b.match, T: b.Now().UTC(), Data: raw}
}

func (b *Board) setHealth(f func(*Health)) {
	b.mu.Lock()
	old := b.health
	f(&b.health)
	if b.health != old {
		b.healthOut = true
	}
	b.mu.Unlock()
	b.signal()
}

func (b *Board) signal() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

func (b *Board) onUp(cm *autopaho.ConnectionManager) {
	b.mu.Lock()
	b.up, b.upEvent = true, true
	b.connCtx, b.connDown = context.WithCancel(context.Background())
	b.mu.Unlock()
	b.metrics.connected.Set(1)
	b.metrics.connects.Inc()
	b.Logger.Info("mqtt: connected", "broker", b.Config.Broker, "unsent", b.spool.pending())
	b.signal()
}

func (b *Board) onDown() {
	b.mu.Lock()
	b.up = false
	if b.connDown != nil {
		b.connDown() // a publish waiting for its acknowledgement gives up now
	}
	b.mu.Unlock()
	b.metrics.connected.Set(0)
	b.Logger.Warn("mqtt: connection lost; events wait in the spool", "broker", b.Config.Broker)
}

// sendLoop publishes the spool in order: one event at a time, the next
// only after the broker acknowledged it (QoS 1), so that a reconnect
// resumes exactly at the first event the broker may not have.
func (b *Board) sendLoop(ctx context.Context) {
	defer close(b.done)
	for {
		b.mu.Lock()
		up, upEvent := b.up, b.upEvent
		b.upEvent = false
		b.mu.Unlock()
		if up && upEvent {
			b.announce(ctx)
		}
		progressed := false
		if up {
			progressed = b.drain(ctx)
		}
		if up {
			b.publishState(ctx)
		}
		if progressed {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-b.wake:
		case <-time.After(time.Second):
		}
	}
}

// publishContext bounds one publish: 10 s, the end of ctx, or the
// connection dropping, whichever comes first.
func (b *Board) publishContext(ctx context.Context) (context.Context, context.CancelFunc) {
	b.mu.Lock()
	conn := b.connCtx
	b.mu.Unlock()
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	if conn == nil {
		return pctx, cancel
	}
	stop := context.AfterFunc(conn, cancel)
	return pctx, func() { stop(); cancel() }
}

// drain publishes what waits; it returns true when it sent something.
func (b *Board) drain(ctx context.Context) bool {
	sent := false
	synced := false
	for {
		q, ok := b.spool.head()
		if !ok {
			b.metrics.unsent.Set(0)
			return sent
		}
		if !synced {
			b.spool.sync()
			synced = true
		}
		b.metrics.unsent.Set(float64(b.spool.pending()))
		pctx, cancel := b.publishContext(ctx)
		_, err := b.cm.Publish(pctx, &paho.Publish{Topic: b.Config.Prefix + TopicEvents, QoS: 1, Payload: q.payload})
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				b.metrics.publishErrors.Inc()
				b.Logger.Debug("mqtt: publish failed; kept for the next try", "seq", q.seq, "err", err)
				select {
				case <-ctx.Done():
				case <-time.After(200 * time.Millisecond):
				}
			}
			return sent
		}
		if err := b.spool.ack(q); err != nil {
			b.metrics.spoolErrors.Inc()
			b.Logger.Warn("mqtt: spool", "err", err)
		}
		b.metrics.published.Inc()
		sent = true
	}
}

// publishState publishes the retained snapshot once every event it
// includes was acknowledged, and the health when it changed.
func (b *Board) publishState(ctx context.Context) {
	b.mu.Lock()
	var snap []byte
	key := fmt.Sprintf("%s/%d", b.match, b.snapSeq)
	if b.snapSent != key && b.spool.lastSeq(b.match) == b.snapSeq && b.spool.pending() == 0 {
		e := b.envelope(web.TypeSnapshot, b.snap)
		e.Seq = b.snapSeq
		snap, _ = json.Marshal(e)
	}
	var health []byte
	if b.healthOut {
		h := b.health
		h.Since = b.started
		h.Unsent = b.spool.pending()
		health, _ = json.Marshal(b.envelope(TypeHealth, h))
	}
	b.mu.Unlock()
	if snap != nil && b.retain(ctx, TopicSnapshot, snap) {
		b.mu.Lock()
		b.snapSent = key
		b.mu.Unlock()
	}
	if health != nil && b.retain(ctx, TopicHealth, health) {
		b.mu.Lock()
		b.healthOut = false
		b.mu.Unlock()
	}
}

// retain publishes a retained message on the board's topic suffix, or
// on topic itself when full.
func (b *Board) retain(ctx context.Context, topic string, payload []byte, full ...bool) bool {
	if len(full) == 0 {
		topic = b.Config.Prefix + topic
	}
	pctx, cancel := b.publishContext(ctx)
	defer cancel()
	_, err := b.cm.Publish(pctx, &paho.Publish{Topic: topic, QoS: 1, Retain: true, Payload: payload})
	if err != nil {
		b.metrics.publishErrors.Inc()
		return false
	}
	return true
}

// announce runs on every new connection: subscribe to commands, publish
// the health and Home Assistant's discovery.
func (b *Board) announce(ctx context.Context) {
	b.mu.Lock()
	b.healthOut = true
	b.mu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := b.cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{
		{Topic: b.Config.Prefix + TopicCommand, QoS: 1},
	}}); err != nil {
		b.Logger.Warn("mqtt: cannot subscribe to commands", "err", err)
	}
	if b.Config.HomeAssistant != "off" {
		for _, d := range Discovery(b.Config) {
			b.retain(ctx, d.Topic, d.Payload, true)
		}
	}
}

// Close publishes the health "offline", disconnects and closes the spool.
// What was not published stays in the spool for the next start.
func (b *Board) Close() {
	if b.closed.Swap(true) || b.cm == nil {
		return
	}
	// What waits gets a moment to reach the broker (a video that ends
	// closes the board at once); what does not stays in the spool for the
	// next start.
	for deadline := time.Now().Add(b.Config.DrainTimeout); !b.settled() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if n := b.spool.pending(); n > 0 {
		b.Logger.Warn("mqtt: events not yet published stay in the spool for the next start", "count", n, "spool", b.Config.Spool)
	}
	b.mu.Lock()
	up := b.up
	b.mu.Unlock()
	if up {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		off, _ := json.Marshal(b.envelope(TypeHealth, Health{Status: Offline, Name: b.Config.Name, Since: b.Now()}))
		b.cm.Publish(ctx, &paho.Publish{Topic: b.Config.Prefix + TopicHealth, QoS: 1, Retain: true, Payload: off})
		b.cm.Disconnect(ctx)
		cancel()
	}
	b.cancel()
	<-b.done
	<-b.cmdDone
	b.spool.sync()
	b.spool.close()
}

// settled reports whether everything was published: the events and the
// retained snapshot.
func (b *Board) settled() bool {
	if b.spool.pending() > 0 {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.snapSent == fmt.Sprintf("%s/%d", b.match, b.snapSeq)
}

// Unsent is how many events wait for the broker.
func (b *Board) Unsent() int { return b.spool.pending() }

// Connected reports whether the board is connected to the broker now.
func (b *Board) Connected() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.up
}
