package vision

import (
	"math"
	"math/rand"
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
