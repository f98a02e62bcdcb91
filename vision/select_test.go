package vision

import (
	"math/rand"
	"sort"
	"testing"
)

// kth and median give what a sort would.
func TestKthMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for it := 0; it < 20000; it++ {
		n := 1 + rng.Intn(200)
		v := make([]float64, n)
		q := 1 + rng.Intn(50)
		for i := range v {
			v[i] = float64(rng.Intn(q)) * 0.37
			if it%3 == 0 {
				v[i] = rng.Float64()
			}
			if it%7 == 0 {
				v[i] = float64(i)
			}
			if it%11 == 0 {
				v[i] = float64(n - i)
			}
		}
		w := append([]float64(nil), v...)
		sort.Float64s(w)
		k := rng.Intn(n)
		u := append([]float64(nil), v...)
		if got := kth(u, k); got != w[k] {
			t.Fatalf("kth %v", v)
		}
		u = append([]float64(nil), v...)
		m := n / 2
		want := w[m]
		if n%2 == 0 {
			want = (w[m-1] + w[m]) / 2
		}
		if got := median(u); got != want {
			t.Fatalf("median %v", v)
		}
	}
}

// medianIn's histogram gives the value a sort puts at n/2.
func TestMedianInMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	p := plane{w: 40, h: 30, pix: make([]uint8, 40*30*3)}
	var h [3][256]int32
	for it := 0; it < 3000; it++ {
		for i := range p.pix {
			p.pix[i] = uint8(rng.Intn(1 + rng.Intn(256)))
		}
		x, y, r := rng.Float64()*50-5, rng.Float64()*40-5, rng.Float64()*8
		var buf [3][]float64
		r2 := r * r
		for j := 0; j < p.h; j++ {
			for i := 0; i < p.w; i++ {
				dx, dy := float64(i)-x, float64(j)-y
				if dx*dx+dy*dy > r2 || float64(i) < x-r || float64(i) > x+r || float64(j) < y-r || float64(j) > y+r {
					continue
				}
				o := 3 * (j*p.w + i)
				for c := 0; c < 3; c++ {
					buf[c] = append(buf[c], float64(p.pix[o+c]))
				}
			}
		}
		var want [3]float64
		for c := 0; c < 3; c++ {
			sort.Float64s(buf[c])
			if n := len(buf[c]); n > 0 {
				want[c] = buf[c][n/2]
			}
		}
		if got := p.medianIn(x, y, r, &h); got != want {
			t.Fatalf("medianIn %v want %v", got, want)
		}
	}
}
