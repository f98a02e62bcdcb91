package web_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
	"github.com/boardcam/boardcam/web/webtest"
)

func errorOf(t *testing.T, m web.Envelope) web.ErrorData {
	t.Helper()
	if m.Type != web.TypeError {
		t.Fatalf("got %s %s, want an error", m.Type, m.Data)
	}
	ed, err := webtest.Decode[web.ErrorData](m)
	if err != nil {
		t.Fatal(err)
	}
	return ed
}

func TestCommandsNeedLogin(t *testing.T) {
	e := newEnv(t, nil)
	e.playUntilPending()
	viewer := e.dial(webtest.DialOptions{})
	reply, _, err := viewer.Do(web.Command{Name: web.CmdOverrule, Pending: "p1"}, wait)
	if err != nil {
		t.Fatal(err)
	}
	if ed := errorOf(t, reply); ed.Code != web.ErrUnauthorized || !strings.Contains(ed.Message, "log in") {
		t.Errorf("viewer command: %+v", ed)
	}
	// A session cookie alone, without the CSRF token, is not enough.
	ck, _ := e.login()
	half := e.dial(webtest.DialOptions{Session: ck})
	if r := snapshotOf(t, half).You.Role; r != web.RoleViewer {
		t.Errorf("cookie without csrf: role %s", r)
	}
	reply, _, _ = half.Do(web.Command{Name: web.CmdUndo}, wait)
	if ed := errorOf(t, reply); ed.Code != web.ErrUnauthorized {
		t.Errorf("cookie without csrf: %+v", ed)
	}
	// Nor is a wrong token.
	wrong := e.dial(webtest.DialOptions{Session: ck, CSRF: "guess"})
	if r := snapshotOf(t, wrong).You.Role; r != web.RoleViewer {
		t.Errorf("wrong csrf: role %s", r)
	}
	if n := len(e.fake.Commands()); n != 0 {
		t.Errorf("the backend received %d commands", n)
	}
	if st := e.fake.State(); st.Teams[0].Score != 0 {
		t.Error("score changed")
	}
}

func TestLoginAndOverrule(t *testing.T) {
	e := newEnv(t, nil)
	e.playUntilPending()
	overlay := e.dial(webtest.DialOptions{})

	resp, body := e.post("/api/login", `{"password":"wrong password"}`, nil, nil)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "wrong password") || len(resp.Cookies()) != 0 {
		t.Fatalf("wrong password: %d %s", resp.StatusCode, body)
	}
	resp, body = e.post("/api/login", `{"password":"`+testPassword+`"}`, nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("login: %d %s", resp.StatusCode, body)
	}
	var ck *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "boardcam_session" {
			ck = c
		}
	}
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.MaxAge != int(web.DefaultSessionTTL.Seconds()) {
		t.Fatalf("session cookie %+v", ck)
	}
	if strings.Contains(body, ck.Value) {
		t.Error("the login answer repeats the session token")
	}
	// The form encoding works too.
	req, _ := http.NewRequest(http.MethodPost, e.base+"/api/login", strings.NewReader("password="+strings.ReplaceAll(testPassword, " ", "+")))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusOK {
		t.Errorf("form login: %v %v", r.Status, err)
	}

	c := e.umpire()
	p := snapshotOf(t, c).Pending
	if len(p) != 1 || p[0].ID != "p1" {
		t.Fatalf("pending %+v", p)
	}
	reply, seen, err := c.Do(web.Command{Name: web.CmdOverrule, Pending: "p1", Note: "striker touched both lines"}, wait)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Type != web.TypeAck || reply.Seq != 0 {
		t.Fatalf("reply %+v", reply)
	}
	if ack, _ := webtest.Decode[web.Ack](reply); !strings.Contains(ack.Message, "overruled") {
		t.Errorf("ack %+v", ack)
	}
	// The decision and the new score reach every client, the overlay too.
	check := func(name string, msgs []web.Envelope) {
		var decided, state bool
		for _, m := range msgs {
			switch m.Type {
			case web.TypeDecided:
				d, _ := webtest.Decode[web.Decided](m)
				decided = d.ID == "p1" && d.Decision == web.DecisionOverruled
			case web.TypeState:
				st, _ := webtest.Decode[rules.State](m)
				state = st.Teams[0].Score == 14 && st.Teams[1].Score == 11
			}
		}
		if !decided || !state {
			t.Errorf("%s: decided %v, state 14–11 %v", name, decided, state)
		}
	}
	// The ack may come before or after the broadcasts: read up to the
	// notice that ends the outcome.
	noticed := false
	for _, m := range seen {
		noticed = noticed || m.Type == web.TypeNotice
	}
	if !noticed {
		_, more, err := c.WaitFor(wait, func(m web.Envelope) bool { return m.Type == web.TypeNotice })
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, more...)
	}
	check("console", seen)
	_, ov, err := overlay.WaitFor(wait, func(m web.Envelope) bool { return m.Type == web.TypeNotice })
	if err != nil {
		t.Fatal(err)
	}
	check("overlay", ov)
	cmds := e.fake.Commands()
	if len(cmds) != 1 || cmds[0].Name != web.CmdOverrule || cmds[0].Pending != "p1" || cmds[0].Note != "striker touched both lines" {
		t.Errorf("backend got %+v", cmds)
	}
	// A new client sees no pending decision any more.
	if p := snapshotOf(t, e.dial(webtest.DialOptions{})).Pending; len(p) != 0 {
		t.Errorf("pending after the decision: %+v", p)
	}
}

