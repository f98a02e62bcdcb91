package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// voter finds disc centres of known radii in the rectified board image by
// gradient-direction voting: every pixel on an edge votes for the points
// one radius away along its gradient, on both sides (discs may be lighter
// or darker than what surrounds them), so that the rim of a disc, whole or
// in part, piles its votes on the centre. Touching discs keep separate
// peaks because each rim votes for its own centre.
type voter struct {
	n        int
	gx, gy   gocv.Mat // Sobel derivatives of the BGR image, 16SC3
	acc      [2]gocv.Mat
	smooth   [2]gocv.Mat
	gauss    gocv.Mat   // the 5×5 Gaussian's 1-D kernel (see smoothVotes)
	radii    [2]float64 // in rectified pixels: man, striker
	thr, sat float64    // gradient magnitude: voting threshold and saturation
	// edge holds the strongest channel's gradient magnitude per pixel (for
	// the refinement and the debug image).
	edge []float32
	// ex, ey are the strongest channel's gradient per pixel (zero below
	// the threshold).
	ex, ey []float32
	pts    []edgePt // scratch of symmetryFit
	cols   []int32  // scratch of edgeVotes: a row's edge pixels
	// scratch of edgePlanes: the edge columns of src's rows one after
	// another, where each row ends, the gradients of a row
	rowCols, rowEnds []int32
	gRow             []int16
	cand             []int32 // scratch of peaks: the pixels over its threshold
	// norm converts accumulated votes to a score where 1 is a whole,
	// crisp rim.
	norm [2]float32
}

func newVoter(n int, rMan, rStriker float64) *voter {
	vt := &voter{
		n:     n,
		gx:    gocv.NewMatWithSize(n, n, gocv.MatTypeCV16SC3),
		gy:    gocv.NewMatWithSize(n, n, gocv.MatTypeCV16SC3),
		radii: [2]float64{rMan, rStriker},
		thr:   28,
		sat:   160,
		edge:  make([]float32, n*n),
		ex:    make([]float32, n*n),
		ey:    make([]float32, n*n),
		cols:  make([]int32, n),
		gauss: gocv.GetGaussianKernelWithParams(5, 1.0, gocv.MatTypeCV32F),
	}
	for i := range vt.acc {
		vt.acc[i] = gocv.NewMatWithSize(n, n, gocv.MatTypeCV32F)
		vt.smooth[i] = gocv.NewMatWithSize(n, n, gocv.MatTypeCV32F)
		// A rim of radius R has about 2πR edge pixels across a Sobel edge
		// about two pixels wide.
		vt.norm[i] = float32(1 / (2 * math.Pi * vt.radii[i] * 2))
	}
	return vt
}

func (vt *voter) close() {
	vt.gx.Close()
	vt.gy.Close()
	vt.gauss.Close()
	for i := range vt.acc {
		vt.acc[i].Close()
		vt.smooth[i].Close()
	}
}

// vote computes the gradients of img within margin pixels around roi and
// votes with them into roi (votes landing outside roi are dropped), then
// smooths the vote maps within roi: gradients → edgeVotes → smoothVotes.
func (vt *voter) vote(img gocv.Mat, roi image.Rectangle, margin int) error {
	src := roi.Inset(-margin).Intersect(image.Rect(0, 0, vt.n, vt.n))
	if vt.edgePlanes(img, src, vt.thr2()) == nil {
		// the gradients and each row's edges in one pass (bc_edges), then
		// their votes (bc_votes; votes where that cannot run)
		if vt.edgeVotesC(roi, src) == nil {
			vt.smoothVotes(roi)
			return nil
		}
		ends := vt.rowEnds
		vt.votes(roi, src, func(y int) []int32 {
			j := y - src.Min.Y
			start := int32(0)
			if j > 0 {
				start = ends[j-1]
			}
			return vt.rowCols[start:ends[j]]
		})
	} else {
		vt.gradients(img, src)
		if err := vt.edgeVotes(roi, src); err != nil {
			return err
		}
	}
	vt.smoothVotes(roi)
	return nil
}

// thr2 is the voting threshold squared, as the edge planes compare it.
func (vt *voter) thr2() int32 { return int32(vt.thr * vt.thr) }

