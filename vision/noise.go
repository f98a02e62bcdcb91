package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// The camera's noise, measured on the bare wood of the rectified board. A
// sensor under little light, its gain turned up, adds noise of so many
// grey levels whatever the scene's brightness, while the rims a disc is
// found by lose contrast with the light: on a board read at a fifth of its
// brightness, or through a noisy sensor, the noise's gradients outnumber
// a rim's, the edges around a disc no longer point at its centre and the
// men of the opening pack, whose rims between them are faint, are lost
// first. Raising the edge threshold drops those faint rims with the noise;
// smoothing the board before its edges are measured keeps them (a rim is
// a step the width of a disc, the noise changes from pixel to pixel).
//
// The measure (grad) is the median gradient magnitude (3×3 Sobel, the
// strongest of B, G, R, as the edges are measured) over one pixel in the
// middle of each bare-wood block of the tiles searched: a block on the
// playing surface that matches the background, has been still for a
// second (32 frames: an H.264 stream blurs and rings around what just
// moved), carries no disc found in the last frame and has the bare wood's
// brightness (see background.measureBoard). On a clean picture it is the
// wood's grain and the remap's rounding: 0.04–0.12 of the board's
// brightness over our corpus and the other renderer's clips, 0.09 on a
// real photo; noise of σ 5, 10 and 20 grey levels on that photo reads
// 0.15, 0.26 and 0.46.
type noiseState struct {
	// grad is the last measure (0 until measured).
	grad float64
	buf  []float64
	// tmp is the smoothing's scratch (allocated when first needed).
	tmp gocv.Mat
}

func (n *noiseState) close() {
	if n.tmp.Ptr() != nil {
		n.tmp.Close()
	}
}

// minNoiseBlocks is how many bare-wood blocks a frame's searched tiles
// must hold for their noise to be taken; otherwise the last measure
// stands.
const minNoiseBlocks = 150

// noisyBoard is the noise (see noiseState), over the board's brightness,
// above which the rectified board is smoothed before its edges are
// measured (see smoothNoisy). The smoothing costs the rims contrast: it
// is for noise that outnumbers them, not for what clean pictures read (at
// most 0.12), nor for a real photo's noise of σ 10 grey levels (0.26),
// whose pack holds without it, nor for the dim club's view at 2 mm per
// pixel (0.34), whose rims are a pixel or two wide and lose more to it
// than the noise: a real photo's noise of σ 20 (0.46) and our renders of
// a very dim room with the gain up and of a noisy sensor (0.44, 0.47)
// need it.
const noisyBoard = 0.4

// measureNoise measures the noise (see noiseState) over the bare-wood
// blocks of the tiles searched this frame in pl, the rectified board, and
// keeps it when there are enough of them.
func (d *Detector) measureNoise(pl plane) {
	b := d.bg
	nb, bs := b.nb, b.bs
	t := d.grid
	tpb := t.px / bs // blocks per tile side
	mags := d.noise.buf[:0]
	n := pl.w
	for tk, dirty := range t.dirty {
		if !dirty {
			continue
		}
		tx, ty := tk%t.n, tk/t.n
		for j := ty * tpb; j < min((ty+1)*tpb, nb); j++ {
			y := j*bs + bs/2
			if y < 1 || y >= n-1 {
				continue
			}
			for i := tx * tpb; i < min((tx+1)*tpb, nb); i++ {
				k := j*nb + i
				x := i*bs + bs/2
				if b.zone[k] != 1 || b.fg[k] || b.covered[k] || b.stable[k] < 4*stableFrames || x < 1 || x >= n-1 {
					continue
				}
				o := 3 * k
				l := 0.114*float64(b.cur[o]) + 0.587*float64(b.cur[o+1]) + 0.299*float64(b.cur[o+2])
				if l < b.woodLo || l > b.woodHi+1 {
					continue
				}
				mags = append(mags, sobelMax(pl, x, y))
			}
		}
	}
	d.noise.buf = mags
	if len(mags) >= minNoiseBlocks {
		d.noise.grad = math.Sqrt(kthShort(mags, len(mags)/2))
	}
}

// sobelMax returns the 3×3 Sobel gradient magnitude at pixel (x, y) of
// pl (not on its border), the strongest of B, G, R, squared.
func sobelMax(pl plane, x, y int) float64 {
	w := pl.w
	best := 0
	for ch := 0; ch < 3; ch++ {
		at := func(i, j int) int { return int(pl.pix[3*((y+j)*w+x+i)+ch]) }
		gx := at(1, -1) + 2*at(1, 0) + at(1, 1) - at(-1, -1) - 2*at(-1, 0) - at(-1, 1)
		gy := at(-1, 1) + 2*at(0, 1) + at(1, 1) - at(-1, -1) - 2*at(0, -1) - at(1, -1)
		best = max(best, gx*gx+gy*gy)
	}
	return float64(best)
}

// noisy reports whether the board as measured is noisy enough to be
// smoothed (see noisyBoard).
func (d *Detector) noisy() bool {
	return d.noise.grad > noisyBoard*d.bg.boardY
}

// smoothNoisy smooths the regions searched this frame (a Gaussian of one
// pixel: a third of the noise's gradients, a rim's step kept) when the
// board is noisy; everything measured on the rectified board this frame
// (edges, colours, rims) is measured on the smoothed picture.
func (d *Detector) smoothNoisy() {
	if !d.noisy() {
		return
	}
	if d.noise.tmp.Ptr() == nil {
		d.noise.tmp = gocv.NewMatWithSize(d.v.n, d.v.n, gocv.MatTypeCV8UC3)
	}
	for _, r := range d.grid.rects {
		src := d.img.Region(r)
		dst := d.noise.tmp.Region(r)
		gocv.GaussianBlur(src, &dst, image.Point{X: 5, Y: 5}, 1, 1, gocv.BorderReplicate)
		dst.CopyTo(&src)
		dst.Close()
		src.Close()
	}
}
