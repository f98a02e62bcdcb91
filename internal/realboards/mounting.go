package realboards

import (
	"fmt"
	"math"
	"strings"
)

// Mounting is one transformed copy of a photograph standing for a real
// camera mounting: the picture framed tightly on the playing surface,
// turned, at a coarser scale, under other light, compressed. The
// geometric part is one homography applied to the picture and to the
// annotation alike, so the transformed annotation is exact.
type Mounting struct {
	Name string
	// Crop, when positive, frames the picture on the playing surface: its
	// border lies this fraction of the board's width inside the surface's
	// edges (0.01: the frame just out of view; 0.03: the border through
	// the pockets). The crop is the largest upright rectangle inside the
	// (turned) surface, inset, as a camera framed on the board sees it.
	Crop float64
	// Rotate turns the picture by this many degrees (clockwise as seen),
	// about its middle; the canvas grows to hold it all, the new parts
	// filled with a dark grey floor (beyond the board's frame, as a turned
	// camera sees the floor). A photo whose border cuts the surface is
	// instead cropped to what it shows: see Plan.
	Rotate float64
	// MMPerPx downscales the picture so that the board's 740 mm span this
	// many millimetres per pixel (only ever smaller than the photo).
	MMPerPx float64
	// Gain darkens the picture and casts a colour: each channel (B, G, R)
	// multiplied after a gamma of Gamma (0: 1).
	Gain  [3]float64
	Gamma float64
	// JPEG recompresses the picture at this quality (0: not).
	JPEG int

	// Tilt is the camera's tilt from straight down, degrees: the picture
	// is warped as a camera turned by Tilt about its own centre would see
	// it (focal length 1.2 × the picture's longer side, a field of view
	// of about 45°), the far side of the board shrinking. TiltDir is the
	// direction the camera leans towards, degrees clockwise from the
	// picture's up.
	Tilt, TiltDir float64
	// Light multiplies the picture by a linear ramp from 1 at one side to
	// Light at the other (uneven light: a lamp to one side), the dark side
	// in direction LightDir (degrees clockwise from up). 0: even light.
	Light, LightDir float64
	// Glare adds a white specular blob of peak Glare (fraction of 255;
	// 1 saturates its middle) centred at GlareAt (fractions of the
	// picture's width and height) with a Gaussian radius of GlareR
	// × the picture's longer side.
	Glare   float64
	GlareAt [2]float64
	GlareR  float64
	// Defocus blurs the final picture with a Gaussian of this sigma, px
	// (an unfocused lens, a slow exposure's shake).
	Defocus float64
	// Noise adds Gaussian sensor noise of this sigma (grey levels), the
	// same every run (seeded by the mounting's name).
	Noise float64
	// Replicate fills what the turned or tilted photo leaves uncovered
	// with the photo's own border continued outwards instead of a grey
	// floor: a camera turned sees more of the frame and the room, not a
	// straight-edged grey field (which, on a photo cropped a few
	// millimetres outside the surface, would stand as a sharp false frame
	// edge beside the true one).
	Replicate bool
}

// Mountings are the standard transformed copies the tests run on every
// photo in scope.
func Mountings() []Mounting {
	warm := [3]float64{0.45, 0.58, 0.78}
	cool := [3]float64{0.78, 0.62, 0.5}
	return []Mounting{
		{Name: "crop-edge", Crop: 0.01},
		{Name: "crop-pockets", Crop: 0.03},
		{Name: "rot90", Rotate: 90},
		{Name: "rot180", Rotate: 180},
		{Name: "rot27", Rotate: 27},
		{Name: "2mm", MMPerPx: 2},
		{Name: "dark-warm", Gain: warm, Gamma: 1.3},
		{Name: "jpeg30", JPEG: 30},
		{Name: "crop-rot90-1.7mm-dark-jpeg", Crop: 0.015, Rotate: 90, MMPerPx: 1.7, Gain: warm, Gamma: 1.2, JPEG: 50},
		{Name: "rot-200-1.5mm-cool-jpeg", Rotate: -160, MMPerPx: 1.5, Gain: cool, Gamma: 1.2, JPEG: 45},
		{Name: "rot8-crop-2mm-dark", Crop: 0.02, Rotate: 8, MMPerPx: 2, Gain: [3]float64{0.5, 0.5, 0.55}, Gamma: 1.4},
	}
}

