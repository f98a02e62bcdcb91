package web

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// HTTPS for the console: a certificate the club has (LoadCertificate), or
// one made at the first start and kept (SelfSignedCertificate). A
// self-signed certificate makes browsers warn once; the umpire checks its
// fingerprint (the daemon logs it) and accepts it, or installs the
// certificate file on the console's device.

// Self-signed certificate files in the directory SelfSignedCertificate
// keeps them in.
const (
	SelfSignedCert = "console.crt"
	SelfSignedKey  = "console.key"
)

// selfSignedLife is how long a made certificate is valid; it is made
// again when less than selfSignedRenew is left.
const (
	selfSignedLife  = 5 * 365 * 24 * time.Hour
	selfSignedRenew = 30 * 24 * time.Hour
)

// TLSConfig is the server's TLS configuration for cert.
func TLSConfig(cert tls.Certificate) *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
}

// Certificate describes a certificate for the log.
type Certificate struct {
	Cert tls.Certificate
	// Fingerprint is the SHA-256 of the leaf certificate, hex with colons
	// (what browsers show).
	Fingerprint string
	NotAfter    time.Time
	Names       []string // DNS names and addresses it is valid for
	// Made says the certificate was made now (SelfSignedCertificate).
	Made bool
}

func describe(c tls.Certificate) (Certificate, error) {
	if len(c.Certificate) == 0 {
		return Certificate{}, errors.New("no certificate in the file")
	}
	leaf, err := x509.ParseCertificate(c.Certificate[0])
	if err != nil {
		return Certificate{}, err
	}
	c.Leaf = leaf
	sum := sha256.Sum256(leaf.Raw)
	hx := strings.ToUpper(hex.EncodeToString(sum[:]))
	var fp []string
	for i := 0; i < len(hx); i += 2 {
		fp = append(fp, hx[i:i+2])
	}
	names := append([]string{}, leaf.DNSNames...)
	for _, ip := range leaf.IPAddresses {
		names = append(names, ip.String())
	}
	return Certificate{Cert: c, Fingerprint: strings.Join(fp, ":"), NotAfter: leaf.NotAfter, Names: names}, nil
}

// LoadCertificate reads a PEM certificate (with its chain) and its private
// key. An expired certificate is an error: browsers would refuse it.
func LoadCertificate(certFile, keyFile string, now time.Time) (Certificate, error) {
	c, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return Certificate{}, fmt.Errorf("web: tls: %w", err)
	}
	d, err := describe(c)
	if err != nil {
		return Certificate{}, fmt.Errorf("web: tls: %s: %w", certFile, err)
	}
	if now.After(d.NotAfter) {
		return Certificate{}, fmt.Errorf("web: tls: %s: expired on %s", certFile, d.NotAfter.Format(time.DateOnly))
	}
	return d, nil
}

// SelfSignedCertificate returns the certificate kept in dir, or makes one
// (ECDSA P-256, valid five years for hosts and localhost) and keeps it
// there with its key (mode 0600) when there is none, when it is about to
// expire or when it does not cover every one of hosts. A file that cannot
// be read is an error, never silently replaced.
func SelfSignedCertificate(dir string, hosts []string, now time.Time) (Certificate, error) {
	certFile, keyFile := filepath.Join(dir, SelfSignedCert), filepath.Join(dir, SelfSignedKey)
	hosts = append([]string{"localhost", "127.0.0.1", "::1"}, hosts...)
	c, err := tls.LoadX509KeyPair(certFile, keyFile)
	switch {
	case err == nil:
		d, err := describe(c)
		if err != nil {
			return Certificate{}, fmt.Errorf("web: tls: %s: %w", certFile, err)
		}
		if now.Add(selfSignedRenew).Before(d.NotAfter) && covers(d.Cert.Leaf, hosts) {
			return d, nil
		}
	case errors.Is(err, fs.ErrNotExist):
		if _, e2 := os.Stat(certFile); e2 == nil {
			return Certificate{}, fmt.Errorf("web: tls: %s without its key %s: remove it to make a new certificate", certFile, keyFile)
		}
	default:
		return Certificate{}, fmt.Errorf("web: tls: %w (remove both files to make a new certificate)", err)
	}
	certPEM, keyPEM, err := makeSelfSigned(hosts, now)
	if err != nil {
		return Certificate{}, fmt.Errorf("web: tls: %w", err)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return Certificate{}, fmt.Errorf("web: tls: %w", err)
	}
	if err := writeFileAtomic(keyFile, keyPEM, 0o600); err != nil {
		return Certificate{}, fmt.Errorf("web: tls: %w", err)
	}
	if err := writeFileAtomic(certFile, certPEM, 0o644); err != nil {
		return Certificate{}, fmt.Errorf("web: tls: %w", err)
	}
	c, err = tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return Certificate{}, fmt.Errorf("web: tls: %w", err)
	}
	d, err := describe(c)
	if err != nil {
		return Certificate{}, fmt.Errorf("web: tls: %w", err)
	}
	d.Made = true
	return d, nil
}

func covers(leaf *x509.Certificate, hosts []string) bool {
	for _, h := range hosts {
		if leaf.VerifyHostname(h) != nil {
			return false
		}
	}
	return true
}

func makeSelfSigned(hosts []string, now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "boardcam console", Organization: []string{"boardcam"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(selfSignedLife),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true, // so that it can be installed as its own root
	}
	seen := map[string]bool{}
	for _, h := range hosts {
		if h == "" || seen[h] {
			continue
		}
		seen[h] = true
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd}), nil
}

func writeFileAtomic(name string, b []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
