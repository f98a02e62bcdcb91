package vision

import (
	"image"
	"math"
	"math/rand"
	"testing"
)

// streakMaskRef is streakMask as it was before its loop counted the hand's
// blocks along the row and kept the places left that reach the row (a
// verbatim copy, the reference TestStreakMaskMatchesRef holds it to).
func (d *Detector) streakMaskRef(pl plane, x0, y0, x1, y1 int) {
	st := &d.streak
	n := d.v.n
	gain := float32(d.bg.gain)
	// gone: p's place lies in the box and no accepted disc stands there now.
	gone := func(p disc) bool {
		if p.x < float64(x0)-p.r || p.x > float64(x1)+p.r || p.y < float64(y0)-p.r || p.y > float64(y1)+p.r {
			return false
		}
		for _, c := range d.accepted {
			if math.Hypot(c.x-p.x, c.y-p.y) < 0.5*p.r {
				return false
			}
		}
		return true
	}
	// the places just left
	st.left = st.left[:0]
	for _, p := range d.prev {
		if p.streak || p.still < 2 && !st.whole {
			continue // moving: its place is not in the still picture
		}
		if gone(p) {
			st.left = append(st.left, p)
		}
	}
	// and the places of the discs the still picture holds that are gone
	// (left while the picture was not taken again: at a break, from the
	// centre's printed design)
	for _, p := range st.held {
		if gone(p) {
			st.left = append(st.left, p)
		}
	}
	boardY := math.Max(d.bg.boardY, 1)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			k := y*n + x
			st.mask[k] = 0
			st.label[k] = 0
			if d.hands.at(float64(x), float64(y)) {
				continue
			}
			o := 3 * k
			c := pl.pix[o : o+3 : o+3]
			s := st.still[o : o+3 : o+3]
			ds := abs32(float32(c[0])-gain*float32(s[0])) + abs32(float32(c[1])-gain*float32(s[1])) + abs32(float32(c[2])-gain*float32(s[2]))
			if ds < streakThr {
				continue
			}
			// (The bare board now: a place something left — the still
			// picture held it.)
			f := float32(d.bg.illumAt(float64(x), float64(y)) / boardY)
			b := d.bg.boardBGR
			db := abs32(float32(c[0])-f*float32(b[0])) + abs32(float32(c[1])-f*float32(b[1])) + abs32(float32(c[2])-f*float32(b[2]))
			if db < streakThr {
				continue
			}
			left := false
			for _, p := range st.left {
				if dx, dy := float64(x)-p.x, float64(y)-p.y; dx*dx+dy*dy <= sq(p.r+1.5) {
					left = true
					break
				}
			}
			if !left {
				st.mask[k] = 1
			}
		}
	}
}

// TestStreakMaskMatchesRef: streakMask marks and clears the same pixels
// as the former loop, on the detector's state after frames of the break
// and arm-foul clips (streaks, hands), over the whole board and boxes on
// its edges, and with hands and places left added: blocks of a hand
// (the mask's last row and column among them) and discs held by the still
// picture that are gone (their places reach boxes' edges).
func TestStreakMaskMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var marked, hand, left, checked int
	detectCorpusFrames(t, []string{"break", "arm-foul"}, 24, func(det *Detector, clip string, i int) {
		st := &det.streak
		if !st.have || i%4 != 0 {
			return
		}
		n := det.v.n
		pl := det.plane()
		// the state to restore afterwards
		held := append([]disc(nil), st.held...)
		mask := append([]bool(nil), det.hands.mask...)
		defer func() {
			st.held = held
			copy(det.hands.mask, mask)
		}()
		nb := det.hands.nb
		for v := 0; v < 3; v++ {
			if v > 0 {
				// hands: random blocks and the last row and column
				for k := range det.hands.mask {
					det.hands.mask[k] = mask[k] || rng.Intn(40) == 0 || (v == 2 && (k%nb == nb-1 || k/nb == nb-1))
				}
				// places left: discs the still picture holds where none is
				st.held = append(st.held[:0], held...)
				for j := 0; j < 12; j++ {
					st.held = append(st.held, disc{x: rng.Float64()*float64(n+40) - 20, y: rng.Float64()*float64(n+40) - 20, r: 5 + 20*rng.Float64()})
				}
			}
			boxes := []image.Rectangle{image.Rect(0, 0, n, n), image.Rect(0, 0, 37, 53), image.Rect(n-41, n-29, n, n)}
			for j := 0; j < 4; j++ {
				x, y := rng.Intn(n-100), rng.Intn(n-100)
				boxes = append(boxes, image.Rect(x, y, x+1+rng.Intn(100), y+1+rng.Intn(100)))
			}
			for _, b := range boxes {
				// both start from marks left by another box; what they
				// write is compared two pixels around the box (nothing
				// outside it may change)
				around := b.Inset(-2).Intersect(image.Rect(0, 0, n, n))
				reset := func() {
					for y := around.Min.Y; y < around.Max.Y; y++ {
						for x := around.Min.X; x < around.Max.X; x++ {
							k := y*n + x
							st.mask[k], st.label[k] = uint8(k%3&1), int32(k%5)
						}
					}
				}
				reset()
				det.streakMaskRef(pl, b.Min.X, b.Min.Y, b.Max.X, b.Max.Y)
				var wantMask []uint8
				var wantLabel []int32
				for y := around.Min.Y; y < around.Max.Y; y++ {
					wantMask = append(wantMask, st.mask[y*n+around.Min.X:y*n+around.Max.X]...)
					wantLabel = append(wantLabel, st.label[y*n+around.Min.X:y*n+around.Max.X]...)
				}
				reset()
				det.streakMask(pl, b.Min.X, b.Min.Y, b.Max.X, b.Max.Y)
				j := 0
				for y := around.Min.Y; y < around.Max.Y; y++ {
					for x := around.Min.X; x < around.Max.X; x++ {
						k := y*n + x
						if st.mask[k] != wantMask[j] || st.label[k] != wantLabel[j] {
							t.Fatalf("%s frame %d variant %d box %v: pixel %d,%d: mask %d label %d, former loop %d %d", clip, i, v, b, x, y, st.mask[k], st.label[k], wantMask[j], wantLabel[j])
						}
						j++
					}
				}
				checked++
				for y := b.Min.Y; y < b.Max.Y; y++ {
					for x := b.Min.X; x < b.Max.X; x++ {
						if st.mask[y*n+x] == 1 {
							marked++
						}
						if det.hands.at(float64(x), float64(y)) {
							hand++
						}
					}
				}
				left += len(st.left)
			}
		}
	})
	t.Logf("%d boxes, %d pixels marked, %d under a hand, %d places left", checked, marked, hand, left)
	if marked == 0 || hand == 0 || left == 0 || checked == 0 {
		t.Fatal("the boxes held no moving pixel, no hand or no place left: nothing compared")
	}
}
