package main

// The one place where `boardcam run` meets package mqtt: the adapter
// from the daemon to mqtt.Source and the attachment of the board's
// publisher. When the daemon's match keeper offers its subscription
// (notes: contract-match), only this file changes.

import (
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/web"
)

// daemonSource gives package mqtt the daemon's snapshot and match.
type daemonSource struct{ d *daemon.Daemon }

func (s daemonSource) Snapshot() web.Snapshot { return s.d.Snapshot() }

// MatchID is the journal file's name without its extension: one match,
// one journal, one numbering of the MQTT events.
func (s daemonSource) MatchID() string {
	base := filepath.Base(s.d.JournalPath())
	if base == "." || base == "/" {
		return "nojournal"
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// attachMQTT starts the board's MQTT publisher when the configuration has
// a broker; nil otherwise. Call it after d.Initialize, before d.Run.
func attachMQTT(d *daemon.Daemon, log *slog.Logger) (*mqtt.Board, error) {
	cfg := d.Config.MQTT
	if !cfg.Enabled() {
		return nil, nil
	}
	if cfg.Spool == "" {
		cfg.Spool = filepath.Join(d.Config.Journal.Dir, "mqtt")
	}
	b := &mqtt.Board{Config: cfg, Logger: log, Source: daemonSource{d}, Commands: d, Registerer: d.Registerer()}
	if err := b.Initialize(); err != nil {
		return nil, err
	}
	d.Publishers = append(d.Publishers, b)
	return b, nil
}
