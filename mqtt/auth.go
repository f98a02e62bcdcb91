package mqtt

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// Auth signs a command: the tournament view signs every command of an
// authenticated chief referee with its private key (Ed25519); a board
// accepts only commands signed by the public key in its configuration
// (Config.CommandKey), recent (Config.CommandMaxAge) and not seen before.
// The broker's ACL keeps others from publishing to command topics; the
// signature keeps a board from obeying anyone who got past it, including
// another board.
type Auth struct {
	// By names who sent it ("chief referee"); it goes into the journal's
	// note.
	By string `json:"by"`
	// Sig is the base64 Ed25519 signature of SignedBytes.
	Sig string `json:"sig"`
}

// SignedBytes is what a command's signature covers: the command topic,
// the id, the time and the data, so that a signed command cannot be
// replayed to another board or later.
func SignedBytes(topic, id string, t time.Time, by string, data []byte) []byte {
	s := "boardcam-command/1\n" + topic + "\n" + id + "\n" + t.UTC().Format(time.RFC3339Nano) + "\n" + by + "\n"
	return append([]byte(s), data...)
}

// Sign fills e.Auth for topic with key.
func Sign(e *Envelope, topic, by string, key ed25519.PrivateKey) {
	sig := ed25519.Sign(key, SignedBytes(topic, e.ID, e.T, by, e.Data))
	e.Auth = &Auth{By: by, Sig: base64.StdEncoding.EncodeToString(sig)}
}

// Verify checks e's signature for topic.
func Verify(e Envelope, topic string, pub ed25519.PublicKey) error {
	if e.Auth == nil || e.Auth.Sig == "" {
		return errors.New("unsigned")
	}
	sig, err := base64.StdEncoding.DecodeString(e.Auth.Sig)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return errors.New("malformed signature")
	}
	if !ed25519.Verify(pub, SignedBytes(topic, e.ID, e.T, e.Auth.By, e.Data), sig) {
		return errors.New("bad signature")
	}
	return nil
}

// keyPrefix marks the text form of keys.
const (
	privPrefix = "boardcam-ed25519-private:"
	pubPrefix  = "boardcam-ed25519-public:"
)

// GenerateKey makes a command key pair and returns the private key's file
// text and the public key's text (for the boards' mqtt.command_key).
func GenerateKey() (private, public string, err error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", "", err
	}
	return privPrefix + base64.StdEncoding.EncodeToString(priv.Seed()) + "\n",
		pubPrefix + base64.StdEncoding.EncodeToString(pub), nil
}

// ParsePublicKey reads the text GenerateKey's public key.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, pubPrefix) {
		return nil, fmt.Errorf("command key %q: not a boardcam public key (%s…): `boardcam tournament --gen-key FILE` prints one", short(s), pubPrefix)
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, pubPrefix))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("command key: bad public key")
	}
	return ed25519.PublicKey(b), nil
}

// ReadPrivateKey reads a private key file written by GenerateKey.
func ReadPrivateKey(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("command key: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if !strings.HasPrefix(s, privPrefix) {
		return nil, fmt.Errorf("command key %s: not a boardcam private key", path)
	}
	seed, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, privPrefix))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("command key %s: bad private key", path)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

func short(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}
