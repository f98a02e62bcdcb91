package sight

// HandRegion is one hand or arm over the board in one frame, as the
// detector's hand stage found it: a connected foreign region large enough
// and reaching in over the frame around the playing surface.
type HandRegion struct {
	// Outline is the region's outer boundary in the original (distorted)
	// image, pixels, a closed polygon (the last point joins the first).
	// It follows the detector's mask (blocks of about 6 mm on the board,
	// grown by one block for the hand's soft edge and shadow), so it is
	// a staircase at that scale; where the arm leaves the board's view
	// (the playing surface and a margin of frame around it) the outline
	// runs along the view's edge.
	Outline [][2]float64 `json:"outline_px"`
	// AreaMM2 is the region's area on the board, mm².
	AreaMM2 float64 `json:"area_mm2"`
}

// HandRegions is implemented by an [Occlusion] that knows the hands it is
// made of (vision's does): the regions of the frame, for drawing them.
//
//	if h, ok := f.Occlusion.(sight.HandRegions); ok {
//		for _, r := range h.HandRegions() { … r.Outline … }
//	}
type HandRegions interface {
	HandRegions() []HandRegion
}

// OcclusionReach is implemented by an [Occlusion] whose mask may reach
// beyond the object it covers (vision's: blocks of about 6 mm or more on
// the board, grown by one block for the hand's soft edge and shadow).
// ReachMM is how far, in board mm, a point the mask calls hidden may lie
// outside the hand or arm itself: a reading that puts a hand less than
// that beyond a line does not show that it crossed it.
type OcclusionReach interface {
	ReachMM() float64
}
