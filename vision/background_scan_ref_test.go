package vision

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// illuminationRef is background.illumination as it was before the cells'
// percentiles were taken in one C pass (a verbatim copy, the reference
// TestIlluminationMatchesRef holds it to).
func (b *background) illuminationRef() {
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
	lumas := b.lumas
	for cj := 0; cj < nc; cj++ {
		for ci := 0; ci < nc; ci++ {
			lumas = lumas[:0]
			for j := cj * illumCell; j < min((cj+1)*illumCell, nb); j++ {
				for i := ci * illumCell; i < min((ci+1)*illumCell, nb); i++ {
					k := j*nb + i
					if b.zone[k] != 1 || b.fg[k] || b.covered[k] {
						continue
					}
					o := 3 * k
					lumas = append(lumas, 0.114*float64(b.cur[o])+0.587*float64(b.cur[o+1])+0.299*float64(b.cur[o+2]))
				}
			}
			v := -1.0
			if len(lumas) >= illumCell*illumCell/4 {
				v = kthShort(lumas, len(lumas)*6/10)
			}
			b.illum[cj*nc+ci] = v
		}
	}
	b.lumas = lumas
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

// TestKthCellsIsKthShort: each cell's value is kthShort's (bit for bit),
// −1 below the least count, on cells of every count up to 64 with values
// spread out, tied and bunched.
func TestKthCellsIsKthShort(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	const per, nc = 64, 500
	v, cnt, out := make([]float64, per*nc), make([]int32, nc), make([]float64, nc)
	for c := range cnt {
		cnt[c] = int32(rng.Intn(per + 1))
		if c < 65 {
			cnt[c] = int32(c % (per + 1))
		}
		for k := 0; k < int(cnt[c]); k++ {
			switch c % 3 {
			case 0:
				v[per*c+k] = rng.Float64() * 256
			case 1:
				v[per*c+k] = float64(rng.Intn(6)) * 0.25 // ties
			default:
				v[per*c+k] = 100 + rng.Float64()*3
			}
		}
	}
	orig := slices.Clone(v)
	kthCells(v, cnt, 16, out)
	for c, n := range cnt {
		want := -1.0
		if n >= 16 {
			want = kthShort(slices.Clone(orig[per*c:per*c+int(n)]), int(n)*6/10)
		}
		if math.Float64bits(out[c]) != math.Float64bits(want) {
			t.Fatalf("cell %d (%d values): %v, kthShort %v", c, n, out[c], want)
		}
	}
}

// TestIlluminationMatchesRef: random block means (with ties), zones,
// foreign and covered blocks, on boards whose side is and is not a whole
// number of cells; the grid must equal the former code's bit for bit.
func TestIlluminationMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	gaps := 0
	for round := 0; round < 60; round++ {
		nb := 8 + rng.Intn(200)
		nn := nb * nb
		a := &background{nb: nb, bs: 4, cur: make([]float32, 3*nn), zone: make([]uint8, nn), fg: make([]bool, nn), covered: make([]bool, nn),
			boardY: 50 + 150*rng.Float64()}
		pFg := []float64{0, 0.1, 0.5, 0.9}[rng.Intn(4)]
		for k := 0; k < nn; k++ {
			for c := 0; c < 3; c++ {
				if round%2 == 0 {
					a.cur[3*k+c] = float32(rng.Intn(1021)) * 0.25
				} else {
					a.cur[3*k+c] = 120 + float32(rng.Intn(9))*0.25
				}
			}
			a.zone[k] = uint8(rng.Intn(3))
			if rng.Intn(4) != 0 {
				a.zone[k] = 1
			}
			a.fg[k] = rng.Float64() < pFg
			a.covered[k] = rng.Intn(8) == 0
		}
		b := &background{nb: nb, bs: 4, cur: slices.Clone(a.cur), zone: slices.Clone(a.zone), fg: slices.Clone(a.fg), covered: slices.Clone(a.covered), boardY: a.boardY}
		for twice := 0; twice < 2; twice++ { // and again with the scratch kept
			a.illumFresh, b.illumFresh = false, false
			a.illumination()
			b.illuminationRef()
			if a.illumN != b.illumN || len(a.illum) != len(b.illum) {
				t.Fatalf("round %d: grid %d, ref %d", round, a.illumN, b.illumN)
			}
			for k := range a.illum {
				if math.Float64bits(a.illum[k]) != math.Float64bits(b.illum[k]) {
					t.Fatalf("round %d (nb %d): cell %d %v, ref %v", round, nb, k, a.illum[k], b.illum[k])
				}
				if a.illum[k] == a.boardY {
					gaps++
				}
			}
			for k := range a.fg {
				a.fg[k] = rng.Float64() < pFg
				b.fg[k] = a.fg[k]
			}
		}
	}
	if gaps == 0 {
		t.Fatal("no cell fell back to boardY: the cases miss the empty cells")
	}
}