func TestSessionExpiry(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.SessionTTL = time.Hour })
	ck, csrf := e.login()
	c := e.dial(webtest.DialOptions{Session: ck, CSRF: csrf})
	if you := snapshotOf(t, c).You; you.Expires == nil || !you.Expires.Equal(t0.Add(time.Hour)) {
		t.Errorf("expires %v, want %v", you.Expires, t0.Add(time.Hour))
	}
	if r, _, _ := c.Do(web.Command{Name: web.CmdNextBoard}, wait); r.Type != web.TypeAck {
		t.Fatalf("before expiry: %s %s", r.Type, r.Data)
	}
	e.clock.Advance(59 * time.Minute)
	if r, _, _ := c.Do(web.Command{Name: web.CmdReplayBoard}, wait); r.Type != web.TypeAck {
		t.Fatalf("a minute before expiry: %s %s", r.Type, r.Data)
	}
	e.clock.Advance(time.Minute)
	r, _, _ := c.Do(web.Command{Name: web.CmdUndo}, wait)
	if ed := errorOf(t, r); ed.Code != web.ErrSessionExpired {
		t.Errorf("after expiry: %+v", ed)
	}
	_, body := e.get("/api/session", map[string]string{"Cookie": ck.Name + "=" + ck.Value})
	if !strings.Contains(body, `"logged_in":false`) {
		t.Errorf("session after expiry: %s", body)
	}
	// A new connection with the old cookie is a viewer.
	if r := snapshotOf(t, e.dial(webtest.DialOptions{Session: ck, CSRF: csrf})).You.Role; r != web.RoleViewer {
		t.Errorf("expired cookie gives role %s", r)
	}
	if n := len(e.fake.Commands()); n != 2 {
		t.Errorf("backend got %d commands, want 2", n)
	}
}

func TestLoginLockout(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.LoginFailures = 3; c.LoginWindow = time.Minute })
	for i := 0; i < 3; i++ {
		if r, _ := e.post("/api/login", `{"password":"guess number `+string(rune('a'+i))+`"}`, nil, nil); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i, r.StatusCode)
		}
	}
	r, body := e.post("/api/login", `{"password":"`+testPassword+`"}`, nil, nil)
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "60" || !strings.Contains(body, "try again in 60 s") {
		t.Errorf("locked out: %d %q %s", r.StatusCode, r.Header.Get("Retry-After"), body)
	}
	e.clock.Advance(30 * time.Second)
	if r, body := e.post("/api/login", `{"password":"`+testPassword+`"}`, nil, nil); r.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, "30 s") {
		t.Errorf("still locked: %d %s", r.StatusCode, body)
	}
	e.clock.Advance(30 * time.Second)
	if r, body := e.post("/api/login", `{"password":"`+testPassword+`"}`, nil, nil); r.StatusCode != http.StatusOK {
		t.Errorf("after the window: %d %s", r.StatusCode, body)
	}
}

