package web

import (
	"context"
	"crypto/tls"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/rules"
)

//go:embed static
var staticFS embed.FS

// Server is the web publisher: websocket API, pages, preview, metrics.
//
//	srv := &web.Server{Config: cfg, Logger: log, Source: d, Sink: d, Frames: d}
//	if err := srv.Initialize(); err != nil { … }
//	defer srv.Close()
//	srv.Publish(web.StateUpdate(st))
//
// Set the fields before Initialize and leave them alone afterwards.
type Server struct {
	Config Config
	// Logger, if set, receives net/http's own complaints (bad TLS
	// handshakes, handler panics) at debug level. The package otherwise
	// does not log: Initialize and Publish return errors, and Err reports
	// a listener that fails later.
	Logger *slog.Logger
	// Source gives the snapshot the server starts from (nil: an empty
	// match, camera "starting", calibration "none").
	Source StateSource
	// Sink carries out umpire commands (nil: the console is read-only).
	Sink CommandSink
	// Frames feeds /preview.mjpg and the console's still frame (nil: both
	// answer 503).
	Frames FrameSource
	// Painter draws and encodes the preview and the still frames (the
	// OpenCV side's, render/paint.Painter, given by cmd/boardcam; nil:
	// neither is offered).
	Painter overlay.Painter
	// Metrics is exported on /metrics; Initialize makes it when nil.
	Metrics *Metrics
	// Evidence serves the decisions' stills and clips (nil: none).
	Evidence EvidenceSource
	// Sheet writes the match sheet for the console's download (nil: none).
	Sheet SheetSource

	cfg      Config
	hub      *hub
	sessions *sessionStore
	logins   *loginLimiter
	verify   chan struct{} // one password verification at a time
	hash     passwordHash
	hasHash  bool
	stills   *stillStore
	preview  *previewer
	mux      *http.ServeMux
	started  time.Time
	proxies  []netip.Prefix

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	ln     net.Listener
	http   *http.Server
	errc   chan error
	once   sync.Once
}

// Initialize validates the configuration, loads the first snapshot, and
// starts listening when Config.Listen is set.
func (s *Server) Initialize() error {
	s.cfg = s.Config.withDefaults()
	if err := s.cfg.validate(); err != nil {
		return err
	}
	if s.cfg.UmpireHash != "" {
		h, err := parseHash(s.cfg.UmpireHash)
		if err != nil {
			return fmt.Errorf("web: config: umpire_hash: %w", err)
		}
		s.hash, s.hasHash = h, true
	}
	if s.Metrics == nil {
		s.Metrics = NewMetrics()
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.hub = newHub(&s.cfg, s.Metrics)
	s.sessions = newSessionStore(s.cfg.Clock, s.cfg.SessionTTL, s.cfg.MaxSessions)
	s.logins = newLoginLimiter(s.cfg.Clock, s.cfg.LoginFailures, s.cfg.LoginWindow)
	s.proxies, _ = parseTrustedProxies(s.cfg.TrustedProxies) // checked by validate
	s.verify = make(chan struct{}, 1)
	s.stills = &stillStore{}
	s.preview = newPreviewer(s)
	s.started = s.cfg.Clock.Now()
	s.errc = make(chan error, 1)

	snap := Snapshot{
		State:       emptyState(),
		Calibration: Calibration{Status: CalibrationNone},
		Camera:      Camera{Status: CameraStarting},
	}
	if s.Source != nil {
		snap = s.Source.Snapshot()
	}
	s.hub.mu.Lock()
	s.hub.loadLocked(snap)
	s.hub.mu.Unlock()

	s.routes()

	flush := s.cfg.Clock.NewTicker(s.cfg.PiecesInterval)
	s.wg.Add(1)
	go s.flushLoop(flush)

	if s.cfg.Listen != "" {
		ln, err := net.Listen("tcp", s.cfg.Listen)
		if err != nil {
			s.Close()
			return fmt.Errorf("web: listen: %w", err)
		}
		if s.cfg.TLS != nil {
			ln = tls.NewListener(ln, s.cfg.TLS)
		}
		s.ln = ln
		s.http = &http.Server{
			Handler:           s,
			ReadHeaderTimeout: 10 * time.Second,
			IdleTimeout:       2 * time.Minute,
			MaxHeaderBytes:    16 << 10,
			BaseContext:       func(net.Listener) context.Context { return s.ctx },
		}
		if s.Logger != nil {
			s.http.ErrorLog = slog.NewLogLogger(s.Logger.Handler(), slog.LevelDebug)
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				s.errc <- fmt.Errorf("web: serve: %w", err)
			}
		}()
	}
	return nil
}

