package calibrate

import (
	"image"
	"image/color"
	"math"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
)

// This file draws simple synthetic board images with exactly known corners,
// for tests that must not depend on the shared renderer: a top-down texture
// in millimetres (frame, surface, markings, pockets, pieces, a hand) warped
// into the camera image by a pinhole camera, optionally with lens
// distortion, blur and noise.

// view is a synthetic camera.
type view struct {
	W, H     int
	Rotation float64 // about the vertical axis, degrees
	TiltX    float64 // camera tilt about the image x axis, degrees
	TiltY    float64 // about the image y axis, degrees
	Fill     float64 // fraction of the image height the surface spans
	Shift    Point   // of the board in the image, as a fraction of the size
	Lens     *Lens   // distortion to apply (nil: none)
	Noise    float64 // Gaussian noise, grey levels
	Blur     float64 // Gaussian blur sigma, px
	Pieces   bool    // scatter carrommen
	Hand     bool    // a hand and arm over one edge
	Shade    float64 // darkening toward one side, 0..1
	// WoodFrame: a frame (and table) of a wood much like the surface's,
	// parted from it only by the dark band of the frame's inner wall.
	WoodFrame bool
	// EdgeShadow: a shadow this many mm wide on the surface along the
	// right half of the bottom edge (a low lamp beyond the frame; under
	// uneven light the surface's edge seems to run along the shadow's
	// inner side for that stretch).
	EdgeShadow float64
	Seed       int64
}

const texPerMM = 1.5

// boardTexture draws the board seen from straight above, texPerMM px per
// mm, with the surface centred.
func boardTexture(g *board.Geometry, v view) (gocv.Mat, float64) {
	extent := g.Surface + 2*g.FrameWidth + 60
	n := int(extent * texPerMM)
	bg := gocv.NewScalar(60, 70, 75, 0)
	if v.WoodFrame {
		bg = gocv.NewScalar(205, 190, 168, 0) // a table of a similar wood
	}
	tex := gocv.NewMatWithSizeFromScalar(bg, n, n, gocv.MatTypeCV8UC3)
	off := float64(n) / 2
	px := func(p board.Vec) image.Point {
		return image.Pt(int(math.Round(p.X*texPerMM+off)), int(math.Round(p.Y*texPerMM+off)))
	}
	rect := func(h float64, c color.RGBA) {
		gocv.Rectangle(&tex, image.Rectangle{px(board.Vec{X: -h, Y: -h}), px(board.Vec{X: h, Y: h})}, c, -1)
	}
	if v.WoodFrame {
		rect(g.Half()+g.FrameWidth, color.RGBA{165, 185, 212, 255}) // wood a shade darker
		rect(g.Half()+8, color.RGBA{60, 62, 70, 255})               // the inner wall's dark band
	} else {
		rect(g.Half()+g.FrameWidth, color.RGBA{25, 22, 20, 255}) // black frame
	}
	rect(g.Half(), color.RGBA{200, 215, 230, 255}) // light wood
	rng := rand.New(rand.NewSource(v.Seed + 1))
	// Wood grain: faint streaks.
	for i := 0; i < 120; i++ {
		y := (rng.Float64()*2 - 1) * (g.Half() - 3)
		d := 6 + rng.Float64()*8
		gocv.Line(&tex, px(board.Vec{X: -g.Half(), Y: y}), px(board.Vec{X: g.Half(), Y: y + rng.Float64()*4 - 2}),
			color.RGBA{uint8(200 - d), uint8(215 - d), uint8(230 - d), 255}, 1)
	}
	dark := color.RGBA{30, 30, 30, 255}
	red := color.RGBA{200, 30, 40, 255}
	thick := func(s board.Segment, w float64) {
		gocv.Line(&tex, px(s.A), px(s.B), dark, max(1, int(math.Round(w*texPerMM))))
	}
	disc := func(c board.Circle, col color.RGBA) {
		gocv.Circle(&tex, px(c.C), int(math.Round(c.R*texPerMM)), col, -1)
	}
	ring := func(c board.Circle, col color.RGBA, w float64) {
		gocv.Circle(&tex, px(c.C), int(math.Round(c.R*texPerMM)), col, max(1, int(math.Round(w*texPerMM))))
	}
	for _, s := range board.Sides {
		rl := g.RearLine(s)
		thick(rl, g.RearLineThickness)
		thick(g.FrontLine(s), g.FrontLineThickness)
		for _, c := range g.BaseCircles(s) {
			disc(c, dark)
			disc(board.Circle{C: c.C, R: g.BaseCircleCoreDiameter / 2}, red)
		}
	}
	for _, p := range board.Pockets {
		if a := g.Arrow(p); a != (board.Segment{}) {
			thick(a, g.ArrowThickness)
		}
		disc(g.Pocket(p), color.RGBA{8, 8, 8, 255})
	}
	if v.EdgeShadow > 0 {
		gocv.Rectangle(&tex, image.Rectangle{px(board.Vec{X: 0, Y: g.Half() - v.EdgeShadow}), px(board.Vec{X: g.Half(), Y: g.Half()})},
			color.RGBA{62, 66, 72, 255}, -1)
	}
	ring(g.OuterCircle(), dark, 1)
	disc(g.CentreCircle(), red)
	if v.Pieces {
		for i := 0; i < 14; i++ {
			c := board.Vec{X: (rng.Float64()*2 - 1) * 250, Y: (rng.Float64()*2 - 1) * 250}
			col := color.RGBA{20, 20, 20, 255}
			if i%2 == 0 {
				col = color.RGBA{150, 190, 225, 255}
			}
			disc(board.Circle{C: c, R: g.ManDiameter / 2}, col)
		}
		// A man resting against the bottom edge.
		disc(board.Circle{C: board.Vec{X: 60, Y: g.Half() - g.ManDiameter/2}, R: g.ManDiameter / 2}, color.RGBA{20, 20, 20, 255})
	}
	if v.Hand {
		skin := color.RGBA{120, 150, 200, 255}
		arm := []image.Point{px(board.Vec{X: 120, Y: g.Half() + 200}), px(board.Vec{X: 200, Y: g.Half() + 200}),
			px(board.Vec{X: 170, Y: g.Half() - 140}), px(board.Vec{X: 90, Y: g.Half() - 140})}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{arm})
		gocv.FillPoly(&tex, pv, skin)
		pv.Close()
		gocv.Circle(&tex, px(board.Vec{X: 130, Y: g.Half() - 150}), int(50*texPerMM), skin, -1)
	}
	return tex, off
}

