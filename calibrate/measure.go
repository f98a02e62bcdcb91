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
	n := len(p)
	if n < 8 {
		return dipFound{}, false
	}
	srt := append([]float64(nil), p...)
	sort.Float64s(srt)
	bg := srt[n*3/4]
	dt := t[1] - t[0]
	best, bi := 0.0, -1
	for i, v := range p {
		if bg-v > best {
			best, bi = bg-v, i
		}
	}
	// A line is clearly darker than the wood: at least 6 and a tenth of
	// the background's lightness.
	if bi < 0 || best < math.Max(6, 0.1*bg) {
		return dipFound{}, false
	}
	lo, hi := bi, bi
	for lo > 0 && bg-p[lo-1] > 0.15*best {
		lo--
	}
	for hi < n-1 && bg-p[hi+1] > 0.15*best {
		hi++
	}
	if lo == 0 || hi == n-1 {
		return dipFound{}, false // runs off the window: not a line
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
	if b < n-1 {
		fw += dt * math.Max(0, math.Min(1, (bg-p[b+1])/half))
	}
	fw -= dt
	return dipFound{centre: st / sw, area: sw * dt, depth: best, fwhm: math.Max(fw, dt), bg: bg}, true
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
// within reach of c0: a coarse search of the ring of darkness that is its
// outline, then its outer edge measured along rays and a circle fitted.
func (v *boardView) findRing(c0 board.Vec, r0, reach float64) (ringFound, bool) {
	const nr = 24
	var dirs [nr]board.Vec
	for i := range dirs {
		a := 2 * math.Pi * float64(i) / nr
		dirs[i] = board.V(math.Cos(a), math.Sin(a))
	}
	// contrast of a dark ring of radius r at c: the lightness just outside
	// minus on the ring, averaged over the directions in view.
	contrast := func(c board.Vec, r float64) (float64, bool) {
		var s float64
		n := 0
		for _, d := range dirs {
			lo, _, ok1 := v.at(c.Add(d.Scale(r - 0.6)))
			ou, _, ok2 := v.at(c.Add(d.Scale(r + 2.5)))
			if ok1 && ok2 {
				s += ou - lo
				n++
			}
		}
		if n < nr*2/3 {
			return 0, false
		}
		return s / float64(n), true
	}
	best, bc, br := 0.0, c0, r0
	search := func(cc board.Vec, reach, step float64, rs []float64) {
		for dy := -reach; dy <= reach+1e-9; dy += step {
			for dx := -reach; dx <= reach+1e-9; dx += step {
				c := cc.Add(board.V(dx, dy))
				for _, r := range rs {
					if s, ok := contrast(c, r); ok && s > best {
						best, bc, br = s, c, r
					}
				}
			}
		}
	}
	var rs []float64
	for r := 0.8 * r0; r <= 1.25*r0+1e-9; r += 1 {
		rs = append(rs, r)
	}
	search(c0, reach, 2, rs)
	search(bc, 1.5, 0.5, []float64{br - 0.5, br, br + 0.5})
	if best < 6 {
		return ringFound{}, false
	}
	// Rays: the outer edge of the outline (half-way from its darkest to
	// the wood outside, going out), its width at half depth, and the
	// extent of a red core.
	const rays = 48
	step := 1 / v.k / 3
	var pts []Point
	var widths, cores []float64
	for i := 0; i < rays; i++ {
		a := 2 * math.Pi * float64(i) / rays
		d := board.V(math.Cos(a), math.Sin(a))
		var rr, ll, aa []float64
		okRay := true
		for r := 0.3 * br; r <= br+4; r += step {
			l, av, ok := v.at(bc.Add(d.Scale(r)))
			if !ok {
				okRay = false
				break
			}
			rr = append(rr, r)
			ll = append(ll, l)
			aa = append(aa, av)
		}
		if !okRay || len(rr) < 10 {
			continue
		}
		// The darkest point within 2.5 mm of the ring's radius.
		im := -1
		for j, r := range rr {
			if math.Abs(r-br) <= 2.5 && (im < 0 || ll[j] < ll[im]) {
				im = j
			}
		}
		out := ll[len(ll)-1]
		depth := out - ll[im]
		if im < 0 || depth < 0.5*best {
			continue
		}
		half := ll[im] + depth/2
		j := im
		for j+1 < len(ll) && ll[j+1] < half {
			j++
		}
		if j+1 >= len(ll) {
			continue
		}
		f := (half - ll[j]) / math.Max(1e-9, ll[j+1]-ll[j])
		re := rr[j] + f*(rr[j+1]-rr[j])
		pts = append(pts, Point{bc.X + d.X*re, bc.Y + d.Y*re})
		k := im
		for k > 0 && ll[k-1] < half {
			k--
		}
		widths = append(widths, re-rr[k])
		// The core: redness well above the wood's, from the middle out.
		if aa[0] > aa[len(aa)-1]+8 {
			ah := (aa[0] + aa[len(aa)-1]) / 2
			e := 0
			for e+1 < len(aa) && aa[e+1] > ah {
				e++
			}
			cores = append(cores, rr[e])
		}
	}
	if len(pts) < rays/2 {
		return ringFound{}, false
	}
	circ, rms, ok := fitCircle(pts)
	if !ok || rms > 0.8 || math.Abs(circ.R-br) > 3 {
		return ringFound{}, false
	}
	rf := ringFound{c: board.V(circ.C.X, circ.C.Y), r: circ.R, width: median(widths)}
	if len(cores) >= rays/2 {
		rf.core = median(cores)
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
	var rear, front [4]lineRes
	span := 0.8 * g.BaseCircleX()
	const win = 14.0
	for _, s := range board.Sides {
		ns := nom.Side(s)
		for i, want := range []board.Band{ns.Rear, ns.Front} {
			res := &rear[s]
			if i == 1 {
				res = &front[s]
			}
			t, p, ok := v.bandProfile(s, want.Y-win, want.Y+win, span)
			if !ok {
				continue
			}
			res.in = true
			if dp, ok := findDip(t, p); ok && math.Abs(dp.centre-want.Y) < win-2 {
				res.dip, res.ok = dp, true
			}
		}
	}
	// The ink's darkness: the deepest line at least 3 px wide reaches it.
	ink := 0.0
	for _, r := range append(rear[:], front[:]...) {
		if r.ok && r.dip.fwhm*v.k >= 3 {
			ink = math.Max(ink, r.dip.depth)
		}
	}
	if ink == 0 {
		for _, r := range append(rear[:], front[:]...) {
			if r.ok {
				ink = math.Max(ink, r.dip.depth)
			}
		}
	}
	width := func(dp dipFound) float64 {
		if ink <= 0 {
			return dp.fwhm
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
	q4 := cal.Orientation.SouthAt.quarterTurns()
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
