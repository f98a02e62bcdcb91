package render

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// handLook is how one person's arm looks: skin tone, sleeve and which
// hand it is. It is fixed per owner for a clip.
type handLook struct {
	skin, sleeve bgr
	// sleeveEnd is the fraction of the forearm, from the elbow, that the
	// sleeve covers (0: bare forearm).
	sleeveEnd float64
	// thumb is −1 for a right hand seen from above (thumb on the left of
	// the direction the fingers point), +1 for a left hand.
	thumb float64
}

func lookFor(owner string, seed uint64) handLook {
	r := newRNG(seed, strHash("hand:"+owner))
	l := handLook{skin: skinTones[r.intn(len(skinTones))], sleeve: sleeveColours[r.intn(len(sleeveColours))], thumb: -1}
	l.skin = l.skin.scale(r.in(0.94, 1.06))
	switch r.intn(3) {
	case 0:
		l.sleeveEnd = 0
	case 1:
		l.sleeveEnd = r.in(0.15, 0.4)
	default:
		l.sleeveEnd = r.in(0.5, 0.8)
	}
	if r.float() < 0.12 {
		l.thumb = 1
	}
	return l
}

type capsule struct {
	a, b   board.Vec
	ra, rb float64
}

// sd returns the signed distance from p to the tapered capsule, the
// parameter t of the nearest axis point and the offset from it.
func (c capsule) sd(p board.Vec) (float64, float64, board.Vec) {
	abx, aby := c.b.X-c.a.X, c.b.Y-c.a.Y
	px, py := p.X-c.a.X, p.Y-c.a.Y
	t := clamp((px*abx+py*aby)/(abx*abx+aby*aby), 0, 1)
	off := board.Vec{X: px - abx*t, Y: py - aby*t}
	return math.Sqrt(off.X*off.X+off.Y*off.Y) - (c.ra + (c.rb-c.ra)*t), t, off
}

// handShape is a scene.Hand turned into drawable 3D parts: the forearm, a
// tapered cylinder rising toward the elbow, and the back of the hand (palm,
// four fingers and the thumb) on a plane just above Z.
type handShape struct {
	look handLook
	zh   float64 // height of the back of the hand
	w    board.Vec
	u, v board.Vec // along the hand, across it
	lp   float64   // palm length
	hw   float64   // hand width
	fing [5]capsule
	cen  board.Vec // centre and radius bounding the hand
	rad  float64
	arm  capsule
	za   float64 // arm top height at arm.a and arm.b
	zb   float64
	// plane of the arm's top: a point and the normal, world coordinates
	p0, n [3]float64
	slT   float64
	z     float64
}

func newHandShape(h scene.Hand, look handLook) *handShape {
	armW, handW := h.ArmWidth, h.HandWidth
	if armW <= 0 {
		armW = 70
	}
	if handW <= 0 {
		handW = 85
	}
	s := &handShape{look: look, w: h.Wrist, hw: handW, z: math.Max(h.Z, 0)}
	dir := h.Fingertip.Sub(h.Wrist)
	L := dir.Len()
	if L < 1 {
		dir, L = h.Wrist.Sub(h.Elbow).Unit(), 1.6*handW
	}
	s.u = dir.Unit()
	s.v = board.Vec{X: -s.u.Y, Y: s.u.X}
	s.lp = 0.54 * L
	s.zh = s.z + 20
	at := func(u, v float64) board.Vec { return s.w.Add(s.u.Scale(u)).Add(s.v.Scale(-v * look.thumb)) }
	fl := L - s.lp
	rf := handW * 0.118
	fingers := []struct{ v, l, r float64 }{{-0.335, 0.9, rf}, {-0.112, 1.0, rf * 1.03}, {0.112, 0.94, rf * 0.98}, {0.325, 0.76, rf * 0.86}}
	for i, f := range fingers {
		a := at(s.lp-8, f.v*handW)
		b := at(s.lp+fl*f.l-f.r, f.v*handW*0.96)
		s.fing[i] = capsule{a, b, f.r * 1.05, f.r * 0.9}
	}
	// The thumb leaves the palm near the wrist and points forward and out.
	ta := at(0.3*s.lp, -0.34*handW)
	tdir := s.u.Scale(math.Cos(0.42)).Add(s.v.Scale(look.thumb * math.Sin(0.42)))
	s.fing[4] = capsule{ta, ta.Add(tdir.Scale(0.42 * L)), handW * 0.135, handW * 0.105}
	s.cen = at(L/2, 0)
	s.rad = L/2 + handW*0.7
	// Forearm from beyond the elbow (the upper arm leaves the picture) to
	// the wrist.
	ad := h.Wrist.Sub(h.Elbow)
	if ad.Len() < 1 {
		ad = s.u.Scale(250)
	}
	adir := ad.Unit()
	a := h.Elbow.Sub(adir.Scale(140))
	rb := armW / 2 * 0.8
	s.arm = capsule{a, h.Wrist.Sub(adir.Scale(4)), armW / 2 * 1.2, rb}
	s.zb = s.z + 1.6*rb
	s.za = s.zb + 40 + 140*0.5
	s.slT = 0
	if look.sleeveEnd > 0 {
		// the sleeve covers the extension and the given part of the forearm
		full := s.arm.a.Dist(s.arm.b)
		s.slT = (140 + look.sleeveEnd*ad.Len()) / full
	}
	A := world(s.arm.a, s.za)
	B := world(s.arm.b, s.zb)
	along := [3]float64{B[0] - A[0], B[1] - A[1], B[2] - A[2]}
	perp := [3]float64{-adir.Y, adir.X, 0}
	s.p0 = A
	s.n = cross(along, perp)
	return s
}

