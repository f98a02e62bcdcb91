package web

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock"
)

// Config configures the web server. The zero value of every field but
// Listen means its default (see [Config.withDefaults]); a daemon usually
// fills only Listen, AllowedOrigins and UmpireHash from its configuration.
type Config struct {
	// Listen is the TCP address to serve on, e.g. ":8080" or
	// "127.0.0.1:0". Empty: Initialize opens no listener and the caller
	// serves the Server (an http.Handler) itself.
	Listen string

	// AllowedOrigins lists the origins, besides the server's own, whose
	// pages may open the websocket (e.g. "https://club.example:8443").
	// "null" admits pages with an opaque origin (an OBS browser source
	// showing a local file). Requests without an Origin header (not made
	// by a browser) are always admitted: only browsers send one, and it is
	// their users the check protects. Extra origins only ever get the
	// read-only viewer role.
	AllowedOrigins []string

	// UmpireHash is the hash of the umpire's password or token, as made by
	// [HashPassword] ("pbkdf2-sha256$…"). Empty: nobody can log in and the
	// console is read-only.
	UmpireHash string
	// SessionTTL is how long an umpire login lasts (default 4h); a session
	// never outlives it, activity does not extend it.
	SessionTTL time.Duration
	// MaxSessions bounds the number of live umpire sessions (default 16);
	// a new login beyond it ends the oldest.
	MaxSessions int
	// LoginFailures failed logins from one client within LoginWindow
	// lock that client out for the rest of the window (defaults 5, 1m). A
	// client is its address (IPv6: its /64), seen through TrustedProxies,
	// or a browser that has logged in before (see lockout.go): the
	// umpire's browser is not locked out by a guesser at the same address.
	LoginFailures int
	LoginWindow   time.Duration
	// TrustedProxies lists the reverse proxies (addresses or CIDR blocks)
	// whose X-Forwarded-For and X-Forwarded-Proto headers are believed.
	// Empty: the peer's address is the client's, the headers are ignored.
	TrustedProxies []string

	// TLS, if set, makes the listener serve HTTPS with it (the session
	// cookie is then Secure). Nil: plain HTTP.
	TLS *tls.Config

	// MaxClients bounds the websocket connections (default 500); beyond
	// it /ws answers 503.
	MaxClients int
	// SendBuffer is the number of messages queued per client (default
	// 256). A client whose queue is full is too slow and is disconnected;
	// the publisher never waits for it.
	SendBuffer int
	// SocketWriteBuffer is the kernel send buffer of each websocket
	// connection in bytes (default 64 KiB), which bounds the memory a
	// stalled client holds before its queue fills. Negative: leave the
	// operating system's default.
	SocketWriteBuffer int
	// MaxMessageSize bounds a message from a client in bytes (default
	// 16 KiB); a larger one closes the connection (1009).
	MaxMessageSize int64
	// MaxPublishSize bounds a published message in bytes (default 1 MiB);
	// Publish refuses larger ones.
	MaxPublishSize int
	// CommandRate and CommandBurst are the per-connection limit on
	// messages from a client, a token bucket: CommandBurst messages at
	// once, refilled at CommandRate per second (defaults 5/s, 10).
	CommandRate  float64
	CommandBurst int
	// CommandTimeout bounds one call to the CommandSink (default 5s).
	CommandTimeout time.Duration
	// WriteTimeout bounds one write to a client (default 10s); PingInterval
	// is how often the server pings (default 30s); a client that answers
	// nothing for PongTimeout (default 60s) is disconnected.
	WriteTimeout time.Duration
	PingInterval time.Duration
	PongTimeout  time.Duration
	// CloseGrace bounds the wait to send a close frame to a client being
	// dropped before its connection is cut (default 1s).
	CloseGrace time.Duration

	// PiecesInterval is the least time between two "pieces" messages
	// (default 100ms: at most 10 per second).
	PiecesInterval time.Duration
	// History is the number of recent event messages kept for the
	// snapshot's event list (default 100).
	History int

	// PreviewFPS bounds /preview.mjpg's frame rate (default 5).
	PreviewFPS float64
	// PreviewWidth is the preview's width in pixels (default 960; the
	// camera's own width when it is smaller).
	PreviewWidth int
	// PreviewQuality is the preview's JPEG quality (default 75).
	PreviewQuality int
	// MaxPreviewClients bounds concurrent /preview.mjpg viewers (default 4).
	MaxPreviewClients int

	// Board is the geometry the console draws and the preview marks
	// (default board.ICF()).
	Board *board.Geometry
	// Clock is the time source (default the wall clock).
	Clock clock.Clock
}

// Defaults.
const (
	DefaultSessionTTL = 4 * time.Hour
	DefaultSendBuffer = 256
)

