package calibrate

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
)

// boardView is the board seen from straight above through a calibration:
// the lightness and the redness (Lab L and a*) of the frame resampled on a
// square grid of k pixels per millimetre around the centre of the surface.
// Markings are measured in it, in board millimetres.
type boardView struct {
	k    float64 // px per mm
	half float64 // mm covered each way from the centre
	n    int
	c    float64 // the centre's pixel coordinate
	l, a []float32
	ok   []bool // inside the picture
}

// maxViewScale bounds the scale of the board view: finer than the camera
// adds nothing, and the larger photos would cost time for no gain.
const maxViewScale = 1.5

// newBoardView resamples the frame's Lab image through cal.
func (d *detector) newBoardView(cal *Calibration) (*boardView, error) {
	k := math.Max(0.5, math.Min(maxViewScale, cal.PixelsPerMM()))
	half := d.g.Half() + 4
	n := int(math.Ceil(2 * half * k))
	v := &boardView{k: k, half: half, n: n, c: float64(n-1) / 2}
	// dst pixel → mm → image: HInv · S.
	s := Homography{{1 / k, 0, -v.c / k}, {0, 1 / k, -v.c / k}, {0, 0, 1}}
	m := cal.HInv.Mul(s)
	hm := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer hm.Close()
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			hm.SetDoubleAt(i, j, m[i][j])
		}
	}
	dst := gocv.NewMat()
	defer dst.Close()
	gocv.WarpPerspectiveWithParams(d.lab, &dst, hm, image.Pt(n, n), gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderConstant, color.RGBA{})
	ones := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), d.lab.Rows(), d.lab.Cols(), gocv.MatTypeCV8UC1)
	defer ones.Close()
	mask := gocv.NewMat()
	defer mask.Close()
	gocv.WarpPerspectiveWithParams(ones, &mask, hm, image.Pt(n, n), gocv.InterpolationNearestNeighbor|gocv.WarpInverseMap, gocv.BorderConstant, color.RGBA{})
	pd, err := planeOf(&dst)
	if err != nil {
		return nil, fmt.Errorf("calibrate: board view: %w", err)
	}
	pm, err := planeOf(&mask)
	if err != nil {
		return nil, fmt.Errorf("calibrate: board view: %w", err)
	}
	v.l = make([]float32, n*n)
	v.a = make([]float32, n*n)
	v.ok = make([]bool, n*n)
	for i := 0; i < n*n; i++ {
		v.l[i] = float32(pd.data[i*3])
		v.a[i] = float32(pd.data[i*3+1])
		v.ok[i] = pm.data[i] == 255
	}
	return v, nil
}

// at returns the lightness and redness at board point p (mm), bilinear, and
// whether p lies well inside the picture.
func (v *boardView) at(p board.Vec) (l, a float64, ok bool) {
	x, y := p.X*v.k+v.c, p.Y*v.k+v.c
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	if x0 < 0 || y0 < 0 || x0 >= v.n-1 || y0 >= v.n-1 {
		return 0, 0, false
	}
	i := y0*v.n + x0
	if !v.ok[i] || !v.ok[i+1] || !v.ok[i+v.n] || !v.ok[i+v.n+1] {
		return 0, 0, false
	}
	fx, fy := x-float64(x0), y-float64(y0)
	bl := func(s []float32) float64 {
		return (float64(s[i])*(1-fx)+float64(s[i+1])*fx)*(1-fy) + (float64(s[i+v.n])*(1-fx)+float64(s[i+v.n+1])*fx)*fy
	}
	return bl(v.l), bl(v.a), true
}

// inView reports whether the board point p lies in the picture.
func (v *boardView) inView(p board.Vec) bool {
	_, _, ok := v.at(p)
	return ok
}

// dipFound is a dark line found across a profile.
type dipFound struct {
	centre float64 // position of its middle (mm)
	area   float64 // darkness integrated across it (L·mm)
	depth  float64 // darkest point below the background (L)
	fwhm   float64 // width at half depth (mm)
	bg     float64 // the background's lightness
}

