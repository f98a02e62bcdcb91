package daemon

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/web"
)

// web.tls.self_signed makes the certificate in the state directory at the
// first start, logs its fingerprint, and reuses it at the next start.
func TestWebTLSSelfSignedKeptInStateDir(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	cfg, err := ParseConfig([]byte("web:\n  tls:\n    self_signed: true\n    hosts: [boardcam.club.example]\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(state, "boardcam", "tls")
	if cfg.Web.TLS.Dir != dir {
		t.Fatalf("tls dir %q, want %q", cfg.Web.TLS.Dir, dir)
	}
	start := func() (string, *bytes.Buffer) {
		var log bytes.Buffer
		d := &Daemon{Sight: testSight, Config: cfg, Clock: clock.Real{}, Logger: slog.New(slog.NewTextHandler(&log, nil))}
		tc, err := d.webTLS()
		if err != nil || tc == nil || len(tc.Certificates) != 1 {
			t.Fatalf("webTLS: %v %v", tc, err)
		}
		c, err := web.LoadCertificate(filepath.Join(dir, web.SelfSignedCert), filepath.Join(dir, web.SelfSignedKey), clock.Real{}.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Cert.Leaf.VerifyHostname("boardcam.club.example"); err != nil {
			t.Error(err)
		}
		return c.Fingerprint, &log
	}
	fp1, log1 := start()
	if !strings.Contains(log1.String(), "made a self-signed certificate") || !strings.Contains(log1.String(), fp1) {
		t.Errorf("first start log: %s", log1)
	}
	fp2, log2 := start()
	if fp2 != fp1 || strings.Contains(log2.String(), "made a") {
		t.Errorf("second start made another certificate: %s vs %s; %s", fp2, fp1, log2)
	}
	cfg.Web.TLS = TLSConfig{Cert: filepath.Join(dir, "missing.crt"), Key: filepath.Join(dir, web.SelfSignedKey)}
	d := &Daemon{Sight: testSight, Config: cfg, Clock: clock.Real{}, Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))}
	if _, err := d.webTLS(); err == nil || !strings.Contains(err.Error(), "missing.crt") {
		t.Errorf("a missing certificate file: %v", err)
	}
}
