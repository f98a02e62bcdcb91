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

// Detector finds the discs and the hands in the frames of one camera. Make
// one per calibration with [New], call [Detector.Detect] for every frame in
// order (it keeps a background model and reuses what did not change), and
// Close it. A Detector is not safe for concurrent use.
type Detector struct {
	cfg Config
	// g is the board judged on: the configured geometry with the
	// calibration's measured markings and the set's sizes.
	g   *board.Geometry
	set *board.Set
	// setClasses: the class model came from the set (the calibration's),
	// not from this detector's frames: an opening arrangement seen still
	// teaches the board's own (and gives the breaker).
	setClasses bool
	cal        *calibrate.Calibration
	v          *view
	rect       *rectifier
	low        *rectifier // 2×2 samples per background block
	img        gocv.Mat
	vt         *voter
	bg         *background
	hands      *handStage
	mk         []marking
	cls        *ClassModel
	online     onlineModel
	open       *Opening

	// coredBase: the base circles of this board have a core (a red disc
	// inside the band), seen clearly on one of them (see resolveMarkings);
	// core is its colour (see coreColour).
	coredBase bool
	core      [2]float64

	rMan, rStr float64 // top-face radii, rectified px (at the centre)
	frames     int
	prev       []disc
	lost       []disc // discs at rest lost under a hand (see refind)
	lostNext   []disc
	cands      []disc
	accepted   []disc
	near       []disc
	mask       []bool
	medBuf     [3][256]int32
	peaks      []peak
	patch      []float32
	grid       *tileGrid
	bins       [rays]float64
	profile    []float64
	strength   []float64
	outlines   []float64 // the frame's whole discs' outlines (menSized)
	// sizeTrial: LearnSet measures how well a striker size is supported;
	// no disc is made striker-sized by its reach (ringedStrikers).
	sizeTrial bool
	hidBins   [rays]bool
	stats     Stats
	// trace, when set (diagnostics only), is told what happens to each
	// candidate: its rectified position and a message.
	trace func(x, y float64, msg string)

	// now is the time of the frame being detected (s). strAt is where
	// the striker was last found (rectified px), at time strT, when
	// strSeen: see findPartial.
	now     float64
	strAt   [2]float64
	strT    float64
	strSeen bool
	// strCol is the colour of the striker's face (see rememberStriker),
	// known when strColOK.
	strCol   [3]float64
	strColOK bool
	// strDR is how far out from the model's outline the striker's rim
	// lies, px (see rememberStriker).
	strDR float64
	// streak: the discs in motion smeared by the exposure (streak.go).
	streak streakState
	// noise: the camera's noise measured on the bare wood, and the
	// smoothing it calls for (noise.go).
	noise noiseState
}

// tracef reports a candidate's fate to the trace (callers check d.trace
// first, so that nothing is formatted otherwise).
func (d *Detector) tracef(x, y float64, format string, args ...any) {
	d.trace(x, y, fmt.Sprintf(format, args...))
}

// edgeThreshold is the gradient magnitude an edge pixel must reach (3×3
// Sobel, the strongest of B, G, R) on a board of brightness boardY: 28 on a
// board of dimBoardY or brighter, lower on a dimmer one in proportion (the
// gradients of the same disc under less light are weaker in proportion),
// down to 0.7 of it.
func edgeThreshold(boardY float64) float64 {
	return 28 * math.Min(1, math.Max(0.7, boardY/dimBoardY))
}

// dimBoardY is the board brightness (0–255) under which the edge
// threshold is lowered (see edgeThreshold).
const dimBoardY = 150

// Stats describes the work of the last frame, for tests and the debug
// output.
type Stats struct {
	// DirtyTiles is the share of the board searched again (1 when the
	// whole board was).
	DirtyTiles float64
	// Candidates is the number of vote peaks examined.
	Candidates int
	// Hands says whether a foreign object was seen.
	Hands bool
	// BoardY is the board's brightness (0–255).
	BoardY float64
	// Gain is the brightness relative to the background model.
	Gain float64
}

// disc is one detection in the making, in rectified coordinates.
type disc struct {
	x, y       float64 // top face's centre, rectified px
	r          float64 // top face's radius, rectified px
	big        bool    // striker-sized
	measured   bool    // striker-sized as measured (outline and support), before the striker's look was judged
	support    float64 // share of the visible outline found
	hidden     float64 // share of the outline under a hand
	supMan     float64
	supStr     float64
	top        board.Vec // top face's centre projected on the surface, mm
	mm         board.Vec // the disc's place on the surface, mm
	colour     [3]float64
	feat       features
	kind       board.Kind
	menP       [3]float64
	classScore float64
	sizeScore  float64
	marking    int     // index of the printed circle it sits on, or -1
	outline    float64 // radius of the outermost ring of edges, px
	reach      float64 // radius where the edges end beyond it, px (see outlineRadius)
	man, str   hypo    // the two size hypotheses
	idx        int     // index among the accepted, while resolving markings
	sym        float64 // share of the edges inside pointing at the centre
	// sig is the rim's brightness step (see rimEdge) along each ray when the
	// disc was last seen whole, sigAt where it lay (half px from the
	// outline); see refind.
	sig    [rays]float32
	sigAt  [rays]int8
	hasSig bool
	// still counts the frames in a row the disc has been found at the
	// same place (within a pixel) before this one.
	still int
	// parked: the red centre circle or a queen on it, not reported (see
	// dropLoneCircle).
	parked bool
	// fresh: found by this frame's search (not carried over, not
	// refound).
	fresh bool
	// lostAt is the frame in which a disc in Detector.lost was lost.
	lostAt int
	// bigN and manN count the frames in which the disc lying still at
	// this place read striker-sized and man-sized (see keepSizes).
	bigN, manN int
	// inHand: the striker found in part under the fingers (see
	// findPartial); its place is not cleared from the hand mask, and its
	// hidden share is its own.
	inHand bool
	// streak: found by the streak finder (never carried over); blurred:
	// smeared by its motion (its class is unsure), blur the streak's
	// extent, rectified px.
	streak, blurred bool
	blur            [2]float64
}

