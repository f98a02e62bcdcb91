package calibrate

import (
	"image/color"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
)

var colorWhite = color.RGBA{255, 255, 255, 255}

// sidePoint returns the point at distance v from the centre toward image
// side j of the normalised square and t along that side.
func sidePoint(j int, v, t float64) Point {
	switch j {
	case 0:
		return Pt(t, -v)
	case 1:
		return Pt(v, t)
	case 2:
		return Pt(t, v)
	}
	return Pt(-v, t)
}

// rearCentre is the geometry's rear base line centre as a fraction of the
// half surface.
func rearCentre(g *board.Geometry) float64 {
	return (g.RearOuter() + g.RearInner()) / 2 / g.Half()
}

func pocketCentre(g *board.Geometry) float64 {
	c := g.Pocket(board.NE).C
	return c.X / g.Half()
}

// localScale returns pixels per normalised unit near u.
func localScale(hn Homography, u Point) float64 {
	a := hn.Apply(u)
	b := hn.Apply(u.Add(Pt(0.01, 0)))
	c := hn.Apply(u.Add(Pt(0, 0.01)))
	return (a.Dist(b) + a.Dist(c)) / 2 / 0.01
}

// measureRearLines finds the thick rear base line of each side: first its
// position across the side from the median brightness along it (pieces and
// arrows do not move a median), taking the outermost clear dark line in
// the band where boards put it; then its centre line to sub-pixel accuracy
// in the full image.
func (d *detector) measureRearLines(hn Homography) {
	for j := 0; j < 4; j++ {
		v, ok := d.rearOffset(hn, j)
		if !ok {
			continue
		}
		pts, ok := d.darkLinePoints(hn, j, v)
		if !ok {
			continue
		}
		f, ok := fitLine(pts, 1.0)
		if !ok || f.Inliers < 20 || float64(f.Inliers) < 0.4*float64(len(pts)) || f.RMS > 1.5 {
			continue
		}
		l := f.L
		d.rep.RearLines[j] = &l
		var in []Point
		for i, p := range pts {
			if f.keep[i] {
				in = append(in, p)
			}
		}
		d.rearPts[j] = in
		d.rearV[j] = v
	}
}

func (d *detector) rearOffset(hn Homography, j int) (float64, bool) {
	const v0, v1, dv = 0.56, 0.9, 0.002
	nv := int((v1-v0)/dv) + 1
	m := make([]float64, nv)
	px := make([]float64, 3)
	var col []float64
	for i := 0; i < nv; i++ {
		v := v0 + float64(i)*dv
		col = col[:0]
		for t := -0.45; t <= 0.45+1e-9; t += 0.0225 {
			p := hn.Apply(sidePoint(j, v, t))
			if d.full.sample(p.X, p.Y, px) {
				col = append(col, px[0])
			}
		}
		if len(col) < 20 {
			m[i] = math.NaN()
			continue
		}
		m[i] = median(col)
	}
	// Depth of each dip below the running median of its surroundings.
	win := int(0.03 / dv)
	depth := make([]float64, nv)
	best := 0.0
	for i := range m {
		if math.IsNaN(m[i]) {
			continue
		}
		var nb []float64
		for k := max(0, i-win); k <= min(nv-1, i+win); k++ {
			if !math.IsNaN(m[k]) {
				nb = append(nb, m[k])
			}
		}
		depth[i] = median(nb) - m[i]
		best = math.Max(best, depth[i])
	}
	// A line's dip: about 15 on a wood of lightness 200, less under a dim
	// lamp.
	minDip := math.Max(6, 0.075*d.ref[0])
	if best < minDip {
		return 0, false
	}
	for i := nv - 2; i >= 1; i-- {
		if depth[i] >= math.Max(minDip, 0.4*best) && depth[i] >= depth[i-1] && depth[i] >= depth[i+1] {
			return v0 + float64(i)*dv, true
		}
	}
	return 0, false
}

// darkLinePoints samples the centre of a dark line across profiles along
// the line at v of side j.
func (d *detector) darkLinePoints(hn Homography, j int, v float64) ([]Point, bool) {
	a := hn.Apply(sidePoint(j, v, -0.45))
	b := hn.Apply(sidePoint(j, v, 0.45))
	if !a.Finite() || !b.Finite() {
		return nil, false
	}
	length := a.Dist(b)
	if length < 20 {
		return nil, false
	}
	scale := localScale(hn, sidePoint(j, v, 0))
	thick := d.g.RearLineThickness / d.g.Half() * scale
	hw := math.Max(6, 2.5*thick+3)
	dir := b.Sub(a).Scale(1 / length)
	n := dir.Perp()
	steps := int(2*hw/profileStep) + 1
	prof := make([]float64, steps)
	px := make([]float64, 3)
	var pts []Point
	spacing := math.Max(1, length/250)
	for t := 0.0; t <= length; t += spacing {
		c := a.Add(dir.Scale(t))
		ok := true
		for i := 0; i < steps; i++ {
			p := c.Add(n.Scale(-hw + float64(i)*profileStep))
			if !d.full.sample(p.X, p.Y, px) {
				ok = false
				break
			}
			prof[i] = px[0]
		}
		if !ok {
			continue
		}
		srt := sortedCopy(prof)
		bg := srt[len(srt)*8/10]
		imin, wmax := 0, 0.0
		for i, val := range prof {
			if bg-val > wmax {
				wmax, imin = bg-val, i
			}
		}
		if wmax < math.Max(8, 0.1*d.ref[0]) {
			continue
		}
		lo, hi := imin, imin
		for lo > 0 && bg-prof[lo-1] >= 0.5*wmax {
			lo--
		}
		for hi < steps-1 && bg-prof[hi+1] >= 0.5*wmax {
			hi++
		}
		if lo == 0 || hi == steps-1 {
			continue // the dark band runs off the profile: not a line
		}
		var sw, so float64
		for i := lo; i <= hi; i++ {
			w := bg - prof[i]
			sw += w
			so += w * (-hw + float64(i)*profileStep)
		}
		pts = append(pts, c.Add(n.Scale(so/sw)))
	}
	return pts, len(pts) >= 20
}

