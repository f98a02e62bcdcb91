// Package importgraph holds the test that keeps OpenCV where it belongs:
// only calibrate, vision, render (with their subpackages) and
// cmd/boardcam may link gocv; everything else (the tracker, the referee,
// the rules, the match keeper, the outputs, the daemon's wiring, eval and
// the corpus) builds with CGO_ENABLED=0. The contract between the two
// sides is package sight. See importgraph_test.go for the packages not
// converted yet and why.
package importgraph