// handSD is the signed distance to the hand's outline on its plane, the
// rounding radius of the nearest part and which part (0 palm, 1–4 fingers,
// 5 thumb).
func (s *handShape) handSD(p board.Vec) (float64, float64, int) {
	dx, dy := p.X-s.cen.X, p.Y-s.cen.Y
	// Far away, the distance to the bounding circle is a lower bound that is
	// beyond every soft edge (shadows, ambient occlusion) anyway.
	if r2 := dx*dx + dy*dy; r2 > (s.rad+200)*(s.rad+200) {
		return math.Sqrt(r2) - s.rad, 10, 0
	}
	q := p.Sub(s.w)
	u, v := q.Dot(s.u), q.Dot(s.v)
	hw := lerp(0.4, 0.5, clamp(u/s.lp, 0, 1)) * s.hw
	const rc = 11.0
	qx := math.Abs(v) - hw + rc
	qy := math.Max(-u, u-s.lp) + rc
	d := math.Hypot(math.Max(qx, 0), math.Max(qy, 0)) + math.Min(math.Max(qx, qy), 0) - rc
	rr, part := 12.0, 0
	for i, f := range s.fing {
		if fd, _, _ := f.sd(p); fd < d {
			d, rr, part = fd, f.ra, i+1
		}
	}
	return d, rr, part
}

// armSD is the signed distance to the forearm's outline on its plane.
func (s *handShape) armSD(p board.Vec) (float64, float64, board.Vec, float64) {
	d, t, off := s.arm.sd(p)
	r := lerp(s.arm.ra, s.arm.rb, t)
	if t < s.slT {
		d -= r * 0.1
		r *= 1.1
	}
	return d, t, off, r
}

// armHit returns where the ray meets the plane of the arm's top.
func (s *handShape) armHit(c [3]float64, dx, dy, dz float64) (board.Vec, bool) {
	den := s.n[0]*dx + s.n[1]*dy + s.n[2]*dz
	if math.Abs(den) < 1e-12 {
		return board.Vec{}, false
	}
	t := (s.n[0]*(s.p0[0]-c[0]) + s.n[1]*(s.p0[1]-c[1]) + s.n[2]*(s.p0[2]-c[2])) / den
	if t <= 0 {
		return board.Vec{}, false
	}
	return board.Vec{X: c[0] + t*dx, Y: c[1] + t*dy}, true
}

// outline returns points bounding the hand and arm with their heights.
func (s *handShape) outline() ([]board.Vec, []float64) {
	var pts []board.Vec
	var zs []float64
	add := func(p board.Vec, z float64) { pts = append(pts, p); zs = append(zs, z) }
	ad := s.arm.b.Sub(s.arm.a).Unit()
	ap := board.Vec{X: -ad.Y, Y: ad.X}
	for _, e := range []struct {
		p    board.Vec
		r, z float64
	}{{s.arm.a, s.arm.ra * 1.1, s.za}, {s.arm.b, s.arm.rb * 1.1, s.zb}} {
		add(e.p.Add(ap.Scale(e.r)), e.z)
		add(e.p.Sub(ap.Scale(e.r)), e.z)
		add(e.p.Sub(ad.Scale(e.r)), e.z)
		add(e.p.Add(ad.Scale(e.r)), e.z)
	}
	for _, d := range []board.Vec{{X: 1}, {Y: 1}, {X: -1}, {Y: -1}} {
		add(s.cen.Add(d.Scale(s.rad)), s.zh)
	}
	return pts, zs
}

