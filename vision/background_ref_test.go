package vision

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// updateRef is background.update as first written (a block and a channel
// at a time): the reference update must match bit for bit.
func (b *background) updateRef(hand []bool) {
	inv := float32(1 / math.Max(b.gain, 0.05))
	for k := range b.stable {
		st := b.stable[k]
		if st < stableFrames || (hand[k] && st < handFrames) {
			continue
		}
		o := 3 * k
		for c := 0; c < 3; c++ {
			t := b.cur[o+c] * inv
			b.bg[o+c] += 0.25 * (t - b.bg[o+c])
		}
	}
}

// TestUpdateMatchesRef: random means, ages, hands and gains.
func TestUpdateMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const nb = 37
	for round := 0; round < 20; round++ {
		a := &background{nb: nb, cur: make([]float32, 3*nb*nb), bg: make([]float32, 3*nb*nb), stable: make([]uint16, nb*nb), gain: 0.02 + 2*rng.Float64()}
		hand := make([]bool, nb*nb)
		for k := range a.cur {
			a.cur[k] = 255 * rng.Float32()
			a.bg[k] = 255 * rng.Float32()
		}
		for k := range a.stable {
			a.stable[k] = []uint16{0, stableFrames - 1, stableFrames, 100, handFrames - 1, handFrames, math.MaxUint16}[rng.Intn(7)]
			hand[k] = rng.Intn(3) == 0
		}
		bg0 := append([]float32(nil), a.bg...)
		b := &background{nb: nb, cur: append([]float32(nil), a.cur...), bg: append([]float32(nil), a.bg...), stable: append([]uint16(nil), a.stable...), gain: a.gain}
		a.update(hand)
		b.updateRef(hand)
		changed := 0
		for k := range a.bg {
			if math.Float32bits(a.bg[k]) != math.Float32bits(b.bg[k]) {
				t.Fatalf("round %d: bg[%d] %v, ref %v", round, k, a.bg[k], b.bg[k])
			}
			if a.bg[k] != bg0[k] {
				changed++
			}
		}
		// both kinds of block: let in, and left alone
		if changed == 0 || changed == len(a.bg) {
			t.Fatalf("round %d: %d of %d values changed", round, changed, len(a.bg))
		}
	}
}

// changesRef is observeMeans' block loops as first written in Go (the
// differences and their histogram, the noise threshold, then changed,
// drift, stable and fg), each product rounded before it is subtracted:
// the reference blockDiffs and blockChanges must match bit for bit. It
// returns the threshold.
func (b *background) changesRef(inv float32) float32 {
	nb := b.nb
	var hist [64]int
	nn := nb * nb
	cur, prev, diff := b.cur[:3*nn], b.prev[:3*nn], b.diff[:nn]
	for k := range diff {
		o := 3 * k
		c, p := cur[o:o+3:o+3], prev[o:o+3:o+3]
		dp := abs32(c[0]-p[0]) + abs32(c[1]-p[1]) + abs32(c[2]-p[2])
		diff[k] = dp
		hist[min(int(dp), 63)]++
	}
	med, acc := 0, 0
	for v, c := range hist {
		acc += c
		if acc*2 >= nb*nb {
			med = v
			break
		}
	}
	thr := float32(math.Max(changeThr, 3.5*(float64(med)+0.5)))
	ref, bg := b.ref[:3*nn], b.bg[:3*nn]
	changed, drift, stable := b.changed[:nn], b.drift[:nn], b.stable[:nn]
	zone, fg := b.zone[:nn], b.fg[:nn]
	for k := range diff {
		o := 3 * k
		// a change is a large difference, or one shared by a neighbour
		// (noise seldom passes the threshold in two blocks side by side)
		dp := diff[k]
		ch := dp > 2.5*thr
		if !ch && dp > thr {
			i, j := k%nb, k/nb
			ch = (i > 0 && diff[k-1] > thr) || (i < nb-1 && diff[k+1] > thr) ||
				(j > 0 && diff[k-nb] > thr) || (j < nb-1 && diff[k+nb] > thr)
		}
		changed[k] = ch
		// drift since the block was last searched (a disc creeping to a
		// halt changes each frame by less than the noise)
		// (float32(): Go may fuse a product into the subtraction that
		// follows, and does on arm64; C does not, on either architecture:
		// the reference is the rounding amd64 gives and the former code
		// gave there)
		c0, c1, c2 := float32(cur[o]*inv), float32(cur[o+1]*inv), float32(cur[o+2]*inv)
		rf := ref[o : o+3 : o+3]
		drift[k] = abs32(c0-rf[0]) + abs32(c1-rf[1]) + abs32(c2-rf[2])
		if ch {
			stable[k] = 0
		} else if stable[k] < math.MaxUint16 {
			stable[k]++
		}
		if zone[k] == 0 {
			fg[k] = false
			continue
		}
		bk := bg[o : o+3 : o+3]
		fg[k] = abs32(c0-bk[0])+abs32(c1-bk[1])+abs32(c2-bk[2]) > fgThr
	}
	for k, dr := range drift {
		if changed[k] || !(dr > thr) {
			continue
		}
		mv := dr > 2.5*thr
		if !mv {
			i, j := k%nb, k/nb
			mv = (i > 0 && drift[k-1] > thr) || (i < nb-1 && drift[k+1] > thr) ||
				(j > 0 && drift[k-nb] > thr) || (j < nb-1 && drift[k+nb] > thr)
		}
		changed[k] = mv
	}
	return thr
}

