package vision

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
)

// classesOfSet returns the class model of a set's colours (nil when the
// set does not know both colours of men).
func classesOfSet(s *board.Set) *ClassModel {
	if s == nil {
		return nil
	}
	m := &ClassModel{Source: s.Source}
	for k, c := range s.Colours {
		m.Kinds[k] = ClassStats(c)
	}
	if !m.Learned() {
		return nil
	}
	return m
}

// Set returns the set of pieces as the detector knows it: the sizes it
// searches for and the colours of its class model (learned, or from the
// calibration and the configuration).
func (d *Detector) Set() *board.Set {
	s := &board.Set{Source: "geometry", ManMM: d.g.ManDiameter, QueenMM: d.g.QueenDiameter, StrikerMM: d.g.StrikerDiameter}
	if d.set != nil && d.set.Source != "" {
		s.Source = d.set.Source
	}
	if d.cls != nil {
		for k, c := range d.cls.Kinds {
			s.Colours[k] = board.ColourStats(c)
		}
		if d.cls.Learned() && (d.set == nil || d.set.Colours[board.White].N == 0) {
			s.Source = d.cls.Source
		}
	}
	return s
}

// Sizes of strikers tried by [LearnSet], mm: the laws' range and home
// sets' strikers up to twice a man's size.
var strikerSizes = []float64{38, 40, 41.5, 43, 45, 47, 49, 51, 53, 55, 57.5, 60, 62.5, 65, 68}

// sameSize is how close (a share) a learned man's diameter must come to
// the configured one to be taken as that one: the rim is measured to
// about a pixel, 2–3% of a man's diameter at 720p. sameStriker is the
// same for the striker, whose size is learned to within about 10% (its printed
// rings and its shadow confuse its rim): a striker within 8% of the
// configured one is taken as that one (configure set.striker_mm for a
// tournament striker of another size).
const (
	sameSize    = 0.06
	sameStriker = 0.08
)

// LearnSet learns the set of pieces on the board from one frame at rest
// (the opening arrangement, or pieces lying about): the men's size from
// the outlines of the men found, the striker's by searching the frame for
// a striker of each size sets have (38 to 68 mm; the laws allow 41.5, home
// sets twice a man's size), and the colours from the class model learned
// on the frame (from the opening arrangement when it is one). A man's size
// within 6% of cfg's geometry, a striker's within 8%, keeps the
// geometry's figure. It returns nil and an error when the frame shows no
// men to learn from.
func LearnSet(frame gocv.Mat, cal *calibrate.Calibration, cfg Config) (*board.Set, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("vision: learn set: %w", err)
	}
	base := cfg.Geometry
	cfg.FullEvery = -1
	cfg.Set = nil
	run := func(g *board.Geometry, trial bool) (*Detector, Frame, error) {
		c := cfg
		c.Geometry = g
		cc := *cal
		cc.Set = nil
		det, err := New(&cc, c)
		if err != nil {
			return nil, Frame{}, err
		}
		// (A size tried is measured by the outline's support alone: a
		// striker is not made striker-sized by its reach, which says it
		// is larger than a man, not that it is that size.)
		det.sizeTrial = trial
		f, err := det.Detect(frame, 0, 0)
		if err != nil {
			det.Close()
			return nil, Frame{}, err
		}
		return det, f, nil
	}
	// The men: their outlines in a first search at the geometry's sizes.
	det, _, err := run(base, false)
	if err != nil {
		return nil, fmt.Errorf("vision: learn set: %w", err)
	}
	var radii []float64
	for _, c := range det.accepted {
		if !c.big && !c.parked && c.hidden == 0 && c.kind != board.Queen {
			radii = append(radii, det.strongestEdge(c, det.rMan)/(det.v.lift(cfg.ManHeight)*det.v.ppm))
		}
	}
	det.Close()
	if len(radii) < 2 {
		return nil, errors.New("vision: learn set: fewer than two men in the picture")
	}
	man := 2 * median(radii)
	if math.Abs(man-base.ManDiameter) <= sameSize*base.ManDiameter {
		man = base.ManDiameter
	}
	set := &board.Set{ManMM: round1(man)}
	// The striker: found at each size sets have, by its outline's support
	// (the share of its outline showing an edge where a striker of that
	// size has its rim). The rings printed on a striker's face support
	// smaller sizes too, nothing supports a size beyond its rim: the
	// largest size supported nearly as well as the best is the striker's.
	type try struct {
		size, support, rim float64
	}
	var tries []try
	best := 0.0
	for _, s := range strikerSizes {
		if s < 1.15*man {
			continue
		}
		g := base.WithSet(&board.Set{ManMM: man, StrikerMM: s})
		det, _, err := run(g, true)
		if err != nil {
			return nil, fmt.Errorf("vision: learn set: %w", err)
		}
		tr := try{size: s}
		for _, c := range det.accepted {
			if c.big && !c.parked && c.support > tr.support {
				tr.support = c.support
				tr.rim = 2 * det.rimRadius(c, det.rStr) / (det.v.lift(cfg.StrikerHeight) * det.v.ppm)
			}
		}
		det.Close()
		tries = append(tries, tr)
		best = math.Max(best, tr.support)
	}
	if best >= cfg.MinSupport {
		for i := len(tries) - 1; i >= 0; i-- {
			if tries[i].support >= 0.95*best {
				// Both err outward (a shadow moves the rim found, the
				// support tolerates a size a little beyond the rim):
				// the smaller.
				s := math.Min(tries[i].rim, tries[i].size)
				if math.Abs(s-base.StrikerDiameter) <= sameStriker*base.StrikerDiameter {
					s = base.StrikerDiameter
				}
				set.StrikerMM = round1(s)
				break
			}
		}
	}
	// The colours: learned on the frame with the sizes found.
	det, _, err = run(base.WithSet(set), false)
	if err != nil {
		return nil, fmt.Errorf("vision: learn set: %w", err)
	}
	defer det.Close()
	set.Source = "frame"
	m := det.Classes()
	if m == nil || !m.Learned() {
		// Not the opening: the colours of the men this one frame split
		// clearly into two groups (a detector running on a video needs
		// three such frames before it trusts them).
		m = det.online.oneFrame()
	}
	if m != nil && m.Learned() {
		for k, c := range m.Kinds {
			set.Colours[k] = board.ColourStats(c)
		}
		set.Source = m.Source
	}
	// (No striker on the board: its size stays unknown, the geometry's
	// applies.)
	return set, nil
}

