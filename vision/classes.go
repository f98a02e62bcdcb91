package vision

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
)

// Colour features of a disc, relative to the board so that a dimmed lamp
// or a camera's gain does not change them: the disc's brightness over the
// board's, and two opponent colours (red − green, green − blue) over the
// board's brightness.
type features [3]float64

func featuresOf(bgr [3]float64, boardY float64) features {
	if boardY < 1 {
		boardY = 1
	}
	b, g, r := bgr[0], bgr[1], bgr[2]
	y := 0.299*r + 0.587*g + 0.114*b
	return features{y / boardY, (r - g) / boardY, (g - b) / boardY}
}

// ClassStats describes the colour of one kind of disc on one board.
type ClassStats struct {
	// Mean and Std of the features: brightness relative to the board,
	// (red − green) and (green − blue) relative to the board's brightness.
	Mean [3]float64 `json:"mean"`
	Std  [3]float64 `json:"std"`
	// N is how many discs the statistics come from (0: not learned).
	N int `json:"n"`
}

// ClassModel is the colour of each kind of disc on one board, learned from
// the opening arrangement (see [Detector.LearnOpening]). Until a board's
// model is learned, discs are classified by priors: the striker by its
// size, black men by being much darker than the board, the queen by being
// red, the rest white.
type ClassModel struct {
	// Kinds holds the statistics of white, black, queen and striker, in
	// the order of board.Kind.
	Kinds [4]ClassStats `json:"kinds"`
	// Source says where the model came from: "opening" (learned from the
	// opening arrangement), "frames" (learned from frames in which both
	// colours were clearly apart) or "file".
	Source string `json:"source"`
}

// Learned reports whether the model has colour statistics for the men.
func (m *ClassModel) Learned() bool {
	return m != nil && m.Kinds[board.White].N > 0 && m.Kinds[board.Black].N > 0
}

// Save writes the model as JSON.
func (m *ClassModel) Save(path string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("vision: class model: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("vision: class model: %w", err)
	}
	return nil
}

// LoadClassModel reads a model written by [ClassModel.Save].
func LoadClassModel(path string) (*ClassModel, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("vision: class model: %w", err)
	}
	var m ClassModel
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("vision: class model %s: %w", path, err)
	}
	if !m.Learned() {
		return nil, fmt.Errorf("vision: class model %s: no white and black statistics", path)
	}
	for k, s := range m.Kinds {
		for i := 0; i < 3; i++ {
			if math.IsNaN(s.Mean[i]) || math.IsNaN(s.Std[i]) || s.Std[i] < 0 {
				return nil, fmt.Errorf("vision: class model %s: %v: bad statistics", path, board.Kind(k))
			}
		}
	}
	m.Source = "file"
	return &m, nil
}

// stdFloor keeps learned spreads from becoming so narrow that a slightly
// different lamp or a worn piece falls out of its class.
var stdFloor = features{0.06, 0.04, 0.04}

// logLike returns the log-likelihood of f under the class statistics.
func (s ClassStats) logLike(f features) float64 {
	var l float64
	for i := 0; i < 3; i++ {
		sd := math.Max(s.Std[i], stdFloor[i])
		z := (f[i] - s.Mean[i]) / sd
		l -= 0.5*z*z + math.Log(sd)
	}
	return l
}

// priorLike scores the men's classes before a model is learned: black men
// are colourless and not bright, white men (natural wood, stained or
// painted) coloured and not dark, the queen red. Values are log-likelihood-like so
// that they combine with the same softmax.
func priorLike(f features) [3]float64 {
	y, rg, gb := f[0], f[1], f[2]
	chroma := math.Max(rg, 0) + math.Max(gb, 0)
	// redness: red clearly above green, green not far above blue
	red := rg/math.Max(y, 0.05) - 0.6*math.Max(gb, 0)/math.Max(y, 0.05)
	var l [3]float64
	// white: not dark, and coloured like wood; not red
	l[board.White] = -sq(math.Max(0, 0.45-y)/0.15) - sq(math.Max(0, 0.15-chroma)/0.06) - sq(math.Max(0, red-0.9)/0.3)
	// black: colourless (or nearly), not bright
	l[board.Black] = -sq(math.Max(0, chroma-0.1)/0.06) - sq(math.Max(0, y-0.7)/0.15) - sq(math.Max(0, red-1.2)/0.4)
	// queen: red and not too bright
	l[board.Queen] = -sq(math.Max(0, 1.3-red)/0.35) - sq(math.Max(0, y-0.75)/0.2)
	return l
}

