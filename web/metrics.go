package web

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are what /metrics exports for Prometheus. The daemon updates the
// pipeline's (FPS, Frames, DroppedFrames, ObserveStage); the server updates
// the websocket and preview ones itself. All methods are safe for
// concurrent use.
type Metrics struct {
	// FPS is the camera's measured frame rate.
	FPS prometheus.Gauge
	// Frames counts frames processed; DroppedFrames counts frames the
	// pipeline skipped because it was busy.
	Frames        prometheus.Counter
	DroppedFrames prometheus.Counter
	// StageLatency is the time each pipeline stage takes per frame
	// (label "stage": capture, calibrate, vision, tracker, referee, rules,
	// publish, …).
	StageLatency *prometheus.HistogramVec

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
		FPS: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "boardcam_camera_fps", Help: "Frames per second arriving from the camera.",
		}),
		Frames: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "boardcam_frames_total", Help: "Camera frames processed by the pipeline.",
		}),
		DroppedFrames: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "boardcam_frames_dropped_total", Help: "Camera frames skipped because the pipeline was busy.",
		}),
		StageLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "boardcam_stage_latency_seconds",
			Help:    "Time a pipeline stage takes for one frame.",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .033, .05, .1, .2, .5, 1},
		}, []string{"stage"}),
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
		m.FPS, m.Frames, m.DroppedFrames, m.StageLatency,
		m.wsClients, m.wsDropped, m.wsSent, m.wsPublished, m.wsRejected, m.commands,
		m.previewClients, m.previewFrames,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// ObserveStage records that a pipeline stage took d.
func (m *Metrics) ObserveStage(stage string, d time.Duration) {
	m.StageLatency.WithLabelValues(stage).Observe(d.Seconds())
}

// Registry is where the metrics live; the daemon may register its own.
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