// minOneFrame is how many men of each colour one frame must show, split
// clearly apart, for [LearnSet] to learn the colours from it (as many as
// a detector on a video needs over its first three frames).
const minOneFrame = 4

// oneFrame returns the statistics of a single frame whose men split
// clearly into two colours (at least minOneFrame of each), source
// "frame": apart by the learning bar, else by a clear gap (gapFrame); nil
// otherwise.
func (o *onlineModel) oneFrame() *ClassModel {
	if o.frames == 0 && o.gapFrame != nil {
		o = o.gapFrame
	}
	if o.frames != 1 || o.n[board.White] < minOneFrame || o.n[board.Black] < minOneFrame {
		return nil
	}
	return o.stats("frame")
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// rimRadius measures a disc's rim in the last frame detected: along each
// of the rays, the outermost edge (a local maximum of the radial gradient
// of at least half the ray's strongest) between 0.7 and 1.4 of r (px), to
// a sub-pixel by a parabola. A disc's side wall (seen where the camera
// looks past it) and its shadow (away from the lamp) push that edge out on
// some rays, the rings printed on a striker's face are inside it: the
// lower quartile over the rays is the rim.
func (d *Detector) rimRadius(c disc, r float64) float64 {
	vt := d.vt
	n := vt.n
	var rs []float64
	const step = 0.25
	lo := 0.7 * r
	for k := 0; k < rays; k++ {
		best := 0.0
		var prof []float64
		for rr := lo; rr <= 1.4*r; rr += step {
			x, y := c.x+rayCos[k]*rr, c.y+raySin[k]*rr
			ix, iy := int(x+0.5), int(y+0.5)
			if ix < 0 || iy < 0 || ix >= n || iy >= n {
				prof = append(prof, 0)
				continue
			}
			kk := iy*n + ix
			v := math.Abs(float64(vt.ex[kk])*rayCos[k] + float64(vt.ey[kk])*raySin[k])
			prof = append(prof, v)
			best = math.Max(best, v)
		}
		bi := -1
		for i := len(prof) - 2; i >= 1; i-- {
			if prof[i] >= 0.5*best && prof[i] >= prof[i-1] && prof[i] >= prof[i+1] {
				bi = i
				break
			}
		}
		if bi <= 0 {
			continue
		}
		a, b, cc := prof[bi-1], prof[bi], prof[bi+1]
		off := 0.0
		if den := a - 2*b + cc; den < 0 {
			off = 0.5 * (a - cc) / den
		}
		rs = append(rs, lo+(float64(bi)+off)*step)
	}
	if len(rs) < rays/2 {
		return c.outline
	}
	sort.Float64s(rs)
	return rs[len(rs)/4]
}

// strongestEdge measures a man's rim in the last frame detected: along
// each ray the strongest radial gradient between 0.8 and 1.2 of r (px),
// to a sub-pixel by a parabola; the median over the rays. (A man's face
// has no ring as strong as its rim; its shadow's edge is softer.)
func (d *Detector) strongestEdge(c disc, r float64) float64 {
	vt := d.vt
	n := vt.n
	var rs []float64
	const step = 0.25
	for k := 0; k < rays; k++ {
		best, bi := 0.0, -1
		var prof []float64
		for rr := 0.8 * r; rr <= 1.2*r; rr += step {
			x, y := c.x+rayCos[k]*rr, c.y+raySin[k]*rr
			ix, iy := int(x+0.5), int(y+0.5)
			v := 0.0
			if ix >= 0 && iy >= 0 && ix < n && iy < n {
				kk := iy*n + ix
				v = math.Abs(float64(vt.ex[kk])*rayCos[k] + float64(vt.ey[kk])*raySin[k])
			}
			prof = append(prof, v)
			if v > best {
				best, bi = v, len(prof)-1
			}
		}
		if bi <= 0 || bi >= len(prof)-1 {
			continue
		}
		a, b, cc := prof[bi-1], prof[bi], prof[bi+1]
		off := 0.0
		if den := a - 2*b + cc; den < 0 {
			off = 0.5 * (a - cc) / den
		}
		rs = append(rs, 0.8*r+(float64(bi)+off)*step)
	}
	if len(rs) < rays/2 {
		return c.outline
	}
	return median(rs)
}
