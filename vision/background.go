package vision

import (
	"math"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
)

// background models the board as it looks when nothing moves, in blocks of
// blockPx×blockPx rectified pixels. It says which blocks changed since the
// last frame (where detection must run again) and which differ from the
// background (foreign objects: hands, arms, sleeves). Whatever stays still
// long enough becomes background, including discs at rest, so a piece
// that was there all along never counts as foreign; a global change of
// brightness (a dimmed lamp, the camera's gain) is divided out.
type background struct {
	nb     int       // blocks per side
	bs     int       // block size, rectified pixels
	mmPer  float64   // block size in mm
	small  gocv.Mat  // the board at 2×2 samples per block (see observe)
	cur    []float32 // block means, BGR
	prev   []float32
	bg     []float32
	stable []uint16
	fg     []bool
	diff   []float32
	drift  []float32
	ref    []float32 // block means (gain removed) when last searched
	zone   []uint8   // 0 outside, 1 playing surface, 2 margin (frame) beyond it
	edge   []bool    // where an arm comes in: the margin and the surface within edgeBand of its edge
	first  bool
	gain   float64 // current brightness over the background's
	// surface is the number of blocks of zone 1.
	surface int
	// changed marks blocks that changed since the previous frame.
	changed []bool
	// boardY is the board's brightness (luma) this frame, from the blocks
	// that match the background on the playing surface, and boardBGR its
	// colour.
	boardY   float64
	boardBGR [3]float64
	// woodLo and woodHi bound the luma of the blocks taken for bare wood
	// (the 45th and 75th percentiles, see measureBoard).
	woodLo, woodHi float64
	// illum is the board's brightness over a coarse grid of cells of
	// illumCell×illumCell blocks (lamp fall-off, vignetting, a dimmed
	// corner), computed when first asked for in a frame.
	illum      []float64
	covered    []bool // blocks on a disc found this frame (set by the detector)
	illumN     int
	illumFresh bool
	lumas      []float64  // illumination's scratch: each cell's lumas
	lumaN      []int32    // their counts
	lit        []litBlock // measureBoard's scratch
	tmp        []float64
}

// litBlock is a block measureBoard measured (k) and its luma (l).
type litBlock struct{ k, l int32 }

const (
	blockPx = 4
	// noise thresholds on the L1 difference of block means (B+G+R)
	changeThr = 14
	fgThr     = 48
	// frames a block must stay still to enter the background
	stableFrames = 8
	// A region is searched again when it has just come to rest (its
	// blocks still for settleFrames), and once more when it has entered
	// the background (whatever was decided while a hand was over it or a
	// disc was still creeping is looked at again once all is still).
	settleFrames = 3
	// frames a block covered by a hand must stay still to enter it
	handFrames = 600
	// edgeBand (mm) is how far inside the playing surface's edge a
	// foreign region must reach to have come in over the frame: a dark
	// arm over a dark frame differs little from it, nor over the dark
	// line and shadow along the surface's edge.
	edgeBand = 10.0
)

func newBackground(v *view, g *board.Geometry) *background {
	nb := (v.n + blockPx - 1) / blockPx
	b := &background{
		nb:      nb,
		bs:      blockPx,
		mmPer:   blockPx / v.ppm,
		small:   gocv.NewMatWithSize(2*nb, 2*nb, gocv.MatTypeCV8UC3),
		cur:     make([]float32, 3*nb*nb),
		prev:    make([]float32, 3*nb*nb),
		bg:      make([]float32, 3*nb*nb),
		stable:  make([]uint16, nb*nb),
		fg:      make([]bool, nb*nb),
		diff:    make([]float32, nb*nb),
		drift:   make([]float32, nb*nb),
		ref:     make([]float32, 3*nb*nb),
		covered: make([]bool, nb*nb),
		zone:    make([]uint8, nb*nb),
		edge:    make([]bool, nb*nb),
		changed: make([]bool, nb*nb),
		first:   true,
		gain:    1,
	}
	h := g.Half()
	for j := 0; j < nb; j++ {
		for i := 0; i < nb; i++ {
			p := v.mmOf((float64(i)+0.5)*blockPx-0.5, (float64(j)+0.5)*blockPx-0.5)
			m := math.Max(math.Abs(p.X), math.Abs(p.Y))
			if m <= h {
				b.zone[j*nb+i] = 1
				b.surface++
			} else {
				b.zone[j*nb+i] = 2
			}
			b.edge[j*nb+i] = m >= h-edgeBand
		}
	}
	return b
}

