package webtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/boardcam/boardcam/web"
)

// Client is a websocket client for tests: it reads envelopes, checks that
// broadcast messages arrive numbered without gaps, and sends commands. It
// works against any boardcam server (the fake-backed one in tests, or a
// daemon playing the demo clip).
type Client struct {
	Conn *websocket.Conn
	// Snapshot is the first message, read by Dial.
	Snapshot web.Envelope

	mu      sync.Mutex
	lastSeq uint64
	gaps    []string
	nextID  int
}

// DialOptions say how to connect.
type DialOptions struct {
	// Origin is sent as the Origin header when not empty.
	Origin string
	// Session and CSRF, from Login, connect as umpire.
	Session *http.Cookie
	CSRF    string
	// Version is the ?v= parameter (empty: none).
	Version string
	// Dialer replaces the default dialer (e.g. with a tiny read buffer).
	Dialer *websocket.Dialer
	// NoSnapshot leaves the first message unread.
	NoSnapshot bool
}

// WSURL turns a server's http:// base URL into its /ws URL.
func WSURL(base string) string {
	return "ws" + strings.TrimPrefix(base, "http") + "/ws"
}

// Dial connects to base (http://host:port) and reads the snapshot.
func Dial(ctx context.Context, base string, o DialOptions) (*Client, *http.Response, error) {
	u, err := url.Parse(WSURL(base))
	if err != nil {
		return nil, nil, err
	}
	q := u.Query()
	if o.Version != "" {
		q.Set("v", o.Version)
	}
	if o.CSRF != "" {
		q.Set("csrf", o.CSRF)
	}
	u.RawQuery = q.Encode()
	h := http.Header{}
	if o.Origin != "" {
		h.Set("Origin", o.Origin)
	}
	if o.Session != nil {
		h.Set("Cookie", o.Session.Name+"="+o.Session.Value)
	}
	d := o.Dialer
	if d == nil {
		d = &websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	}
	conn, resp, err := d.DialContext(ctx, u.String(), h)
	if err != nil {
		return nil, resp, err
	}
	c := &Client{Conn: conn}
	if o.NoSnapshot {
		return c, resp, nil
	}
	first, err := c.Next(10 * time.Second)
	if err != nil {
		conn.Close()
		return nil, resp, fmt.Errorf("webtest: reading the snapshot: %w", err)
	}
	if first.Type != web.TypeSnapshot {
		conn.Close()
		return nil, resp, fmt.Errorf("webtest: first message is %q, want snapshot", first.Type)
	}
	c.Snapshot = first
	return c, resp, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.Conn.Close() }

// Next reads one message (timeout bounds the wait; it is a network
// deadline, not a sleep). After a timeout the connection is unusable
// (gorilla/websocket's rule): use timeouts as failures, not as polling.
func (c *Client) Next(timeout time.Duration) (web.Envelope, error) {
	_ = c.Conn.SetReadDeadline(time.Now().Add(timeout))
	_, data, err := c.Conn.ReadMessage()
	if err != nil {
		return web.Envelope{}, err
	}
	var e web.Envelope
	if err := json.Unmarshal(data, &e); err != nil {
		return web.Envelope{}, fmt.Errorf("webtest: bad message %q: %w", data, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case e.Type == web.TypeSnapshot:
		c.lastSeq = e.Seq
	case e.Seq > 0:
		if c.lastSeq != 0 && e.Seq != c.lastSeq+1 {
			c.gaps = append(c.gaps, fmt.Sprintf("seq %d after %d", e.Seq, c.lastSeq))
		}
		c.lastSeq = e.Seq
	}
	return e, nil
}

// Gaps lists the breaks in the broadcast numbering seen so far.
func (c *Client) Gaps() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.gaps...)
}

// LastSeq is the seq of the last broadcast message read.
func (c *Client) LastSeq() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastSeq
}

// WaitFor reads until a message satisfies ok, returning it and the
// messages skipped on the way.
func (c *Client) WaitFor(timeout time.Duration, ok func(web.Envelope) bool) (web.Envelope, []web.Envelope, error) {
	deadline := time.Now().Add(timeout)
	var skipped []web.Envelope
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return web.Envelope{}, skipped, errors.New("webtest: timed out waiting for a message")
		}
		e, err := c.Next(left)
		if err != nil {
			return web.Envelope{}, skipped, err
		}
		if ok(e) {
			return e, skipped, nil
		}
		skipped = append(skipped, e)
	}
}

// WaitType waits for a message of type typ.
func (c *Client) WaitType(timeout time.Duration, typ string) (web.Envelope, error) {
	e, _, err := c.WaitFor(timeout, func(e web.Envelope) bool { return e.Type == typ })
	return e, err
}

// Send writes a raw message.
func (c *Client) Send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.Conn.WriteMessage(websocket.TextMessage, b)
}

// SendCommand sends a command with a fresh id and returns the id.
func (c *Client) SendCommand(cmd web.Command) (string, error) {
	c.mu.Lock()
	c.nextID++
	id := fmt.Sprintf("t%d", c.nextID)
	c.mu.Unlock()
	data, err := json.Marshal(cmd)
	if err != nil {
		return "", err
	}
	return id, c.Send(web.Envelope{V: web.ProtocolVersion, Type: web.TypeCommand, ID: id, Data: data})
}

// Do sends a command and waits for its ack or error, returning that reply
// and the broadcast messages read meanwhile.
func (c *Client) Do(cmd web.Command, timeout time.Duration) (web.Envelope, []web.Envelope, error) {
	id, err := c.SendCommand(cmd)
	if err != nil {
		return web.Envelope{}, nil, err
	}
	return c.WaitFor(timeout, func(e web.Envelope) bool {
		return e.ID == id && (e.Type == web.TypeAck || e.Type == web.TypeError)
	})
}

// Decode unmarshals an envelope's data.
func Decode[T any](e web.Envelope) (T, error) {
	var v T
	dec := json.NewDecoder(bytes.NewReader(e.Data))
	if err := dec.Decode(&v); err != nil {
		return v, fmt.Errorf("webtest: decode %s data: %w", e.Type, err)
	}
	return v, nil
}

// Login logs in at base with password and returns the session cookie and
// the CSRF token.
func Login(base, password string) (*http.Cookie, string, error) {
	body, _ := json.Marshal(map[string]string{"password": password})
	req, err := http.NewRequest(http.MethodPost, base+"/api/login", bytes.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	var info web.SessionInfo
	_ = json.NewDecoder(resp.Body).Decode(&info)
	if resp.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("webtest: login: %s", resp.Status)
	}
	for _, ck := range resp.Cookies() {
		if ck.Name == "boardcam_session" {
			return ck, info.CSRF, nil
		}
	}
	return nil, "", errors.New("webtest: login set no session cookie")
}
