package render

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// rng is a small deterministic random source (SplitMix64). Every random
// choice of the renderer comes from one of these, seeded from the clip seed,
// so a frame depends only on the seed, the settings and the scene.
type rng struct{ s uint64 }

func newRNG(seed uint64, salt ...uint64) *rng {
	return &rng{s: mix(seed, salt...)}
}

// mix hashes a seed with further values into a new seed.
func mix(seed uint64, vals ...uint64) uint64 {
	h := seed ^ 0x9e3779b97f4a7c15
	h = splitmix(h)
	for _, v := range vals {
		h = splitmix(h ^ (v + 0x632be59bd9b4e019))
	}
	return h
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	x := r.s
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// float returns a uniform number in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// in returns a uniform number in [a, b).
func (r *rng) in(a, b float64) float64 { return a + (b-a)*r.float() }

// intn returns a uniform integer in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// norm returns a standard normal number.
func (r *rng) norm() float64 {
	u := r.float()
	if u < 1e-300 {
		u = 1e-300
	}
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*r.float())
}

// strHash hashes a string (for per-identity variation).
func strHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// field is a single-channel float image.
type field struct {
	w, h int
	v    []float32
}

// at samples the field bilinearly at pixel coordinates (pixel centres at
// integer coordinates), clamping at the border.
func (f *field) at(x, y float64) float32 {
	if x < 0 {
		x = 0
	}
	if y < 0 {
		y = 0
	}
	if x > float64(f.w-1) {
		x = float64(f.w - 1)
	}
	if y > float64(f.h-1) {
		y = float64(f.h - 1)
	}
	x0, y0 := int(x), int(y)
	x1, y1 := x0+1, y0+1
	if x1 >= f.w {
		x1 = f.w - 1
	}
	if y1 >= f.h {
		y1 = f.h - 1
	}
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	a := f.v[y0*f.w+x0]*(1-fx) + f.v[y0*f.w+x1]*fx
	b := f.v[y1*f.w+x0]*(1-fx) + f.v[y1*f.w+x1]*fx
	return a*(1-fy) + b*fy
}

// wrap samples the field as a repeating tile at the nearest pixel.
func (f *field) wrap(x, y float64) float64 {
	i := int(math.Floor(x)) % f.w
	j := int(math.Floor(y)) % f.h
	if i < 0 {
		i += f.w
	}
	if j < 0 {
		j += f.h
	}
	return float64(f.v[j*f.w+i])
}

// smoothNoise returns a w×h field of smooth random values, roughly in
// [-1, 1], with features about cellX × cellY pixels large: uniform random
// values on a coarse lattice, interpolated bicubically by OpenCV.
func smoothNoise(r *rng, w, h int, cellX, cellY float64) field {
	gw := int(math.Ceil(float64(w)/cellX)) + 3
	gh := int(math.Ceil(float64(h)/cellY)) + 3
	small := gocv.NewMatWithSize(gh, gw, gocv.MatTypeCV32F)
	defer small.Close()
	sv, _ := small.DataPtrFloat32()
	for i := range sv {
		sv[i] = float32(2*r.float() - 1)
	}
	// Resize the lattice so that one cell spans cellX × cellY output pixels,
	// then crop w×h (a random phase would only shift the pattern).
	bw, bh := int(float64(gw)*cellX), int(float64(gh)*cellY)
	big := gocv.NewMat()
	defer big.Close()
	gocv.Resize(small, &big, image.Pt(bw, bh), 0, 0, gocv.InterpolationCubic)
	bv, _ := big.DataPtrFloat32()
	out := field{w: w, h: h, v: make([]float32, w*h)}
	ox, oy := int(cellX), int(cellY)
	for y := 0; y < h; y++ {
		copy(out.v[y*w:(y+1)*w], bv[(y+oy)*bw+ox:(y+oy)*bw+ox+w])
	}
	return out
}

// fbm sums octaves of smoothNoise: each octave half the size and half the
// amplitude of the previous one. The result is scaled back to about [-1, 1].
func fbm(r *rng, w, h int, cellX, cellY float64, octaves int) field {
	out := field{w: w, h: h, v: make([]float32, w*h)}
	amp, total := float32(1), float32(0)
	for o := 0; o < octaves; o++ {
		if cellX < 1.5 {
			cellX = 1.5
		}
		if cellY < 1.5 {
			cellY = 1.5
		}
		n := smoothNoise(r, w, h, cellX, cellY)
		for i := range out.v {
			out.v[i] += amp * n.v[i]
		}
		total += amp
		amp /= 2
		cellX /= 2
		cellY /= 2
	}
	for i := range out.v {
		out.v[i] /= total
	}
	return out
}

// gaussTable maps 16-bit uniform indices to standard normal values (the
// inverse CDF at the bin centres), for fast per-pixel sensor noise.
var gaussTable = func() [65536]float32 {
	var t [65536]float32
	for i := range t {
		p := (float64(i) + 0.5) / 65536
		t[i] = float32(math.Sqrt2 * math.Erfinv(2*p-1))
	}
	return t
}()

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func clamp32(v, lo, hi float32) float32 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func smoothstep(e0, e1, x float64) float64 {
	t := clamp((x-e0)/(e1-e0), 0, 1)
	return t * t * (3 - 2*t)
}

func lerp(a, b, t float64) float64 { return a + (b-a)*t }
