package web_test

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/web"
	"github.com/boardcam/boardcam/web/webtest"
)

// attempt posts a login with password from a client behind a proxy (xff
// non-empty: the X-Forwarded-For header) with the given cookies.
func (e *env) attempt(password, xff string, cks ...*http.Cookie) (*http.Response, string) {
	e.t.Helper()
	h := map[string]string{}
	if xff != "" {
		h["X-Forwarded-For"] = xff
	}
	req, _ := http.NewRequest(http.MethodPost, e.base+"/api/login", strings.NewReader(`{"password":"`+password+`"}`))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	for _, ck := range cks {
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

func cookie(resp *http.Response, name string) *http.Cookie {
	for _, c := range resp.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// guess makes n failed logins and checks each is refused as wrong.
func (e *env) guess(n int, xff string, cks ...*http.Cookie) {
	e.t.Helper()
	for i := 0; i < n; i++ {
		if r, body := e.attempt("guess number "+string(rune('a'+i)), xff, cks...); r.StatusCode != http.StatusUnauthorized {
			e.t.Fatalf("guess %d from %q: %d %s", i, xff, r.StatusCode, body)
		}
	}
}

// A guesser behind the club's reverse proxy locks out only itself: the
// umpire behind the same proxy still logs in.
func TestLockoutPerClientBehindTrustedProxy(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.LoginFailures = 3; c.TrustedProxies = []string{"127.0.0.0/8"} })
	e.guess(3, "203.0.113.7")
	if r, _ := e.attempt(testPassword, "203.0.113.7"); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the guesser is not locked out: %d", r.StatusCode)
	}
	// Prepending a forged hop does not change who the proxy saw.
	if r, _ := e.attempt(testPassword, "198.51.100.1, 203.0.113.7"); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a forged X-Forwarded-For hop escapes the lock-out: %d", r.StatusCode)
	}
	if r, body := e.attempt(testPassword, "203.0.113.8"); r.StatusCode != http.StatusOK {
		t.Errorf("the umpire behind the same proxy: %d %s", r.StatusCode, body)
	}
	// A chain of trusted proxies: the client is the rightmost untrusted hop.
	if r, body := e.attempt(testPassword, "203.0.113.9, 127.0.0.5"); r.StatusCode != http.StatusOK {
		t.Errorf("through two proxies: %d %s", r.StatusCode, body)
	}
	if r, _ := e.attempt(testPassword, "203.0.113.7, 127.0.0.5"); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the guesser through two proxies is not locked out: %d", r.StatusCode)
	}
}

// IPv6 clients count per /64: a guesser does not escape by changing the
// low bits of its address.
func TestLockoutIPv6PerSlash64(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.LoginFailures = 3; c.TrustedProxies = []string{"127.0.0.1"} })
	e.guess(3, "2001:db8:1:2::1")
	if r, _ := e.attempt(testPassword, "2001:db8:1:2::ffff"); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("same /64: %d", r.StatusCode)
	}
	if r, body := e.attempt(testPassword, "2001:db8:1:3::1"); r.StatusCode != http.StatusOK {
		t.Errorf("another /64: %d %s", r.StatusCode, body)
	}
}

// Without trusted proxies the header is the client's word, not believed:
// a guesser cannot pick a fresh key with every attempt.
func TestLockoutIgnoresForwardedForFromUntrustedPeer(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.LoginFailures = 3 })
	for i := 0; i < 3; i++ {
		e.guess(1, "203.0.113."+string(rune('1'+i)))
	}
	if r, _ := e.attempt(testPassword, "203.0.113.99"); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("X-Forwarded-For from an untrusted peer escapes the lock-out: %d", r.StatusCode)
	}
}

