package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/internal/sdnotify"
	"github.com/boardcam/boardcam/render/paint"
	"github.com/boardcam/boardcam/rules"
)

func init() {
	register(command{Name: "run", Summary: "referee a live match: camera or video → scoreboard, websocket, journal", Run: cmdRun})
}

const runHelp = `
Run the live daemon: read a camera, a stream or a video, find the board,
track the pieces, referee every stroke, keep the score by the rules of the
match, and show it on the terminal, the LED scoreboard and the web overlay
and umpire console.

With no flags it plays the bundled demo clip (testdata/videos/demo.mp4,
looked for in the working directory and beside the binary) at real time,
prints the final score at its end and exits. Live sources run until
SIGTERM or Ctrl-C, which stop capture, drain the pipeline and close the
journal.

Sources (--source):
  FILE.mp4                 a video file (paced at its frame rate; --no-pace
                           reads it as fast as possible, dropping nothing)
  /dev/video0              a V4L2 camera (USB webcam; source.width/height/fps
                           in the configuration)
  libcamera[:NAME]         a Raspberry Pi camera module (GStreamer's
                           libcamerasrc; source.width/height/fps/exposure)
  rtsp://user:pw@host/…    an RTSP or HTTP stream
  gst:PIPELINE             a GStreamer pipeline ending in appsink, e.g. a Pi
                           camera module: gst:libcamerasrc ! video/x-raw,width=1280,height=720,framerate=30/1 ! videoconvert ! appsink
  events:FILE.jsonl        physical events (boardcam simulate --json or
                           boardcam analyze --json) fed to the referee

Every stroke outcome, placement and umpire decision is written to the match
journal (a stroke log, fsync'd) before it is announced; after a crash or a
restart the daemon replays the journal and carries on (a video is caught up
with from its start). An unfinished match always continues, whatever flags
the daemon is started with: a new match is started explicitly, with
boardcam new-match (then run) or the umpire console's "new match". The
match flags (--profile, --players, --teams, --breaker, --resume LOG) describe
the match to start when there is no unfinished one. --resume LOG starts it
from a stroke log (a match scored by hand before boardcam was switched on):
the log's rules, players and lines go into the new journal first, and the
daemon referees on from where the log ends. A start that fails (a bad
source, a busy port) creates no journal.
docs/daemon.md describes the configuration file, the decisions, the
journal and the metrics.
`

func cmdRun(ctx context.Context, args []string, s stdio) error {
	d, quiet, err := newRunDaemon(args, s)
	if err != nil {
		return err
	}
	if processLimits {
		// The evidence frames are most of the Go heap: the collector
		// keeps the heap near them rather than at 1.5 times the live size.
		limit, pct := tuneDaemonMemory(d.Config.GoMemoryLimit())
		d.Logger.Debug("Go memory", "limit_mib", limit>>20, "gogc", pct)
		rctx, stop := context.WithCancel(ctx)
		defer stop()
		go returnFreedMemory(rctx, freedMemoryEvery)
	}
	if err := d.Initialize(); err != nil {
		return err
	}
	defer d.Close()
	board, err := attachMQTT(d, d.Logger)
	if err != nil {
		return err
	}
	if board != nil {
		defer board.Close()
	}
	err = d.Run(ctx)
	d.Close() // the outputs have written everything before the summary
	if board != nil {
		board.Close() // after the daemon's last message
	}
	if !quiet {
		printFinal(s.Out, d)
	}
	return err
}

