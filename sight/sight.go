package sight

import (
	"github.com/boardcam/boardcam/board"
)

// Detection is one disc found in a frame.
type Detection struct {
	// Kind is the class: white, black, queen or striker.
	Kind board.Kind `json:"piece"`
	// PX is the centre in the original (distorted) image, pixels.
	PX [2]float64 `json:"px"`
	// MM is the centre on the board, millimetres (origin at the centre,
	// x right, y down, S at the bottom).
	MM board.Vec `json:"mm"`
	// RadiusPx is the disc's apparent radius in the original image.
	RadiusPx float64 `json:"radius_px"`
	// Score is the detection confidence, 0…1.
	Score float64 `json:"score"`
	// ClassScore is the confidence of the class, 0…1.
	ClassScore float64 `json:"class_score"`
	// Partial is true when part of the disc is hidden (by a hand, the
	// frame edge or glare) and the centre was estimated from what shows.
	Partial bool `json:"partial,omitempty"`
	// Blur is the motion blur of a disc moving while the shutter was
	// open: the streak's length and direction on the board, mm (zero for
	// a sharp disc). MM is then the disc's place at mid-exposure and the
	// class is unsure (see vision's streak finder).
	Blur board.Vec `json:"blur_mm"`
}

// Occlusion says which parts of the board are hidden from the camera by
// large foreign objects (hands, arms, sleeves) in one frame.
type Occlusion interface {
	// Hidden returns the fraction (0…1) of the disc (c, r), in board mm,
	// that is covered by a foreign object.
	Hidden(c board.Vec, r float64) float64
}

// Frame is everything detection found in one video frame.
type Frame struct {
	// Index is the frame number in the source, T its time in seconds.
	Index int     `json:"frame"`
	T     float64 `json:"t"`
	// Detections lists the discs found.
	Detections []Detection `json:"pieces"`
	// Occlusion is the foreign-object mask of this frame (nil: none).
	Occlusion Occlusion `json:"-"`
	// Calibrated is false when the frame could not be related to the
	// board (no calibration yet, or the camera moved and recalibration is
	// pending); Detections is then empty.
	Calibrated bool `json:"calibrated"`
}