// withDefaults returns c with zero fields set to their defaults.
func (c Config) withDefaults() Config {
	dur := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	num := func(n *int, v int) {
		if *n == 0 {
			*n = v
		}
	}
	dur(&c.SessionTTL, DefaultSessionTTL)
	num(&c.MaxSessions, 16)
	num(&c.LoginFailures, 5)
	dur(&c.LoginWindow, time.Minute)
	num(&c.MaxClients, 500)
	num(&c.SendBuffer, DefaultSendBuffer)
	num(&c.SocketWriteBuffer, 64<<10)
	if c.MaxMessageSize == 0 {
		c.MaxMessageSize = 16 << 10
	}
	num(&c.MaxPublishSize, 1<<20)
	if c.CommandRate == 0 {
		c.CommandRate = 5
	}
	num(&c.CommandBurst, 10)
	dur(&c.CommandTimeout, 5*time.Second)
	dur(&c.WriteTimeout, 10*time.Second)
	dur(&c.PingInterval, 30*time.Second)
	dur(&c.PongTimeout, 60*time.Second)
	dur(&c.CloseGrace, time.Second)
	dur(&c.PiecesInterval, 100*time.Millisecond)
	num(&c.History, 100)
	if c.PreviewFPS == 0 {
		c.PreviewFPS = 5
	}
	num(&c.PreviewWidth, 960)
	num(&c.PreviewQuality, 75)
	num(&c.MaxPreviewClients, 4)
	if c.Board == nil {
		c.Board = board.ICF()
	}
	if c.Clock == nil {
		c.Clock = clock.Real{}
	}
	return c
}

// validate reports every bad field at once, naming it.
func (c Config) validate() error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, a...)))
	}
	for i, o := range c.AllowedOrigins {
		if o == "null" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			bad(fmt.Sprintf("allowed_origins[%d]", i), "%q is not an origin like https://host:port (or \"null\")", o)
		}
	}
	if _, err := parseTrustedProxies(c.TrustedProxies); err != nil {
		errs = append(errs, err)
	}
	if c.TLS != nil && len(c.TLS.Certificates) == 0 && c.TLS.GetCertificate == nil {
		bad("tls", "no certificate")
	}
	if c.UmpireHash != "" {
		if _, err := parseHash(c.UmpireHash); err != nil {
			bad("umpire_hash", "%v", err)
		}
	}
	pos := func(field string, ok bool, v any) {
		if !ok {
			bad(field, "must be positive, got %v", v)
		}
	}
	pos("session_ttl", c.SessionTTL > 0, c.SessionTTL)
	pos("max_sessions", c.MaxSessions > 0, c.MaxSessions)
	pos("login_failures", c.LoginFailures > 0, c.LoginFailures)
	pos("login_window", c.LoginWindow > 0, c.LoginWindow)
	pos("max_clients", c.MaxClients > 0, c.MaxClients)
	pos("send_buffer", c.SendBuffer > 0, c.SendBuffer)
	pos("max_message_size", c.MaxMessageSize > 0, c.MaxMessageSize)
	pos("max_publish_size", c.MaxPublishSize > 0, c.MaxPublishSize)
	pos("command_rate", c.CommandRate > 0, c.CommandRate)
	pos("command_burst", c.CommandBurst > 0, c.CommandBurst)
	pos("command_timeout", c.CommandTimeout > 0, c.CommandTimeout)
	pos("write_timeout", c.WriteTimeout > 0, c.WriteTimeout)
	pos("ping_interval", c.PingInterval > 0, c.PingInterval)
	pos("pong_timeout", c.PongTimeout > 0, c.PongTimeout)
	pos("close_grace", c.CloseGrace > 0, c.CloseGrace)
	pos("pieces_interval", c.PiecesInterval > 0, c.PiecesInterval)
	pos("history", c.History > 0, c.History)
	if !(c.PreviewFPS > 0 && c.PreviewFPS <= 30) {
		bad("preview_fps", "must be above 0 and at most 30, got %v", c.PreviewFPS)
	}
	if c.PreviewWidth < 64 {
		bad("preview_width", "must be at least 64 pixels, got %d", c.PreviewWidth)
	}
	pos("max_preview_clients", c.MaxPreviewClients > 0, c.MaxPreviewClients)
	if c.PingInterval >= c.PongTimeout {
		bad("ping_interval", "%v must be shorter than pong_timeout %v", c.PingInterval, c.PongTimeout)
	}
	if c.PreviewQuality < 1 || c.PreviewQuality > 100 {
		bad("preview_quality", "must be 1…100, got %d", c.PreviewQuality)
	}
	if c.Board != nil {
		if err := c.Board.Validate(); err != nil {
			bad("board", "%v", err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("web: config: %w", errors.Join(errs...))
	}
	return nil
}

// originAllowed reports whether a browser page from origin may open the
// websocket, and whether it is the server's own origin.
func (c Config) originAllowed(origin, host string) (allowed, same bool) {
	if origin == "" {
		return true, false
	}
	if origin == "null" {
		for _, o := range c.AllowedOrigins {
			if o == "null" {
				return true, false
			}
		}
		return false, false
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false, false
	}
	if strings.EqualFold(u.Host, host) {
		return true, true
	}
	for _, o := range c.AllowedOrigins {
		if strings.EqualFold(strings.TrimSuffix(o, "/"), strings.TrimSuffix(origin, "/")) {
			return true, false
		}
	}
	return false, false
}