func TestLoginChecks(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		body, ctype, origin string
		code                int
		want                string
	}{
		{`{"password":"` + testPassword + `"}`, "application/json", "http://evil.example", http.StatusForbidden, "another site"},
		{`{"password":""}`, "application/json", "", http.StatusBadRequest, "empty"},
		{`{"password":`, "application/json", "", http.StatusBadRequest, "body"},
		{testPassword, "text/plain", "", http.StatusBadRequest, "application/json"},
	}
	for _, k := range cases {
		h := map[string]string{"Content-Type": k.ctype}
		if k.origin != "" {
			h["Origin"] = k.origin
		}
		r, body := e.post("/api/login", k.body, h, nil)
		if r.StatusCode != k.code || !strings.Contains(body, k.want) {
			t.Errorf("%q: %d %s; want %d mentioning %q", k.body, r.StatusCode, body, k.code, k.want)
		}
	}
	// Without a configured hash nobody logs in.
	e2 := newEnv(t, func(c *web.Config) { c.UmpireHash = "" })
	r, body := e2.post("/api/login", `{"password":"`+testPassword+`"}`, nil, nil)
	if r.StatusCode != http.StatusForbidden || !strings.Contains(body, "no umpire password") {
		t.Errorf("no hash: %d %s", r.StatusCode, body)
	}
	if _, body := e2.get("/api/session", nil); !strings.Contains(body, `"login_enabled":false`) {
		t.Errorf("session info: %s", body)
	}
}

func TestLogout(t *testing.T) {
	e := newEnv(t, nil)
	ck, csrf := e.login()
	c := e.dial(webtest.DialOptions{Session: ck, CSRF: csrf})
	if r, body := e.post("/api/logout", "", nil, ck); r.StatusCode != http.StatusForbidden || !strings.Contains(body, "X-CSRF-Token") {
		t.Errorf("logout without the CSRF header: %d %s", r.StatusCode, body)
	}
	if r, _ := e.post("/api/logout", "", map[string]string{"X-CSRF-Token": csrf, "Origin": "http://evil.example"}, ck); r.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site logout: %d", r.StatusCode)
	}
	r, _ := e.post("/api/logout", "", map[string]string{"X-CSRF-Token": csrf}, ck)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("logout: %d", r.StatusCode)
	}
	cleared := false
	for _, k := range r.Cookies() {
		cleared = cleared || (k.Name == "boardcam_session" && k.MaxAge < 0)
	}
	if !cleared {
		t.Error("logout does not clear the cookie")
	}
	// The open console connection loses its rights at once.
	reply, _, _ := c.Do(web.Command{Name: web.CmdUndo}, wait)
	if ed := errorOf(t, reply); ed.Code != web.ErrSessionExpired {
		t.Errorf("command after logout: %+v", ed)
	}
}

func TestCommandErrors(t *testing.T) {
	e := newEnv(t, nil)
	c := e.umpire()
	cases := []struct {
		data any
		want string
	}{
		{map[string]any{"name": "foul", "code": "thumbing"}, "seat"},
		{map[string]any{"name": "foul", "seat": "Q", "code": "thumbing"}, "unknown side"},
		{map[string]any{"name": "foul", "seat": "S", "code": "juggling"}, "not in profile icf"},
		{map[string]any{"name": "undo", "colour": "red"}, "unknown field"},
		{map[string]any{"name": "demand", "team": 0, "points": 5}, "1 or 2"},
		{map[string]any{"name": "calibrate", "still": "still-1", "corners_px": [][2]float64{{1, 1}, {2, 2}, {3, 3}, {4, 4}}}, "still frame \"still-1\" is gone"},
		{map[string]any{"name": "start_match", "match": map[string]any{"profile": "icf", "players": []any{map[string]any{"name": "A", "seat": "S", "team": 0}}, "breaker": "S"}}, "needs 2 players"},
	}
	for _, k := range cases {
		if err := c.Send(map[string]any{"v": 1, "type": "command", "id": "bad", "data": k.data}); err != nil {
			t.Fatal(err)
		}
		m, _, err := c.WaitFor(wait, func(m web.Envelope) bool { return m.ID == "bad" })
		if err != nil {
			t.Fatal(err)
		}
		if ed := errorOf(t, m); ed.Code != web.ErrInvalidCommand || !strings.Contains(ed.Message, k.want) {
			t.Errorf("%v: %+v, want invalid_command mentioning %q", k.data, ed, k.want)
		}
	}
	if n := len(e.fake.Commands()); n != 0 {
		t.Errorf("invalid commands reached the backend: %d", n)
	}
	// The backend's refusal comes back word for word.
	e.fake.FailNext(errors.New("W3 is not on the board"))
	reply, _, _ := c.Do(web.Command{Name: web.CmdFoul, Seat: sidePtr(board.S), Code: "push"}, wait)
	if ed := errorOf(t, reply); ed.Code != web.ErrCommandFailed || ed.Message != "foul: W3 is not on the board" {
		t.Errorf("backend error: %+v", ed)
	}
	reply, _, _ = c.Do(web.Command{Name: web.CmdConfirm, Pending: "p9"}, wait)
	if ed := errorOf(t, reply); !strings.Contains(ed.Message, "no pending decision \"p9\"") {
		t.Errorf("unknown decision: %+v", ed)
	}
}

