package calibrate

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"time"
	"unsafe"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
)

// Options configure [Detect].
type Options struct {
	// Geometry is the board; nil means board.ICF().
	Geometry *board.Geometry
	// Orientation of the result; the zero value means DefaultOrientation().
	Orientation Orientation
	// WorkSize is the longest side, in pixels, of the reduced copy used to
	// find the surface roughly (default 640). Edges are always measured
	// in the full image.
	WorkSize int
	// RefineWithMarkings moves the corners to the joint fit of the edges
	// and the markings when all four edges were measured. Off by default:
	// see docs/calibration.md for what it does to the corner error.
	RefineWithMarkings bool
	// Now gives the time stamped on the result (default time.Now).
	Now func() time.Time
	// MinConfidence is the confidence (the quality score) below which
	// [Detect] refuses the board it found (default
	// [DefaultMinConfidence]; negative: accept any).
	MinConfidence float64
	// MaxTiltDeg is the camera tilt from the vertical above which
	// [Detect] refuses the view as too oblique to referee (default
	// [DefaultMaxTiltDeg]; negative: accept any).
	MaxTiltDeg float64
}

// Defaults of the refusal thresholds. Correct calibrations of the real
// photographs score 0.5–0.9; wrong ones (a base line taken for an edge, a
// picture's border for the frame, the side view) 0.15–0.4; a view with no
// edge of the surface in it at most half its markings term (its corners
// come from the pockets and base lines only, to about 1% of the board).
const (
	DefaultMinConfidence = 0.5
	DefaultMaxTiltDeg    = 25.0
)

// minTiltConfidence is the confidence below which a result is refused as
// unsure whatever its tilt: its markings do not make a carrom board.
const minTiltConfidence = 0.15

// Report is what [Detect] measured, for the debug image and for tests.
// Image sides are in image order (top, right, bottom, left); corners
// top-left, top-right, bottom-right, bottom-left.
type Report struct {
	// Scale is the size of the work copy relative to the frame.
	Scale float64
	// SurfaceLab is the colour of the playing surface (OpenCV 8-bit Lab).
	SurfaceLab [3]float64
	// Threshold is the colour distance that separated surface from frame.
	Threshold float64
	// Sides are the surface edges.
	Sides [4]SideReport
	// ImageCorners are the corners found, in image order.
	ImageCorners [4]Point
	// RearLines are the thick base lines found (nil where not found).
	RearLines [4]*Line
	// Pockets are the pocket holes found, in corner order.
	Pockets [4]*Circle
	// Model is the joint fit of edges and markings, when one was made.
	Model *ModelFit
	// Bow is the largest bow of a found edge ([SideReport.Bow], either
	// way) that ends at an inferred corner, as a fraction of the board's
	// width in the picture; 0 when no corner is inferred (see
	// [inferredBow], [bowFactor]).
	Bow float64
	// Unbowed is the confidence before the bow is counted: how surely
	// the markings make a board there, whatever the precision of its
	// corners.
	Unbowed float64
	// Measured are the board's markings measured through the calibration.
	Measured *markingsMeasured
	// Elapsed is how long detection took.
	Elapsed time.Duration
}

// SideReport is one surface edge.
type SideReport struct {
	// Found: measured in the image. Otherwise Line was inferred.
	Found bool
	// Line is the fitted (or inferred) edge.
	Line Line
	// Samples are the sub-pixel edge positions measured along it.
	Samples []Point
	// RMS is the distance in pixels of the samples from the line.
	RMS float64
	// Bow is how far the measured edge's middle lies outward of the
	// chord joining its ends, in pixels (negative: inward), from a
	// parabola fitted to the samples: the bow a lens that was not
	// undistorted gives a straight edge (see [edgeBow]).
	Bow float64
}

// Circle is a circle in image pixels.
type Circle struct {
	C Point
	R float64
}

// ModelFit is the joint fit of a homography to the edges and markings.
type ModelFit struct {
	// H maps the normalised board square [-1, 1]² to image pixels (image
	// order: (-1, -1) is the top-left corner).
	H Homography
	// RearLine is the fitted position of the rear base lines' centres, as
	// a fraction of the half surface; Pocket likewise for pocket centres.
	RearLine, Pocket float64
	// RearSides are each image side's rear base line (top, right, bottom,
	// left), the same as RearLine unless no edge was in view.
	RearSides [4]float64
	// RMS is the residual in pixels.
	RMS float64
}

// ErrNoBoard is returned (wrapped) when no playing surface is found.
var ErrNoBoard = errors.New("no carrom board found")

// ErrUnsure is returned (wrapped) by [Detect] when the board it found has
// a confidence below [Options.MinConfidence]; the calibration is returned
// with it, for the debug image, but must not be used.
var ErrUnsure = errors.New("board found but not with enough confidence")

// ErrTooOblique is returned (wrapped) by [Detect] when the camera looks at
// the board too far from straight down to referee
// ([Options.MaxTiltDeg]); the calibration is returned with it.
var ErrTooOblique = errors.New("camera too oblique")

