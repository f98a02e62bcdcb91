package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/web"
	"github.com/boardcam/boardcam/web/webtest"
)

// The end-to-end tests run a real web.Server on loopback, fed by a
// backend, and talk to it with webtest.Client. The backend is the scripted
// fake for now; env is the one place that builds it, so the same tests can
// later run against the daemon playing the demo clip.

const testPassword = "correct horse battery"

var (
	hashOnce sync.Once
	testHash string
)

func passwordHash(t testing.TB) string {
	hashOnce.Do(func() {
		h, err := web.HashPasswordIter(testPassword, 1000)
		if err != nil {
			t.Fatal(err)
		}
		testHash = h
	})
	return testHash
}

// backend is what a test environment plays: the fake, or later a daemon.
type backend interface {
	web.StateSource
	web.CommandSink
	web.FrameSource
	Attach(webtest.Publisher)
	Step() (string, error)
}

type env struct {
	t     *testing.T
	srv   *web.Server
	fake  *webtest.Fake
	be    backend
	clock *clocktest.Clock
	hs    *httptest.Server
	base  string
}

var t0 = time.Date(2025, 5, 1, 18, 0, 0, 0, time.UTC)

// newEnv starts a server with the demo script's fake backend; edit adjusts
// the configuration.
func newEnv(t *testing.T, edit func(*web.Config)) *env {
	t.Helper()
	clock := clocktest.NewAt(t0)
	cfg := web.Config{UmpireHash: passwordHash(t), Clock: clock}
	if edit != nil {
		edit(&cfg)
	}
	fake := webtest.NewFake(webtest.DemoScript())
	srv := &web.Server{Config: cfg, Source: fake, Sink: fake, Frames: fake, Painter: fake.Painter}
	if err := srv.Initialize(); err != nil {
		fake.Close()
		t.Fatal(err)
	}
	fake.Attach(srv)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		fake.Close()
	})
	return &env{t: t, srv: srv, fake: fake, be: fake, clock: clock, hs: hs, base: hs.URL}
}

func (e *env) dial(o webtest.DialOptions) *webtest.Client {
	e.t.Helper()
	c, _, err := webtest.Dial(context.Background(), e.base, o)
	if err != nil {
		e.t.Fatalf("dial: %v", err)
	}
	e.t.Cleanup(func() { c.Close() })
	return c
}

func (e *env) login() (*http.Cookie, string) {
	e.t.Helper()
	ck, csrf, err := webtest.Login(e.base, testPassword)
	if err != nil {
		e.t.Fatal(err)
	}
	return ck, csrf
}

// umpire connects a logged-in console.
func (e *env) umpire() *webtest.Client {
	e.t.Helper()
	ck, csrf := e.login()
	c := e.dial(webtest.DialOptions{Session: ck, CSRF: csrf})
	if you := snapshotOf(e.t, c).You; you == nil || you.Role != web.RoleUmpire {
		e.t.Fatalf("logged-in connection is %+v, want umpire", you)
	}
	return c
}

// playUntilPending plays the script up to the decision left to the umpire.
func (e *env) playUntilPending() int {
	e.t.Helper()
	n := 0
	for {
		if _, err := e.be.Step(); err != nil {
			e.t.Fatalf("step %d: %v", n+1, err)
		}
		n++
		if len(e.be.Snapshot().Pending) > 0 {
			return n
		}
	}
}

func snapshotOf(t *testing.T, c *webtest.Client) web.Snapshot {
	t.Helper()
	s, err := webtest.Decode[web.Snapshot](c.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const wait = 10 * time.Second // bound on waiting for a message (a network deadline)

func (e *env) get(path string, header map[string]string) (*http.Response, string) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.base+path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (e *env) post(path, body string, header map[string]string, ck *http.Cookie) (*http.Response, string) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if ck != nil {
		req.AddCookie(ck)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// follower reads a client's messages in the background, checking that the
// broadcast numbering has no gaps.
type follower struct {
	c    *webtest.Client
	keep bool

	mu      sync.Mutex
	cond    *sync.Cond
	got     []web.Envelope
	n       int
	lastSeq uint64
	err     error
	done    chan struct{}
}

func follow(c *webtest.Client, keep bool) *follower {
	f := &follower{c: c, keep: keep, done: make(chan struct{}), lastSeq: c.Snapshot.Seq}
	f.cond = sync.NewCond(&f.mu)
	go func() {
		defer close(f.done)
		for {
			m, err := c.Next(time.Minute)
			f.mu.Lock()
			if err != nil {
				f.err = err
				f.cond.Broadcast()
				f.mu.Unlock()
				return
			}
			f.n++
			if m.Seq > 0 {
				f.lastSeq = m.Seq
			}
			if f.keep {
				f.got = append(f.got, m)
			}
			f.cond.Broadcast()
			f.mu.Unlock()
		}
	}()
	return f
}

// waitSeq blocks until the client has read broadcast seq, or failed.
func (f *follower) waitSeq(seq uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.lastSeq < seq && f.err == nil {
		f.cond.Wait()
	}
	if f.lastSeq >= seq {
		return nil
	}
	return f.err
}

// stop closes the connection and waits for the reader.
func (f *follower) stop() {
	f.c.Close()
	<-f.done
}

// findOrWait returns the first message of type typ among seen (read while
// waiting for an ack), or reads on until one comes.
func findOrWait(t *testing.T, c *webtest.Client, seen []web.Envelope, typ string) web.Envelope {
	t.Helper()
	for _, m := range seen {
		if m.Type == typ {
			return m
		}
	}
	m, err := c.WaitType(wait, typ)
	if err != nil {
		t.Fatalf("waiting for %s: %v", typ, err)
	}
	return m
}
