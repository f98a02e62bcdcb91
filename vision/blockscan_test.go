package vision

import (
	"math/rand"
	"slices"
	"testing"
)

// TestNextSetIsPlainScan: nextSet finds what a plain loop finds, from
// every start, on masks of every length around the eight-at-a-time
// steps and of every density.
func TestNextSetIsPlainScan(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	plain := func(b []bool, k int) int {
		for k = max(k, 0); k < len(b); k++ {
			if b[k] {
				return k
			}
		}
		return len(b)
	}
	for n := 0; n < 70; n++ {
		for _, density := range []float64{0, 0.02, 0.2, 0.7, 1} {
			b := make([]bool, n)
			for k := range b {
				b[k] = rng.Float64() < density
			}
			for k := -2; k <= n+2; k++ {
				if got, want := nextSet(b, k), plain(b, k); got != want {
					t.Fatalf("n %d density %v: nextSet(%d) = %d, want %d", n, density, k, got, want)
				}
			}
		}
	}
	// a slice of a larger mask: nothing past its end is read as set
	big := make([]bool, 64)
	big[20] = true
	if got := nextSet(big[:20], 0); got != 20 {
		t.Fatalf("nextSet of a slice reads past its end: %d", got)
	}
}

// findRef is handStage.find as it was before it skipped the blocks that
// are not foreign eight at a time (a verbatim copy, the reference
// TestHandFindMatchesRef holds it to).
func (h *handStage) findRef(fg []bool, covered func(i, j int) bool, minArea float64) bool {
	nb := h.nb
	for k := range h.label {
		h.label[k] = 0
	}
	var any bool
	var next int32
	minBlocks := int(minArea / (h.mmPer * h.mmPer))
	for k := range h.mask {
		h.mask[k] = false
	}
	for start := 0; start < nb*nb; start++ {
		if !fg[start] || h.label[start] != 0 || covered(start%nb, start/nb) {
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
	for k := 0; k < nb*nb; k++ {
		if !grown[k] {
			continue
		}
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

// TestHandFindMatchesRef: random foreign blocks (scattered and in
// blobs), frame edges and covered blocks; the same labels, mask and
// answer as the former loop, with the calls to covered in the same order.
func TestHandFindMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	hands := 0
	for round := 0; round < 200; round++ {
		nb := 5 + rng.Intn(60)
		nn := nb * nb
		fg, edge, cov := make([]bool, nn), make([]bool, nn), make([]bool, nn)
		density := []float64{0, 0.01, 0.1, 0.5, 0.9}[rng.Intn(5)]
		for k := range fg {
			fg[k] = rng.Float64() < density
			cov[k] = rng.Intn(6) == 0
			i, j := k%nb, k/nb
			edge[k] = i < 2 || j < 2 || i >= nb-2 || j >= nb-2
		}
		for b := rng.Intn(4); b > 0; b-- { // blobs
			ci, cj, r := rng.Intn(nb), rng.Intn(nb), 1+rng.Intn(6)
			for j := max(cj-r, 0); j < min(cj+r, nb); j++ {
				for i := max(ci-r, 0); i < min(ci+r, nb); i++ {
					fg[j*nb+i] = true
				}
			}
		}
		mk := func() *handStage {
			return &handStage{nb: nb, bs: 4, mmPer: 2 + 6*rng.Float64(), edge: edge,
				mask: make([]bool, nn), was: make([]bool, nn), label: make([]int32, nn), grown: make([]bool, nn)}
		}
		a := mk()
		b := mk()
		b.mmPer = a.mmPer
		// stale contents the call must clear
		for k := range a.mask {
			a.mask[k], b.mask[k] = rng.Intn(2) == 0, rng.Intn(2) == 0
			a.label[k], b.label[k] = rng.Int31(), rng.Int31()
		}
		var callsA, callsB []int
		covA := func(i, j int) bool { callsA = append(callsA, j*nb+i); return cov[j*nb+i] }
		covB := func(i, j int) bool { callsB = append(callsB, j*nb+i); return cov[j*nb+i] }
		minArea := []float64{0, 50, 2000, 1e5}[rng.Intn(4)]
		ra, rb := a.find(fg, covA, minArea), b.findRef(fg, covB, minArea)
		if ra != rb || a.on != b.on || !slices.Equal(a.mask, b.mask) || !slices.Equal(a.label, b.label) || !slices.Equal(callsA, callsB) {
			t.Fatalf("round %d (nb %d, density %v): find %v, ref %v; masks equal %v, labels equal %v, covered calls equal %v",
				round, nb, density, ra, rb, slices.Equal(a.mask, b.mask), slices.Equal(a.label, b.label), slices.Equal(callsA, callsB))
		}
		if ra {
			hands++
		}
	}
	if hands < 20 || hands > 180 {
		t.Fatalf("%d of 200 rounds found a hand: the cases do not cover both answers", hands)
	}
}

// changedTilesRef is Detector.changedTiles' block loop as it was before
// it went row by row (a verbatim copy of the loop, the reference
// TestChangedTilesMatchesRef holds it to).
func (d *Detector) changedTilesRef(full bool) {
	t := d.grid
	t.reset(full)
	if full {
		return
	}
	tpb := t.px / d.bg.bs
	nb := d.bg.nb
	for k, ch := range d.bg.changed {
		st := d.bg.stable[k]
		if ch || st == settleFrames || st == stableFrames+2 || d.hands.changed(k) {
			t.dirty[(k/nb/tpb)*t.n+(k%nb)/tpb] = true
		}
	}
	t.markRound(d.frames, d.cfg.FullEvery)
}

// TestChangedTilesMatchesRef: random changed blocks, ages and hand masks
// on boards whose side is and is not a whole number of tiles.
func TestChangedTilesMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for round := 0; round < 100; round++ {
		bs := []int{2, 4, 6}[rng.Intn(3)]
		nb := 10 + rng.Intn(120)
		nn := nb * nb
		bg := &background{nb: nb, bs: bs, changed: make([]bool, nn), stable: make([]uint16, nn)}
		h := &handStage{nb: nb, bs: bs, mask: make([]bool, nn), was: make([]bool, nn)}
		density := []float64{0, 0.001, 0.01, 0.3}[rng.Intn(4)]
		for k := 0; k < nn; k++ {
			bg.changed[k] = rng.Float64() < density
			bg.stable[k] = []uint16{0, settleFrames, stableFrames, stableFrames + 2, 100}[rng.Intn(5)]
			if rng.Float64() < 0.7 {
				bg.stable[k] = 50
			}
			h.mask[k] = rng.Float64() < density
			h.was[k] = rng.Float64() < density
		}
		frames, full := rng.Intn(1000), rng.Intn(10) == 0
		mk := func() *Detector {
			return &Detector{bg: bg, hands: h, grid: newTileGrid(nb*bs, tilePx), frames: frames, cfg: Config{FullEvery: 1 + rng.Intn(20)}}
		}
		a, b := mk(), mk()
		b.cfg = a.cfg
		a.changedTiles(full)
		b.changedTilesRef(full)
		if !slices.Equal(a.grid.dirty, b.grid.dirty) {
			t.Fatalf("round %d (nb %d, bs %d): dirty tiles differ", round, nb, bs)
		}
	}
}