func (o Options) withDefaults() Options {
	if o.Geometry == nil {
		o.Geometry = board.ICF()
	}
	if o.Orientation == (Orientation{}) {
		o.Orientation = DefaultOrientation()
	}
	if o.WorkSize <= 0 {
		o.WorkSize = 640
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MinConfidence == 0 {
		o.MinConfidence = DefaultMinConfidence
	}
	if o.MaxTiltDeg == 0 {
		o.MaxTiltDeg = DefaultMaxTiltDeg
	}
	return o
}

// detector holds the images of one detection.
type detector struct {
	lab, workMat gocv.Mat // own the memory of full and work
	opt          Options
	g            *board.Geometry
	full         plane // Lab, full resolution
	work         plane // Lab, reduced and blurred
	dist         []uint8
	edge         []bool // strong colour edges, for the cut regions
	scale        float64
	ref          [3]float64
	thr          float64
	otsu         float64
	rep          *Report
	notes        []string
	// rearPts are the points measured on each rear base line, rearV the
	// line's rough position as a fraction of the half surface.
	rearPts [4][]Point
	rearV   [4]float64
}

// Detect finds the playing surface in a frame (BGR, or grey) with no help:
// the four corners where the surface meets the frame, refined by the
// pockets and base lines where edges are hidden or outside the image, and
// the homography from image pixels to board millimetres. The frame must
// already be undistorted when the camera has a lens model. The returned
// calibration has method auto, the given orientation and a quality score;
// the report says what was measured.
func Detect(img gocv.Mat, opt Options) (*Calibration, *Report, error) {
	start := time.Now()
	d, err := newDetector(img, opt, "detect")
	if err != nil {
		return nil, nil, err
	}
	defer d.close()
	cal, err := d.run()
	d.rep.Elapsed = time.Since(start)
	if err != nil {
		return nil, d.rep, err
	}
	return cal, d.rep, d.judge(cal)
}

// judge refuses a calibration that is too oblique or not confident
// enough, saying why and what to do.
func (d *detector) judge(cal *Calibration) error {
	q := cal.Quality
	// The tilt of a quadrilateral whose markings do not make a board at
	// all (a base line taken for an edge) says nothing of the camera: such
	// a result is refused as unsure, not as oblique. (The real side view
	// scores 0.24–0.32; wrong boards on views from above 0.04 and less.)
	// A bow of the edges makes the corners less precise, not the board
	// less of a board: the confidence before the bow is counted decides.
	tiltMeans := d.opt.MinConfidence <= 0 || d.rep.Unbowed >= minTiltConfidence
	if t := cal.Tilt(); d.opt.MaxTiltDeg > 0 && t > d.opt.MaxTiltDeg && tiltMeans {
		return fmt.Errorf("calibrate: detect: %w: the camera looks at the board about %.0f° from straight down (at most %.0f° can be refereed): mount it above the board's centre, looking down", ErrTooOblique, t, d.opt.MaxTiltDeg)
	}
	if d.opt.MinConfidence > 0 && q.Score < d.opt.MinConfidence {
		why := "the markings found do not fit a carrom board there"
		found := 0
		for _, e := range q.Edges {
			if e == "found" {
				found++
			}
		}
		switch {
		case found == 0:
			np := 0
			for _, p := range d.rep.Pockets {
				if p != nil {
					np++
				}
			}
			pockets := fmt.Sprintf("only %d of its 4 pockets could be measured", np)
			if np == 4 {
				pockets = "its 4 pockets and base lines do not agree"
			}
			why = "no edge of the playing surface is in the picture and " + pockets + ", so its corners rest on the base lines; makers draw those a few millimetres from the rule book's figures, which leaves the corners uncertain by about 1% of the board (0.5% is needed)"
		case found > 0 && found < 4 && d.rep.Unbowed >= d.opt.MinConfidence:
			w := 0.0
			for k, c := range d.rep.ImageCorners {
				w += c.Dist(d.rep.ImageCorners[(k+1)%4]) / 4
			}
			why = fmt.Sprintf("the edges found that run to the corners not measured bow by up to %.1f px (%.2f%% of the board's width), as through a lens that is not undistorted, and those corners, which the markings place with straight lines, can be that far off (0.5%% is needed): give the camera its lens model (boardcam calibrate --lens with chessboard images)", d.rep.Bow*w, 100*d.rep.Bow)
		case found < 4 && q.Score > 0.3:
			why = fmt.Sprintf("only %d of the surface's 4 edges are in the picture and the markings do not pin the others", found)
		}
		return fmt.Errorf("calibrate: detect: %w (confidence %.2f, at least %.2f needed): %s; move the camera so that the whole playing surface and its frame are in view, or give the corners by hand (--corners)", ErrUnsure, q.Score, d.opt.MinConfidence, why)
	}
	return nil
}

// newDetector converts the frame to Lab at full resolution and makes the
// reduced, blurred work copy. what names the caller in errors.
func newDetector(img gocv.Mat, opt Options, what string) (*detector, error) {
	opt = opt.withDefaults()
	if err := opt.Geometry.Validate(); err != nil {
		return nil, fmt.Errorf("calibrate: board geometry: %w", err)
	}
	if img.Empty() {
		return nil, fmt.Errorf("calibrate: %s: empty image", what)
	}
	if img.Cols() < 64 || img.Rows() < 64 {
		return nil, fmt.Errorf("calibrate: %s: image %dx%d is too small", what, img.Cols(), img.Rows())
	}
	bgr := gocv.NewMat()
	defer bgr.Close()
	switch img.Channels() {
	case 1:
		gocv.CvtColor(img, &bgr, gocv.ColorGrayToBGR)
	case 3:
		img.CopyTo(&bgr)
	case 4:
		gocv.CvtColor(img, &bgr, gocv.ColorBGRAToBGR)
	default:
		return nil, fmt.Errorf("calibrate: %s: %d channels", what, img.Channels())
	}
	if bgr.Type() != gocv.MatTypeCV8UC3 {
		return nil, fmt.Errorf("calibrate: %s: want an 8-bit image, got %v", what, img.Type())
	}
	d := &detector{opt: opt, g: opt.Geometry, rep: &Report{}, lab: gocv.NewMat(), workMat: gocv.NewMat()}
	gocv.CvtColor(bgr, &d.lab, gocv.ColorBGRToLab)
	var err error
	if d.full, err = planeOf(&d.lab); err != nil {
		d.close()
		return nil, fmt.Errorf("calibrate: %s: %w", what, err)
	}
	d.scale = math.Min(1, float64(opt.WorkSize)/float64(max(img.Cols(), img.Rows())))
	if d.scale < 1 {
		gocv.Resize(d.lab, &d.workMat, image.Point{int(math.Round(float64(img.Cols()) * d.scale)), int(math.Round(float64(img.Rows()) * d.scale))}, 0, 0, gocv.InterpolationArea)
	} else {
		d.lab.CopyTo(&d.workMat)
	}
	gocv.GaussianBlur(d.workMat, &d.workMat, image.Point{}, 1, 1, gocv.BorderReflect101)
	if d.work, err = planeOf(&d.workMat); err != nil {
		d.close()
		return nil, fmt.Errorf("calibrate: %s: %w", what, err)
	}
	d.rep.Scale = d.scale
	return d, nil
}

func (d *detector) close() {
	d.lab.Close()
	d.workMat.Close()
}

// toFull maps a work-image point to the full image.
func (d *detector) toFull(p Point) Point {
	sx := float64(d.full.w) / float64(d.work.w)
	sy := float64(d.full.h) / float64(d.work.h)
	return Pt((p.X+0.5)*sx-0.5, (p.Y+0.5)*sy-0.5)
}

func (d *detector) toWork(p Point) Point {
	sx := float64(d.work.w) / float64(d.full.w)
	sy := float64(d.work.h) / float64(d.full.h)
	return Pt((p.X+0.5)*sx-0.5, (p.Y+0.5)*sy-0.5)
}

// coarseCand is one rough outline of the surface: the sides found in the
// work image at one threshold, with or without the region cut at strong
// colour edges.
type coarseCand struct {
	thr   float64
	cut   bool
	lines [4]Line
	found [4]bool
	// rank orders the candidates: sides found plus the share of the
	// outline they explain.
	rank float64
}

// candResult is what evaluating one candidate produced.
type candResult struct {
	cal     *Calibration
	rep     *Report
	notes   []string
	rearPts [4][]Point
	rearV   [4]float64
	thr     float64
	nFound  int
	err     error
}

// goodEnough is the quality score above which no further candidate is
// measured.
const goodEnough = 0.8

func (d *detector) run() (*Calibration, error) {
	d.surfaceColour()
	mask := gocv.NewMatWithSize(d.work.h, d.work.w, gocv.MatTypeCV8UC1)
	defer mask.Close()
	// The surface is the region of its colour around the middle. Where
	// something of a similar colour touches it (a white wall, a crocheted
	// pocket net spilling over the frame, a frame of a wood much like the
	// surface's), a loose threshold joins them, so several thresholds are
	// tried, each also with the region cut along strong colour edges (the
	// dark band of the frame's inner wall parts a frame of the surface's
	// colour from it). Each distinct outline is measured in full and the
	// one that fits the board best (the quality score: markings where the
	// geometry puts them, straight edges) wins.
	otsuT := d.distanceMap()
	d.otsu = otsuT
	var firstErr error
	s := &search{d: d, bestScore: math.Inf(-1), cache: map[int][]refined{}}
	// The best-ranked outline of the plain regions first: it is right on
	// most boards, and a good score there ends the search. Then the other
	// outlines, the cut regions' among them, by rank.
	cands := d.outlines(&mask, nil, false, otsuT, &firstErr)
	byRank(cands)
	if len(cands) > 0 && s.try(cands[:1]) {
		return d.adopt(s.best)
	}
	n0 := len(cands)
	cands = d.outlines(&mask, cands, true, otsuT, &firstErr)
	if len(cands) == 0 {
		return nil, firstErr
	}
	if n0 > 0 {
		rest := cands[1:]
		byRank(rest)
		s.try(rest)
	} else {
		byRank(cands)
		s.try(cands)
	}
	if b := s.best; b == nil || b.err != nil || b.rep.Measured == nil || b.rep.Measured.score < 0.4 || b.nFound < 2 {
		d.fromMarkings(s, otsuT)
	}
	return d.adopt(s.best)
}

// adopt makes a candidate's report, notes and markings the detector's and
// returns its calibration.
func (d *detector) adopt(best *candResult) (*Calibration, error) {
	d.rep, d.notes, d.rearPts, d.rearV, d.thr = best.rep, best.notes, best.rearPts, best.rearV, best.thr
	return best.cal, best.err
}

// byRank orders rough outlines, best-ranked first.
func byRank(c []coarseCand) {
	sort.SliceStable(c, func(i, j int) bool { return c[i].rank > c[j].rank })
}

// outlines adds to cands the distinct rough outlines of the surface
// regions at every threshold, cut along strong colour edges or not. The
// first error met is kept in firstErr.
func (d *detector) outlines(mask *gocv.Mat, cands []coarseCand, cut bool, otsuT float64, firstErr *error) []coarseCand {
	for _, t := range thresholdCandidates(otsuT) {
		d.thr = t
		contour, err := d.surfaceRegion(mask, t, cut)
		if err != nil {
			*firstErr = err
			continue
		}
		l, f, ratio, err := d.coarseSides(contour)
		if err != nil {
			*firstErr = err
			continue
		}
		n := 0
		for _, ok := range f {
			if ok {
				n++
			}
		}
		c := coarseCand{thr: t, cut: cut, lines: l, found: f, rank: float64(n) + ratio}
		dup := false
		for i := range cands {
			if sameOutline(cands[i], c, d.work) {
				dup = true
				break
			}
		}
		if !dup {
			cands = append(cands, c)
		}
	}
	return cands
}

// search is the state of the search over rough outlines: the best
// candidate so far and its score, the measured outlines (so that one
// measured alike is not evaluated again) and the sides measured.
type search struct {
	d         *detector
	best      *candResult
	bestScore float64
	done      []edgeState
	cache     map[int][]refined
}

// try measures the outlines in order until one scores well enough
// ([goodEnough]), and reports whether one did.
func (s *search) try(cands []coarseCand) bool {
	d := s.d
	for _, c := range cands {
		// The score of an outline with n sides found is at most
		// (1 + n/4)/2: one that cannot beat the best so far is not
		// measured.
		n := 0
		for _, f := range c.found {
			if f {
				n++
			}
		}
		if s.best != nil && s.bestScore >= (1+float64(n)/4)/2 {
			continue
		}
		d.thr = c.thr
		es := d.measureEdges(c, s.cache)
		if es.err == nil {
			dup := false
			for _, o := range s.done {
				dup = dup || es.same(o)
			}
			if dup {
				continue
			}
			s.done = append(s.done, es)
		}
		r := d.evaluate(es)
		sc := -1.0
		if r.err == nil {
			sc = r.cal.Quality.Score
		}
		if s.best == nil || sc > s.bestScore {
			s.best, s.bestScore = r, sc
		}
		if r.err == nil && sc >= goodEnough {
			return true
		}
	}
	return false
}

// fromMarkings places the board from its markings alone, for a view
// framed on the surface with no edge in it (or a marking taken for an
// edge: the markings do not fit): the model is started from the picture
// itself and from the best outline, as it is and as the square of the
// rear base lines, and the best-scoring result replaces the search's
// best when it scores higher.
func (d *detector) fromMarkings(s *search, otsuT float64) {
	w, h := float64(d.full.w), float64(d.full.h)
	quads := [][4]Point{{Pt(-0.5, -0.5), Pt(w-0.5, -0.5), Pt(w-0.5, h-0.5), Pt(-0.5, h-0.5)}}
	if s.best != nil && s.best.err == nil {
		q := s.best.rep.ImageCorners
		quads = append(quads, q, scaleQuad(q, 1/rearCentre(d.g)))
	}
	d.thr = math.Max(12, math.Min(50, otsuT))
	for _, q := range quads {
		es := edgeState{corners: q}
		for j := 0; j < 4; j++ {
			es.full[j] = LineJoining(q[j], q[(j+1)%4])
			if es.full[j].Normal().Dot(q[j].Sub(centroid(q))) < 0 {
				es.full[j] = Line{A: -es.full[j].A, B: -es.full[j].B, C: -es.full[j].C}
			}
			es.startL[j], es.endL[j] = es.full[j], es.full[j]
			es.sides[j] = SideReport{Line: es.full[j]}
		}
		r := d.evaluate(es)
		if r.err == nil && r.cal.Quality.Score > s.bestScore {
			s.best, s.bestScore = r, r.cal.Quality.Score
		}
	}
}

// centroid is the mean of a quadrilateral's corners.
func centroid(q [4]Point) Point {
	var c Point
	for _, p := range q {
		c = c.Add(p.Scale(0.25))
	}
	return c
}

// scaleQuad scales a quadrilateral about its centre through the
// homography of the normalised square: the quadrilateral whose square
// ratio k larger in the board's own coordinates.
func scaleQuad(q [4]Point, k float64) [4]Point {
	hn, err := HomographyFrom4(unitSquare(), q)
	if err != nil {
		return q
	}
	var out [4]Point
	for i, u := range unitSquare() {
		out[i] = hn.Apply(u.Scale(k))
	}
	return out
}

// sameOutline tells whether two rough outlines are alike: the same sides
// found, the corners within 0.5% of the work image's size (at least 2 px)
// of each other's.
func sameOutline(a, b coarseCand, work plane) bool {
	if a.found != b.found {
		return false
	}
	ca, okA := cornersOf(a.lines)
	cb, okB := cornersOf(b.lines)
	if !okA || !okB {
		return okA == okB
	}
	tol := math.Max(2, 0.005*float64(max(work.w, work.h)))
	for k := 0; k < 4; k++ {
		if ca[k].Dist(cb[k]) > tol {
			return false
		}
	}
	return true
}

// refined is one side measured from a rough line, kept so that rough
// outlines sharing a side measure it once.
type refined struct {
	a, b       Point // the rough segment's ends
	sr         SideReport
	start, end Line
	okS, okE   bool
}

// edgeState is a rough outline with its edges measured.
type edgeState struct {
	found     [4]bool
	full      [4]Line
	startL    [4]Line
	endL      [4]Line
	haveLocal [4][2]bool
	corners   [4]Point
	nFound    int
	sides     [4]SideReport
	notes     []string
	err       error
}

// same tells whether two measured outlines are alike (the same edges
// measured, corners within 0.3 px).
func (e edgeState) same(o edgeState) bool {
	if e.found != o.found {
		return false
	}
	for k := 0; k < 4; k++ {
		if e.corners[k].Dist(o.corners[k]) > 0.3 {
			return false
		}
	}
	return true
}

// evaluate finishes one measured outline: the markings, hidden edges from
// the model, the corners and the quality. It leaves the detector's report
// alone.
func (d *detector) evaluate(es edgeState) *candResult {
	saved := d.rep
	d.rep = &Report{Scale: saved.Scale, SurfaceLab: saved.SurfaceLab, Threshold: d.thr, Sides: es.sides}
	d.notes = append([]string(nil), es.notes...)
	d.rearPts, d.rearV = [4][]Point{}, [4]float64{}
	var cal *Calibration
	err := es.err
	if err == nil {
		cal, err = d.finish(es)
	}
	r := &candResult{cal: cal, rep: d.rep, notes: d.notes, rearPts: d.rearPts, rearV: d.rearV, thr: d.thr, nFound: es.nFound, err: err}
	d.rep = saved
	return r
}

// measureEdges measures the found sides of a rough outline to sub-pixel
// accuracy in the full image.
func (d *detector) measureEdges(c coarseCand, cache map[int][]refined) edgeState {
	lines := c.lines
	es := edgeState{found: c.found}
	// To full resolution.
	full := &es.full
	for j := 0; j < 4; j++ {
		a := d.toFull(lines[j].Project(Point{}))
		b := d.toFull(lines[j].Project(Point{}).Add(lines[j].Dir().Scale(100)))
		full[j] = LineJoining(a, b)
		// Keep the outward orientation: the work line's normal points out.
		if full[j].Normal().Dot(lines[j].Normal()) < 0 {
			full[j] = Line{A: -full[j].A, B: -full[j].B, C: -full[j].C}
		}
	}
	corners, ok := cornersOf(*full)
	if !ok {
		es.err = fmt.Errorf("calibrate: detect: %w (the surface's outline is not a quadrilateral)", ErrNoBoard)
		return es
	}
	imgArea := float64(d.full.w * d.full.h)
	if a := camera.QuadArea(corners); a < 0.08*imgArea {
		es.err = fmt.Errorf("calibrate: detect: %w (the largest surface-coloured region covers %.0f%% of the image)", ErrNoBoard, 100*a/imgArea)
		return es
	}
	// Measure the found edges precisely.
	for j := 0; j < 4; j++ {
		if !es.found[j] {
			es.sides[j] = SideReport{Line: full[j]}
			es.startL[j], es.endL[j] = full[j], full[j]
			continue
		}
		a, b := full[j].Project(corners[j]), full[j].Project(corners[(j+1)%4])
		// A side measured before from a rough line close to this one is
		// not measured again: the same rough line, or one within 1.5% of
		// the side (half the first pass's outward reach) of the edge
		// measured then, over about the same stretch.
		var rf *refined
		near := math.Max(2/d.scale, 0.015*a.Dist(b))
		along := math.Max(1, 0.03*a.Dist(b))
		for i := range cache[j] {
			o := &cache[j][i]
			if o.a.Dist(a) <= 1 && o.b.Dist(b) <= 1 {
				rf = o
				break
			}
			if o.sr.Found && math.Abs(o.sr.Line.Dist(a)) <= near && math.Abs(o.sr.Line.Dist(b)) <= near &&
				o.sr.Line.Project(o.a).Dist(o.sr.Line.Project(a)) <= along && o.sr.Line.Project(o.b).Dist(o.sr.Line.Project(b)) <= along {
				rf = o
				break
			}
		}
		if rf == nil {
			sr, ls, le, okS, okE := d.refineSide(full[j], corners[j], corners[(j+1)%4])
			cache[j] = append(cache[j], refined{a: a, b: b, sr: sr, start: ls, end: le, okS: okS, okE: okE})
			rf = &cache[j][len(cache[j])-1]
		}
		if !rf.sr.Found {
			es.found[j] = false
			es.sides[j] = SideReport{Line: full[j]}
			es.startL[j], es.endL[j] = full[j], full[j]
			es.notes = append(es.notes, fmt.Sprintf("%s edge: too few clear edge points; treated as hidden", sideNames[j]))
			continue
		}
		es.nFound++
		es.sides[j] = rf.sr
		full[j] = rf.sr.Line
		es.startL[j], es.endL[j] = rf.start, rf.end
		es.haveLocal[j] = [2]bool{rf.okS, rf.okE}
	}
	if c, ok := cornersOf(*full); ok {
		corners = c
	}
	es.corners = corners
	return es
}

// finish is evaluate's work.
func (d *detector) finish(es edgeState) (*Calibration, error) {
	found, full, startL, endL, haveLocal, corners, nFound := es.found, es.full, es.startL, es.endL, es.haveLocal, es.corners, es.nFound
	// Markings: needed when an edge is missing, measured anyway for the
	// quality score.
	hn, err := HomographyFrom4(unitSquare(), corners)
	if err != nil {
		return nil, fmt.Errorf("calibrate: detect: %w (%v)", ErrNoBoard, err)
	}
	d.measureRearLines(hn)
	d.measurePockets(hn, found)
	needModel := nFound < 4 || d.opt.RefineWithMarkings
	if needModel {
		m, err := d.fitModel(hn, found)
		if err != nil {
			if nFound < 4 {
				return nil, fmt.Errorf("calibrate: detect: %w: only %d of 4 edges visible and the markings do not fix the rest (%v)", ErrNoBoard, nFound, err)
			}
		} else {
			d.rep.Model = m
			for j := 0; j < 4; j++ {
				if found[j] {
					continue
				}
				l, err := m.H.MapLine(unitSide(j))
				if err != nil {
					return nil, fmt.Errorf("calibrate: detect: %w", err)
				}
				full[j], startL[j], endL[j] = l, l, l
				d.rep.Sides[j].Line = l
			}
		}
	}
	// Corners: each from the two edges' fits nearest to it.
	var out [4]Point
	for k := 0; k < 4; k++ {
		prev, next := (k+3)%4, k
		a, b := endL[prev], startL[next]
		if !haveLocal[prev][1] {
			a = full[prev]
		}
		if !haveLocal[next][0] {
			b = full[next]
		}
		p, ok := a.Intersect(b)
		if !ok {
			return nil, fmt.Errorf("calibrate: detect: %w (parallel edges)", ErrNoBoard)
		}
		out[k] = p
	}
	if d.opt.RefineWithMarkings && nFound == 4 && d.rep.Model != nil && d.rep.Model.RMS < 1.5 {
		for k, u := range unitSquare() {
			out[k] = d.rep.Model.H.Apply(u)
		}
	}
	if ok, wind := camera.QuadConvex(out); !ok || wind < 0 {
		return nil, fmt.Errorf("calibrate: detect: %w (corners do not form a convex quadrilateral)", ErrNoBoard)
	}
	d.rep.ImageCorners = out
	cal, err := New(out, Size{W: d.full.w, H: d.full.h}, d.g, d.opt.Orientation, d.opt.Now())
	if err != nil {
		return nil, fmt.Errorf("calibrate: detect: %w", err)
	}
	var edges [4]string
	var ss float64
	var ns int
	for j := 0; j < 4; j++ {
		edges[j] = "inferred"
		if found[j] {
			edges[j] = "found"
			ss += d.rep.Sides[j].RMS * d.rep.Sides[j].RMS
			ns++
		} else {
			d.notes = append(d.notes, fmt.Sprintf("%s edge not visible: inferred from the %s", sideNames[j], d.inferredFrom()))
		}
	}
	var q Quality
	q.Method = Auto
	q.Edges = edges
	if ns > 0 {
		r := math.Sqrt(ss / float64(ns))
		q.EdgeRMSpx = &r
	}
	if err := d.fillQuality(cal, &q); err != nil {
		return nil, err
	}
	q.Notes = append(q.Notes, d.notes...)
	cal.Quality = q
	return cal, nil
}

// fillQuality measures every marking through cal and fills q's markings,
// confidence, rms and tilt, and cal's measured markings. q's method,
// edges and edge fit say how the corners were found.
func (d *detector) fillQuality(cal *Calibration, q *Quality) error {
	mm, err := d.measureBoard(cal)
	if err != nil {
		return err
	}
	d.rep.Measured = mm
	q.Markings = mm.list
	var found [4]bool
	for j, e := range q.Edges {
		found[j] = e == "found"
	}
	d.rep.Bow = inferredBow(d.rep.Sides, found, cal.ImageCorners())
	pinned := d.pocketsPin(cal, found)
	d.rep.Unbowed = confidence(mm, *q, found, pinned, 0)
	q.Score = confidence(mm, *q, found, pinned, d.rep.Bow)
	q.TiltDeg = round2(cal.Tilt())
	cal.Markings = mm.m
	var sum2 float64
	n2 := 0
	for _, k := range mm.list {
		if k.Found {
			sum2 += k.ErrorMM * k.ErrorMM
			n2++
		}
	}
	q.RMSmm = nil
	if n2 > 0 {
		r := round2(math.Sqrt(sum2 / float64(n2)))
		q.RMSmm = &r
	}
	return nil
}

// confidence combines the markings term M (how well the markings found
// form one board's pattern where the calibration puts them) with the
// evidence for the corners: the edges measured in the picture (E: their
// share, times how straight they are) and, where edges are not in view,
// the pockets at their corners measured where the geometry puts them (P:
// the share of those corners with such a pocket). A pocket fixes where
// the surface ends only to a few millimetres (it is cut about one radius
// in from both edges, and its net hides part of its outline), so P counts
// half:
//
//	confidence = M · (E + (1 − E) · P / 2)
//
// unless pinned: no edge is in view and the four pockets together hold the
// corners (see [detector.pocketsPin]); then P counts whole.
//
// A calibration by hand trusts the corners given: M alone.
//
// When some edges were found and others inferred, the result is also
// multiplied by [bowFactor] of bow, the largest bow of a found edge
// ending at an inferred corner, as a fraction of the board's width.
func confidence(mm *markingsMeasured, q Quality, found [4]bool, pinned bool, bow float64) float64 {
	if q.Method != Auto {
		return clamp01(mm.score)
	}
	return clamp01(bowFactor(bow) * autoConfidence(mm, q, found, pinned))
}

// bowTolerance is the bow of the found edges, as a fraction of the
// board's width, at which [bowFactor] is 1/e.
const bowTolerance = 0.004

// bowFactor is how far a calibration with corners inferred can be trusted
// when the edges found in the picture bow by bow (a fraction of the
// board's width): exp(−(bow / 0.4%)²). A lens that is not undistorted
// (a webcam with no lens model) bows straight edges, the most near the
// picture's border, where an edge out of view lies; the markings' model
// is a homography, straight lines to straight lines, so the corners it
// puts beyond the found edges' ends are off by about the bow or more
// (synthetic frames, an edge just out of view: found edges bowing 0.16,
// 0.22, 0.32, 0.44, 0.90% of the width put the inferred corners 0.26,
// 0.27, 0.51, 0.49, 0.90% off; 0.5% is allowed). The factor is 0.57 at a
// bow of 0.3%, which keeps such a view below acceptance, and 0.85 at
// 0.16%.
func bowFactor(bow float64) float64 {
	r := bow / bowTolerance
	return math.Exp(-r * r)
}

// inferredBow is, over the corners not between two found sides, the
// largest bow (either way) of a found side ending at one, as a fraction
// of the board's width (the mean side of corners); 0 when every side or
// none was found. Such a corner lies where that side, seen bowing, runs
// out toward an edge the model places with straight lines.
func inferredBow(sides [4]SideReport, found [4]bool, corners [4]Point) float64 {
	var bow float64
	for k := 0; k < 4; k++ {
		prev, next := (k+3)%4, k
		if found[prev] && found[next] {
			continue
		}
		for _, j := range []int{prev, next} {
			if found[j] {
				bow = math.Max(bow, math.Abs(sides[j].Bow))
			}
		}
	}
	var w float64
	for k := 0; k < 4; k++ {
		w += corners[k].Dist(corners[(k+1)%4]) / 4
	}
	if w <= 0 {
		return 0
	}
	return bow / w
}

// autoConfidence is [confidence] of an automatic calibration before the
// bow is counted.
func autoConfidence(mm *markingsMeasured, q Quality, found [4]bool, pinned bool) float64 {
	n := 0
	for _, f := range found {
		if f {
			n++
		}
	}
	e := 0.0
	if q.EdgeRMSpx != nil {
		e = float64(n) / 4 * math.Exp(-(*q.EdgeRMSpx/1.5)*(*q.EdgeRMSpx/1.5))
	}
	var at, good int
	for k := 0; k < 4; k++ {
		if found[(k+3)%4] && found[k] {
			continue
		}
		at++
		if mm.pockets[k] {
			good++
		}
	}
	p := 0.0
	if at > 0 {
		p = float64(good) / float64(at)
	}
	if pinned && n == 0 && good == 4 {
		return clamp01(mm.score * p)
	}
	return clamp01(mm.score * (e + (1-e)*p/2))
}

// Bounds of [detector.pocketsPin], in millimetres: how far each side's
// rear base line may lie from the four sides' common line (makers' lines
// on the real photos: within 3.1), how far that common line from the
// configured figure (makers: −2…+5), and each pocket from where the fit
// puts it (real photos: within 0.8).
const (
	pinSideMM   = 4.0
	pinRearMM   = 6.0
	pinPocketMM = 1.5
	// pinRadius bounds each pocket's measured radius, relative to the
	// configured one: a net spilling over the surface or a shadow joined
	// to the hole makes it larger and moves its centre (real photos:
	// 21.6–22.9 mm on clean pockets of 22.25, 24–28 on such).
	pinRadius = 0.1
)

// pocketsPin tells whether the pockets hold the corners of a view with no
// edge in it. Such a view's place and scale come from the pocket centres
// (see [detector.fitModel]), which the board's dimensions set to about a
// millimetre, while makers' lines are a few millimetres off. That holds
// when all four pockets were measured, each where the fit puts it and of
// its size, and the rear base lines agree with them: each side's line near the others' (a
// pocket or line mistaken would pull one side away) and their common line
// near the configured figure (a scale off would put it elsewhere). With
// fewer pockets, a corner rests on lines alone.
func (d *detector) pocketsPin(cal *Calibration, found [4]bool) bool {
	m := d.rep.Model
	if m == nil || found != ([4]bool{}) {
		return false
	}
	half := d.g.Half()
	for _, b := range m.RearSides {
		if math.Abs(b-m.RearLine)*half > pinSideMM {
			return false
		}
	}
	if math.Abs(m.RearLine-rearCentre(d.g))*half > pinRearMM {
		return false
	}
	ppm := cal.PixelsPerMM()
	r0 := d.g.PocketDiameter / 2
	for k, u := range unitSquare() {
		c := d.rep.Pockets[k]
		if c == nil || m.H.Apply(u.Scale(m.Pocket)).Dist(c.C) > pinPocketMM*ppm || math.Abs(c.R/ppm/r0-1) > pinRadius {
			return false
		}
	}
	return true
}

// cutGradient is the colour distance across a work pixel (between its
// neighbours) above which the cut regions are parted: the dark band of a
// frame's inner wall gives 30 and more, a wood grain a few units.
const cutGradient = 15

var sideNames = [4]string{"top", "right", "bottom", "left"}

func (d *detector) inferredFrom() string {
	var parts []string
	n := 0
	for _, l := range d.rep.RearLines {
		if l != nil {
			n++
		}
	}
	if n > 0 {
		parts = append(parts, fmt.Sprintf("%d base lines", n))
	}
	n = 0
	for _, p := range d.rep.Pockets {
		if p != nil {
			n++
		}
	}
	if n > 0 {
		parts = append(parts, fmt.Sprintf("%d pockets", n))
	}
	edges := false
	for _, sr := range d.rep.Sides {
		edges = edges || sr.Found
	}
	if edges {
		parts = append(parts, "other edges and the board's symmetry")
	} else {
		parts = append(parts, "the board's symmetry")
	}
	s := parts[0]
	for i := 1; i < len(parts); i++ {
		if i == len(parts)-1 {
			s += " and " + parts[i]
		} else {
			s += ", " + parts[i]
		}
	}
	return s
}

// unitSquare is the normalised surface, corners in image order.
func unitSquare() [4]Point { return [4]Point{Pt(-1, -1), Pt(1, -1), Pt(1, 1), Pt(-1, 1)} }

// unitSide returns the line of image side j of the normalised square,
// oriented with its normal pointing out.
func unitSide(j int) Line { return unitLine(j, 1) }

// unitLine is the line at distance v from the centre parallel to image
// side j, normal pointing out.
func unitLine(j int, v float64) Line {
	switch j {
	case 0:
		return Line{A: 0, B: -1, C: -v}
	case 1:
		return Line{A: 1, B: 0, C: -v}
	case 2:
		return Line{A: 0, B: 1, C: -v}
	}
	return Line{A: -1, B: 0, C: -v}
}

// cornersOf intersects consecutive sides: corner k lies between side k-1
// and side k (top-left between left and top, …).
func cornersOf(l [4]Line) ([4]Point, bool) {
	var c [4]Point
	for k := 0; k < 4; k++ {
		p, ok := l[(k+3)%4].Intersect(l[k])
		if !ok || !p.Finite() {
			return c, false
		}
		c[k] = p
	}
	ok, wind := camera.QuadConvex(c)
	return c, ok && wind > 0
}

// surfaceColour estimates the colour of the playing surface: the median of
// the middle of the image, then the mean of what lies near it.
func (d *detector) surfaceColour() {
	w, h := d.work.w, d.work.h
	x0, x1 := w*3/10, w*7/10
	y0, y1 := h*3/10, h*7/10
	var ch [3][]float64
	for y := y0; y < y1; y += 2 {
		for x := x0; x < x1; x += 2 {
			for c := 0; c < 3; c++ {
				ch[c] = append(ch[c], d.work.at(x, y, c))
			}
		}
	}
	var ref [3]float64
	for c := 0; c < 3; c++ {
		ref[c] = median(append([]float64(nil), ch[c]...))
	}
	var sum [3]float64
	n := 0
	px := make([]float64, 3)
	for i := range ch[0] {
		px[0], px[1], px[2] = ch[0][i], ch[1][i], ch[2][i]
		if labDist(px, ref[:]) < 25 {
			for c := 0; c < 3; c++ {
				sum[c] += px[c]
			}
			n++
		}
	}
	if n > 0 {
		for c := 0; c < 3; c++ {
			ref[c] = sum[c] / float64(n)
		}
	}
	d.ref = ref
	d.rep.SurfaceLab = ref
}

// surfaceRegion thresholds the colour distance from the surface and keeps
// the surface-coloured region that covers the middle of the image, holes
// (markings, pieces) filled. It returns that region's outline.
func (d *detector) surfaceRegion(mask *gocv.Mat, thr float64, cut bool) ([]image.Point, error) {
	if err := d.surfaceMask(mask, thr); err != nil {
		return nil, err
	}
	m, err := mask.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("calibrate: detect: %w", err)
	}
	if cut {
		if d.edge == nil {
			d.gradientMap()
		}
		for i, e := range d.edge {
			if e {
				m[i] = 0
			}
		}
	}
	if err := d.keepMiddleRegion(mask, m); err != nil {
		return nil, err
	}
	return outlineFilled(mask, m)
}

