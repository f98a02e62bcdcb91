// Package corpus holds the clip specs and the ground truth of the synthetic
// test-video corpus of testdata/videos/: for each spec a deterministic
// H.264 video and a versioned ground-truth file, regenerated bit for bit by
// `boardcam synth`. It builds without cgo: the drawing and encoding are
// package render/synth's (Generate, Check, the lens clips' chessboard
// views), and the renderer's settings in a spec are package render/look's.
//
// # Clip specs
//
// A clip spec (NAME.yaml) is a simulator scenario (docs/scenarios.md)
// whose render: section holds the renderer's settings (docs/rendering.md)
// and whose expect: section says what the clip must show ([Expect]): the
// fouls the referee calls, the pieces pocketed (with their pockets), jumped,
// placed and pushed, the strokes, the discs a hand hides, and the
// situations it covers (expect.covers, see [Tags]). [Simulate] runs
// the scenario and referees the exact events ([RefereeSetup]),
// [Simulation.Verify] checks all of that, and render/synth.Generate renders
// only a verified simulation, so a clip cannot silently drift from its
// purpose.
//
// # Truth
//
// NAME.truth.json ([Truth], version [TruthVersion]; gzip-compressed as
// NAME.truth.json.gz when larger than [GzipAbove]) holds the clip's
// metadata (spec, seed, fps, size, frame count, the video's SHA-256), the
// camera per run of frames with the same pose (surface corners in image
// pixels, homography undistorted px → mm, camera matrix, distortion),
// every disc in every frame (id, kind, state, mm, the top face's centre in
// pixels, how much of it a hand hides and how much lies outside the
// image), the hands, the simulator's events, and the referee's
// judgement: the expected fouls and decisions (and, for clips that start a
// board, the final match state).
//
// # Determinism
//
// The simulator, the renderer and the encoder are deterministic, and the
// truth is written with fixed formatting (three decimals for mm and px),
// so render/synth.Check can regenerate a clip and compare bytes. Bit-exactness holds
// on the same architecture with the same OpenCV and ffmpeg builds.
package corpus
