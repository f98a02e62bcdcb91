package web

import (
	"net/http"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the web server's figures (websocket, preview, umpire
// commands), in the registry /metrics exports for Prometheus. The
// pipeline's figures are the daemon's, registered in the same registry
// (Registry): one set, each thing counted once. All methods are safe for
// concurrent use.
type Metrics struct {
	wsClients      prometheus.Gauge
	wsDropped      prometheus.Counter
	wsSent         prometheus.Counter
	wsPublished    *prometheus.CounterVec
	wsRejected     *prometheus.CounterVec
	commands       *prometheus.CounterVec
	previewClients prometheus.Gauge
	previewFrames  prometheus.Counter

	registry *prometheus.Registry

	// Plain counters for tests and the load test's report.
	nClients, nDropped, nSent, nPublished atomic.Int64
}

// NewMetrics makes the metrics in a fresh registry that also holds the Go
// runtime and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		wsClients: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "boardcam_ws_clients", Help: "Websocket clients connected.",
		}),
		wsDropped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "boardcam_ws_clients_dropped_total", Help: "Websocket clients disconnected for being too slow (queue full).",
		}),
		wsSent: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "boardcam_ws_messages_sent_total", Help: "Websocket messages written to clients (all clients together).",
		}),
		wsPublished: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardcam_ws_messages_published_total", Help: "Messages broadcast to the websocket clients, by type.",
		}, []string{"type"}),
		wsRejected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardcam_ws_rejected_total", Help: "Websocket connections or messages refused, by reason (origin, full, version, rate, too_large).",
		}, []string{"reason"}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boardcam_umpire_commands_total", Help: "Umpire commands, by command and result.",
		}, []string{"command", "result"}),
		previewClients: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "boardcam_preview_clients", Help: "Viewers of /preview.mjpg.",
		}),
		previewFrames: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "boardcam_preview_frames_total", Help: "Preview frames encoded.",
		}),
		registry: prometheus.NewRegistry(),
	}
	m.registry.MustRegister(
		m.wsClients, m.wsDropped, m.wsSent, m.wsPublished, m.wsRejected, m.commands,
		m.previewClients, m.previewFrames,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// Registry is where the metrics live; the daemon registers its own.
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

func (m *Metrics) clients(n int) {
	m.nClients.Store(int64(n))
	m.wsClients.Set(float64(n))
}

func (m *Metrics) droppedClient() {
	m.nDropped.Add(1)
	m.wsDropped.Inc()
}

func (m *Metrics) sent() {
	m.nSent.Add(1)
	m.wsSent.Inc()
}

func (m *Metrics) published(typ string) {
	m.nPublished.Add(1)
	m.wsPublished.WithLabelValues(typ).Inc()
}

func (m *Metrics) rejected(reason string) { m.wsRejected.WithLabelValues(reason).Inc() }

func (m *Metrics) command(name, result string) {
	if name == "" {
		name = "none"
	}
	m.commands.WithLabelValues(name, result).Inc()
}

// Stats are the websocket figures at one moment.
type Stats struct {
	Clients   int   // connected now
	Dropped   int64 // disconnected for being too slow, since start
	Sent      int64 // messages written, all clients together
	Published int64 // messages broadcast
}

// Stats returns the current websocket figures.
func (m *Metrics) Stats() Stats {
	return Stats{
		Clients:   int(m.nClients.Load()),
		Dropped:   m.nDropped.Load(),
		Sent:      m.nSent.Load(),
		Published: m.nPublished.Load(),
	}
}
