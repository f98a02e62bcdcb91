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
	gr, mags := v.ringGradients(x0, y0, nw)
	if len(mags) < nw*nw/2 {
		return ringFound{}, false
	}
	acc := ringVotes(gr, nw, math.Max(8, 2*median(mags)), 0.7*r0*v.k, 1.2*r0*v.k)
	cx0, cy0 := c0.X*v.k+v.c-float64(x0), c0.Y*v.k+v.c-float64(y0)
	best, bx, by := votePeak(acc, nw, cx0, cy0, reach*v.k)
	// A circle's votes: a good part of its circumference's edge pixels.
	if bx < 0 || best < 0.8*2*math.Pi*r0*v.k {
		return ringFound{}, false
	}
	px, py := subPixelPeak(acc, nw, bx, by)
	cen := board.V((px+float64(x0)-v.c)/v.k, (py+float64(y0)-v.c)/v.k)
	rr, lp, ap, ok := v.radialProfiles(cen, r0)
	if !ok {
		return ringFound{}, false
	}
	rf := ringFound{c: cen, r: r0}
	if w, r, ok := ringOutline(rr, lp, r0); ok {
		rf.width, rf.r = w, r
	}
	wood := ap[len(ap)-1]
	rf.core = ringCore(rr, ap, wood)
	if rf.core > rf.r {
		rf.core = 0
	}
	if rf.core > 0 {
		// The core's centroid of redness places the circle best.
		if c, ok := v.redCentroid(rf.c, rf.core+1.5, wood); ok {
			rf.c = c
		}
	}
	return rf, true
}

// ringGrad is the gradient at one pixel of a ring's window.
type ringGrad struct{ gx, gy, m float64 }

// ringGradients returns the gradient of lightness and redness together (a
// red core on pale wood differs more in a* than in L) over the nw × nw
// window at (x0, y0) of the view, and the magnitudes of those in view.
func (v *boardView) ringGradients(x0, y0, nw int) ([]ringGrad, []float64) {
	gr := make([]ringGrad, nw*nw)
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
			gr[y*nw+x] = ringGrad{gx, gy, m}
			mags = append(mags, m)
		}
	}
	return gr, mags
}

// ringVotes lets every gradient of at least thr vote, along its direction
// both ways, for the points rlo to rhi pixels away.
func ringVotes(gr []ringGrad, nw int, thr, rlo, rhi float64) []float64 {
	acc := make([]float64, nw*nw)
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
	return acc
}

// votePeak smooths the votes a little and returns the peak within reach
// pixels of (cx0, cy0) and where it is (-1, -1: none).
func votePeak(acc []float64, nw int, cx0, cy0, reach float64) (float64, int, int) {
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
	best, bx, by := 0.0, -1, -1
	for y := 1; y < nw-1; y++ {
		for x := 1; x < nw-1; x++ {
			if math.Hypot(float64(x)-cx0, float64(y)-cy0) > reach {
				continue
			}
			if sm[y*nw+x] > best {
				best, bx, by = sm[y*nw+x], x, y
			}
		}
	}
	return best, bx, by
}

// subPixelPeak is the weighted mean of the votes around a peak.
func subPixelPeak(acc []float64, nw, bx, by int) (float64, float64) {
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
	return sx / sw, sy / sw
}

// radialProfiles returns the median radial profiles of lightness and
// redness around cen over 48 rays, from 0.2 r0 to 1.3 r0 + 3 mm in steps
// of a third of a view pixel; false when a radius has fewer than half of
// its rays in view.
func (v *boardView) radialProfiles(cen board.Vec, r0 float64) (rr, lp, ap []float64, ok bool) {
	const rays = 48
	step := 1 / v.k / 3
	for r := 0.2 * r0; r <= 1.3*r0+3; r += step {
		rr = append(rr, r)
	}
	lp = make([]float64, len(rr))
	ap = make([]float64, len(rr))
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
			return nil, nil, nil, false
		}
		lp[j], ap[j] = median(col), median(cola)
	}
	return rr, lp, ap, true
}