// The umpire's browser, having logged in before, carries a device cookie:
// a guesser at the same address (a shared proxy that is not configured, a
// club's NAT) locks the address out, not the umpire.
func TestLockoutSparesTheUmpiresBrowser(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.LoginFailures = 3 })
	r, body := e.attempt(testPassword, "")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("first login: %d %s", r.StatusCode, body)
	}
	dev := cookie(r, "boardcam_device")
	if dev == nil || !dev.HttpOnly || dev.SameSite != http.SameSiteStrictMode || dev.Path != "/api/login" || dev.MaxAge < 300*24*3600 {
		t.Fatalf("device cookie %+v", dev)
	}
	e.guess(3, "") // a guesser at the same address, without the cookie
	if r, _ := e.attempt(testPassword, ""); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the address is not locked out: %d", r.StatusCode)
	}
	r, body = e.attempt(testPassword, "", dev)
	if r.StatusCode != http.StatusOK {
		t.Errorf("the umpire's browser is locked out with the guesser: %d %s", r.StatusCode, body)
	}
	if cookie(r, "boardcam_device") != nil {
		t.Error("a valid device cookie is replaced at every login")
	}
	// A forged device cookie is no cookie.
	forged := &http.Cookie{Name: "boardcam_device", Value: strings.Replace(dev.Value, ".", "x.", 1)}
	if r, _ := e.attempt(testPassword, "", forged); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a forged device cookie escapes the lock-out: %d", r.StatusCode)
	}
	// The device's own failures lock the device out (a stolen cookie is
	// not a free pass), for the window only.
	e.guess(3, "", dev)
	if r, _ := e.attempt(testPassword, "", dev); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the device is not locked out by its own failures: %d", r.StatusCode)
	}
	e.clock.Advance(time.Minute)
	if r, body := e.attempt(testPassword, "", dev); r.StatusCode != http.StatusOK {
		t.Errorf("after the window: %d %s", r.StatusCode, body)
	}
}

// A device cookie made under another password is worthless.
func TestDeviceCookieDiesWithThePassword(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.LoginFailures = 2 })
	r, _ := e.attempt(testPassword, "")
	dev := cookie(r, "boardcam_device")
	other, err := web.HashPasswordIter("another password", 1000)
	if err != nil {
		t.Fatal(err)
	}
	e2 := newEnv(t, func(c *web.Config) { c.LoginFailures = 2; c.UmpireHash = other })
	e2.guess(2, "")
	if r, _ := e2.attempt("another password", "", dev); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a device cookie of the old password escapes the lock-out: %d", r.StatusCode)
	}
}

func TestTrustedProxiesChecked(t *testing.T) {
	srv := &web.Server{Config: web.Config{TrustedProxies: []string{"10.0.0.0/8", "proxy.example"}}}
	err := srv.Initialize()
	if err == nil {
		srv.Close()
		t.Fatal("a host name among trusted_proxies accepted")
	}
	if !strings.Contains(err.Error(), `trusted_proxies[1]: "proxy.example"`) {
		t.Errorf("error %q does not name the entry", err)
	}
}

// startTLS serves a Server with a self-signed certificate on loopback and
// returns its base URL and a client that trusts the certificate.
func startTLS(t *testing.T, edit func(*web.Config)) (string, *http.Client) {
	t.Helper()
	dir := t.TempDir()
	c, err := web.SelfSignedCertificate(dir, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	cfg := web.Config{Listen: "127.0.0.1:0", UmpireHash: passwordHash(t), TLS: web.TLSConfig(c.Cert)}
	if edit != nil {
		edit(&cfg)
	}
	fake := webtest.NewFake(webtest.DemoScript())
	srv := &web.Server{Config: cfg, Source: fake, Sink: fake, Frames: fake, Painter: fake.Painter}
	if err := srv.Initialize(); err != nil {
		fake.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(); fake.Close() })
	pool := x509.NewCertPool()
	pool.AddCert(c.Cert.Leaf)
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	t.Cleanup(tr.CloseIdleConnections)
	return "https://" + srv.Addr(), &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

func login(t *testing.T, client *http.Client, base string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/login", strings.NewReader(`{"password":"`+testPassword+`"}`))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("login: %s", resp.Status)
	}
	return resp
}

// Over HTTPS the session and device cookies are Secure; plain HTTP is
// refused by the TLS listener.
func TestHTTPSConsole(t *testing.T) {
	base, client := startTLS(t, nil)
	resp := login(t, client, base, nil)
	if resp.TLS == nil || resp.TLS.Version < tls.VersionTLS12 {
		t.Errorf("not served over TLS ≥1.2: %+v", resp.TLS)
	}
	for _, name := range []string{"boardcam_session", "boardcam_device"} {
		if c := cookie(resp, name); c == nil || !c.Secure {
			t.Errorf("%s over HTTPS: %+v, want Secure", name, c)
		}
	}
	plain := "http://" + strings.TrimPrefix(base, "https://")
	if r, err := http.Get(plain + "/api/session"); err == nil {
		if r.StatusCode == http.StatusOK {
			t.Errorf("plain HTTP on the HTTPS port answers %s", r.Status)
		}
		r.Body.Close()
	}
}

