// Package match is the match keeper: the referee → rules → journal loop
// of `boardcam run`, the pending decisions, the umpire's commands, the
// replay of the journal after a restart and the catch-up with a video.
// It is cgo-free and knows nothing of cameras, websockets or scoreboards.
//
// # The component
//
// [Keeper] is a component in the daemon's style: a struct with its
// [Config], a parent logger, an injected clock, Initialize and Close.
// Initialize replays the newest unfinished journal, or prepares a new
// match whose journal [Keeper.Start] creates (Run calls it first, so a
// start that fails elsewhere creates no journal). [Keeper.Run] is its
// goroutine: it observes the events of each analysed frame
// ([Observation]), carries out the umpire's commands ([Keeper.Do]) and
// applies delayed decisions, and nothing else touches the match.
//
// # Announcements
//
// Every decision is committed to the journal first and announced after:
// an [Announcement] holds typed items ([Stroke], [Foul], [Pending],
// [Decided], [Notice], [Score]) and, when the match changed, its state
// before and after. Package web converts them to websocket messages at
// its edge (web.Messages); nothing here speaks the websocket.
//
// There are two ways out, on purpose:
//
//   - [Keeper.Announcements]: the one lossless stream, for the daemon's
//     publisher (scoreboard, buzzer, websocket). The keeper waits for it:
//     a slow publisher costs frames, never decisions.
//   - [Keeper.Subscribe]: for everyone else (MQTT, evidence clips). It
//     returns a [Snapshot] consistent with the channel's first
//     announcement; the keeper never waits for a subscriber, and one
//     whose buffer is full is dropped (its channel closed), as the web
//     hub drops a slow client. docs/daemon.md describes it.
//
// # The journal
//
// A match journal ([Journal]) is a stroke log with the keeper's "#@"
// information ([Meta]): the source and stream position of each event,
// the pending decisions and how they were settled, the sessions. One
// write and fsync per commit; [ReadJournal] repairs a torn end. On
// start the newest unfinished journal is replayed and continues, whatever
// the configuration says about a new match: a new match is explicit
// (Config.NewMatch, i.e. `boardcam new-match`, or the umpire's
// start_match). When the source is the same file as the journal's, the
// frames up to the journal's last position are observed again against
// the match as it was ([Keeper.CatchUpUntil]), so that the referee
// carries on exactly where it stopped.
//
// # Profiles
//
// [DescribeProfile] is the one description of a rules profile for the
// people who run a match (its fouls, which of them the camera judges),
// used by the daemon and the console alike.
package match