// Perturbations are what a real mount and camera do to the picture, one
// family at a time (the family is the name before the slash) and in a few
// combinations: scale from 2 mm/px up to the board filling the frame,
// any turn, a camera a few degrees off vertical, crops from the frame's
// edge to the playing surface alone, uneven light and glare, white
// balance, defocus, sensor noise and JPEG. They stand in for photos not
// seen: the robustness check (docs/calibration.md, "Perturbed photos")
// applies each to every photo in scope and counts what the board search
// and the detector make of it.
func Perturbations() []Mounting {
	warm := [3]float64{0.62, 0.8, 1.05}
	cool := [3]float64{1.05, 0.9, 0.72}
	green := [3]float64{0.85, 1.05, 0.8}
	return []Mounting{
		{Replicate: true, Name: "scale/2mm", MMPerPx: 2},
		{Replicate: true, Name: "scale/1.5mm", MMPerPx: 1.5},
		{Replicate: true, Name: "scale/1mm", MMPerPx: 1},
		{Replicate: true, Name: "scale/fill-frame", Crop: -0.03},
		{Replicate: true, Name: "scale/fill-frame-1.7mm", Crop: -0.015, MMPerPx: 1.7},
		{Replicate: true, Name: "rot/10", Rotate: 10},
		{Replicate: true, Name: "rot/33", Rotate: 33},
		{Replicate: true, Name: "rot/45", Rotate: 45},
		{Replicate: true, Name: "rot/72", Rotate: 72},
		{Replicate: true, Name: "rot/135", Rotate: 135},
		{Replicate: true, Name: "rot/222", Rotate: 222},
		{Replicate: true, Name: "rot/300", Rotate: 300},
		{Replicate: true, Name: "tilt/3-up", Tilt: 3},
		{Replicate: true, Name: "tilt/3-right", Tilt: 3, TiltDir: 90},
		{Replicate: true, Name: "tilt/5-diag", Tilt: 5, TiltDir: 45},
		{Replicate: true, Name: "tilt/5-down", Tilt: 5, TiltDir: 200},
		{Replicate: true, Name: "tilt/8-left", Tilt: 8, TiltDir: 290},
		{Replicate: true, Name: "crop/surface-only", Crop: 0.003},
		{Replicate: true, Name: "crop/0.01", Crop: 0.01},
		{Replicate: true, Name: "crop/0.02", Crop: 0.02},
		{Replicate: true, Name: "crop/0.03", Crop: 0.03},
		{Replicate: true, Name: "crop/0.01-rot30", Crop: 0.01, Rotate: 30},
		{Replicate: true, Name: "light/ramp-0.5", Light: 0.5},
		{Replicate: true, Name: "light/ramp-0.35-diag", Light: 0.35, LightDir: 135},
		{Replicate: true, Name: "light/ramp-0.25-left", Light: 0.25, LightDir: 270},
		{Replicate: true, Name: "light/glare-soft", Glare: 0.6, GlareAt: [2]float64{0.35, 0.4}, GlareR: 0.08},
		{Replicate: true, Name: "light/glare-saturated", Glare: 1.2, GlareAt: [2]float64{0.7, 0.3}, GlareR: 0.1},
		{Replicate: true, Name: "light/glare-corner", Glare: 1.2, GlareAt: [2]float64{0.88, 0.88}, GlareR: 0.08},
		{Replicate: true, Name: "wb/warm", Gain: warm},
		{Replicate: true, Name: "wb/cool", Gain: cool},
		{Replicate: true, Name: "wb/fluorescent", Gain: green},
		{Replicate: true, Name: "wb/dark", Gain: [3]float64{0.45, 0.45, 0.45}, Gamma: 1.5},
		{Replicate: true, Name: "wb/overexposed", Gain: [3]float64{1.45, 1.45, 1.45}, Gamma: 0.9},
		{Replicate: true, Name: "blur/1px", Defocus: 1},
		{Replicate: true, Name: "blur/2px", Defocus: 2},
		{Replicate: true, Name: "blur/3px", Defocus: 3},
		{Replicate: true, Name: "noise/5", Noise: 5},
		{Replicate: true, Name: "noise/10", Noise: 10},
		{Replicate: true, Name: "noise/20", Noise: 20},
		{Replicate: true, Name: "jpeg/50", JPEG: 50},
		{Replicate: true, Name: "jpeg/30", JPEG: 30},
		{Replicate: true, Name: "jpeg/15", JPEG: 15},
		{Replicate: true, Name: "combo/pi-cam", MMPerPx: 1.8, Rotate: 17, Tilt: 4, TiltDir: 60, Light: 0.55, LightDir: 210, Gain: warm, Noise: 6, Defocus: 0.8, JPEG: 60},
		{Replicate: true, Name: "combo/phone-glare", Rotate: 93, Tilt: 2.5, TiltDir: 150, Glare: 0.9, GlareAt: [2]float64{0.3, 0.6}, GlareR: 0.07, Defocus: 1.2, JPEG: 70},
		{Replicate: true, Name: "combo/dim-club", MMPerPx: 2, Rotate: -38, Light: 0.4, LightDir: 20, Gain: [3]float64{0.5, 0.48, 0.45}, Gamma: 1.3, Noise: 10, JPEG: 40},
		{Replicate: true, Name: "combo/tight-tilted", Crop: -0.01, MMPerPx: 1.6, Tilt: 5, TiltDir: 120, Rotate: 4, Noise: 4, JPEG: 60},
	}
}

