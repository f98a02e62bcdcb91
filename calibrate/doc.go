// Package calibrate ties the overhead camera's view to the carrom board:
// it finds the playing surface in a frame, computes the homography from
// image pixels to board millimetres, models the lens, scores how well the
// board's markings re-project, watches for a knocked camera or a moved
// board, and reads the breaker's side from the opening arrangement.
//
// # Coordinates
//
// Image points are pixels with pixel centres at integer coordinates
// (OpenCV's convention), in the undistorted image when the camera has a
// lens model. Board points are millimetres as in package board: origin at
// the centre of the surface, x toward side E, y toward side S.
//
// # Finding the board
//
// [Detect] needs no help. It takes the colour of the middle of the image as
// the surface's, keeps the surface-coloured region around the middle (at
// three thresholds, each also cut along strong colour edges, so that a
// frame of the surface's own wood is parted from it by the dark band of
// its inner wall), fits a line to each side of each region's outline, and
// measures the distinct outlines in full, keeping the one whose markings
// best fit the board geometry (the quality score): an outline that takes
// the frame's outer edge on some sides puts the pockets and base lines
// far from where they are. Each visible edge is measured to sub-pixel
// accuracy in the full image: the
// edge is where the colour goes half-way from the surface's to the frame's
// (the frame's inner wall counts as surface when it is lighter than
// half-way). Each corner is the crossing of the fits to the 45% of its two
// edges nearest to it, so lens bowing bends no corner. An outline running
// along the image border is a cropped edge; a straight dark line with the
// surface beyond it (a rig's belt, a marking) is no edge. Hidden or cropped
// edges are inferred from a joint fit of a homography to the visible edges,
// the thick rear base lines (a square concentric with the surface on every
// board, its size left free because makers differ) and the pocket holes
// (their centres on another such square; when fewer than two edges are
// seen, also one pocket radius in from each edge, which fixes the scale).
// See docs/calibration.md for the measured accuracy.
//
// [FromCorners] takes the four corners from a person instead (command line
// or web console) and scores them the same way.
//
// # Quality
//
// Every calibration measures the markings near where the board geometry
// puts them — the four rear base lines, the eight base circles, the centre
// circle, the four pockets — and records for each whether it was found and
// how far (in mm) from its place. The score is the mean over those
// markings of exp(-(error/6 mm)²), a marking not found counting 0; for
// automatic calibrations it is averaged with the share of edges measured
// in the image times exp(-(edge fit RMS/1.5 px)²). A board whose maker
// placed the markings differently from the configured geometry scores
// lower without being wrongly calibrated: describe the board in a YAML
// file (see board.Load).
//
// # Lens
//
// [CalibrateLens] fits OpenCV's camera model to chessboard views;
// [Undistorter] builds the remap tables once and undistorts each frame into
// a Mat the caller keeps.
//
// # While running
//
// A [Checker] samples short profiles across the visible edges (a few
// thousand pixel reads, well under a millisecond at 720p) and reports ok,
// moved (with the shift in pixels), lost or uncertain; a [Monitor] checks
// every few seconds and, once a check says moved, every frame
// ([Monitor.Pending]); it recalibrates after two moved checks in a row
// that see the edges in the same place (a knocked camera has come to
// rest), and optionally again while the camera settles. The pipeline
// emits a recalibrated event with the new corners
// ([Calibration.CornersPx]).
//
// # Orientation
//
// The corners of a calibration are named after the board: NW, NE, SE, SW.
// Which image side is side S is configuration ([Orientation].SouthAt);
// [InferBreaker] reads the breaker's side from the opening arrangement and
// returns the quarter turns that [Calibration.Rotate] applies to seat the
// breaker where the match configuration says.
package calibrate
