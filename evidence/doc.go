// Package evidence keeps what the camera saw and turns it into evidence an
// umpire can look at again: a bounded replay buffer of compressed frames
// ([Buffer]: the last seconds, and every stroke from the striker's
// placement to the rest) and a writer ([Writer]) that makes, for one
// decision, an annotated still of the decisive frame ([Draw]) and a short
// H.264 MP4 clip around it, in a directory it keeps within an age and a
// size limit.
//
// Neither ever makes the pipeline wait. [Buffer.Add] copies a frame only
// when a compression slot is free and otherwise counts it as not kept;
// [Writer.Submit] queues a request or refuses it at once. Compression,
// drawing and encoding (an ffmpeg subprocess at a lower CPU priority) run
// on their own goroutines. A full disk, an unwritable directory or a
// missing ffmpeg costs the clip (or the still), reported through
// [Result.Err] and counted, never the refereeing.
//
// The package does not log: the daemon's adapter (daemon/evidence.go) logs
// and exports the counters.
package evidence
