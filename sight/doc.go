// Package sight holds the contract between the camera side of boardcam
// (calibrate, vision: OpenCV) and everything downstream of it (tracker,
// referee, daemon wiring, outputs), without OpenCV: what one processed
// frame says ([Frame], [Detection], [Occlusion]) and an opaque handle on
// a camera picture ([Image]) that packages built without cgo can pass
// along, size and release without knowing what it is.
//
// The contract types were vision's (vision keeps them as aliases: it is
// the implementation side). Fields may be added, not renamed: the tracker,
// the corpus' recorded detections and `boardcam detect --json` read them.
//
// An [Image] from the OpenCV side is a *gocv.Mat (which has exactly the
// methods Image asks for): OpenCV code unwraps it with a type assertion,
// everything else only passes it on. This package imports nothing that
// needs cgo; the import-graph test (package importgraph_test at the
// repository root's internal/importgraph) keeps it so.
package sight