// findDip finds the strongest dark line in the profile p sampled at
// positions t (mm, equally spaced, ascending) and measures it.
func findDip(t, p []float64) (dipFound, bool) {
	d := findDips(t, p, 1, 0)
	if len(d) == 0 {
		return dipFound{}, false
	}
	return d[0], true
}

// findDips finds up to n dark lines in the profile p sampled at positions
// t (mm, equally spaced, ascending), strongest first, each at least sep mm
// from the others, and measures them. A line is clearly darker than the
// wood (by 6 and a tenth of the background's lightness) and lies wholly
// inside the profile.
func findDips(t, p []float64, n int, sep float64) []dipFound {
	np := len(p)
	if np < 8 {
		return nil
	}
	srt := append([]float64(nil), p...)
	sort.Float64s(srt)
	bg := srt[np*3/4]
	dt := t[1] - t[0]
	used := make([]bool, np)
	var out []dipFound
	for len(out) < n {
		best, bi := 0.0, -1
		for i, v := range p {
			if !used[i] && bg-v > best {
				best, bi = bg-v, i
			}
		}
		if bi < 0 || best < math.Max(6, 0.1*bg) {
			break
		}
		lo, hi := bi, bi
		for lo > 0 && bg-p[lo-1] > 0.15*best {
			lo--
		}
		for hi < np-1 && bg-p[hi+1] > 0.15*best {
			hi++
		}
		// Mark it (and sep around it) as taken, whatever it turns out.
		for i := range used {
			if t[i] >= t[lo]-sep && t[i] <= t[hi]+sep {
				used[i] = true
			}
		}
		if lo == 0 || hi == np-1 {
			continue // runs off the profile: not a line in it
		}
		var sw, st float64
		for i := lo; i <= hi; i++ {
			w := math.Max(0, bg-p[i])
			sw += w
			st += w * t[i]
		}
		// Width at half depth, interpolated.
		half := best / 2
		a, b := bi, bi
		for a > lo && bg-p[a-1] >= half {
			a--
		}
		for b < hi && bg-p[b+1] >= half {
			b++
		}
		fw := float64(b-a+1) * dt
		if a > 0 {
			fw += dt * math.Max(0, math.Min(1, (bg-p[a-1])/half))
		}
		if b < np-1 {
			fw += dt * math.Max(0, math.Min(1, (bg-p[b+1])/half))
		}
		fw -= dt
		out = append(out, dipFound{centre: st / sw, area: sw * dt, depth: best, fwhm: math.Max(fw, dt), bg: bg})
	}
	return out
}

// bandProfile is the median lightness across side s's lines at local y
// from y0 to y1, taken along local x from -x1 to x1 (clear of the base
// circles), where at least 30% of that span is in view.
func (v *boardView) bandProfile(s board.Side, y0, y1, x1 float64) (t, p []float64, ok bool) {
	step := 1 / v.k / 2
	xs := 1 / v.k
	var col []float64
	for y := y0; y <= y1+1e-9; y += step {
		col = col[:0]
		nx := 0
		for x := -x1; x <= x1; x += xs {
			nx++
			if l, _, ok := v.at(board.FromLocal(s, board.V(x, y))); ok {
				col = append(col, l)
			}
		}
		if len(col) < 8 || float64(len(col)) < 0.3*float64(nx) {
			return nil, nil, false
		}
		t = append(t, y)
		p = append(p, median(col))
	}
	return t, p, len(t) >= 8
}

// arrowProfile is the median lightness across the arrow toward pocket pk,
// at offsets u from -reach to reach of the diagonal, taken along it from
// t0 to t1 mm from the centre.
func (v *boardView) arrowProfile(pk board.Pocket, t0, t1, reach float64) (u, p []float64, ok bool) {
	d := pocketDir(pk)
	n := board.V(-d.Y, d.X)
	step := 1 / v.k / 2
	ts := 1 / v.k
	var col []float64
	for o := -reach; o <= reach+1e-9; o += step {
		col = col[:0]
		nt := 0
		for t := t0; t <= t1; t += ts {
			nt++
			if l, _, ok := v.at(d.Scale(t).Add(n.Scale(o))); ok {
				col = append(col, l)
			}
		}
		if len(col) < 8 || float64(len(col)) < 0.3*float64(nt) {
			return nil, nil, false
		}
		u = append(u, o)
		p = append(p, median(col))
	}
	return u, p, len(u) >= 8
}

