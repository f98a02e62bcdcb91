package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
	"github.com/boardcam/boardcam/web/webtest"
)

func TestSnapshotOnConnect(t *testing.T) {
	e := newEnv(t, nil)
	c := e.dial(webtest.DialOptions{})
	if c.Snapshot.V != web.ProtocolVersion || c.Snapshot.Seq != 0 {
		t.Errorf("snapshot envelope v=%d seq=%d, want v=1 seq=0", c.Snapshot.V, c.Snapshot.Seq)
	}
	s := snapshotOf(t, c)
	want := e.fake.Snapshot()
	if !reflect.DeepEqual(s.State, want.State) {
		t.Errorf("state\n got %+v\nwant %+v", s.State, want.State)
	}
	if s.Calibration.Status != web.CalibrationOK || len(s.Calibration.CornersPx) != 4 || s.Camera.Status != web.CameraOK {
		t.Errorf("calibration %+v camera %+v", s.Calibration, s.Camera)
	}
	if len(s.Pieces.Pieces) != 20 {
		t.Errorf("%d pieces, want 20", len(s.Pieces.Pieces))
	}
	if s.Profile.Name != "icf" || len(s.Profile.Fouls) == 0 || len(s.Profiles) != len(rules.Profiles()) {
		t.Errorf("profile %+v, %d profiles", s.Profile, len(s.Profiles))
	}
	if s.Pending == nil || len(s.Pending) != 0 || s.Events == nil {
		t.Errorf("pending %v events %v: want empty lists, not null", s.Pending, s.Events)
	}
	if s.Server == nil || s.Server.Name != "boardcam" || !reflect.DeepEqual(s.Server.Protocol, []int{1}) {
		t.Errorf("server %+v", s.Server)
	}
	if s.You == nil || s.You.Role != web.RoleViewer || s.You.Expires != nil {
		t.Errorf("you %+v, want a viewer", s.You)
	}
	// The raw JSON uses the documented names.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(c.Snapshot.Data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"state", "profile", "profiles", "calibration", "camera", "pieces", "pending", "events", "server", "you"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("snapshot has no %q", k)
		}
	}
}

// scriptTypes lists the types of the messages the script publishes, pieces
// left out (they are throttled).
func scriptTypes(s webtest.Script, steps int) []string {
	var out []string
	for _, st := range s.Steps[:steps] {
		for _, m := range st.Messages {
			if m.MessageType() != web.TypePieces {
				out = append(out, m.MessageType())
			}
		}
		if st.Pending != nil {
			out = append(out, web.TypePending)
		}
	}
	return out
}

func TestMatchPlaysInOrder(t *testing.T) {
	e := newEnv(t, nil)
	early := e.dial(webtest.DialOptions{})
	script := webtest.DemoScript()

	// Play half the match; a second client joins; play the rest.
	half := 6
	for i := 0; i < half; i++ {
		e.clock.Advance(time.Second) // lets each step's positions through the throttle
		if _, err := e.fake.Step(); err != nil {
			t.Fatal(err)
		}
	}
	late := e.dial(webtest.DialOptions{})
	ls := snapshotOf(t, late)
	if !reflect.DeepEqual(ls.State, e.fake.State()) {
		t.Errorf("late snapshot state differs from the backend's")
	}
	if n := len(ls.Events); n == 0 {
		t.Error("late snapshot has no recent events")
	}
	steps := half
	for {
		e.clock.Advance(time.Second)
		if _, err := e.fake.Step(); err != nil {
			break
		}
		steps++
	}
	if steps != len(script.Steps) {
		t.Fatalf("played %d of %d steps", steps, len(script.Steps))
	}
	final := e.srv.Stats().Published

	read := func(c *webtest.Client, from uint64) []web.Envelope {
		var got []web.Envelope
		for c.LastSeq() < uint64(final) {
			m, err := c.Next(wait)
			if err != nil {
				t.Fatalf("after seq %d: %v", c.LastSeq(), err)
			}
			got = append(got, m)
		}
		if gaps := c.Gaps(); len(gaps) > 0 {
			t.Errorf("gaps in the numbering: %v", gaps)
		}
		if len(got) > 0 && got[0].Seq != from+1 {
			t.Errorf("first message after the snapshot has seq %d, want %d", got[0].Seq, from+1)
		}
		return got
	}
	all := read(early, 0)
	rest := read(late, late.Snapshot.Seq)

	var types []string
	var lastFrame int64 = -1
	for _, m := range all {
		if m.V != 1 || m.T.IsZero() {
			t.Errorf("bad envelope %+v", m)
		}
		if m.Type == web.TypePieces {
			p, _ := webtest.Decode[web.Pieces](m)
			if p.Frame < lastFrame {
				t.Errorf("pieces went back from frame %d to %d", lastFrame, p.Frame)
			}
			lastFrame = p.Frame
			continue
		}
		types = append(types, m.Type)
	}
	if want := scriptTypes(script, steps); !reflect.DeepEqual(types, want) {
		t.Errorf("message types\n got %v\nwant %v", types, want)
	}
	// The late client got exactly the tail of what the early one got.
	tail := all[len(all)-len(rest):]
	for i := range rest {
		if rest[i].Seq != tail[i].Seq || rest[i].Type != tail[i].Type || string(rest[i].Data) != string(tail[i].Data) {
			t.Fatalf("late client message %d differs: %s vs %s", i, rest[i].Type, tail[i].Type)
		}
	}
	// Both end with the backend's state.
	var last web.Envelope
	for _, m := range all {
		if m.Type == web.TypeState {
			last = m
		}
	}
	st, _ := webtest.Decode[rules.State](last)
	if !reflect.DeepEqual(st, e.fake.State()) {
		t.Error("the last state message is not the backend's state")
	}
	p, _ := webtest.Decode[web.Pending](all[len(all)-1])
	if all[len(all)-1].Type != web.TypePending || p.ID != "p1" || len(p.Fouls) != 1 || len(p.Fouls[0].Evidence.Positions) == 0 {
		t.Errorf("the match should end on pending p1 with its evidence: %s %+v", all[len(all)-1].Type, p)
	}
}