// Family is the perturbation's family: its name before the slash.
func (m Mounting) Family() string {
	if i := strings.IndexByte(m.Name, '/'); i >= 0 {
		return m.Name[:i]
	}
	return m.Name
}

// Cropped reports whether the mounting shows less than the whole surface.
// (A negative Crop frames the picture that fraction of the board outside
// the surface: the board fills the picture but all of it is in view.)
func (m Mounting) Cropped() bool { return m.Crop > 0 }

// boardMM is the span the scale of MMPerPx is measured against.
const boardMM = 740

// H3 is a 3×3 homography (row-major) of image pixel coordinates, pixel
// centres at integers.
type H3 [3][3]float64

func (h H3) mul(g H3) H3 {
	var r H3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[i][j] += h[i][k] * g[k][j]
			}
		}
	}
	return r
}

// Apply maps a point.
func (h H3) Apply(p [2]float64) [2]float64 {
	x := h[0][0]*p[0] + h[0][1]*p[1] + h[0][2]
	y := h[1][0]*p[0] + h[1][1]*p[1] + h[1][2]
	w := h[2][0]*p[0] + h[2][1]*p[1] + h[2][2]
	return [2]float64{x / w, y / w}
}

// inverse returns h⁻¹.
func (h H3) inverse() H3 {
	a := h
	det := a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) - a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) + a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
	var r H3
	r[0][0] = (a[1][1]*a[2][2] - a[1][2]*a[2][1]) / det
	r[0][1] = (a[0][2]*a[2][1] - a[0][1]*a[2][2]) / det
	r[0][2] = (a[0][1]*a[1][2] - a[0][2]*a[1][1]) / det
	r[1][0] = (a[1][2]*a[2][0] - a[1][0]*a[2][2]) / det
	r[1][1] = (a[0][0]*a[2][2] - a[0][2]*a[2][0]) / det
	r[1][2] = (a[0][2]*a[1][0] - a[0][0]*a[1][2]) / det
	r[2][0] = (a[1][0]*a[2][1] - a[1][1]*a[2][0]) / det
	r[2][1] = (a[0][1]*a[2][0] - a[0][0]*a[2][1]) / det
	r[2][2] = (a[0][0]*a[1][1] - a[0][1]*a[1][0]) / det
	return r
}