// measurePockets finds each pocket hole near its corner: the blob of
// non-surface colour inside the surface nearest where the geometry puts
// the pocket, then a circle fitted to where rays from its middle leave it
// for the surface.
//
// measured tells which image sides (top, right, bottom, left) were measured
// in the image: the blob is not looked for in the last 2% of the surface
// next to those, where a strip of dark frame inside an outline lying a
// little outside the surface would join the pocket to the frame.
func (d *detector) measurePockets(hn Homography, measured [4]bool) {
	var lim [4]float64
	for j := range lim {
		lim[j] = 1
		if measured[j] {
			lim[j] = pocketBlobReach
		}
	}
	p0 := pocketCentre(d.g)
	r0n := d.g.PocketDiameter / 2 / d.g.Half()
	inv, err := hn.Inverse()
	if err != nil {
		return
	}
	// A pocket is far darker than the surface: the looser of the
	// thresholds keeps the surface's own shading (the shadow of the frame
	// along an edge) from joining it.
	thr := math.Max(d.thr, d.otsu)
	for k, u := range unitSquare() {
		pu := u.Scale(p0)
		pc := hn.Apply(pu)
		r0 := r0n * localScale(hn, pu)
		c0, ok := d.blobNear(pc, r0, inv, lim, thr)
		if !ok {
			continue
		}
		circ, ok := d.scanCircle(c0, r0, 0.3, 2.2, 0.5, 1.8, thr)
		if !ok {
			continue
		}
		if c2, ok := d.scanCircle(circ.C, circ.R, 0.4, 1.6, 0.5, 1.8, thr); ok {
			circ = c2
		}
		d.rep.Pockets[k] = &circ
	}
}

// pocketBlobReach bounds, in normalised surface units, where a pocket's
// blob is looked for next to a measured edge.
const pocketBlobReach = 0.98

// blobNear returns the middle of the non-surface blob inside the surface
// quadrilateral nearest pc (inside: within lim of the middle toward each
// image side, in normalised units).
func (d *detector) blobNear(pc Point, r0 float64, inv Homography, lim [4]float64, thr float64) (Point, bool) {
	R := 2.5 * r0
	step := math.Max(1, r0/8)
	n := int(2*R/step) + 1
	grid := make([]int8, n*n) // 0 unknown/outside, 1 surface, 2 other
	px := make([]float64, 3)
	for iy := 0; iy < n; iy++ {
		for ix := 0; ix < n; ix++ {
			p := Pt(pc.X-R+float64(ix)*step, pc.Y-R+float64(iy)*step)
			if !d.full.sample(p.X, p.Y, px) {
				continue
			}
			u := inv.Apply(p)
			if u.Y < -lim[0] || u.X > lim[1] || u.Y > lim[2] || u.X < -lim[3] {
				continue
			}
			if labDist(px, d.ref[:]) > thr {
				grid[iy*n+ix] = 2
			} else {
				grid[iy*n+ix] = 1
			}
		}
	}
	// Nearest non-surface cell to the middle.
	start, bd := -1, math.Inf(1)
	for i, g := range grid {
		if g != 2 {
			continue
		}
		dx, dy := float64(i%n)-float64(n-1)/2, float64(i/n)-float64(n-1)/2
		if dd := dx*dx + dy*dy; dd < bd {
			start, bd = i, dd
		}
	}
	if start < 0 || math.Sqrt(bd)*step > 1.8*r0 {
		return Point{}, false
	}
	seen := make([]bool, n*n)
	queue := []int{start}
	seen[start] = true
	var sx, sy float64
	cnt := 0
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		x, y := i%n, i/n
		sx += float64(x)
		sy += float64(y)
		cnt++
		for _, o := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			xx, yy := x+o[0], y+o[1]
			if xx < 0 || yy < 0 || xx >= n || yy >= n {
				continue
			}
			k := yy*n + xx
			if !seen[k] && grid[k] == 2 {
				seen[k] = true
				queue = append(queue, k)
			}
		}
	}
	// A pocket is a blob of roughly its size, not a marking line running
	// off across the board.
	area := float64(cnt) * step * step
	if area < 0.15*math.Pi*r0*r0 || area > 4*math.Pi*r0*r0 {
		return Point{}, false
	}
	return Pt(pc.X-R+sx/float64(cnt)*step, pc.Y-R+sy/float64(cnt)*step), true
}