// classify returns the likelihoods of white, black and queen for a
// man-sized disc.
func (m *ClassModel) menLike(f features) [3]float64 {
	if !m.Learned() {
		return priorLike(f)
	}
	var l [3]float64
	pl := priorLike(f)
	for k := board.White; k <= board.Queen; k++ {
		s := m.Kinds[k]
		if s.N == 0 {
			l[k] = pl[k] - 2
			continue
		}
		l[k] = s.logLike(f)
	}
	return l
}

// softmax turns log-likelihoods into probabilities.
func softmax(l []float64) []float64 {
	mx := math.Inf(-1)
	for _, v := range l {
		mx = math.Max(mx, v)
	}
	out := make([]float64, len(l))
	var s float64
	for i, v := range l {
		out[i] = math.Exp(v - mx)
		s += out[i]
	}
	for i := range out {
		out[i] /= s
	}
	return out
}

// Opening is what [Detector.LearnOpening] found in an opening arrangement.
type Opening struct {
	// Model is the class model learned.
	Model *ClassModel
	// Queen is the centre of the arrangement, Whites and Blacks the men
	// around it (board mm).
	Queen          board.Vec
	Whites, Blacks []board.Vec
	// Breaker is the side the arrangement points at, from
	// calibrate.InferBreaker (nil when it could not tell; BreakerErr says
	// why).
	Breaker    *calibrate.Inference
	BreakerErr error
}

// errNoOpening is returned (wrapped) when the discs do not look like an
// opening arrangement.
var errNoOpening = errors.New("not an opening arrangement")