// measureBoardRef is background.measureBoard as it was before its second
// pass read the lumas the first had measured (a verbatim copy, the
// reference TestMeasureBoardMatchesRef holds it to).
func (b *background) measureBoardRef() {
	b.illumFresh = false
	nb := b.nb
	var hist [256]int
	n := 0
	for k := 0; k < nb*nb; k += 2 {
		if b.zone[k] != 1 || b.fg[k] {
			continue
		}
		o := 3 * k
		l := int(0.114*b.cur[o] + 0.587*b.cur[o+1] + 0.299*b.cur[o+2])
		hist[min(max(l, 0), 255)]++
		n++
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
	for k := 0; k < nb*nb; k += 2 {
		if b.zone[k] != 1 || b.fg[k] {
			continue
		}
		o := 3 * k
		l := int(0.114*b.cur[o] + 0.587*b.cur[o+1] + 0.299*b.cur[o+2])
		if l < lo || l > hi {
			continue
		}
		for c := 0; c < 3; c++ {
			s[c] += float64(b.cur[o+c])
		}
		m++
	}
	for c := 0; c < 3; c++ {
		b.boardBGR[c] = s[c] / float64(max(m, 1))
	}
	b.boardY = float64(mid) + 0.5
}

// TestMeasureBoardMatchesRef: random block means (spread and bunched),
// zones and foreign blocks; the board's brightness and colour must equal
// the former code's bit for bit.
func TestMeasureBoardMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	for round := 0; round < 100; round++ {
		nb := 1 + rng.Intn(150)
		nn := nb * nb
		a := &background{nb: nb, cur: make([]float32, 3*nn), zone: make([]uint8, nn), fg: make([]bool, nn), boardY: -1}
		pFg := []float64{0, 0.2, 0.9, 1}[rng.Intn(4)]
		for k := 0; k < nn; k++ {
			for c := 0; c < 3; c++ {
				if round%2 == 0 {
					a.cur[3*k+c] = float32(rng.Intn(1021)) * 0.25
				} else {
					a.cur[3*k+c] = 150 + float32(rng.Intn(41))*0.25
				}
			}
			a.zone[k] = uint8(rng.Intn(3))
			if rng.Intn(3) != 0 {
				a.zone[k] = 1
			}
			a.fg[k] = rng.Float64() < pFg
		}
		b := &background{nb: nb, cur: slices.Clone(a.cur), zone: slices.Clone(a.zone), fg: slices.Clone(a.fg), boardY: -1}
		a.measureBoard()
		b.measureBoardRef()
		if math.Float64bits(a.boardY) != math.Float64bits(b.boardY) {
			t.Fatalf("round %d: boardY %v, ref %v", round, a.boardY, b.boardY)
		}
		for c := 0; c < 3; c++ {
			if math.Float64bits(a.boardBGR[c]) != math.Float64bits(b.boardBGR[c]) {
				t.Fatalf("round %d: boardBGR %v, ref %v", round, a.boardBGR, b.boardBGR)
			}
		}
	}
}