// pocketDir is the unit vector from the centre toward pocket p.
func pocketDir(p board.Pocket) board.Vec {
	c := board.ICF().Pocket(p).C
	return c.Unit()
}

// ringFound is a printed circle measured in the board view.
type ringFound struct {
	c     board.Vec
	r     float64 // outside of the outline's ink
	width float64 // the outline's ink
	core  float64 // red core's radius, 0 none
}

// findRing looks for a printed circle of radius about r0 whose centre lies
// within reach of c0. Every strong edge in the window votes, along its
// gradient both ways, for the points 0.7 to 1.2 radii away: the outline
// and a red core's edge are concentric and their votes pile up at the
// centre, where straight lines through the window spread theirs. The
// radius is then the outer edge of the outline on the median radial
// profile, the core's where the redness falls half-way to the wood's.
func (v *boardView) findRing(c0 board.Vec, r0, reach float64) (ringFound, bool) {
	ext := reach + 1.25*r0 + 2
	// The window in view pixels.
	x0 := int(math.Floor((c0.X-ext)*v.k + v.c))
	y0 := int(math.Floor((c0.Y-ext)*v.k + v.c))
	nw := int(math.Ceil(2 * ext * v.k))
	if x0 < 1 || y0 < 1 || x0+nw >= v.n-1 || y0+nw >= v.n-1 {
		return ringFound{}, false
	}
	// Gradient of lightness and redness together (a red core on pale wood
	// differs more in a* than in L).
	type grad struct{ gx, gy, m float64 }
	gr := make([]grad, nw*nw)
	var mags []float64
	for y := 1; y < nw-1; y++ {
		for x := 1; x < nw-1; x++ {
			i := (y0+y)*v.n + x0 + x
			if !v.ok[i] || !v.ok[i-1] || !v.ok[i+1] || !v.ok[i-v.n] || !v.ok[i+v.n] {
				continue
			}
			gx := float64(v.l[i+1]-v.l[i-1]) + 2*float64(v.a[i+1]-v.a[i-1])
			gy := float64(v.l[i+v.n]-v.l[i-v.n]) + 2*float64(v.a[i+v.n]-v.a[i-v.n])
			m := math.Hypot(gx, gy)
			gr[y*nw+x] = grad{gx, gy, m}
			mags = append(mags, m)
		}
	}
	if len(mags) < nw*nw/2 {
		return ringFound{}, false
	}
	thr := math.Max(8, 2*median(mags))
	acc := make([]float64, nw*nw)
	rlo, rhi := 0.7*r0*v.k, 1.2*r0*v.k
	for y := 1; y < nw-1; y++ {
		for x := 1; x < nw-1; x++ {
			g := gr[y*nw+x]
			if g.m < thr {
				continue
			}
			ux, uy := g.gx/g.m, g.gy/g.m
			for _, sg := range [2]float64{1, -1} {
				for r := rlo; r <= rhi; r += 0.5 {
					cx, cy := float64(x)+sg*ux*r, float64(y)+sg*uy*r
					ix, iy := int(cx+0.5), int(cy+0.5)
					if ix < 0 || iy < 0 || ix >= nw || iy >= nw {
						continue
					}
					acc[iy*nw+ix] += 1
				}
			}
		}
	}
	// Smooth a little and take the peak within reach of c0.
	sm := make([]float64, nw*nw)
	for y := 1; y < nw-1; y++ {
		for x := 1; x < nw-1; x++ {
			var sum float64
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					w := 1.0
					if dx != 0 || dy != 0 {
						w = 0.5
					}
					sum += w * acc[(y+dy)*nw+x+dx]
				}
			}
			sm[y*nw+x] = sum
		}
	}
	cx0, cy0 := c0.X*v.k+v.c-float64(x0), c0.Y*v.k+v.c-float64(y0)
	best, bx, by := 0.0, -1, -1
	for y := 1; y < nw-1; y++ {
		for x := 1; x < nw-1; x++ {
			if math.Hypot(float64(x)-cx0, float64(y)-cy0) > reach*v.k {
				continue
			}
			if sm[y*nw+x] > best {
				best, bx, by = sm[y*nw+x], x, y
			}
		}
	}
	// A circle's votes: a good part of its circumference's edge pixels.
	if bx < 0 || best < 0.8*2*math.Pi*r0*v.k {
		return ringFound{}, false
	}
	// Sub-pixel: the weighted mean of the votes around the peak.
	var sw, sx, sy float64
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			x, y := bx+dx, by+dy
			if x < 0 || y < 0 || x >= nw || y >= nw {
				continue
			}
			w := acc[y*nw+x]
			sw += w
			sx += w * float64(x)
			sy += w * float64(y)
		}
	}
	cen := board.V((sx/sw+float64(x0)-v.c)/v.k, (sy/sw+float64(y0)-v.c)/v.k)
	// Median radial profiles of lightness and redness.
	const rays = 48
	step := 1 / v.k / 3
	var rr []float64
	for r := 0.2 * r0; r <= 1.3*r0+3; r += step {
		rr = append(rr, r)
	}
	lp := make([]float64, len(rr))
	ap := make([]float64, len(rr))
	col := make([]float64, 0, rays)
	cola := make([]float64, 0, rays)
	for j, r := range rr {
		col, cola = col[:0], cola[:0]
		for i := 0; i < rays; i++ {
			a := 2 * math.Pi * float64(i) / rays
			l, av, ok := v.at(cen.Add(board.V(math.Cos(a), math.Sin(a)).Scale(r)))
			if ok {
				col = append(col, l)
				cola = append(cola, av)
			}
		}
		if len(col) < rays/2 {
			return ringFound{}, false
		}
		lp[j], ap[j] = median(col), median(cola)
	}
	rf := ringFound{c: cen, r: r0}
	// The outline: the outermost dip of the lightness near r0.
	var tt, pp []float64
	for j, r := range rr {
		if r >= 0.85*r0-0.5 && r <= 1.12*r0+1 {
			tt = append(tt, r)
			pp = append(pp, lp[j])
		}
	}
	if ds := findDips(tt, pp, 2, 1); len(ds) > 0 {
		o := ds[0]
		if len(ds) == 2 && ds[1].centre > o.centre && ds[1].depth > 0.5*o.depth {
			o = ds[1]
		}
		rf.width = math.Max(o.fwhm, 0.3)
		rf.r = o.centre + rf.width/2
	}
	// The core.
	wood := ap[len(ap)-1]
	if ap[0] > wood+8 {
		half := (ap[0] + wood) / 2
		j := 0
		for j+1 < len(ap) && ap[j+1] > half {
			j++
		}
		if j+1 < len(ap) {
			f := (ap[j] - half) / math.Max(1e-9, ap[j]-ap[j+1])
			rf.core = rr[j] + f*(rr[j+1]-rr[j])
		}
	}
	if rf.core > rf.r {
		rf.core = 0
	}
	if rf.core > 0 {
		// The core's centroid of redness places the circle best.
		var sw, sx, sy float64
		reach := rf.core + 1.5
		for y := -reach; y <= reach; y += 0.5 / v.k {
			for x := -reach; x <= reach; x += 0.5 / v.k {
				if x*x+y*y > reach*reach {
					continue
				}
				p := rf.c.Add(board.V(x, y))
				if _, av, ok := v.at(p); ok {
					w := math.Max(0, av-wood)
					sw += w
					sx += w * p.X
					sy += w * p.Y
				}
			}
		}
		if sw > 0 {
			rf.c = board.V(sx/sw, sy/sw)
		}
	}
	return rf, true
}

