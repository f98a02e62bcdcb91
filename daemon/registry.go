package daemon

import "github.com/prometheus/client_golang/prometheus"

// Registerer is where the daemon's metrics are exported (the web server's
// /metrics): a component attached to the daemon (package mqtt) registers
// its own there. Nil without a web server. Call it after Initialize.
func (d *Daemon) Registerer() prometheus.Registerer {
	if d.web == nil || d.web.Metrics == nil {
		return nil
	}
	return d.web.Metrics.Registry()
}