// drawHands draws every hand's shadow and then the hand itself.
func (rd *Renderer) drawHands(v *view, hands []scene.Hand) {
	for _, h := range hands {
		s := newHandShape(h, lookFor(h.Owner, rd.seed))
		v.drawHandShadow(s)
		v.drawHand(s, &rd.skinNoise)
	}
}

func (v *view) drawHandShadow(s *handShape) {
	lz := -v.light[2]
	lv := board.Vec{X: v.light[0], Y: v.light[1]}
	zh := s.z + 12
	za := s.zb - 10
	if zh >= lz-10 {
		return
	}
	kh, ka := zh/(lz-zh), za/(lz-za)
	wh := v.lampR*kh + 0.12*zh + 2
	wa := v.lampR*ka + 0.12*za + 2
	dark := v.shadow * (1 - 0.45*v.amb) * 0.9 * math.Exp(-s.z/500)
	// The hand also hides part of the room's ambient light from the board
	// right under it: a broad, soft darkening.
	aoDark := 0.6 * v.shadow * v.amb * math.Exp(-s.z/250)
	wAOh := 0.6*zh + 8
	wAOa := 0.6*za + 8
	pts, zs := s.outline()
	var sp []board.Vec
	var sz []float64
	for i, p := range pts {
		k := zs[i] / (lz - zs[i])
		sp = append(sp, p.Add(p.Sub(lv).Scale(k)), p)
		sz = append(sz, 0, 0)
	}
	bb, ok := v.bbox(sp, sz, 4+math.Max(math.Max(wh, wa), wAOa)/v.mmPerPx(s.cen, 0))
	if !ok {
		return
	}
	// The shadow is soft: evaluate it on every other pixel of every other
	// row and fill in between.
	bw := (bb.x1-bb.x0)/2 + 2
	bh := (bb.y1-bb.y0)/2 + 2
	occs := make([]float32, bw*bh)
	for by := 0; by < bh; by++ {
		for bx := 0; bx < bw; bx++ {
			x, y := bb.x0+2*bx, bb.y0+2*by
			if x > v.w-1 {
				x = v.w - 1
			}
			if y > v.h-1 {
				y = v.h - 1
			}
			dx, dy, dz := v.rayAt(y*v.w + x)
			if dz <= 0 {
				continue
			}
			px, py := v.hit(dx, dy, dz, 0)
			p := board.Vec{X: px, Y: py}
			// the points of the hand's and the arm's planes between p and the lamp
			qh := p.Add(lv.Sub(p).Scale(zh / lz))
			qa := p.Add(lv.Sub(p).Scale(za / lz))
			dh, _, _ := s.handSD(qh)
			da, _, _, _ := s.armSD(qa)
			direct := math.Max(smoothstep(wh, -wh, dh), smoothstep(wa, -wa, da)) * dark
			dh0, _, _ := s.handSD(p)
			da0, _, _, _ := s.armSD(p)
			ao := math.Max(smoothstep(wAOh, -wAOh, dh0), smoothstep(wAOa, -wAOa, da0)) * aoDark
			occs[by*bw+bx] = float32(1 - (1-direct)*(1-ao))
		}
	}
	for y := bb.y0; y <= bb.y1; y++ {
		fy := float32(y-bb.y0) / 2
		by := int(fy)
		ty := fy - float32(by)
		for x := bb.x0; x <= bb.x1; x++ {
			fx := float32(x-bb.x0) / 2
			bx := int(fx)
			tx := fx - float32(bx)
			k := by*bw + bx
			occ := (occs[k]*(1-tx)+occs[k+1]*tx)*(1-ty) + (occs[k+bw]*(1-tx)+occs[k+bw+1]*tx)*ty
			if occ > 0.002 {
				f := 1 - occ
				o := 3 * (y*v.w + x)
				v.pix[o] = uint8(float32(v.pix[o])*f + 0.5)
				v.pix[o+1] = uint8(float32(v.pix[o+1])*f + 0.5)
				v.pix[o+2] = uint8(float32(v.pix[o+2])*f + 0.5)
			}
		}
	}
}