// markingsMeasured is what [detector.measureBoard] found: the markings of
// this board (nominal where not found), which were found, and the
// confidence terms.
type markingsMeasured struct {
	m       *board.Markings
	nominal *board.Markings
	rear    [4]bool
	front   [4]bool
	circles [4][2]bool
	arrows  [4]bool
	centre  bool
	// pockets tells, in image corner order, the pockets measured whole
	// where the geometry puts them.
	pockets  [4]bool
	expected int
	list     []Marking
	// score is the markings term of the confidence (0–1).
	score float64
}

// Tolerances of the markings' placement: makers put the lines up to this
// far from the nominal figures (more counts against the calibration).
const (
	makerTolMM = 12.0
	// patternMM is how far one marking may lie from the board's own
	// pattern (the same kind on the other sides, which a board repeats)
	// before it counts against the calibration.
	patternMM = 5.0
)

// measureBoard measures every marking of the board through cal: the base
// lines of each side (where their centre lines are, how thick), the base
// circles (centres, radii, red cores), the arrows (offset from the
// diagonal, thickness) and the centre circle. Markings not found take the
// nominal place shifted like the others of their kind. The score says how
// well they form one board's symmetric pattern near the nominal figures.
func (d *detector) measureBoard(cal *Calibration) (*markingsMeasured, error) {
	g := d.g
	v, err := d.newBoardView(cal)
	if err != nil {
		return nil, err
	}
	nom := g.NominalMarkings()
	m := *nom
	m.Source = "measured"
	mm := &markingsMeasured{m: &m, nominal: nom}
	type lineRes struct {
		dip dipFound
		ok  bool
		in  bool // in view
	}
	// The two base lines of each side: the two strongest dark lines across
	// the band where they lie (makers shift them by up to ten millimetres
	// and more), the nearer the centre the front line.
	var rear, front [4]lineRes
	span := 0.8 * g.BaseCircleX()
	const win = 18.0
	for _, s := range board.Sides {
		ns := nom.Side(s)
		t, p, ok := v.bandProfile(s, ns.Front.Y-win, ns.Rear.Y+win, span)
		if !ok {
			continue
		}
		rear[s].in, front[s].in = true, true
		gap := ns.Rear.Y - ns.Front.Y
		ds := findDips(t, p, 2, 0.4*gap)
		if len(ds) == 2 {
			if ds[0].centre > ds[1].centre {
				ds[0], ds[1] = ds[1], ds[0]
			}
			// As far apart as the figures say, within the makers' play.
			if d := ds[1].centre - ds[0].centre; math.Abs(d-gap) < 0.35*gap {
				front[s] = lineRes{dip: ds[0], ok: true, in: true}
				rear[s] = lineRes{dip: ds[1], ok: true, in: true}
			}
		}
	}
	// A line's width is its darkness integrated across it over the ink's
	// darkness. A line several pixels wide reaches that darkness at its
	// middle (its own depth); a thinner one is blurred shallower, and
	// takes the median depth of the wide ones (ink is the same on a board).
	wide := func(dp dipFound) bool { return dp.fwhm*v.k >= 3.5 }
	var depths []float64
	deepest := 0.0
	for _, r := range append(rear[:], front[:]...) {
		if r.ok {
			deepest = math.Max(deepest, r.dip.depth)
			if wide(r.dip) {
				depths = append(depths, r.dip.depth)
			}
		}
	}
	ink := deepest
	if len(depths) > 0 {
		ink = median(depths)
	}
	width := func(dp dipFound) float64 {
		if wide(dp) || ink <= 0 {
			return math.Max(dp.area/dp.depth, 0.3)
		}
		return math.Max(dp.area/math.Max(ink, dp.depth), 0.3)
	}
	// Arrows.
	var arrows [4]lineRes
	for _, pk := range board.Pockets {
		a := nom.Arrows[pk]
		if a == (board.ArrowMarking{}) {
			continue
		}
		t0, t1 := a.From+0.25*(a.To-a.From), a.To-0.3*(a.To-a.From)
		u, p, ok := v.arrowProfile(pk, t0, t1, 10)
		if !ok {
			continue
		}
		arrows[pk].in = true
		if dp, ok := findDip(u, p); ok && math.Abs(dp.centre) < 8 {
			arrows[pk] = lineRes{dip: dp, ok: true, in: true}
		}
	}
	// Circles.
	var circles [4][2]ringFound
	var circIn [4][2]bool
	for _, s := range board.Sides {
		for i, c := range nom.Side(s).Circles {
			w := board.FromLocal(s, board.V(c.X, c.Y))
			if !v.inView(w) {
				continue
			}
			circIn[s][i] = true
			if rf, ok := v.findRing(w, c.R, 16); ok {
				circles[s][i] = rf
				mm.circles[s][i] = true
			}
		}
	}
	var centre ringFound
	centreIn := v.inView(board.Vec{})
	if centreIn {
		if rf, ok := v.findRing(board.Vec{}, nom.Centre.R, 12); ok {
			centre, mm.centre = rf, true
		}
	}

	// Fill the markings: measured where found, else nominal shifted by the
	// mean offset of the same kind.
	meanOff := func(res [4]lineRes, nomY func(board.Side) float64) (float64, int) {
		var s float64
		n := 0
		for _, sd := range board.Sides {
			if res[sd].ok {
				s += res[sd].dip.centre - nomY(sd)
				n++
			}
		}
		if n == 0 {
			return 0, 0
		}
		return s / float64(n), n
	}
	rearOff, _ := meanOff(rear, func(s board.Side) float64 { return nom.Side(s).Rear.Y })
	frontOff, _ := meanOff(front, func(s board.Side) float64 { return nom.Side(s).Front.Y })
	var rearW, frontW []float64
	for _, s := range board.Sides {
		if rear[s].ok {
			rearW = append(rearW, width(rear[s].dip))
		}
		if front[s].ok {
			frontW = append(frontW, width(front[s].dip))
		}
	}
	for _, s := range board.Sides {
		sm := m.Sides[s]
		sm.Rear.Y += rearOff
		sm.Front.Y += frontOff
		if len(rearW) > 0 {
			sm.Rear.Width = median(rearW)
		}
		if len(frontW) > 0 {
			sm.Front.Width = median(frontW)
		}
		if r := rear[s]; r.ok {
			sm.Rear = board.Band{Y: r.dip.centre, Width: width(r.dip)}
			mm.rear[s] = true
		}
		if f := front[s]; f.ok {
			sm.Front = board.Band{Y: f.dip.centre, Width: width(f.dip)}
			mm.front[s] = true
		}
		m.Sides[s] = sm
	}
	// Base circles: local offsets from nominal, mirrored for the right
	// circle (a board repeats its left and right circles mirror-wise).
	var cdx, cdy []float64
	for _, s := range board.Sides {
		for i := 0; i < 2; i++ {
			if !mm.circles[s][i] {
				continue
			}
			l := board.ToLocal(s, circles[s][i].c)
			n := nom.Side(s).Circles[i]
			dx := l.X - n.X
			if i == 1 {
				dx = -dx
			}
			cdx = append(cdx, dx)
			cdy = append(cdy, l.Y-n.Y)
		}
	}
	var mdx, mdy float64
	if len(cdx) > 0 {
		mdx, mdy = median(cdx), median(cdy)
	}
	for _, s := range board.Sides {
		for i := 0; i < 2; i++ {
			c := &m.Sides[s].Circles[i]
			if mm.circles[s][i] {
				rf := circles[s][i]
				l := board.ToLocal(s, rf.c)
				c.X, c.Y, c.R, c.Width, c.Core = l.X, l.Y, rf.r, rf.width, rf.core
				continue
			}
			if i == 0 {
				c.X -= mdx
			} else {
				c.X += mdx
			}
			c.Y += mdy
		}
	}
	for _, pk := range board.Pockets {
		if arrows[pk].ok {
			a := &m.Arrows[pk]
			a.Offset, a.Width = arrows[pk].dip.centre, width(arrows[pk].dip)
			mm.arrows[pk] = true
		}
	}
	if mm.centre {
		m.Centre.X, m.Centre.Y, m.Centre.R, m.Centre.Core = centre.c.X, centre.c.Y, centre.r, centre.core
	}

	// The confidence's markings term: each marking expected in view scores
	// exp(-(e/5 mm)²), e its distance from the board's own pattern plus how
	// far the pattern lies beyond the makers' tolerance from the nominal
	// figures; one not found counts half as expected, one not in view not
	// at all.
	var num, den float64
	add := func(kind, name string, in, found bool, w, e, offset float64) {
		if !in {
			mm.list = append(mm.list, Marking{Kind: kind, Name: name})
			return
		}
		mm.expected++
		if !found {
			den += 0.5 * w
			mm.list = append(mm.list, Marking{Kind: kind, Name: name})
			return
		}
		den += w
		num += w * math.Exp(-(e/patternMM)*(e/patternMM))
		mm.list = append(mm.list, Marking{Kind: kind, Name: name, Found: true, ErrorMM: round2(math.Abs(offset))})
	}
	beyond := func(off float64) float64 { return math.Max(0, math.Abs(off)-makerTolMM) }
	for _, s := range board.Sides {
		add("rear_line", s.String(), rear[s].in, rear[s].ok, 2, math.Abs(rear[s].dip.centre-nom.Side(s).Rear.Y-rearOff)+beyond(rearOff), rear[s].dip.centre-nom.Side(s).Rear.Y)
	}
	for _, s := range board.Sides {
		add("front_line", s.String(), front[s].in, front[s].ok, 1, math.Abs(front[s].dip.centre-nom.Side(s).Front.Y-frontOff)+beyond(frontOff), front[s].dip.centre-nom.Side(s).Front.Y)
	}
	for _, s := range board.Sides {
		for i := 0; i < 2; i++ {
			n := nom.Side(s).Circles[i]
			e, off := 0.0, 0.0
			if mm.circles[s][i] {
				l := board.ToLocal(s, circles[s][i].c)
				dx := l.X - n.X
				if i == 1 {
					dx = -dx
				}
				e = math.Hypot(dx-mdx, l.Y-n.Y-mdy) + beyond(math.Hypot(mdx, mdy))
				off = math.Hypot(l.X-n.X, l.Y-n.Y)
			}
			add("base_circle", fmt.Sprintf("%v %s", s, [2]string{"left", "right"}[i]), circIn[s][i], mm.circles[s][i], 0.5, e, off)
		}
	}
	for _, pk := range board.Pockets {
		if nom.Arrows[pk] == (board.ArrowMarking{}) {
			continue
		}
		add("arrow", pk.String(), arrows[pk].in, arrows[pk].ok, 0.5, math.Abs(arrows[pk].dip.centre), arrows[pk].dip.centre)
	}
	add("centre_circle", "centre", centreIn, mm.centre, 2, centre.c.Len(), centre.c.Len())
	// Pockets (measured in the picture by measurePockets, in image corner
	// order): where the geometry puts them, within the makers' tolerance.
	q4 := cal.Orientation.SouthAt.QuarterTurns()
	for k := 0; k < 4; k++ {
		bp := [4]board.Pocket{board.NW, board.NE, board.SE, board.SW}[(k+q4)%4]
		want := g.Pocket(bp)
		in := v.inView(want.C)
		c := d.rep.Pockets[k]
		e, off := 0.0, 0.0
		if c != nil {
			off = cal.ToBoard(c.C).Dist(want.C)
			e = math.Max(0, off-4)
			// A pocket measured whole and where the geometry puts it
			// pins the corner next to it: a pocket is cut one radius in
			// from both edges, within a few millimetres on every board.
			if r := c.R / cal.PixelsPerMM(); off <= 5 && r > 0.8*want.R && r < 1.25*want.R {
				mm.pockets[k] = true
			}
		}
		add("pocket", bp.String(), in || c != nil, c != nil, 1, e, off)
	}
	if den > 0 {
		mm.score = num / den
	}
	return mm, nil
}
