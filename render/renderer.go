package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/scene"
	"gocv.io/x/gocv"
)

// Renderer draws scenes of one clip as the camera of its settings sees
// them. Build one per clip with [New] (it paints the static textures once),
// render every frame with [Renderer.Render], and Close it. A Renderer is
// not safe for concurrent use.
type Renderer struct {
	set  Settings
	geom *board.Geometry
	seed uint64
	in   intrinsics
	w, h int

	// xn, yn are the normalised undistorted coordinates of every pixel
	// centre (they depend only on the lens).
	xn, yn []float32

	atlas     gocv.Mat
	boardTex  texRegion
	bgTex     texRegion
	walls     [4]texRegion // S, E, N, W inner walls
	bgColour  bgr
	sprites   map[board.Kind][]*sprite
	skinNoise field
	lightVar  field // low-frequency light unevenness over the board area
	lightExt  float64

	// the static frame of the current camera pose
	poseKey   poseKey
	havePose  bool
	cam       *Camera
	base      gocv.Mat
	gain      []float32
	mapX      gocv.Mat
	mapY      gocv.Mat
	mapX1     gocv.Mat // native-size maps for a shaking camera
	mapY1     gocv.Mat
	ssImg     gocv.Mat
	frame     gocv.Mat
	blurred   gocv.Mat
	toneLUT   [4096]float32
	noiseSeed uint64
}

// texRegion is where a top-down texture sits in the atlas: atlas pixel
// coordinates of a board point p are (p.X-x0)*ppm - 0.5 + ox, likewise y.
type texRegion struct {
	x0, y0, ppm float64
	ox, oy      int
	w, h        int
}

func (t texRegion) coord(x, y float64) (float32, float32) {
	return float32((x-t.x0)*t.ppm - 0.5 + float64(t.ox)), float32((y-t.y0)*t.ppm - 0.5 + float64(t.oy))
}

type poseKey struct{ rot, tilt, dir, ox, oy, hgt float64 }