// camera returns the homography from board millimetres to undistorted
// image pixels for v.
func (v view) camera(g *board.Geometry) Homography {
	f := float64(v.H) * 1.2 // focal length, px
	// Distance that makes the surface span Fill of the image height.
	dist := f * g.Surface / (v.Fill * float64(v.H))
	rz := v.Rotation * math.Pi / 180
	rx := v.TiltX * math.Pi / 180
	ry := v.TiltY * math.Pi / 180
	Rz := [3][3]float64{{math.Cos(rz), -math.Sin(rz), 0}, {math.Sin(rz), math.Cos(rz), 0}, {0, 0, 1}}
	Rx := [3][3]float64{{1, 0, 0}, {0, math.Cos(rx), -math.Sin(rx)}, {0, math.Sin(rx), math.Cos(rx)}}
	Ry := [3][3]float64{{math.Cos(ry), 0, math.Sin(ry)}, {0, 1, 0}, {-math.Sin(ry), 0, math.Cos(ry)}}
	R := mul3(Rx, mul3(Ry, Rz))
	// World point (x, y, 0) → camera R·p + t, with t putting the board
	// dist in front of the camera.
	t := [3]float64{v.Shift.X * float64(v.W) * dist / f, v.Shift.Y * float64(v.H) * dist / f, dist}
	K := [3][3]float64{{f, 0, float64(v.W)/2 - 0.5}, {0, f, float64(v.H)/2 - 0.5}, {0, 0, 1}}
	M := [3][3]float64{{R[0][0], R[0][1], t[0]}, {R[1][0], R[1][1], t[1]}, {R[2][0], R[2][1], t[2]}}
	return Homography(mul3(K, M)).Normalised()
}