// gradients computes the Sobel derivatives of img within src (OpenCV
// reads the pixels around a region of a larger image, so the derivatives
// at the region's edge are the true ones).
func (vt *voter) gradients(img gocv.Mat, src image.Rectangle) {
	in := img.Region(src)
	gx := vt.gx.Region(src)
	gy := vt.gy.Region(src)
	gocv.Sobel(in, &gx, gocv.MatTypeCV16S, 1, 0, 3, 1, 0, gocv.BorderReplicate)
	gocv.Sobel(in, &gy, gocv.MatTypeCV16S, 0, 1, 3, 1, 0, gocv.BorderReplicate)
	gy.Close()
	gx.Close()
	in.Close()
}

// edgeVotes keeps, for every pixel of src, the strongest channel's
// gradient and its magnitude (zero below the threshold: vt.edge, vt.ex,
// vt.ey), and lets the edge pixels within a striker's radius of roi vote
// into roi's vote maps (cleared first), weighted by their magnitude
// (saturating at vt.sat).
func (vt *voter) edgeVotes(roi, src image.Rectangle) error {
	n := vt.n
	gx, err := vt.gx.DataPtrInt16()
	if err != nil {
		return err
	}
	gy, err := vt.gy.DataPtrInt16()
	if err != nil {
		return err
	}
	thr2 := vt.thr2()
	w := src.Dx()
	return vt.votes(roi, src, func(y int) []int32 {
		k0 := y*n + src.Min.X
		return edgeRow(gx[3*k0:3*(k0+w)], gy[3*k0:3*(k0+w)], vt.edge[k0:k0+w], vt.ex[k0:k0+w], vt.ey[k0:k0+w], thr2, vt.cols)
	})
}

// votes lets the edge pixels of src within a striker's radius of roi vote
// into roi's vote maps (cleared first); rowEdges(y) makes the edge planes
// of src's row y (vt.edge holding the squared magnitude) and returns its
// edge columns (from src.Min.X), left to right.
func (vt *voter) votes(roi, src image.Rectangle, rowEdges func(y int) []int32) error {
	n := vt.n
	var acc [2][]float32
	var err error
	for i := range acc {
		if acc[i], err = vt.acc[i].DataPtrFloat32(); err != nil {
			return err
		}
		for y := roi.Min.Y; y < roi.Max.Y; y++ {
			clear(acc[i][y*n+roi.Min.X : y*n+roi.Max.X])
		}
	}
	reach := int(math.Ceil(vt.radii[1])) + 1
	voteFrom := roi.Inset(-reach).Intersect(src)
	// Pixels of inner vote inside roi whichever way their gradient points
	// (over a radius and a half pixel from its edges), so their votes need
	// no bounds tests.
	inner := roi.Inset(int(math.Ceil(math.Max(vt.radii[0], vt.radii[1]))) + 1)
	inv := float32(1 / vt.sat)
	r0, r1 := float32(vt.radii[0]), float32(vt.radii[1])
	x0, y0, x1, y1 := roi.Min.X, roi.Min.Y, roi.Max.X, roi.Max.Y
	a0, a1 := acc[0], acc[1]
	w := src.Dx()
	for y := src.Min.Y; y < src.Max.Y; y++ {
		// this row of src in the gradient and edge planes
		k0 := y*n + src.Min.X
		er, exr, eyr := vt.edge[k0:k0+w], vt.ex[k0:k0+w], vt.ey[k0:k0+w]
		cols := rowEdges(y)
		exr, eyr = exr[:len(er)], eyr[:len(er)]
		// the edge pixels of the row, left to right (the order of the
		// sums): those within voteFrom vote; f0 ≤ i < f1 within inner
		v0, v1, f0, f1 := 0, 0, 0, 0
		if y >= voteFrom.Min.Y && y < voteFrom.Max.Y {
			v0, v1 = voteFrom.Min.X-src.Min.X, voteFrom.Max.X-src.Min.X
		}
		if y >= inner.Min.Y && y < inner.Max.Y && !inner.Empty() {
			f0, f1 = max(inner.Min.X-src.Min.X, v0), min(inner.Max.X-src.Min.X, v1)
		}
		cy := float32(y) + 0.5
		for _, c := range cols {
			i := int(c)
			// edgeRow left the squared magnitude (an integer below 2²⁴,
			// exact in float32); float32's square root is the float64 one
			// rounded to float32
			m := float32(math.Sqrt(float64(er[i])))
			er[i] = m
			if i < v0 || i >= v1 {
				continue
			}
			fx, fy := exr[i], eyr[i]
			// (min is branchless: wt > 1 is not predictable)
			wt := min(m*inv, 1)
			ux, uy := fx/m, fy/m
			cx := float32(i+src.Min.X) + 0.5
			// both radii, both directions (each product rounded, as amd64
			// and bc_votes do: arm64 would fuse it into the sum)
			tx0, ty0, tx1, ty1 := float32(r0*ux), float32(r0*uy), float32(r1*ux), float32(r1*uy)
			if i >= f0 && i < f1 {
				a0[int(cy+ty0)*n+int(cx+tx0)] += wt
				a0[int(cy-ty0)*n+int(cx-tx0)] += wt
				a1[int(cy+ty1)*n+int(cx+tx1)] += wt
				a1[int(cy-ty1)*n+int(cx-tx1)] += wt
				continue
			}
			// near roi's edge: votes outside it are dropped (see dropOutside)
			k := y*n + i + src.Min.X
			j, v := dropOutside(int(cx+tx0), int(cy+ty0), x0, y0, x1, y1, n, k, wt)
			a0[j] += v
			j, v = dropOutside(int(cx-tx0), int(cy-ty0), x0, y0, x1, y1, n, k, wt)
			a0[j] += v
			j, v = dropOutside(int(cx+tx1), int(cy+ty1), x0, y0, x1, y1, n, k, wt)
			a1[j] += v
			j, v = dropOutside(int(cx-tx1), int(cy-ty1), x0, y0, x1, y1, n, k, wt)
			a1[j] += v
		}
	}
	return nil
}