// surfaceMask sets mask to the pixels of the work image within thr of the
// surface's colour, with specks opened away and the thin dark lines of
// the markings closed. The image is padded with non-surface first, so
// that closing never fills a thin strip of frame between the surface and
// the image border.
func (d *detector) surfaceMask(mask *gocv.Mat, thr float64) error {
	w, h := d.work.w, d.work.h
	m, err := mask.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("calibrate: detect: %w", err)
	}
	for i, v := range d.dist {
		if float64(v) < thr {
			m[i] = 255
		} else {
			m[i] = 0
		}
	}
	ks := max(5, int(0.012*float64(max(w, h)))|1)
	padded := gocv.NewMat()
	defer padded.Close()
	gocv.CopyMakeBorder(*mask, &padded, ks, ks, ks, ks, gocv.BorderConstant, color.RGBA{})
	k3 := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(3, 3))
	defer k3.Close()
	gocv.MorphologyEx(padded, &padded, gocv.MorphOpen, k3)
	kc := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(ks, ks))
	defer kc.Close()
	gocv.MorphologyEx(padded, &padded, gocv.MorphClose, kc)
	roi := padded.Region(image.Rect(ks, ks, ks+w, ks+h))
	roi.CopyTo(mask)
	roi.Close()
	return nil
}