// New prepares a renderer for a clip: it validates the settings, builds
// the lens model and paints the board, the background, the pieces.
func New(s Settings, g *board.Geometry, seed int64) (*Renderer, error) {
	if g == nil {
		g = board.ICF()
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("render: board: %w", err)
	}
	in, err := newIntrinsics(s.Camera, s.Width, s.Height, g)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	rd := &Renderer{set: s, geom: g, seed: uint64(seed), in: in, w: s.Width, h: s.Height}
	rd.buildRayTable()
	cam0 := cameraAt(in, poseAt(s.Camera, 0))
	scale := cam0.Scale()

	// Textures at about 1.6 texels per image pixel (at least 1.5 per mm).
	ppm := clamp(1.6*scale, 0.6, 6)
	// keep the textures' memory bounded (at most 4096 texels across)
	ppm = math.Min(ppm, 4096/(2*(g.Half()+g.FrameWidth+6)))
	bt := boardTexture(s, g, ppm, rd.seed)
	var wallTex [4]*canvas
	if s.Board.FrameHeight > 0 {
		for i, sd := range board.Sides {
			// how directly the lamp lights the wall of side sd (its face
			// looks toward the centre)
			n := sd.Normal().Scale(-1)
			wallPt := sd.Normal().Scale(g.Half())
			lv := board.Vec{X: s.Lighting.Light[0], Y: s.Lighting.Light[1]}.Sub(wallPt)
			l := normalize([3]float64{lv.X, lv.Y, s.Lighting.Light[2] - s.Board.FrameHeight/2})
			lam := math.Max(n.X*l[0]+n.Y*l[1], 0)
			wallTex[i] = wallStrip(g, s, ppm, 0.55+0.6*lam)
		}
	}
	// Background: as far as the camera (knocked or not) can see.
	depth := s.Background.Depth
	ext := g.Half() + g.FrameWidth + 200
	for _, t := range knockTimes(s.Camera) {
		c := cameraAt(in, poseAt(s.Camera, t))
		for _, px := range [][2]float64{{0, 0}, {float64(rd.w) / 2, 0}, {float64(rd.w), 0}, {float64(rd.w), float64(rd.h) / 2}, {float64(rd.w), float64(rd.h)}, {float64(rd.w) / 2, float64(rd.h)}, {0, float64(rd.h)}, {0, float64(rd.h) / 2}} {
			if p, ok := c.Unproject(px[0], px[1], -depth); ok {
				ext = math.Max(ext, math.Max(math.Abs(p.X), math.Abs(p.Y))*1.08+60)
			}
		}
	}
	ext = math.Min(ext, 6000)
	bgPPM := math.Min(clamp(1.6*cam0.Fx/(s.Camera.Height+depth), 0.25, ppm), 2500/(2*ext))
	bg := backgroundTexture(s, g, ext, bgPPM, rd.seed)
	rd.bgColour = bg.get(0)

	// One atlas holds them all, 4 px apart (bilinear lookups never mix them).
	rd.boardTex = texRegion{x0: bt.x0, y0: bt.y0, ppm: ppm, w: bt.w, h: bt.h}
	aw, ah := bt.w, bt.h+4
	if wallTex[0] != nil {
		for i, wt := range wallTex {
			rd.walls[i] = texRegion{x0: wt.x0, y0: wt.y0, ppm: ppm, ox: 0, oy: ah, w: wt.w, h: wt.h}
			ah += wt.h + 4
			if wt.w > aw {
				aw = wt.w
			}
		}
	}
	rd.bgTex = texRegion{x0: bg.x0, y0: bg.y0, ppm: bgPPM, ox: aw + 4, oy: 0, w: bg.w, h: bg.h}
	aw += 4 + bg.w
	if bg.h > ah {
		ah = bg.h
	}
	rd.atlas = gocv.NewMatWithSize(ah, aw, gocv.MatTypeCV8UC3)
	rd.atlas.SetTo(gocv.NewScalar(0, 0, 0, 0))
	paste := func(c *canvas, t texRegion) {
		m := c.toMat()
		defer m.Close()
		roi := rd.atlas.Region(image.Rect(t.ox, t.oy, t.ox+c.w, t.oy+c.h))
		defer roi.Close()
		m.CopyTo(&roi)
	}
	paste(bt, rd.boardTex)
	for i, wt := range wallTex {
		if wt != nil {
			paste(wt, rd.walls[i])
		}
	}
	paste(bg, rd.bgTex)

	spritePPM := clamp(2.5*scale, 3, 10)
	rd.sprites = makeSprites(s, g, spritePPM, rd.seed)
	nr := newRNG(rd.seed, 4)
	rd.skinNoise = fbm(nr, 128, 128, 6, 6, 2)
	rd.lightExt = ext
	rd.lightVar = fbm(nr, 96, 96, 24, 24, 2)
	rd.buildToneLUT()

	ss := s.Sensor.Supersample
	rd.mapX = gocv.NewMatWithSize(rd.h*ss, rd.w*ss, gocv.MatTypeCV32F)
	rd.mapY = gocv.NewMatWithSize(rd.h*ss, rd.w*ss, gocv.MatTypeCV32F)
	rd.ssImg = gocv.NewMat()
	rd.base = gocv.NewMatWithSize(rd.h, rd.w, gocv.MatTypeCV8UC3)
	rd.frame = gocv.NewMatWithSize(rd.h, rd.w, gocv.MatTypeCV8UC3)
	rd.blurred = gocv.NewMatWithSize(rd.h, rd.w, gocv.MatTypeCV8UC3)
	rd.gain = make([]float32, rd.w*rd.h)
	return rd, nil
}

// knockTimes are the instants at which the camera's pose is worth checking
// for how much it sees: the start and just after every knock.
func knockTimes(c CameraSettings) []float64 {
	ts := []float64{0}
	for _, k := range c.Knocks {
		ts = append(ts, k.T+10)
	}
	return ts
}

// Close frees the renderer's OpenCV memory.
func (rd *Renderer) Close() {
	for _, m := range []*gocv.Mat{&rd.atlas, &rd.mapX, &rd.mapY, &rd.mapX1, &rd.mapY1, &rd.ssImg, &rd.base, &rd.frame, &rd.blurred} {
		if m.Ptr() != nil {
			m.Close()
		}
	}
}

// Settings returns the renderer's settings.
func (rd *Renderer) Settings() Settings { return rd.set }

// Geometry returns the board the renderer draws.
func (rd *Renderer) Geometry() *board.Geometry { return rd.geom }

// Size returns the frame size in pixels.
func (rd *Renderer) Size() (int, int) { return rd.w, rd.h }

// CameraAt returns the camera at time t (seconds from the clip's start):
// the ground truth of that frame (corners, homography, lens).
func (rd *Renderer) CameraAt(t float64) *Camera {
	return cameraAt(rd.in, poseAt(rd.set.Camera, t))
}