func (b *background) close() { b.small.Close() }

// cover marks the blocks on the discs of this frame (they are not bare
// wood for the illumination grid).
func (b *background) cover(ds []disc) {
	for k := range b.covered {
		b.covered[k] = false
	}
	bs := float64(b.bs)
	for _, c := range ds {
		r := c.r + bs
		i0, i1 := max(int((c.x-r)/bs), 0), min(int((c.x+r)/bs), b.nb-1)
		j0, j1 := max(int((c.y-r)/bs), 0), min(int((c.y+r)/bs), b.nb-1)
		for j := j0; j <= j1; j++ {
			for i := i0; i <= i1; i++ {
				x, y := (float64(i)+0.5)*bs-0.5, (float64(j)+0.5)*bs-0.5
				if dx, dy := x-c.x, y-c.y; dx*dx+dy*dy <= r*r {
					b.covered[j*b.nb+i] = true
				}
			}
		}
	}
	b.illumFresh = false
}

// illumCell is the size of an illumination cell in blocks.
const illumCell = 8

// illumination makes the brightness grid: in each cell, the 60th
// percentile of the luma of its surface blocks that match the background
// (the bare wood, as for boardY); cells with too few of them take their
// neighbours' mean, or boardY.
func (b *background) illumination() {
	if b.illumFresh {
		return
	}
	b.illumFresh = true
	nb := b.nb
	nc := (nb + illumCell - 1) / illumCell
	b.illumN = nc
	if len(b.illum) != nc*nc {
		b.illum = make([]float64, nc*nc)
	}
	// each cell's lumas in its own stretch of b.lumas (their count in
	// b.lumaN), then the cells' 60th percentiles in one pass (kthCells)
	const per = illumCell * illumCell
	if len(b.lumas) != per*nc*nc {
		b.lumas = make([]float64, per*nc*nc)
		b.lumaN = make([]int32, nc*nc)
	}
	for cj := 0; cj < nc; cj++ {
		for ci := 0; ci < nc; ci++ {
			c := cj*nc + ci
			lumas := b.lumas[per*c : per*(c+1)]
			m := 0
			i0, i1 := ci*illumCell, min((ci+1)*illumCell, nb)
			for j := cj * illumCell; j < min((cj+1)*illumCell, nb); j++ {
				r0, r1 := j*nb+i0, j*nb+i1
				zone, fg, covered, cur := b.zone[r0:r1], b.fg[r0:r1], b.covered[r0:r1], b.cur[3*r0:3*r1]
				for i, z := range zone {
					if z != 1 || fg[i] || covered[i] {
						continue
					}
					p := cur[3*i : 3*i+3 : 3*i+3]
					lumas[m] = 0.114*float64(p[0]) + 0.587*float64(p[1]) + 0.299*float64(p[2])
					m++
				}
			}
			b.lumaN[c] = int32(m)
		}
	}
	kthCells(b.lumas, b.lumaN, illumCell*illumCell/4, b.illum)
	// fill the gaps from the neighbours
	for pass := 0; pass < 3; pass++ {
		for k, v := range b.illum {
			if v >= 0 {
				continue
			}
			ci, cj := k%nc, k/nc
			s, n := 0.0, 0
			for dj := -1; dj <= 1; dj++ {
				for di := -1; di <= 1; di++ {
					x, y := ci+di, cj+dj
					if x >= 0 && y >= 0 && x < nc && y < nc && b.illum[y*nc+x] >= 0 && (di != 0 || dj != 0) {
						s += b.illum[y*nc+x]
						n++
					}
				}
			}
			if n > 0 {
				b.illum[k] = s / float64(n)
			}
		}
	}
	for k, v := range b.illum {
		if v < 0 {
			b.illum[k] = b.boardY
		}
	}
}