// learnOpening learns the class model from discs in the opening
// arrangement: the queen in the middle, six men around it and twelve around
// those, the two colours alternating. Man-sized discs are split into the
// two colours by 2-means on their features; the darker group is black.
func learnOpening(g *board.Geometry, ds []disc, want board.Side) (*Opening, error) {
	// the queen: the man-sized disc nearest the centre, within a radius
	qi := -1
	best := math.Inf(1)
	for i, d := range ds {
		if d.big {
			continue
		}
		if l := d.mm.Len(); l < best {
			best, qi = l, i
		}
	}
	if qi < 0 || best > g.ManDiameter {
		return nil, fmt.Errorf("%w: no disc on the centre", errNoOpening)
	}
	q := ds[qi].mm
	dia := g.ManDiameter
	var ring []int
	for i, d := range ds {
		if i == qi || d.big {
			continue
		}
		if d.mm.Dist(q) <= 2.35*dia {
			ring = append(ring, i)
		}
	}
	if len(ring) < 15 || len(ring) > 18 {
		return nil, fmt.Errorf("%w: %d men around the centre (want 15 to 18 of the 18)", errNoOpening, len(ring))
	}
	// 2-means on the features, started from the darkest and the brightest
	lo, hi := ring[0], ring[0]
	for _, i := range ring {
		if ds[i].feat[0] < ds[lo].feat[0] {
			lo = i
		}
		if ds[i].feat[0] > ds[hi].feat[0] {
			hi = i
		}
	}
	c0, c1 := ds[lo].feat, ds[hi].feat
	assign := make([]int, len(ring))
	for it := 0; it < 10; it++ {
		var s [2]features
		var n [2]int
		for j, i := range ring {
			f := ds[i].feat
			if featDist(f, c0) <= featDist(f, c1) {
				assign[j] = 0
			} else {
				assign[j] = 1
			}
			for k := 0; k < 3; k++ {
				s[assign[j]][k] += f[k]
			}
			n[assign[j]]++
		}
		if n[0] == 0 || n[1] == 0 {
			return nil, fmt.Errorf("%w: the men around the centre are all one colour", errNoOpening)
		}
		for k := 0; k < 3; k++ {
			c0[k] = s[0][k] / float64(n[0])
			c1[k] = s[1][k] / float64(n[1])
		}
	}
	var groups [2][]int
	for j, i := range ring {
		groups[assign[j]] = append(groups[assign[j]], i)
	}
	if c0[0] > c1[0] { // group 0 must be the darker (black)
		groups[0], groups[1] = groups[1], groups[0]
	}
	if len(groups[0]) < 6 || len(groups[1]) < 6 {
		return nil, fmt.Errorf("%w: the men around the centre split %d/%d by colour", errNoOpening, len(groups[0]), len(groups[1]))
	}
	m := &ClassModel{Source: "opening"}
	m.Kinds[board.Black] = statsOf(ds, groups[0])
	m.Kinds[board.White] = statsOf(ds, groups[1])
	// the two colours must be well apart
	sep := 0.0
	for k := 0; k < 3; k++ {
		sd := math.Max(math.Hypot(m.Kinds[board.Black].Std[k], m.Kinds[board.White].Std[k]), stdFloor[k])
		sep = math.Max(sep, math.Abs(m.Kinds[board.Black].Mean[k]-m.Kinds[board.White].Mean[k])/sd)
	}
	if sep < 3 {
		return nil, fmt.Errorf("%w: the two colours around the centre are not clearly apart", errNoOpening)
	}
	m.Kinds[board.Queen] = statsOf(ds, []int{qi})
	for i, d := range ds {
		if d.big {
			m.Kinds[board.Striker] = statsOf(ds, []int{i})
			break
		}
	}
	op := &Opening{Model: m, Queen: q}
	for _, i := range groups[1] {
		op.Whites = append(op.Whites, ds[i].mm)
	}
	for _, i := range groups[0] {
		op.Blacks = append(op.Blacks, ds[i].mm)
	}
	inf, err := calibrate.InferBreaker(g, op.Whites, op.Blacks, &op.Queen, want)
	if err != nil {
		op.BreakerErr = err
	} else {
		op.Breaker = &inf
	}
	return op, nil
}

func featDist(a, b features) float64 {
	var s float64
	for k := 0; k < 3; k++ {
		s += sq((a[k] - b[k]) / stdFloor[k])
	}
	return s
}

func statsOf(ds []disc, idx []int) ClassStats {
	var s ClassStats
	s.N = len(idx)
	for _, i := range idx {
		for k := 0; k < 3; k++ {
			s.Mean[k] += ds[i].feat[k]
		}
	}
	for k := 0; k < 3; k++ {
		s.Mean[k] /= float64(s.N)
	}
	if s.N > 1 {
		for _, i := range idx {
			for k := 0; k < 3; k++ {
				s.Std[k] += sq(ds[i].feat[k] - s.Mean[k])
			}
		}
		for k := 0; k < 3; k++ {
			s.Std[k] = math.Sqrt(s.Std[k] / float64(s.N-1))
		}
	}
	return s
}

// classifyAll gives every disc its kind: striker-sized discs are the
// striker, the others white, black or queen by colour under the model.
// queenFirst, when not negative, is the index of a disc known to be the
// queen from the arrangement (the centre of an opening-like ring).
func classifyAll(m *ClassModel, ds []disc, queenFirst int) {
	for i := range ds {
		d := &ds[i]
		if d.big {
			d.kind = board.Striker
			d.classScore = d.sizeScore
			continue
		}
		l := m.menLike(d.feat)
		p := softmax(l[:])
		d.menP = [3]float64{p[0], p[1], p[2]}
		d.kind = argmax3(d.menP)
		d.classScore = d.menP[d.kind] * d.sizeScore
	}
	keepOneQueen(ds, queenFirst)
}

func argmax3(p [3]float64) board.Kind {
	k := 0
	for j := 1; j < 3; j++ {
		if p[j] > p[k] {
			k = j
		}
	}
	return board.Kind(k)
}