// keepMiddleRegion keeps in the mask (m its data) only the
// surface-coloured region covering most of the middle of the image
// (4-connected components, counted over the middle).
func (d *detector) keepMiddleRegion(mask *gocv.Mat, m []uint8) error {
	w, h := d.work.w, d.work.h
	labels := gocv.NewMat()
	defer labels.Close()
	nl := gocv.ConnectedComponentsWithParams(*mask, &labels, 4, gocv.MatTypeCV32S, gocv.CCL_DEFAULT)
	lb, err := labels.DataPtrUint8()
	if err != nil || len(lb) != 4*w*h {
		return fmt.Errorf("calibrate: detect: component labels: %v", err)
	}
	// The labels are int32 in the machine's byte order (gocv v0.31 has no
	// DataPtrInt32).
	comp := unsafe.Slice((*int32)(unsafe.Pointer(&lb[0])), w*h)
	counts := make([]int, max(1, nl))
	for y := h * 3 / 10; y < h*7/10; y++ {
		for x := w * 3 / 10; x < w*7/10; x++ {
			if l := comp[y*w+x]; l > 0 {
				counts[l]++
			}
		}
	}
	best := 0
	for i := range counts {
		if counts[i] > counts[best] {
			best = i
		}
	}
	if best == 0 {
		return fmt.Errorf("calibrate: detect: %w (no surface-coloured region in the middle of the image)", ErrNoBoard)
	}
	for i := range m {
		if comp[i] == int32(best) {
			m[i] = 255
		} else {
			m[i] = 0
		}
	}
	return nil
}

