package tournament

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/eclipse/paho.golang/paho"
	"github.com/gorilla/websocket"

	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/web"
)

//go:embed static
var static embed.FS

func (v *View) routes() http.Handler {
	mux := http.NewServeMux()
	files, _ := fs.Sub(static, "static")
	page := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			b, _ := fs.ReadFile(files, name)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			w.Write(b)
		}
	}
	mux.HandleFunc("GET /{$}", page("index.html"))
	mux.HandleFunc("GET /obs", page("obs.html"))
	mux.HandleFunc("GET /chief", page("chief.html"))
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(files)))
	mux.HandleFunc("GET /ws", v.serveWS)
	mux.HandleFunc("GET /api/boards", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(v.boards.json())
	})
	mux.HandleFunc("GET /api/session", v.serveSession)
	mux.HandleFunc("POST /api/login", v.serveLogin)
	mux.HandleFunc("POST /api/logout", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := v.auth.check(r, true); !ok {
			httpError(w, http.StatusUnauthorized, "not logged in")
			return
		}
		v.auth.logout(r)
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1})
		writeJSON(w, map[string]bool{"logged_in": false})
	})
	mux.HandleFunc("POST /api/on_air", v.serveOnAir)
	mux.HandleFunc("POST /api/command", v.serveCommand)
	mux.Handle("GET /metrics", v.metricsHandler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		v.mu.Lock()
		up := v.up
		v.mu.Unlock()
		if !up {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		writeJSON(w, map[string]any{"ok": up, "broker": v.Config.MQTT.Broker})
	})
	return mux
}

var upgrader = websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 16 << 10}

// serveWS: read-only; the first message lists every board.
func (v *View) serveWS(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
		http.Error(w, "cross-origin websocket refused", http.StatusForbidden)
		return
	}
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	v.mu.Lock()
	air := v.onAir
	v.mu.Unlock()
	first, _ := json.Marshal(pageMessage{Type: "boards", Boards: v.boards.json(), OnAir: &air})
	c := &client{conn: conn, send: make(chan []byte, clientQueue)}
	if !v.hub.add(c, first) {
		conn.Close()
		return
	}
	go c.writeLoop()
	conn.SetReadLimit(4 << 10)
	for {
		if _, _, err := conn.ReadMessage(); err != nil {
			break
		}
	}
	v.hub.remove(c)
}

func sameOrigin(origin, host string) bool {
	o := strings.TrimPrefix(strings.TrimPrefix(origin, "http://"), "https://")
	return o == host
}

func (v *View) serveSession(w http.ResponseWriter, r *http.Request) {
	s, ok := v.auth.check(r, false)
	out := map[string]any{"login_enabled": v.Config.ChiefHash != "", "commands": v.key != nil, "logged_in": ok}
	if ok {
		out["csrf"] = s.csrf
		out["expires"] = s.expires
	}
	writeJSON(w, out)
}

func (v *View) serveLogin(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
		httpError(w, http.StatusForbidden, "login from another site refused")
		return
	}
	var body struct {
		Password string `json:"password"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4<<10)).Decode(&body); err != nil {
		httpError(w, http.StatusBadRequest, "send {\"password\":\"…\"}")
		return
	}
	if v.Config.ChiefHash == "" {
		httpError(w, http.StatusForbidden, "no chief referee password is configured (chief_hash)")
		return
	}
	id, s, ok, locked := v.auth.login(remoteHost(r), body.Password)
	switch {
	case locked:
		v.metrics.logins.WithLabelValues("locked").Inc()
		w.Header().Set("Retry-After", "60")
		httpError(w, http.StatusTooManyRequests, "too many wrong passwords: wait a minute")
		return
	case !ok:
		v.metrics.logins.WithLabelValues("refused").Inc()
		v.Logger.Warn("tournament: wrong chief referee password", "from", remoteHost(r))
		httpError(w, http.StatusUnauthorized, "wrong password")
		return
	}
	v.metrics.logins.WithLabelValues("ok").Inc()
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil, Expires: s.expires})
	writeJSON(w, map[string]any{"logged_in": true, "csrf": s.csrf, "expires": s.expires})
}

// serveOnAir sets the board the OBS page follows (the producer, logged in
// as chief referee).
func (v *View) serveOnAir(w http.ResponseWriter, r *http.Request) {
	if _, ok := v.auth.check(r, true); !ok {
		httpError(w, http.StatusUnauthorized, "log in first")
		return
	}
	var body struct {
		Board string `json:"board"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4<<10)).Decode(&body); err != nil {
		httpError(w, http.StatusBadRequest, "send {\"board\":\"…\"}")
		return
	}
	if body.Board != "" && v.boards.get(body.Board) == nil {
		httpError(w, http.StatusNotFound, "no board "+body.Board)
		return
	}
	v.mu.Lock()
	v.onAir = body.Board
	v.mu.Unlock()
	msg, _ := json.Marshal(pageMessage{Type: "on_air", OnAir: &body.Board})
	v.hub.broadcast(msg)
	writeJSON(w, map[string]string{"on_air": body.Board})
}

