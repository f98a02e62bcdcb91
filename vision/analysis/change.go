package analysis

import (
	"image"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/sight"
)

var _ sight.ChangeDetector = (*ChangeDetector)(nil)

// ChangeDetector is the cheap look at a frame that lets the analysis leave
// it out while everything is at rest: the frame, shrunk to a small grey
// picture, is compared with the last frame analysed. A disc that moved by
// a few millimetres, a hand coming over the board or a change of light
// changes enough small pixels by enough to be analysed in full. It costs
// about a millisecond at 720p against tens for the analysis. It implements
// sight.ChangeDetector for the daemon.
type ChangeDetector struct {
	// Width of the small picture (default 320); Level the grey-level
	// difference (0–255) a small pixel must change by (default 24);
	// Pixels how many such pixels make a change (default 4).
	Width  int
	Level  float32
	Pixels int

	small, grey, ref, diff gocv.Mat
	hasRef                 bool
}

// NewChangeDetector returns a detector with the default width, level and
// pixels.
func NewChangeDetector() *ChangeDetector {
	return &ChangeDetector{Width: 320, Level: 24, Pixels: 4,
		small: gocv.NewMat(), grey: gocv.NewMat(), ref: gocv.NewMat(), diff: gocv.NewMat()}
}

// Close releases the Mats.
func (c *ChangeDetector) Close() {
	for _, m := range []*gocv.Mat{&c.small, &c.grey, &c.ref, &c.diff} {
		m.Close()
	}
}

// shrink makes the small grey picture of frame in c.grey.
func (c *ChangeDetector) shrink(img sight.Image) bool {
	frame, ok := img.(*gocv.Mat)
	if !ok || frame.Empty() || frame.Cols() == 0 {
		return false
	}
	w := c.Width
	if w > frame.Cols() {
		w = frame.Cols()
	}
	h := max(1, frame.Rows()*w/frame.Cols())
	gocv.Resize(*frame, &c.small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	if c.small.Channels() == 3 {
		gocv.CvtColor(c.small, &c.grey, gocv.ColorBGRToGray)
	} else {
		c.small.CopyTo(&c.grey)
	}
	return true
}

// Reference makes frame the picture later frames are compared with.
func (c *ChangeDetector) Reference(frame sight.Image) {
	if !c.shrink(frame) {
		c.hasRef = false
		return
	}
	c.grey.CopyTo(&c.ref)
	c.hasRef = true
}

// Forget drops the reference (the next Changed answers true).
func (c *ChangeDetector) Forget() { c.hasRef = false }

// Changed reports whether frame differs from the reference (true when
// there is none, or it is of another size).
func (c *ChangeDetector) Changed(frame sight.Image) bool {
	if !c.hasRef || !c.shrink(frame) || c.grey.Rows() != c.ref.Rows() || c.grey.Cols() != c.ref.Cols() {
		return true
	}
	gocv.AbsDiff(c.grey, c.ref, &c.diff)
	gocv.Threshold(c.diff, &c.diff, c.Level, 255, gocv.ThresholdBinary)
	return gocv.CountNonZero(c.diff) >= c.Pixels
}