// Warp is the picture work of a mounting, as Plan works it out from the
// photo's size: the OpenCV side (render/mounting.Apply) carries it out on
// the pixels, so that this package stays without cgo.
type Warp struct {
	// H maps the photo's pixels to the copy's.
	H H3
	// Width and Height are the copy's size in pixels.
	Width, Height int
	// Blur is the Gaussian sigma (px) that anti-aliases the photo before a
	// coarser warp samples it (0: none).
	Blur float64
	// Floor fills what the turned photo leaves uncovered (B, G, R),
	// unless Replicate: then the photo's border continues outwards.
	Floor     [3]uint8
	Replicate bool
	// Curve, when set, maps each channel's value (B, G, R) after the warp:
	// the mounting's gain and gamma.
	Curve *[256][3]uint8
	// JPEG recompresses the copy at this quality (0: not).
	JPEG int
	// Ramp, when Ramp.Low > 0, multiplies the copy by a linear ramp: 1 at
	// Ramp.From and Ramp.Low at Ramp.To (pixel coordinates of the copy),
	// constant beyond.
	Ramp Ramp
	// Glare adds a white Gaussian blob (peak in grey levels, sigma px) at
	// a point of the copy.
	Glare Glare
	// Defocus is the sigma (px) of a Gaussian blur of the copy after the
	// light, before the noise (0: none).
	Defocus float64
	// Noise is the sigma (grey levels) of the Gaussian noise added to each
	// channel, from the pseudo-random source seeded with Seed.
	Noise float64
	Seed  int64
}

// Ramp is a linear light ramp across the copy.
type Ramp struct {
	From, To [2]float64
	Low      float64
}

// Glare is a white specular blob.
type Glare struct {
	At         [2]float64
	Peak, Sigm float64
}

