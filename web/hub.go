package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// hub fans published messages out to the websocket clients, in the style of
// the gorilla/websocket chat example: every client has a buffered send
// queue drained by its own write goroutine; Publish puts each message on
// every queue without waiting, and a client whose queue is full is dropped.
// Publish is therefore O(clients) and never blocks on the network.
//
// The hub also keeps the fold of everything published (the view), so the
// snapshot a client gets on connect is exactly the state after message seq,
// and the client's queue holds exactly the messages after it.
type hub struct {
	cfg     *Config
	metrics *Metrics

	mu      sync.Mutex
	seq     uint64
	clients map[*client]struct{}
	closed  bool

	// The view: the latest data of each kind, as marshalled JSON (never
	// modified once stored, so it may be read after the lock is released).
	state, profile, profiles, calibration, camera, analysis, pieces json.RawMessage
	pending                                                         []pendingEntry
	recent                                                          [][]byte // envelopes, oldest first
	// Typed copies for the preview and /healthz.
	cal         Calibration
	cam         Camera
	pcs         Pieces
	lastFoul    *Foul
	profileInfo ProfileInfo

	piecesSent  time.Time
	piecesDirty bool
}

type pendingEntry struct {
	id  string
	raw json.RawMessage
}

func newHub(cfg *Config, m *Metrics) *hub {
	return &hub{cfg: cfg, metrics: m, clients: map[*client]struct{}{}}
}

// errClosed is returned by Publish after Close.
var errClosed = errors.New("web: server closed")

// publish marshals m and hands it to every client without blocking.
func (h *hub) publish(m Message) error {
	if m == nil {
		return errors.New("web: publish: nil message")
	}
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("web: publish %s: %w", m.MessageType(), err)
	}
	if len(data) > h.cfg.MaxPublishSize {
		return fmt.Errorf("web: publish %s: %d bytes exceeds the %d-byte limit", m.MessageType(), len(data), h.cfg.MaxPublishSize)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return errClosed
	}
	switch v := m.(type) {
	case Snapshot:
		h.loadLocked(v)
		h.broadcastLocked(TypeSnapshot, h.snapshotLocked(nil))
		return nil
	case *Snapshot:
		h.loadLocked(*v)
		h.broadcastLocked(TypeSnapshot, h.snapshotLocked(nil))
		return nil
	case Pieces:
		h.pieces, h.pcs = data, v
		now := h.cfg.Clock.Now()
		if h.piecesSent.IsZero() || now.Sub(h.piecesSent) >= h.cfg.PiecesInterval {
			h.piecesSent, h.piecesDirty = now, false
			h.broadcastLocked(TypePieces, data)
		} else {
			h.piecesDirty = true
		}
		return nil
	case StateUpdate:
		h.state = data
	case Calibration:
		h.calibration, h.cal = data, v
	case Camera:
		h.camera, h.cam = data, v
	case Analysis:
		h.analysis = data
	case Stroke:
		h.lastFoul = nil // a new stroke: the preview stops showing the old foul
	case Foul:
		f := v
		h.lastFoul = &f
	case Pending:
		h.setPendingLocked(v.ID, data)
		if len(v.Fouls) > 0 {
			f := v.Fouls[0]
			f.Pending = v.ID
			h.lastFoul = &f // the preview shows what the umpire must judge
		}
	case Decided:
		h.removePendingLocked(v.ID)
		if h.lastFoul != nil && h.lastFoul.Pending == v.ID {
			h.lastFoul = nil
		}
	case Notice, Replay:
	case Media:
		h.setPendingMediaLocked(v)
	default:
		return fmt.Errorf("web: publish: unsupported message type %T", m)
	}
	h.broadcastLocked(m.MessageType(), data)
	return nil
}

// flushPieces sends the latest held-back pieces message, if any; the
// server calls it every PiecesInterval.
func (h *hub) flushPieces() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || !h.piecesDirty {
		return
	}
	h.piecesSent, h.piecesDirty = h.cfg.Clock.Now(), false
	h.broadcastLocked(TypePieces, h.pieces)
}

func (h *hub) setPendingLocked(id string, raw json.RawMessage) {
	for i := range h.pending {
		if h.pending[i].id == id {
			h.pending[i].raw = raw
			return
		}
	}
	h.pending = append(h.pending, pendingEntry{id, raw})
}