// outlineFilled returns the outline of the mask's largest region and
// fills the mask with everything inside it (holes: markings, pieces).
func outlineFilled(mask *gocv.Mat, m []uint8) ([]image.Point, error) {
	cs := gocv.FindContours(*mask, gocv.RetrievalExternal, gocv.ChainApproxNone)
	defer cs.Close()
	bi, ba := -1, 0.0
	for i := 0; i < cs.Size(); i++ {
		if a := gocv.ContourArea(cs.At(i)); a > ba {
			bi, ba = i, a
		}
	}
	if bi < 0 {
		return nil, fmt.Errorf("calibrate: detect: %w", ErrNoBoard)
	}
	pts := cs.At(bi).ToPoints()
	one := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	defer one.Close()
	for i := range m {
		m[i] = 0
	}
	gocv.FillPoly(mask, one, colorWhite)
	return pts, nil
}

// gradientMap marks in d.edge the work pixels across which the colour
// changes by more than cutGradient (between the neighbours left and right,
// or above and below; the colour distance of labDist, in integers).
func (d *detector) gradientMap() {
	w, h := d.work.w, d.work.h
	d.edge = make([]bool, w*h)
	data, step := d.work.data, d.work.step
	// labDist² > c² ⇔ dL² + 4·(da² + db²) > 4·c².
	lim := 4 * cutGradient * cutGradient
	far := func(i, j int) bool {
		dl := int(data[i]) - int(data[j])
		da := int(data[i+1]) - int(data[j+1])
		db := int(data[i+2]) - int(data[j+2])
		return dl*dl+4*(da*da+db*db) > lim
	}
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*step + x*3
			d.edge[y*w+x] = far(i-3, i+3) || far(i-step, i+step)
		}
	}
}

