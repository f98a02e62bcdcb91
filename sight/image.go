package sight

// Image is an opaque handle on one camera picture (8-bit BGR) owned by
// the OpenCV side. Packages without OpenCV pass it along, ask its size
// and release it; only OpenCV code looks inside.
//
// A *gocv.Mat implements Image as it is: the OpenCV side hands out
// *gocv.Mat values and unwraps them with
//
//	m, ok := img.(*gocv.Mat)
//
// so no copy or wrapper is made. A fake (tests, cgo-free tools) may be
// any type with these methods.
type Image interface {
	// Rows and Cols are the picture's height and width in pixels.
	Rows() int
	Cols() int
	// Empty is true when the handle holds no picture yet.
	Empty() bool
	// Close releases the picture; the handle must not be used after.
	Close() error
}

// Size returns an image's width and height in pixels (0, 0 for nil or an
// empty image).
func Size(img Image) (w, h int) {
	if img == nil || img.Empty() {
		return 0, 0
	}
	return img.Cols(), img.Rows()
}

// Pictures makes and fills pictures for code without OpenCV: the daemon's
// capture keeps a pool of them, a frame source that decodes without OpenCV
// (FFmpeg's libraries, a GStreamer pipe) writes its pixels straight into
// one, and the analysis reads it as it is. The OpenCV side implements it
// (vision/analysis.Pictures: *gocv.Mat) and the program hands it over.
type Pictures interface {
	// NewImage returns an empty picture, the caller's to Close.
	NewImage() Image
	// BGR makes img an 8-bit BGR picture of w×h pixels, continuous in
	// memory (allocated anew only when it is not one already), and returns
	// its w·h·3 bytes, row by row, to be filled. img must come from
	// NewImage.
	BGR(img Image, w, h int) ([]byte, error)
	// Copy makes dst a copy of src (reallocated as needed).
	Copy(dst, src Image)
}

// ChangeDetector is the cheap look at a frame that lets the analysis leave
// it out while everything is at rest: it tells whether a frame differs
// from a reference frame by more than noise (a disc moved by a few
// millimetres, a hand over the board, a change of light). The OpenCV side
// implements it (vision/analysis.NewChangeDetector).
type ChangeDetector interface {
	// Reference makes frame the picture later frames are compared with.
	Reference(frame Image)
	// Changed reports whether frame differs from the reference (true when
	// there is none, or it is of another size).
	Changed(frame Image) bool
	// Forget drops the reference (the next Changed answers true).
	Forget()
	// Close releases what the detector holds.
	Close()
}