// emptyState is the state before any match: nothing played yet.
func emptyState() (st rules.State) {
	st.Board = 0
	st.Winner = -1
	st.Queen.Team = -1
	st.Queen.Status = "on_board"
	st.Teams[0].Players, st.Teams[1].Players = []string{}, []string{}
	return st
}

// Addr is the address the server listens on (useful with port 0); empty
// without a listener.
func (s *Server) Addr() string {
	if s.ln == nil {
		return ""
	}
	return s.ln.Addr().String()
}

// Err reports an error of the listener after Initialize (at most one).
func (s *Server) Err() <-chan error { return s.errc }

// Close disconnects every client and stops the server. It may be called
// more than once.
func (s *Server) Close() {
	s.once.Do(func() {
		if s.hub != nil {
			s.hub.close()
		}
		if s.cancel != nil {
			s.cancel() // ends preview streams and pending commands
		}
		if s.http != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_ = s.http.Shutdown(ctx)
			cancel()
			_ = s.http.Close()
		}
		s.wg.Wait()
		if s.preview != nil {
			s.preview.wait()
		}
	})
}

// Publish sends a message to every client and folds it into the snapshot
// new clients get. It never blocks on a client: a client whose queue is
// full is disconnected. Publish takes ownership of the message's slices.
// It is safe to call from several goroutines; messages are numbered in the
// order the calls take effect.
//
// Publishing a Snapshot replaces the whole picture (a resync); Pieces are
// forwarded at most once per Config.PiecesInterval, the latest winning.
func (s *Server) Publish(m Message) error { return s.hub.publish(m) }

// Resync asks the StateSource for a fresh snapshot and sends it to every
// client, e.g. after the daemon replayed its journal.
func (s *Server) Resync() error {
	if s.Source == nil {
		return errors.New("web: resync: no state source")
	}
	return s.Publish(s.Source.Snapshot())
}

// Stats returns the websocket figures.
func (s *Server) Stats() Stats { return s.Metrics.Stats() }

func (s *Server) flushLoop(t clock.Ticker) {
	defer s.wg.Done()
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C():
			s.hub.flushPieces()
		}
	}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	mux := http.NewServeMux()
	page := func(name string, frameable bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			s.serveStatic(w, r, name, frameable)
		}
	}
	mux.HandleFunc("GET /{$}", page("index.html", false))
	mux.HandleFunc("GET /overlay", page("overlay.html", true))
	mux.HandleFunc("GET /overlay/replay", page("replay.html", true))
	mux.HandleFunc("GET /umpire", page("umpire.html", false))
	mux.HandleFunc("GET /static/{file...}", func(w http.ResponseWriter, r *http.Request) {
		s.serveStatic(w, r, r.PathValue("file"), false)
	})
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		s.serveStatic(w, r, "favicon.svg", true)
	})
	mux.HandleFunc("GET /ws", s.serveWS)
	mux.HandleFunc("GET /preview.mjpg", s.servePreview)
	mux.Handle("GET /metrics", s.Metrics.Handler())
	mux.HandleFunc("GET /healthz", s.serveHealth)
	mux.HandleFunc("GET /api/board", s.serveBoard)
	mux.HandleFunc("GET /api/session", s.serveSession)
	mux.HandleFunc("POST /api/login", s.serveLogin)
	mux.HandleFunc("POST /api/logout", s.serveLogout)
	mux.HandleFunc("POST /api/still", s.serveTakeStill)
	mux.HandleFunc("GET /api/still/{id}", s.serveStill)
	mux.HandleFunc("GET /api/evidence/{name}", s.serveEvidence)
	mux.HandleFunc("POST /api/replay", s.serveReplay)
	mux.HandleFunc("GET /api/sheet.pdf", func(w http.ResponseWriter, r *http.Request) { s.serveSheet(w, r, "pdf") })
	mux.HandleFunc("GET /api/sheet.csv", func(w http.ResponseWriter, r *http.Request) { s.serveSheet(w, r, "csv") })
	s.mux = mux
}

// contentSecurity allows only the server's own scripts, styles and
// connections: no CDN, no inline script.
const contentSecurity = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'self'"