// scanCircle casts rays from c and fits a circle to where each leaves
// non-surface colour for the surface, between lo·r0 and hi·r0 from c. The
// fitted radius must lie within [rmin·r0, rmax·r0].
func (d *detector) scanCircle(c Point, r0, lo, hi, rmin, rmax, thr float64) (Circle, bool) {
	const rays = 90
	var pts []Point
	px := make([]float64, 3)
	var vals []float64
	for k := 0; k < rays; k++ {
		a := 2 * math.Pi * float64(k) / rays
		dir := Pt(math.Cos(a), math.Sin(a))
		vals = vals[:0]
		started := false
		var rs []float64
		for r := lo * r0; r <= hi*r0; r += 0.5 {
			p := c.Add(dir.Scale(r))
			if !d.full.sample(p.X, p.Y, px) {
				if started {
					break
				}
				continue
			}
			started = true
			vals = append(vals, labDist(px, d.ref[:]))
			rs = append(rs, r)
		}
		for i := 0; i+4 < len(vals); i++ {
			if vals[i] <= thr {
				continue
			}
			surf := true
			for m := 1; m <= 4; m++ {
				if vals[i+m] > 0.8*thr {
					surf = false
					break
				}
			}
			if !surf {
				continue
			}
			// Sub-pixel: where the distance crosses the threshold.
			f := (vals[i] - thr) / math.Max(1e-9, vals[i]-vals[i+1])
			f = math.Max(0, math.Min(1, f))
			r := rs[i] + f*(rs[i+1]-rs[i])
			pts = append(pts, c.Add(dir.Scale(r)))
			break
		}
	}
	circ, rms, ok := fitCircle(pts)
	if !ok || len(pts) < 10 || circ.R < rmin*r0 || circ.R > rmax*r0 || rms > math.Max(1, 0.08*circ.R) {
		return Circle{}, false
	}
	// The points must cover a real arc, not a few degrees.
	var minA, maxA float64 = math.Inf(1), math.Inf(-1)
	var cs, sn float64
	for _, p := range pts {
		v := p.Sub(circ.C)
		cs += v.X / v.Len()
		sn += v.Y / v.Len()
	}
	mid := math.Atan2(sn, cs)
	for _, p := range pts {
		v := p.Sub(circ.C)
		a := math.Remainder(math.Atan2(v.Y, v.X)-mid, 2*math.Pi)
		minA, maxA = math.Min(minA, a), math.Max(maxA, a)
	}
	if maxA-minA < 70*math.Pi/180 {
		return Circle{}, false
	}
	return circ, true
}

// fitCircle fits a circle algebraically, then drops outliers.
func fitCircle(pts []Point) (Circle, float64, bool) {
	keep := make([]bool, len(pts))
	for i := range keep {
		keep[i] = true
	}
	var c Circle
	var rms float64
	for it := 0; it < 5; it++ {
		var m [3][3]float64
		var v [3]float64
		n := 0
		for i, p := range pts {
			if !keep[i] {
				continue
			}
			row := [3]float64{2 * p.X, 2 * p.Y, 1}
			rhs := p.X*p.X + p.Y*p.Y
			for a := 0; a < 3; a++ {
				v[a] += row[a] * rhs
				for b := 0; b < 3; b++ {
					m[a][b] += row[a] * row[b]
				}
			}
			n++
		}
		if n < 5 {
			return Circle{}, 0, false
		}
		mm := [][]float64{m[0][:], m[1][:], m[2][:]}
		s, err := camera.Solve(mm, v[:])
		if err != nil {
			return Circle{}, 0, false
		}
		r2 := s[2] + s[0]*s[0] + s[1]*s[1]
		if r2 <= 0 {
			return Circle{}, 0, false
		}
		c = Circle{Pt(s[0], s[1]), math.Sqrt(r2)}
		res := make([]float64, 0, len(pts))
		for i, p := range pts {
			if keep[i] {
				res = append(res, math.Abs(p.Dist(c.C)-c.R))
			}
		}
		sig := math.Max(0.3, 1.4826*median(res))
		var ss float64
		cnt := 0
		for i, p := range pts {
			e := math.Abs(p.Dist(c.C) - c.R)
			keep[i] = e <= 2.5*sig
			if keep[i] {
				ss += e * e
				cnt++
			}
		}
		if cnt < 5 {
			return Circle{}, 0, false
		}
		rms = math.Sqrt(ss / float64(cnt))
	}
	return c, rms, true
}

// boardSideOf returns the board side seen at image side j (0 top, 1 right,
// 2 bottom, 3 left) under orientation o.
func boardSideOf(j int, o Orientation) board.Side {
	dir := [4]int{2, 1, 0, 3}[j] // quarter turns of top, right, bottom, left
	return board.Side(((dir-o.SouthAt.QuarterTurns())%4 + 4) % 4)
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