// setPendingMediaLocked puts the evidence into its pending decision, so
// that a console connecting later sees the still.
func (h *hub) setPendingMediaLocked(m Media) {
	for i := range h.pending {
		if h.pending[i].id != m.ID {
			continue
		}
		var p Pending
		if json.Unmarshal(h.pending[i].raw, &p) != nil {
			return
		}
		p.Media = &m
		if raw, err := json.Marshal(p); err == nil {
			h.pending[i].raw = raw
		}
		return
	}
}

func (h *hub) removePendingLocked(id string) {
	for i := range h.pending {
		if h.pending[i].id == id {
			h.pending = append(h.pending[:i:i], h.pending[i+1:]...)
			return
		}
	}
}

// loadLocked replaces the view with a snapshot from the daemon (the recent
// events are kept: they are the hub's own).
func (h *hub) loadLocked(s Snapshot) {
	mustRaw := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			// The types are plain data; only NaN or Inf in a float can
			// fail, and those are the daemon's bug: show null, not stale data.
			return json.RawMessage("null")
		}
		return b
	}
	if s.Profiles == nil {
		s.Profiles = []ProfileInfo{}
	}
	if s.Pieces.Pieces == nil {
		s.Pieces.Pieces = []Piece{}
	}
	h.state = mustRaw(s.State)
	h.profile, h.profileInfo = mustRaw(s.Profile), s.Profile
	h.profiles = mustRaw(s.Profiles)
	h.calibration, h.cal = mustRaw(s.Calibration), s.Calibration
	h.camera, h.cam = mustRaw(s.Camera), s.Camera
	if s.Analysis.Status == "" {
		s.Analysis.Status = AnalysisOK
	}
	h.analysis = mustRaw(s.Analysis)
	h.pieces, h.pcs = mustRaw(s.Pieces), s.Pieces
	h.piecesDirty = false
	h.pending = h.pending[:0:0]
	h.lastFoul = nil
	for _, p := range s.Pending {
		h.pending = append(h.pending, pendingEntry{p.ID, mustRaw(p)})
		if len(p.Fouls) > 0 {
			f := p.Fouls[0]
			f.Pending = p.ID
			h.lastFoul = &f
		}
	}
}

// snapshotWire is Snapshot assembled from the stored JSON.
type snapshotWire struct {
	State       json.RawMessage   `json:"state"`
	Profile     json.RawMessage   `json:"profile"`
	Profiles    json.RawMessage   `json:"profiles"`
	Calibration json.RawMessage   `json:"calibration"`
	Camera      json.RawMessage   `json:"camera"`
	Analysis    json.RawMessage   `json:"analysis"`
	Pieces      json.RawMessage   `json:"pieces"`
	Pending     []json.RawMessage `json:"pending"`
	Events      []json.RawMessage `json:"events"`
	Server      ServerInfo        `json:"server"`
	You         *Peer             `json:"you,omitempty"`
}

var serverInfo = ServerInfo{Name: "boardcam", Protocol: []int{ProtocolVersion}}

// snapshotPartsLocked captures the view; the parts are immutable.
func (h *hub) snapshotPartsLocked() snapshotWire {
	w := snapshotWire{
		State: h.state, Profile: h.profile, Profiles: h.profiles,
		Calibration: h.calibration, Camera: h.camera, Analysis: h.analysis, Pieces: h.pieces,
		Pending: make([]json.RawMessage, len(h.pending)),
		Events:  make([]json.RawMessage, len(h.recent)),
		Server:  serverInfo,
	}
	for i, p := range h.pending {
		w.Pending[i] = p.raw
	}
	for i, e := range h.recent {
		w.Events[i] = e
	}
	return w
}

func (h *hub) snapshotLocked(you *Peer) []byte {
	w := h.snapshotPartsLocked()
	w.You = you
	b, err := json.Marshal(w)
	if err != nil {
		panic("web: snapshot: " + err.Error()) // every part is valid JSON we marshalled
	}
	return b
}

// isHistory reports whether messages of type t go to the snapshot's event
// list.
func isHistory(t string) bool {
	switch t {
	case TypeStroke, TypeFoul, TypePending, TypeDecided, TypeCalibration, TypeCamera, TypeNotice, TypeEvidence:
		return true
	}
	return false
}