// LevelAt returns the light level at time t (the base level with dims).
func (rd *Renderer) LevelAt(t float64) float64 {
	lv := 1.0
	for _, d := range rd.set.Lighting.Dims {
		if t < d.T {
			continue
		}
		f := 1.0
		if d.Ramp > 0 {
			f = clamp((t-d.T)/d.Ramp, 0, 1)
		}
		lv = lv + (d.Level-lv)*f
	}
	return rd.set.Lighting.Level * lv
}

func (rd *Renderer) buildRayTable() {
	c := cameraAt(rd.in, rd.set.Camera)
	rd.xn = make([]float32, rd.w*rd.h)
	rd.yn = make([]float32, rd.w*rd.h)
	for y := 0; y < rd.h; y++ {
		for x := 0; x < rd.w; x++ {
			a, b := c.undistortNorm(float64(x), float64(y))
			rd.xn[y*rd.w+x], rd.yn[y*rd.w+x] = float32(a), float32(b)
		}
	}
}

// Hit kinds of a camera ray.
const (
	hitSurface = iota
	hitFrame
	hitWall
	hitBackground
	hitNone
)

// trace follows the ray (world direction d) from the camera to the first
// thing it meets: the top of the frame, the playing surface, an inner wall
// of the frame, or the background below. It returns the kind, the atlas
// coordinates, and the point hit (board mm and height).
func (rd *Renderer) trace(c *Camera, d [3]float64) (int, float32, float32, board.Vec, float64) {
	if d[2] <= 1e-6 {
		return hitNone, -100, -100, board.Vec{}, 0
	}
	g := rd.geom
	h, fw := g.Half(), g.FrameWidth
	hf := rd.set.Board.FrameHeight
	at := func(z float64) (float64, float64) {
		t := (-z - c.Pos[2]) / d[2]
		return c.Pos[0] + t*d[0], c.Pos[1] + t*d[1]
	}
	x, y := at(hf)
	m := math.Max(math.Abs(x), math.Abs(y))
	if m >= h && m <= h+fw {
		u, v := rd.boardTex.coord(x, y)
		return hitFrame, u, v, board.Vec{X: x, Y: y}, hf
	}
	if m < h {
		qx, qy := at(0)
		if math.Abs(qx) <= h && math.Abs(qy) <= h {
			u, v := rd.boardTex.coord(qx, qy)
			return hitSurface, u, v, board.Vec{X: qx, Y: qy}, 0
		}
		// It passes an inner wall between the frame's top and the surface:
		// take the first wall plane it crosses.
		best, bi := math.Inf(1), -1
		var bz, bs float64
		for i, sd := range board.Sides {
			n := sd.Normal()
			den := n.X*d[0] + n.Y*d[1]
			if den <= 0 {
				continue
			}
			t := (h - (n.X*c.Pos[0] + n.Y*c.Pos[1])) / den
			px, py := c.Pos[0]+t*d[0], c.Pos[1]+t*d[1]
			z := -(c.Pos[2] + t*d[2])
			along := board.ToLocal(sd, board.Vec{X: px, Y: py}).X
			if t < best && z >= -0.5 && z <= hf+0.5 && math.Abs(along) <= h+0.5 {
				best, bi, bz, bs = t, i, z, along
			}
		}
		if bi >= 0 {
			w := rd.walls[bi]
			u, v := w.coord(bs, hf-bz)
			p := board.FromLocal(board.Sides[bi], board.Vec{X: bs, Y: h})
			return hitWall, u, v, p, bz
		}
		u, v := rd.boardTex.coord(qx, qy)
		return hitSurface, u, v, board.Vec{X: qx, Y: qy}, 0
	}
	depth := rd.set.Background.Depth
	bx, by := at(-depth)
	u, v := rd.bgTex.coord(bx, by)
	return hitBackground, u, v, board.Vec{X: bx, Y: by}, -depth
}

