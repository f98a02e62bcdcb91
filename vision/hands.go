package vision

import (
	"math"
	"sync"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/sight"
)

// handStage is the hand masking of the detector, a stage of its own: from
// the blocks that differ from the background model (background.fg) it
// finds the hands and arms over the board — connected foreign regions of
// at least handMinArea that reach the frame around the playing surface
// (arms come in from outside) — and keeps their mask, in the background's
// blocks, grown by one block for a hand's soft edge and shadow.
//
// The detector runs it twice a frame: before the search, without the
// blocks on the discs of the last frame, and, when a hand was found, again
// after it without the discs just found (a disc the hand moved is not the
// hand). The search reads the mask ([handStage.at]) to examine discs
// partly under a hand; the frame's [Occlusion] is a copy of it
// ([handStage.occlusion]), which also gives each region's outline in the
// image ([sight.HandRegions]).
type handStage struct {
	nb    int     // blocks per side
	bs    int     // block size, rectified pixels
	mmPer float64 // block size, mm
	// edge marks the blocks where an arm comes in: the margin and the
	// surface within edgeBand of its edge (the background's).
	edge []bool
	// on: a hand was found this frame; mask is its blocks, was the mask
	// of the previous frame.
	on   bool
	mask []bool
	was  []bool
	// scratch
	label []int32
	queue []int32
	grown []bool
}

// handMinArea is the least area (mm²) of a foreign region that is a hand
// or an arm.
const handMinArea = 2000

func newHandStage(bg *background) *handStage {
	n := bg.nb * bg.nb
	return &handStage{
		nb: bg.nb, bs: bg.bs, mmPer: bg.mmPer, edge: bg.edge,
		mask:  make([]bool, n),
		was:   make([]bool, n),
		label: make([]int32, n),
		grown: make([]bool, n),
	}
}

// find marks as hand the connected foreign regions of fg that are at
// least minArea (mm²) and reach the frame around the surface, ignoring
// blocks explained by the discs found (covered(i, j)), and reports
// whether there was one.
func (h *handStage) find(fg []bool, covered func(i, j int) bool, minArea float64) bool {
	nb := h.nb
	nn := nb * nb
	fg = fg[:nn]
	clear(h.label)
	var any bool
	var next int32
	minBlocks := int(minArea / (h.mmPer * h.mmPer))
	clear(h.mask)
	// (the foreign blocks in order, the others skipped eight at a time)
	for start := nextSet(fg, 0); start < nn; start = nextSet(fg, start+1) {
		if h.label[start] != 0 || covered(start%nb, start/nb) {
			continue
		}
		next++
		h.queue = append(h.queue[:0], int32(start))
		h.label[start] = next
		reachesFrame := false
		for q := 0; q < len(h.queue); q++ {
			k := int(h.queue[q])
			if h.edge[k] {
				reachesFrame = true
			}
			i, j := k%nb, k/nb
			for dj := -1; dj <= 1; dj++ {
				for di := -1; di <= 1; di++ {
					ii, jj := i+di, j+dj
					if ii < 0 || jj < 0 || ii >= nb || jj >= nb {
						continue
					}
					kk := jj*nb + ii
					if h.label[kk] != 0 || !fg[kk] || covered(ii, jj) {
						continue
					}
					h.label[kk] = next
					h.queue = append(h.queue, int32(kk))
				}
			}
		}
		if len(h.queue) >= minBlocks && reachesFrame {
			any = true
			for _, k := range h.queue {
				h.mask[k] = true
			}
		}
	}
	h.on = any
	if !any {
		return false
	}
	// grow the mask by one block: a hand's soft edge and shadow
	grown := h.grown
	copy(grown, h.mask)
	for k := nextSet(grown[:nn], 0); k < nn; k = nextSet(grown[:nn], k+1) {
		i, j := k%nb, k/nb
		for dj := -1; dj <= 1; dj++ {
			for di := -1; di <= 1; di++ {
				ii, jj := i+di, j+dj
				if ii >= 0 && jj >= 0 && ii < nb && jj < nb {
					h.mask[jj*nb+ii] = true
				}
			}
		}
	}
	return true
}

// at reports whether the rectified pixel (x, y) lies under a hand.
func (h *handStage) at(x, y float64) bool {
	i, j := int(x+0.5)/h.bs, int(y+0.5)/h.bs
	if i < 0 || j < 0 || i >= h.nb || j >= h.nb {
		return false
	}
	return h.mask[j*h.nb+i]
}