// New prepares a detector for frames of the calibrated camera: it builds
// the rectification table (lens and homography in one remap) and the
// buffers every frame reuses.
func New(cal *calibrate.Calibration, cfg Config) (*Detector, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("vision: %w", err)
	}
	if cal == nil {
		return nil, errors.New("vision: no calibration")
	}
	if cal.Board.Surface > 0 && math.Abs(cal.Board.Surface-cfg.Geometry.Surface) > 0.5 {
		return nil, fmt.Errorf("vision: the calibration is for a %.0f mm surface, the board geometry says %.0f mm", cal.Board.Surface, cfg.Geometry.Surface)
	}
	d := &Detector{cfg: cfg, g: cfg.Geometry, cls: cfg.Classes}
	if err := d.setCalibration(cal); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Detector) setCalibration(cal *calibrate.Calibration) error {
	// The board's own markings, and the set's sizes and colours: learned
	// by calibration, overridden by the configuration.
	set := cal.Set.Merge(d.cfg.Set)
	d.g = d.cfg.Geometry.WithMarkings(cal.Markings).WithSet(set)
	d.set = set
	if d.cls == nil {
		d.cls = classesOfSet(set)
		d.setClasses = d.cls != nil
	}
	v, err := newView(cal, d.g, d.cfg.PixelsPerMM, d.cfg.Margin, d.cfg.FocalPx)
	if err != nil {
		return fmt.Errorf("vision: %w", err)
	}
	rc, err := newRectifier(v)
	if err != nil {
		return fmt.Errorf("vision: %w", err)
	}
	nb := (v.n + blockPx - 1) / blockPx
	low, err := newRectifierAt(v, 2*nb, blockPx/2)
	if err != nil {
		rc.close()
		return fmt.Errorf("vision: %w", err)
	}
	d.closeMats()
	d.cal, d.v, d.rect, d.low = cal, v, rc, low
	d.img = gocv.NewMatWithSize(v.n, v.n, gocv.MatTypeCV8UC3)
	d.rMan = d.g.Radius(board.White) * v.lift(d.cfg.ManHeight) * v.ppm
	d.rStr = d.g.Radius(board.Striker) * v.lift(d.cfg.StrikerHeight) * v.ppm
	d.vt = newVoter(v.n, d.rMan, d.rStr)
	d.bg = newBackground(v, d.g)
	d.hands = newHandStage(d.bg)
	d.mk = markingsOf(d.g)
	d.coredBase = false
	d.grid = newTileGrid(v.n, tilePx)
	d.prev = d.prev[:0]
	d.lost = d.lost[:0]
	d.frames = 0
	d.strSeen = false
	d.noise.grad = 0
	return nil
}

// SetCalibration switches to a new calibration (after the camera moved):
// the rectification is rebuilt and the background forgotten; the class
// model is kept.
func (d *Detector) SetCalibration(cal *calibrate.Calibration) error {
	if cal == nil {
		return errors.New("vision: no calibration")
	}
	return d.setCalibration(cal)
}

func (d *Detector) closeMats() {
	if d.rect != nil {
		d.rect.close()
		d.rect = nil
	}
	if d.low != nil {
		d.low.close()
		d.low = nil
	}
	if d.vt != nil {
		d.vt.close()
		d.vt = nil
	}
	if d.bg != nil {
		d.bg.close()
		d.bg = nil
	}
	if d.img.Ptr() != nil {
		d.img.Close()
	}
	d.noise.close()
}

// Close frees the detector's OpenCV memory.
func (d *Detector) Close() { d.closeMats() }

// Calibration returns the calibration in use.
func (d *Detector) Calibration() *calibrate.Calibration { return d.cal }

// Classes returns the class model (nil until one was given or learned).
func (d *Detector) Classes() *ClassModel { return d.cls }

// Opening returns what was learned from the opening arrangement (nil until
// one was seen).
func (d *Detector) Opening() *Opening { return d.open }

// Stats returns what the last frame cost.
func (d *Detector) Stats() Stats { return d.stats }

// Rectified returns the rectified board image (owned by the detector, valid
// until the next call): the parts searched in the last frame are from it,
// the rest from earlier frames in which nothing has changed since.
func (d *Detector) Rectified() gocv.Mat { return d.img }

// Detect finds the discs and hands in one frame (8-bit BGR, the size the
// calibration was made for, not undistorted: the lens model is applied
// here). index and t are the frame's number and time, copied to the
// result.
func (d *Detector) Detect(frame gocv.Mat, index int, t float64) (Frame, error) {
	out := Frame{Index: index, T: t, Calibrated: true}
	d.now = t
	if frame.Empty() {
		return out, errors.New("vision: empty frame")
	}
	if err := d.bg.observeFrame(frame, d.low); err != nil {
		return out, fmt.Errorf("vision: %w", err)
	}
	d.vt.thr = edgeThreshold(d.bg.boardY)
	// foreign objects: what differs from the background and is not a disc
	// seen in the previous frame
	prev := d.prev
	d.stats.Hands = d.hands.find(d.bg.fg, func(i, j int) bool { return d.coveredBy(prev, i, j) }, handMinArea)
	if err := d.detect(frame); err != nil {
		return out, fmt.Errorf("vision: %w", err)
	}
	if d.stats.Hands {
		// the foreign regions again, without the discs just found (a disc
		// the hand moved is not the hand)
		acc := d.accepted
		d.stats.Hands = d.hands.find(d.bg.fg, func(i, j int) bool { return d.coveredBy(acc, i, j) }, handMinArea)
		for i := range d.accepted {
			if !d.accepted[i].inHand {
				d.accepted[i].hidden = d.hiddenShare(d.accepted[i])
			}
		}
	}
	for _, c := range d.accepted {
		if c.big {
			d.rememberStriker(c)
		}
	}
	d.bg.update(d.hands.mask)
	d.hands.endFrame()
	d.frames++
	d.stats.BoardY, d.stats.Gain = d.bg.boardY, d.bg.gain
	// keep the discs for the next frame
	d.prev = append(d.prev[:0], d.accepted...)
	out.Detections = make([]Detection, 0, len(d.accepted))
	for _, c := range d.accepted {
		if !c.parked {
			out.Detections = append(out.Detections, d.toDetection(c))
		}
	}
	sortDetections(out.Detections)
	if d.stats.Hands {
		out.Occlusion = d.hands.occlusion(d.v)
	}
	return out, nil
}

