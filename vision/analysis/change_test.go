package analysis

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"
)

// The cheap check: the same picture is unchanged, a disc-sized change is
// not.
func TestChangeDetector(t *testing.T) {
	c := NewChangeDetector()
	defer c.Close()
	base := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 130, 140, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer base.Close()
	if !c.Changed(&base) {
		t.Error("no reference: must say changed")
	}
	c.Reference(&base)
	same := base.Clone()
	defer same.Close()
	if c.Changed(&same) {
		t.Error("the same picture changed")
	}
	disc := base.Clone()
	defer disc.Close()
	gocv.Circle(&disc, imagePt(640, 360), 14, colour(250, 250, 250), -1) // a man, ~30 mm at 1 px/mm
	if !c.Changed(&disc) {
		t.Error("a disc appearing is no change")
	}
	small := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 130, 140, 0), 480, 640, gocv.MatTypeCV8UC3)
	defer small.Close()
	if !c.Changed(&small) {
		t.Error("a picture of another shape is no change")
	}
	c.Forget()
	if !c.Changed(&same) {
		t.Error("forgotten reference")
	}
}

func imagePt(x, y int) image.Point { return image.Pt(x, y) }

func colour(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 255} }

// Pictures: a new picture is empty; BGR makes it w×h BGR once and gives
// its bytes (the same Mat when asked again at that size); Copy copies.
func TestPictures(t *testing.T) {
	var p Pictures
	img := p.NewImage()
	defer img.Close()
	if !img.Empty() {
		t.Fatal("a new picture is not empty")
	}
	b, err := p.BGR(img, 64, 48)
	if err != nil || len(b) != 64*48*3 || img.Cols() != 64 || img.Rows() != 48 {
		t.Fatalf("BGR: %d bytes, %dx%d, %v", len(b), img.Cols(), img.Rows(), err)
	}
	b[3*(10*64+5)+2] = 200 // red at (5, 10)
	again, err := p.BGR(img, 64, 48)
	if err != nil || &again[0] != &b[0] {
		t.Error("BGR at the same size made a new picture")
	}
	dst := p.NewImage()
	defer dst.Close()
	p.Copy(dst, img)
	if v := dst.(*gocv.Mat).GetVecbAt(10, 5); v[2] != 200 {
		t.Errorf("copy: pixel %v", v)
	}
	if _, err := p.BGR(fakeImage{}, 4, 4); err == nil {
		t.Error("a picture that is not a Mat was filled")
	}
}

type fakeImage struct{}

func (fakeImage) Rows() int    { return 0 }
func (fakeImage) Cols() int    { return 0 }
func (fakeImage) Empty() bool  { return true }
func (fakeImage) Close() error { return nil }