// A client that connects while messages are being published gets a
// snapshot that contains exactly the messages up to its seq: the events
// list ends at that seq and the next message is seq+1.
func TestSnapshotConsistentWithConcurrentPublishing(t *testing.T) {
	const n = 2000
	// A queue that holds everything: this test is about consistency, not
	// about dropping clients that cannot keep up with a flood.
	e := newEnv(t, func(c *web.Config) { c.History = 10; c.SendBuffer = n + 10 })
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 1; i <= n; i++ {
			if err := e.srv.Publish(web.Notice{Text: fmt.Sprintf("n%d", i)}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := 0; i < 20; i++ {
		c := e.dial(webtest.DialOptions{})
		s := snapshotOf(t, c)
		seq := c.Snapshot.Seq
		if len(s.Events) > 10 {
			t.Fatalf("%d events in the snapshot, history is 10", len(s.Events))
		}
		if seq > 0 {
			var lastEv web.Envelope
			if err := json.Unmarshal(s.Events[len(s.Events)-1], &lastEv); err != nil {
				t.Fatal(err)
			}
			if lastEv.Seq != seq {
				t.Fatalf("snapshot seq %d but its last event is seq %d", seq, lastEv.Seq)
			}
			text, _ := webtest.Decode[web.Notice](lastEv)
			if text.Text != fmt.Sprintf("n%d", seq) {
				t.Fatalf("event %d says %q", seq, text.Text)
			}
		}
		if seq < n {
			m, err := c.Next(wait)
			if err != nil {
				t.Fatal(err)
			}
			if m.Seq != seq+1 {
				t.Fatalf("snapshot at seq %d followed by seq %d", seq, m.Seq)
			}
		}
		c.Close()
	}
	<-done
}

func closeCode(err error) int {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return 0
}

// closedByServer tells a connection the server ended from a read that
// merely timed out.
func closedByServer(err error) bool {
	var ne net.Error
	if err == nil || (errors.As(err, &ne) && ne.Timeout()) {
		return false
	}
	return true
}

// readUntilClosed reads messages until the server closes the connection.
func readUntilClosed(c *webtest.Client) ([]web.Envelope, error) {
	var got []web.Envelope
	for {
		m, err := c.Next(wait)
		if err != nil {
			return got, err
		}
		got = append(got, m)
	}
}

func TestVersionMismatch(t *testing.T) {
	e := newEnv(t, nil)
	// Asking for version 2 at connect time.
	c := e.dial(webtest.DialOptions{Version: "2", NoSnapshot: true})
	got, err := readUntilClosed(c)
	if len(got) != 1 || got[0].Type != web.TypeError {
		t.Fatalf("got %+v, want one error", got)
	}
	ed, _ := webtest.Decode[web.ErrorData](got[0])
	if ed.Code != web.ErrUnsupportedVersion || !reflect.DeepEqual(ed.Supported, []int{1}) || !strings.Contains(ed.Message, "version 1") {
		t.Errorf("error %+v", ed)
	}
	if closeCode(err) != websocket.CloseProtocolError {
		t.Errorf("closed with %v, want 1002", err)
	}

	// A message saying v 2 on a v1 connection.
	c = e.dial(webtest.DialOptions{Version: "1"})
	if err := c.Send(map[string]any{"v": 2, "type": "ping", "id": "a"}); err != nil {
		t.Fatal(err)
	}
	got, err = readUntilClosed(c)
	if len(got) != 1 || got[0].Type != web.TypeError || got[0].ID != "a" {
		t.Fatalf("got %+v", got)
	}
	if ed, _ := webtest.Decode[web.ErrorData](got[0]); ed.Code != web.ErrUnsupportedVersion {
		t.Errorf("error %+v", ed)
	}
	if closeCode(err) != websocket.CloseProtocolError {
		t.Errorf("closed with %v, want 1002", err)
	}
}

func TestMalformedMessages(t *testing.T) {
	e := newEnv(t, nil)
	c := e.dial(webtest.DialOptions{})
	cases := []struct {
		msg  any
		code string
	}{
		{"not json", web.ErrBadMessage},
		{map[string]any{"type": "ping", "id": "x"}, web.ErrBadMessage}, // no v
		{map[string]any{"v": 1, "type": "subscribe", "id": "y"}, web.ErrUnknownType},
		{map[string]any{"v": 1, "type": "ping", "id": strings.Repeat("i", 65)}, web.ErrBadMessage},
		{map[string]any{"v": 1, "type": "command", "data": map[string]any{"name": "undo"}}, web.ErrInvalidCommand}, // no id
	}
	for _, k := range cases {
		var err error
		if s, ok := k.msg.(string); ok {
			err = c.Conn.WriteMessage(websocket.TextMessage, []byte(s))
		} else {
			err = c.Send(k.msg)
		}
		if err != nil {
			t.Fatal(err)
		}
		m, err := c.Next(wait)
		if err != nil {
			t.Fatalf("%v: %v", k.msg, err)
		}
		ed, _ := webtest.Decode[web.ErrorData](m)
		if m.Type != web.TypeError || ed.Code != k.code || ed.Message == "" || m.Seq != 0 {
			t.Errorf("%v: got %s %+v seq %d, want error %s", k.msg, m.Type, ed, m.Seq, k.code)
		}
	}
	// The connection survives all that.
	if err := c.Send(map[string]any{"v": 1, "type": "ping", "id": "alive"}); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Next(wait); err != nil || m.Type != web.TypePong || m.ID != "alive" {
		t.Errorf("ping after errors: %+v %v", m, err)
	}
}

func TestOriginCheck(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.AllowedOrigins = []string{"http://obs.example:8080"} })
	ck, csrf := e.login()
	cases := []struct {
		origin string
		ok     bool
		role   string
	}{
		{"", true, web.RoleUmpire},     // not a browser
		{e.base, true, web.RoleUmpire}, // the server's own pages
		{"http://obs.example:8080", true, web.RoleViewer},
		{"http://evil.example", false, ""},
		{"null", false, ""},
		{strings.Replace(e.base, "127.0.0.1", "localhost", 1), false, ""},
	}
	for _, k := range cases {
		c, resp, err := webtest.Dial(context.Background(), e.base, webtest.DialOptions{Origin: k.origin, Session: ck, CSRF: csrf})
		if !k.ok {
			if err == nil {
				c.Close()
				t.Errorf("origin %q admitted", k.origin)
			} else if resp == nil || resp.StatusCode != http.StatusForbidden {
				t.Errorf("origin %q: %v, want 403", k.origin, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("origin %q refused: %v", k.origin, err)
			continue
		}
		if you := snapshotOf(t, c).You; you.Role != k.role {
			t.Errorf("origin %q: role %s, want %s", k.origin, you.Role, k.role)
		}
		c.Close()
	}
	// "null" (a page from a local file) only when configured.
	e2 := newEnv(t, func(c *web.Config) { c.AllowedOrigins = []string{"null"} })
	c := e2.dial(webtest.DialOptions{Origin: "null"})
	if snapshotOf(t, c).You.Role != web.RoleViewer {
		t.Error("null origin should get a viewer")
	}
}

func TestMessageSizeLimit(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.MaxMessageSize = 1024 })
	c := e.dial(webtest.DialOptions{})
	big := map[string]any{"v": 1, "type": "ping", "id": "x", "data": strings.Repeat("a", 2000)}
	if err := c.Send(big); err != nil {
		t.Fatal(err)
	}
	_, err := readUntilClosed(c)
	if closeCode(err) != websocket.CloseMessageTooBig {
		t.Errorf("closed with %v, want 1009", err)
	}
	// Just under the limit is fine.
	c = e.dial(webtest.DialOptions{})
	ok := map[string]any{"v": 1, "type": "ping", "id": "y", "data": strings.Repeat("a", 900)}
	if err := c.Send(ok); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Next(wait); err != nil || m.Type != web.TypePong {
		t.Errorf("%+v %v", m, err)
	}
}