// coveredBy reports whether the background block (i, j) lies on one of
// the discs.
func (d *Detector) coveredBy(ds []disc, i, j int) bool {
	x := (float64(i)+0.5)*float64(d.bg.bs) - 0.5
	y := (float64(j)+0.5)*float64(d.bg.bs) - 0.5
	for k := range ds {
		c := &ds[k]
		if c.inHand {
			continue // the fingers are over it
		}
		rr := c.r + float64(d.bg.bs)
		if dx, dy := x-c.x, y-c.y; dx*dx+dy*dy <= rr*rr {
			return true
		}
	}
	return false
}

// detect searches the regions that changed and merges the result with the
// discs of the unchanged ones, in named phases:
//
//   - changedTiles: the tiles to search again this frame;
//   - regions: the dirty tiles grown by their margin, as rectangles;
//   - carryOver: the discs of the clean tiles, kept as they were;
//   - search: rectify the regions, vote, examine the peaks: candidates;
//   - crowdedStrikers: striker-sized candidates hemmed in by men are men;
//   - merge: the candidates, strongest first, that overlap no stronger
//     disc and point at their centre (or sit in a cluster) are accepted;
//   - settle: what the merged discs still need (fingertips dropped, discs
//     refound under a hand, the striker under the fingers, the printed
//     circles told apart, classes, the streaks of moving discs).
func (d *Detector) detect(frame gocv.Mat) error {
	d.changedTiles(d.frames == 0 || d.cfg.FullEvery < 0)
	d.grid.regions()
	d.stats.DirtyTiles = d.grid.share()
	tpb := d.grid.px / d.bg.bs
	for k, v := range d.grid.dirty {
		if v {
			d.bg.searched(k%d.grid.n, k/d.grid.n, tpb)
		}
	}
	kept := d.carryOver()
	pl, err := d.search(frame, kept)
	if err != nil {
		return err
	}
	d.crowdedStrikers()
	d.merge()
	d.settle(pl, kept)
	return nil
}

// changedTiles marks the tiles to search this frame: all of them (full),
// or those holding a block that changed, just came to rest, just entered
// the background, or was hidden or uncovered by a hand since the last
// frame, and those whose turn it is (see tileGrid.markRound).
func (d *Detector) changedTiles(full bool) {
	t := d.grid
	t.reset(full)
	if full {
		return
	}
	tpb := t.px / d.bg.bs
	nb := d.bg.nb
	// row by row: block (i, j) lies in tile (i/tpb, j/tpb)
	for j := 0; j < nb; j++ {
		row := j * nb
		changed, stable := d.bg.changed[row:row+nb], d.bg.stable[row:row+nb]
		mask, was := d.hands.mask[row:row+nb], d.hands.was[row:row+nb]
		dirty := t.dirty[(j/tpb)*t.n:]
		for i, ch := range changed {
			st := stable[i]
			if ch || st == settleFrames || st == stableFrames+2 || mask[i] != was[i] {
				dirty[i/tpb] = true
			}
		}
	}
	t.markRound(d.frames, d.cfg.FullEvery)
}

// carryOver starts the frame's accepted discs with those of the last frame
// that lie in clean tiles (not a streak: those are looked for anew every
// frame), their hidden share updated, and returns how many there are.
func (d *Detector) carryOver() int {
	d.accepted = d.accepted[:0]
	for _, c := range d.prev {
		if !d.grid.at(c.x, c.y) && !c.streak {
			if !c.inHand {
				c.hidden = d.hiddenShare(c)
			}
			c.still++
			c.fresh = false
			d.accepted = append(d.accepted, c)
		}
	}
	return len(d.accepted)
}

// search rectifies the regions to search, votes in each and examines the
// peaks that lie in dirty tiles (the two vote maps peak together on most
// discs: a peak within 2 px of a stronger one is not examined again, nor
// one on a disc carried over), strongest first; the examined discs are
// the candidates (d.cands). It returns the rectified image's plane.
func (d *Detector) search(frame gocv.Mat, kept int) (plane, error) {
	d.cands = d.cands[:0]
	d.peaks = d.peaks[:0]
	for _, r := range d.grid.rects {
		d.rect.applyRect(frame, &d.img, r)
	}
	pl := d.plane()
	d.measureNoise(pl)
	d.smoothNoisy()
	// A peak counts in a dirty tile or within half a man's radius of one:
	// a disc on the border between a dirty tile and a clean one is
	// dropped from the kept discs by where its centre was, and its peak
	// may come out a pixel across the border. (The region's outer tile
	// ring is the margin an examination reads.)
	m := int(math.Ceil(0.5 * d.rMan))
	inDirty := func(x, y int) bool { return d.grid.near(x, y, m) && d.insideSurface(x, y) }
	for _, r := range d.grid.rects {
		if err := d.vt.vote(d.img, r, 0); err != nil {
			return pl, err
		}
		var err error
		d.peaks, err = d.vt.peaks(r, inDirty, 0.022, d.peaks)
		if err != nil {
			return pl, err
		}
	}
	sort.Slice(d.peaks, func(i, j int) bool { return d.peaks[i].score > d.peaks[j].score })
	d.stats.Candidates = 0
	for i, p := range d.peaks {
		dup := false
		for _, q := range d.peaks[:i] {
			if dx, dy := p.x-q.x, p.y-q.y; dx*dx+dy*dy < 4 {
				dup = true
				break
			}
		}
		if dup || d.onKept(p, kept) {
			continue
		}
		d.stats.Candidates++
		if c, ok := d.examine(pl, p); ok {
			d.cands = append(d.cands, c)
		}
	}
	return pl, nil
}

