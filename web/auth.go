package web

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardcam/boardcam/clock"
)

// The umpire's password (or token: any long random string works the same
// way) is stored only as a PBKDF2-HMAC-SHA256 hash from the standard
// library, in the form
//
//	pbkdf2-sha256$<iterations>$<salt, base64>$<key, base64>
//
// HashPassword makes one for the configuration file.

// DefaultIterations is HashPassword's PBKDF2 work factor (OWASP's 2023
// advice for PBKDF2-HMAC-SHA256). A login costs about 0.3 s on a desktop
// and a second or two on a Raspberry Pi 4; logins are verified one at a time.
const DefaultIterations = 600_000

const (
	hashScheme = "pbkdf2-sha256"
	keyLen     = 32
	saltLen    = 16
	minPass    = 8
)

// HashPassword hashes an umpire password or token for Config.UmpireHash.
func HashPassword(password string) (string, error) {
	return HashPasswordIter(password, DefaultIterations)
}

// HashPasswordIter is HashPassword with a chosen work factor (tests use a
// small one; at least 1000).
func HashPasswordIter(password string, iterations int) (string, error) {
	if len(password) < minPass {
		return "", fmt.Errorf("web: password: at least %d characters, got %d", minPass, len(password))
	}
	if iterations < 1000 {
		return "", fmt.Errorf("web: password: at least 1000 iterations, got %d", iterations)
	}
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("web: password: %w", err)
	}
	key, err := pbkdf2.Key(sha256.New, password, salt, iterations, keyLen)
	if err != nil {
		return "", fmt.Errorf("web: password: %w", err)
	}
	enc := base64.RawStdEncoding
	return fmt.Sprintf("%s$%d$%s$%s", hashScheme, iterations, enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

type passwordHash struct {
	iter      int
	salt, key []byte
}

func parseHash(s string) (passwordHash, error) {
	parts := strings.Split(s, "$")
	if len(parts) != 4 || parts[0] != hashScheme {
		return passwordHash{}, fmt.Errorf("not a %s hash (want %s$<iterations>$<salt>$<key>, as `HashPassword` makes)", hashScheme, hashScheme)
	}
	iter, err := strconv.Atoi(parts[1])
	if err != nil || iter < 1000 || iter > 100_000_000 {
		return passwordHash{}, fmt.Errorf("iterations %q: want a number from 1000 to 100000000", parts[1])
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[2])
	if err != nil || len(salt) < 8 {
		return passwordHash{}, errors.New("salt: want at least 8 bytes of unpadded base64")
	}
	key, err := enc.DecodeString(parts[3])
	if err != nil || len(key) < 16 {
		return passwordHash{}, errors.New("key: want at least 16 bytes of unpadded base64")
	}
	return passwordHash{iter, salt, key}, nil
}

// verify compares in constant time.
func (h passwordHash) verify(password string) bool {
	key, err := pbkdf2.Key(sha256.New, password, h.salt, h.iter, len(h.key))
	return err == nil && subtle.ConstantTimeCompare(key, h.key) == 1
}

// VerifyPassword reports whether password matches hash (made by
// HashPassword).
func VerifyPassword(hash, password string) (bool, error) {
	h, err := parseHash(hash)
	if err != nil {
		return false, fmt.Errorf("web: %w", err)
	}
	return h.verify(password), nil
}

// session is one umpire login. The cookie holds a random token; the store
// keys sessions by the token's SHA-256 so a memory dump does not reveal live
// cookies.
type session struct {
	key     string // hex SHA-256 of the token
	csrf    string
	created time.Time
	expires time.Time
}

type sessionStore struct {
	mu    sync.Mutex
	clock clock.Clock
	ttl   time.Duration
	max   int
	m     map[string]*session
}

func newSessionStore(clock clock.Clock, ttl time.Duration, max int) *sessionStore {
	return &sessionStore{clock: clock, ttl: ttl, max: max, m: map[string]*session{}}
}

func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("web: crypto/rand failed: " + err.Error()) // never happens on Linux
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func tokenKey(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// create starts a session and returns its cookie token.
func (s *sessionStore) create() (string, session) {
	now := s.clock.Now()
	token := randomToken()
	ss := &session{key: tokenKey(token), csrf: randomToken(), created: now, expires: now.Add(s.ttl)}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.m {
		if !now.Before(v.expires) {
			delete(s.m, k)
		}
	}
	for len(s.m) >= s.max {
		var oldest *session
		for _, v := range s.m {
			if oldest == nil || v.created.Before(oldest.created) {
				oldest = v
			}
		}
		delete(s.m, oldest.key)
	}
	s.m[ss.key] = ss
	return token, *ss
}

// get returns the live session of a cookie token.
func (s *sessionStore) get(token string) (session, bool) {
	if token == "" {
		return session{}, false
	}
	k := tokenKey(token)
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.m[k]
	if !ok {
		return session{}, false
	}
	if !now.Before(ss.expires) {
		delete(s.m, k)
		return session{}, false
	}
	return *ss, true
}

// byKey returns the live session with the given key, and whether it
// existed at all (to tell an expired session from none).
func (s *sessionStore) byKey(key string) (ss session, live, existed bool) {
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.m[key]
	if !ok {
		return session{}, false, false
	}
	if !now.Before(p.expires) {
		delete(s.m, key)
		return *p, false, true
	}
	return *p, true, true
}

func (s *sessionStore) delete(key string) {
	s.mu.Lock()
	delete(s.m, key)
	s.mu.Unlock()
}

// loginLimiter locks an address out after too many failed logins.
type loginLimiter struct {
	mu     sync.Mutex
	clock  clock.Clock
	max    int
	window time.Duration
	m      map[string]*failures
}

type failures struct {
	n     int
	since time.Time
}

const maxLimiterEntries = 4096

func newLoginLimiter(clock clock.Clock, max int, window time.Duration) *loginLimiter {
	return &loginLimiter{clock: clock, max: max, window: window, m: map[string]*failures{}}
}

// blocked returns how long addr must still wait, zero when it may try.
func (l *loginLimiter) blocked(addr string) time.Duration {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	f, ok := l.m[addr]
	if !ok {
		return 0
	}
	end := f.since.Add(l.window)
	if !now.Before(end) {
		delete(l.m, addr)
		return 0
	}
	if f.n >= l.max {
		return end.Sub(now)
	}
	return 0
}

func (l *loginLimiter) fail(addr string) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if f, ok := l.m[addr]; ok && now.Before(f.since.Add(l.window)) {
		f.n++
		return
	}
	if len(l.m) >= maxLimiterEntries {
		for k, v := range l.m {
			if !now.Before(v.since.Add(l.window)) {
				delete(l.m, k)
			}
		}
		if len(l.m) >= maxLimiterEntries {
			// A flood from thousands of addresses: stop remembering
			// rather than grow. Logins are still verified one at a
			// time, which bounds what such a flood costs.
			return
		}
	}
	l.m[addr] = &failures{n: 1, since: now}
}

func (l *loginLimiter) succeed(addr string) {
	l.mu.Lock()
	delete(l.m, addr)
	l.mu.Unlock()
}

// tokenBucket limits the messages of one connection.
type tokenBucket struct {
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func newTokenBucket(rate float64, burst int, now time.Time) *tokenBucket {
	return &tokenBucket{rate: rate, burst: float64(burst), tokens: float64(burst), last: now}
}

func (b *tokenBucket) allow(now time.Time) bool {
	if d := now.Sub(b.last).Seconds(); d > 0 {
		b.tokens += d * b.rate
		if b.tokens > b.burst {
			b.tokens = b.burst
		}
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}