func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request, name string, frameable bool) {
	name = path.Clean("/" + name)[1:]
	b, err := fs.ReadFile(staticFS, "static/"+name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	csp := contentSecurity
	if !frameable {
		csp += "; frame-ancestors 'none'"
		h.Set("X-Frame-Options", "DENY")
	}
	h.Set("Content-Security-Policy", csp)
	h.Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

// Health is /healthz's answer.
type Health struct {
	// OK is true when the camera delivers frames and the board is
	// calibrated (the status code is then 200, else 503).
	OK          bool    `json:"ok"`
	Camera      string  `json:"camera"`
	Calibration string  `json:"calibration"`
	Clients     int     `json:"clients"`
	Uptime      float64 `json:"uptime_s"`
	Message     string  `json:"message,omitempty"`
}

func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	v := s.hub.viewCopy()
	h := Health{
		Camera:      v.cam.Status,
		Calibration: v.cal.Status,
		Clients:     v.clients,
		Uptime:      math.Round(s.cfg.Clock.Now().Sub(s.started).Seconds()*1000) / 1000,
	}
	h.OK = v.cam.Status == CameraOK && v.cal.Usable()
	switch {
	case v.cam.Status != CameraOK:
		h.Message = "camera " + v.cam.Status
		if v.cam.Message != "" {
			h.Message += ": " + v.cam.Message
		}
	case !v.cal.Usable():
		h.Message = "board not calibrated (" + v.cal.Status + ")"
	}
	code := http.StatusOK
	if !h.OK {
		code = http.StatusServiceUnavailable
	}
	writeJSON(w, code, h)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

type apiError struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, code int, format string, a ...any) {
	writeJSON(w, code, apiError{fmt.Sprintf(format, a...)})
}

// Circle and Segment in board millimetres, for /api/board.
type jsCircle struct {
	C [2]float64 `json:"c"`
	R float64    `json:"r"`
}
type jsSegment [2][2]float64

// BoardMarkings is /api/board: the board's markings in millimetres
// (origin at the centre, x right, y down), computed by package board, so
// the console draws exactly the geometry the referee uses.
type BoardMarkings struct {
	Name         string             `json:"name"`
	Half         float64            `json:"half"`
	Frame        float64            `json:"frame"`
	Pockets      []jsCircle         `json:"pockets"`
	PocketNames  []string           `json:"pocket_names"`
	FrontLines   []jsSegment        `json:"front_lines"` // per side S, E, N, W
	RearLines    []jsSegment        `json:"rear_lines"`
	FrontWidth   float64            `json:"front_width"`
	RearWidth    float64            `json:"rear_width"`
	BaseCircles  []jsCircle         `json:"base_circles"`
	CoreRadius   float64            `json:"core_radius"`
	Arrows       []jsSegment        `json:"arrows"`
	CentreCircle jsCircle           `json:"centre_circle"`
	OuterCircle  jsCircle           `json:"outer_circle"`
	Radius       map[string]float64 `json:"radius"` // by piece kind
	Sides        []string           `json:"sides"`
}

func markings(g *board.Geometry) BoardMarkings {
	v := func(p board.Vec) [2]float64 { return [2]float64{round2(p.X), round2(p.Y)} }
	c := func(k board.Circle) jsCircle { return jsCircle{v(k.C), round2(k.R)} }
	seg := func(s board.Segment) jsSegment { return jsSegment{v(s.A), v(s.B)} }
	m := BoardMarkings{
		Name: g.Name, Half: g.Half(), Frame: g.FrameWidth,
		FrontWidth: g.FrontLineThickness, RearWidth: g.RearLineThickness,
		CoreRadius:   g.BaseCircleCoreDiameter / 2,
		CentreCircle: c(g.CentreCircle()), OuterCircle: c(g.OuterCircle()),
		Radius: map[string]float64{},
	}
	for _, p := range board.Pockets {
		m.Pockets = append(m.Pockets, c(g.Pocket(p)))
		m.PocketNames = append(m.PocketNames, p.String())
		if g.ArrowLength > 0 {
			m.Arrows = append(m.Arrows, seg(g.Arrow(p)))
		}
	}
	for _, sd := range board.Sides {
		m.Sides = append(m.Sides, sd.String())
		m.FrontLines = append(m.FrontLines, seg(g.FrontLine(sd)))
		m.RearLines = append(m.RearLines, seg(g.RearLine(sd)))
		for _, k := range g.BaseCircles(sd) {
			m.BaseCircles = append(m.BaseCircles, c(k))
		}
	}
	for _, k := range board.Kinds {
		m.Radius[k.String()] = g.Radius(k)
	}
	return m
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func (s *Server) serveBoard(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, markings(s.cfg.Board))
}

// Sessions and login.

const (
	cookieName = "boardcam_session"
	csrfHeader = "X-CSRF-Token"
)

func (s *Server) sessionFromRequest(r *http.Request) (session, bool) {
	ck, err := r.Cookie(cookieName)
	if err != nil {
		return session{}, false
	}
	return s.sessions.get(ck.Value)
}

// SessionInfo is /api/session's answer.
type SessionInfo struct {
	// LoginEnabled is false when no umpire password is configured.
	LoginEnabled bool       `json:"login_enabled"`
	LoggedIn     bool       `json:"logged_in"`
	CSRF         string     `json:"csrf,omitempty"`
	Expires      *time.Time `json:"expires,omitempty"`
}

func (s *Server) sessionInfo(ss session, ok bool) SessionInfo {
	info := SessionInfo{LoginEnabled: s.hasHash, LoggedIn: ok}
	if ok {
		e := ss.expires
		info.CSRF, info.Expires = ss.csrf, &e
	}
	return info
}

func (s *Server) serveSession(w http.ResponseWriter, r *http.Request) {
	ss, ok := s.sessionFromRequest(r)
	writeJSON(w, http.StatusOK, s.sessionInfo(ss, ok))
}

// sameOrigin checks the Origin of a state-changing request: a browser
// always sends one with a POST, and it must be this server's.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		// Non-browser clients; browsers send Origin on every POST. Fetch
		// metadata is a second line for old browsers.
		return r.Header.Get("Sec-Fetch-Site") == "" || r.Header.Get("Sec-Fetch-Site") == "same-origin"
	}
	u, err := url.Parse(o)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}

