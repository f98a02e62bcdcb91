package render

import (
	"math"
	"sort"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// view holds what the per-pixel drawing needs of the current frame: the
// camera, the image's ray table and the frame buffer (BGR bytes).
type view struct {
	cam    *Camera
	w, h   int
	xn, yn []float32
	pix    []byte
	light  [3]float64 // lamp in world coordinates
	lampR  float64
	amb    float64
	shadow float64
}

// rayAt returns the world direction of the ray through pixel index i.
func (v *view) rayAt(i int) (float64, float64, float64) {
	x, y := float64(v.xn[i]), float64(v.yn[i])
	R := &v.cam.R
	return R[0][0]*x + R[1][0]*y + R[2][0], R[0][1]*x + R[1][1]*y + R[2][1], R[0][2]*x + R[1][2]*y + R[2][2]
}

// hit returns where the ray (dx, dy, dz) from the camera meets the plane at
// height z above the surface.
func (v *view) hit(dx, dy, dz, z float64) (float64, float64) {
	c := &v.cam.Pos
	t := (-z - c[2]) / dz
	return c[0] + t*dx, c[1] + t*dy
}

type rect struct{ x0, y0, x1, y1 int }

// bbox returns the pixel rectangle covering the projections of pts (board
// points at their heights), grown by margin pixels and clipped to the image.
func (v *view) bbox(pts []board.Vec, zs []float64, margin float64) (rect, bool) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i, p := range pts {
		x, y, ok := v.cam.Project(p, zs[i])
		if !ok {
			continue
		}
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	r := rect{int(math.Floor(x0 - margin)), int(math.Floor(y0 - margin)), int(math.Ceil(x1 + margin)), int(math.Ceil(y1 + margin))}
	if r.x0 < 0 {
		r.x0 = 0
	}
	if r.y0 < 0 {
		r.y0 = 0
	}
	if r.x1 > v.w-1 {
		r.x1 = v.w - 1
	}
	if r.y1 > v.h-1 {
		r.y1 = v.h - 1
	}
	return r, r.x0 <= r.x1 && r.y0 <= r.y1
}

// mmPerPx returns the size of one pixel in mm on the plane at height z near p.
func (v *view) mmPerPx(p board.Vec, z float64) float64 {
	x0, y0, ok0 := v.cam.Project(p, z)
	x1, y1, ok1 := v.cam.Project(p.Add(board.Vec{X: 2}), z)
	x2, y2, ok2 := v.cam.Project(p.Add(board.Vec{Y: 2}), z)
	if !ok0 || !ok1 || !ok2 {
		return 1
	}
	return 4 / (math.Hypot(x1-x0, y1-y0) + math.Hypot(x2-x0, y2-y0))
}

func normalize(a [3]float64) [3]float64 {
	l := math.Sqrt(dot(a, a))
	if l == 0 {
		return a
	}
	return [3]float64{a[0] / l, a[1] / l, a[2] / l}
}

// discJob is one disc to draw, with its centres over the exposure.
type discJob struct {
	id    string
	sp    *sprite
	tint  bgr
	z     float64
	cs    []board.Vec
	angs  []float64
	valid []bool
}

// drawDiscShadows darkens the surface under and beside each disc: a soft
// cast shadow away from the lamp and a contact shadow at its foot.
func (v *view) drawDiscShadows(jobs []discJob) {
	for _, j := range jobs {
		r := j.sp.r
		hgt := j.z + j.sp.thick/2
		lz := v.light[2] * -1
		if lz <= hgt+1 {
			continue
		}
		k := hgt / (lz - hgt)
		soft := v.lampR*k + 0.8 + 0.15*j.z
		dark := v.shadow * (1 - 0.5*v.amb) * math.Exp(-j.z/60)
		var pts []board.Vec
		var zs []float64
		for i, c := range j.cs {
			if !j.valid[i] {
				continue
			}
			sc := c.Add(c.Sub(board.Vec{X: v.light[0], Y: v.light[1]}).Scale(k))
			for _, p := range []board.Vec{c, sc} {
				pts = append(pts, p.Add(board.Vec{X: -r - soft - 3, Y: -r - soft - 3}), p.Add(board.Vec{X: r + soft + 3, Y: r + soft + 3}))
				zs = append(zs, 0, 0)
			}
		}
		bb, ok := v.bbox(pts, zs, 2)
		if !ok {
			continue
		}
		n := float64(len(j.cs))
		lx, ly := v.light[0], v.light[1]
		rs := r * (1 + k)
		for y := bb.y0; y <= bb.y1; y++ {
			for x := bb.x0; x <= bb.x1; x++ {
				i := y*v.w + x
				dx, dy, dz := v.rayAt(i)
				if dz <= 0 {
					continue
				}
				px, py := v.hit(dx, dy, dz, 0)
				occ := 0.0
				for s, c := range j.cs {
					if !j.valid[s] {
						continue
					}
					scx, scy := c.X+(c.X-lx)*k, c.Y+(c.Y-ly)*k
					d := math.Sqrt((px-scx)*(px-scx)+(py-scy)*(py-scy)) - rs
					cast := smoothstep(soft, -soft, d) * dark
					dc := math.Sqrt((px-c.X)*(px-c.X)+(py-c.Y)*(py-c.Y)) - r
					contact := (1 - smoothstep(0, 2.5, dc)) * 0.45 * v.shadow * math.Exp(-j.z/4)
					occ += math.Max(cast, contact)
				}
				occ /= n
				if occ > 0.002 {
					f := 1 - occ
					o := 3 * i
					v.pix[o] = uint8(float64(v.pix[o])*f + 0.5)
					v.pix[o+1] = uint8(float64(v.pix[o+1])*f + 0.5)
					v.pix[o+2] = uint8(float64(v.pix[o+2])*f + 0.5)
				}
			}
		}
	}
}

// drawDiscs draws each disc's top face (textured, bevelled, glossy) and
// its side, averaged over the exposure for motion blur.
func (v *view) drawDiscs(jobs []discJob) {
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].z < jobs[b].z })
	for _, j := range jobs {
		sp := j.sp
		r := sp.r
		zb, zt := j.z, j.z+sp.thick
		var pts []board.Vec
		var zs []float64
		for i, c := range j.cs {
			if !j.valid[i] {
				continue
			}
			for _, z := range []float64{zb, zt} {
				pts = append(pts, c.Add(board.Vec{X: -r, Y: -r}), c.Add(board.Vec{X: r, Y: r}), c.Add(board.Vec{X: -r, Y: r}), c.Add(board.Vec{X: r, Y: -r}))
				zs = append(zs, z, z, z, z)
			}
		}
		bb, ok := v.bbox(pts, zs, 2)
		if !ok {
			continue
		}
		mid := j.cs[len(j.cs)/2]
		pxmm := v.mmPerPx(mid, zt)
		top := world(mid, zt)
		l := normalize([3]float64{v.light[0] - top[0], v.light[1] - top[1], v.light[2] - top[2]})
		vw := normalize([3]float64{v.cam.Pos[0] - top[0], v.cam.Pos[1] - top[1], v.cam.Pos[2] - top[2]})
		hv := normalize([3]float64{l[0] + vw[0], l[1] + vw[1], l[2] + vw[2]})
		flat := v.amb + (1-v.amb)*math.Max(-l[2], 0.05)
		specFlat := sp.spec * 255 * math.Pow(math.Max(-hv[2], 0), sp.shin)
		n := float64(len(j.cs))
		sc := sp.c
		cosA := make([]float64, len(j.cs))
		sinA := make([]float64, len(j.cs))
		for s, a := range j.angs {
			cosA[s], sinA[s] = math.Cos(a), math.Sin(a)
		}
		for y := bb.y0; y <= bb.y1; y++ {
			for x := bb.x0; x <= bb.x1; x++ {
				i := y*v.w + x
				dx, dy, dz := v.rayAt(i)
				if dz <= 0 {
					continue
				}
				tx, ty := v.hit(dx, dy, dz, zt)
				bx, by := v.hit(dx, dy, dz, zb)
				var cov, a0, a1, a2 float64
				for s, c := range j.cs {
					if !j.valid[s] {
						continue
					}
					qx, qy := tx-c.X, ty-c.Y
					dt := math.Sqrt(qx*qx + qy*qy)
					covT := clamp(0.5-(dt-r)/pxmm, 0, 1)
					ux, uy := bx-c.X, by-c.Y
					db := math.Sqrt(ux*ux + uy*uy)
					covB := clamp(0.5-(db-r)/pxmm, 0, 1)
					covU := math.Max(covT, covB)
					if covU <= 0 {
						continue
					}
					if covT > 0 {
						// texture in the disc's own frame
						u := qx*cosA[s] + qy*sinA[s]
						w := -qx*sinA[s] + qy*cosA[s]
						var col [3]float64
						if o2, fx, fy, ok := bilinear(sc, u, w); ok {
							col = sampleBilinear(sc, o2, fx, fy)
						} else {
							o := 3 * pixIndex(sc, u, w)
							col = [3]float64{float64(sc.pix[o]), float64(sc.pix[o+1]), float64(sc.pix[o+2])}
						}
						shade, spec := 1.0, specFlat
						rho := dt / r
						if rho > 0.84 {
							beta := clamp((rho-0.84)/0.16, 0, 1) * 0.9
							sb, cb := math.Sin(beta), math.Cos(beta)
							nx, ny, nz := qx/dt*sb, qy/dt*sb, -cb
							lam := nx*l[0] + ny*l[1] + nz*l[2]
							shade = (v.amb + (1-v.amb)*math.Max(lam, 0)) / flat
							spec = sp.spec * 255 * math.Pow(math.Max(nx*hv[0]+ny*hv[1]+nz*hv[2], 0), sp.shin)
						}
						a0 += covT * (col[0]*j.tint[0]*shade + spec)
						a1 += covT * (col[1]*j.tint[1]*shade + spec)
						a2 += covT * (col[2]*j.tint[2]*shade + spec)
					}
					if side := covU - covT; side > 0 {
						// the cylinder's side faces outward from the centre
						nx, ny := ux/(db+1e-9), uy/(db+1e-9)
						lam := math.Max(nx*l[0]+ny*l[1], 0)
						shade := (v.amb*0.8 + (1-v.amb)*lam) / flat
						a0 += side * sp.side[0] * j.tint[0] * shade
						a1 += side * sp.side[1] * j.tint[1] * shade
						a2 += side * sp.side[2] * j.tint[2] * shade
					}
					cov += covU
				}
				if cov <= 0 {
					continue
				}
				cov /= n
				o := 3 * i
				f := 1 - cov
				v.pix[o] = clampByte(float64(v.pix[o])*f + a0/n)
				v.pix[o+1] = clampByte(float64(v.pix[o+1])*f + a1/n)
				v.pix[o+2] = clampByte(float64(v.pix[o+2])*f + a2/n)
			}
		}
	}
}

