// Package look holds the renderer's settings as plain data, without cgo:
// the camera, how the board, its lines, the pieces and the room look, the
// sensor and the encoder (the `render:` section of a clip spec), their
// named colours, and the markings as drawn ([DrawnMarkings]). Package
// render draws frames from them with OpenCV; package corpus holds them in
// its specs without linking OpenCV.
package look