// changed reports whether block k was hidden or uncovered by a hand since
// the last frame.
func (h *handStage) changed(k int) bool { return h.mask[k] != h.was[k] }

// endFrame keeps this frame's mask as the last frame's.
func (h *handStage) endFrame() { copy(h.was, h.mask) }

// occlusion returns this frame's mask as the frame's Occlusion; v places
// it on the board and in the image.
func (h *handStage) occlusion(v *view) *handMask {
	m := &handMask{nb: h.nb, bs: h.mmPer, mask: append([]bool(nil), h.mask...), v: v, bsPx: h.bs}
	// block (i, j) covers rectified pixels [i·bs, (i+1)·bs); pixel x is at
	// (x − c)/ppm mm
	m.ext = (-0.5 - v.c) / v.ppm
	return m
}

// handMask is the Occlusion of one frame: the hand mask in blocks of the
// rectified board. It implements sight.HandRegions.
type handMask struct {
	nb   int
	bs   float64 // block size, mm
	ext  float64 // the mask's origin: board mm of block (0, 0)'s corner
	mask []bool
	v    *view // to place the outlines in the image (nil in tests of Hidden)
	bsPx int   // block size, rectified pixels
}

var _ sight.HandRegions = (*handMask)(nil)

var _ sight.OcclusionReach = (*handMask)(nil)

// ReachMM implements sight.OcclusionReach: the mask is grown by one block
// beyond the blocks found foreign, and a block is found foreign when part
// of it (about half, on a light surface) is covered: a hidden point may
// lie up to about a block and a half outside the hand.
func (m *handMask) ReachMM() float64 { return handReachBlocks * m.bs }

// handReachBlocks is how far, in blocks, the mask may reach beyond the
// hand (see ReachMM).
const handReachBlocks = 1.5

// Hidden implements Occlusion: the share of the disc (c, r) covered by a
// hand, sampled at its centre and on two rings.
func (m *handMask) Hidden(c board.Vec, r float64) float64 {
	n, hit := 0, 0
	test := func(p board.Vec) {
		n++
		i := int(math.Floor((p.X - m.ext) / m.bs))
		j := int(math.Floor((p.Y - m.ext) / m.bs))
		if i >= 0 && j >= 0 && i < m.nb && j < m.nb && m.mask[j*m.nb+i] {
			hit++
		}
	}
	test(c)
	for _, f := range []float64{0.5, 0.9} {
		for k := 0; k < 12; k++ {
			a := 2 * math.Pi * (float64(k) + f) / 12
			test(c.Add(board.Vec{X: math.Cos(a), Y: math.Sin(a)}.Scale(f * r)))
		}
	}
	return float64(hit) / float64(n)
}

// HandRegions implements sight.HandRegions: each connected region of the
// mask (8-connected, as the hand stage joins blocks) with its outer
// outline in the image and its area.
func (m *handMask) HandRegions() []sight.HandRegion {
	var out []sight.HandRegion
	for _, reg := range maskRegions(m.mask, m.nb) {
		hr := sight.HandRegion{AreaMM2: float64(reg.blocks) * m.bs * m.bs}
		for _, p := range reg.outline {
			// corner (i, j) of the block grid is rectified pixel
			// (i·bs − 0.5, j·bs − 0.5)
			mm := board.Vec{X: m.ext + float64(p[0])*m.bs, Y: m.ext + float64(p[1])*m.bs}
			if m.v == nil {
				hr.Outline = append(hr.Outline, [2]float64{mm.X, mm.Y})
				continue
			}
			u := m.v.imageOf(mm)
			hr.Outline = append(hr.Outline, [2]float64{u.X, u.Y})
		}
		out = append(out, hr)
	}
	return out
}

// maskRegion is one connected region of a block mask: its number of
// blocks and its outer outline, the corners of the block grid (corner
// (i, j) is block (i, j)'s top-left) where the boundary turns, in order.
type maskRegion struct {
	blocks  int
	outline [][2]int
}

// labelScratch holds maskRegions' label arrays between calls (*[]int32;
// HandRegions may be called from any goroutine).
var labelScratch sync.Pool