// ringOutline finds the outline on the lightness profile: the outermost
// dip near r0 (the second of two when it is at least half as deep). It
// returns the ink's width and the radius to the outside of the ink.
func ringOutline(rr, lp []float64, r0 float64) (width, r float64, ok bool) {
	var tt, pp []float64
	for j, r := range rr {
		if r >= 0.85*r0-0.5 && r <= 1.12*r0+1 {
			tt = append(tt, r)
			pp = append(pp, lp[j])
		}
	}
	ds := findDips(tt, pp, 2, 1)
	if len(ds) == 0 {
		return 0, 0, false
	}
	o := ds[0]
	if len(ds) == 2 && ds[1].centre > o.centre && ds[1].depth > 0.5*o.depth {
		o = ds[1]
	}
	width = math.Max(o.fwhm, 0.3)
	return width, o.centre + width/2, true
}

// ringCore is the radius of a red core on the redness profile: where the
// redness falls half-way from the centre's to the wood's; 0 when the
// centre is not clearly redder than the wood.
func ringCore(rr, ap []float64, wood float64) float64 {
	if ap[0] <= wood+8 {
		return 0
	}
	half := (ap[0] + wood) / 2
	j := 0
	for j+1 < len(ap) && ap[j+1] > half {
		j++
	}
	if j+1 >= len(ap) {
		return 0
	}
	f := (ap[j] - half) / math.Max(1e-9, ap[j]-ap[j+1])
	return rr[j] + f*(rr[j+1]-rr[j])
}

// redCentroid is the centroid of the redness above the wood's within
// reach mm of c.
func (v *boardView) redCentroid(c board.Vec, reach, wood float64) (board.Vec, bool) {
	var sw, sx, sy float64
	for y := -reach; y <= reach; y += 0.5 / v.k {
		for x := -reach; x <= reach; x += 0.5 / v.k {
			if x*x+y*y > reach*reach {
				continue
			}
			p := c.Add(board.V(x, y))
			if _, av, ok := v.at(p); ok {
				w := math.Max(0, av-wood)
				sw += w
				sx += w * p.X
				sy += w * p.Y
			}
		}
	}
	if sw <= 0 {
		return c, false
	}
	return board.V(sx/sw, sy/sw), true
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
	f := &marksFound{}
	f.rear, f.front = v.baseLines(nom, 0.8*g.BaseCircleX())
	f.ink = inkOf(v.k, f.rear, f.front)
	f.arrows = v.arrows(nom)
	v.circles(nom, f, mm)
	mm.fill(f)
	d.scoreMarkings(cal, v, f, mm)
	return mm, nil
}

// lineRes is one straight marking measured across: its dip, whether it
// was found, and whether it was in view.
type lineRes struct {
	dip dipFound
	ok  bool
	in  bool
}

// marksFound is what [detector.measureBoard] found in the board view,
// before it fills the markings and scores them.
type marksFound struct {
	rear, front [4]lineRes
	arrows      [4]lineRes
	circles     [4][2]ringFound
	circIn      [4][2]bool
	centre      ringFound
	centreIn    bool
	ink         inkWidth
	// rearOff and frontOff are the mean offsets of the lines found from
	// the nominal figures; mdx, mdy the base circles' median offset
	// (mirrored for the right circle).
	rearOff, frontOff float64
	mdx, mdy          float64
}

// baseLines finds the two base lines of each side: the two strongest dark
// lines across the band where they lie (makers shift them by up to ten
// millimetres and more) over span mm along it, the nearer the centre the
// front line.
func (v *boardView) baseLines(nom *board.Markings, span float64) (rear, front [4]lineRes) {
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
	return rear, front
}

// inkWidth turns a line's dip into its width: its darkness integrated
// across it over the ink's darkness. A line several pixels wide (at k px
// per mm) reaches that darkness at its middle (its own depth); a thinner
// one is blurred shallower, and takes ink, the median depth of the wide
// ones (ink is the same on a board).
type inkWidth struct {
	k, ink float64
}

func (w inkWidth) wide(dp dipFound) bool { return dp.fwhm*w.k >= 3.5 }

func (w inkWidth) width(dp dipFound) float64 {
	if w.wide(dp) || w.ink <= 0 {
		return math.Max(dp.area/dp.depth, 0.3)
	}
	return math.Max(dp.area/math.Max(w.ink, dp.depth), 0.3)
}

