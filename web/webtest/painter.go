package webtest

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math"

	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/sight"
)

// Painter is a plain-Go overlay.Painter for the fake camera and the
// tests of the web server (and the browser tests' fake server), so that
// they need no OpenCV: it fills circles and polygons, draws lines and
// outlines, scales by nearest neighbour and encodes with image/jpeg. It
// draws no text and no legend. Its pictures are *Image.
type Painter struct{}

var _ overlay.Painter = Painter{}

// Image is Painter's picture: an RGBA image behind sight.Image.
type Image struct{ RGBA *image.RGBA }

// Rows implements sight.Image.
func (m *Image) Rows() int {
	if m.RGBA == nil {
		return 0
	}
	return m.RGBA.Bounds().Dy()
}

// Cols implements sight.Image.
func (m *Image) Cols() int {
	if m.RGBA == nil {
		return 0
	}
	return m.RGBA.Bounds().Dx()
}

// Empty implements sight.Image.
func (m *Image) Empty() bool { return m.RGBA == nil }

// Close implements sight.Image.
func (m *Image) Close() error {
	m.RGBA = nil
	return nil
}

func rgba(img sight.Image) (*Image, bool) {
	m, ok := img.(*Image)
	return m, ok && m != nil
}

// NewImage implements overlay.Painter.
func (Painter) NewImage() sight.Image { return &Image{} }

// Copy implements overlay.Painter.
func (Painter) Copy(dst, src sight.Image) {
	d, ok1 := rgba(dst)
	s, ok2 := rgba(src)
	if !ok1 || !ok2 || s.RGBA == nil {
		return
	}
	d.RGBA = image.NewRGBA(s.RGBA.Bounds())
	copy(d.RGBA.Pix, s.RGBA.Pix)
}

// Encode implements overlay.Painter.
func (p Painter) Encode(img sight.Image, maxWidth, quality int, drawFn func(w, h int) overlay.Drawing) ([]byte, int, int, error) {
	s, ok := rgba(img)
	if !ok || s.RGBA == nil {
		return nil, 0, 0, errors.New("webtest: no picture")
	}
	out := s.RGBA
	if b := out.Bounds(); maxWidth > 0 && b.Dx() > maxWidth {
		h := int(math.Round(float64(b.Dy()) * float64(maxWidth) / float64(b.Dx())))
		small := image.NewRGBA(image.Rect(0, 0, maxWidth, h))
		for y := 0; y < h; y++ {
			for x := 0; x < maxWidth; x++ {
				small.Set(x, y, out.At(x*b.Dx()/maxWidth, y*b.Dy()/h))
			}
		}
		out = small
	} else if drawFn != nil {
		out = image.NewRGBA(b)
		copy(out.Pix, s.RGBA.Pix)
	}
	if drawFn != nil {
		paintOn(out, drawFn(out.Bounds().Dx(), out.Bounds().Dy()))
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: quality}); err != nil {
		return nil, 0, 0, err
	}
	return buf.Bytes(), out.Bounds().Dx(), out.Bounds().Dy(), nil
}

// Repaint implements overlay.Painter.
func (Painter) Repaint(b []byte, quality int, drawFn func(w, h int) overlay.Drawing) ([]byte, error) {
	src, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	m := image.NewRGBA(src.Bounds())
	draw.Draw(m, m.Bounds(), src, src.Bounds().Min, draw.Src)
	if drawFn != nil {
		paintOn(m, drawFn(m.Bounds().Dx(), m.Bounds().Dy()))
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: quality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Fill implements overlay.Painter.
func (Painter) Fill(dst sight.Image, w, h int, bg color.RGBA, d overlay.Drawing) {
	m, ok := rgba(dst)
	if !ok {
		return
	}
	m.RGBA = image.NewRGBA(image.Rect(0, 0, w, h))
	bg.A = 255
	draw.Draw(m.RGBA, m.RGBA.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	paintOn(m.RGBA, d)
}

// paintOn draws the shapes it knows (circles, polygons, lines) opaquely.
func paintOn(m *image.RGBA, d overlay.Drawing) {
	for _, op := range d.Ops {
		c := op.Colour
		c.A = 255
		switch op.Kind {
		case overlay.OpLine:
			if len(op.Pts) == 2 {
				line(m, op.Pts[0], op.Pts[1], c)
			}
		case overlay.OpCircle:
			if len(op.Pts) == 1 {
				circle(m, op.Pts[0], op.R, c, op.Th < 0)
			}
		case overlay.OpPolygon:
			if op.Th < 0 {
				fillPolygon(m, op.Pts, c)
			} else {
				for i := range op.Pts {
					line(m, op.Pts[i], op.Pts[(i+1)%len(op.Pts)], c)
				}
			}
		}
	}
}

func line(m *image.RGBA, a, b image.Point, c color.RGBA) {
	n := max(abs(b.X-a.X), abs(b.Y-a.Y), 1)
	for i := 0; i <= n; i++ {
		m.SetRGBA(a.X+(b.X-a.X)*i/n, a.Y+(b.Y-a.Y)*i/n, c)
	}
}

func circle(m *image.RGBA, ctr image.Point, r int, c color.RGBA, fill bool) {
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			d := math.Hypot(float64(x), float64(y))
			if d <= float64(r)+0.5 && (fill || d >= float64(r)-1) {
				m.SetRGBA(ctr.X+x, ctr.Y+y, c)
			}
		}
	}
}

func fillPolygon(m *image.RGBA, pts []image.Point, c color.RGBA) {
	if len(pts) < 3 {
		return
	}
	bb := image.Rectangle{Min: pts[0], Max: pts[0]}
	for _, p := range pts {
		bb = bb.Union(image.Rectangle{Min: p, Max: p.Add(image.Pt(1, 1))})
	}
	bb = bb.Intersect(m.Bounds())
	for y := bb.Min.Y; y < bb.Max.Y; y++ {
		for x := bb.Min.X; x < bb.Max.X; x++ {
			in := false
			for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
				pi, pj := pts[i], pts[j]
				if (pi.Y > y) != (pj.Y > y) && float64(x) < float64(pj.X-pi.X)*float64(y-pi.Y)/float64(pj.Y-pi.Y)+float64(pi.X) {
					in = !in
				}
			}
			if in {
				m.SetRGBA(x, y, c)
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
