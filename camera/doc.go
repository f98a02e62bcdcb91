// Package camera describes how one camera sees the board, without OpenCV:
// the calibration ([Calibration]: where the playing surface lies in the
// picture, the homography between image pixels and board millimetres, the
// orientation and who breaks, the quality of the fit; saved as a versioned
// JSON file), the lens model ([Lens]: OpenCV's pinhole model with
// distortion, applied to single points here) and the plane geometry they
// use ([Homography], [Line], [Point]).
//
// Package calibrate finds and checks calibrations in pictures and
// undistorts frames (with OpenCV); it keeps these names as aliases. The
// packages downstream of vision (the analysis' contract, eval, the daemon)
// read calibrations through this package and build with CGO_ENABLED=0.
package camera