// inkOf measures the ink's darkness on the base lines found: the median
// depth of the wide ones, else the deepest.
func inkOf(k float64, rear, front [4]lineRes) inkWidth {
	w := inkWidth{k: k}
	var depths []float64
	deepest := 0.0
	for _, r := range append(rear[:], front[:]...) {
		if r.ok {
			deepest = math.Max(deepest, r.dip.depth)
			if w.wide(r.dip) {
				depths = append(depths, r.dip.depth)
			}
		}
	}
	w.ink = deepest
	if len(depths) > 0 {
		w.ink = median(depths)
	}
	return w
}

// arrows finds each arrow's line across the middle of its shaft, within
// 8 mm of the diagonal.
func (v *boardView) arrows(nom *board.Markings) [4]lineRes {
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
	return arrows
}

// circles finds the base circles in view (within 16 mm of their nominal
// places) and the centre circle (within 12 mm), into f, and marks those
// found in mm.
func (v *boardView) circles(nom *board.Markings, f *marksFound, mm *markingsMeasured) {
	for _, s := range board.Sides {
		for i, c := range nom.Side(s).Circles {
			w := board.FromLocal(s, board.V(c.X, c.Y))
			if !v.inView(w) {
				continue
			}
			f.circIn[s][i] = true
			if rf, ok := v.findRing(w, c.R, 16); ok {
				f.circles[s][i] = rf
				mm.circles[s][i] = true
			}
		}
	}
	v.circlesToPattern(nom, f, mm)
	f.centreIn = v.inView(board.Vec{})
	if f.centreIn {
		if rf, ok := v.findRing(board.Vec{}, nom.Centre.R, 12); ok {
			f.centre, mm.centre = rf, true
		}
	}
}

// circlesToPattern checks the base circles found against the board's own
// pattern: a board repeats its base circles on every side, the right one
// the left one mirrored, each in the gap between its side's base lines, so
// each lies where the others put it (the median local offset from the
// nominal places, the lines' shift on its side taken out; see
// circleOffset) within patternMM. A circle found farther off is something
// else that drew the votes — a disc lying beside the circle (its outline
// is a ring of the same size), or the two base lines running into a circle
// printed as a bare red disc — and the circle is searched for again within
// patternMM of where the pattern puts it, and placed there when found;
// when it is not found there, or not like the others (a red core where
// they have none, or none where they have one), it counts as not found
// (the pattern fills it). Needs at least three circles found alike.
func (v *boardView) circlesToPattern(nom *board.Markings, f *marksFound, mm *markingsMeasured) {
	shift := lineShifts(nom, f)
	pat, cores, n := circlePattern(nom, f, mm, shift)
	if n < 3 {
		return
	}
	cored := median(cores) > 0
	for _, s := range board.Sides {
		for i, c := range nom.Side(s).Circles {
			if !mm.circles[s][i] || circleOffset(nom, s, i, f.circles[s][i].c, shift).Dist(pat) <= patternMM {
				continue
			}
			at := patternPlace(nom, s, i, pat, shift)
			if rf, ok := v.findRing(at, c.R, patternMM); ok && rf.c.Dist(at) <= patternMM && (rf.core > 0) == cored {
				// There, but what drew the search away most often
				// overlaps it and pulls its outline and core a few
				// millimetres: the pattern places it better.
				rf.c = at
				f.circles[s][i] = rf
				continue
			}
			mm.circles[s][i] = false
		}
	}
}

// lineShifts is how far each side's base lines lie from their nominal
// places (the mean of the two when both were found), toward the player;
// for a side without both, the median of the others' (0 when none).
func lineShifts(nom *board.Markings, f *marksFound) [4]float64 {
	var sh [4]float64
	var known [4]bool
	var all []float64
	for _, s := range board.Sides {
		if f.rear[s].ok && f.front[s].ok {
			ns := nom.Side(s)
			sh[s] = (f.rear[s].dip.centre - ns.Rear.Y + f.front[s].dip.centre - ns.Front.Y) / 2
			known[s] = true
			all = append(all, sh[s])
		}
	}
	for _, s := range board.Sides {
		if !known[s] && len(all) > 0 {
			sh[s] = median(all)
		}
	}
	return sh
}

