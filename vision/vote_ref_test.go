package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// edgeVotesRef is edgeVotes as it was first written (a pixel at a time,
// the three gradient planes written for every pixel): the reference the
// faster edgeVotes must match bit for bit (TestEdgeVotesMatchesRef).
func (vt *voter) edgeVotesRef(roi, src image.Rectangle) error {
	n := vt.n
	gx, err := vt.gx.DataPtrInt16()
	if err != nil {
		return err
	}
	gy, err := vt.gy.DataPtrInt16()
	if err != nil {
		return err
	}
	var acc [2][]float32
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
	thr2 := int32(vt.thr * vt.thr)
	inv := float32(1 / vt.sat)
	r0, r1 := float32(vt.radii[0]), float32(vt.radii[1])
	x0, y0, x1, y1 := roi.Min.X, roi.Min.Y, roi.Max.X, roi.Max.Y
	a0, a1 := acc[0], acc[1]
	w := src.Dx()
	for y := src.Min.Y; y < src.Max.Y; y++ {
		// this row of src in the gradient and edge planes
		k0 := y*n + src.Min.X
		gxr, gyr := gx[3*k0:3*(k0+w)], gy[3*k0:3*(k0+w)]
		er, exr, eyr := vt.edge[k0:k0+w], vt.ex[k0:k0+w], vt.ey[k0:k0+w]
		exr, eyr = exr[:len(er)], eyr[:len(er)]
		// the pixels that vote: within voteFrom; f0 ≤ i < f1 within inner
		v0, v1, f0, f1 := 0, 0, 0, 0
		if y >= voteFrom.Min.Y && y < voteFrom.Max.Y {
			v0, v1 = voteFrom.Min.X-src.Min.X, voteFrom.Max.X-src.Min.X
		}
		if y >= inner.Min.Y && y < inner.Max.Y && !inner.Empty() {
			f0, f1 = max(inner.Min.X-src.Min.X, v0), min(inner.Max.X-src.Min.X, v1)
		}
		cy := float32(y) + 0.5
		for i := range er {
			o := 3 * i
			g := gxr[o : o+3 : o+3]
			h := gyr[o : o+3 : o+3]
			// the channel with the strongest gradient
			b0, c0 := int32(g[0]), int32(h[0])
			b1, c1 := int32(g[1]), int32(h[1])
			b2, c2 := int32(g[2]), int32(h[2])
			m0, m1, m2 := b0*b0+c0*c0, b1*b1+c1*c1, b2*b2+c2*c2
			bx, by, mm := b0, c0, m0
			if m1 > mm {
				bx, by, mm = b1, c1, m1
			}
			if m2 > mm {
				bx, by, mm = b2, c2, m2
			}
			if mm < thr2 {
				er[i], exr[i], eyr[i] = 0, 0, 0
				continue
			}
			m := float32(math.Sqrt(float64(mm)))
			fx, fy := float32(bx), float32(by)
			er[i], exr[i], eyr[i] = m, fx, fy
			if i < v0 || i >= v1 {
				continue
			}
			wt := m * inv
			if wt > 1 {
				wt = 1
			}
			ux, uy := fx/m, fy/m
			cx := float32(i+src.Min.X) + 0.5
			// both radii, both directions (each product rounded: the
			// former code as amd64 ran it; arm64 fused the products into
			// the sums)
			tx0, ty0, tx1, ty1 := float32(r0*ux), float32(r0*uy), float32(r1*ux), float32(r1*uy)
			if i >= f0 && i < f1 {
				a0[int(cy+ty0)*n+int(cx+tx0)] += wt
				a0[int(cy-ty0)*n+int(cx-tx0)] += wt
				a1[int(cy+ty1)*n+int(cx+tx1)] += wt
				a1[int(cy-ty1)*n+int(cx-tx1)] += wt
				continue
			}
			if px, py := int(cx+tx0), int(cy+ty0); px >= x0 && px < x1 && py >= y0 && py < y1 {
				a0[py*n+px] += wt
			}
			if px, py := int(cx-tx0), int(cy-ty0); px >= x0 && px < x1 && py >= y0 && py < y1 {
				a0[py*n+px] += wt
			}
			if px, py := int(cx+tx1), int(cy+ty1); px >= x0 && px < x1 && py >= y0 && py < y1 {
				a1[py*n+px] += wt
			}
			if px, py := int(cx-tx1), int(cy-ty1); px >= x0 && px < x1 && py >= y0 && py < y1 {
				a1[py*n+px] += wt
			}
		}
	}
	return nil
}