// crowdedStrikers turns striker-sized candidates into men (or drops them)
// when men sit too close. A striker cannot have a man's centre closer than
// the two radii: such a candidate is a man in a cluster whose neighbours
// mimic a striker's outline. One man that close must touch it as a man
// touches a man (within 0.9 of the radius sum; touching men are 0.87
// apart): the striker touching a man is a radius sum away from it, and a
// moving disc's centre may be off by a pixel or two. Two such men are
// proof enough within 0.93.
func (d *Detector) crowdedStrikers() {
	for i := range d.cands {
		c := &d.cands[i]
		if !c.big {
			continue
		}
		n, touching := 0, false
		for _, o := range d.cands {
			if o.big {
				continue
			}
			dist := math.Hypot(o.x-c.x, o.y-c.y)
			if o.man.ok && o.man.support >= 0.9 && o.man.sym >= goodSymmetry && dist > 0.7*(d.rMan+d.rStr) && dist < 0.93*(d.rMan+d.rStr) {
				n++
				touching = touching || dist < 0.9*(d.rMan+d.rStr)
			}
		}
		if n >= 2 || touching {
			if d.trace != nil {
				d.tracef(c.x, c.y, "striker-sized but %d men are closer than a striker's radius allows: a man", n)
			}
			if !d.toMan(c) {
				c.support = 0 // neither: dropped in merge
			}
		}
	}
}

// merge accepts the candidates, strongest first (those pointing at their
// centre before the others, then by support): a candidate overlapping an
// accepted disc is a duplicate; one whose edges do not point at its
// centre well enough is looked at again without the edges of the discs
// around it (accepted, or candidates clearly apart from it), then without
// printed lines it hides, and is dropped unless it then does or sits in a
// cluster (fitsCluster).
func (d *Detector) merge() {
	sort.SliceStable(d.cands, func(i, j int) bool {
		a, b := d.cands[i], d.cands[j]
		if (a.sym >= goodSymmetry) != (b.sym >= goodSymmetry) {
			return a.sym >= goodSymmetry
		}
		return a.support > b.support
	})
	overlaps := func(c disc) bool {
		for _, a := range d.accepted {
			if math.Hypot(a.x-c.x, a.y-c.y) < 0.8*(a.r+c.r) {
				return true
			}
		}
		return false
	}
	var again []int
	for i, c := range d.cands {
		if c.support == 0 || overlaps(c) {
			if d.trace != nil {
				d.tracef(c.x, c.y, "dropped: support %.2f, overlaps a stronger disc %v", c.support, overlaps(c))
			}
			continue
		}
		if c.sym < goodSymmetry && !d.symmetricAlone(&c) {
			again = append(again, i)
			continue
		}
		if d.trace != nil {
			d.tracef(c.x, c.y, "accepted: big %v support %.2f sym %.2f", c.big, c.support, c.sym)
		}
		c.fresh = true
		d.accepted = append(d.accepted, c)
	}
	// A pack is accepted from its clearest discs inward: a disc dropped
	// for want of neighbours may have them now.
	for added := true; added && len(again) > 0; {
		added = false
		rest := again[:0]
		for _, i := range again {
			c := d.cands[i]
			if overlaps(c) {
				continue
			}
			if !d.symmetricAlone(&c) {
				rest = append(rest, i)
				continue
			}
			if d.trace != nil {
				d.tracef(c.x, c.y, "accepted in a pack: big %v support %.2f sym %.2f", c.big, c.support, c.sym)
			}
			c.fresh = true
			d.accepted = append(d.accepted, c)
			added = true
		}
		again = rest
	}
}

// symmetricAlone measures the symmetry of a candidate again without the
// edges of the discs around it (accepted, or candidates clearly apart
// from it) and, lying across printed lines, without the lines' edges that
// end at its outline; it reports whether the candidate is kept: then
// symmetric enough, or sitting in a cluster.
func (d *Detector) symmetricAlone(c *disc) bool {
	d.near = d.near[:0]
	for _, o := range d.accepted {
		if math.Hypot(o.x-c.x, o.y-c.y) < c.r+o.r+3 {
			d.near = append(d.near, o)
		}
	}
	for _, o := range d.cands {
		if dist := math.Hypot(o.x-c.x, o.y-c.y); o.support > 0 && dist >= 1.6*d.rMan && dist < c.r+o.r+3 {
			d.near = append(d.near, o)
		}
	}
	near := d.near
	notNear := func(i, j int) bool {
		for _, a := range near {
			dx, dy := float64(i)-a.x, float64(j)-a.y
			if rr := a.r + 1.5; dx*dx+dy*dy <= rr*rr {
				return true
			}
		}
		return false
	}
	c.sym = d.vt.symmetry(c.x, c.y, c.r, 1.1, 1.2, notNear)
	if c.sym < goodSymmetry && d.acrossPrint(*c) {
		// a whole disc lying across printed lines: the lines' edges that
		// end at its outline are the disc hiding them
		s, out := d.vt.symmetryOccluding(c.x, c.y, c.r, 1.1, 1.2, notNear)
		if d.trace != nil {
			d.tracef(c.x, c.y, "symmetry %.2f without the lines that end at its outline (%.2f of the edges)", s, out)
		}
		if s >= goodSymmetry && (!c.big || c.boardDist() >= plainBoardDist) {
			c.sym = s
		}
	}
	if c.sym < goodSymmetry && c.big && c.man.ok && c.man.sym >= goodSymmetry && !(d.stats.Hands && d.nearHand(*c)) && !d.onMarking(*c) {
		// measured striker-sized, but its edges point at a man's
		// centre: a man a little larger than the geometry's (a set not
		// learned yet), not nothing. (Not by a hand: a striker under
		// withdrawing fingers is not seen whole; nor on a printed
		// circle, whose rings widen its outline: a print would become a
		// man there.)
		if m := *c; d.toMan(&m) {
			if d.trace != nil {
				d.tracef(c.x, c.y, "symmetry %.2f as a striker, %.2f as a man: a man", c.sym, c.man.sym)
			}
			*c = m
		}
	}
	if c.sym < goodSymmetry && !d.fitsCluster(*c) {
		if d.trace != nil {
			d.tracef(c.x, c.y, "dropped: symmetry without the neighbours %.2f, not in a cluster", c.sym)
		}
		return false
	}
	return true
}