func TestRateLimit(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.CommandRate = 5; c.CommandBurst = 10 })
	c := e.dial(webtest.DialOptions{})
	count := func(n int) (pongs, limited int) {
		for i := 0; i < n; i++ {
			if err := c.Send(map[string]any{"v": 1, "type": "ping", "id": fmt.Sprint("p", i)}); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < n; i++ {
			m, err := c.Next(wait)
			if err != nil {
				t.Fatal(err)
			}
			switch m.Type {
			case web.TypePong:
				pongs++
			case web.TypeError:
				if ed, _ := webtest.Decode[web.ErrorData](m); ed.Code == web.ErrRateLimited {
					limited++
				}
			}
		}
		return
	}
	if p, l := count(13); p != 10 || l != 3 {
		t.Errorf("burst: %d pongs, %d limited; want 10 and 3", p, l)
	}
	e.clock.Advance(time.Second) // 5 tokens back
	if p, l := count(7); p != 5 || l != 2 {
		t.Errorf("after 1 s: %d pongs, %d limited; want 5 and 2", p, l)
	}
	// Hammering on regardless closes the connection.
	for i := 0; i < 25; i++ {
		_ = c.Send(map[string]any{"v": 1, "type": "ping", "id": "h"})
	}
	if _, err := readUntilClosed(c); closeCode(err) != websocket.ClosePolicyViolation {
		t.Errorf("flooding client closed with %v, want 1008", err)
	}
}