// distanceMap fills d.dist with the colour distance of every work pixel
// from the surface colour and returns Otsu's threshold of it.
func (d *detector) distanceMap() float64 {
	w, h := d.work.w, d.work.h
	d.dist = make([]uint8, w*h)
	var hist [256]int
	px := make([]float64, 3)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*d.work.step + x*3
			px[0], px[1], px[2] = float64(d.work.data[i]), float64(d.work.data[i+1]), float64(d.work.data[i+2])
			v := math.Min(255, labDist(px, d.ref[:]))
			d.dist[y*w+x] = uint8(v)
			hist[uint8(v)]++
		}
	}
	return otsu(hist[:])
}

// otsu returns Otsu's threshold of a 256-bin histogram.
func otsu(hist []int) float64 {
	var total, sum float64
	for i, c := range hist {
		total += float64(c)
		sum += float64(i * c)
	}
	var wB, sumB, best float64
	thr := 0.0
	for t := 0; t < 256; t++ {
		wB += float64(hist[t])
		if wB == 0 {
			continue
		}
		wF := total - wB
		if wF == 0 {
			break
		}
		sumB += float64(t * hist[t])
		mB := sumB / wB
		mF := (sum - sumB) / wF
		v := wB * wF * (mB - mF) * (mB - mF)
		if v > best {
			best, thr = v, float64(t)+0.5
		}
	}
	return thr
}

// coarseSides finds the four sides of the surface's outline in the work
// image: the dominant direction of the outline, then a robust line through
// the outline points facing each of the four directions. Sides along the
// image border (the board is cropped there) are not found; their line is
// the outline's extreme in that direction. Lines are returned in image
// order (top, right, bottom, left) with normals pointing out.
func (d *detector) coarseSides(contour []image.Point) ([4]Line, [4]bool, float64, error) {
	var lines [4]Line
	var found [4]bool
	n := len(contour)
	if n < 20 {
		return lines, found, 0, fmt.Errorf("calibrate: detect: %w (surface region too small)", ErrNoBoard)
	}
	pts, normals, onBorder := d.outlineNormals(contour)
	theta := dominantDirection(normals, onBorder)
	side := math.Sqrt(math.Abs(polyArea(pts)))
	// With fewer than two sides along the dominant direction, that
	// direction says nothing (it comes from pockets, pieces or clutter):
	// the board is then taken square to the image.
	nAligned := 0
	for s := 0; s < 4; s++ {
		grp := facing(pts, normals, onBorder, theta+90*float64(s))
		if f, ok := fitLine(grp, 1.5); ok && float64(f.Inliers) >= 0.35*side {
			nAligned++
		}
	}
	if nAligned < 2 {
		theta = 0
	}
	for s := 0; s < 4; s++ {
		phi := theta + 90*float64(s)
		j := ((int(math.Round(phi/90))+1)%4 + 4) % 4
		lines[j], found[j] = d.coarseSide(pts, normals, onBorder, phi, side)
	}
	return lines, found, explained(pts, onBorder, lines, found), nil
}