// settle finishes the frame's discs after the merge (kept: the first
// accepted discs carried over): fingertips dropped, discs at rest refound
// under a hand, the striker found under the fingers, the printed circles
// told from discs, the classes, the look of new discs remembered, the
// streaks of moving discs, and the still-image check.
func (d *Detector) settle(pl plane, kept int) {
	d.dropFingertips(kept)
	d.refind()
	d.findPartial(pl)
	d.resolveMarkings(pl, kept)
	d.menSized()
	d.ringedStrikers(pl)
	d.keepSizes(pl)
	d.classify()
	for i := range d.accepted {
		if c := &d.accepted[i]; c.fresh {
			d.remember(c)
		}
	}
	d.findStreaks(pl)
	d.stillImage()
}

// dropFingertips drops the candidates found since index from that are
// partly under a hand (more than fingertipHidden of their outline) and
// were not there in the last frame (no disc within a man's radius, found
// or being looked for under the hand): a fingertip at the edge of the
// hand mask is round, the size of a man and, on a dark hand, as dark as
// a black man. A disc comes under a hand either lying there already (it
// was seen) or held in the fingers (not reported until it is let go).
func (d *Detector) dropFingertips(from int) {
	if !d.stats.Hands {
		return
	}
	out := d.accepted[:from]
	for _, c := range d.accepted[from:] {
		if c.hidden > fingertipHidden && !d.wasNear(c, d.rMan) {
			if d.trace != nil {
				d.tracef(c.x, c.y, "dropped: %.2f under the hand and nothing there before (a fingertip?)", c.hidden)
			}
			continue
		}
		out = append(out, c)
	}
	d.accepted = out
}

// fingertipHidden is the share of a new candidate's outline under a hand
// above which it is taken for a fingertip (see dropFingertips);
// fingertipSupport the share of its outline a new man-sized candidate
// whose middle is under the hand mask must show (see examine).
const (
	fingertipHidden  = 0.3
	fingertipSupport = 0.9
)

// wasNear reports whether a disc of the last frame, or one lost under a
// hand and looked for, lay within dist pixels of c.
func (d *Detector) wasNear(c disc, dist float64) bool {
	for _, list := range [2][]disc{d.prev, d.lost} {
		for _, p := range list {
			if math.Hypot(p.x-c.x, p.y-c.y) < dist {
				return true
			}
		}
	}
	return false
}

func (d *Detector) plane() plane {
	pix, _ := d.img.DataPtrUint8()
	return plane{pix: pix, w: d.v.n, h: d.v.n}
}

// onKept reports whether a peak outside the dirty tiles (in the margin
// nearDirty allows) lies on one of the first kept accepted discs (carried
// over from the last frame): it is that disc.
func (d *Detector) onKept(p peak, kept int) bool {
	if d.grid.at(p.x, p.y) {
		return false
	}
	for _, a := range d.accepted[:kept] {
		if dx, dy := p.x-a.x, p.y-a.y; dx*dx+dy*dy < a.r*a.r {
			return true
		}
	}
	return false
}

// insideSurface reports whether a rectified pixel can be a disc's centre:
// on the playing surface, not inside a pocket's hole.
func (d *Detector) insideSurface(x, y int) bool {
	p := d.v.mmOf(float64(x), float64(y))
	h := d.g.Half()
	if math.Abs(p.X) > h || math.Abs(p.Y) > h {
		return false
	}
	if _, dist := d.g.NearestPocket(p); dist < 0.8*d.g.PocketDiameter/2 {
		return false
	}
	return true
}

// model returns the appearance model of a disc hypothesis at (x, y).
func (d *Detector) model(x, y float64, big bool) discModel {
	if big {
		return d.v.model(x, y, d.g.Radius(board.Striker), d.cfg.StrikerHeight)
	}
	return d.v.model(x, y, d.g.Radius(board.White), d.cfg.ManHeight)
}

// A candidate's edges must point at its centre: at least minSymmetry of
// their energy (within 1.1 radii) for it to be examined at all, and
// goodSymmetry to be accepted — counting, for candidates under that,
// only the edges that do not belong to discs already accepted (in a
// cluster the neighbours' rims are in the way).
const (
	minSymmetry  = 0.15
	goodSymmetry = 0.35
)

// examine refines a vote peak into a disc, or rejects it.
func (d *Detector) examine(pl plane, p peak) (disc, bool) {
	var hid func(x, y float64) bool
	minSup := d.cfg.MinSupport
	if !d.stats.Hands {
		return d.examineWith(pl, p, nil, minSup)
	}
	hid = d.hands.at
	if d.hands.at(p.x, p.y) {
		// Its middle is under what looked foreign so far — which may be
		// the disc itself, moved by the hand: only a disc seen whole is
		// taken there. A fingertip sticking out of the hand mask shows
		// most of a round outline the size of a man: a man-sized disc
		// where none lay in the last frame must show all of it (a man
		// held in the fingers is not reported until let go; the striker,
		// larger than a fingertip, is followed while it is placed).
		c, ok := d.examineWith(pl, p, nil, math.Max(minSup, 0.75))
		if ok && !c.big && c.support < fingertipSupport && !d.wasNear(c, d.rMan) {
			if d.trace != nil {
				d.tracef(c.x, c.y, "dropped: man-sized, new, %.2f of it seen, its middle under the hand (a fingertip?)", c.support)
			}
			return disc{}, false
		}
		return c, ok
	}
	c, ok := d.examineWith(pl, p, hid, minSup)
	if ok && c.hidden == 0 {
		return c, ok
	}
	// The hand mask is coarse (blocks, grown by one, a hand's shadow
	// included) and a disc just put down is foreign to the background
	// too: a disc whose whole outline is seen, its edges pointing at its
	// centre, is a whole disc even where the mask says a hand may be.
	// (Where the mask allowed for a striker, fingers over its rim may
	// leave only its inner ring whole: the whole look must then agree on
	// the size.)
	if w, wok := d.examineWith(pl, p, nil, math.Max(minSup, 0.9)); wok && w.sym >= goodSymmetry && (!ok || w.big == c.big) {
		if d.trace != nil {
			d.tracef(w.x, w.y, "seen whole under the hand mask")
		}
		return w, true
	}
	return c, ok
}