// keepOneQueen lowers the class confidence of queens when several discs
// look like the queen: a set has one queen, but some sets have other red
// pieces, so the colour decides and the tracker (which knows there is one
// queen) chooses. The one the arrangement names keeps its confidence.
func keepOneQueen(ds []disc, queenFirst int) {
	n := 0
	for _, d := range ds {
		if d.kind == board.Queen {
			n++
		}
	}
	if n < 2 {
		return
	}
	for i := range ds {
		if ds[i].kind == board.Queen && i != queenFirst {
			ds[i].classScore *= 0.6
		}
	}
}

// queenish reports whether a disc's colour could be the queen's before
// anything is learned: not nearly black, and clearly red (red well above
// green for its brightness) or pink (red far above green, and blue not
// well below green: a home set's pink queen is too bright for the first
// test, while wood, however warm the light, is yellow or orange, its
// green well above its blue).
func queenish(f features) bool {
	y, rg, gb := f[0], f[1], f[2]
	if y < 0.18 || rg <= 0.1 {
		return false
	}
	return rg/math.Max(y, 0.05) > 0.8 || rg > 0.3 && gb < 0.25*rg
}

// splitMen divides men into two colour groups by 2-means on their
// features, started from the men at the lower and upper quartiles of
// brightness (the darkest and the brightest when there are three or
// fewer): a start from the extremes lets one outlier (a bright glint taken
// for a disc) end as a group of its own, with both colours of men in the
// other. A glare or a lamp's fall-off lifts the brightness of the men it
// lights, relative to the board there too (a glare adds the same light to
// disc and board), far more than it moves their colour: started from
// brightness alone, the split parted the lit men from the others, natural
// wood and black men together, and called the natural wood in the shade
// black (a real photo under a phone's glare). So it is also started from
// the quartiles of red − green and of green − blue, and such a split
// replaces the brightness one when its groups are parted by a clearly
// wider gap (see [gapOf]: half a spread floor more), they are apart (a
// separation of 3.5, as the split needs) and each holds at least a
// quarter of the men, two at least (a glint taken for a disc, colourless
// and bright, with one black man under the glare made a group of two
// parted by a wide gap in brightness).
// It returns the group of each (0 darker, 1 brighter), the separation of
// the groups in units of the features' spread floor, and false when there
// are fewer than two men or one group would be empty.
func splitMen(fs []features) ([]int, float64, bool) {
	if len(fs) < 2 {
		return nil, 0, false
	}
	g, sep, ok := splitMenFrom(fs, 0)
	gap := math.Inf(-1)
	if ok {
		gap = gapOf(fs, g)
	}
	for k := 1; k < 3; k++ {
		gk, sk, okk := splitMenFrom(fs, k)
		if !okk || sk < 3.5 || smallerGroup(gk) < max(2, len(fs)/4) {
			continue
		}
		if gp := gapOf(fs, gk); gp >= gap+0.5 {
			g, sep, ok, gap = gk, sk, true, gp
		}
	}
	return g, sep, ok
}

// smallerGroup is the number of men in the smaller of the two groups g.
func smallerGroup(g []int) int {
	n := 0
	for _, v := range g {
		n += v
	}
	return min(n, len(g)-n)
}