// circlePattern is the board's pattern of base circles as found: the
// offset (circleOffset) that most of the circles found share within
// patternMM — the median of those — their cores, and how many share it.
// Discs lying beside circles each draw the search their own way, the
// circles drawn all lie alike; of two groups as large, the one nearer the
// middle of the gap between the base lines, where a board draws its
// circles, is the pattern.
func circlePattern(nom *board.Markings, f *marksFound, mm *markingsMeasured, shift [4]float64) (board.Vec, []float64, int) {
	var offs []board.Vec
	var cores []float64
	for _, s := range board.Sides {
		for i := 0; i < 2; i++ {
			if mm.circles[s][i] {
				offs = append(offs, circleOffset(nom, s, i, f.circles[s][i].c, shift))
				cores = append(cores, f.circles[s][i].core)
			}
		}
	}
	best, bestN := -1, 0
	for j, o := range offs {
		n := 0
		for _, p := range offs {
			if p.Dist(o) <= patternMM {
				n++
			}
		}
		if n > bestN || n == bestN && math.Abs(o.Y) < math.Abs(offs[best].Y) {
			best, bestN = j, n
		}
	}
	if best < 0 {
		return board.Vec{}, nil, 0
	}
	var dx, dy, cs []float64
	for j, p := range offs {
		if p.Dist(offs[best]) <= patternMM {
			dx, dy, cs = append(dx, p.X), append(dy, p.Y), append(cs, cores[j])
		}
	}
	return board.V(median(dx), median(dy)), cs, bestN
}

// circleOffset is how far the base circle i of side s found at c (board
// mm) lies from its nominal place, in the side's local frame, mirrored for
// the right circle, less its side's lines' shift across.
func circleOffset(nom *board.Markings, s board.Side, i int, c board.Vec, shift [4]float64) board.Vec {
	l := board.ToLocal(s, c)
	n := nom.Side(s).Circles[i]
	d := board.V(l.X-n.X, l.Y-n.Y-shift[s])
	if i == 1 {
		d.X = -d.X
	}
	return d
}

// patternPlace is where the pattern pat (see circleOffset) puts the base
// circle i of side s, board mm.
func patternPlace(nom *board.Markings, s board.Side, i int, pat board.Vec, shift [4]float64) board.Vec {
	n := nom.Side(s).Circles[i]
	ox := pat.X
	if i == 1 {
		ox = -ox
	}
	return board.FromLocal(s, board.V(n.X+ox, n.Y+pat.Y+shift[s]))
}

// fill fills the markings from what was found: measured where found, else
// nominal shifted by the mean offset of the same kind (the lines' widths
// by the median of their kind's). It sets f's offsets.
func (mm *markingsMeasured) fill(f *marksFound) {
	nom, m := mm.nominal, mm.m
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
	f.rearOff, _ = meanOff(f.rear, func(s board.Side) float64 { return nom.Side(s).Rear.Y })
	f.frontOff, _ = meanOff(f.front, func(s board.Side) float64 { return nom.Side(s).Front.Y })
	var rearW, frontW []float64
	for _, s := range board.Sides {
		if f.rear[s].ok {
			rearW = append(rearW, f.ink.width(f.rear[s].dip))
		}
		if f.front[s].ok {
			frontW = append(frontW, f.ink.width(f.front[s].dip))
		}
	}
	for _, s := range board.Sides {
		sm := m.Sides[s]
		sm.Rear.Y += f.rearOff
		sm.Front.Y += f.frontOff
		if len(rearW) > 0 {
			sm.Rear.Width = median(rearW)
		}
		if len(frontW) > 0 {
			sm.Front.Width = median(frontW)
		}
		if r := f.rear[s]; r.ok {
			sm.Rear = board.Band{Y: r.dip.centre, Width: f.ink.width(r.dip)}
			mm.rear[s] = true
		}
		if fr := f.front[s]; fr.ok {
			sm.Front = board.Band{Y: fr.dip.centre, Width: f.ink.width(fr.dip)}
			mm.front[s] = true
		}
		m.Sides[s] = sm
	}
	mm.fillCircles(f)
	for _, pk := range board.Pockets {
		if f.arrows[pk].ok {
			a := &m.Arrows[pk]
			a.Offset, a.Width = f.arrows[pk].dip.centre, f.ink.width(f.arrows[pk].dip)
			mm.arrows[pk] = true
		}
	}
	if mm.centre {
		m.Centre.X, m.Centre.Y, m.Centre.R, m.Centre.Core = f.centre.c.X, f.centre.c.Y, f.centre.r, f.centre.core
	}
}