// dropOutside returns the index of the pixel (px, py) in an n-wide vote map
// and the vote w when the pixel lies in [x0, x1)×[y0, y1), else k and 0,
// without a branch (whether a vote leaves the region is not predictable).
// Adding +0 changes no vote (a map holds no −0: it starts at +0 and adds
// positive votes).
func dropOutside(px, py, x0, y0, x1, y1, n, k int, w float32) (int, float32) {
	o := ((px - x0) | (x1 - 1 - px) | (py - y0) | (y1 - 1 - py)) >> 63 // −1 outside, else 0
	return (py*n+px)&^o | k&o, math.Float32frombits(math.Float32bits(w) &^ uint32(o))
}

// edgeRow keeps, for each pixel of a row, the strongest channel's gradient
// (gx, gy: the row's Sobel derivatives, 3 channels; the first channel of
// equals) in ex, ey and its squared magnitude in e, all zero below the
// threshold (thr2: its square), and returns the columns at or above it
// (in cols, of the row's length at least). It has no branch that depends
// on the pixels: whether a pixel is on an edge is not predictable.
func edgeRow(gx, gy []int16, e, ex, ey []float32, thr2 int32, cols []int32) []int32 {
	ex, ey = ex[:len(e)], ey[:len(e)]
	gy = gy[:len(gx)]
	cols = cols[:len(e)]
	k := 0
	for i := range e {
		o := 3 * i
		g := gx[o : o+3 : o+3]
		h := gy[o : o+3 : o+3]
		bx, by, mm := int32(g[0]), int32(h[0]), int32(g[0])*int32(g[0])+int32(h[0])*int32(h[0])
		if m := int32(g[1])*int32(g[1]) + int32(h[1])*int32(h[1]); m > mm {
			bx, by, mm = int32(g[1]), int32(h[1]), m
		}
		if m := int32(g[2])*int32(g[2]) + int32(h[2])*int32(h[2]); m > mm {
			bx, by, mm = int32(g[2]), int32(h[2]), m
		}
		// all ones at or above the threshold, else zero (mm ≤ 2·1020²)
		on := (thr2 - 1 - mm) >> 31
		e[i], ex[i], ey[i] = float32(mm&on), float32(bx&on), float32(by&on)
		cols[k] = int32(i)
		k -= int(on)
	}
	return cols[:k]
}