// examineWith is examine with the given hand mask (nil: none) and share
// of the outline to be seen.
func (d *Detector) examineWith(pl plane, p peak, hid func(x, y float64) bool, minSup float64) (disc, bool) {
	big := p.kind == 1
	x, y, ok := d.refine(p.x, p.y, big, hid)
	if !ok {
		if d.trace != nil {
			d.tracef(p.x, p.y, "peak %.2f (kind %d): no centre", p.score, p.kind)
		}
		return disc{}, false
	}
	c := disc{marking: -1}
	sm, hm, ss, hs := d.sizes(&c, x, y, hid)
	if c.big != big {
		if x2, y2, ok := d.refine(x, y, c.big, hid); ok {
			x, y = x2, y2
			sm, hm, ss, hs = d.sizes(&c, x, y, hid)
		}
	}
	c.x, c.y = x, y
	if !d.insideSurface(int(math.Round(x)), int(math.Round(y))) {
		if d.trace != nil {
			d.tracef(x, y, "outside the surface")
		}
		return disc{}, false
	}
	// both sizes are checked: in a cluster a man may look like a striker
	// until the neighbours are known
	boardF := featuresOf(d.bg.boardBGR, d.bg.boardY)
	manOK := sm >= minSup && hm <= 0.7 && d.plausible(pl, x, y, d.rMan, boardF, sm, hm, hid, &c.man)
	strOK := c.big && ss >= minSup && hs <= 0.7 && d.plausible(pl, x, y, d.rStr, boardF, ss, hs, hid, &c.str)
	if d.trace != nil {
		d.tracef(x, y, "peak %.2f (kind %d) at %.1f,%.1f: man sup %.2f hid %.2f ok %v sym %.2f board %.1f; striker sup %.2f hid %.2f ok %v sym %.2f board %.1f; outline %.1f (man %.1f striker %.1f) big %v",
			p.score, p.kind, p.x, p.y, sm, hm, manOK, c.man.sym, c.man.boardDist, ss, hs, strOK, c.str.sym, c.str.boardDist, c.outline, d.rMan, d.rStr, c.big)
	}
	if c.big && !strOK {
		c.big = false
	}
	if !c.big && !manOK {
		return disc{}, false
	}
	c.man.support, c.man.hidden = sm, hm
	c.str.support, c.str.hidden = ss, hs
	if c.big {
		c.setSize(true, d)
		c.sizeScore = clamp01(0.5 + (c.outline-(d.rMan+d.rStr)/2)/(d.rStr-d.rMan))
	} else {
		c.setSize(false, d)
		c.sizeScore = clamp01(0.5 + ((d.rMan+d.rStr)/2-c.outline)/(d.rStr-d.rMan))
	}
	d.place(&c)
	return c, true
}

// hypo is what one size hypothesis of a candidate measured.
type hypo struct {
	support, hidden, sym float64
	boardDist            float64
	colour               [3]float64
	ok                   bool
}

// plausible measures a size hypothesis's symmetry and colour and tells
// whether it can be a disc: its edges point at its centre, and it is not
// a patch of bare wood ringed by printed arcs and lines (the middle of the
// board's colour and the edges not convincingly a disc's).
func (d *Detector) plausible(pl plane, x, y, r float64, boardF features, support, hidden float64, hid func(x, y float64) bool, h *hypo) bool {
	var skip func(i, j int) bool
	if hid != nil && hidden > 0 {
		skip = func(i, j int) bool { return hid(float64(i), float64(j)) }
	}
	h.sym = d.vt.symmetry(x, y, r, 1.1, 1.2, skip)
	if h.sym < minSymmetry {
		return false
	}
	// partly under a hand (fingers are round too): what shows must be
	// clearly a disc
	if hidden > 0.3 && h.sym < 0.45 {
		return false
	}
	h.colour = pl.medianIn(x, y, 0.6*r, &d.medBuf)
	h.boardDist = featDist(featuresOf(h.colour, d.bg.boardY), boardF)
	// (A whole, unbroken outline with bare board all around it is a disc
	// even of the board's colour — a natural-wood man on a honey board:
	// arcs and star points meeting around a point leave gaps, and a hole
	// in a pack is ringed by discs; the printed circles of a man's size
	// are told apart afterwards, see resolveMarkings.)
	if h.sym < 0.45 && h.boardDist < 2.5 && (support < 0.97 || hidden > 0 || boardAround(pl, x, y, r, d.bg.boardY, boardF) < 0.75) {
		return false
	}
	h.ok = true
	return true
}

// boardAround returns the share of the points on two rings just outside
// the disc (x, y, r) whose colour is the board's.
func boardAround(pl plane, x, y, r, boardY float64, boardF features) float64 {
	in := 0
	for a := 0; a < rays; a++ {
		cs, sn := rayCos[a], raySin[a]
		ok := true
		for _, f := range [2]float64{1.35, 1.55} {
			c := pl.at(x+cs*f*r, y+sn*f*r)
			if featDist(featuresOf([3]float64{float64(c[0]), float64(c[1]), float64(c[2])}, boardY), boardF) >= 2.5 {
				ok = false
			}
		}
		if ok {
			in++
		}
	}
	return float64(in) / rays
}