// TestEdgeVotesMatchesRef checks that edgeVotes gives, bit for bit, the
// gradient planes and vote maps of edgeVotesRef, on a synthetic board
// (grain, printed lines, discs lighter and darker than the wood, sensor
// noise) over regions inside it and cut by its border.
func TestEdgeVotesMatchesRef(t *testing.T) {
	const n = 160
	img := syntheticBoard(t, n)
	defer img.Close()
	a, b := newVoter(n, 10.4, 12.7), newVoter(n, 10.4, 12.7)
	defer a.close()
	defer b.close()
	rois := []image.Rectangle{image.Rect(0, 0, n, n), image.Rect(24, 48, 96, 120), image.Rect(0, 72, 48, 160), image.Rect(130, 0, 160, 20), image.Rect(50, 50, 53, 90), image.Rect(70, 70, 71, 71)}
	for _, roi := range rois {
		for _, margin := range []int{0, 3, 20} {
			src := roi.Inset(-margin).Intersect(image.Rect(0, 0, n, n))
			a.gradients(img, src)
			b.gradients(img, src)
			if err := a.edgeVotes(roi, src); err != nil {
				t.Fatal(err)
			}
			if err := b.edgeVotesRef(roi, src); err != nil {
				t.Fatal(err)
			}
			same := func(what string, x, y []float32) {
				t.Helper()
				for k := range x {
					if math.Float32bits(x[k]) != math.Float32bits(y[k]) {
						t.Fatalf("roi %v margin %d: %s at %d,%d: %v, ref %v", roi, margin, what, k%n, k/n, x[k], y[k])
					}
				}
			}
			same("edge", a.edge, b.edge)
			same("ex", a.ex, b.ex)
			same("ey", a.ey, b.ey)
			for i := range a.acc {
				x, _ := a.acc[i].DataPtrFloat32()
				y, _ := b.acc[i].DataPtrFloat32()
				same(fmt.Sprintf("votes %d", i), x, y)
			}
		}
	}
	edges := 0
	for _, e := range a.edge {
		if e > 0 {
			edges++
		}
	}
	t.Logf("%d of %d pixels on an edge", edges, n*n)
	// the image must exercise both paths
	if edges < n*n/10 || edges > n*n*9/10 {
		t.Fatalf("%d of %d pixels on an edge", edges, n*n)
	}
}

// syntheticBoard is an n×n BGR picture for the voter's tests: wood with
// grain, printed lines, discs lighter and darker than the wood, each with
// a ring, and sensor noise.
func syntheticBoard(t *testing.T, n int) gocv.Mat {
	t.Helper()
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 160, 200, 0), n, n, gocv.MatTypeCV8UC3)
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 12; i++ {
		y := rng.Intn(n)
		gocv.Line(&img, image.Pt(0, y), image.Pt(n-1, y+rng.Intn(9)-4), color.RGBA{R: uint8(150 + rng.Intn(60)), G: 120, B: 90}, 1)
	}
	gocv.Line(&img, image.Pt(5, 30), image.Pt(150, 40), color.RGBA{R: 200, G: 20, B: 20}, 2)
	for i := 0; i < 30; i++ {
		c := image.Pt(rng.Intn(n), rng.Intn(n))
		v := uint8(rng.Intn(256))
		gocv.Circle(&img, c, 10+rng.Intn(4), color.RGBA{R: v, G: v / 2, B: 255 - v}, -1)
		gocv.Circle(&img, c, 6, color.RGBA{R: v / 3, G: v, B: v}, 1)
	}
	px, err := img.DataPtrUint8()
	if err != nil {
		img.Close()
		t.Fatal(err)
	}
	for k := range px {
		px[k] = uint8(min(max(int(px[k])+rng.Intn(7)-3, 0), 255))
	}
	return img
}