func (h *hub) broadcastLocked(typ string, data []byte) {
	h.seq++
	env := envelope(typ, h.seq, h.cfg.Clock.Now(), "", data)
	if isHistory(typ) {
		if len(h.recent) >= h.cfg.History {
			copy(h.recent, h.recent[1:])
			h.recent = h.recent[:len(h.recent)-1]
		}
		h.recent = append(h.recent, env)
	}
	h.metrics.published(typ)
	for c := range h.clients {
		select {
		case c.send <- env:
		default:
			h.dropLocked(c, websocket.ClosePolicyViolation, "client too slow: message queue full")
		}
	}
}

// envelope assembles a message without re-marshalling data.
func envelope(typ string, seq uint64, t time.Time, id string, data []byte) []byte {
	b := make([]byte, 0, len(data)+len(typ)+len(id)+80)
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, ProtocolVersion, 10)
	b = append(b, `,"type":"`...)
	b = append(b, typ...) // our own constants: no escaping needed
	b = append(b, `","seq":`...)
	b = strconv.AppendUint(b, seq, 10)
	b = append(b, `,"t":"`...)
	b = t.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, '"')
	if id != "" {
		q, _ := json.Marshal(id)
		b = append(b, `,"id":`...)
		b = append(b, q...)
	}
	if data != nil {
		b = append(b, `,"data":`...)
		b = append(b, data...)
	}
	return append(b, '}')
}

// register adds c and returns its snapshot: the view at the current seq.
// Every message broadcast after it goes to c's queue.
func (h *hub) register(c *client) (snapshot []byte, err error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, errClosed
	}
	if len(h.clients) >= h.cfg.MaxClients {
		h.mu.Unlock()
		return nil, errFull
	}
	h.clients[c] = struct{}{}
	seq := h.seq
	parts := h.snapshotPartsLocked()
	n := len(h.clients)
	h.mu.Unlock()
	h.metrics.clients(n)

	// Marshal outside the lock: the parts are immutable, and c's queue
	// collects whatever is broadcast meanwhile.
	parts.You = c.peer()
	b, err := json.Marshal(parts)
	if err != nil {
		panic("web: snapshot: " + err.Error())
	}
	return envelope(TypeSnapshot, seq, h.cfg.Clock.Now(), "", b), nil
}

var errFull = errors.New("web: too many clients")

// unregister removes c after its connection ended.
func (h *hub) unregister(c *client) {
	h.mu.Lock()
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		c.closeCode, c.closeReason = websocket.CloseNormalClosure, ""
		close(c.send)
	}
	n := len(h.clients)
	h.mu.Unlock()
	h.metrics.clients(n)
}

// dropLocked disconnects c without waiting for it: its queue is closed and
// its connection cut in the background.
func (h *hub) dropLocked(c *client, code int, reason string) {
	delete(h.clients, c)
	c.closeCode, c.closeReason = code, reason
	close(c.send)
	h.metrics.droppedClient()
	h.metrics.clients(len(h.clients))
	go c.cut(code, reason, h.cfg.CloseGrace)
}

// sendTo queues a reply for c alone (ack, error, pong); seq 0.
func (h *hub) sendTo(c *client, typ, id string, data []byte) {
	env := envelope(typ, 0, h.cfg.Clock.Now(), id, data)
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.clients[c]; !ok {
		return
	}
	select {
	case c.send <- env:
	default:
		h.dropLocked(c, websocket.ClosePolicyViolation, "client too slow: message queue full")
	}
}

// kick disconnects c with a close code (protocol violations).
func (h *hub) kick(c *client, code int, reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		c.closeCode, c.closeReason = code, reason
		close(c.send)
		h.metrics.clients(len(h.clients))
	}
}

// close disconnects everyone and refuses further publishing.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for c := range h.clients {
		delete(h.clients, c)
		c.closeCode, c.closeReason = websocket.CloseGoingAway, "server shutting down"
		close(c.send)
		go c.cut(websocket.CloseGoingAway, "server shutting down", h.cfg.CloseGrace)
	}
	h.metrics.clients(0)
}

// count is the number of connected clients.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

// viewCopy is what the preview and /healthz read.
type viewCopy struct {
	cal      Calibration
	cam      Camera
	pcs      Pieces
	lastFoul *Foul
	profile  ProfileInfo
	clients  int
	seq      uint64
}

func (h *hub) viewCopy() viewCopy {
	h.mu.Lock()
	defer h.mu.Unlock()
	return viewCopy{cal: h.cal, cam: h.cam, pcs: h.pcs, lastFoul: h.lastFoul, profile: h.profileInfo, clients: len(h.clients), seq: h.seq}
}