func (v *view) drawHand(s *handShape, noise *field) {
	pts, zs := s.outline()
	bb, ok := v.bbox(pts, zs, 3)
	if !ok {
		return
	}
	lz := -v.light[2]
	hc := world(s.cen, s.zh)
	l := normalize([3]float64{v.light[0] - hc[0], v.light[1] - hc[1], v.light[2] - hc[2]})
	flat := v.amb + (1-v.amb)*math.Max(-l[2], 0.05)
	pxH := v.mmPerPx(s.cen, s.zh)
	pxA := v.mmPerPx(s.arm.b, s.zb)
	_ = lz
	shade := func(nx, ny, nz float64) float64 {
		lam := nx*l[0] + ny*l[1] + nz*l[2]
		// skin and cloth scatter: wrap the light a little round the edge
		lam = (lam + 0.25) / 1.25
		return (v.amb + (1-v.amb)*math.Max(lam, 0)) / flat
	}
	nail := s.look.skin.mix(rgb(236, 200, 190), 0.45)
	armLen := s.arm.a.Dist(s.arm.b)
	for y := bb.y0; y <= bb.y1; y++ {
		for x := bb.x0; x <= bb.x1; x++ {
			i := y*v.w + x
			dx, dy, dz := v.rayAt(i)
			if dz <= 0 {
				continue
			}
			o := 3 * i
			cur := [3]float64{float64(v.pix[o]), float64(v.pix[o+1]), float64(v.pix[o+2])}
			drawn := false
			// forearm
			if pa, ok := s.armHit(v.cam.Pos, dx, dy, dz); ok {
				da, t, off, r := s.armSD(pa)
				if cov := clamp(0.5-da/pxA, 0, 1); cov > 0 {
					a := clamp(off.Len()/r, 0, 0.995)
					dir := off.Scale(1 / (off.Len() + 1e-9))
					sh := shade(dir.X*a, dir.Y*a, -math.Sqrt(1-a*a))
					nz := noise.wrap(pa.X/1.7, pa.Y/1.7)
					var col bgr
					if t < s.slT {
						fold := 0.09*math.Sin(t*armLen/13+3*nz) + 0.04*nz
						col = s.look.sleeve.scale(1 + fold)
						if (s.slT-t)*armLen < 7 {
							col = col.scale(0.8)
						}
					} else {
						col = s.look.skin.scale(1 + 0.04*nz)
					}
					for ch := 0; ch < 3; ch++ {
						cur[ch] = cur[ch]*(1-cov) + col[ch]*sh*cov
					}
					drawn = true
				}
			}
			// hand
			ph := board.Vec{}
			ph.X, ph.Y = v.hit(dx, dy, dz, s.zh)
			if cx, cy := ph.X-s.cen.X, ph.Y-s.cen.Y; cx*cx+cy*cy > (s.rad+4)*(s.rad+4) {
				if drawn {
					v.pix[o], v.pix[o+1], v.pix[o+2] = clampByte(cur[0]), clampByte(cur[1]), clampByte(cur[2])
				}
				continue
			}
			dh, rr, part := s.handSD(ph)
			if cov := clamp(0.5-dh/pxH, 0, 1); cov > 0 {
				const e = 0.6
				gx, _, _ := s.handSD(ph.Add(board.Vec{X: e}))
				gy, _, _ := s.handSD(ph.Add(board.Vec{Y: e}))
				g := board.Vec{X: gx - dh, Y: gy - dh}.Unit()
				a := clamp(1+dh/rr, 0, 0.995)
				sh := shade(g.X*a, g.Y*a, -math.Sqrt(1-a*a))
				nz := noise.wrap(ph.X/1.3, ph.Y/1.3)
				col := s.look.skin.scale(1 + 0.05*nz)
				if part >= 1 && part <= 4 {
					f := s.fing[part-1]
					_, t, off := f.sd(ph)
					fl := f.a.Dist(f.b)
					if (1-t)*fl < f.rb*0.9 && off.Len() < f.rb*0.6 {
						col = col.mix(nail, 0.5)
					}
					// knuckle creases
					col = col.scale(1 - 0.08*math.Exp(-math.Pow((t*fl-fl*0.45)/2.5, 2)))
				}
				for ch := 0; ch < 3; ch++ {
					cur[ch] = cur[ch]*(1-cov) + col[ch]*sh*cov
				}
				drawn = true
			}
			if drawn {
				v.pix[o], v.pix[o+1], v.pix[o+2] = clampByte(cur[0]), clampByte(cur[1]), clampByte(cur[2])
			}
		}
	}
}
