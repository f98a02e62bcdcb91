package calibrate

import (
	"math"
	"math/rand"
)

// edgeSample is one sub-pixel position of the surface edge.
type edgeSample struct {
	P Point
	T float64 // position along the side, 0 at its first corner, 1 at its second
}

// profileStep is the spacing of samples across an edge, in pixels.
const profileStep = 0.5

// measureEdge samples the surface edge across the segment a→b. out is the
// unit normal pointing out of the surface; each profile runs from inner
// pixels inside to outer pixels outside the segment, and the surface's
// colour is taken from its first half-inner pixels. The edge in a profile is the
// innermost strong rise of the colour distance from the surface (the first
// place, going outward, where the wood ends: the frame's inner wall when
// one is visible, else the frame's top), located to sub-pixel accuracy.
func measureEdge(lab plane, a, b, out Point, t0, t1, spacing, inner, outer float64) []edgeSample {
	d := b.Sub(a)
	L := d.Len()
	if L < 1 {
		return nil
	}
	dir := d.Scale(1 / L)
	n := int(math.Ceil((inner+outer)/profileStep)) + 1
	q := max(2, int(inner/2/profileStep))
	prof := make([]float64, n)
	lab3 := make([][3]float64, n)
	valid := make([]bool, n)
	var s [3]float64
	var tmp [3]float64
	var samples []edgeSample
	for t := t0; t <= t1+1e-9; t += spacing / L {
		c := a.Add(d.Scale(t))
		ok := true
		for i := 0; i < n; i++ {
			o := -inner + float64(i)*profileStep
			p := c.Add(out.Scale(o))
			// Average three samples along the edge to cut noise.
			var acc [3]float64
			cnt := 0
			for _, along := range [3]float64{-1, 0, 1} {
				q := p.Add(dir.Scale(along))
				if lab.sample(q.X, q.Y, s[:]) {
					acc[0] += s[0]
					acc[1] += s[1]
					acc[2] += s[2]
					cnt++
				}
			}
			valid[i] = cnt > 0
			if cnt > 0 {
				lab3[i] = [3]float64{acc[0] / float64(cnt), acc[1] / float64(cnt), acc[2] / float64(cnt)}
			}
			if i < q && !valid[i] {
				ok = false // the inside of the profile must be in the image
			}
		}
		if !ok {
			continue
		}
		// Reference: the median colour of the inner end of the profile.
		var ref [3]float64
		buf := make([]float64, q)
		for ch := 0; ch < 3; ch++ {
			for i := 0; i < q; i++ {
				buf[i] = lab3[i][ch]
			}
			ref[ch] = median(buf)
		}
		last := -1
		for i := 0; i < n; i++ {
			if !valid[i] {
				break
			}
			tmp = lab3[i]
			prof[i] = labDist(tmp[:], ref[:])
			last = i
		}
		if last < 2*q {
			continue
		}
		if o, ok := halfCrossing(prof[:last+1], q); ok {
			samples = append(samples, edgeSample{P: c.Add(out.Scale(-inner + o*profileStep)), T: t})
		}
	}
	return samples
}

