package mqtt

import (
	"bytes"
	"io"

	"github.com/prometheus/client_golang/prometheus"
)

type boardMetrics struct {
	connected     prometheus.Gauge
	connects      prometheus.Counter
	connectErrors prometheus.Counter
	spooled       prometheus.Counter
	published     prometheus.Counter
	publishErrors prometheus.Counter
	spoolErrors   prometheus.Counter
	unsent        prometheus.Gauge
	rejected      *prometheus.CounterVec
	commands      *prometheus.CounterVec
}

func newBoardMetrics(r prometheus.Registerer) *boardMetrics {
	m := &boardMetrics{
		connected:     prometheus.NewGauge(prometheus.GaugeOpts{Name: "boardcam_mqtt_connected", Help: "1 while connected to the MQTT broker."}),
		connects:      prometheus.NewCounter(prometheus.CounterOpts{Name: "boardcam_mqtt_connects_total", Help: "Connections made to the broker."}),
		connectErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: "boardcam_mqtt_connect_errors_total", Help: "Failed connection attempts (broker down, login refused, TLS)."}),
		spooled:       prometheus.NewCounter(prometheus.CounterOpts{Name: "boardcam_mqtt_spooled_total", Help: "Event messages written to the spool."}),
		published:     prometheus.NewCounter(prometheus.CounterOpts{Name: "boardcam_mqtt_published_total", Help: "Event messages acknowledged by the broker."}),
		publishErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: "boardcam_mqtt_publish_errors_total", Help: "Publishes that failed (retried)."}),
		spoolErrors:   prometheus.NewCounter(prometheus.CounterOpts{Name: "boardcam_mqtt_spool_errors_total", Help: "Spool writes that failed."}),
		unsent:        prometheus.NewGauge(prometheus.GaugeOpts{Name: "boardcam_mqtt_unsent", Help: "Event messages waiting for the broker."}),
		rejected:      prometheus.NewCounterVec(prometheus.CounterOpts{Name: "boardcam_mqtt_rejected_total", Help: "Command messages refused, by reason."}, []string{"reason"}),
		commands:      prometheus.NewCounterVec(prometheus.CounterOpts{Name: "boardcam_mqtt_commands_total", Help: "Commands received over MQTT, by command and result."}, []string{"command", "result"}),
	}
	if r != nil {
		r.MustRegister(m.connected, m.connects, m.connectErrors, m.spooled, m.published, m.publishErrors, m.spoolErrors, m.unsent, m.rejected, m.commands)
	}
	return m
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