// Plan works out the transformed copy of a photo of cols×rows pixels (the
// photo of a) and its exact annotation.
func (m Mounting) Plan(cols, rows int, a Annotation) (Warp, Annotation, error) {
	if cols <= 0 || rows <= 0 {
		return Warp{}, a, fmt.Errorf("realboards: %s: empty picture", a.File)
	}
	W, Hh := float64(cols), float64(rows)
	scale := 1.0
	if m.MMPerPx > 0 {
		scale = math.Min(1, boardMM/m.MMPerPx/width(a))
	}
	// Turn about the middle and scale; the canvas grows to hold the whole
	// picture.
	th := m.Rotate * math.Pi / 180
	cs, sn := math.Cos(th), math.Sin(th)
	h := H3{{cs * scale, -sn * scale, 0}, {sn * scale, cs * scale, 0}, {0, 0, 1}}
	h = h.mul(H3{{1, 0, -(W - 1) / 2}, {0, 1, -(Hh - 1) / 2}, {0, 0, 1}})
	if m.Tilt != 0 {
		h = tilt(m.Tilt, m.TiltDir, 1.2*math.Max(W, Hh)*scale).mul(h)
	}
	// The picture's edges (pixel edges at ±0.5) after the turn: the kept
	// region, in output coordinates before the final shift.
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, p := range [][2]float64{{-0.5, -0.5}, {W - 0.5, -0.5}, {W - 0.5, Hh - 0.5}, {-0.5, Hh - 0.5}} {
		q := h.Apply(p)
		x0, x1 = math.Min(x0, q[0]), math.Max(x1, q[0])
		y0, y1 = math.Min(y0, q[1]), math.Max(y1, q[1])
	}
	cut := false
	for _, o := range a.Outside {
		cut = cut || o
	}
	if r := math.Mod(math.Abs(m.Rotate), 90); cut && (r > 0.01 && r < 89.99 || m.Tilt != 0) {
		// The photo itself is cut by its border across the surface: turned,
		// its border would stand across the surface as a straight edge
		// with a floor beyond, which no camera sees. A camera turned so
		// sees as much as the photo shows: the largest upright rectangle
		// of the photo's proportions inside the turned photo.
		inv := h.inverse()
		inside := func(k float64) bool {
			cx, cy := (x0+x1)/2, (y0+y1)/2
			for _, p := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				q := inv.Apply([2]float64{cx + p[0]*k*W*scale/2, cy + p[1]*k*Hh*scale/2})
				if q[0] < -0.5 || q[1] < -0.5 || q[0] > W-0.5 || q[1] > Hh-0.5 {
					return false
				}
			}
			return true
		}
		lo, hi := 0.0, 1.0
		for i := 0; i < 40; i++ {
			if mid := (lo + hi) / 2; inside(mid) {
				lo = mid
			} else {
				hi = mid
			}
		}
		cx, cy := (x0+x1)/2, (y0+y1)/2
		x0, x1 = math.Ceil(cx-lo*W*scale/2)-0.5, math.Floor(cx+lo*W*scale/2)+0.5
		y0, y1 = math.Ceil(cy-lo*Hh*scale/2)-0.5, math.Floor(cy+lo*Hh*scale/2)+0.5
	}
	if m.Crop != 0 {
		// Framed on the surface: the largest upright rectangle inside the
		// turned surface, inset. Corners in picture order after the turn.
		var cq [4][2]float64
		for i, c := range a.Corners {
			cq[i] = h.Apply(c)
		}
		cq = pictureOrder(cq)
		in := m.Crop * width(a) * scale
		cx0 := math.Max(cq[0][0], cq[3][0]) + in
		cx1 := math.Min(cq[1][0], cq[2][0]) - in
		cy0 := math.Max(cq[0][1], cq[1][1]) + in
		cy1 := math.Min(cq[2][1], cq[3][1]) - in
		if m.Crop < 0 {
			// Framed around the surface: its bounding box, grown.
			cx0 = math.Min(cq[0][0], cq[3][0]) + in
			cx1 = math.Max(cq[1][0], cq[2][0]) - in
			cy0 = math.Min(cq[0][1], cq[1][1]) + in
			cy1 = math.Max(cq[2][1], cq[3][1]) - in
		}
		x0, y0 = math.Max(x0, math.Round(cx0)-0.5), math.Max(y0, math.Round(cy0)-0.5)
		x1, y1 = math.Min(x1, math.Round(cx1)+0.5), math.Min(y1, math.Round(cy1)+0.5)
		if x1-x0 < 64 || y1-y0 < 64 {
			return Warp{}, a, fmt.Errorf("realboards: %s: crop %.3f leaves nothing", a.File, m.Crop)
		}
	}
	ow, oh := int(math.Round(x1-x0)), int(math.Round(y1-y0))
	// Put the kept region's top-left pixel edge at (-0.5, -0.5).
	h = H3{{1, 0, -x0 - 0.5}, {0, 1, -y0 - 0.5}, {0, 0, 1}}.mul(h)

	w := Warp{H: h, Width: ow, Height: oh, Floor: [3]uint8{34, 36, 38}, JPEG: m.JPEG, Replicate: m.Replicate}
	if scale < 0.999 {
		w.Blur = 0.45 * math.Sqrt(1/(scale*scale)-1)
	}
	if m.Gain != ([3]float64{}) {
		gamma := m.Gamma
		if gamma == 0 {
			gamma = 1
		}
		var lut [256][3]uint8
		for v := 0; v < 256; v++ {
			base := 255 * math.Pow(float64(v)/255, gamma)
			for c := 0; c < 3; c++ {
				lut[v][c] = uint8(math.Min(255, math.Round(base*m.Gain[c])))
			}
		}
		w.Curve = &lut
	}
	long := math.Max(float64(ow), float64(oh))
	if m.Light > 0 {
		th := m.LightDir * math.Pi / 180
		dx, dy := math.Sin(th), -math.Cos(th)
		half := (math.Abs(dx)*float64(ow) + math.Abs(dy)*float64(oh)) / 2
		cx, cy := float64(ow-1)/2, float64(oh-1)/2
		w.Ramp = Ramp{From: [2]float64{cx - dx*half, cy - dy*half}, To: [2]float64{cx + dx*half, cy + dy*half}, Low: m.Light}
	}
	if m.Glare > 0 {
		w.Glare = Glare{At: [2]float64{m.GlareAt[0] * float64(ow), m.GlareAt[1] * float64(oh)}, Peak: 255 * m.Glare, Sigm: m.GlareR * long}
	}
	w.Defocus = m.Defocus
	w.Noise = m.Noise
	for _, r := range m.Name {
		w.Seed = w.Seed*31 + int64(r)
	}
	return w, m.annotate(a, h, ow, oh), nil
}