// maskRegions returns the 8-connected regions of the nb×nb mask with their
// outer outlines (the boundary loop enclosing the most area; holes are
// left out), in the order of their first block.
func maskRegions(mask []bool, nb int) []maskRegion {
	// The labels are scratch: a frame's hand outlines are asked for at
	// every frame the evidence keeps, and a new array each time made a
	// quarter of the daemon's Go allocations (docs/memory.md).
	lp, _ := labelScratch.Get().(*[]int32)
	if lp == nil || cap(*lp) < len(mask) {
		lp = new([]int32)
		*lp = make([]int32, len(mask))
	}
	defer labelScratch.Put(lp)
	label := (*lp)[:len(mask)]
	clear(label)
	var regs []maskRegion
	var queue []int
	for start, on := range mask {
		if !on || label[start] != 0 {
			continue
		}
		id := int32(len(regs) + 1)
		label[start] = id
		queue = append(queue[:0], start)
		for q := 0; q < len(queue); q++ {
			k := queue[q]
			i, j := k%nb, k/nb
			for dj := -1; dj <= 1; dj++ {
				for di := -1; di <= 1; di++ {
					ii, jj := i+di, j+dj
					if ii < 0 || jj < 0 || ii >= nb || jj >= nb {
						continue
					}
					if kk := jj*nb + ii; mask[kk] && label[kk] == 0 {
						label[kk] = id
						queue = append(queue, kk)
					}
				}
			}
		}
		regs = append(regs, maskRegion{blocks: len(queue), outline: outerOutline(label, nb, id)})
	}
	return regs
}

// outerOutline traces the boundary of the blocks labelled id: the block
// edges between a block of the region and one outside, each directed with
// the region on its right (clockwise on screen, y down), chained into
// loops at the grid's corners; where two blocks of the region touch only
// at a corner the boundary keeps them together. The loop enclosing the most area is the outer outline; only
// the corners where it turns are kept.
func outerOutline(label []int32, nb int, id int32) [][2]int {
	in := func(i, j int) bool { return i >= 0 && j >= 0 && i < nb && j < nb && label[j*nb+i] == id }
	// next[corner] lists the directed edges leaving a corner, as
	// direction indices: 0 right, 1 down, 2 left, 3 up.
	type corner struct{ x, y int }
	dirs := [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}
	out := map[corner][]int{}
	n := 0
	for k, l := range label {
		if l != id {
			continue
		}
		i, j := k%nb, k/nb
		// region on the right of each edge walking clockwise around the
		// block: top edge left→right, right edge top→bottom, bottom edge
		// right→left, left edge bottom→top
		if !in(i, j-1) {
			out[corner{i, j}] = append(out[corner{i, j}], 0)
			n++
		}
		if !in(i+1, j) {
			out[corner{i + 1, j}] = append(out[corner{i + 1, j}], 1)
			n++
		}
		if !in(i, j+1) {
			out[corner{i + 1, j + 1}] = append(out[corner{i + 1, j + 1}], 2)
			n++
		}
		if !in(i-1, j) {
			out[corner{i, j + 1}] = append(out[corner{i, j + 1}], 3)
			n++
		}
	}
	var best [][2]int
	bestArea := math.Inf(-1)
	for len(out) > 0 {
		// start at the top-left-most corner left, for a stable order
		var s corner
		first := true
		for c := range out {
			if first || c.y < s.y || (c.y == s.y && c.x < s.x) {
				s, first = c, false
			}
		}
		var loop [][2]int
		c, prev := s, -1
		for {
			es := out[c]
			if len(es) == 0 {
				break
			}
			pick := 0
			if len(es) > 1 && prev >= 0 {
				// two edges leave a corner where two blocks of the
				// region meet diagonally: turning left goes on to the
				// other block, keeping them together
				for q, e := range es {
					if e == (prev+3)%4 {
						pick = q
					}
				}
			}
			e := es[pick]
			es = append(es[:pick], es[pick+1:]...)
			if len(es) == 0 {
				delete(out, c)
			} else {
				out[c] = es
			}
			if e != prev {
				loop = append(loop, [2]int{c.x, c.y})
			}
			prev = e
			c = corner{c.x + dirs[e][0], c.y + dirs[e][1]}
		}
		// the loop's start may lie on a straight stretch
		if len(loop) > 2 {
			a, b, z := loop[0], loop[1], loop[len(loop)-1]
			if (a[0] == b[0] && a[0] == z[0]) || (a[1] == b[1] && a[1] == z[1]) {
				loop = loop[1:]
			}
		}
		if area := polygonArea(loop); area > bestArea {
			best, bestArea = loop, area
		}
	}
	return best
}

// polygonArea is the signed area of a closed polygon (positive clockwise
// on screen, y down).
func polygonArea(p [][2]int) float64 {
	s := 0
	for k := range p {
		a, b := p[k], p[(k+1)%len(p)]
		s += a[0]*b[1] - b[0]*a[1]
	}
	return float64(s) / 2
}