// prepare makes the static frame (everything that does not move, unlit)
// and the lighting gain of the camera at time t, unless the pose is the
// same as last time.
func (rd *Renderer) prepare(t float64) {
	pose := poseAt(rd.set.Camera, t)
	key := poseKey{pose.Rotation, pose.Tilt, pose.TiltDirection, pose.Offset[0], pose.Offset[1], pose.Height}
	if rd.havePose && key == rd.poseKey {
		return
	}
	rd.poseKey, rd.havePose = key, true
	c := cameraAt(rd.in, pose)
	rd.cam = c
	ss := rd.set.Sensor.Supersample
	mapX, mapY := &rd.mapX, &rd.mapY
	if wobbling(rd.set.Camera, t) && ss > 1 {
		// While the camera shakes every frame needs a new static frame; skip
		// the supersampling then (the shake blurs the picture anyway).
		ss = 1
		if rd.mapX1.Ptr() == nil {
			rd.mapX1 = gocv.NewMatWithSize(rd.h, rd.w, gocv.MatTypeCV32F)
			rd.mapY1 = gocv.NewMatWithSize(rd.h, rd.w, gocv.MatTypeCV32F)
		}
		mapX, mapY = &rd.mapX1, &rd.mapY1
	}
	mx, _ := mapX.DataPtrFloat32()
	my, _ := mapY.DataPtrFloat32()
	W := rd.w * ss
	inv := 1 / float64(ss)
	for j := 0; j < rd.h*ss; j++ {
		for i := 0; i < W; i++ {
			var xn, yn float64
			if ss == 1 {
				xn, yn = float64(rd.xn[j*rd.w+i]), float64(rd.yn[j*rd.w+i])
			} else {
				xn, yn = c.undistortNorm((float64(i)+0.5)*inv-0.5, (float64(j)+0.5)*inv-0.5)
			}
			_, u, v, _, _ := rd.trace(c, c.ray(xn, yn))
			mx[j*W+i], my[j*W+i] = u, v
		}
	}
	bc := rd.bgColour
	border := color.RGBA{uint8(bc[2]), uint8(bc[1]), uint8(bc[0]), 0}
	if ss == 1 {
		gocv.Remap(rd.atlas, &rd.base, mapX, mapY, gocv.InterpolationLinear, gocv.BorderConstant, border)
	} else {
		gocv.Remap(rd.atlas, &rd.ssImg, mapX, mapY, gocv.InterpolationLinear, gocv.BorderConstant, border)
		gocv.Resize(rd.ssImg, &rd.base, image.Pt(rd.w, rd.h), 0, 0, gocv.InterpolationArea)
	}
	rd.lighting(c)
}

// lighting computes the gain of every pixel (lamp fall-off, the frame's
// shadow, uneven light, vignetting) and adds the lamp's glare on the
// lacquer into the static frame.
func (rd *Renderer) lighting(c *Camera) {
	L := rd.set.Lighting
	lw := [3]float64{L.Light[0], L.Light[1], -L.Light[2]}
	g := rd.geom
	h := g.Half()
	hf := rd.set.Board.FrameHeight
	amb := L.Ambient
	// normalising: irradiance at the board centre
	e0 := 1 / (L.Light[2] * L.Light[2]) * (L.Light[2] / math.Sqrt(L.Light[0]*L.Light[0]+L.Light[1]*L.Light[1]+L.Light[2]*L.Light[2]))
	// vignetting relative to the image corner
	xc, yc := c.undistortNorm(-0.5, -0.5)
	xc2, yc2 := c.undistortNorm(float64(rd.w)-0.5, float64(rd.h)-0.5)
	cornerR2 := math.Max(xc*xc+yc*yc, xc2*xc2+yc2*yc2)
	cos4c := 1 / ((1 + cornerR2) * (1 + cornerR2))
	pix, _ := rd.base.DataPtrUint8()
	penumbra := L.LampSize*hf/L.Light[2] + 1
	glares := make([]float32, rd.w*rd.h)
	var sum float64
	var count int
	for i := 0; i < rd.w*rd.h; i++ {
		xn, yn := float64(rd.xn[i]), float64(rd.yn[i])
		d := c.ray(xn, yn)
		kind, _, _, p, z := rd.trace(c, d)
		if kind == hitNone {
			rd.gain[i] = float32(amb)
			continue
		}
		P := world(p, z)
		lv := [3]float64{lw[0] - P[0], lw[1] - P[1], lw[2] - P[2]}
		dist := math.Sqrt(dot(lv, lv))
		hgt := L.Light[2] - z
		e := hgt / (dist * dist * dist) / e0
		if kind == hitWall {
			e = 1 / (dist * dist) * (L.Light[2] * L.Light[2]) * 0.9
		}
		vis := 1.0
		if kind == hitSurface && hf > 0 {
			// the lamp is hidden by the frame when the line toward it passes
			// the frame's top outside the surface
			k := hf / L.Light[2]
			qx, qy := p.X+(L.Light[0]-p.X)*k, p.Y+(L.Light[1]-p.Y)*k
			o := math.Max(math.Abs(qx), math.Abs(qy)) - h
			vis = smoothstep(penumbra, -penumbra, o)
		}
		uneven := 1 + 0.35*L.Unevenness*float64(rd.lightVar.at((p.X+rd.lightExt)/(2*rd.lightExt)*95, (p.Y+rd.lightExt)/(2*rd.lightExt)*95))
		r2 := xn*xn + yn*yn
		cos4 := 1 / ((1 + r2) * (1 + r2))
		vig := 1 - 0.5*L.Vignetting*(1-cos4)/(1-cos4c+1e-9)
		gain := (amb + (1-amb)*e*vis) * uneven * vig
		rd.gain[i] = float32(gain)
		if kind == hitSurface {
			sum += gain
			count++
		}
		if (kind == hitSurface || kind == hitFrame) && L.Glare > 0 {
			l := normalize(lv)
			v := normalize([3]float64{c.Pos[0] - P[0], c.Pos[1] - P[1], c.Pos[2] - P[2]})
			hv := normalize([3]float64{l[0] + v[0], l[1] + v[1], l[2] + v[2]})
			nh := math.Max(-hv[2], 0)
			if kind == hitSurface {
				glares[i] = float32(L.Glare * (60*math.Pow(nh, 260) + 6*math.Pow(nh, 30)) * vis)
			} else {
				glares[i] = float32(L.Glare * (150*math.Pow(nh, 700) + 20*math.Pow(nh, 40)))
			}
		}
	}
	// The camera's exposure: the playing surface averages 0.92 of its
	// colour at level 1, wherever the lamp hangs.
	norm := 1.0
	if count > 0 {
		norm = 0.92 / (sum / float64(count))
	}
	for i := range rd.gain {
		rd.gain[i] *= float32(norm)
		if gl := float64(glares[i]); gl > 0.3 {
			add := gl / math.Max(float64(rd.gain[i]), 0.2)
			o := 3 * i
			for ch := 0; ch < 3; ch++ {
				pix[o+ch] = clampByte(float64(pix[o+ch]) + add)
			}
		}
	}
}

