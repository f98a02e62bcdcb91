package daemon

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/boardcam/boardcam/clock"
	"github.com/boardcam/boardcam/internal/sdnotify"
)

// watchdog is the systemd component (deploy/boardcam.service is
// Type=notify with WatchdogSec=): READY=1 when the daemon starts running,
// then WATCHDOG=1 every third of WatchdogSec for as long as the daemon is
// healthy, and STOPPING=1 at the end. Each notification carries a status
// line for `systemctl status`.
//
// Healthy means the daemon itself works: the match component answers a
// probe, and frames that are read get analysed. A camera that is unplugged
// or stalled is not a reason to withhold the ping: the capture reconnects
// by itself, says so on /healthz and in the log, and a restart would not
// bring the picture back. When the daemon is not healthy it logs why and
// stops petting the watchdog; systemd then kills and restarts it, and the
// journal carries the match on.
type watchdog struct {
	n     *sdnotify.Notifier
	clock clock.Clock
	log   *slog.Logger
	// probe reports whether the match component answered within wait.
	probe func(wait time.Duration, done <-chan struct{}) bool
	// frames returns the frames read and analysed so far.
	frames func() (read, analysed int64)
	// status describes the daemon in a few words.
	status func() string
}

func (w *watchdog) run(done <-chan struct{}) {
	if err := w.n.Ready(w.status()); err != nil {
		w.log.Warn("cannot notify systemd", "err", err)
	}
	defer func() {
		if err := w.n.Stopping(); err != nil {
			w.log.Warn("cannot notify systemd", "err", err)
		}
	}()
	limit := w.n.WatchdogInterval()
	if limit <= 0 {
		<-done
		return
	}
	every := limit / 3
	read, analysed := w.frames()
	analysedAt := w.clock.Now()
	var was string // the kind of the last reason for withholding the ping
	for clock.Sleep(w.clock, every, done) {
		kind, why := "", ""
		if !w.probe(every, done) {
			kind, why = "match", fmt.Sprintf("the match component has not answered for %v", every)
		}
		r, a := w.frames()
		now := w.clock.Now()
		if a > analysed {
			analysedAt = now
		} else if r > read && now.Sub(analysedAt) >= limit-every && kind == "" {
			kind, why = "analysis", fmt.Sprintf("frames are read but none was analysed for %v", now.Sub(analysedAt).Round(time.Second))
		}
		read, analysed = r, a
		if kind != "" {
			if kind != was {
				w.log.Error("not healthy: withholding the systemd watchdog ping (systemd restarts boardcam)", "reason", why)
			}
			was = kind
			continue
		}
		if was != "" {
			w.log.Info("healthy again")
			was = ""
		}
		if err := w.n.Alive(w.status()); err != nil {
			w.log.Warn("cannot notify systemd", "err", err)
		}
	}
}

// healthLine is the status line of the systemd notifications.
func (d *Daemon) healthLine() string {
	s := d.Snapshot()
	st := s.State
	return fmt.Sprintf("camera %s, calibration %s, board %d %d-%d, frames read %d, analysed %d",
		s.Camera.Status, s.Calibration.Status, st.Board, st.Teams[0].Score, st.Teams[1].Score,
		d.metrics.nIn.Load(), d.metrics.nOut.Load())
}