func (s *Server) serveLogin(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		writeError(w, http.StatusForbidden, "login from another site refused")
		return
	}
	if !s.hasHash {
		writeError(w, http.StatusForbidden, "no umpire password is configured: set umpire_hash in the configuration")
		return
	}
	addr := s.loginKey(r)
	if wait := s.logins.blocked(addr); wait > 0 {
		secs := int(math.Ceil(wait.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		writeError(w, http.StatusTooManyRequests, "too many failed logins; try again in %d s", secs)
		return
	}
	password, err := readPassword(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	select {
	case s.verify <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	ok := s.hash.verify(password)
	<-s.verify
	if !ok {
		s.logins.fail(addr)
		writeError(w, http.StatusUnauthorized, "wrong password")
		return
	}
	s.logins.succeed(addr)
	secure := s.viaTLS(r)
	if _, ok := s.device(r); !ok {
		http.SetCookie(w, &http.Cookie{
			Name: deviceCookie, Value: s.newDeviceToken(), Path: "/api/login",
			MaxAge:   int(deviceTTL.Seconds()),
			HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: secure,
		})
	}
	token, ss := s.sessions.create()
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: token, Path: "/",
		Expires:  ss.expires,
		MaxAge:   int(s.cfg.SessionTTL.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: secure,
	})
	writeJSON(w, http.StatusOK, s.sessionInfo(ss, true))
}

// readPassword reads {"password": …} or a form field password.
func readPassword(r *http.Request) (string, error) {
	body := http.MaxBytesReader(nil, r.Body, 4096)
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		var v struct {
			Password string `json:"password"`
		}
		if err := json.NewDecoder(body).Decode(&v); err != nil {
			return "", fmt.Errorf("login: body: %v", err)
		}
		if v.Password == "" {
			return "", errors.New("login: \"password\" is empty")
		}
		return v.Password, nil
	case "application/x-www-form-urlencoded":
		b, err := io.ReadAll(body)
		if err != nil {
			return "", fmt.Errorf("login: body: %v", err)
		}
		q, err := url.ParseQuery(string(b))
		if err != nil || q.Get("password") == "" {
			return "", errors.New("login: form field \"password\" is missing")
		}
		return q.Get("password"), nil
	}
	return "", fmt.Errorf("login: send application/json or a form, not %q", ct)
}

// authorized checks the session cookie and the CSRF header of a
// state-changing request.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) (session, bool) {
	ss, ok := s.sessionFromRequest(r)
	if !ok {
		writeError(w, http.StatusUnauthorized, "log in as umpire first (or the session has expired)")
		return session{}, false
	}
	if r.Method != http.MethodGet && (!sameOrigin(r) || r.Header.Get(csrfHeader) != ss.csrf) {
		writeError(w, http.StatusForbidden, "missing or wrong %s header", csrfHeader)
		return session{}, false
	}
	return ss, true
}

func (s *Server) serveLogout(w http.ResponseWriter, r *http.Request) {
	ss, ok := s.authorized(w, r)
	if !ok {
		return
	}
	s.sessions.delete(ss.key)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	writeJSON(w, http.StatusOK, s.sessionInfo(session{}, false))
}
