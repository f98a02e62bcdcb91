package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// Who a failed login is held against.
//
// There is one account (the umpire), so a lock-out per user name would
// let any guesser lock the umpire out: the wrong key. Failures are counted
// per client instead:
//
//   - the client's address, as seen through the reverse proxies listed in
//     Config.TrustedProxies (X-Forwarded-For is read right to left and
//     the first address that is not a trusted proxy is the client; a
//     client that is not a trusted proxy cannot choose its key by sending
//     the header). IPv6 addresses count per /64, the block one host
//     usually has to itself.
//   - a browser that has logged in before carries a device cookie (signed
//     with a key derived from the umpire's hash, so it survives restarts
//     and dies with a password change). Its logins are counted against
//     that device alone and are not refused because its address is locked
//     out: a guesser on the club's network (or behind the same proxy)
//     cannot keep the umpire's own browser out. Its own failures lock it
//     out like an address.
//
// Logins are verified one at a time whatever the key, which bounds what a
// flood from many addresses costs.

const (
	deviceCookie = "boardcam_device"
	deviceTTL    = 400 * 24 * time.Hour // browsers cap cookies at 400 days
)

// parseTrustedProxies reads addresses and CIDR blocks ("10.0.0.1",
// "192.168.0.0/16", "::1").
func parseTrustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for i, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("trusted_proxies[%d]: %q is neither an address nor a CIDR block", i, s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

func (s *Server) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientIP is the address of the client that made r: the peer, or when
// the peer is a trusted proxy, the rightmost untrusted address of
// X-Forwarded-For (proxies append the address they received from).
func (s *Server) clientIP(r *http.Request) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	peer = peer.Unmap()
	if !s.trusted(peer) {
		return peer, true
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h := strings.TrimSpace(hops[i])
		if h == "" {
			continue
		}
		a, err := netip.ParseAddr(h)
		if err != nil {
			// A hop we cannot read: the client is beyond it, and anything
			// further left may be forged. Hold it against the last proxy.
			return peer, true
		}
		a = a.Unmap()
		if !s.trusted(a) {
			return a, true
		}
		peer = a
	}
	return peer, true
}

// clientKey is the lock-out key of r's address.
func (s *Server) clientKey(r *http.Request) string {
	a, ok := s.clientIP(r)
	if !ok {
		return "addr " + r.RemoteAddr
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return "net " + p.String()
	}
	return "addr " + a.String()
}

// viaTLS reports whether the client reached us over TLS: directly, or
// through a trusted proxy that says so (X-Forwarded-Proto: https).
func (s *Server) viaTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !s.trusted(peer) {
		return false
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// deviceKey is the HMAC key of device cookies, derived from the umpire's
// hash (its salt and key are secret to whoever can read the
// configuration).
func (s *Server) deviceKey() []byte {
	m := hmac.New(sha256.New, []byte("boardcam device cookie v1"))
	m.Write([]byte(s.cfg.UmpireHash))
	return m.Sum(nil)
}

// newDeviceToken makes a device cookie's value: an id and its MAC.
func (s *Server) newDeviceToken() string {
	id := randomToken()[:22]
	m := hmac.New(sha256.New, s.deviceKey())
	m.Write([]byte(id))
	return id + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// device returns the id of r's valid device cookie.
func (s *Server) device(r *http.Request) (string, bool) {
	ck, err := r.Cookie(deviceCookie)
	if err != nil {
		return "", false
	}
	id, mac, ok := strings.Cut(ck.Value, ".")
	if !ok || id == "" {
		return "", false
	}
	got, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil {
		return "", false
	}
	m := hmac.New(sha256.New, s.deviceKey())
	m.Write([]byte(id))
	if !hmac.Equal(got, m.Sum(nil)) {
		return "", false
	}
	return id, true
}

// loginKey is who a login attempt is counted against.
func (s *Server) loginKey(r *http.Request) string {
	if id, ok := s.device(r); ok {
		return "device " + id
	}
	return s.clientKey(r)
}