func mul3(a, b [3][3]float64) [3][3]float64 {
	var r [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return r
}

// renderView draws the board for v and returns the image and the true
// surface corners (NW, NE, SE, SW of the board) in (distorted) image
// pixels.
func renderView(t testing.TB, g *board.Geometry, v view) (gocv.Mat, [4]Point) {
	t.Helper()
	tex, off := boardTexture(g, v)
	defer tex.Close()
	h := v.camera(g)
	// texture px → mm → image px
	toMM := Homography{{1 / texPerMM, 0, -off / texPerMM}, {0, 1 / texPerMM, -off / texPerMM}, {0, 0, 1}}
	ht := h.Mul(toMM)
	inv, err := ht.Inverse()
	if err != nil {
		t.Fatal(err)
	}
	mapX := gocv.NewMatWithSize(v.H, v.W, gocv.MatTypeCV32F)
	defer mapX.Close()
	mapY := gocv.NewMatWithSize(v.H, v.W, gocv.MatTypeCV32F)
	defer mapY.Close()
	mx, _ := mapX.DataPtrFloat32()
	my, _ := mapY.DataPtrFloat32()
	for y := 0; y < v.H; y++ {
		for x := 0; x < v.W; x++ {
			p := Pt(float64(x), float64(y))
			if v.Lens != nil {
				p = v.Lens.Undistort(p)
			}
			q := inv.Apply(p)
			mx[y*v.W+x] = float32(q.X)
			my[y*v.W+x] = float32(q.Y)
		}
	}
	out := gocv.NewMat()
	gocv.Remap(tex, &out, &mapX, &mapY, gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{60, 70, 75, 0})
	if v.Shade > 0 {
		d, _ := out.DataPtrUint8()
		for y := 0; y < v.H; y++ {
			f := 1 - v.Shade*float64(y)/float64(v.H)
			for x := 0; x < v.W; x++ {
				for c := 0; c < 3; c++ {
					i := (y*v.W+x)*3 + c
					d[i] = uint8(float64(d[i]) * f)
				}
			}
		}
	}
	if v.Blur > 0 {
		gocv.GaussianBlur(out, &out, image.Point{}, v.Blur, v.Blur, gocv.BorderReflect101)
	}
	if v.Noise > 0 {
		rng := rand.New(rand.NewSource(v.Seed))
		d, _ := out.DataPtrUint8()
		for i := range d {
			d[i] = uint8(math.Max(0, math.Min(255, float64(d[i])+rng.NormFloat64()*v.Noise)))
		}
	}
	// The surface rectangle is filled up to the outer sides of its border
	// pixels: half a texture pixel beyond ±Half.
	var corners [4]Point
	for i, c := range camera.BoardCorners(g.Surface + 1/texPerMM) {
		p := h.Apply(c)
		if v.Lens != nil {
			p = v.Lens.Distort(p)
		}
		corners[i] = p
	}
	return out, corners
}

// imageOrder sorts board corners into image order (the corner nearest the
// image's top-left direction from the centre first, then clockwise).
func imageOrder(c [4]Point) [4]Point {
	var cen Point
	for _, p := range c {
		cen = cen.Add(p.Scale(0.25))
	}
	best, bd := 0, math.Inf(1)
	for i, p := range c {
		a := math.Atan2(p.Y-cen.Y, p.X-cen.X)
		d := math.Abs(math.Remainder(a+3*math.Pi/4, 2*math.Pi))
		if d < bd {
			best, bd = i, d
		}
	}
	var out [4]Point
	for i := 0; i < 4; i++ {
		out[i] = c[(best+i)%4]
	}
	return out
}

// syntheticViews are the camera set-ups every synthetic test runs.
func syntheticViews() map[string]view {
	base := view{W: 1280, H: 720, Fill: 0.86, Noise: 3, Blur: 0.7, Seed: 1}
	with := func(f func(*view)) view { v := base; f(&v); return v }
	return map[string]view{
		"straight":     base,
		"rotated 17°":  with(func(v *view) { v.Rotation = 17; v.Fill = 0.7 }),
		"rotated 45°":  with(func(v *view) { v.Rotation = 45; v.Fill = 0.62 }),
		"rotated 100°": with(func(v *view) { v.Rotation = 100; v.Fill = 0.8 }),
		"tilted":       with(func(v *view) { v.TiltX = 12; v.TiltY = -8; v.Fill = 0.78 }),
		"pieces, hand": with(func(v *view) { v.Pieces = true; v.Hand = true; v.Seed = 3 }),
		"shaded":       with(func(v *view) { v.Shade = 0.35; v.Rotation = -6 }),
		"cropped top":  with(func(v *view) { v.Fill = 0.98; v.Shift = Pt(0, 0.05) }),
		"wood frame": with(func(v *view) {
			v.WoodFrame = true
			v.Fill = 0.72
			v.Rotation = 4
			v.TiltX = 5
			v.Pieces = true
			v.Seed = 5
		}),
	}
}