func clampByte(v float64) uint8 {
	if v <= 0 {
		return 0
	}
	if v >= 255 {
		return 255
	}
	return uint8(v + 0.5)
}

// pixIndex returns the nearest sprite pixel of disc-local point (u, w).
func pixIndex(c *canvas, u, w float64) int {
	i := int((u - c.x0) * c.ppm)
	j := int((w - c.y0) * c.ppm)
	if i < 0 {
		i = 0
	}
	if j < 0 {
		j = 0
	}
	if i >= c.w {
		i = c.w - 1
	}
	if j >= c.h {
		j = c.h - 1
	}
	return j*c.w + i
}

// bilinear returns the top-left sample index and weights of a bilinear
// lookup of (u, w) in c, when all four samples exist.
func bilinear(c *canvas, u, w float64) (int, float64, float64, bool) {
	x, y := (u-c.x0)*c.ppm-0.5, (w-c.y0)*c.ppm-0.5
	if x < 0 || y < 0 || x >= float64(c.w-1) || y >= float64(c.h-1) {
		return 0, 0, 0, false
	}
	i, j := int(x), int(y)
	return j*c.w + i, x - float64(i), y - float64(j), true
}

func sampleBilinear(c *canvas, k int, fx, fy float64) [3]float64 {
	var out [3]float64
	p := c.pix
	a, b, cc, d := 3*k, 3*(k+1), 3*(k+c.w), 3*(k+c.w+1)
	for ch := 0; ch < 3; ch++ {
		top := float64(p[a+ch])*(1-fx) + float64(p[b+ch])*fx
		bot := float64(p[cc+ch])*(1-fx) + float64(p[d+ch])*fx
		out[ch] = top*(1-fy) + bot*fy
	}
	return out
}