func TestPiecesThrottled(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.PiecesInterval = 100 * time.Millisecond })
	c := e.dial(webtest.DialOptions{})
	frame := func(i int64) web.Pieces {
		return web.Pieces{Frame: i, Pieces: []web.Piece{{ID: "Q", Kind: board.Queen, MM: [2]float64{float64(i), 0}, State: web.PieceMoving}}}
	}
	for i := int64(1); i <= 10; i++ {
		if err := e.srv.Publish(frame(i)); err != nil {
			t.Fatal(err)
		}
	}
	// The first goes out at once; the rest are held back.
	m, err := c.Next(wait)
	if err != nil || m.Type != web.TypePieces {
		t.Fatalf("%+v %v", m, err)
	}
	if p, _ := webtest.Decode[web.Pieces](m); p.Frame != 1 {
		t.Errorf("first pieces frame %d", p.Frame)
	}
	// A client connecting now already sees the latest positions.
	if s := snapshotOf(t, e.dial(webtest.DialOptions{})); s.Pieces.Frame != 10 {
		t.Errorf("snapshot pieces frame %d, want 10", s.Pieces.Frame)
	}
	// A marker shows that nothing else was sent before it.
	if err := e.srv.Publish(web.Notice{Text: "marker"}); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Next(wait); err != nil || m.Type != web.TypeNotice {
		t.Fatalf("want the marker next, got %s %v", m.Type, err)
	}
	// When the interval has passed, the latest (frame 10) goes out, once.
	e.clock.Advance(100 * time.Millisecond)
	m, err = c.Next(wait)
	if err != nil || m.Type != web.TypePieces {
		t.Fatalf("%+v %v", m, err)
	}
	if p, _ := webtest.Decode[web.Pieces](m); p.Frame != 10 {
		t.Errorf("flushed pieces frame %d, want 10", p.Frame)
	}
	e.clock.Advance(100 * time.Millisecond)
	if err := e.srv.Publish(web.Notice{Text: "marker 2"}); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Next(wait); err != nil || m.Type != web.TypeNotice {
		t.Errorf("pieces sent twice: got %s %v", m.Type, err)
	}
	if got := e.srv.Stats().Published; got != 4 {
		t.Errorf("published %d messages for 10 positions and 2 notices, want 4", got)
	}
}