// illumAt returns the board's brightness around the rectified pixel
// (x, y), interpolated between cell centres.
func (b *background) illumAt(x, y float64) float64 {
	b.illumination()
	nc := b.illumN
	cs := float64(illumCell * b.bs)
	fx, fy := (x+0.5)/cs-0.5, (y+0.5)/cs-0.5
	// (the builtin min and max are math.Min and math.Max, NaN and signed
	// zeros alike, without a call)
	fx = max(0, min(float64(nc-1), fx))
	fy = max(0, min(float64(nc-1), fy))
	i0, j0 := int(fx), int(fy)
	i1, j1 := min(i0+1, nc-1), min(j0+1, nc-1)
	tx, ty := fx-float64(i0), fy-float64(j0)
	a := b.illum[j0*nc+i0]*(1-tx) + b.illum[j0*nc+i1]*tx
	c := b.illum[j1*nc+i0]*(1-tx) + b.illum[j1*nc+i1]*tx
	return a*(1-ty) + c*ty
}

// observeFrame takes a new frame (the camera's): the block means of its
// rectification at 2×2 samples per block by low, the detector's
// low-resolution rectifier, made in one pass (remapMeans), or through
// b.small where that cannot run (the same means); then as observe.
func (b *background) observeFrame(frame gocv.Mat, low *rectifier) error {
	if err := low.check(frame); err != nil {
		return err
	}
	if remapMeans(frame, &low.map1, &low.map2, b.nb, b.prev) != nil {
		if err := low.apply(frame, &b.small); err != nil {
			return err
		}
		return b.observe()
	}
	b.prev, b.cur = b.cur, b.prev
	return b.observeMeans()
}

// blockMeans writes into cur (3·nb·nb, BGR) the means of the 2×2 blocks
// of px, a 2nb×2nb BGR image.
func blockMeans(px []uint8, nb int, cur []float32) {
	w2 := 2 * nb * 3
	for j := 0; j < nb; j++ {
		r0 := px[2*j*w2 : (2*j+1)*w2]
		r1 := px[(2*j+1)*w2 : (2*j+2)*w2]
		row := cur[3*j*nb : 3*(j+1)*nb]
		for i := 0; i < nb; i++ {
			o := 6 * i
			a, e := r0[o:o+6:o+6], r1[o:o+6:o+6]
			q := row[3*i : 3*i+3 : 3*i+3]
			q[0] = 0.25 * float32(int(a[0])+int(a[3])+int(e[0])+int(e[3]))
			q[1] = 0.25 * float32(int(a[1])+int(a[4])+int(e[1])+int(e[4]))
			q[2] = 0.25 * float32(int(a[2])+int(a[5])+int(e[2])+int(e[5]))
		}
	}
}

// observe takes a new frame: b.small must hold it rectified at 2×2 samples
// per block (the detector's low-resolution rectifier writes it).
func (b *background) observe() error {
	nb := b.nb
	px, err := b.small.DataPtrUint8()
	if err != nil {
		return err
	}
	b.prev, b.cur = b.cur, b.prev
	blockMeans(px, nb, b.cur)
	return b.observeMeans()
}

// observeMeans is observe once b.cur holds the new frame's block means
// (and b.prev the last frame's).
func (b *background) observeMeans() error {
	nb := b.nb
	if b.first {
		copy(b.bg, b.cur)
		copy(b.ref, b.cur)
		copy(b.prev, b.cur)
		for i := range b.changed {
			b.changed[i] = true
			b.stable[i] = 4 * stableFrames
		}
		b.first = false
		b.gain = 1
		b.measureBoard()
		return nil
	}
	// the global brightness change against the background: median ratio
	// of the surface blocks' brightness (histogram in steps of 1/256
	// from 0 to 4)
	var rh [1024]int32
	cnt := 0
	for k := 0; k < nb*nb; k += 3 {
		if b.zone[k] != 1 {
			continue
		}
		o := 3 * k
		yb := b.bg[o] + b.bg[o+1] + b.bg[o+2]
		if yb < 30 {
			continue
		}
		q := int((b.cur[o] + b.cur[o+1] + b.cur[o+2]) / yb * 256)
		rh[min(max(q, 0), 1023)]++
		cnt++
	}
	if cnt > 10 {
		acc := 0
		for q, c := range rh {
			acc += int(c)
			if 2*acc >= cnt {
				b.gain = (float64(q) + 0.5) / 256
				break
			}
		}
	}
	inv := float32(1 / math.Max(b.gain, 0.05))
	// frame-to-frame differences, and their typical size (the noise)
	var hist [64]int
	nb2 := nb * nb
	b.blockDiffs(&hist)
	med, acc := 0, 0
	for v, c := range hist {
		acc += c
		if acc*2 >= nb2 {
			med = v
			break
		}
	}
	thr := float32(math.Max(changeThr, 3.5*(float64(med)+0.5)))
	// which blocks changed or drifted, stayed still, differ from the
	// background (bc_changes)
	b.blockChanges(thr, inv)
	b.measureBoard()
	return nil
}