// acrossPrint reports whether a candidate may be judged by its symmetry
// without the printed lines that end at its outline (see
// voter.symmetryOccluding): its whole outline is seen (all but one of the
// directions), it is at rest (nothing changed there since the last frame:
// a moving disc's blur streaks along its path and goes on outward from its
// outline too), the whole disc lies on the playing surface, no hand is
// near it (a finger's sides also end at its round tip), and it is not on
// a printed circle of a disc's size (the star points around the centre
// circle and the arrows at the base circles end at those circles'
// outlines: the circles are told apart from discs by resolveMarkings).
func (d *Detector) acrossPrint(c disc) bool {
	if c.support < 0.96 || c.hidden > 0 || !d.bg.stillAt(c.x, c.y, c.r) {
		return false
	}
	rmm := c.r / d.v.ppm
	if h := d.g.Half() - rmm; math.Abs(c.top.X) > h || math.Abs(c.top.Y) > h {
		return false
	}
	for _, m := range d.mk {
		if c.top.Dist(m.c) < baseCircleTol*m.r+rmm {
			return false
		}
	}
	if d.stats.Hands {
		for k := 0; k <= 3; k++ {
			rad := float64(k) * c.r
			for a := 0; a < rays; a += 2 {
				if d.hands.at(c.x+rayCos[a]*rad, c.y+raySin[a]*rad) {
					return false
				}
				if k == 0 {
					break
				}
			}
		}
	}
	return true
}

// fitsCluster reports whether a candidate whose edges are too mixed up
// with its neighbours' to judge by their directions still is a disc of a
// touching cluster: its whole outline is seen and it touches at least two
// accepted discs, each exactly one radius sum away.
func (d *Detector) fitsCluster(c disc) bool {
	touching, near := 0, 0
	for _, a := range d.accepted {
		dist := math.Hypot(a.x-c.x, a.y-c.y)
		if math.Abs(dist-(a.r+c.r)) <= 1.5 {
			touching++
		}
		if dist <= packGap*(a.r+c.r) {
			near++
		}
	}
	if c.support >= 0.9 && touching >= 2 && c.boardDist() >= plainBoardDist {
		return true
	}
	// A pack set by hand (the opening arrangement on a real board) is not
	// tight: its men lie a little apart, over the printed star, and at
	// 1.5–2 mm per pixel or through JPEG the rim between two men of
	// similar colour (natural wood beside the red queen) is faint. Such a
	// man is still a disc when its middle is clearly not the board (a gap
	// in the pack shows the board) and its edges point at it more than at
	// anything else around.
	ok := near >= 2 && c.sym >= packSymmetry && c.boardDist() >= packBoardDist && d.bg.stillAt(c.x, c.y, c.r) && !(d.stats.Hands && d.nearHand(c))
	if d.trace != nil {
		d.tracef(c.x, c.y, "pack: %d accepted discs within %.1f radius sums, %d touching, symmetry %.2f, board distance %.1f: %v", near, packGap, touching, c.sym, c.boardDist(), ok)
	}
	return ok
}

// boardDist is how far the colour of the candidate's middle lies from the
// board's (featDist), by its size hypothesis.
func (c disc) boardDist() float64 {
	if c.big {
		return c.str.boardDist
	}
	return c.man.boardDist
}

// plainBoardDist: a candidate whose edges do not clearly point at its
// centre (symmetry under goodSymmetry) is taken for a disc by its place
// (exactly touching two discs in a pack, see fitsCluster) only when its
// middle is at least this far from the board's colour (featDist: two of
// the floors' spreads), and across printed lines (see symmetricAlone), if
// striker-sized, too (a natural-wood man across a line may be of the
// board's very colour; strikers are plastic or stone). The board seen
// through a gap in a pack or between the star's points and its ring is
// 2.4–3.0 from itself through JPEG; the natural-wood men on honey boards
// of the corpus's openings are 4.9–6.9 from it.
const plainBoardDist = 4

// A disc in a loose pack (see fitsCluster) has at least two accepted
// discs within packGap radius sums (touching men are 0.87 apart), at
// least packSymmetry of the edge energy around it pointing at its centre,
// and a middle at least packBoardDist from the board's colour (featDist:
// a man 18% darker than the board, or as far in hue).
const (
	packGap       = 1.3
	packSymmetry  = 0.25
	packBoardDist = 10
)

// toMan turns a striker-sized candidate into a man, refining its centre
// for a man's outline; false when it is no plausible man.
func (d *Detector) toMan(c *disc) bool {
	if !c.man.ok {
		return false
	}
	var hid func(x, y float64) bool
	if d.stats.Hands {
		hid = d.hands.at
	}
	if x, y, ok := d.refine(c.x, c.y, false, hid); ok {
		c.x, c.y = x, y
	}
	c.setSize(false, d)
	c.sizeScore = 0.5
	return true
}

// setSize makes the candidate a striker (big) or a man with the
// measurements of that hypothesis.
func (c *disc) setSize(big bool, d *Detector) {
	h := c.man
	if big {
		h = c.str
	}
	c.big = big
	c.support, c.hidden, c.sym, c.colour = h.support, h.hidden, h.sym, h.colour
	c.r = d.model(c.x, c.y, big).r0
	d.place(c)
}

// place fills in the board positions of a disc from its rectified ones.
func (d *Detector) place(c *disc) {
	c.top = d.v.mmOf(c.x, c.y)
	h := d.cfg.ManHeight
	if c.big {
		h = d.cfg.StrikerHeight
	}
	c.mm = d.v.toSurface(c.top, h)
}

// refine moves a disc's centre to the point its rim and rings are
// symmetric about (see symmetryFit).
func (d *Detector) refine(x, y float64, big bool, hid func(x, y float64) bool) (float64, float64, bool) {
	h := d.cfg.ManHeight
	r := d.rMan
	if big {
		h, r = d.cfg.StrikerHeight, d.rStr
	}
	foot := func(x, y float64) (float64, float64) {
		return d.v.pxOf(d.v.toSurface(d.v.mmOf(x, y), h))
	}
	fx, fy, _, ok := d.vt.symmetryFit(x, y, r, 1.3, foot, hid)
	return fx, fy, ok
}

