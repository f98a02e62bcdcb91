package paint

import (
	"bytes"
	"image"
	"image/color"
	"os"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/internal/matleak"
	"github.com/boardcam/boardcam/internal/overlay"
)

func TestMain(m *testing.M) { os.Exit(matleak.Run(m, "paint")) }

func grey(h, w int) gocv.Mat {
	return gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 200, 200, 0), h, w, gocv.MatTypeCV8UC3)
}

func bgr(m gocv.Mat, x, y int) [3]uint8 {
	v := m.GetVecbAt(y, x)
	return [3]uint8{v[2], v[1], v[0]} // as RGB
}

func rgb(c color.RGBA) [3]uint8 { return [3]uint8{c.R, c.G, c.B} }

// Each shape lands where the drawing says, in its colour.
func TestPaintShapes(t *testing.T) {
	m := grey(720, 1280)
	defer m.Close()
	var d overlay.Drawing
	d.Line(image.Pt(100, 100), image.Pt(300, 100), overlay.Marking, 2)
	d.Circle(image.Pt(500, 300), 40, overlay.White, 2)
	d.Polygon([]image.Point{{700, 400}, {800, 400}, {800, 500}, {700, 500}}, overlay.Hand, -1, 0.4)
	d.Polygon([]image.Point{{900, 400}, {1000, 400}, {950, 480}}, overlay.Foul, 3, 0)
	d.TextBox("boardcam frame 42", 0.5, overlay.Text, 1, overlay.Shade, false)
	d.Legend(overlay.Pieces())
	d.Caption("Asha's hand crossed the foul line, 17 mm", "frame 60")
	Paint(&m, d)
	if got := bgr(m, 200, 100); got != rgb(overlay.Marking) {
		t.Errorf("line: %v", got)
	}
	if got := bgr(m, 540, 300); got != rgb(overlay.White) {
		t.Errorf("circle: %v", got)
	}
	if got := bgr(m, 500, 300); got != [3]uint8{200, 200, 200} {
		t.Errorf("the circle's inside is painted: %v", got)
	}
	// Shaded: between the picture and the hand colour.
	if got := bgr(m, 750, 450); got[0] <= 200 || got[1] >= 200 || got[1] < 100 {
		t.Errorf("shaded hand polygon: %v", got)
	}
	if got := bgr(m, 650, 450); got != [3]uint8{200, 200, 200} {
		t.Errorf("the shading leaked: %v", got)
	}
	if got := bgr(m, 950, 400); got != rgb(overlay.Foul) {
		t.Errorf("polygon outline: %v", got)
	}
	if got := bgr(m, 2, 2); got != rgb(overlay.Shade) {
		t.Errorf("text box: %v", got)
	}
	if got := bgr(m, 1270, 20); got == [3]uint8{200, 200, 200} {
		t.Error("no legend in the top-right corner")
	}
	if got := bgr(m, 2, 715); got != rgb(overlay.Shade) {
		t.Errorf("caption band: %v", got)
	}
	if got := bgr(m, 640, 600); got != [3]uint8{200, 200, 200} {
		t.Errorf("painted where nothing was drawn: %v", got)
	}
}

// The Painter scales, draws for the scaled size, encodes and decodes.
func TestPainter(t *testing.T) {
	var p Painter
	src := grey(1080, 1920)
	defer src.Close()
	img := p.NewImage()
	defer img.Close()
	p.Copy(img, &src)
	if img.Cols() != 1920 || img.Rows() != 1080 {
		t.Fatalf("copy: %dx%d", img.Cols(), img.Rows())
	}
	var drawnFor image.Point
	b, w, h, err := p.Encode(img, 1280, 80, func(w, h int) overlay.Drawing {
		drawnFor = image.Pt(w, h)
		var d overlay.Drawing
		d.Circle(image.Pt(640, 360), 100, overlay.Queen, -1)
		return d
	})
	if err != nil || w != 1280 || h != 720 || drawnFor != image.Pt(1280, 720) || !bytes.HasPrefix(b, []byte{0xff, 0xd8}) {
		t.Fatalf("encode: %v %dx%d drawn for %v", err, w, h, drawnFor)
	}
	if img.Cols() != 1920 {
		t.Fatal("Encode changed its picture")
	}
	m, err := gocv.IMDecode(b, gocv.IMReadColor)
	if err != nil {
		t.Fatal(err)
	}
	c := bgr(m, 640, 360)
	m.Close()
	if c[0] < 200 || c[1] > 80 || c[2] < 150 {
		t.Errorf("the drawing is not in the JPEG: %v", c)
	}
	again, err := p.Repaint(b, 88, func(w, h int) overlay.Drawing {
		var d overlay.Drawing
		d.Caption("title", "")
		return d
	})
	if err != nil || !bytes.HasPrefix(again, []byte{0xff, 0xd8}) {
		t.Fatalf("repaint: %v", err)
	}
	if _, err := p.Repaint([]byte("not a jpeg"), 80, nil); err == nil {
		t.Error("a broken JPEG repainted")
	}
	fill := p.NewImage()
	defer fill.Close()
	var d overlay.Drawing
	d.Circle(image.Pt(10, 10), 5, overlay.Black, -1)
	p.Fill(fill, 64, 48, color.RGBA{45, 45, 45, 255}, d)
	fm := fill.(*gocv.Mat)
	if fm.Cols() != 64 || bgr(*fm, 10, 10) != rgb(overlay.Black) || bgr(*fm, 50, 40) != [3]uint8{45, 45, 45} {
		t.Errorf("fill: %dx%d %v %v", fm.Cols(), fm.Rows(), bgr(*fm, 10, 10), bgr(*fm, 50, 40))
	}
}