// fillCircles fills the base circles: measured where found, else where
// the pattern of those found puts them (see circlesToPattern: the median
// local offset, mirrored for the right circle, as a board repeats its left
// and right circles mirror-wise, and its side's lines' shift), with their
// median core. It sets f's median offset (the lines' shifts not taken
// out), which scores the circles.
func (mm *markingsMeasured) fillCircles(f *marksFound) {
	nom, m := mm.nominal, mm.m
	var cdx, cdy []float64
	for _, s := range board.Sides {
		for i := 0; i < 2; i++ {
			if !mm.circles[s][i] {
				continue
			}
			l := board.ToLocal(s, f.circles[s][i].c)
			n := nom.Side(s).Circles[i]
			dx := l.X - n.X
			if i == 1 {
				dx = -dx
			}
			cdx = append(cdx, dx)
			cdy = append(cdy, l.Y-n.Y)
		}
	}
	if len(cdx) > 0 {
		f.mdx, f.mdy = median(cdx), median(cdy)
	}
	shift := lineShifts(nom, f)
	pat, cores, n := circlePattern(nom, f, mm, shift)
	for _, s := range board.Sides {
		for i := 0; i < 2; i++ {
			c := &m.Sides[s].Circles[i]
			if mm.circles[s][i] {
				rf := f.circles[s][i]
				l := board.ToLocal(s, rf.c)
				c.X, c.Y, c.R, c.Width, c.Core = l.X, l.Y, rf.r, rf.width, rf.core
				continue
			}
			if n == 0 {
				continue
			}
			// where the others put it, and a core like theirs (none
			// where they have none)
			l := board.ToLocal(s, patternPlace(nom, s, i, pat, shift))
			c.X, c.Y, c.Core = l.X, l.Y, median(cores)
		}
	}
}

// scoreMarkings lists every marking and computes the confidence's
// markings term: each marking expected in view scores exp(-(e/5 mm)²), e
// its distance from the board's own pattern plus how far the pattern lies
// beyond the makers' tolerance from the nominal figures; one not found
// counts half as expected, one not in view not at all. The pockets are
// those measured in the picture by measurePockets (in image corner
// order), scored by how far they lie from where the geometry puts them.
func (d *detector) scoreMarkings(cal *Calibration, v *boardView, f *marksFound, mm *markingsMeasured) {
	nom := mm.nominal
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
		add("rear_line", s.String(), f.rear[s].in, f.rear[s].ok, 2, math.Abs(f.rear[s].dip.centre-nom.Side(s).Rear.Y-f.rearOff)+beyond(f.rearOff), f.rear[s].dip.centre-nom.Side(s).Rear.Y)
	}
	for _, s := range board.Sides {
		add("front_line", s.String(), f.front[s].in, f.front[s].ok, 1, math.Abs(f.front[s].dip.centre-nom.Side(s).Front.Y-f.frontOff)+beyond(f.frontOff), f.front[s].dip.centre-nom.Side(s).Front.Y)
	}
	for _, s := range board.Sides {
		for i := 0; i < 2; i++ {
			n := nom.Side(s).Circles[i]
			e, off := 0.0, 0.0
			if mm.circles[s][i] {
				l := board.ToLocal(s, f.circles[s][i].c)
				dx := l.X - n.X
				if i == 1 {
					dx = -dx
				}
				e = math.Hypot(dx-f.mdx, l.Y-n.Y-f.mdy) + beyond(math.Hypot(f.mdx, f.mdy))
				off = math.Hypot(l.X-n.X, l.Y-n.Y)
			}
			add("base_circle", fmt.Sprintf("%v %s", s, [2]string{"left", "right"}[i]), f.circIn[s][i], mm.circles[s][i], 0.5, e, off)
		}
	}
	for _, pk := range board.Pockets {
		if nom.Arrows[pk] == (board.ArrowMarking{}) {
			continue
		}
		add("arrow", pk.String(), f.arrows[pk].in, f.arrows[pk].ok, 0.5, math.Abs(f.arrows[pk].dip.centre), f.arrows[pk].dip.centre)
	}
	add("centre_circle", "centre", f.centreIn, mm.centre, 2, f.centre.c.Len(), f.centre.c.Len())
	q4 := cal.Orientation.SouthAt.QuarterTurns()
	for k := 0; k < 4; k++ {
		bp := [4]board.Pocket{board.NW, board.NE, board.SE, board.SW}[(k+q4)%4]
		want := d.g.Pocket(bp)
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
}
