// Package daemon is the live pipeline of `boardcam run`: a source of frames
// (a video file, a V4L2 camera, an RTSP stream, a GStreamer pipeline, or a
// file of physical events), the analysis (package pipeline: calibrate →
// vision → tracker), the referee and the rules engine, the match journal,
// and the publishers (display sinks, LED scoreboard and buzzer of package
// hardware, the websocket of package web). docs/daemon.md describes it for
// users.
//
// # Components
//
// [Daemon] wires the components, each a goroutine connected to the next by
// a bounded channel:
//
//	capture ──[frame_queue]──▶ analysis ──[event_queue]──▶ match ──[publish_queue]──▶ publishers
//
// Capture never waits: when no frame buffer is free a live frame is dropped
// and counted. The analysis waits rather than drop an observation that
// carries events, and the match component waits rather than drop an
// announcement, so a slow publisher costs frames, never decisions. Live
// sources ([Source]) are read by a reader goroutine under a stall watchdog
// and reopened with exponential backoff; every wait uses the injected
// [clock.Clock].
//
// # Never silently wrong
//
// The analysis accounts for every frame it did not analyse (dropped by the
// capture, not delivered by the camera, left out to keep up, unusable)
// and reports each run of them to the referee with the next frame it
// analyses (referee.Gap, with what moved across it). When it falls
// behind it sees less in a planned way: frames a cheap check finds
// unchanged are left out while everything is at rest, every other frame
// while pieces move. A decision the camera could not establish
// (referee.Decision.Doubts) waits for the umpire in every decisions mode,
// the sure ones after it queued behind it; the umpire confirms its best
// guess or corrects it.
//
// # The match
//
// The match component is package match's Keeper: the referee, the rules
// engine, the journal, the pending decisions and the umpire's commands
// ([Daemon.Do], the web.CommandSink; the GPIO buttons use it too). The
// daemon wires it: observations in from the analysis (or the events
// feed), announcements out to the publishing component, which converts
// them for the websocket (web.Messages) and shows them on the sinks.
// Other consumers subscribe to the keeper ([Daemon.Match], then
// match.Keeper.Subscribe). A restart continues the unfinished match; a
// new match is explicit ([Daemon.NewMatch], `boardcam new-match`, or the
// console), and its journal is created only once the daemon runs, so a
// start that fails leaves none.
//
// # Configuration
//
// [Config] is the YAML configuration file ([LoadConfig]: unknown keys and
// bad values are errors naming the file, line and key) overridden by the
// flags of `boardcam run` ([Config.SetByFlag]).
//
// The package logs with log/slog through Daemon.Logger; [Metrics] are
// exported on the web server's /metrics and summarised at exit.
package daemon