// CommandRequest is the body of POST /api/command.
type CommandRequest struct {
	Board   string      `json:"board"`
	Command web.Command `json:"command"`
}

// serveCommand relays a chief referee's command to a board: signed,
// through the broker; the board checks it as its own console's and
// answers; the answer is the response (200 ack, 422 refused by the
// board, 504 no answer).
func (v *View) serveCommand(w http.ResponseWriter, r *http.Request) {
	if _, ok := v.auth.check(r, true); !ok {
		v.metrics.commands.WithLabelValues("unauthorized").Inc()
		httpError(w, http.StatusUnauthorized, "commands need the chief referee's login (and its X-CSRF-Token)")
		return
	}
	if v.key == nil {
		httpError(w, http.StatusServiceUnavailable, "this view has no command key (command_key): it cannot sign commands")
		return
	}
	var req CommandRequest
	dec := json.NewDecoder(io.LimitReader(r.Body, mqtt.MaxCommand))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		v.metrics.commands.WithLabelValues("invalid").Inc()
		httpError(w, http.StatusBadRequest, "command: "+err.Error())
		return
	}
	if v.boards.get(req.Board) == nil {
		httpError(w, http.StatusNotFound, "no board "+req.Board)
		return
	}
	data, _ := json.Marshal(req.Command)
	id := "t" + token()[:16]
	topic := req.Board + "/" + mqtt.TopicCommand
	e := mqtt.Envelope{V: mqtt.ProtocolVersion, Type: web.TypeCommand, Board: req.Board, T: v.Now().UTC(), ID: id, Data: data}
	mqtt.Sign(&e, topic, "chief referee", v.key)
	payload, _ := json.Marshal(e)
	ch := make(chan mqtt.Envelope, 1)
	v.mu.Lock()
	v.replies[id] = ch
	v.mu.Unlock()
	defer func() {
		v.mu.Lock()
		delete(v.replies, id)
		v.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(r.Context(), v.Config.CommandTimeout)
	defer cancel()
	if _, err := v.cm.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: payload}); err != nil {
		v.metrics.commands.WithLabelValues("unsent").Inc()
		httpError(w, http.StatusBadGateway, "the broker did not take the command: "+err.Error())
		return
	}
	select {
	case rep := <-ch:
		if rep.Type == web.TypeAck {
			var a web.Ack
			json.Unmarshal(rep.Data, &a)
			v.metrics.commands.WithLabelValues("ok").Inc()
			v.Logger.Info("tournament: command carried out", "board", req.Board, "command", req.Command.Name)
			writeJSON(w, map[string]any{"ok": true, "message": a.Message})
			return
		}
		var ed web.ErrorData
		json.Unmarshal(rep.Data, &ed)
		v.metrics.commands.WithLabelValues("refused").Inc()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		json.NewEncoder(w).Encode(map[string]any{"ok": false, "code": ed.Code, "error": ed.Message})
	case <-ctx.Done():
		v.metrics.commands.WithLabelValues("timeout").Inc()
		httpError(w, http.StatusGatewayTimeout, fmt.Sprintf("board %s did not answer within %s (offline?)", req.Board, v.Config.CommandTimeout))
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": msg})
}