// randomBlocks is a background of nb×nb blocks with random means (some
// unchanged, some moved a little, some much, a few beside each other),
// references, backgrounds, zones and ages.
func randomBlocks(rng *rand.Rand, nb int) *background {
	nn := nb * nb
	b := &background{nb: nb, cur: make([]float32, 3*nn), prev: make([]float32, 3*nn), bg: make([]float32, 3*nn), ref: make([]float32, 3*nn),
		diff: make([]float32, nn), drift: make([]float32, nn), stable: make([]uint16, nn), zone: make([]uint8, nn), fg: make([]bool, nn), changed: make([]bool, nn)}
	for k := 0; k < nn; k++ {
		big := []float32{0, 0.5, 3, 10, 30, 80}[rng.Intn(6)]
		for c := 0; c < 3; c++ {
			o := 3*k + c
			b.prev[o] = 255 * rng.Float32()
			b.cur[o] = min(max(b.prev[o]+big*(2*rng.Float32()-1), 0), 255)
			b.ref[o] = min(max(b.cur[o]+big*(2*rng.Float32()-1), 0), 255)
			b.bg[o] = 255 * rng.Float32()
			if rng.Intn(2) == 0 {
				b.bg[o] = b.cur[o] + 5*rng.Float32()
			}
		}
		b.stable[k] = []uint16{0, 3, stableFrames, 1000, math.MaxUint16 - 1, math.MaxUint16}[rng.Intn(6)]
		b.zone[k] = uint8(rng.Intn(3))
		b.fg[k] = rng.Intn(2) == 0
		b.changed[k] = rng.Intn(2) == 0
	}
	return b
}

func (b *background) clone() *background {
	c := *b
	c.cur, c.prev, c.bg, c.ref = slices.Clone(b.cur), slices.Clone(b.prev), slices.Clone(b.bg), slices.Clone(b.ref)
	c.diff, c.drift, c.stable, c.zone = slices.Clone(b.diff), slices.Clone(b.drift), slices.Clone(b.stable), slices.Clone(b.zone)
	c.fg, c.changed = slices.Clone(b.fg), slices.Clone(b.changed)
	return &c
}

// TestBlockChangesMatchRef: blockDiffs and blockChanges (C, the vector
// and the plain loop) give what observeMeans' Go loops gave, bit for bit,
// on random blocks at several gains, including blocks at the grid's edges
// and corners.
func TestBlockChangesMatchRef(t *testing.T) {
	defer func(v bool) { changesSIMD = v }(changesSIMD)
	for _, simd := range []bool{true, false} {
		changesSIMD = simd
		testBlockChangesMatchRef(t)
	}
}

func testBlockChangesMatchRef(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	mixed := 0
	for round := 0; round < 24; round++ {
		nb := []int{1, 2, 3, 37, 64, 5}[round%6]
		a := randomBlocks(rng, nb)
		b := a.clone()
		inv := float32(1 / math.Max([]float64{1, 0.7, 1.6, 0.01}[round%4], 0.05))
		want := b.changesRef(inv)
		var hist [64]int
		a.blockDiffs(&hist)
		med, acc := 0, 0
		for v, c := range hist {
			acc += c
			if acc*2 >= nb*nb {
				med = v
				break
			}
		}
		thr := float32(math.Max(changeThr, 3.5*(float64(med)+0.5)))
		if thr != want {
			t.Fatalf("round %d: threshold %v, ref %v", round, thr, want)
		}
		a.blockChanges(thr, inv)
		var ch, fg, still int
		for k := range a.diff {
			if math.Float32bits(a.diff[k]) != math.Float32bits(b.diff[k]) || math.Float32bits(a.drift[k]) != math.Float32bits(b.drift[k]) ||
				a.changed[k] != b.changed[k] || a.stable[k] != b.stable[k] || a.fg[k] != b.fg[k] {
				t.Fatalf("simd %v round %d nb %d block %d: diff %v drift %v changed %v stable %d fg %v; ref %v %v %v %d %v", changesSIMD, round, nb, k,
					a.diff[k], a.drift[k], a.changed[k], a.stable[k], a.fg[k], b.diff[k], b.drift[k], b.changed[k], b.stable[k], b.fg[k])
			}
			if a.changed[k] {
				ch++
			}
			if a.fg[k] {
				fg++
			}
			if a.stable[k] > 0 {
				still++
			}
		}
		if ch > 0 && ch < nb*nb && fg > 0 && fg < nb*nb && still > 0 {
			mixed++
		}
	}
	// rounds where blocks of every kind were there
	if mixed < 3 {
		t.Fatalf("only %d rounds with changed and unchanged, foreground and background blocks", mixed)
	}
}
