// Package mqtttest has what the MQTT tests share: a subscriber that
// records what it receives, the folding of a board's events into its
// state as a tournament view does, and a TCP proxy that cuts the network.
package mqtttest

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
)

// Subscriber records every message on a topic filter.
type Subscriber struct {
	// Delay, when set, is spent on each message before the next is taken:
	// a slow subscriber.
	Delay time.Duration

	mu       sync.Mutex
	msgs     []Received
	retained map[string][]byte
	cm       *autopaho.ConnectionManager
	cancel   context.CancelFunc
}

// Received is one message.
type Received struct {
	Topic    string
	Retained bool
	Env      mqtt.Envelope
	Raw      []byte
}

// Subscribe connects as clientID with a persistent session (what arrives
// while it is disconnected waits for it at the broker) and subscribes to
// filter with QoS 1.
func Subscribe(t testing.TB, broker, user, pass, clientID, filter string) *Subscriber {
	t.Helper()
	return SubscribeTLS(t, broker, nil, user, pass, clientID, filter)
}

// SubscribeTLS is Subscribe over TLS (broker mqtts://…, tls://…).
func SubscribeTLS(t testing.TB, broker string, tc *tls.Config, user, pass, clientID, filter string) *Subscriber {
	t.Helper()
	s := &Subscriber{retained: map[string][]byte{}}
	u, _ := url.Parse(broker)
	if u.Scheme == "mqtts" {
		u.Scheme = "tls"
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	ready := make(chan struct{}, 1)
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{u},
		KeepAlive:                     5,
		CleanStartOnInitialConnection: true,
		SessionExpiryInterval:         3600,
		ReconnectBackoff:              func(int) time.Duration { return 200 * time.Millisecond },
		ConnectUsername:               user,
		ConnectPassword:               []byte(pass),
		TlsCfg:                        tc,
		OnConnectionUp: func(cm *autopaho.ConnectionManager, ca *paho.Connack) {
			go func() {
				if !ca.SessionPresent {
					cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: filter, QoS: 1}}})
				}
				select {
				case ready <- struct{}{}:
				default:
				}
			}()
		},
		ClientConfig: paho.ClientConfig{
			ClientID: clientID,
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(p paho.PublishReceived) (bool, error) {
				if s.Delay > 0 {
					time.Sleep(s.Delay)
				}
				r := Received{Topic: p.Packet.Topic, Retained: p.Packet.Retain, Raw: append([]byte(nil), p.Packet.Payload...)}
				json.Unmarshal(p.Packet.Payload, &r.Env)
				s.mu.Lock()
				s.msgs = append(s.msgs, r)
				if _, suffix, _ := mqtt.SplitTopic(r.Topic); suffix != mqtt.TopicEvents {
					s.retained[r.Topic] = r.Raw
				}
				s.mu.Unlock()
				return true, nil
			}},
		},
	}
	cm, err := autopaho.NewConnection(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.cm = cm
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the subscriber could not connect")
	}
	t.Cleanup(s.Close)
	return s
}

// Close disconnects.
func (s *Subscriber) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s.cm.Disconnect(ctx)
	s.cancel()
}

// Messages returns what was received so far.
func (s *Subscriber) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.msgs...)
}

// Last returns the last payload received on a topic other than events.
func (s *Subscriber) Last(topic string) (mqtt.Envelope, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.retained[topic]
	if !ok {
		return mqtt.Envelope{}, false
	}
	var e mqtt.Envelope
	json.Unmarshal(b, &e)
	return e, true
}

// Events returns the envelopes received on a board's events topic with
// the repeated ones (same match and seq) left out, and how many were
// repeated.
func Events(msgs []Received, prefix string) (evs []mqtt.Envelope, dups int) {
	seen := map[string]bool{}
	for _, m := range msgs {
		if m.Topic != prefix+mqtt.TopicEvents {
			continue
		}
		k := fmt.Sprintf("%s/%d", m.Env.Match, m.Env.Seq)
		if seen[k] {
			dups++
			continue
		}
		seen[k] = true
		evs = append(evs, m.Env)
	}
	return evs, dups
}

// CheckOrder reports the first place where the events of a match are not
// numbered 1, 2, 3 … in the order received ("" when they all are).
func CheckOrder(evs []mqtt.Envelope) string {
	next := map[string]uint64{}
	for i, e := range evs {
		want := next[e.Match] + 1
		if e.Seq != want {
			return fmt.Sprintf("event %d (%s) of match %s has seq %d, want %d", i, e.Type, e.Match, e.Seq, want)
		}
		next[e.Match] = e.Seq
	}
	return ""
}

// Fold applies a board's events as a tournament view does: a snapshot
// replaces the state, a state message replaces it.
func Fold(evs []mqtt.Envelope) (rules.State, bool) {
	var st rules.State
	ok := false
	for _, e := range evs {
		if s, is := StateOf(e); is {
			st, ok = s, true
		}
	}
	return st, ok
}

// StateOf is the match state a snapshot or state envelope carries.
func StateOf(e mqtt.Envelope) (rules.State, bool) {
	switch e.Type {
	case web.TypeSnapshot:
		var s web.Snapshot
		if json.Unmarshal(e.Data, &s) == nil {
			return s.State, true
		}
	case web.TypeState:
		var s rules.State
		if json.Unmarshal(e.Data, &s) == nil {
			return s, true
		}
	}
	return rules.State{}, false
}

// Proxy forwards TCP connections to a broker; Cut makes it behave like a
// firewall dropping the broker's port (open connections stall, new ones
// are refused) until Restore.
type Proxy struct {
	Addr string

	l      net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  []net.Conn
}

// NewProxy listens on a loopback port and forwards to target (host:port).
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: l.Addr().String(), l: l, target: target}
	go p.serve()
	t.Cleanup(func() { l.Close(); p.closeAll() })
	return p
}

// URL is mqtt://ADDR.
func (p *Proxy) URL() string { return "mqtt://" + p.Addr }

func (p *Proxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		cut := p.cut
		p.mu.Unlock()
		if cut {
			c.Close()
			continue
		}
		b, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, b)
		p.mu.Unlock()
		go p.pipe(c, b)
		go p.pipe(b, c)
	}
}

// pipe copies while not cut; while cut the bytes are dropped.
func (p *Proxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			cut := p.cut
			p.mu.Unlock()
			if !cut {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					src.Close()
					return
				}
			}
		}
		if err != nil {
			dst.Close()
			return
		}
	}
}

// Cut stops the traffic: bytes in flight are dropped, new connections
// refused. Open connections are not closed (no RST, as with a firewall's
// DROP): a client notices only by its keep-alive.
func (p *Proxy) Cut() {
	p.mu.Lock()
	p.cut = true
	p.mu.Unlock()
}

// Restore lets traffic through again; the connections that were open
// during the cut are closed (their streams lost bytes).
func (p *Proxy) Restore() {
	p.closeAll()
	p.mu.Lock()
	p.cut = false
	p.mu.Unlock()
}

func (p *Proxy) closeAll() {
	p.mu.Lock()
	cs := p.conns
	p.conns = nil
	p.mu.Unlock()
	for _, c := range cs {
		c.Close()
	}
}
