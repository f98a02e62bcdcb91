package render

import (
	"image"
	"image/color"
	"math"

	"github.com/boardcam/boardcam/board"
	"gocv.io/x/gocv"
)

// canvas is a top-down float image in board millimetres: pixel (i, j)
// covers x in [x0 + i/ppm, x0 + (i+1)/ppm), likewise y. Textures are painted
// on canvases with signed-distance shapes (anti-aliased, sub-pixel exact).
type canvas struct {
	w, h   int
	ppm    float64
	x0, y0 float64
	pix    []float32 // BGR interleaved, 0–255
}

func newCanvas(x0, y0, wmm, hmm, ppm float64) *canvas {
	w, h := int(math.Ceil(wmm*ppm)), int(math.Ceil(hmm*ppm))
	return &canvas{w: w, h: h, ppm: ppm, x0: x0, y0: y0, pix: make([]float32, 3*w*h)}
}

// mm returns the board point at the centre of pixel (i, j).
func (c *canvas) mm(i, j int) board.Vec {
	return board.Vec{X: c.x0 + (float64(i)+0.5)/c.ppm, Y: c.y0 + (float64(j)+0.5)/c.ppm}
}

// cv returns OpenCV pixel coordinates (centres at integers) of a board point.
func (c *canvas) cv(p board.Vec) (float64, float64) {
	return (p.X-c.x0)*c.ppm - 0.5, (p.Y-c.y0)*c.ppm - 0.5
}

func (c *canvas) fill(col bgr) {
	for i := 0; i < len(c.pix); i += 3 {
		c.pix[i], c.pix[i+1], c.pix[i+2] = float32(col[0]), float32(col[1]), float32(col[2])
	}
}

func (c *canvas) get(k int) bgr {
	return bgr{float64(c.pix[3*k]), float64(c.pix[3*k+1]), float64(c.pix[3*k+2])}
}

func (c *canvas) set(k int, col bgr) {
	c.pix[3*k], c.pix[3*k+1], c.pix[3*k+2] = float32(col[0]), float32(col[1]), float32(col[2])
}

func (c *canvas) blend(k int, col bgr, a float64) {
	if a <= 0 {
		return
	}
	if a > 1 {
		a = 1
	}
	for ch := 0; ch < 3; ch++ {
		v := float64(c.pix[3*k+ch])
		c.pix[3*k+ch] = float32(v + (col[ch]-v)*a)
	}
}

// each calls f for every pixel whose centre lies in the box (mm).
func (c *canvas) each(minX, minY, maxX, maxY float64, f func(k int, p board.Vec)) {
	i0 := int(math.Floor((minX-c.x0)*c.ppm)) - 1
	j0 := int(math.Floor((minY-c.y0)*c.ppm)) - 1
	i1 := int(math.Ceil((maxX-c.x0)*c.ppm)) + 1
	j1 := int(math.Ceil((maxY-c.y0)*c.ppm)) + 1
	if i0 < 0 {
		i0 = 0
	}
	if j0 < 0 {
		j0 = 0
	}
	if i1 > c.w {
		i1 = c.w
	}
	if j1 > c.h {
		j1 = c.h
	}
	for j := j0; j < j1; j++ {
		for i := i0; i < i1; i++ {
			f(j*c.w+i, c.mm(i, j))
		}
	}
}

// shape paints colour col with opacity op wherever the signed distance
// sdf (mm, negative inside) is inside, anti-aliased over one pixel. The
// box bounds the shape. opacity, when not nil, modulates op per pixel.
func (c *canvas) shape(box [4]float64, sdf func(p board.Vec) float64, col bgr, op float64, opacity *field) {
	half := 0.5 / c.ppm
	c.each(box[0]-half, box[1]-half, box[2]+half, box[3]+half, func(k int, p board.Vec) {
		d := sdf(p)
		cov := clamp(0.5-d*c.ppm, 0, 1)
		if cov <= 0 {
			return
		}
		a := op * cov
		if opacity != nil {
			a *= float64(opacity.v[k])
		}
		c.blend(k, col, a)
	})
}

// Signed distance functions (mm; negative inside).

func sdSegment(p, a, b board.Vec, halfWidth float64) float64 {
	return (board.Segment{A: a, B: b}).DistTo(p) - halfWidth
}

func sdRing(p, centre board.Vec, r, halfWidth float64) float64 {
	return math.Abs(p.Dist(centre)-r) - halfWidth
}

func sdDisc(p, centre board.Vec, r float64) float64 { return p.Dist(centre) - r }