// smoothVotes smooths the vote maps within roi (a 5×5 Gaussian of σ 1).
// It is OpenCV's GaussianBlur without making the kernel each call (which
// computes it in software floating point: most of a small region's cost):
// GaussianBlur of a 32-bit float image is sepFilter2D with
// getGaussianKernel's kernel both ways (TestSmoothVotesIsGaussianBlur).
func (vt *voter) smoothVotes(roi image.Rectangle) {
	for i := range vt.acc {
		a := vt.acc[i].Region(roi)
		s := vt.smooth[i].Region(roi)
		gocv.SepFilter2D(a, &s, gocv.MatTypeCV32F, vt.gauss, vt.gauss, image.Pt(-1, -1), 0, gocv.BorderConstant)
		s.Close()
		a.Close()
	}
}

// peak is a local maximum of a vote map.
type peak struct {
	x, y  float64 // sub-pixel position, rectified pixels
	score float64
	kind  int // 0 man-sized, 1 striker-sized
}

// peaks returns the local maxima of the smoothed vote maps inside roi
// with a score of at least min, refined to sub-pixel by a parabola.
func (vt *voter) peaks(roi image.Rectangle, inside func(x, y int) bool, min float64, out []peak) ([]peak, error) {
	n := vt.n
	roi = roi.Intersect(image.Rect(2, 2, n-2, n-2))
	for i := range vt.smooth {
		s, err := vt.smooth[i].DataPtrFloat32()
		if err != nil {
			return out, err
		}
		thr := float32(min) / vt.norm[i]
		// the pixels not below the threshold, in scan order (bc_above)
		for _, kc := range vt.above(s, roi, thr) {
			k := int(kc)
			x, y := k%n, k/n
			v := s[k]
			// strict maximum over the 5×5 neighbourhood (ties broken
			// toward the first in scan order)
			ok := true
			for dy := -2; dy <= 2 && ok; dy++ {
				for dx := -2; dx <= 2; dx++ {
					if dx == 0 && dy == 0 {
						continue
					}
					u := s[k+dy*n+dx]
					if u > v || (u == v && (dy < 0 || (dy == 0 && dx < 0))) {
						ok = false
						break
					}
				}
			}
			if !ok || !inside(x, y) {
				continue
			}
			px, py := float64(x), float64(y)
			l, r, u, d := float64(s[k-1]), float64(s[k+1]), float64(s[k-n]), float64(s[k+n])
			c := float64(v)
			if den := l - 2*c + r; den < 0 {
				px += math.Max(-0.5, math.Min(0.5, 0.5*(l-r)/den))
			}
			if den := u - 2*c + d; den < 0 {
				py += math.Max(-0.5, math.Min(0.5, 0.5*(u-d)/den))
			}
			out = append(out, peak{x: px, y: py, score: c * float64(vt.norm[i]), kind: i})
		}
	}
	return out, nil
}

// radialAt returns, at the pixel nearest (x, y), the gradient's component
// along the unit direction (ux, uy) and its magnitude (the strongest
// channel's); ok is false outside the plane.
func (vt *voter) radialAt(x, y, ux, uy float64) (rad, e float32, ok bool) {
	ix, iy := int(x+0.5), int(y+0.5)
	if ix < 0 || iy < 0 || ix >= vt.n || iy >= vt.n {
		return 0, 0, false
	}
	k := iy*vt.n + ix
	return vt.ex[k]*float32(ux) + vt.ey[k]*float32(uy), vt.edge[k], true
}

// radialBilinear is radialAt with the gradient interpolated between the
// four pixels around (x, y) (the magnitude likewise); 0 outside the
// plane.
func (vt *voter) radialBilinear(x, y, ux, uy float64) (rad, e float32) {
	if x < 0 || y < 0 || x >= float64(vt.n-1) || y >= float64(vt.n-1) {
		return 0, 0
	}
	ix, iy := int(x), int(y)
	fx, fy := float32(x-float64(ix)), float32(y-float64(iy))
	k := iy*vt.n + ix
	w00, w10, w01, w11 := (1-fx)*(1-fy), fx*(1-fy), (1-fx)*fy, fx*fy
	gx := w00*vt.ex[k] + w10*vt.ex[k+1] + w01*vt.ex[k+vt.n] + w11*vt.ex[k+vt.n+1]
	gy := w00*vt.ey[k] + w10*vt.ey[k+1] + w01*vt.ey[k+vt.n] + w11*vt.ey[k+vt.n+1]
	e = w00*vt.edge[k] + w10*vt.edge[k+1] + w01*vt.edge[k+vt.n] + w11*vt.edge[k+vt.n+1]
	return gx*float32(ux) + gy*float32(uy), e
}
