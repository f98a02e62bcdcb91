package vision

import "image"

// tileGrid divides the rectified board into square tiles, the unit of the
// search: each frame the tiles that changed are marked dirty
// ([Detector.changedTiles]) and searched again, in the regions
// [tileGrid.regions] makes of them; the discs of clean tiles are carried
// over.
type tileGrid struct {
	n    int // tiles per side
	px   int // tile size, rectified pixels
	size int // the rectified image's side, pixels
	// dirty marks the tiles searched this frame.
	dirty []bool
	// rects are this frame's regions to search (see regions).
	rects []image.Rectangle
	// scratch
	grown, seen []bool
	queue       []int
}

// tilePx is the tile size, rectified pixels.
const tilePx = 24

func newTileGrid(size, px int) *tileGrid {
	n := (size + px - 1) / px
	return &tileGrid{
		n: n, px: px, size: size,
		dirty: make([]bool, n*n),
		grown: make([]bool, n*n),
		seen:  make([]bool, n*n),
	}
}

// reset marks every tile dirty (full) or clean.
func (t *tileGrid) reset(full bool) {
	for k := range t.dirty {
		t.dirty[k] = full
	}
}

// markRound marks the tiles due for a search this frame whether or not
// they changed, in turn, so that the whole board is searched every
// fullEvery·10 frames.
func (t *tileGrid) markRound(frame, fullEvery int) {
	nn := t.n * t.n
	per := (nn + 10*fullEvery - 1) / (10 * fullEvery)
	start := (frame * per) % nn
	for k := start; k < start+per && k < nn; k++ {
		t.dirty[k] = true
	}
}

// share is the share of the tiles that are dirty.
func (t *tileGrid) share() float64 {
	n := 0
	for _, v := range t.dirty {
		if v {
			n++
		}
	}
	return float64(n) / float64(len(t.dirty))
}

// regions makes the regions to search from the dirty tiles: the dirty
// tiles grown by one tile (the margin an examination reads around a
// disc: edges up to 1.35 striker radii from its centre), as the bounding
// boxes of their 4-connected groups, in rectified pixels (clipped to the
// image). They are kept in rects.
func (t *tileGrid) regions() []image.Rectangle {
	nt := t.n
	for k := range t.grown {
		t.grown[k] = false
	}
	for k, v := range t.dirty {
		if !v {
			continue
		}
		tx, ty := k%nt, k/nt
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if x, y := tx+dx, ty+dy; x >= 0 && y >= 0 && x < nt && y < nt {
					t.grown[y*nt+x] = true
				}
			}
		}
	}
	t.rects = t.rects[:0]
	for k := range t.seen {
		t.seen[k] = false
	}
	for start, v := range t.grown {
		if !v || t.seen[start] {
			continue
		}
		box := image.Rect(start%nt, start/nt, start%nt+1, start/nt+1)
		t.queue = append(t.queue[:0], start)
		t.seen[start] = true
		for q := 0; q < len(t.queue); q++ {
			k := t.queue[q]
			tx, ty := k%nt, k/nt
			box = box.Union(image.Rect(tx, ty, tx+1, ty+1))
			for _, nb := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				x, y := tx+nb[0], ty+nb[1]
				if x < 0 || y < 0 || x >= nt || y >= nt {
					continue
				}
				if kk := y*nt + x; t.grown[kk] && !t.seen[kk] {
					t.seen[kk] = true
					t.queue = append(t.queue, kk)
				}
			}
		}
		t.rects = append(t.rects, image.Rect(box.Min.X*t.px, box.Min.Y*t.px, box.Max.X*t.px, box.Max.Y*t.px).Intersect(image.Rect(0, 0, t.size, t.size)))
	}
	return t.rects
}

// at reports whether the rectified pixel (x, y) lies in a dirty tile
// (outside the grid counts as dirty).
func (t *tileGrid) at(x, y float64) bool {
	tx, ty := int(x+0.5)/t.px, int(y+0.5)/t.px
	if tx < 0 || ty < 0 || tx >= t.n || ty >= t.n {
		return true
	}
	return t.dirty[ty*t.n+tx]
}

// near reports whether a dirty tile lies within m pixels (m < the tile
// size) of the pixel (x, y), in both directions.
func (t *tileGrid) near(x, y, m int) bool {
	n := t.n
	for _, q := range [4][2]int{{x - m, y - m}, {x + m, y - m}, {x - m, y + m}, {x + m, y + m}} {
		tx, ty := min(max(q[0], 0)/t.px, n-1), min(max(q[1], 0)/t.px, n-1)
		if t.dirty[ty*n+tx] {
			return true
		}
	}
	return false
}
