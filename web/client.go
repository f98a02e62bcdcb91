package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/websocket"
)

// client is one websocket connection.
type client struct {
	srv  *Server
	conn *websocket.Conn
	// send is the queue the hub fills and writePump drains; the hub closes
	// it (under its lock) when the client is removed.
	send chan []byte
	// closeCode and closeReason are set by the hub before it closes send.
	closeCode   int
	closeReason string

	// sessionKey is the umpire session the connection was opened with;
	// empty for a viewer. The session is looked up again for every
	// command, so logout and expiry take effect at once.
	sessionKey string
	expires    time.Time
	bucket     *tokenBucket
	strikes    int // consecutive rate-limited messages
	// done is closed when writePump returns.
	done chan struct{}
}

func (c *client) peer() *Peer {
	if c.sessionKey == "" {
		return &Peer{Role: RoleViewer}
	}
	e := c.expires
	return &Peer{Role: RoleUmpire, Expires: &e}
}

// cut sends a close frame if it can within grace and closes the
// connection, which also ends a write blocked on a stalled peer. When even
// the close frame cannot be sent (the peer reads nothing), the connection
// is reset rather than closed: the kernel would otherwise keep the unsent
// data and retry for minutes on behalf of a client that is gone.
func (c *client) cut(code int, reason string, grace time.Duration) {
	if c.conn == nil {
		return // a client made by a benchmark, with no connection
	}
	err := c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(grace))
	if err != nil {
		if tc, ok := c.conn.NetConn().(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
	}
	_ = c.conn.Close()
}

// serveWS upgrades GET /ws.
//
// Query parameters: v (the protocol version the client speaks; default 1),
// csrf (the umpire session's CSRF token: with the session cookie it makes
// the connection an umpire's).
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	allowed, same := s.cfg.originAllowed(r.Header.Get("Origin"), r.Host)
	if !allowed {
		s.Metrics.rejected("origin")
		http.Error(w, fmt.Sprintf("websocket: origin %q is not allowed (add it to allowed_origins)", r.Header.Get("Origin")), http.StatusForbidden)
		return
	}
	if s.hub.count() >= s.cfg.MaxClients {
		s.Metrics.rejected("full")
		http.Error(w, fmt.Sprintf("websocket: too many clients (at most %d)", s.cfg.MaxClients), http.StatusServiceUnavailable)
		return
	}
	c := &client{srv: s, send: make(chan []byte, s.cfg.SendBuffer), done: make(chan struct{})}
	// Only the server's own pages (or non-browser clients, which send no
	// Origin) may act as umpire, and only with the session's CSRF token.
	if ss, ok := s.sessionFromRequest(r); ok && (same || r.Header.Get("Origin") == "") && r.URL.Query().Get("csrf") == ss.csrf && ss.csrf != "" {
		c.sessionKey, c.expires = ss.key, ss.expires
	}
	up := websocket.Upgrader{
		ReadBufferSize:  4096,
		WriteBufferSize: 4096,
		CheckOrigin:     func(*http.Request) bool { return true }, // checked above
	}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered with an HTTP error
	}
	c.conn = conn
	if s.cfg.SocketWriteBuffer > 0 {
		if tc, ok := conn.NetConn().(*net.TCPConn); ok {
			_ = tc.SetWriteBuffer(s.cfg.SocketWriteBuffer)
		}
	}
	if v := r.URL.Query().Get("v"); v != "" && v != strconv.Itoa(ProtocolVersion) {
		s.Metrics.rejected("version")
		data := mustJSON(ErrorData{Code: ErrUnsupportedVersion, Message: fmt.Sprintf("this server speaks protocol version %d; the client asked for %q", ProtocolVersion, v), Supported: []int{ProtocolVersion}})
		_ = conn.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
		_ = conn.WriteMessage(websocket.TextMessage, envelope(TypeError, 0, s.cfg.Clock.Now(), "", data))
		_ = conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseProtocolError, "unsupported protocol version"))
		_ = conn.Close()
		return
	}
	snap, err := s.hub.register(c)
	if err != nil {
		reason, code := "server shutting down", websocket.CloseGoingAway
		if errors.Is(err, errFull) {
			s.Metrics.rejected("full")
			reason, code = "too many clients", websocket.CloseTryAgainLater
		}
		_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(s.cfg.CloseGrace))
		_ = conn.Close()
		return
	}
	c.bucket = newTokenBucket(s.cfg.CommandRate, s.cfg.CommandBurst, s.cfg.Clock.Now())
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		c.writePump(snap)
	}()
	c.readPump()
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("web: marshal: " + err.Error())
	}
	return b
}