func byteOf(v float32) uint8 {
	if v <= 0 {
		return 0
	}
	if v >= 255 {
		return 255
	}
	return uint8(v + 0.5)
}

// buildToneLUT maps exposure-scaled values (0–1023.75 in steps of 1/4) to
// output values: contrast, then a soft shoulder instead of hard clipping.
func (rd *Renderer) buildToneLUT() {
	con := rd.set.Sensor.Contrast
	for i := range rd.toneLUT {
		y := float64(i) / 4 / 255
		y = 0.5 + (y-0.5)*con
		if y > 0.82 {
			y = 0.82 + 0.18*math.Tanh((y-0.82)/0.18)
		}
		rd.toneLUT[i] = float32(clamp(y, 0, 1) * 255)
	}
}

// Render draws the scene at sc.T into dst (made 8-bit BGR of the frame
// size). Moving discs are blurred along their velocity over the exposure.
func (rd *Renderer) Render(sc *scene.Scene, dst *gocv.Mat) error {
	return rd.RenderSampled(sc, nil, dst)
}

// RenderSampled is Render with the exact positions of moving discs during
// the exposure taken from at(t) (e.g. the simulator's trajectory), so a disc
// that bounces or falls into a pocket mid-exposure is blurred correctly.
func (rd *Renderer) RenderSampled(sc *scene.Scene, at func(t float64) *scene.Scene, dst *gocv.Mat) error {
	if sc == nil {
		return errors.New("render: no scene")
	}
	if dst == nil {
		return errors.New("render: no destination")
	}
	rd.prepare(sc.T)
	rd.base.CopyTo(&rd.frame)
	pix, err := rd.frame.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	L := rd.set.Lighting
	v := &view{cam: rd.cam, w: rd.w, h: rd.h, xn: rd.xn, yn: rd.yn, pix: pix,
		light: [3]float64{L.Light[0], L.Light[1], -L.Light[2]}, lampR: L.LampSize, amb: L.Ambient, shadow: L.Shadows}
	jobs := rd.discJobs(sc, at, rd.cam)
	v.drawDiscShadows(jobs)
	v.drawDiscs(jobs)
	rd.drawHands(v, sc.Hands)

	src, spare := &rd.frame, &rd.blurred
	if b := rd.set.Sensor.Blur; b > 0.05 {
		k := int(math.Ceil(b*3))*2 + 1
		gocv.GaussianBlur(*src, spare, image.Pt(k, k), b, b, gocv.BorderReflect101)
		src, spare = spare, src
	}
	if a := rd.set.Sensor.Sharpen; a > 0 {
		// unsharp mask: src + a·(src − blur(src))
		gocv.GaussianBlur(*src, spare, image.Pt(7, 7), 1.4, 1.4, gocv.BorderReflect101)
		gocv.AddWeighted(*src, 1+a, *spare, -a, 0, spare)
		src = spare
	}
	if dst.Empty() || dst.Rows() != rd.h || dst.Cols() != rd.w || dst.Type() != gocv.MatTypeCV8UC3 {
		if dst.Ptr() != nil {
			dst.Close()
		}
		*dst = gocv.NewMatWithSize(rd.h, rd.w, gocv.MatTypeCV8UC3)
	}
	if err := rd.finish(src, dst, sc.T); err != nil {
		return err
	}
	if q := rd.set.Sensor.JPEGQuality; q > 0 {
		// The bytes and pixels of OpenCV's imgcodecs (package jpeg's
		// tests), so the committed clips stay the same.
		buf, err := cvio.EncodeJPEG(*dst, q)
		if err != nil {
			return fmt.Errorf("render: jpeg: %w", err)
		}
		dec, err := cvio.DecodeJPEG(buf, false)
		if err != nil {
			dec.Close()
			return fmt.Errorf("render: jpeg: %w", err)
		}
		dec.CopyTo(dst)
		dec.Close()
	}
	return nil
}