// splitMenFrom is [splitMen] started from the quartiles of feature k.
func splitMenFrom(fs []features, k0 int) ([]int, float64, bool) {
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return fs[order[a]][k0] < fs[order[b]][k0] })
	if fs[order[0]][k0] == fs[order[len(fs)-1]][k0] {
		return nil, 0, false
	}
	lo, hi := order[len(fs)/4], order[(3*len(fs)-1)/4]
	if len(fs) <= 3 || fs[lo] == fs[hi] {
		lo, hi = order[0], order[len(fs)-1]
	}
	c0, c1 := fs[lo], fs[hi]
	g := make([]int, len(fs))
	for it := 0; it < 10; it++ {
		var s [2]features
		var n [2]int
		for i, f := range fs {
			if featDist(f, c0) <= featDist(f, c1) {
				g[i] = 0
			} else {
				g[i] = 1
			}
			for k := 0; k < 3; k++ {
				s[g[i]][k] += f[k]
			}
			n[g[i]]++
		}
		if n[0] == 0 || n[1] == 0 {
			return nil, 0, false
		}
		for k := 0; k < 3; k++ {
			c0[k] = s[0][k] / float64(n[0])
			c1[k] = s[1][k] / float64(n[1])
		}
	}
	if c0[0] > c1[0] {
		for i := range g {
			g[i] = 1 - g[i]
		}
		c0, c1 = c1, c0
	}
	// separation: distance of the centres over the groups' spread
	var sp [2]features
	var n [2]float64
	for i, f := range fs {
		c := c0
		if g[i] == 1 {
			c = c1
		}
		for k := 0; k < 3; k++ {
			sp[g[i]][k] += sq(f[k] - c[k])
		}
		n[g[i]]++
	}
	sep := 0.0
	for k := 0; k < 3; k++ {
		sd := math.Max(math.Sqrt((sp[0][k]+sp[1][k])/(n[0]+n[1])), stdFloor[k])
		sep += sq((c1[k] - c0[k]) / sd)
	}
	return g, math.Sqrt(sep), true
}

// gapOf returns the clearest gap between the two groups of men along one
// feature, in units of that feature's spread floor: on each feature, the
// distance from the nearest man of one group to the nearest of the other
// (negative where they overlap), the largest over the features.
func gapOf(fs []features, g []int) float64 {
	best := math.Inf(-1)
	for k := 0; k < 3; k++ {
		lo := [2]float64{math.Inf(1), math.Inf(1)}
		hi := [2]float64{math.Inf(-1), math.Inf(-1)}
		for i, f := range fs {
			lo[g[i]] = math.Min(lo[g[i]], f[k])
			hi[g[i]] = math.Max(hi[g[i]], f[k])
		}
		gap := math.Max(lo[1]-hi[0], lo[0]-hi[1]) / stdFloor[k]
		best = math.Max(best, gap)
	}
	return best
}

// oneFrameGap is the gap (see [gapOf]) between the two groups of men in
// one frame from which [LearnSet] learns their colours even when their
// separation is under the learning bar: every man of one colour apart
// from every man of the other by more than this many spread floors on
// some feature, so none is in doubt. (The GSI photo's natural-wood and
// black men: separation 4.98, under the bar of 5, but no man nearer the
// other group than 3.2 floors in red−green.)
const oneFrameGap = 2.5

// onlineModel accumulates class statistics from frames where the two
// colours were clearly apart, for a board whose opening was not seen.
type onlineModel struct {
	sum, sum2 [4]features
	n         [4]float64
	frames    int
	// gapFrame is the first frame's men, split apart by a clear gap but
	// under the learning bar (see [oneFrameGap]): for [LearnSet] only,
	// never the detector's own model.
	gapFrame *onlineModel
}

func (o *onlineModel) add(k board.Kind, f features) {
	for i := 0; i < 3; i++ {
		o.sum[k][i] += f[i]
		o.sum2[k][i] += f[i] * f[i]
	}
	o.n[k]++
}

// model returns the statistics learned so far (nil before enough frames).
func (o *onlineModel) model() *ClassModel {
	if o.frames < 3 || o.n[board.White] < 4 || o.n[board.Black] < 4 {
		return nil
	}
	return o.stats("frames")
}

// stats returns the statistics accumulated, with the source given.
func (o *onlineModel) stats(source string) *ClassModel {
	m := &ClassModel{Source: source}
	for k := range m.Kinds {
		if o.n[k] == 0 {
			continue
		}
		s := &m.Kinds[k]
		s.N = int(o.n[k])
		for i := 0; i < 3; i++ {
			mu := o.sum[k][i] / o.n[k]
			s.Mean[i] = mu
			s.Std[i] = math.Sqrt(math.Max(0, o.sum2[k][i]/o.n[k]-mu*mu))
		}
	}
	return m
}