// writePump writes the snapshot, then every queued message, and pings.
// It alone writes data frames to the connection.
func (c *client) writePump(first []byte) {
	cfg := &c.srv.cfg
	ping := cfg.Clock.NewTicker(cfg.PingInterval)
	defer func() {
		ping.Stop()
		close(c.done)
	}()
	write := func(typ int, b []byte) error {
		_ = c.conn.SetWriteDeadline(time.Now().Add(cfg.WriteTimeout))
		return c.conn.WriteMessage(typ, b)
	}
	// failed ends the connection after a write error; closing it also
	// ends the read pump.
	failed := func() {
		c.srv.hub.unregister(c)
		_ = c.conn.Close()
	}
	if err := write(websocket.TextMessage, first); err != nil {
		failed()
		return
	}
	c.srv.Metrics.sent()
	for {
		select {
		case msg, ok := <-c.send:
			if !ok {
				// Removed by the hub: say why. Whoever removed the
				// client closes the connection (the read pump after
				// the close handshake, or the hub's cut).
				_ = write(websocket.CloseMessage, websocket.FormatCloseMessage(c.closeCode, c.closeReason))
				return
			}
			if err := write(websocket.TextMessage, msg); err != nil {
				failed()
				return
			}
			c.srv.Metrics.sent()
		case <-ping.C():
			if err := write(websocket.PingMessage, nil); err != nil {
				failed()
				return
			}
		}
	}
}

// drain discards what the peer still sends until it closes or grace
// passes, so the connection ends with the close handshake rather than a
// reset that could destroy the close frame we sent.
func (c *client) drain(grace time.Duration) {
	nc := c.conn.NetConn()
	_ = nc.SetReadDeadline(time.Now().Add(grace))
	_, _ = io.Copy(io.Discard, nc)
}

// readPump reads client messages until the connection ends. Reads are
// bounded in size (MaxMessageSize) and time (PongTimeout without a word).
func (c *client) readPump() {
	cfg := &c.srv.cfg
	defer func() {
		c.srv.hub.unregister(c)
		_ = c.conn.Close()
	}()
	c.conn.SetReadLimit(cfg.MaxMessageSize)
	alive := func() { _ = c.conn.SetReadDeadline(time.Now().Add(cfg.PongTimeout)) }
	alive()
	c.conn.SetPongHandler(func(string) error { alive(); return nil })
	for {
		typ, data, err := c.conn.ReadMessage()
		if err != nil {
			if errors.Is(err, websocket.ErrReadLimit) {
				c.srv.Metrics.rejected("too_large")
				c.srv.hub.kick(c, websocket.CloseMessageTooBig, fmt.Sprintf("message larger than %d bytes", cfg.MaxMessageSize))
				c.awaitClose()
			}
			return
		}
		alive()
		if typ != websocket.TextMessage {
			c.reply(TypeError, "", ErrorData{Code: ErrBadMessage, Message: "send JSON text messages, not binary"})
			continue
		}
		if !c.handle(data) {
			c.awaitClose()
			return
		}
	}
}

func (c *client) reply(typ, id string, v any) {
	c.srv.hub.sendTo(c, typ, id, mustJSON(v))
}

// awaitClose lets the write pump send what is queued and the close frame
// (the client was kicked), then drains. Both waits are network waits,
// bounded by CloseGrace in real time.
func (c *client) awaitClose() {
	grace := c.srv.cfg.CloseGrace
	t := time.NewTimer(grace)
	select {
	case <-c.done:
	case <-t.C:
	}
	t.Stop()
	c.drain(grace)
}

// maxStrikes consecutive rate-limited messages close the connection.
const maxStrikes = 20

// inbound is a client message.
type inbound struct {
	V    *int            `json:"v"`
	Type string          `json:"type"`
	ID   string          `json:"id"`
	Data json.RawMessage `json:"data"`
}

