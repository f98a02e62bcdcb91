// Package eval is the evaluation harness: it runs a vision pipeline over
// the clips of the synthetic corpus (package corpus, testdata/videos) and
// compares what the pipeline says with the ground truth — calibration
// corners, detections, classes, positions, identities, physical events and
// fouls — as defined in docs/eval.md.
//
// The pipeline is driven through the small [Pipeline] interface: Begin per
// clip, Frame per decoded frame (the decoder Options.Video gives: internal/cvio,
// FFmpeg's libraries into Mats, from
// cmd/boardcam, as eval does not link it; only the pipeline's own
// time counts for fps), End at the end. [None] sees nothing, so every rate
// reads zero until the real pipeline registers itself with [Register] as
// [DefaultPipeline]. [Oracle] reports the truth (perfect scores; with a
// Mutate function it becomes one of the deliberately wrong pipelines the
// harness's tests use), and [Refereed] adds the referee's fouls to a
// pipeline that only emits physical events.
//
// Matching: per frame, detections are assigned to the true discs on the
// board (or held over it) by the Hungarian algorithm on the distance in mm,
// gated at half a man's radius ([DefaultGate]). Recall counts the visible
// discs (at most half under a hand, centre inside the image); detections
// matched to hidden discs count neither way; unmatched detections are
// false positives. Events match by type and attributes within ±5 frames
// ([DefaultEventWindow]), fouls by code and seat within ±0.5 s.
package eval
