package render

import (
	"math"

	"github.com/boardcam/boardcam/board"
)

// sprite is the top face of one kind of disc, seen from above in the disc's
// own frame (mm, centred), plus how its rim and lacquer look.
type sprite struct {
	c     *canvas
	r     float64 // radius, mm
	thick float64 // thickness, mm
	side  bgr     // colour of the cylindrical side
	spec  float64 // specular strength 0–1
	shin  float64 // specular exponent
}

// spriteVariants is how many differently grained sprites each kind has.
const spriteVariants = 3

// makeSprites paints the discs: natural-wood "whites" with grain and
// concentric grooves, worn black men, the red queen, the striker with its
// printed rings.
func makeSprites(s Settings, g *board.Geometry, ppm float64, seed uint64) map[board.Kind][]*sprite {
	out := map[board.Kind][]*sprite{}
	r := newRNG(seed, 3)
	white, _ := parseColour(s.Pieces.Whites, whiteColours)
	black, _ := parseColour(s.Pieces.Blacks, blackColours)
	queen, _ := parseColour(s.Pieces.Queen, queenColours)
	striker, _ := parseColour(s.Pieces.Striker, strikerColours)
	worn := s.Pieces.Blacks == "worn"
	for _, k := range board.Kinds {
		rad := g.Radius(k)
		thick := s.Pieces.Thickness
		if k == board.Striker {
			thick++
		}
		for v := 0; v < spriteVariants; v++ {
			c := newCanvas(-rad-1.5, -rad-1.5, 2*rad+3, 2*rad+3, ppm)
			sp := &sprite{c: c, r: rad, thick: thick}
			cell := func(mm float64) float64 { return math.Max(mm*ppm, 1.5) }
			fib := smoothNoise(r, c.w, c.h, cell(6), cell(0.5))
			blot := fbm(r, c.w, c.h, cell(8), cell(8), 2)
			rings := r.in(0, 10)
			var base bgr
			switch k {
			case board.White:
				base = white
				sp.spec, sp.shin = 0.12, 30
			case board.Black:
				base = black
				sp.spec, sp.shin = 0.25, 60
			case board.Queen:
				base = queen
				sp.spec, sp.shin = 0.25, 60
			default:
				base = striker
				sp.spec, sp.shin = 0.35, 90
			}
			sp.side = base.scale(0.62)
			contrast := rgb(40, 70, 170)
			if lum(striker) < 120 || striker[0] > striker[2] {
				contrast = rgb(235, 235, 230)
			}
			for j := 0; j < c.h; j++ {
				for i := 0; i < c.w; i++ {
					kk := j*c.w + i
					p := c.mm(i, j)
					d := p.Len() / rad
					col := base
					switch k {
					case board.White, board.Black, board.Queen:
						// Grain streaks and faint growth rings of turned wood.
						gr := 0.07*float64(fib.v[kk]) + 0.04*math.Sin(2*math.Pi*(p.Len()/2.3+rings+0.6*float64(blot.v[kk])))
						if k == board.Black && !worn {
							gr *= 0.3
						}
						col = col.scale(1 + gr)
						if k == board.Black && worn {
							// rubbed patches show lighter, browner wood
							a := smoothstep(0.05, 0.7, float64(blot.v[kk])) * 0.45
							col = col.mix(rgb(96, 84, 76), a)
						}
						// Concentric grooves: darker on light pieces, dusty
						// (lighter) on dark ones.
						groove := 0.0
						for _, gr := range [][2]float64{{0.80, 0.035}, {0.47, 0.04}, {0.12, 0.03}} {
							groove = math.Max(groove, 1-smoothstep(0, gr[1], math.Abs(d-gr[0])))
						}
						if lum(base) > 70 {
							col = col.scale(1 - 0.35*groove)
						} else {
							col = col.mix(rgb(110, 104, 98), 0.45*groove)
						}
						// slightly darker toward the rim
						col = col.scale(1 - 0.12*smoothstep(0.75, 1, d))
					default:
						col = col.scale(1 + 0.03*float64(blot.v[kk]) - 0.06*smoothstep(0.6, 1, d))
						ring := 1 - smoothstep(0.015, 0.04, math.Abs(d-0.84))
						ring = math.Max(ring, 1-smoothstep(0.015, 0.035, math.Abs(d-0.52)))
						col = col.mix(contrast, 0.8*ring)
						if d < 0.16 {
							col = col.mix(contrast, 0.6*(1-smoothstep(0.12, 0.16, d)))
						}
					}
					c.set(kk, col)
				}
			}
			out[k] = append(out[k], sp)
		}
	}
	return out
}

func lum(c bgr) float64 { return 0.114*c[0] + 0.587*c[1] + 0.299*c[2] }

// tint returns a per-piece tone variation from the disc's identity.
func tint(id string, seed uint64, variation float64) bgr {
	r := newRNG(seed, strHash(id))
	k := 1 + variation*0.09*(2*r.float()-1)
	hue := variation * 0.05 * (2*r.float() - 1)
	return bgr{k * (1 - hue), k, k * (1 + hue)}
}
