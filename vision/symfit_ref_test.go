package vision

import (
	"image"
	"math"
	"testing"
)

// symmetryFitRef is symmetryFit as it was before its points were held in
// float64 (edgePtRef: float32, converted in the loop): the reference the
// faster symmetryFit must match bit for bit (TestSymmetryFitMatchesRef).
func (vt *voter) symmetryFitRef(x, y, r, reach float64, foot func(x, y float64) (float64, float64), hiddenAt func(x, y float64) bool) (float64, float64, float64, bool) {
	n := vt.n
	// gather the edge pixels once (within reach of the start, a pixel of
	// slack for the centre's moves)
	rr := r*reach + 1
	x0, x1 := int(math.Floor(x-rr)), int(math.Ceil(x+rr))
	y0, y1 := int(math.Floor(y-rr)), int(math.Ceil(y+rr))
	if x0 < 1 || y0 < 1 || x1 >= n-1 || y1 >= n-1 {
		return x, y, 0, false
	}
	var pts []edgePtRef
	rr2 := rr * rr
	for j := y0; j <= y1; j++ {
		dy := float64(j) - y
		row := j * n
		for i := x0; i <= x1; i++ {
			k := row + i
			m := vt.edge[k]
			if m == 0 {
				continue
			}
			dx := float64(i) - x
			d2 := dx*dx + dy*dy
			if d2 > rr2 || d2 < 2 {
				continue
			}
			if hiddenAt != nil && hiddenAt(float64(i), float64(j)) {
				continue
			}
			inv := 1 / m
			pts = append(pts, edgePtRef{x: float32(i), y: float32(j), nx: -vt.ey[k] * inv, ny: vt.ex[k] * inv, w: min(m, float32(2*vt.sat))})
		}
	}
	cx, cy := x, y
	rin := r - 0.6
	rin2 := rin * rin
	lim2 := (r * reach) * (r * reach)
	var wsum float64
	for it := 0; it < 4; it++ {
		var a00, a01, a11, b0, b1 float64
		wsum = 0
		// where the foot is relative to the top face: the side that faces
		// the camera widens the outline toward the point under it
		var ox, oy, ol float64
		if foot != nil {
			fx, fy := foot(cx, cy)
			ox, oy = fx-cx, fy-cy
			ol = math.Hypot(ox, oy)
		}
		c := 1.2 // Tukey scale, px
		if it == 0 {
			c = 2.5
		}
		// (each product rounded, float64(…): the former code as amd64 ran
		// it; arm64 fused products into the sums)
		for _, p := range pts {
			dx, dy := float64(p.x)-cx, float64(p.y)-cy
			d2 := float64(dx*dx) + float64(dy*dy)
			if d2 > lim2 || d2 < 4 {
				continue
			}
			nx, ny := float64(p.nx), float64(p.ny)
			// distance from the centre to the line through the pixel;
			// edges of the outline on the camera's side belong to the foot
			tx, ty := 0.0, 0.0
			if ol > 0 && d2 > rin2 && float64(dx*ox)+float64(dy*oy) > 0 {
				tx, ty = ox, oy
			}
			d := float64((tx-dx)*nx) + float64((ty-dy)*ny)
			if d >= c || d <= -c {
				continue
			}
			t := 1 - float64((d/c)*(d/c))
			w := float64(float64(p.w) * t * t)
			a00 += float64(w * nx * nx)
			a01 += float64(w * nx * ny)
			a11 += float64(w * ny * ny)
			pn := float64((float64(p.x)-tx)*nx) + float64((float64(p.y)-ty)*ny)
			b0 += float64(w * nx * pn)
			b1 += float64(w * ny * pn)
			wsum += w
		}
		det := a00*a11 - a01*a01
		if wsum == 0 || !(det > 1e-9*wsum*wsum) {
			return x, y, 0, false
		}
		nxc := (a11*b0 - a01*b1) / det
		nyc := (a00*b1 - a01*b0) / det
		if math.IsNaN(nxc) || math.IsNaN(nyc) {
			return x, y, 0, false
		}
		step := math.Hypot(nxc-cx, nyc-cy)
		cx, cy = nxc, nyc
		if math.Hypot(cx-x, cy-y) > 0.5*r {
			return x, y, 0, false
		}
		if step < 0.02 {
			break
		}
	}
	return cx, cy, wsum, true
}