// handle answers one client message; false closes the connection.
func (c *client) handle(raw []byte) bool {
	s := c.srv
	now := s.cfg.Clock.Now()
	if !c.bucket.allow(now) {
		c.strikes++
		s.Metrics.rejected("rate")
		if c.strikes >= maxStrikes {
			s.hub.kick(c, websocket.ClosePolicyViolation, "rate limit exceeded")
			return false
		}
		c.reply(TypeError, peekID(raw), ErrorData{Code: ErrRateLimited, Message: fmt.Sprintf("too many messages: at most %g per second (bursts of %d)", s.cfg.CommandRate, s.cfg.CommandBurst)})
		return true
	}
	c.strikes = 0
	var m inbound
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&m); err != nil {
		c.reply(TypeError, "", ErrorData{Code: ErrBadMessage, Message: "not a JSON message: " + err.Error()})
		return true
	}
	if m.V == nil {
		c.reply(TypeError, m.ID, ErrorData{Code: ErrBadMessage, Message: fmt.Sprintf("message has no \"v\"; this server speaks protocol version %d", ProtocolVersion), Supported: []int{ProtocolVersion}})
		return true
	}
	if *m.V != ProtocolVersion {
		s.Metrics.rejected("version")
		c.reply(TypeError, m.ID, ErrorData{Code: ErrUnsupportedVersion, Message: fmt.Sprintf("this server speaks protocol version %d; the message says %d", ProtocolVersion, *m.V), Supported: []int{ProtocolVersion}})
		s.hub.kick(c, websocket.CloseProtocolError, "unsupported protocol version")
		return false
	}
	if len(m.ID) > 64 {
		c.reply(TypeError, "", ErrorData{Code: ErrBadMessage, Message: "\"id\" is longer than 64 characters"})
		return true
	}
	switch m.Type {
	case TypePing:
		c.reply(TypePong, m.ID, struct{}{})
	case TypeCommand:
		c.command(m)
	default:
		c.reply(TypeError, m.ID, ErrorData{Code: ErrUnknownType, Message: fmt.Sprintf("unknown message type %q; clients send %q or %q", m.Type, TypeCommand, TypePing)})
	}
	return true
}

// peekID finds the id of a message that will not be parsed in full.
func peekID(raw []byte) string {
	var m struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &m) != nil || len(m.ID) > 64 {
		return ""
	}
	return m.ID
}

func (c *client) command(m inbound) {
	s := c.srv
	fail := func(code, format string, a ...any) {
		s.Metrics.command("", code)
		c.reply(TypeError, m.ID, ErrorData{Code: code, Message: fmt.Sprintf(format, a...)})
	}
	if m.ID == "" {
		fail(ErrInvalidCommand, "a command needs an \"id\" so its ack or error can be matched")
		return
	}
	if c.sessionKey == "" {
		fail(ErrUnauthorized, "commands need an umpire login: open /umpire and log in")
		return
	}
	if _, live, _ := s.sessions.byKey(c.sessionKey); !live {
		fail(ErrSessionExpired, "the umpire session has ended; log in again")
		return
	}
	if s.Sink == nil {
		fail(ErrUnavailable, "this server takes no commands (no command sink)")
		return
	}
	var cmd Command
	dec := json.NewDecoder(bytes.NewReader(m.Data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cmd); err != nil {
		fail(ErrInvalidCommand, "command data: %v", err)
		return
	}
	profile := s.hub.viewCopy().profile
	if err := cmd.validate(profile, s.stills.size); err != nil {
		fail(ErrInvalidCommand, "%v", err)
		return
	}
	if cmd.Name == CmdCalibrate {
		cmd.StillFrame = s.stills.frame(cmd.Still)
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.CommandTimeout)
	msg, err := s.Sink.Do(ctx, cmd)
	cancel()
	if err != nil {
		s.Metrics.command(cmd.Name, ErrCommandFailed)
		c.reply(TypeError, m.ID, ErrorData{Code: ErrCommandFailed, Message: fmt.Sprintf("%s: %v", cmd.Name, err)})
		return
	}
	s.Metrics.command(cmd.Name, "ok")
	c.reply(TypeAck, m.ID, Ack{Message: msg})
}