// searched records the blocks of tile (tx, ty) (tile size ts blocks) as
// searched this frame: their drift is measured from now on.
func (b *background) searched(tx, ty, ts int) {
	inv := float32(1 / math.Max(b.gain, 0.05))
	for j := ty * ts; j < min((ty+1)*ts, b.nb); j++ {
		for i := tx * ts; i < min((tx+1)*ts, b.nb); i++ {
			o := 3 * (j*b.nb + i)
			b.ref[o], b.ref[o+1], b.ref[o+2] = b.cur[o]*inv, b.cur[o+1]*inv, b.cur[o+2]*inv
		}
	}
}

// measureBoard finds the board's brightness this frame: the median luma of
// surface blocks that match the background.
func (b *background) measureBoard() {
	b.illumFresh = false
	nb := b.nb
	var hist [256]int
	n := 0
	// the blocks measured and their lumas, for the second pass
	b.lit = b.lit[:0]
	for k := 0; k < nb*nb; k += 2 {
		if b.zone[k] != 1 || b.fg[k] {
			continue
		}
		o := 3 * k
		l := int(0.114*b.cur[o] + 0.587*b.cur[o+1] + 0.299*b.cur[o+2])
		hist[min(max(l, 0), 255)]++
		n++
		b.lit = append(b.lit, litBlock{k: int32(k), l: int32(min(max(l, math.MinInt32), math.MaxInt32))})
	}
	if n == 0 {
		return
	}
	// the upper part of the distribution is the bare wood (the lower holds
	// markings, pieces and shadows): its brightness is the 60th
	// percentile, its colour the mean of the blocks between the 45th and
	// 75th percentiles
	pct := func(q float64) int {
		lim, acc := int(q*float64(n)), 0
		for l, c := range hist {
			acc += c
			if acc > lim {
				return l
			}
		}
		return 255
	}
	lo, hi, mid := pct(0.45), pct(0.75), pct(0.6)
	var s [3]float64
	m := 0
	for _, e := range b.lit {
		if l := int(e.l); l < lo || l > hi {
			continue
		}
		o := 3 * int(e.k)
		for c := 0; c < 3; c++ {
			s[c] += float64(b.cur[o+c])
		}
		m++
	}
	for c := 0; c < 3; c++ {
		b.boardBGR[c] = s[c] / float64(max(m, 1))
	}
	b.boardY = float64(mid) + 0.5
	b.woodLo, b.woodHi = float64(lo), float64(hi)
}

// update lets still blocks into the background (after the hand mask of
// this frame is known: blocks under a hand must stay still longer).
func (b *background) update(hand []bool) {
	inv := float32(1 / math.Max(b.gain, 0.05))
	nn := len(b.stable)
	cur, bg, hand := b.cur[:3*nn], b.bg[:3*nn], hand[:nn]
	for k, st := range b.stable {
		if st < stableFrames || (hand[k] && st < handFrames) {
			continue
		}
		c := cur[3*k : 3*k+3 : 3*k+3]
		g := bg[3*k : 3*k+3 : 3*k+3]
		t0, t1, t2 := c[0]*inv, c[1]*inv, c[2]*inv
		g[0] += 0.25 * (t0 - g[0])
		g[1] += 0.25 * (t1 - g[1])
		g[2] += 0.25 * (t2 - g[2])
	}
}

// stillAt reports whether no block within r of the rectified pixel (x, y)
// changed since the previous frame (in the first frame, all are still).
func (b *background) stillAt(x, y, r float64) bool {
	bs := float64(b.bs)
	i0, i1 := int((x-r)/bs), int((x+r)/bs)
	j0, j1 := int((y-r)/bs), int((y+r)/bs)
	for j := max(j0, 0); j <= min(j1, b.nb-1); j++ {
		for i := max(i0, 0); i <= min(i1, b.nb-1); i++ {
			if b.stable[j*b.nb+i] == 0 {
				return false
			}
		}
	}
	return true
}