// discJobs lists the discs to draw: on the board or held, with their
// centres at the exposure's sample instants (from at when given, else by
// moving along the velocity).
func (rd *Renderer) discJobs(sc *scene.Scene, at func(t float64) *scene.Scene, cam *Camera) []discJob {
	exp := rd.set.Camera.Exposure / 1000
	scale := cam.Scale()
	cache := map[float64]*scene.Scene{}
	var jobs []discJob
	for _, d := range sc.Discs {
		if !d.State.OnBoard() && d.State != scene.Held {
			continue
		}
		sps := rd.sprites[d.Kind]
		if len(sps) == 0 {
			continue
		}
		h := strHash(d.ID)
		j := discJob{id: d.ID, sp: sps[h%uint64(len(sps))], tint: tint(d.ID, rd.seed, rd.set.Pieces.Variation), z: math.Max(d.Z, 0)}
		speed := d.Vel.Len()
		n := 1
		if exp > 0 && speed > 0 {
			n = int(math.Ceil(speed * exp * scale / 0.6))
			if n < 1 {
				n = 1
			}
			if n > 32 {
				n = 32
			}
		}
		for s := 0; s < n; s++ {
			dt := 0.0
			if n > 1 {
				dt = ((float64(s)+0.5)/float64(n) - 0.5) * exp
			}
			p, ang, ok := d.Pos.Add(d.Vel.Scale(dt)), d.Angle, true
			if at != nil && n > 1 {
				ss, seen := cache[dt]
				if !seen {
					ss = at(sc.T + dt)
					cache[dt] = ss
				}
				if ss != nil {
					if o, found := ss.Disc(d.ID); found {
						p, ang, ok = o.Pos, o.Angle, o.State.OnBoard() || o.State == scene.Held
					} else {
						ok = false
					}
				}
			}
			j.cs = append(j.cs, p)
			j.angs = append(j.angs, ang)
			j.valid = append(j.valid, ok)
		}
		jobs = append(jobs, j)
	}
	return jobs
}