func sidePtr(s board.Side) *board.Side { return &s }
func intPtr(i int) *int                { return &i }

// Every command of the protocol reaches the backend as sent.
func TestEveryCommandReachesBackend(t *testing.T) {
	e := newEnv(t, nil)
	e.playUntilPending()
	c := e.umpire()
	setup := web.MatchSetup{Profile: "icf", Breaker: board.N, Players: []rules.Player{{Name: "X", Seat: board.N, Team: 1}, {Name: "Y", Seat: board.S, Team: 0}}}
	sent := []web.Command{
		{Name: web.CmdConfirm, Pending: "p1"},
		{Name: web.CmdFoul, Seat: sidePtr(board.N), Code: "push", Note: "elbow"},
		{Name: web.CmdDemand, Team: intPtr(1), Points: 2},
		{Name: web.CmdUndo},
		{Name: web.CmdReplayBoard},
		{Name: web.CmdNextBoard},
		{Name: web.CmdConcede, Team: intPtr(0)},
		{Name: web.CmdStartMatch, Match: &setup},
	}
	for _, cmd := range sent {
		reply, _, err := c.Do(cmd, wait)
		if err != nil || reply.Type != web.TypeAck {
			t.Fatalf("%s: %s %s %v", cmd.Name, reply.Type, reply.Data, err)
		}
	}
	got := e.fake.Commands()
	if len(got) != len(sent) {
		t.Fatalf("backend got %d commands, want %d", len(got), len(sent))
	}
	for i := range sent {
		a, b := mustJSON(t, sent[i]), mustJSON(t, got[i])
		if string(a) != string(b) {
			t.Errorf("command %d\n sent %s\n  got %s", i, a, b)
		}
	}
	names := map[string]bool{}
	for _, c := range sent {
		names[c.Name] = true
	}
	names[web.CmdOverrule] = true  // TestLoginAndOverrule
	names[web.CmdCalibrate] = true // TestStillAndCalibrate
	names[web.CmdCorrect] = true   // TestCorrectReachesBackend
	for _, n := range web.CommandNames {
		if !names[n] {
			t.Errorf("command %s is not tested end to end", n)
		}
	}
}

// correct settles a pending decision with what the umpire enters instead.
func TestCorrectReachesBackend(t *testing.T) {
	e := newEnv(t, nil)
	e.playUntilPending()
	c := e.umpire()
	cmd := web.Command{Name: web.CmdCorrect, Pending: "p1", Notation: "S w; N -", Note: "the queen fell after all"}
	reply, _, err := c.Do(cmd, wait)
	if err != nil || reply.Type != web.TypeAck {
		t.Fatalf("correct: %s %s %v", reply.Type, reply.Data, err)
	}
	got := e.fake.Commands()
	if len(got) != 1 || string(mustJSON(t, got[0])) != string(mustJSON(t, cmd)) {
		t.Errorf("backend got %+v", got)
	}
	reply, _, _ = c.Do(web.Command{Name: web.CmdCorrect}, wait)
	if ed := errorOf(t, reply); ed.Code != web.ErrInvalidCommand || !strings.Contains(ed.Message, "pending") {
		t.Errorf("correct without pending: %+v", ed)
	}
}