// Behind a TLS-terminating proxy that is trusted, X-Forwarded-Proto makes
// the cookie Secure; the same header from anyone else does not.
func TestSecureCookieBehindProxy(t *testing.T) {
	e := newEnv(t, nil)
	r, _ := e.post("/api/login", `{"password":"`+testPassword+`"}`, map[string]string{"X-Forwarded-Proto": "https"}, nil)
	if c := cookie(r, "boardcam_session"); c == nil || c.Secure {
		t.Errorf("untrusted peer's X-Forwarded-Proto: %+v", c)
	}
	e = newEnv(t, func(c *web.Config) { c.TrustedProxies = []string{"127.0.0.1"} })
	r, _ = e.post("/api/login", `{"password":"`+testPassword+`"}`, map[string]string{"X-Forwarded-Proto": "https"}, nil)
	if c := cookie(r, "boardcam_session"); c == nil || !c.Secure {
		t.Errorf("trusted proxy's X-Forwarded-Proto https: %+v, want Secure", c)
	}
	r, _ = e.post("/api/login", `{"password":"`+testPassword+`"}`, nil, nil)
	if c := cookie(r, "boardcam_session"); c == nil || c.Secure {
		t.Errorf("plain HTTP: %+v, want not Secure", c)
	}
}

// The self-signed certificate is made once, kept, and made again only
// when it nears its end or misses a host; a broken file is an error.
func TestSelfSignedCertificateKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	a, err := web.SelfSignedCertificate(dir, []string{"boardcam.local", "192.168.1.20"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Made {
		t.Error("first call: not made")
	}
	for _, h := range []string{"boardcam.local", "192.168.1.20", "localhost", "127.0.0.1", "::1"} {
		if err := a.Cert.Leaf.VerifyHostname(h); err != nil {
			t.Errorf("certificate does not cover %s: %v", h, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, web.SelfSignedKey)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v %v", fi.Mode(), err)
	}
	b, err := web.SelfSignedCertificate(dir, []string{"boardcam.local"}, now.Add(365*24*time.Hour))
	if err != nil || b.Made || b.Fingerprint != a.Fingerprint {
		t.Errorf("second start: made %v, fingerprint %s (was %s), %v", b.Made, b.Fingerprint, a.Fingerprint, err)
	}
	c, err := web.SelfSignedCertificate(dir, []string{"scoreboard.local"}, now)
	if err != nil || !c.Made {
		t.Errorf("a new host name: made %v, %v", c.Made, err)
	}
	d, err := web.SelfSignedCertificate(dir, []string{"scoreboard.local"}, c.NotAfter.Add(-24*time.Hour))
	if err != nil || !d.Made {
		t.Errorf("near its end: made %v, %v", d.Made, err)
	}
	if err := os.WriteFile(filepath.Join(dir, web.SelfSignedCert), []byte("not a certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := web.SelfSignedCertificate(dir, nil, now); err == nil {
		t.Error("a broken certificate file is silently replaced")
	}
}

func TestLoadCertificate(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	a, err := web.SelfSignedCertificate(dir, nil, now)
	if err != nil {
		t.Fatal(err)
	}
	crt, key := filepath.Join(dir, web.SelfSignedCert), filepath.Join(dir, web.SelfSignedKey)
	b, err := web.LoadCertificate(crt, key, now)
	if err != nil || b.Fingerprint != a.Fingerprint {
		t.Errorf("load: %v, %s vs %s", err, b.Fingerprint, a.Fingerprint)
	}
	if _, err := web.LoadCertificate(crt, key, a.NotAfter.Add(time.Hour)); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Errorf("expired certificate: %v", err)
	}
	if _, err := web.LoadCertificate(crt, filepath.Join(dir, "missing.key"), now); err == nil {
		t.Error("a missing key accepted")
	}
}