// support measures how much of a disc's outline is seen: in each of the
// directions around it, whether an edge crossing the expected outline
// (within 1.5 px, its gradient along the radius) is there. It returns the
// share of visible directions with an edge, and the share of directions
// hidden by a hand.
func (d *Detector) support(x, y float64, m discModel, hid func(x, y float64) bool) (float64, float64) {
	vt := d.vt
	thr := float32(1.25 * vt.thr)
	var seen, vis, hidden int
	for k := 0; k < rays; k++ {
		ux, uy := rayCos[k], raySin[k]
		ext := m.r0 + m.silhouette(ux, uy)
		if hid != nil && hid(x+ux*ext, y+uy*ext) {
			hidden++
			continue
		}
		vis++
		for s := ext - 1.5; s <= ext+1.5; s += 0.75 {
			rad, e, ok := vt.radialAt(x+ux*s, y+uy*s, ux, uy)
			if ok && e >= thr && abs32(rad) >= 0.75*e {
				seen++
				break
			}
		}
	}
	if vis == 0 {
		return 0, 1
	}
	return float64(seen) / float64(vis), float64(hidden) / rays
}

// sizes measures both sizes' outlines at (x, y) and chooses by where the
// disc's outline is: the outermost strong ring of radial edges around the
// centre (see outlineRadius), nearer a striker's radius or a man's. (In a
// cluster the neighbours' rims and grooves look like a striker's outline;
// detect rules those out afterwards.)
func (d *Detector) sizes(c *disc, x, y float64, hid func(x, y float64) bool) (sm, hm, ss, hs float64) {
	sm, hm = d.support(x, y, d.model(x, y, false), hid)
	ss, hs = d.support(x, y, d.model(x, y, true), hid)
	c.supMan, c.supStr = sm, ss
	c.outline, c.reach = d.outlineRadius(x, y, hid)
	mid := (d.rMan + d.rStr) / 2
	c.big = ss >= d.cfg.MinSupport && c.outline >= mid
	c.measured = c.big
	return
}

// outlineStep is the resolution of outlineRadius (rectified px).
const outlineStep = 0.5

// outlineRadius returns the radius (rectified px) of the outermost strong
// ring of radial edges about (x, y): for each radius the median, over the
// directions around, of the gradient along the radius; the largest radius
// whose median is a local maximum of at least half the strongest. reach is
// where the edges end beyond it: the radius (to a fraction of a step)
// out to which the medians stay at least reachShare of the strongest
// without a break (+Inf when they do not end within the range).
func (d *Detector) outlineRadius(x, y float64, hid func(x, y float64) bool) (outline, reach float64) {
	vt := d.vt
	n := vt.n
	lo, hi := 0.7*d.rMan, 1.22*d.rStr
	const step = outlineStep
	ns := int((hi-lo)/step) + 1
	if cap(d.profile) < ns {
		d.profile = make([]float64, ns)
	}
	prof := d.profile[:ns]
	vals := d.strength[:0]
	for i := 0; i < ns; i++ {
		r := lo + float64(i)*step
		vals = vals[:0]
		for k := 0; k < rays; k++ {
			px, py := x+rayCos[k]*r, y+raySin[k]*r
			if hid != nil && hid(px, py) {
				continue
			}
			ix, iy := int(px+0.5), int(py+0.5)
			if ix < 0 || iy < 0 || ix >= n || iy >= n {
				continue
			}
			kk := iy*n + ix
			vals = append(vals, math.Abs(float64(vt.ex[kk])*rayCos[k]+float64(vt.ey[kk])*raySin[k]))
		}
		prof[i] = medianShort(vals) // (rays values at most, none −0)
	}
	d.strength = vals
	mx := 0.0
	for _, v := range prof {
		mx = math.Max(mx, v)
	}
	for i := ns - 2; i >= 1; i-- {
		if prof[i] >= 0.5*mx && prof[i] >= prof[i-1] && prof[i] >= prof[i+1] {
			// how far out the edges go on from there without a break
			// (on past the range: no end, +Inf)
			reach := math.Inf(1)
			for j := i + 1; j < ns; j++ {
				if prof[j] < reachShare*mx {
					reach = lo + (float64(j-1)+(prof[j-1]-reachShare*mx)/(prof[j-1]-prof[j]))*step
					break
				}
			}
			return lo + float64(i)*step, reach
		}
	}
	return d.rMan, d.rMan
}

// reachShare is the share of the strongest ring at which outlineRadius
// takes a disc's edges to end.
const reachShare = 0.25

// hiddenShare recomputes how much of a kept disc's outline a hand hides.
func (d *Detector) hiddenShare(c disc) float64 {
	if !d.stats.Hands {
		return 0
	}
	n := 0
	for k := 0; k < rays; k++ {
		if d.hands.at(c.x+rayCos[k]*c.r, c.y+raySin[k]*c.r) {
			n++
		}
	}
	return float64(n) / rays
}

// toDetection turns a disc into the contract's Detection.
func (d *Detector) toDetection(c disc) Detection {
	px := d.v.imageOf(c.top)
	rad := d.g.Radius(board.White)
	h := d.cfg.ManHeight
	if c.big {
		rad, h = d.g.Radius(board.Striker), d.cfg.StrikerHeight
	}
	score := c.support
	if d.lonelyOnCentre(c) {
		// alone on the red centre circle whose empty look is not known
		// yet: the queen, or the circle itself
		score *= 0.5
	}
	cs := c.classScore
	var blur board.Vec
	if c.blurred {
		cs = math.Min(cs, 0.5)
		blur = board.Vec{X: round3(c.blur[0] / d.v.ppm), Y: round3(c.blur[1] / d.v.ppm)}
	}
	return Detection{
		Kind:       c.kind,
		PX:         [2]float64{round3(px.X), round3(px.Y)},
		MM:         board.Vec{X: round3(c.mm.X), Y: round3(c.mm.Y)},
		RadiusPx:   round3(rad * d.v.lift(h) * d.v.imageScale(c.top)),
		Score:      round3(score),
		ClassScore: round3(cs),
		Partial:    c.hidden > 0.1,
		Blur:       blur,
	}
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }
