package tournament

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/boardcam/boardcam/web"
)

// auth keeps the chief referee's sessions: a password (checked against
// its pbkdf2 hash, as the board's console does), an HttpOnly SameSite
// cookie and a CSRF token that every request that changes something
// carries in X-CSRF-Token. Five wrong passwords from one address within
// a minute lock it out for the rest of the minute.
type auth struct {
	hash string
	ttl  time.Duration
	now  func() time.Time

	mu       sync.Mutex
	sessions map[string]session
	fails    map[string][]time.Time
}

type session struct {
	csrf    string
	expires time.Time
}

const cookieName = "boardcam_chief"

func newAuth(hash string, ttl time.Duration, now func() time.Time) *auth {
	return &auth{hash: hash, ttl: ttl, now: now, sessions: map[string]session{}, fails: map[string][]time.Time{}}
}

func token() string {
	b := make([]byte, 24)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// login checks the password; ok false with locked true when the address
// is locked out.
func (a *auth) login(addr, password string) (id string, s session, ok, locked bool) {
	now := a.now()
	a.mu.Lock()
	recent := a.fails[addr][:0]
	for _, t := range a.fails[addr] {
		if now.Sub(t) < time.Minute {
			recent = append(recent, t)
		}
	}
	a.fails[addr] = recent
	if len(recent) >= 5 {
		a.mu.Unlock()
		return "", session{}, false, true
	}
	a.mu.Unlock()
	good := false
	if a.hash != "" {
		good, _ = web.VerifyPassword(a.hash, password)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !good {
		a.fails[addr] = append(a.fails[addr], now)
		return "", session{}, false, false
	}
	id = token()
	s = session{csrf: token(), expires: now.Add(a.ttl)}
	a.sessions[id] = s
	return id, s, true, false
}

// check returns the session of a request; csrf requires the header.
func (a *auth) check(r *http.Request, csrf bool) (session, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return session{}, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[c.Value]
	if !ok {
		return session{}, false
	}
	if a.now().After(s.expires) {
		delete(a.sessions, c.Value)
		return session{}, false
	}
	if csrf && subtle.ConstantTimeCompare([]byte(r.Header.Get("X-CSRF-Token")), []byte(s.csrf)) != 1 {
		return session{}, false
	}
	return s, true
}

func (a *auth) logout(r *http.Request) {
	if c, err := r.Cookie(cookieName); err == nil {
		a.mu.Lock()
		delete(a.sessions, c.Value)
		a.mu.Unlock()
	}
}

func remoteHost(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}
