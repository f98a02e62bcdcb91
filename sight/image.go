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