// sdArc is a ring of radius r around centre from angle a0 anticlockwise (in
// board terms: from +x toward +y) to a1, radians.
func sdArc(p, centre board.Vec, r, halfWidth, a0, a1 float64) float64 {
	q := p.Sub(centre)
	ang := math.Atan2(q.Y, q.X)
	for ang < a0 {
		ang += 2 * math.Pi
	}
	if ang <= a1 {
		return math.Abs(q.Len()-r) - halfWidth
	}
	e0 := centre.Add(board.Vec{X: math.Cos(a0), Y: math.Sin(a0)}.Scale(r))
	e1 := centre.Add(board.Vec{X: math.Cos(a1), Y: math.Sin(a1)}.Scale(r))
	return math.Min(p.Dist(e0), p.Dist(e1)) - halfWidth
}

// sdTriangle is the exact signed distance to a triangle.
func sdTriangle(p, a, b, c board.Vec) float64 {
	d := math.Min(math.Min((board.Segment{A: a, B: b}).DistTo(p), (board.Segment{A: b, B: c}).DistTo(p)), (board.Segment{A: c, B: a}).DistTo(p))
	s1 := b.Sub(a).Cross(p.Sub(a))
	s2 := c.Sub(b).Cross(p.Sub(b))
	s3 := a.Sub(c).Cross(p.Sub(c))
	if (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0) {
		return -d
	}
	return d
}

// sdBox is a rotated rounded rectangle: centre, half sizes, rotation (rad),
// corner radius.
func sdBox(p, centre board.Vec, hx, hy, rot, round float64) float64 {
	q := p.Sub(centre)
	cs, sn := math.Cos(rot), math.Sin(rot)
	u, v := q.X*cs+q.Y*sn, -q.X*sn+q.Y*cs
	dx := math.Abs(u) - hx + round
	dy := math.Abs(v) - hy + round
	out := math.Hypot(math.Max(dx, 0), math.Max(dy, 0))
	return out + math.Min(math.Max(dx, dy), 0) - round
}

func boxOf(pts ...board.Vec) [4]float64 {
	b := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range pts {
		b[0], b[1] = math.Min(b[0], p.X), math.Min(b[1], p.Y)
		b[2], b[3] = math.Max(b[2], p.X), math.Max(b[3], p.Y)
	}
	return b
}

func grow(b [4]float64, m float64) [4]float64 {
	return [4]float64{b[0] - m, b[1] - m, b[2] + m, b[3] + m}
}

func circleBox(c board.Vec, r float64) [4]float64 {
	return [4]float64{c.X - r, c.Y - r, c.X + r, c.Y + r}
}

// toMat converts the canvas to an 8-bit BGR Mat (the caller closes it).
func (c *canvas) toMat() gocv.Mat {
	m := gocv.NewMatWithSize(c.h, c.w, gocv.MatTypeCV8UC3)
	b, _ := m.DataPtrUint8()
	for i, v := range c.pix {
		b[i] = uint8(clamp32(v+0.5, 0, 255))
	}
	return m
}

// textMask renders text with a Hershey font into a coverage field (0–1),
// tightly cropped; height is the cap height in pixels.
func textMask(text string, font gocv.HersheyFont, height float64, thickness int) field {
	base := gocv.GetTextSize(text, font, 1, thickness)
	scale := height / float64(base.Y)
	sz := gocv.GetTextSize(text, font, scale, thickness)
	pad := 4 + thickness
	w, h := sz.X+2*pad, int(float64(sz.Y)*1.5)+2*pad
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
	defer m.Close()
	m.SetTo(gocv.NewScalar(0, 0, 0, 0))
	gocv.PutTextWithParams(&m, text, image.Pt(pad, pad+sz.Y), font, scale, color.RGBA{255, 255, 255, 255}, thickness, gocv.LineAA, false)
	b, _ := m.DataPtrUint8()
	f := field{w: w, h: h, v: make([]float32, w*h)}
	for i, v := range b {
		f.v[i] = float32(v) / 255
	}
	return f
}

// stamp paints a coverage field centred at centre, rotated by rot (rad),
// with its width spanning widthMM.
func (c *canvas) stamp(f field, centre board.Vec, rot, widthMM float64, col bgr, op float64, opacity *field) {
	s := float64(f.w) / widthMM // mask px per mm
	hw, hh := widthMM/2, float64(f.h)/s/2
	r := math.Hypot(hw, hh)
	cs, sn := math.Cos(rot), math.Sin(rot)
	c.each(centre.X-r, centre.Y-r, centre.X+r, centre.Y+r, func(k int, p board.Vec) {
		q := p.Sub(centre)
		u, v := q.X*cs+q.Y*sn, -q.X*sn+q.Y*cs
		if math.Abs(u) > hw || math.Abs(v) > hh {
			return
		}
		a := float64(f.at((u+hw)*s-0.5, (v+hh)*s-0.5)) * op
		if opacity != nil {
			a *= float64(opacity.v[k])
		}
		c.blend(k, col, a)
	})
}