// newRunDaemon parses run's flags into a daemon (not initialized) and
// whether the summary is wanted.
func newRunDaemon(args []string, s stdio) (*daemon.Daemon, bool, error) {
	fs := newFlags("run", "[flags]", runHelp, s)
	configFile := fs.String("config", "", "configuration file (YAML; deploy/boardcam.example.yaml)")
	source := fs.String("source", "", "video file, /dev/videoN, libcamera, rtsp://…, gst:PIPELINE or events:FILE (default: the demo clip)")
	disp := fs.String("display", "", "scoreboard on the terminal: term or none (default none)")
	listen := fs.String("listen", "", "web server address, e.g. :8080; '' turns it off (default localhost:8080)")
	profile := fs.String("profile", "", "rule profile of a new match: "+strings.Join(rules.ProfileNames(), ", "))
	players := fs.String("players", "", "players of a new match: S=Asha,N=Ravi (four for doubles)")
	teams := fs.String("teams", "", "doubles team names: Blue,Red")
	breaker := fs.String("breaker", "", "`seat` of the player who breaks the first board (default: the first player's)")
	alias(fs, "break", "breaker")
	decisions := fs.String("decisions", "", "automatic decisions: auto, delay or confirm (default auto)")
	noPace := fs.Bool("no-pace", false, "read video files as fast as possible (default: at their frame rate)")
	speed := fs.Float64("speed", 0, "play video files this many times faster than real time")
	slowCPU := fs.Float64("slow-cpu", 0, "play the video as a computer `K` times slower than the one the analysis costs were measured on would play it, deterministically (a modelled clock: the same frames lost on every run and machine; docs/daemon.md)")
	exitAtEnd := fs.Bool("exit-at-end", true, "exit when a video ends (false: keep the web server up until SIGTERM)")
	journalDir := fs.String("journal-dir", "", "directory of the match journals (default ~/.local/state/boardcam/matches)")
	newMatch := fs.Bool("new-match", false, "no longer accepted: use boardcam new-match (a restart must continue the match)")
	lens := fs.String("lens-file", "", "lens model `file` from boardcam calibrate --lens (undistorts the board found in the frames)")
	alias(fs, "lens", "lens-file")
	southAt := fs.String("south-at", "", "image side nearest board side S: bottom (default), right, top, left, or first-stroke (learnt from the first stroke)")
	resume := fs.String("resume", "", "when no match is unfinished, start one continuing the stroke log `FILE` (its rules, players and strokes so far)")
	logLevel := fs.String("log-level", "", "debug, info, warn or error")
	noEvidence := fs.Bool("no-evidence", false, "keep no replay buffer and write no stills or clips (evidence.off)")
	mqttBroker := fs.String("mqtt", "", "publish to the MQTT broker `URL` (mqtt://host:1883, mqtts://host:8883); see mqtt: in the configuration")
	mqttPrefix := fs.String("mqtt-prefix", "", "the board's topic `PREFIX`, e.g. boardcam/myclub/board1/")
	quiet := fs.Bool("quiet", false, "do not print the final score and the pipeline figures at exit")
	if err := parseFlags(fs, args); err != nil {
		return nil, false, err
	}
	if fs.NArg() > 0 {
		return nil, false, usageError("run takes no arguments (use --source %s)", fs.Arg(0))
	}
	if *newMatch {
		// A flag on the daemon's command line would be repeated by every
		// restart, and each would throw the match in play away.
		return nil, false, usageError("--new-match is not a flag of run: an unfinished match continues whatever flags start the daemon; start a new one with boardcam new-match (then run), or from the umpire console")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *resume != "" {
		for _, f := range []string{"profile", "players", "teams", "breaker"} {
			if set[f] {
				return nil, false, usageError("--%s with --resume: the stroke log's header says who plays what", f)
			}
		}
	}
	cfg := daemon.DefaultConfig()
	if *configFile != "" {
		var err error
		cfg, err = daemon.LoadConfig(*configFile)
		if err != nil {
			return nil, false, err
		}
	}
	override := func(flagName, path string, apply func()) {
		if set[flagName] {
			apply()
			cfg.SetByFlag(path, "--"+flagName)
		}
	}
	override("source", "source.uri", func() { cfg.Source.URI = *source })
	override("display", "display", func() { cfg.Display = *disp })
	override("listen", "web.listen", func() { l := *listen; cfg.Web.Listen = &l })
	override("profile", "match.profile", func() { cfg.Match.Profile = *profile })
	override("players", "match.players", func() { cfg.Match.Players = splitList(*players) })
	override("teams", "match.teams", func() { cfg.Match.Teams = splitList(*teams) })
	override("breaker", "match.breaker", func() { cfg.Match.Breaker = *breaker })
	override("decisions", "match.decisions", func() { cfg.Match.Decisions = *decisions })
	override("no-pace", "source.pace", func() { p := !*noPace; cfg.Source.Pace = &p })
	override("speed", "source.speed", func() { cfg.Source.Speed = *speed })
	override("exit-at-end", "source.exit_at_end", func() { e := *exitAtEnd; cfg.Source.ExitAtEnd = &e })
	override("south-at", "south_at", func() { cfg.SouthAt = *southAt })
	override("lens-file", "lens", func() { cfg.Lens = *lens })
	override("journal-dir", "journal.dir", func() { cfg.Journal.Dir = *journalDir })
	override("log-level", "log.level", func() { cfg.Log.Level = *logLevel })
	override("no-evidence", "evidence.off", func() { cfg.Evidence.Off = *noEvidence })
	override("mqtt", "mqtt.broker", func() { cfg.MQTT.Broker = *mqttBroker })
	override("mqtt-prefix", "mqtt.prefix", func() { cfg.MQTT.Prefix = *mqttPrefix })
	if err := cfg.Validate(); err != nil {
		return nil, false, err
	}
	var pacer daemon.Pacer
	if set["slow-cpu"] {
		if *slowCPU <= 0 {
			return nil, false, usageError("--slow-cpu %v: want a factor above 0 (1: this computer, 4: four times slower)", *slowCPU)
		}
		if !cfg.Source.Paced() {
			return nil, false, usageError("--slow-cpu with --no-pace: the modelled computer plays the video at its frame rate")
		}
		pacer = daemon.NewSlowCPU(*slowCPU, daemon.DefaultCosts)
	}
	log := cfg.Logger(s.Err)
	// Under systemd (Type=notify, WatchdogSec=): ready and watchdog
	// notifications; elsewhere nothing.
	notifier, err := sdnotify.FromEnv(os.Getenv)
	if err != nil {
		return nil, false, err
	}
	return &daemon.Daemon{Config: cfg, Logger: log, Out: s.Out, Resume: *resume, Notifier: notifier, Sight: daemonSight(), Painter: paint.Painter{}, Pacer: pacer}, *quiet, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// printFinal writes the score and the pipeline's figures.
func printFinal(w io.Writer, d *daemon.Daemon) {
	st := d.State()
	fmt.Fprintf(w, "\n%s\n", scoreLine(st))
	for _, b := range st.Boards {
		win := "no winner"
		if b.Winner >= 0 {
			win = fmt.Sprintf("%s wins %d", st.Teams[b.Winner].Name, b.Points)
			if b.Demanded > 0 {
				win += fmt.Sprintf(" +%d demanded", b.Demanded)
			}
		}
		fmt.Fprintf(w, "  board %d  %s: %s\n", b.Board, win, b.Reason)
	}
	if p := d.JournalPath(); p != "" {
		fmt.Fprintf(w, "journal: %s (boardcam score %s)\n", p, p)
	}
	d.Metrics().Summary(d.Clock.Now()).Print(w)
	if e := d.EvidenceSummary(); e != "" {
		fmt.Fprintln(w, e)
	}
}

func scoreLine(st rules.State) string {
	t := st.Teams
	s := fmt.Sprintf("score: %s %d – %d %s (%s", t[0].Name, t[0].Score, t[1].Score, t[1].Name, st.Profile)
	switch {
	case st.MatchOver && st.Winner >= 0:
		s += fmt.Sprintf("; %s wins the match", t[st.Winner].Name)
	default:
		s += fmt.Sprintf("; board %d in play, %d strokes, %s to strike", st.Board, st.Strokes, st.Turn)
	}
	if st.MatchResult != "" {
		s += "; " + st.MatchResult
	}
	return s + ")"
}