// outlineNormals returns the outline's points, each one's outward normal
// (from the points k on either side, k growing with the outline's length)
// and whether it lies on the image border.
func (d *detector) outlineNormals(contour []image.Point) (pts, normals []Point, onBorder []bool) {
	n := len(contour)
	w, h := d.work.w, d.work.h
	pts = make([]Point, n)
	var cx, cy float64
	for i, p := range contour {
		pts[i] = Pt(float64(p.X), float64(p.Y))
		cx += pts[i].X
		cy += pts[i].Y
	}
	cen := Pt(cx/float64(n), cy/float64(n))
	k := max(3, n/400)
	normals = make([]Point, n)
	onBorder = make([]bool, n)
	outward := 0
	for i := range pts {
		t := pts[(i+k)%n].Sub(pts[(i-k+n)%n])
		nv := t.Perp().Unit()
		normals[i] = nv
		if pts[i].Sub(cen).Dot(nv) > 0 {
			outward++
		}
		p := contour[i]
		onBorder[i] = p.X <= 1 || p.Y <= 1 || p.X >= w-2 || p.Y >= h-2
	}
	if outward < n/2 {
		for i := range normals {
			normals[i] = normals[i].Scale(-1)
		}
	}
	return pts, normals, onBorder
}

// dominantDirection is the outline's dominant normal direction (mod 90°,
// in degrees) away from the border: the peak of a half-degree histogram
// summed over ±2°; 0 when no point is off the border.
func dominantDirection(normals []Point, onBorder []bool) float64 {
	var hist [180]float64
	for i, nv := range normals {
		if onBorder[i] {
			continue
		}
		a := math.Atan2(nv.Y, nv.X) * 180 / math.Pi
		a = math.Mod(a+360, 90)
		hist[int(a*2)%180]++
	}
	theta, bestV := 0.0, -1.0
	for b := 0; b < 180; b++ {
		var v float64
		for o := -4; o <= 4; o++ {
			v += hist[(b+o+180)%180]
		}
		if v > bestV {
			bestV, theta = v, float64(b)/2+0.25
		}
	}
	if bestV <= 0 {
		theta = 0
	}
	return theta
}

// facing returns the outline's points off the border whose normals lie
// within 22° of the direction phi (degrees).
func facing(pts, normals []Point, onBorder []bool, phi float64) []Point {
	dir := Pt(math.Cos(phi*math.Pi/180), math.Sin(phi*math.Pi/180))
	var grp []Point
	for i, nv := range normals {
		if !onBorder[i] && nv.Dot(dir) >= math.Cos(22*math.Pi/180) {
			grp = append(grp, pts[i])
		}
	}
	return grp
}

// coarseSide fits the side facing phi (degrees): a robust line through
// the outline's points facing it, found when it explains at least 35% of
// the region's side length and the frame lies beyond it; otherwise the
// outline's extreme in that direction, not found.
func (d *detector) coarseSide(pts, normals []Point, onBorder []bool, phi, side float64) (Line, bool) {
	dir := Pt(math.Cos(phi*math.Pi/180), math.Sin(phi*math.Pi/180))
	grp := facing(pts, normals, onBorder, phi)
	if f, ok := fitLine(grp, 1.5); ok && float64(f.Inliers) >= 0.35*side {
		l := f.L
		if l.Normal().Dot(dir) < 0 {
			l = Line{A: -l.A, B: -l.B, C: -l.C}
		}
		var in []Point
		for i, p := range grp {
			if f.keep[i] {
				in = append(in, p)
			}
		}
		if d.beyondIsFrame(l, in, side) {
			return l, true
		}
	}
	// Not visible: the outline's extreme in that direction.
	ext := math.Inf(-1)
	for _, p := range pts {
		ext = math.Max(ext, p.Dot(dir))
	}
	return Line{A: dir.X, B: dir.Y, C: -ext}, false
}

// explained is the share of the outline (off the border) within 2 px of a
// found side.
func explained(pts []Point, onBorder []bool, lines [4]Line, found [4]bool) float64 {
	inl, tot := 0, 0
	for i, p := range pts {
		if onBorder[i] {
			continue
		}
		tot++
		for j := 0; j < 4; j++ {
			if found[j] && math.Abs(lines[j].Dist(p)) <= 2 {
				inl++
				break
			}
		}
	}
	if tot == 0 {
		return 0
	}
	return float64(inl) / float64(tot)
}

// frameBeyond is beyondIsFrame in the full image.
func (d *detector) frameBeyond(l Line, pts []Point, side float64) bool {
	return d.edgeNotLine(d.full, l, pts, side, 60)
}

// beyondIsFrame tells an edge of the surface from a dark line drawn on it
// (a base line bounding a region the threshold cut off, a rig's belt):
// beyond an edge lies the frame (or the image border) for a good way;
// beyond a line, the surface again. It looks 2% of the board's size out
// from points on the line.
func (d *detector) beyondIsFrame(l Line, pts []Point, side float64) bool {
	return d.edgeNotLine(d.work, l, pts, side, 40)
}

// localFrameContrast is the colour distance between the two sides of a
// line above which the far side counts as frame even when its colour is
// near the surface's (a frame of a wood much like the surface's, parted
// from it by the dark band of its inner wall). Across a marking the surface
// lies on both sides and the two sides differ by shading only.
const localFrameContrast = 9

// edgeNotLine looks at both sides of the line l (points pts on it, in image
// pl) between 1% and 2% of the board's size: the far side is frame when it
// runs out of the image, when it is mostly not of the surface's colour, or
// when it differs clearly from the near side. It says whether the frame
// lies beyond at least half of the points.
func (d *detector) edgeNotLine(pl plane, l Line, pts []Point, side float64, nPts int) bool {
	reach := math.Max(6, 0.02*side)
	loose := math.Max(d.thr, d.otsu)
	n := l.Normal()
	px := make([]float64, 3)
	var ins, outs [3][]float64
	frame, line := 0, 0
	for _, p := range decimate(pts, nPts) {
		p = l.Project(p)
		surf, total := 0, 0
		border := false
		for c := 0; c < 3; c++ {
			ins[c], outs[c] = ins[c][:0], outs[c][:0]
		}
		for r := reach / 2; r <= reach; r += 0.5 {
			q := p.Add(n.Scale(r))
			if !pl.sample(q.X, q.Y, px) {
				border = true
				break
			}
			total++
			if labDist(px, d.ref[:]) < loose {
				surf++
			}
			for c := 0; c < 3; c++ {
				outs[c] = append(outs[c], px[c])
			}
			q = p.Sub(n.Scale(r))
			if pl.sample(q.X, q.Y, px) {
				for c := 0; c < 3; c++ {
					ins[c] = append(ins[c], px[c])
				}
			}
		}
		local := 0.0
		if !border && len(ins[0]) > 0 && len(outs[0]) > 0 {
			var mi, mo [3]float64
			for c := 0; c < 3; c++ {
				mi[c], mo[c] = median(ins[c]), median(outs[c])
			}
			local = labDist(mi[:], mo[:])
		}
		if !border && total > 0 && surf*2 > total && local < localFrameContrast {
			line++
		} else {
			frame++
		}
	}
	return frame >= line
}

