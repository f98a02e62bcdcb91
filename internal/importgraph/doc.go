// Package importgraph holds the test that keeps OpenCV where it belongs:
// only calibrate, vision, render (with their subpackages) and
// cmd/boardcam may link gocv; nothing else does (the tracker, the referee,
// the rules, the match keeper, the outputs, the daemon, eval and the
// corpus), and those that need no C library at all (the cgoFree list:
// everything but the daemon, whose frame sources decode with FFmpeg's
// libraries) build with CGO_ENABLED=0. The contract between the two sides
// is package sight; the OpenCV parts are handed over by cmd/boardcam.
package importgraph
