// Package trackertest makes what a detector would report from the
// simulator's exact truth, with the errors real detection makes (position
// noise, misses, false detections, class confusions, motion-blur misses
// of fast discs, discs hidden under hands reported through the
// Occlusion), to test the tracker and the pipeline against ground truth.
package trackertest

import (
	"math"
	"math/rand/v2"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/sim"
)

// Noise describes the detector errors added to the truth.
type Noise struct {
	Seed uint64
	// Sigma is the standard deviation of a detected centre, per axis (mm).
	Sigma float64
	// Miss is the chance that a disc in full view is not detected.
	Miss float64
	// FalsePos is the chance per frame of a detection where there is no disc.
	FalsePos float64
	// Confuse is the chance that a detected man or queen gets a wrong class.
	Confuse float64
	// BlurSpeed: a disc faster than this (mm/s) is missed with a chance
	// rising linearly to 90 % at twice the speed (motion blur).
	BlurSpeed float64
	// Hide is the covered fraction above which a disc under a hand is not
	// detected; above Hide/4 it is detected as partial, with three times
	// the error.
	Hide float64
	// NoHands: the hands are out of the picture (a strike with no hand in
	// view): no occlusion is reported and no disc is hidden by a hand.
	NoHands bool
	// Streak, when positive, is the speed (mm/s) above which the striker
	// is never detected: at a long exposure a moving striker is a faint
	// streak the detector does not see.
	Streak float64
	// Markings are places where the detector sees a disc in every frame
	// that is none (a printed circle the size and colour of the queen):
	// a queen detection with an unsure class.
	Markings []board.Vec
}

// Realistic is what a good detector does: 0.6 mm, 0.5 % misses, 1 % false
// detections per frame, 0.4 % class confusions, blur misses above 3 m/s.
var Realistic = Noise{Seed: 1, Sigma: 0.6, Miss: 0.005, FalsePos: 0.01, Confuse: 0.004, BlurSpeed: 3000, Hide: 0.6}

// HandMask is the occlusion of a scene's hands: the footprint of each hand
// and forearm seen from above (scene.Hand.Depth).
type HandMask struct{ Hands []scene.Hand }

// Hidden samples the disc at 25 points.
func (m HandMask) Hidden(c board.Vec, r float64) float64 {
	if len(m.Hands) == 0 {
		return 0
	}
	in, n := 0, 0
	probe := func(p board.Vec) {
		n++
		for _, h := range m.Hands {
			if h.Depth(p) > 0 {
				in++
				return
			}
		}
	}
	probe(c)
	for k := 0; k < 8; k++ {
		a := float64(k) * math.Pi / 4
		probe(c.Add(board.V(math.Cos(a), math.Sin(a)).Scale(0.5 * r)))
	}
	for k := 0; k < 16; k++ {
		a := float64(k)*math.Pi/8 + 0.1
		probe(c.Add(board.V(math.Cos(a), math.Sin(a)).Scale(0.92 * r)))
	}
	return float64(in) / float64(n)
}

// Synth generates detections for the frames of a trace.
type Synth struct {
	tr  *sim.Trace
	g   *board.Geometry
	nz  Noise
	rng *rand.Rand
}

// NewSynth prepares the detections of trace tr with errors nz (seeded by
// nz.Seed: the same trace and noise give the same detections).
func NewSynth(tr *sim.Trace, nz Noise) *Synth {
	return &Synth{tr: tr, g: tr.Geometry, nz: nz, rng: rand.New(rand.NewPCG(nz.Seed, nz.Seed^0xabcdef))}
}

// Frame returns the detections of frame i (and its truth scene). Frames
// must be asked for in order for the noise to be reproducible.
func (s *Synth) Frame(i int) (sight.Frame, scene.Scene) {
	sc := s.tr.Frame(i)
	f := sight.Frame{Index: i, T: s.tr.FrameTime(i), Calibrated: true}
	mask := HandMask{Hands: sc.Hands}
	if s.nz.NoHands {
		mask.Hands = nil
	}
	if len(mask.Hands) > 0 {
		f.Occlusion = mask
	}
	g := s.g
	px := func(p board.Vec) [2]float64 { return [2]float64{640 + 0.9*p.X, 360 + 0.9*p.Y} }
	for _, d := range sc.Discs {
		if !d.State.OnBoard() {
			continue
		}
		r := g.Radius(d.Kind)
		hid := mask.Hidden(d.Pos, r)
		if hid >= s.nz.Hide {
			continue
		}
		if s.rng.Float64() < s.nz.Miss {
			continue
		}
		sp := d.Vel.Len()
		if s.nz.Streak > 0 && d.Kind == board.Striker && sp > s.nz.Streak {
			continue
		}
		if s.nz.BlurSpeed > 0 && sp > s.nz.BlurSpeed {
			if s.rng.Float64() < math.Min(0.9, 0.9*(sp-s.nz.BlurSpeed)/s.nz.BlurSpeed) {
				continue
			}
		}
		sigma := s.nz.Sigma * (1 + sp/3000)
		partial := hid > s.nz.Hide/4
		if partial {
			sigma *= 3
		}
		p := d.Pos.Add(board.V(s.rng.NormFloat64()*sigma, s.rng.NormFloat64()*sigma))
		k := d.Kind
		cs := 0.95
		if k != board.Striker && s.rng.Float64() < s.nz.Confuse {
			k = [3]board.Kind{board.White, board.Black, board.Queen}[(int(k)+1+s.rng.IntN(2))%3]
			cs = 0.55
		}
		f.Detections = append(f.Detections, sight.Detection{Kind: k, MM: p, PX: px(p), RadiusPx: 0.9 * r, Score: 0.9, ClassScore: cs, Partial: partial})
	}
	for _, p := range s.nz.Markings {
		f.Detections = append(f.Detections, sight.Detection{Kind: board.Queen, MM: p, PX: px(p), RadiusPx: 14, Score: 1, ClassScore: 0.5})
	}
	if s.rng.Float64() < s.nz.FalsePos {
		h := g.Half() - 20
		p := board.V((2*s.rng.Float64()-1)*h, (2*s.rng.Float64()-1)*h)
		k := board.Kinds[s.rng.IntN(3)]
		f.Detections = append(f.Detections, sight.Detection{Kind: k, MM: p, PX: px(p), RadiusPx: 14, Score: 0.5, ClassScore: 0.6})
	}
	// Detectors report in no particular order.
	s.rng.Shuffle(len(f.Detections), func(a, b int) { f.Detections[a], f.Detections[b] = f.Detections[b], f.Detections[a] })
	return f, sc
}