// thresholdCandidates are the colour-distance thresholds tried: Otsu's and
// two stricter ones, within [12, 50].
func thresholdCandidates(otsuT float64) []float64 {
	var out []float64
	for _, f := range []float64{1, 0.75, 0.55} {
		t := math.Max(12, math.Min(50, otsuT*f))
		dup := false
		for _, o := range out {
			dup = dup || math.Abs(o-t) < 3
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

func polyArea(p []Point) float64 {
	var a float64
	for i := range p {
		a += p[i].Cross(p[(i+1)%len(p)])
	}
	return a / 2
}

// refineSide measures the edge between corners a and b in the full image,
// twice (wide, then narrow around the first fit), and fits the whole edge
// and the parts nearest each corner.
func (d *detector) refineSide(l Line, a, b Point) (sr SideReport, start, end Line, okS, okE bool) {
	out := l.Normal()
	a, b = l.Project(a), l.Project(b)
	length := a.Dist(b)
	spacing := math.Max(1, length/400)
	// The rough outline errs inward where the surface is shaded near the
	// frame, so the first pass looks further out than in.
	hw := math.Max(8, 3/d.scale+4)
	// The first pass only places the second: half as many profiles.
	s1 := measureEdge(d.full, a, b, out, 0.08, 0.92, 2*spacing, hw, math.Max(hw, 0.03*length))
	pts := samplePoints(s1)
	f1, ok := fitLine(pts, 1.5)
	if !ok || f1.Inliers < 30 {
		return sr, l, l, false, false
	}
	l1 := f1.L
	if l1.Normal().Dot(out) < 0 {
		l1 = Line{A: -l1.A, B: -l1.B, C: -l1.C}
	}
	a, b = l1.Project(a), l1.Project(b)
	s2 := measureEdge(d.full, a, b, l1.Normal(), 0.08, 0.92, spacing, 6, 5)
	pts = samplePoints(s2)
	f2, ok := fitLine(pts, 1.0)
	if !ok || f2.Inliers < 30 || float64(f2.Inliers) < 0.45*0.84*length/spacing {
		return sr, l, l, false, false
	}
	l2 := f2.L
	if l2.Normal().Dot(out) < 0 {
		l2 = Line{A: -l2.A, B: -l2.B, C: -l2.C}
	}
	// The inliers must reach near both ends of the measured stretch
	// (0.08–0.92): an edge seen over one part only gives its corner
	// beyond the rest by extrapolation, and a lens's bow (frames are not
	// always undistorted) or a slight curve of the frame puts that corner
	// pixels off (a real photo tilted so that an edge ran along the
	// picture's border: 3.6 px of 478 at the far corner).
	if lo, hi := inlierSpan(s2, f2.keep); lo > 0.08+maxEdgeGap || hi < 0.92-maxEdgeGap {
		return sr, l, l, false, false
	}
	// A dark line on the surface (a belt of the rig, a marking) has the
	// surface again beyond it; an edge has the frame or the image border.
	var in []Point
	for i, p := range pts {
		if f2.keep[i] {
			in = append(in, p)
		}
	}
	if !d.frameBeyond(l2, in, length) {
		return sr, l, l, false, false
	}
	sr = SideReport{Found: true, Line: l2, RMS: f2.RMS, Bow: edgeBow(in, l2, out, length)}
	for i, p := range pts {
		if f2.keep[i] {
			sr.Samples = append(sr.Samples, p)
		}
	}
	// Local fits: the 45% of the edge nearest each corner.
	var ps, pe []Point
	for i, s := range s2 {
		if !f2.keep[i] {
			continue
		}
		if s.T <= 0.45 {
			ps = append(ps, s.P)
		}
		if s.T >= 0.55 {
			pe = append(pe, s.P)
		}
	}
	start, end = l2, l2
	if fs, ok := fitLine(ps, 1.0); ok && fs.Inliers >= 20 && fs.RMS < 2*f2.RMS+0.5 {
		start, okS = fs.L, true
	}
	if fe, ok := fitLine(pe, 1.0); ok && fe.Inliers >= 20 && fe.RMS < 2*f2.RMS+0.5 {
		end, okE = fe.L, true
	}
	// A straight edge's two halves agree: fitted apart, they meet at its
	// middle. A lens's bow leaves them within a fraction of a pixel there
	// (real photos: ≤ 0.9 px); an edge measured partly on something else
	// (under uneven light, the crossing drifts onto a shadow or a dark
	// band of the frame's wall for a stretch) breaks into two lines
	// pixels apart, and a corner taken from either half is off by as
	// much. Such an edge is not trusted: treated as hidden.
	if okS && okE && halvesDisagree(start, end, l2.Project(a.Add(b).Scale(0.5)), out, length) {
		return SideReport{}, l, l, false, false
	}
	return sr, start, end, okS, okE
}

// edgeBow fits a parabola to an edge's kept points pts, as their
// outward distance (out: the outward normal) from the edge's line l
// against their place along it, and returns its sagitta over the side's
// length: how far the middle lies outward of the chord joining the
// side's ends. A lens's radial distortion, not undistorted, bows a
// straight edge so; a noise of a pixel moves this by a few hundredths.
func edgeBow(pts []Point, l Line, out Point, length float64) float64 {
	if len(pts) < 10 || length <= 0 {
		return 0
	}
	dir := l.Dir()
	sign := 1.0
	if l.Normal().Dot(out) < 0 {
		sign = -1
	}
	var c Point
	for _, p := range pts {
		c = c.Add(p)
	}
	c = c.Scale(1 / float64(len(pts)))
	// Least squares of d = a + b·u + k·u², u in units of the half side.
	var m [3][4]float64
	h := length / 2
	for _, p := range pts {
		u := p.Sub(c).Dot(dir) / h
		d := sign * l.Dist(p)
		r := [3]float64{1, u, u * u}
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				m[i][j] += r[i] * r[j]
			}
			m[i][3] += r[i] * d
		}
	}
	x, ok := solve3(m)
	if !ok {
		return 0
	}
	// The chord over u in [-1, 1] lies k above the parabola's middle.
	return -x[2]
}

// solve3 solves a 3×3 linear system given as its augmented matrix, by
// Gaussian elimination with partial pivoting.
func solve3(m [3][4]float64) ([3]float64, bool) {
	for i := 0; i < 3; i++ {
		p := i
		for r := i + 1; r < 3; r++ {
			if math.Abs(m[r][i]) > math.Abs(m[p][i]) {
				p = r
			}
		}
		if math.Abs(m[p][i]) < 1e-12 {
			return [3]float64{}, false
		}
		m[i], m[p] = m[p], m[i]
		for r := 0; r < 3; r++ {
			if r == i {
				continue
			}
			f := m[r][i] / m[i][i]
			for c := i; c < 4; c++ {
				m[r][c] -= f * m[i][c]
			}
		}
	}
	return [3]float64{m[0][3] / m[0][0], m[1][3] / m[1][1], m[2][3] / m[2][2]}, true
}

// maxEdgeGap is the longest stretch at either end of an edge's measured
// part (as a fraction of the side) that may lack inliers.
const maxEdgeGap = 0.2

// inlierSpan is the least and greatest position along the side of the
// samples kept.
func inlierSpan(s []edgeSample, keep []bool) (lo, hi float64) {
	lo, hi = 1, 0
	for i, e := range s {
		if keep[i] {
			lo, hi = math.Min(lo, e.T), math.Max(hi, e.T)
		}
	}
	return lo, hi
}

// halvesDisagree tells whether an edge's two local fits, start and end
// (of an edge of length px, outward normal out), are further apart at its
// middle m than a bow allows: 1.5 px or 0.3% of its length.
func halvesDisagree(start, end Line, m, out Point, length float64) bool {
	ds, de := start.Dist(m), end.Dist(m)
	if start.Normal().Dot(out) < 0 {
		ds = -ds
	}
	if end.Normal().Dot(out) < 0 {
		de = -de
	}
	return math.Abs(ds-de) > math.Max(1.5, 0.003*length)
}

func samplePoints(s []edgeSample) []Point {
	p := make([]Point, len(s))
	for i := range s {
		p[i] = s[i].P
	}
	return p
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// sortedCopy returns v sorted.
func sortedCopy(v []float64) []float64 {
	c := append([]float64(nil), v...)
	sort.Float64s(c)
	return c
}