// edgePtRef is edgePt as symmetryFitRef keeps it.
type edgePtRef struct {
	x, y, nx, ny, w float32
}

// sameFit fails when symmetryFit (its sums in SSE2 and in plain C) and
// symmetryFitRef differ in any bit at (x, y).
func sameFit(t *testing.T, what string, vt *voter, x, y, r float64, foot func(x, y float64) (float64, float64), hid func(x, y float64) bool) {
	t.Helper()
	bx, by, bw, bok := vt.symmetryFitRef(x, y, r, 1.3, foot, hid)
	defer func() { fitSIMD = true }()
	for _, simd := range []bool{true, false} {
		fitSIMD = simd
		ax, ay, aw, aok := vt.symmetryFit(x, y, r, 1.3, foot, hid)
		if math.Float64bits(ax) != math.Float64bits(bx) || math.Float64bits(ay) != math.Float64bits(by) || math.Float64bits(aw) != math.Float64bits(bw) || aok != bok {
			t.Fatalf("%s at %.3f,%.3f r %.1f (foot %v, hidden %v, simd %v): %v %v %v %v, reference %v %v %v %v", what, x, y, r, foot != nil, hid != nil, simd, ax, ay, aw, aok, bx, by, bw, bok)
		}
	}
}

// TestSymmetryFitMatchesRef: symmetryFit is symmetryFitRef bit for bit,
// on the synthetic board (start points on grids, both radii, with and
// without a foot and a hidden half-plane) and at the discs the detector
// accepted in frames of the break clip (with the foot refine gives it).
func TestSymmetryFitMatchesRef(t *testing.T) {
	const n = 160
	img := syntheticBoard(t, n)
	vt := newVoter(n, 10.4, 12.7)
	if err := vt.vote(img, image.Rect(0, 0, n, n), 0); err != nil {
		t.Fatal(err)
	}
	foot := func(x, y float64) (float64, float64) { return x + 0.03*(x-80), y + 0.03*(y-80) }
	hid := func(x, y float64) bool { return x+0.5*y > 150 }
	fits := 0
	// start points off the pixel grid, and on it (points exactly 2 px
	// from the first centre: the fit's near limit)
	var starts [][2]float64
	for y := 3.25; y < n; y += 7.5 {
		for x := 2.5; x < n; x += 6.75 {
			starts = append(starts, [2]float64{x, y})
		}
	}
	for y := 4.0; y < n; y += 9 {
		for x := 4.0; x < n; x += 9 {
			starts = append(starts, [2]float64{x, y})
		}
	}
	for _, st := range starts {
		x, y := st[0], st[1]
		for _, r := range vt.radii {
			sameFit(t, "synthetic", vt, x, y, r, nil, nil)
			sameFit(t, "synthetic", vt, x, y, r, foot, nil)
			sameFit(t, "synthetic", vt, x, y, r, foot, hid)
			if _, _, _, ok := vt.symmetryFit(x, y, r, 1.3, foot, nil); ok {
				fits++
			}
		}
	}
	vt.close()
	img.Close()
	if fits < 50 {
		t.Fatalf("only %d fits converged on the synthetic board", fits)
	}
	checked := 0
	detectCorpusFrames(t, []string{"break"}, 10, func(det *Detector, _ string, _ int) {
		for _, c := range det.accepted {
			h, r := det.cfg.ManHeight, det.rMan
			if c.big {
				h, r = det.cfg.StrikerHeight, det.rStr
			}
			foot := func(x, y float64) (float64, float64) { return det.v.pxOf(det.v.toSurface(det.v.mmOf(x, y), h)) }
			// from the accepted centre and from a start off it
			sameFit(t, "break", det.vt, c.x, c.y, r, foot, nil)
			sameFit(t, "break", det.vt, c.x+0.7, c.y-0.4, r, foot, nil)
			checked++
		}
	})
	if checked == 0 {
		t.Fatal("no corpus disc checked")
	}
	t.Logf("%d fits on the synthetic board converged; %d corpus discs", fits, checked)
}
