package vision

import "math"

// symmetryFit refines a disc's centre from the directions of the edges on
// and inside its rim: the rim, its bevel, the grooves and rings of a
// turned piece and the contact shadow around its foot are all circles
// about the same centre, so the lines through their edge pixels along the
// gradient all pass through it. The centre is the point nearest those
// lines in the least-squares sense, with Tukey weights so that edges of
// other things (a neighbour's rim, a line on the board, wood grain) drop
// out. It needs no edge position along the radius, so it is not pulled by
// how far out a shadow or a bevel's shading reaches.
func (vt *voter) symmetryFit(x, y, r, reach float64, foot func(x, y float64) (float64, float64), hiddenAt func(x, y float64) bool) (float64, float64, float64, bool) {
	n := vt.n
	// gather the edge pixels once (within reach of the start, a pixel of
	// slack for the centre's moves)
	rr := r*reach + 1
	x0, x1 := int(math.Floor(x-rr)), int(math.Ceil(x+rr))
	y0, y1 := int(math.Floor(y-rr)), int(math.Ceil(y+rr))
	if x0 < 1 || y0 < 1 || x1 >= n-1 || y1 >= n-1 {
		return x, y, 0, false
	}
	// (bc_fit_gather; the normal and weight are computed in float32 and
	// kept in float64, exactly, as the fit uses them)
	pts := vt.fitGather(x0, y0, x1, y1, x, y, rr*rr)
	if hiddenAt != nil {
		kept := pts[:0]
		for _, p := range pts {
			if !hiddenAt(p.x, p.y) {
				kept = append(kept, p)
			}
		}
		pts = kept
	}
	vt.pts = pts
	cx, cy := x, y
	rin := r - 0.6
	rin2 := rin * rin
	lim2 := (r * reach) * (r * reach)
	var wsum float64
	for it := 0; it < 4; it++ {
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
		// the weighted sums of the lines through the points: each point's
		// distance from the centre to its line (edges of the outline on
		// the camera's side belong to the foot), Tukey weights (bc_fit_sums)
		a00, a01, a11, b0, b1, ws := fitSums(pts, cx, cy, lim2, rin2, ol > 0, ox, oy, c)
		wsum = ws
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

// edgePt is an edge pixel gathered for a fit: its position, the unit
// normal of its gradient line and its weight (float32 values, held in
// float64 so that the fit's loop does not convert them each time). C
// reads them as five float64 in this order (bc_fit_sums).
type edgePt struct {
	x, y, nx, ny, w float64
}

// symmetry returns the share of the edge energy within radius r·reach of
// (x, y) whose gradient line passes within tol pixels of it: high for a
// disc (its rim, bevel and grooves all point at its centre), low for
// printed lines and arcs that happen to meet around a point.
func (vt *voter) symmetry(x, y, r, reach, tol float64, skip func(i, j int) bool) float64 {
	s, _ := vt.symmetryOf(x, y, r, reach, tol, skip, false)
	return s
}

// symmetryOccluding is symmetry leaving out the edges of lines that end at
// the outline from outside: a disc lying across a printed line (an arc, a
// star point, a base line) hides it, so the line's edges reach the
// outline and stop there, while the disc's own edges (rim, bevel, grooves,
// contact shadow) run along it. An edge pixel on the outline (from 0.8 of
// the radius out) whose gradient does not point at the centre is left out
// when the edge goes on outward along its own direction (a parallel edge
// at least twice among 2, 3 and 4 pixels on) and does not go on inward
// past 0.8 of the radius: what goes on inside is not hidden, and counts
// against the disc as before (printed arcs and star points meeting around
// a point). It returns the symmetry and the share of the edge energy left
// out.
func (vt *voter) symmetryOccluding(x, y, r, reach, tol float64, skip func(i, j int) bool) (float64, float64) {
	return vt.symmetryOf(x, y, r, reach, tol, skip, true)
}

// symmetryOf is symmetry (occluding false) or symmetryOccluding.
func (vt *voter) symmetryOf(x, y, r, reach, tol float64, skip func(i, j int) bool, occluding bool) (float64, float64) {
	n := vt.n
	rr := r * reach
	const step = 4 // the farthest sample along an edge, px
	margin := 1    // the window, and the samples along an edge, stay inside the plane
	if occluding {
		margin = step + 1
	}
	x0, x1 := int(math.Floor(x-rr)), int(math.Ceil(x+rr))
	y0, y1 := int(math.Floor(y-rr)), int(math.Ceil(y+rr))
	if x0 < margin || y0 < margin || x1 >= n-margin || y1 >= n-margin {
		return 0, 0
	}
	// parallel reports whether the pixel nearest (px, py) is on an edge
	// parallel to the gradient (gx, gy) of magnitude m
	parallel := func(px, py, gx, gy, m float64) bool {
		k := int(math.Round(py))*n + int(math.Round(px))
		e := float64(vt.edge[k])
		return e > 0 && math.Abs(gx*float64(vt.ex[k])+gy*float64(vt.ey[k])) > 0.85*m*e
	}
	inner := 0.8 * r
	var in, all, out float64
	for j := y0; j <= y1; j++ {
		dy := float64(j) - y
		for i := x0; i <= x1; i++ {
			dx := float64(i) - x
			d2 := dx*dx + dy*dy
			if d2 > rr*rr || d2 < 4 {
				continue
			}
			k := j*n + i
			m := float64(vt.edge[k])
			if m == 0 || (skip != nil && skip(i, j)) {
				continue
			}
			gx, gy := float64(vt.ex[k]), float64(vt.ey[k])
			w := min(m, vt.sat) // (math.Min's result, without a call)
			if math.Abs(dx*gy-dy*gx)/m <= tol {
				in += w
				all += w
				continue
			}
			if occluding && d2 >= inner*inner {
				// along the edge, the way out of the outline
				tx, ty := -gy/m, gx/m
				if tx*dx+ty*dy < 0 {
					tx, ty = -tx, -ty
				}
				on, inside := 0, false
				for s := 2.0; s <= step; s++ {
					if parallel(float64(i)+s*tx, float64(j)+s*ty, gx, gy, m) {
						on++
					}
					px, py := float64(i)-s*tx, float64(j)-s*ty
					if (px-x)*(px-x)+(py-y)*(py-y) < inner*inner && parallel(px, py, gx, gy, m) {
						inside = true
					}
				}
				if on >= 2 && !inside {
					out += w
					continue
				}
			}
			all += w
		}
	}
	if all == 0 {
		return 0, 0
	}
	return in / all, out / (all + out)
}