// TestEdgeVotesCMatchesVotes: bc_votes (edgeVotesC, in SSE2 and in plain
// C) gives, bit for bit, the vote maps and magnitudes of votes, on edge
// planes made up to hit its corners: gradients along the axes and the
// diagonals as well as random ones, radii whose votes land exactly on
// pixel borders (10.5, 12.5) and others, regions inside the plane and on
// its edges, voting pixels inside them and cut by them.
func TestEdgeVotesCMatchesVotes(t *testing.T) {
	const n = 96
	rng := rand.New(rand.NewSource(7))
	defer func() { votesSIMD = true }()
	rois := []image.Rectangle{image.Rect(0, 0, n, n), image.Rect(20, 30, 70, 80), image.Rect(0, 50, 40, 96), image.Rect(60, 0, 96, 17),
		image.Rect(40, 40, 43, 70), image.Rect(50, 50, 51, 51), image.Rect(33, 10, 34, 90)}
	for _, radii := range [][2]float64{{10.5, 12.5}, {10.4, 12.7}, {3, 5.25}} {
		for _, roi := range rois {
			for _, margin := range []int{0, 3, 20} {
				src := roi.Inset(-margin).Intersect(image.Rect(0, 0, n, n))
				// the planes: about half the pixels on an edge
				edge, ex, ey := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
				var cols, ends []int32
				for y := src.Min.Y; y < src.Max.Y; y++ {
					for x := src.Min.X; x < src.Max.X; x++ {
						if rng.Intn(2) == 0 {
							continue
						}
						var gx, gy int
						switch g := rng.Intn(300) + 1; rng.Intn(4) {
						case 0:
							gx = g * (2*rng.Intn(2) - 1)
						case 1:
							gy = g * (2*rng.Intn(2) - 1)
						case 2:
							gx, gy = g*(2*rng.Intn(2)-1), g*(2*rng.Intn(2)-1)
						default:
							gx, gy = rng.Intn(801)-400, rng.Intn(801)-400
							if gx == 0 && gy == 0 {
								gx = 1
							}
						}
						k := y*n + x
						edge[k], ex[k], ey[k] = float32(gx*gx+gy*gy), float32(gx), float32(gy)
						cols = append(cols, int32(x-src.Min.X))
					}
					ends = append(ends, int32(len(cols)))
				}
				cols = append(cols, 0, 0, 0)
				var want [2][]float32
				var wantEdge []float32
				for v := 0; v < 3; v++ {
					vt := newVoter(n, radii[0], radii[1])
					copy(vt.edge, edge)
					copy(vt.ex, ex)
					copy(vt.ey, ey)
					vt.rowCols, vt.rowEnds = append([]int32(nil), cols...), append([]int32(nil), ends...)
					if v == 0 {
						if err := vt.votes(roi, src, func(y int) []int32 {
							j := y - src.Min.Y
							start := int32(0)
							if j > 0 {
								start = ends[j-1]
							}
							return cols[start:ends[j]]
						}); err != nil {
							t.Fatal(err)
						}
					} else {
						votesSIMD = v == 1
						if err := vt.edgeVotesC(roi, src); err != nil {
							t.Fatal(err)
						}
					}
					var got [2][]float32
					for i := range got {
						a, _ := vt.acc[i].DataPtrFloat32()
						got[i] = append([]float32(nil), a...)
					}
					gotEdge := append([]float32(nil), vt.edge...)
					vt.close()
					if v == 0 {
						want, wantEdge = got, gotEdge
						continue
					}
					for k := range gotEdge {
						if math.Float32bits(gotEdge[k]) != math.Float32bits(wantEdge[k]) {
							t.Fatalf("radii %v roi %v margin %d simd %v: magnitude at %d,%d: %v, votes %v", radii, roi, margin, v == 1, k%n, k/n, gotEdge[k], wantEdge[k])
						}
					}
					for i := range got {
						for y := roi.Min.Y; y < roi.Max.Y; y++ {
							for x := roi.Min.X; x < roi.Max.X; x++ {
								if k := y*n + x; math.Float32bits(got[i][k]) != math.Float32bits(want[i][k]) {
									t.Fatalf("radii %v roi %v margin %d simd %v: map %d at %d,%d: %v, votes %v", radii, roi, margin, v == 1, i, x, y, got[i][k], want[i][k])
								}
							}
						}
					}
				}
			}
		}
	}
}