func TestResyncOnNewMatch(t *testing.T) {
	e := newEnv(t, nil)
	e.playUntilPending()
	c := e.umpire()
	if len(snapshotOf(t, c).Pending) != 1 {
		t.Fatal("want one pending decision")
	}
	setup := web.MatchSetup{Profile: "four-break", Breaker: board.E, Doubles: true, Players: []rules.Player{
		{Name: "Anu", Seat: board.S, Team: 0}, {Name: "Bala", Seat: board.E, Team: 1}, {Name: "Chitra", Seat: board.N, Team: 0}, {Name: "Dev", Seat: board.W, Team: 1}}}
	reply, seen, err := c.Do(web.Command{Name: web.CmdStartMatch, Match: &setup}, wait)
	if err != nil || reply.Type != web.TypeAck {
		t.Fatalf("%+v %v", reply, err)
	}
	var snap *web.Snapshot
	for _, m := range seen {
		if m.Type == web.TypeSnapshot {
			s, _ := webtest.Decode[web.Snapshot](m)
			snap = &s
			if m.Seq == 0 {
				t.Error("a resync snapshot must be numbered like other broadcasts")
			}
		}
	}
	if snap == nil {
		t.Fatal("no snapshot broadcast after start_match")
	}
	if snap.Profile.Name != "four-break" || !snap.State.Doubles || len(snap.Pending) != 0 || snap.State.Teams[0].Score != 0 {
		t.Errorf("resync %+v", snap)
	}
	if snap.You != nil {
		t.Error("a broadcast snapshot must not carry one connection's role")
	}
	if gaps := c.Gaps(); len(gaps) > 0 {
		t.Error(gaps)
	}
}

func TestPublishErrors(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.MaxPublishSize = 2048 })
	if err := e.srv.Publish(web.Notice{Text: strings.Repeat("x", 3000)}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("oversized message: %v", err)
	}
	if err := e.srv.Publish(web.Camera{Status: web.CameraOK, FPS: math.NaN()}); err == nil {
		t.Error("NaN accepted")
	}
	if err := e.srv.Publish(nil); err == nil {
		t.Error("nil accepted")
	}
	e.srv.Close()
	if err := e.srv.Publish(web.Notice{Text: "late"}); err == nil {
		t.Error("publish after Close accepted")
	}
}

// tinyDialer connects with a small receive buffer, so a client that never
// reads fills up quickly.
func tinyDialer() *websocket.Dialer {
	return &websocket.Dialer{
		HandshakeTimeout: 10 * time.Second,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			var d net.Dialer
			conn, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			if tc, ok := conn.(*net.TCPConn); ok {
				_ = tc.SetReadBuffer(4096)
			}
			return conn, nil
		},
		ReadBufferSize: 1024,
	}
}

func TestSlowClientDropped(t *testing.T) {
	e := newEnv(t, func(c *web.Config) {
		c.SendBuffer = 16
		c.SocketWriteBuffer = 4096
		c.WriteTimeout = time.Hour // only the full queue can drop it
	})
	slow := e.dial(webtest.DialOptions{Dialer: tinyDialer()})
	fast := follow(e.dial(webtest.DialOptions{}), false)
	const n = 3000
	text := strings.Repeat("a long notice to fill buffers ", 10)
	for i := 1; i <= n; i++ {
		if err := e.srv.Publish(web.Notice{Text: text}); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 {
			// Bursts of 10, fewer than the queue holds: the fast reader
			// keeps up (we wait for it by count); the slow one never reads.
			if err := fast.waitSeq(uint64(i)); err != nil {
				t.Fatalf("fast client after %d: %v", i, err)
			}
		}
	}
	fast.stop()
	if fast.n != n || len(fast.c.Gaps()) > 0 {
		t.Errorf("fast client got %d of %d, gaps %v", fast.n, n, fast.c.Gaps())
	}
	st := e.srv.Stats()
	if st.Dropped != 1 {
		t.Errorf("stats %+v: want the slow client dropped", st)
	}
	// The slow client finds its connection closed once it reads.
	got, err := readUntilClosed(slow)
	if !closedByServer(err) || len(got) >= n {
		t.Errorf("slow client read %d messages and %v", len(got), err)
	}
	if c := closeCode(err); c != 0 && c != websocket.ClosePolicyViolation {
		t.Errorf("slow client closed with %d", c)
	}
}

func TestMaxClients(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.MaxClients = 2 })
	e.dial(webtest.DialOptions{})
	e.dial(webtest.DialOptions{})
	_, resp, err := webtest.Dial(context.Background(), e.base, webtest.DialOptions{})
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("third client: %v (%v), want 503", err, resp)
	}
	if st := e.srv.Stats(); st.Clients != 2 {
		t.Errorf("%d clients connected", st.Clients)
	}
}
