package mqtt

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Config is the `mqtt:` section of boardcam's configuration file (and,
// for the broker connection, of `boardcam tournament`).
type Config struct {
	// Broker is the broker's URL: mqtt://host:1883 or mqtts://host:8883
	// (TLS). Empty: no MQTT.
	Broker string `yaml:"broker"`
	// ClientID is the MQTT client id; empty: "boardcam-" and the prefix.
	ClientID string `yaml:"client_id"`
	// Username and Password (or PasswordFile, a file holding it) log in.
	Username     string `yaml:"username"`
	Password     string `yaml:"password"`
	PasswordFile string `yaml:"password_file"`
	// CA is a PEM file of the CA that signed the broker's certificate
	// (default: the system's roots). Cert and Key are a client
	// certificate, when the broker asks for one.
	CA   string `yaml:"ca"`
	Cert string `yaml:"cert"`
	Key  string `yaml:"key"`
	// Prefix is the board's topic prefix, "boardcam/<club>/<board>/".
	Prefix string `yaml:"prefix"`
	// Name is the board's name on the tournament screen ("Board 3");
	// empty: the prefix's last part.
	Name string `yaml:"name"`
	// PublicURL is the board's web server as the other machines reach it
	// (http://board1.club.lan:8080): the evidence messages' still and
	// clip URLs are made absolute with it. Empty: they stay relative.
	PublicURL string `yaml:"public_url"`
	// Spool is the directory of the outbox (what waits for the broker);
	// empty: "mqtt" in the journal directory.
	Spool string `yaml:"spool"`
	// CommandKey is the tournament view's public key
	// (`boardcam tournament --gen-key` prints it): commands signed with
	// it are carried out. Empty: the board takes no commands over MQTT.
	CommandKey string `yaml:"command_key"`
	// CommandMaxAge is how old (or how far in the future, for clocks
	// apart) a command may be (default 2m).
	CommandMaxAge time.Duration `yaml:"command_max_age"`
	// HomeAssistant is the discovery prefix of Home Assistant (default
	// "homeassistant"); "off" publishes no discovery.
	HomeAssistant string `yaml:"homeassistant"`
	// KeepAlive is the MQTT keep-alive (default 15s): a dead connection
	// is noticed within about 1.5 times it.
	KeepAlive time.Duration `yaml:"keepalive"`
	// RetryMax caps the wait between connection attempts (default 10s;
	// attempts start at 0.5 s and double).
	RetryMax time.Duration `yaml:"retry_max"`
	// DrainTimeout is how long a stopping board waits for the broker to
	// take what is still to be published (default 5s); the rest stays
	// in the spool for the next start.
	DrainTimeout time.Duration `yaml:"drain_timeout"`
}

// Enabled reports whether a broker is configured.
func (c Config) Enabled() bool { return c.Broker != "" }

// BoardID is the board's id: the prefix without its trailing slash.
func (c Config) BoardID() string { return strings.TrimSuffix(c.Prefix, "/") }

// Check checks the configuration and fills defaults.
func (c *Config) Check(board bool) error {
	if c.Broker == "" {
		return errors.New("mqtt: no broker")
	}
	u, err := url.Parse(c.Broker)
	if err != nil {
		return fmt.Errorf("mqtt.broker %q: %w", c.Broker, err)
	}
	switch u.Scheme {
	case "mqtt", "tcp", "mqtts", "ssl", "tls":
	default:
		return fmt.Errorf("mqtt.broker %q: scheme must be mqtt:// or mqtts://", c.Broker)
	}
	if u.Port() == "" {
		return fmt.Errorf("mqtt.broker %q: give the port (1883 for mqtt://, 8883 for mqtts://)", c.Broker)
	}
	if board {
		if c.Prefix == "" {
			return errors.New("mqtt.prefix is empty: give the board's topic prefix, e.g. boardcam/myclub/board1/")
		}
		if !strings.HasSuffix(c.Prefix, "/") {
			c.Prefix += "/"
		}
		if strings.ContainsAny(c.Prefix, "+#") || strings.HasPrefix(c.Prefix, "/") || strings.Contains(c.Prefix, "//") {
			return fmt.Errorf("mqtt.prefix %q: no wildcards (+ #), no empty levels", c.Prefix)
		}
		if c.Name == "" {
			id := c.BoardID()
			c.Name = id[strings.LastIndexByte(id, '/')+1:]
		}
		if c.ClientID == "" {
			c.ClientID = "boardcam-" + strings.ReplaceAll(c.BoardID(), "/", "-")
		}
		if c.CommandKey != "" {
			if _, err := ParsePublicKey(c.CommandKey); err != nil {
				return fmt.Errorf("mqtt.command_key: %w", err)
			}
		}
	}
	if c.PasswordFile != "" {
		b, err := os.ReadFile(c.PasswordFile)
		if err != nil {
			return fmt.Errorf("mqtt.password_file: %w", err)
		}
		c.Password = strings.TrimRight(string(b), "\r\n")
	}
	if c.Password != "" && c.Username == "" {
		return errors.New("mqtt: a password without a username")
	}
	if (c.Cert == "") != (c.Key == "") {
		return errors.New("mqtt: a client certificate needs both cert and key")
	}
	if c.CommandMaxAge <= 0 {
		c.CommandMaxAge = 2 * time.Minute
	}
	if c.HomeAssistant == "" {
		c.HomeAssistant = "homeassistant"
	}
	if c.KeepAlive <= 0 {
		c.KeepAlive = 15 * time.Second
	}
	if c.DrainTimeout <= 0 {
		c.DrainTimeout = 5 * time.Second
	}
	if c.RetryMax <= 0 {
		c.RetryMax = 10 * time.Second
	}
	return nil
}

// url returns the broker URL in the scheme autopaho knows.
func (c Config) url() (*url.URL, bool, error) {
	u, err := url.Parse(c.Broker)
	if err != nil {
		return nil, false, err
	}
	secure := false
	switch u.Scheme {
	case "mqtts", "ssl", "tls":
		u.Scheme = "tls"
		secure = true
	default:
		u.Scheme = "mqtt"
	}
	return u, secure, nil
}

// tlsConfig is the TLS configuration for the broker.
func (c Config) tlsConfig(host string) (*tls.Config, error) {
	t := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if c.CA != "" {
		pem, err := os.ReadFile(c.CA)
		if err != nil {
			return nil, fmt.Errorf("mqtt.ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("mqtt.ca %s: no PEM certificate in it", c.CA)
		}
		t.RootCAs = pool
	}
	if c.Cert != "" {
		cert, err := tls.LoadX509KeyPair(c.Cert, c.Key)
		if err != nil {
			return nil, fmt.Errorf("mqtt client certificate: %w", err)
		}
		t.Certificates = []tls.Certificate{cert}
	}
	return t, nil
}
