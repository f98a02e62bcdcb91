// Package mosquittotest starts a real Mosquitto broker (Debian's
// `mosquitto` package, which scripts/setup.sh --test installs) for tests:
// on a loopback port only, with its own configuration, password file, ACL,
// TLS certificates and persistence directory in a temporary directory.
//
// A test that needs a broker calls [Start]; when the mosquitto binary is
// missing the test is skipped, except under CI or with
// BOARDCAM_REQUIRE_MOSQUITTO=1, where it fails (CI must not pass by
// skipping).
package mosquittotest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Options configure the broker.
type Options struct {
	// Users are username → password; when set, anonymous clients are
	// refused (allow_anonymous false) and the password file is made with
	// mosquitto_passwd.
	Users map[string]string
	// ACL is the text of an ACL file (mosquitto.conf(5) acl_file), used
	// when not empty.
	ACL string
	// TLS adds a TLS listener on a second loopback port, with a
	// certificate for 127.0.0.1 and localhost signed by a test CA
	// (Broker.CAFile).
	TLS bool
	// MaxPacket, when > 0, is the broker's max_packet_size in bytes.
	MaxPacket int
}

// Broker is a running mosquitto.
type Broker struct {
	Dir     string // configuration, passwords, certificates, persistence
	Port    int    // plain MQTT on 127.0.0.1
	TLSPort int    // TLS on 127.0.0.1 (Options.TLS)
	CAFile  string // the CA that signed the server certificate (Options.TLS)

	t    testing.TB
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// Binary is the mosquitto executable looked for.
func Binary() (string, bool) {
	for _, p := range []string{"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"} {
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	p, err := exec.LookPath("mosquitto")
	return p, err == nil
}

// Required reports whether a missing broker fails the test rather than
// skipping it (CI, or BOARDCAM_REQUIRE_MOSQUITTO=1).
func Required() bool {
	return os.Getenv("CI") != "" || os.Getenv("BOARDCAM_REQUIRE_MOSQUITTO") == "1"
}

// Start starts a broker and stops it when the test ends.
func Start(t testing.TB, o Options) *Broker {
	t.Helper()
	if _, ok := Binary(); !ok {
		if Required() {
			t.Fatal("mosquitto is not installed: scripts/setup.sh --test installs it")
		}
		t.Skip("mosquitto is not installed (scripts/setup.sh --test installs it)")
	}
	b := &Broker{Dir: t.TempDir(), t: t}
	b.Port = FreePort(t)
	conf := []string{
		"per_listener_settings false",
		fmt.Sprintf("listener %d 127.0.0.1", b.Port),
		"persistence true",
		"persistence_location " + b.Dir + "/",
		"autosave_interval 1",
		"log_dest stderr",
		"log_type error",
		"log_type warning",
	}
	if os.Geteuid() == 0 {
		// As root mosquitto would become user mosquitto, who cannot read
		// the test's private directory.
		conf = append(conf, "user root")
	}
	if o.MaxPacket > 0 {
		conf = append(conf, fmt.Sprintf("max_packet_size %d", o.MaxPacket))
	}
	if len(o.Users) > 0 {
		pw := filepath.Join(b.Dir, "passwd")
		if err := os.WriteFile(pw, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		for u, p := range o.Users {
			out, err := exec.Command("mosquitto_passwd", "-b", pw, u, p).CombinedOutput()
			if err != nil {
				t.Fatalf("mosquitto_passwd: %v: %s", err, out)
			}
		}
		conf = append(conf, "allow_anonymous false", "password_file "+pw)
	} else {
		conf = append(conf, "allow_anonymous true")
	}
	if o.ACL != "" {
		acl := filepath.Join(b.Dir, "acl")
		if err := os.WriteFile(acl, []byte(o.ACL), 0o600); err != nil {
			t.Fatal(err)
		}
		conf = append(conf, "acl_file "+acl)
	}
	if o.TLS {
		b.TLSPort = FreePort(t)
		ca, cert, key := writeCerts(t, b.Dir)
		b.CAFile = ca
		conf = append(conf, fmt.Sprintf("listener %d 127.0.0.1", b.TLSPort),
			"cafile "+ca, "certfile "+cert, "keyfile "+key)
	}
	if err := os.WriteFile(filepath.Join(b.Dir, "mosquitto.conf"), []byte(strings.Join(conf, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b.start()
	t.Cleanup(b.Stop)
	return b
}

// URL is the plain listener's URL, mqtt://127.0.0.1:PORT.
func (b *Broker) URL() string { return fmt.Sprintf("mqtt://127.0.0.1:%d", b.Port) }

// TLSURL is the TLS listener's URL, mqtts://127.0.0.1:PORT.
func (b *Broker) TLSURL() string { return fmt.Sprintf("mqtts://127.0.0.1:%d", b.TLSPort) }

func (b *Broker) start() {
	b.t.Helper()
	bin, _ := Binary()
	cmd := exec.Command(bin, "-c", filepath.Join(b.Dir, "mosquitto.conf"))
	var log strings.Builder
	cmd.Stderr = &lockedWriter{w: &log}
	if err := cmd.Start(); err != nil {
		b.t.Fatalf("mosquitto: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	b.mu.Lock()
	b.cmd, b.done = cmd, done
	b.mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", b.Port), time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-done:
			b.t.Fatalf("mosquitto exited at start: %s", log.String())
		default:
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("mosquitto does not listen on %d: %s", b.Port, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill kills the broker with SIGKILL (nothing saved since the last
// autosave, no will messages sent by it for clients).
func (b *Broker) Kill() { b.signal(syscall.SIGKILL) }

// Stop stops the broker with SIGTERM (it saves its persistence file).
func (b *Broker) Stop() { b.signal(syscall.SIGTERM) }

func (b *Broker) signal(s syscall.Signal) {
	b.mu.Lock()
	cmd, done := b.cmd, b.done
	b.cmd = nil
	b.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(s)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// Restart starts the broker again on the same ports with the same
// persistence (after Kill or Stop).
func (b *Broker) Restart() {
	b.t.Helper()
	b.start()
}

// FreePort returns a TCP port free on 127.0.0.1 at the time of the call.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w.Len() < 64<<10 {
		l.w.Write(p)
	}
	return len(p), nil
}

// writeCerts makes a CA and a server certificate for 127.0.0.1/localhost.
func writeCerts(t testing.TB, dir string) (ca, cert, key string) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "boardcam test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	srvKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	srvTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature,
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(srvKey)
	ca, cert, key = filepath.Join(dir, "ca.crt"), filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key")
	write := func(p, typ string, der []byte) {
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(ca, "CERTIFICATE", caDER)
	write(cert, "CERTIFICATE", srvDER)
	write(key, "EC PRIVATE KEY", keyDER)
	return ca, cert, key
}

// ClientTLS is a TLS configuration trusting the broker's test CA.
func (b *Broker) ClientTLS() *tls.Config {
	pool := x509.NewCertPool()
	pem, _ := os.ReadFile(b.CAFile)
	pool.AppendCertsFromPEM(pem)
	return &tls.Config{RootCAs: pool}
}