// halfCrossing finds, in a profile that starts on the surface (its first
// q samples) and runs out into the frame, where the colour distance from
// the surface first reaches half of its largest value: the edge at half
// contrast. A band between surface and frame (the frame's inner wall, a
// shadow) counts as surface when it is closer to the surface's colour than
// to the frame's, as frame when it is closer to the frame's. The crossing
// must be followed by at least 2 px beyond the half level, so a thin line
// painted near the edge is not taken for it. Returns the sub-sample index.
func halfCrossing(prof []float64, q int) (float64, bool) {
	n := len(prof)
	if n < 2*q || q < 2 {
		return 0, false
	}
	var arr [256]float64
	var sm []float64
	if n <= len(arr) {
		sm = arr[:n]
	} else {
		sm = make([]float64, n)
	}
	for i := range prof {
		a, b := prof[max(i-1, 0)], prof[min(i+1, n-1)]
		sm[i] = (a + 2*prof[i] + b) / 4
	}
	base := medianOf(sm[:q])
	top := 0.0
	for i := q; i < n; i++ {
		top = math.Max(top, sm[i])
	}
	if top-base < 12 {
		return 0, false
	}
	thr := base + 0.5*(top-base)
	hold := int(2 / profileStep)
	for i := q; i < n; i++ {
		if sm[i] < thr {
			continue
		}
		ok := true
		for k := i; k < min(n, i+hold); k++ {
			if sm[k] < thr {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		f := (thr - sm[i-1]) / math.Max(1e-9, sm[i]-sm[i-1])
		return float64(i-1) + math.Max(0, math.Min(1, f)), true
	}
	return 0, false
}

// lineFit is a robust straight-line fit.
type lineFit struct {
	L       Line
	Inliers int
	N       int
	RMS     float64 // of the inliers, px
	keep    []bool
}

// fitLine fits a line to points robustly: RANSAC for a start that ignores
// pieces, hands and pocket arcs, then iteratively re-weighted total least
// squares with Tukey's biweight.
func fitLine(pts []Point, thr float64) (lineFit, bool) {
	n := len(pts)
	if n < 4 {
		return lineFit{}, false
	}
	rng := rand.New(rand.NewSource(int64(n)*7919 + 17))
	bestCnt := -1
	var best Line
	iters := 200
	for it := 0; it < iters; it++ {
		i, j := rng.Intn(n), rng.Intn(n)
		if i == j || pts[i].Dist(pts[j]) < 1e-6 {
			continue
		}
		l := LineJoining(pts[i], pts[j])
		cnt := 0
		for _, p := range pts {
			if math.Abs(l.Dist(p)) <= thr {
				cnt++
			}
		}
		if cnt > bestCnt {
			bestCnt, best = cnt, l
		}
	}
	if bestCnt < 2 {
		return lineFit{}, false
	}
	w := make([]float64, n)
	for i, p := range pts {
		if math.Abs(best.Dist(p)) <= thr {
			w[i] = 1
		}
	}
	l, ok := tls(pts, w)
	if !ok {
		return lineFit{}, false
	}
	res := make([]float64, n)
	for it := 0; it < 6; it++ {
		for i, p := range pts {
			res[i] = math.Abs(l.Dist(p))
		}
		cp := append([]float64(nil), res...)
		sigma := math.Max(0.25, 1.4826*median(cp))
		c := math.Max(4.685*sigma, thr)
		for i := range pts {
			if res[i] < c {
				u := res[i] / c
				w[i] = (1 - u*u) * (1 - u*u)
			} else {
				w[i] = 0
			}
		}
		nl, ok := tls(pts, w)
		if !ok {
			break
		}
		l = nl
	}
	f := lineFit{L: l, N: n, keep: make([]bool, n)}
	cp := make([]float64, n)
	for i, p := range pts {
		cp[i] = math.Abs(l.Dist(p))
	}
	sigma := math.Max(0.25, 1.4826*median(append([]float64(nil), cp...)))
	var ss float64
	for i := range pts {
		if cp[i] <= math.Max(3*sigma, 1) {
			f.keep[i] = true
			f.Inliers++
			ss += cp[i] * cp[i]
		}
	}
	if f.Inliers < 3 {
		return lineFit{}, false
	}
	f.RMS = math.Sqrt(ss / float64(f.Inliers))
	return f, true
}

// tls is the weighted total-least-squares line.
func tls(pts []Point, w []float64) (Line, bool) {
	var sw, mx, my float64
	for i, p := range pts {
		sw += w[i]
		mx += w[i] * p.X
		my += w[i] * p.Y
	}
	if sw <= 0 {
		return Line{}, false
	}
	mx /= sw
	my /= sw
	var sxx, sxy, syy float64
	for i, p := range pts {
		dx, dy := p.X-mx, p.Y-my
		sxx += w[i] * dx * dx
		sxy += w[i] * dx * dy
		syy += w[i] * dy * dy
	}
	// Direction: eigenvector of the larger eigenvalue.
	th := 0.5 * math.Atan2(2*sxy, sxx-syy)
	d := Pt(math.Cos(th), math.Sin(th))
	return LineThrough(Pt(mx, my), d), true
}

// medianOf returns the median of v without reordering it (it copies small
// slices onto the stack).
func medianOf(v []float64) float64 {
	var arr [64]float64
	var c []float64
	if len(v) <= len(arr) {
		c = arr[:len(v)]
	} else {
		c = make([]float64, len(v))
	}
	copy(c, v)
	return median(c)
}
