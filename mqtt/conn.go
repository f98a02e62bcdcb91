package mqtt

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

// ConnOptions are what a connection needs beyond Config.
type ConnOptions struct {
	ClientID string
	// Will is published by the broker when the connection is lost
	// without a clean disconnect (retained, QoS 1).
	WillTopic   string
	WillPayload []byte
	// OnUp is called on every (re)connection, OnDown when it drops,
	// OnError on a failed attempt (a refused login, a TLS error). None may
	// block.
	OnUp      func(*autopaho.ConnectionManager)
	OnDown    func()
	OnError   func(error)
	OnMessage func(paho.PublishReceived)
}

// Connect starts a connection manager that keeps a connection to the
// broker: it returns at once and (re)connects in the background, with
// backoff from 0.5 s doubling up to Config.RetryMax.
func Connect(ctx context.Context, c Config, o ConnOptions) (*autopaho.ConnectionManager, error) {
	u, secure, err := c.url()
	if err != nil {
		return nil, fmt.Errorf("mqtt.broker: %w", err)
	}
	ac := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{u},
		KeepAlive:                     uint16(max(1, c.KeepAlive/time.Second)),
		CleanStartOnInitialConnection: true,
		SessionExpiryInterval:         0,
		ConnectTimeout:                10 * time.Second,
		ReconnectBackoff:              backoff(c.RetryMax),
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			if o.OnUp != nil {
				o.OnUp(cm)
			}
		},
		OnConnectionDown: func() bool {
			if o.OnDown != nil {
				o.OnDown()
			}
			return true
		},
		OnConnectError: func(err error) {
			if o.OnError != nil {
				o.OnError(err)
			}
		},
		ClientConfig: paho.ClientConfig{ClientID: o.ClientID},
	}
	if secure {
		tc, err := c.tlsConfig(u.Hostname())
		if err != nil {
			return nil, err
		}
		ac.TlsCfg = tc
	}
	if c.Username != "" {
		ac.ConnectUsername = c.Username
		ac.ConnectPassword = []byte(c.Password)
	}
	if o.WillTopic != "" {
		ac.WillMessage = &paho.WillMessage{Topic: o.WillTopic, Payload: o.WillPayload, QoS: 1, Retain: true}
	}
	if o.OnMessage != nil {
		f := o.OnMessage
		ac.OnPublishReceived = []func(paho.PublishReceived) (bool, error){
			func(p paho.PublishReceived) (bool, error) { f(p); return true, nil },
		}
	}
	return autopaho.NewConnection(ctx, ac)
}

// backoff waits 0.5 s after the first failed attempt, doubling up to
// limit.
func backoff(limit time.Duration) func(int) time.Duration {
	return func(attempt int) time.Duration {
		d := 500 * time.Millisecond
		for i := 0; i < attempt && d < limit; i++ {
			d *= 2
		}
		return min(d, limit)
	}
}

// Explain says in words why a connection attempt failed, for the log.
func Explain(err error) string {
	var ce *autopaho.ConnackError
	if errors.As(err, &ce) {
		switch ce.ReasonCode {
		case 0x86, 0x87, 0x04, 0x05:
			return fmt.Sprintf("the broker refused the login: not authorized (reason %d): check mqtt.username and mqtt.password", ce.ReasonCode)
		case 0x85:
			return "the broker refused the client id (reason 133): give each board its own mqtt.client_id"
		case 0x88, 0x89:
			return fmt.Sprintf("the broker is unavailable or busy (reason %d)", ce.ReasonCode)
		}
		return fmt.Sprintf("the broker refused the connection (reason %d %s)", ce.ReasonCode, ce.Reason)
	}
	return err.Error()
}
