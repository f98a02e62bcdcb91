package mqtt

import (
	"crypto/ed25519"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The spool numbers per match, survives a restart with what was not
// acknowledged, in order, and drops a torn last line.
func TestSpool(t *testing.T) {
	dir := t.TempDir()
	s, err := openSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		e := Envelope{V: 1, Type: "notice", Match: "m1"}
		if err := s.add(&e); err != nil || e.Seq != uint64(i+1) {
			t.Fatalf("add %d: seq %d %v", i, e.Seq, err)
		}
	}
	q, _ := s.head()
	s.ack(q)
	s.close()
	// A crash mid-write leaves half a line.
	f, _ := os.OpenFile(filepath.Join(dir, "m1.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"v":1,"type":"no`)
	f.Close()

	s, err = openSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.pending() != 2 {
		t.Fatalf("%d pending after the restart, want 2", s.pending())
	}
	if q, _ := s.head(); q.seq != 2 {
		t.Errorf("head seq %d, want 2", q.seq)
	}
	e := Envelope{V: 1, Type: "notice", Match: "m1"}
	s.add(&e)
	if e.Seq != 4 {
		t.Errorf("numbering went on at %d, want 4", e.Seq)
	}
	e2 := Envelope{V: 1, Type: "snapshot", Match: "m2"}
	s.add(&e2)
	if e2.Seq != 1 {
		t.Errorf("a new match starts at %d", e2.Seq)
	}
	for s.pending() > 0 {
		q, _ := s.head()
		s.ack(q)
	}
	s.prune("m2")
	if _, err := os.Stat(filepath.Join(dir, "m1.jsonl")); !os.IsNotExist(err) {
		t.Error("a finished match's spool was kept")
	}
	s.close()
	if err := (&spool{}).add(&Envelope{Match: "../x"}); err == nil {
		t.Error("a match id with a slash")
	}
}

func TestSignVerify(t *testing.T) {
	priv, pubText, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	kf := filepath.Join(t.TempDir(), "k")
	os.WriteFile(kf, []byte(priv), 0o600)
	key, err := ReadPrivateKey(kf)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParsePublicKey(pubText)
	if err != nil {
		t.Fatal(err)
	}
	e := Envelope{V: 1, Type: "command", ID: "c1", T: time.Now(), Data: json.RawMessage(`{"name":"undo"}`)}
	Sign(&e, "boardcam/a/b1/command", "chief referee", key)
	if err := Verify(e, "boardcam/a/b1/command", pub); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(Envelope) (Envelope, string){
		"other board": func(e Envelope) (Envelope, string) { return e, "boardcam/a/b2/command" },
		"data": func(e Envelope) (Envelope, string) {
			e.Data = json.RawMessage(`{"name":"concede","team":0}`)
			return e, "boardcam/a/b1/command"
		},
		"time": func(e Envelope) (Envelope, string) { e.T = e.T.Add(time.Second); return e, "boardcam/a/b1/command" },
		"by": func(e Envelope) (Envelope, string) {
			a := *e.Auth
			a.By = "x"
			e.Auth = &a
			return e, "boardcam/a/b1/command"
		},
		"unsigned": func(e Envelope) (Envelope, string) { e.Auth = nil; return e, "boardcam/a/b1/command" },
	} {
		m, topic := f(e)
		if Verify(m, topic, pub) == nil {
			t.Errorf("%s: a changed command verified", name)
		}
	}
	other := ed25519.NewKeyFromSeed(make([]byte, 32))
	Sign(&e, "boardcam/a/b1/command", "chief referee", other)
	if Verify(e, "boardcam/a/b1/command", pub) == nil {
		t.Error("another key verified")
	}
	if _, err := ParsePublicKey("nonsense"); err == nil {
		t.Error("a bad public key parsed")
	}
}

func TestConfigCheck(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Broker: "http://x:1"}, "scheme"},
		{Config{Broker: "mqtt://x"}, "port"},
		{Config{Broker: "mqtt://x:1883"}, "prefix"},
		{Config{Broker: "mqtt://x:1883", Prefix: "a/+/b"}, "wildcards"},
		{Config{Broker: "mqtt://x:1883", Prefix: "a/b", Password: "p"}, "without a username"},
		{Config{Broker: "mqtt://x:1883", Prefix: "a/b", Cert: "c"}, "both cert and key"},
		{Config{Broker: "mqtt://x:1883", Prefix: "a/b", CommandKey: "k"}, "command_key"},
	} {
		err := c.cfg.Check(true)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
	c := Config{Broker: "mqtts://x:8883", Prefix: "boardcam/club/b1"}
	if err := c.Check(true); err != nil {
		t.Fatal(err)
	}
	if c.Prefix != "boardcam/club/b1/" || c.Name != "b1" || c.ClientID != "boardcam-boardcam-club-b1" || c.KeepAlive != 15*time.Second {
		t.Errorf("defaults: %+v", c)
	}
}

func TestDecode(t *testing.T) {
	if _, err := Decode([]byte(`{"v":1,"type":"state"}`), 100); err != nil {
		t.Error(err)
	}
	for payload, reason := range map[string]string{
		`{"v":2,"type":"state"}`: "version",
		`{"v":1}`:                "malformed",
		`[`:                      "malformed",
		strings.Repeat(" ", 101): "oversized",
	} {
		_, err := Decode([]byte(payload), 100)
		de, ok := err.(*DecodeError)
		if !ok || de.Reason != reason {
			t.Errorf("%.20q: %v, want %s", payload, err, reason)
		}
	}
	if b, s, ok := SplitTopic("boardcam/c/b1/events"); !ok || b != "boardcam/c/b1" || s != "events" {
		t.Errorf("split: %s %s", b, s)
	}
}

func TestDiscovery(t *testing.T) {
	c := Config{Broker: "mqtt://x:1883", Prefix: "boardcam/myclub/board1/"}
	c.Check(true)
	ms := Discovery(c)
	if len(ms) != 7 {
		t.Fatalf("%d entities", len(ms))
	}
	for _, m := range ms {
		if !strings.HasPrefix(m.Topic, "homeassistant/") || !strings.Contains(m.Topic, "/boardcam_myclub_board1/") {
			t.Errorf("topic %s", m.Topic)
		}
		var cfg map[string]any
		if err := json.Unmarshal(m.Payload, &cfg); err != nil || cfg["unique_id"] == nil {
			t.Errorf("%s: %s", m.Topic, m.Payload)
		}
	}
}