// finish applies the light (gain, level, white balance), the camera's tone
// curve and saturation, and sensor noise, from src into dst.
func (rd *Renderer) finish(src, dst *gocv.Mat, t float64) error {
	in, err := src.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	out, err := dst.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	S := rd.set.Sensor
	level := rd.LevelAt(t)
	agc := math.Pow(level, -S.AutoGain)
	warm := rd.set.Lighting.Warmth
	wb := [3]float32{float32((1 - 0.12*warm) * level * agc * 4), float32((1 + 0.02*warm) * level * agc * 4), float32((1 + 0.1*warm) * level * agc * 4)}
	sat := float32(S.Saturation)
	// noise sigma by output luminance: shot noise of the sensor signal plus
	// read noise, amplified by the camera's gain
	var sigma [258]float32
	for y := range sigma {
		sg := S.Noise * agc * math.Sqrt(S.ReadNoise*S.ReadNoise+S.ShotNoise*float64(y)/agc)
		sigma[y] = float32(sg)
	}
	noisy := S.Noise > 0
	prng := mix(rd.seed, 7, math.Float64bits(t)) | 1
	lut := &rd.toneLUT
	gt := &gaussTable
	n := rd.w * rd.h
	in = in[:3*n]
	out = out[:3*n]
	gain := rd.gain[:n]
	for i := 0; i < n; i++ {
		g := gain[i]
		o := 3 * i
		i0 := int(float32(in[o]) * g * wb[0])
		i1 := int(float32(in[o+1]) * g * wb[1])
		i2 := int(float32(in[o+2]) * g * wb[2])
		if i0 > 4095 {
			i0 = 4095
		}
		if i1 > 4095 {
			i1 = 4095
		}
		if i2 > 4095 {
			i2 = 4095
		}
		c0, c1, c2 := lut[i0], lut[i1], lut[i2]
		y := 0.114*c0 + 0.587*c1 + 0.299*c2
		if sat != 1 {
			c0 = y + sat*(c0-y)
			c1 = y + sat*(c1-y)
			c2 = y + sat*(c2-y)
		}
		if noisy {
			// xorshift64*: four normal numbers per step
			prng ^= prng >> 12
			prng ^= prng << 25
			prng ^= prng >> 27
			r := prng * 2685821657736338717
			yi := int(y)
			if yi < 0 {
				yi = 0
			} else if yi > 257 {
				yi = 257
			}
			sg := sigma[yi]
			nl := 0.8 * gt[r&0xffff]
			c0 += sg * (nl + 0.45*gt[(r>>16)&0xffff])
			c1 += sg * (nl + 0.35*gt[(r>>32)&0xffff])
			c2 += sg * (nl + 0.45*gt[(r>>48)&0xffff])
		}
		out[o] = byteOf(c0)
		out[o+1] = byteOf(c1)
		out[o+2] = byteOf(c2)
	}
	return nil
}
