package daemon

import (
	"crypto/tls"
	"fmt"
	"os"
	"strings"

	"github.com/boardcam/boardcam/web"
)

// webTLS loads or makes the console's certificate (web.tls); nil without
// TLS. A self-signed certificate is made once and kept; its fingerprint is
// logged so that the umpire can check what the browser shows.
func (d *Daemon) webTLS() (*tls.Config, error) {
	t := d.Config.Web.TLS
	if !t.enabled() {
		return nil, nil
	}
	var (
		c   web.Certificate
		err error
	)
	if t.SelfSigned {
		hosts := append([]string{}, t.Hosts...)
		if h, err := os.Hostname(); err == nil && h != "" {
			h = strings.TrimSuffix(h, ".local")
			hosts = append(hosts, h, h+".local")
		}
		c, err = web.SelfSignedCertificate(t.Dir, hosts, d.Clock.Now())
	} else {
		c, err = web.LoadCertificate(t.Cert, t.Key, d.Clock.Now())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Config.at("web.tls"), err)
	}
	if c.Made {
		d.Logger.Info("made a self-signed certificate for the console", "dir", t.Dir, "names", c.Names,
			"sha256", c.Fingerprint, "not_after", c.NotAfter.Format("2006-01-02"))
	} else {
		d.Logger.Info("console certificate", "names", c.Names, "sha256", c.Fingerprint, "not_after", c.NotAfter.Format("2006-01-02"))
	}
	return web.TLSConfig(c.Cert), nil
}
