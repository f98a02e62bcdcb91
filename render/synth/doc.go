// Package synth renders the corpus's clips (`boardcam synth`): a clip spec
// of package corpus simulated and refereed as truth, each frame drawn by
// package render and encoded, the truth written beside the video
// (Generate), a committed clip regenerated and compared (Check), and the
// chessboard photographs through each corpus camera's lens from which the
// corpus's lens files are fitted (ChessboardViews). Package corpus holds
// the specs and the truth without OpenCV; the drawing is here.
package synth