// tilt is the homography of a camera (focal length f px, principal point
// at the origin) turned by deg degrees about the axis in the picture plane
// perpendicular to the direction dir (degrees clockwise from up), so that
// it leans towards dir: K R K⁻¹.
func tilt(deg, dir, f float64) H3 {
	th := deg * math.Pi / 180
	ph := dir * math.Pi / 180
	// The axis of the turn, in the picture plane, perpendicular to the
	// lean: the lean's direction is (sin ph, -cos ph).
	ux, uy := math.Cos(ph), math.Sin(ph)
	c, s := math.Cos(th), math.Sin(th)
	// Rodrigues' rotation about (ux, uy, 0).
	r := H3{
		{c + ux*ux*(1-c), ux * uy * (1 - c), uy * s},
		{uy * ux * (1 - c), c + uy*uy*(1-c), -ux * s},
		{-uy * s, ux * s, c},
	}
	k := H3{{f, 0, 0}, {0, f, 0}, {0, 0, 1}}
	ki := H3{{1 / f, 0, 0}, {0, 1 / f, 0}, {0, 0, 1}}
	return k.mul(r).mul(ki)
}

// width is the mean side of the annotated surface, px.
func width(a Annotation) float64 {
	var s float64
	for i := 0; i < 4; i++ {
		p, q := a.Corners[i], a.Corners[(i+1)%4]
		s += math.Hypot(p[0]-q[0], p[1]-q[1])
	}
	return s / 4
}

// Width is the mean side of the annotated surface in pixels.
func (a Annotation) Width() float64 { return width(a) }

// annotate carries the annotation through h into a picture of w×h pixels:
// corners and piece centres mapped, radii scaled by the local scale,
// pieces that the border cuts marked partial and those whose centre left
// the picture dropped. Corners keep their order: starting from the one
// nearest the picture's top-left, clockwise, as the annotations are kept.
func (m Mounting) annotate(a Annotation, h H3, w, hgt int) Annotation {
	out := a
	out.File = a.File + " [" + m.Name + "]"
	out.ImageSize = [2]int{w, hgt}
	var cs [4][2]float64
	for i, c := range a.Corners {
		cs[i] = h.Apply(c)
	}
	first := pictureFirst(cs)
	for i := 0; i < 4; i++ {
		out.Corners[i] = cs[(first+i)%4]
		out.Uncertainty[i] = a.Uncertainty[(first+i)%4] * localScale(h, a.Corners[(first+i)%4])
		c := out.Corners[i]
		out.Outside[i] = c[0] < -0.5 || c[1] < -0.5 || c[0] > float64(w)-0.5 || c[1] > float64(hgt)-0.5
	}
	out.Pieces = nil
	for _, p := range a.Pieces {
		q := p
		q.Center = h.Apply(p.Center)
		q.Radius = p.Radius * localScale(h, p.Center)
		x, y := q.Center[0], q.Center[1]
		if x < -0.5 || y < -0.5 || x > float64(w)-0.5 || y > float64(hgt)-0.5 {
			continue
		}
		if x-q.Radius < -0.5 || y-q.Radius < -0.5 || x+q.Radius > float64(w)-0.5 || y+q.Radius > float64(hgt)-0.5 {
			q.Partial = true
		}
		out.Pieces = append(out.Pieces, q)
	}
	var notes []string
	if a.Notes != "" {
		notes = append(notes, a.Notes)
	}
	notes = append(notes, fmt.Sprintf("transformed copy %q of %s", m.Name, a.File))
	out.Notes = strings.Join(notes, " ")
	return out
}

// pictureFirst is the index of the corner nearest the picture's top-left
// (the smallest x+y); the others follow clockwise.
func pictureFirst(cs [4][2]float64) int {
	first, best := 0, math.Inf(1)
	for i, c := range cs {
		if v := c[0] + c[1]; v < best {
			first, best = i, v
		}
	}
	return first
}

// pictureOrder re-orders clockwise corners to start at the top-left one.
func pictureOrder(cs [4][2]float64) [4][2]float64 {
	f := pictureFirst(cs)
	var out [4][2]float64
	for i := range out {
		out[i] = cs[(f+i)%4]
	}
	return out
}

// localScale is the linear scale of h at p.
func localScale(h H3, p [2]float64) float64 {
	a := h.Apply(p)
	b := h.Apply([2]float64{p[0] + 1, p[1]})
	c := h.Apply([2]float64{p[0], p[1] + 1})
	return (math.Hypot(b[0]-a[0], b[1]-a[1]) + math.Hypot(c[0]-a[0], c[1]-a[1])) / 2
}
