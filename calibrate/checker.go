package calibrate

import (
	"errors"
	"fmt"
	"image"
	"math"
	"time"

	"gocv.io/x/gocv"
)

// CheckStatus is the verdict of a [Checker].
type CheckStatus string

// The verdicts.
const (
	// CheckOK: the edges are where the calibration puts them.
	CheckOK CheckStatus = "ok"
	// CheckMoved: the edges are visible but displaced (camera knocked or
	// board moved); ShiftPx says by how much.
	CheckMoved CheckStatus = "moved"
	// CheckLost: the edges are not where the calibration puts them and
	// cannot be found near there (a large move, or the whole board
	// covered).
	CheckLost CheckStatus = "lost"
	// CheckUncertain: too little of the edges is visible to tell (hands,
	// bodies or pieces over them).
	CheckUncertain CheckStatus = "uncertain"
)

// CheckResult is one check of a frame against the calibration.
type CheckResult struct {
	Status CheckStatus
	// ShiftPx is the largest displacement, in pixels, of a visible edge
	// from where the calibration (and the reference frame) puts it.
	// Not a number when no edge was seen.
	ShiftPx float64
	// Sides is the median displacement of each image side (top, right,
	// bottom, left), NaN for sides not checked or not seen.
	Sides [4]float64
	// Seen is the share of probes that found an edge.
	Seen float64
}

// CheckerOptions tune a [Checker]; zero values take the defaults.
type CheckerOptions struct {
	// Probes per edge (default 24).
	Probes int
	// TolerancePx is the displacement that counts as a move (default the
	// larger of 2 px and 0.3% of the board's width in the image).
	TolerancePx float64
	// SearchPx is how far either side of the expected edge a probe looks
	// (default the larger of 8 px and 2.5% of the board's width).
	SearchPx float64
}

type probe struct {
	t    float64 // position along the edge, 0..1
	side int
	p    Point // on the expected edge
	n    Point // outward normal
	ref  float64
	con  float64 // contrast seen in the reference frame (0: none)
}

// Checker watches, cheaply, whether the camera or the board has moved since
// calibration: it samples short profiles across the visible surface edges
// at fixed places and compares where the edge is with where it was. A few
// thousand pixel reads per frame, no allocation: well under a millisecond
// at 720p. Pieces, hands and arms over an edge spoil only the probes they
// cover; a move must show on two edges (or on the only edge visible).
type Checker struct {
	hasRef bool
	cal    *Calibration
	opt    CheckerOptions
	probes []probe
	prof   []float64
	px     []float64
	offs   [4][]float64
	ts     [4][]float64
	slopes []float64
	buf    []float64
	// rects are the pixels of the frame each probe reads (see Rects).
	rects []image.Rectangle
}

// NewChecker prepares probes along the edges the calibration saw (or was
// given by hand); inferred edges are not checked.
func NewChecker(cal *Calibration, opt CheckerOptions) (*Checker, error) {
	if cal == nil {
		return nil, errors.New("calibrate: checker: no calibration")
	}
	width := 0.0
	ic := cal.ImageCorners()
	for i := 0; i < 4; i++ {
		width += ic[i].Dist(ic[(i+1)%4]) / 4
	}
	if opt.Probes <= 0 {
		opt.Probes = 24
	}
	if opt.TolerancePx <= 0 {
		opt.TolerancePx = math.Max(2, 0.003*width)
	}
	if opt.SearchPx <= 0 {
		opt.SearchPx = math.Max(8, 0.025*width)
	}
	c := &Checker{cal: cal, opt: opt}
	var cen Point
	for _, p := range ic {
		cen = cen.Add(p.Scale(0.25))
	}
	for j := 0; j < 4; j++ {
		if cal.Quality.Edges[j] == "inferred" {
			continue
		}
		a, b := ic[j], ic[(j+1)%4]
		n := b.Sub(a).Unit().Perp()
		if n.Dot(a.Sub(cen)) < 0 {
			n = n.Scale(-1)
		}
		for k := 0; k < opt.Probes; k++ {
			t := 0.12 + 0.76*float64(k)/float64(max(1, opt.Probes-1))
			p := a.Add(b.Sub(a).Scale(t))
			if p.X < 0 || p.Y < 0 || p.X > float64(cal.ImageSize.W-1) || p.Y > float64(cal.ImageSize.H-1) {
				continue
			}
			c.probes = append(c.probes, probe{t: t, side: j, p: p, n: n})
		}
	}
	if len(c.probes) == 0 {
		return nil, errors.New("calibrate: checker: no edge of the surface is visible to watch")
	}
	steps := int(2*opt.SearchPx/profileStep) + 1
	c.prof = make([]float64, steps)
	c.px = make([]float64, 4)
	for j := range c.offs {
		c.offs[j] = make([]float64, 0, opt.Probes)
		c.ts[j] = make([]float64, 0, opt.Probes)
	}
	c.slopes = make([]float64, 0, opt.Probes*opt.Probes/2)
	c.rects = make([]image.Rectangle, len(c.probes))
	for i, pr := range c.probes {
		c.rects[i] = c.probeRect(pr.p, pr.n)
	}
	return c, nil
}

// probeRect is the part of the frame measure reads across p: every point
// of the profile with the pixel to its right and below (bilinear), and a
// pixel's margin, within the frame.
func (c *Checker) probeRect(p, n Point) image.Rectangle {
	w := c.opt.SearchPx
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range c.prof {
		q := p.Add(n.Scale(-w + float64(i)*profileStep))
		x0, y0 = math.Min(x0, q.X), math.Min(y0, q.Y)
		x1, y1 = math.Max(x1, q.X), math.Max(y1, q.Y)
	}
	r := image.Rect(int(math.Floor(x0))-1, int(math.Floor(y0))-1, int(math.Floor(x1))+3, int(math.Floor(y1))+3)
	return r.Intersect(image.Rect(0, 0, c.cal.ImageSize.W, c.cal.ImageSize.H))
}

// Rects are the parts of the (undistorted) frame a check reads, one per
// probe: a few hundred small rectangles along the visible edges, for
// checking parts of a frame undistorted alone (Monitor.ObserveRaw).
func (c *Checker) Rects() []image.Rectangle { return c.rects }

// SetReference measures the edges in the frame the calibration was made
// from, so that later checks compare like with like (the measured edge may
// sit a little off the straight line between the corners, for example
// where the lens bows it).
func (c *Checker) SetReference(frame gocv.Mat) error {
	pl, err := c.plane(&frame)
	if err != nil {
		return err
	}
	for i := range c.probes {
		o, con, ok := c.measure(pl, c.probes[i].p, c.probes[i].n, 0)
		if ok {
			c.probes[i].ref, c.probes[i].con = o, con
		} else {
			c.probes[i].ref, c.probes[i].con = 0, 0
		}
	}
	c.hasRef = true
	return nil
}

func (c *Checker) plane(frame *gocv.Mat) (plane, error) {
	if frame.Cols() != c.cal.ImageSize.W || frame.Rows() != c.cal.ImageSize.H {
		return plane{}, fmt.Errorf("calibrate: check: frame is %dx%d, the calibration is for %dx%d", frame.Cols(), frame.Rows(), c.cal.ImageSize.W, c.cal.ImageSize.H)
	}
	pl, err := planeOf(frame)
	if err != nil {
		return plane{}, fmt.Errorf("calibrate: check: %w", err)
	}
	return pl, nil
}

// measure finds the edge across one probe: where the brightness goes half
// way from the surface's to the frame's. It returns the offset from p
// along n (outward positive) and the contrast.
func (c *Checker) measure(pl plane, p, n Point, shift float64) (float64, float64, bool) {
	w := c.opt.SearchPx
	steps := len(c.prof)
	valid := 0
	for i := 0; i < steps; i++ {
		q := p.Add(n.Scale(-w + shift + float64(i)*profileStep))
		if !pl.sample(q.X, q.Y, c.px) {
			if i < steps/4 {
				return 0, 0, false
			}
			break
		}
		var s float64
		for ch := 0; ch < min(3, pl.ch); ch++ {
			s += c.px[ch]
		}
		c.prof[i] = s / float64(min(3, pl.ch))
		valid = i + 1
	}
	if valid < steps/2 {
		return 0, 0, false
	}
	q := steps / 4
	c.buf = append(c.buf[:0], c.prof[:q]...)
	base := median(c.buf)
	for i := 0; i < valid; i++ {
		c.prof[i] = math.Abs(c.prof[i] - base)
	}
	var top float64
	for i := q; i < valid; i++ {
		top = math.Max(top, c.prof[i])
	}
	o, ok := halfCrossing(c.prof[:valid], q)
	if !ok {
		return 0, top, false
	}
	return -w + shift + o*profileStep, top, true
}

// Check compares a frame (undistorted, same size as the calibration) with
// the calibration.
func (c *Checker) Check(frame gocv.Mat) (CheckResult, error) {
	pl, err := c.plane(&frame)
	if err != nil {
		return CheckResult{}, err
	}
	return c.check(func(int) plane { return pl }), nil
}

// checkParts is Check of a frame of which only the parts Rects names were
// undistorted, packed in img by pu (the same pixels, so the same result).
func (c *Checker) checkParts(pu *partUndistorter) (CheckResult, error) {
	pl, err := planeOf(&pu.img)
	if err != nil {
		return CheckResult{}, fmt.Errorf("calibrate: check: %w", err)
	}
	pl.w, pl.h = c.cal.ImageSize.W, c.cal.ImageSize.H
	return c.check(func(i int) plane {
		p := pl
		p.ox, p.oy = c.rects[i].Min.X, c.rects[i].Min.Y-pu.rows[i]
		return p
	}), nil
}

// check measures every probe in the plane planeAt gives for it.
func (c *Checker) check(planeAt func(probe int) plane) CheckResult {
	for j := range c.offs {
		c.offs[j] = c.offs[j][:0]
		c.ts[j] = c.ts[j][:0]
	}
	per := [4]int{}
	seen := 0
	for i, pr := range c.probes {
		per[pr.side]++
		o, con, ok := c.measure(planeAt(i), pr.p, pr.n, 0)
		if !ok {
			continue
		}
		// A hand or piece over the edge changes what the probe sees.
		if pr.con > 0 && (con < 0.5*pr.con || con > 2*pr.con) {
			continue
		}
		c.offs[pr.side] = append(c.offs[pr.side], o-pr.ref)
		c.ts[pr.side] = append(c.ts[pr.side], pr.t)
		seen++
	}
	res := CheckResult{Seen: float64(seen) / float64(len(c.probes)), ShiftPx: math.NaN()}
	sidesSeen, sidesMoved, sidesChecked := 0, 0, 0
	var ends [4]float64
	for j := 0; j < 4; j++ {
		res.Sides[j] = math.NaN()
		if per[j] == 0 {
			continue
		}
		sidesChecked++
		if float64(len(c.offs[j])) < 0.4*float64(per[j]) {
			continue
		}
		sidesSeen++
		// Displacement along the edge as a straight line (Theil–Sen):
		// a shift moves the whole edge, a turn tilts it.
		a, b := c.theilSen(c.ts[j], c.offs[j])
		res.Sides[j] = a + 0.5*b
		ends[j] = math.Max(math.Abs(a+0.12*b), math.Abs(a+0.88*b))
		if math.IsNaN(res.ShiftPx) || ends[j] > res.ShiftPx {
			res.ShiftPx = ends[j]
		}
	}
	// Without a reference frame the edges are compared with the straight
	// lines between the corners, which lens bowing alone can miss by a
	// couple of pixels: twice the tolerance then.
	tol := c.opt.TolerancePx
	if !c.hasRef {
		tol *= 2
	}
	for j := 0; j < 4; j++ {
		if !math.IsNaN(res.Sides[j]) && ends[j] > tol {
			sidesMoved++
		}
	}
	need := min(2, sidesChecked)
	switch {
	case sidesMoved >= need:
		res.Status = CheckMoved
	case sidesSeen >= need:
		res.Status = CheckOK
	case res.Seen < 0.15:
		res.Status = CheckLost
	default:
		res.Status = CheckUncertain
	}
	return res
}

// theilSen fits y = a + b·x robustly: b is the median of the pairwise
// slopes, a the median of y - b·x.
func (c *Checker) theilSen(x, y []float64) (float64, float64) {
	c.slopes = c.slopes[:0]
	for i := range x {
		for k := i + 1; k < len(x); k++ {
			if dx := x[k] - x[i]; dx > 1e-9 || dx < -1e-9 {
				c.slopes = append(c.slopes, (y[k]-y[i])/dx)
			}
		}
	}
	b := 0.0
	if len(c.slopes) > 0 {
		b = median(c.slopes)
	}
	c.slopes = c.slopes[:0]
	for i := range x {
		c.slopes = append(c.slopes, y[i]-b*x[i])
	}
	return median(c.slopes), b
}

// Monitor runs the [Checker] in the live pipeline every Interval and
// recalibrates with [Detect] once a move is confirmed: Confirm consecutive
// checks that say moved or lost, the last two of which see the edges in
// the same place (the picture has come to rest: a knocked camera shakes
// before it settles, and a calibration made mid-shake would be off). While
// a move is being confirmed every frame is checked (see [Monitor.Pending]).
// With SettlePx set, the Monitor then watches the camera settle: a further
// displacement above SettlePx that holds still for two checks recalibrates
// again (at most twice). Time is given by the caller, so tests need not
// sleep.
type Monitor struct {
	// Interval between checks (default 2 s).
	Interval time.Duration
	// Confirm is how many checks in a row must say moved or lost before
	// recalibrating (default 2: one knock is not a flicker).
	Confirm int
	// RestPx is how far the edges may move between the last two checks of
	// a confirmed move for the picture to count as at rest (default the
	// larger of 0.5 px and 0.1% of the board's width).
	RestPx float64
	// SettlePx, when above zero, is the displacement that recalibrates
	// again while the camera settles after a recalibration (each such
	// recalibration is returned, and so announced, like the first); 0
	// (default): no settling. The larger of 0.3 px and 0.05% of the
	// board's width is a good value (see docs/calibration.md).
	SettlePx float64
	// Options for Detect when recalibrating. Geometry and Orientation
	// default to the current calibration's.
	Options Options
	// CheckerOptions for the checker of each new calibration.
	CheckerOptions CheckerOptions

	cal     *Calibration
	checker *Checker
	last    time.Time
	strikes int
	prev    *CheckResult // the last check of the move being confirmed
	failed  bool         // the last recalibration failed: retry after Interval
	// settling: checks after a recalibration still watch for the camera
	// coming to rest elsewhere; settleRecal counts the recalibrations made
	// so, settledOK the quiet checks in a row.
	settling    bool
	settleRecal int
	settledOK   int
	// parts undistorts the parts of raw frames the checker reads
	// (ObserveRaw; nil until needed, rebuilt for each new checker).
	parts *partUndistorter
}

// maxSettleRecalibrations bounds the recalibrations while a camera
// settles.
const maxSettleRecalibrations = 2

// NewMonitor watches cal; frame, when not empty, is the frame cal was made
// from (see [Checker.SetReference]).
func NewMonitor(cal *Calibration, frame gocv.Mat, m Monitor) (*Monitor, error) {
	if m.Interval <= 0 {
		m.Interval = 2 * time.Second
	}
	if m.Confirm <= 0 {
		m.Confirm = 2
	}
	if m.Options.Orientation == (Orientation{}) {
		m.Options.Orientation = cal.Orientation
	}
	if err := m.use(cal, frame); err != nil {
		return nil, err
	}
	return &m, nil
}

func (m *Monitor) use(cal *Calibration, frame gocv.Mat) error {
	ch, err := NewChecker(cal, m.CheckerOptions)
	if err != nil {
		return err
	}
	if !frame.Empty() {
		if err := ch.SetReference(frame); err != nil {
			return err
		}
	}
	m.cal, m.checker, m.strikes, m.prev = cal, ch, 0, nil
	m.closeParts()
	return nil
}

func (m *Monitor) closeParts() {
	if m.parts != nil {
		m.parts.Close()
		m.parts = nil
	}
}

// Close releases what ObserveRaw keeps (the parts' remap tables).
func (m *Monitor) Close() { m.closeParts() }

// PrepareRaw makes ObserveRaw's tables now rather than at its first
// check, from u (the whole frame's, for the calibration's lens) or, when
// u is nil, from the whole frame's tables made for the moment (5.5 MB at
// 720p, released before it returns).
func (m *Monitor) PrepareRaw(u *Undistorter) error {
	if m.cal.Lens == nil || m.parts != nil {
		return nil
	}
	if u == nil {
		var err error
		if u, err = NewUndistorter(m.cal.Lens); err != nil {
			return fmt.Errorf("calibrate: check: %w", err)
		}
		defer u.Close()
	}
	m.parts = u.parts(m.checker.Rects())
	return nil
}

// Calibration returns the calibration in force.
func (m *Monitor) Calibration() *Calibration { return m.cal }

// Pending tells whether a move has been seen and is not yet confirmed or
// dismissed: the caller should then observe the next frame rather than
// wait for its usual interval (Observe checks it whatever the Interval).
// After a failed recalibration the next try waits for the Interval again.
func (m *Monitor) Pending() bool { return m.strikes > 0 && !m.failed }

// boardWidth is the mean side of the calibration's surface in the image.
func (m *Monitor) boardWidth() float64 {
	ic := m.cal.ImageCorners()
	var w float64
	for i := 0; i < 4; i++ {
		w += ic[i].Dist(ic[(i+1)%4]) / 4
	}
	return w
}

// atRest tells whether two checks see the edges in the same place: every
// side seen by both moved less than tol between them. Checks that saw no
// side (lost) cannot tell and count as at rest.
func atRest(a, b *CheckResult, tol float64) bool {
	if a == nil || b == nil {
		return true
	}
	for j := 0; j < 4; j++ {
		if math.IsNaN(a.Sides[j]) || math.IsNaN(b.Sides[j]) {
			continue
		}
		if math.Abs(a.Sides[j]-b.Sides[j]) > tol {
			return false
		}
	}
	return true
}

// Observe is called with frames as they come. When Interval has passed
// since the last check (or a move is pending) it checks the frame and
// returns the result; once a move is confirmed it recalibrates on this
// frame and returns the new calibration (the caller emits a recalibrated
// event with its CornersPx). A failed recalibration returns an error and
// keeps the old calibration; the next check tries again.
func (m *Monitor) Observe(frame gocv.Mat, now time.Time) (*CheckResult, *Calibration, error) {
	return m.observe(now, func() (CheckResult, error) { return m.checker.Check(frame) },
		func() (gocv.Mat, func(*Calibration) error, func(), error) {
			return frame, func(cal *Calibration) error { return m.use(cal, frame) }, func() {}, nil
		})
}

// ObserveRaw is Observe for a frame as the camera gave it, with the
// distortion of the calibration's lens (the same results). The checks
// undistort only the parts of the frame they read, so no undistorted copy
// of the whole frame and no remap tables of the whole frame are kept
// between recalibrations (8.3 MB at 720p); a recalibration undistorts the
// whole frame once. Close the monitor when done.
func (m *Monitor) ObserveRaw(raw gocv.Mat, now time.Time) (*CheckResult, *Calibration, error) {
	if m.cal.Lens == nil {
		return m.Observe(raw, now)
	}
	check := func() (CheckResult, error) {
		if err := m.PrepareRaw(nil); err != nil {
			return CheckResult{}, err
		}
		if err := m.parts.apply(raw); err != nil {
			return CheckResult{}, fmt.Errorf("calibrate: check: %w", err)
		}
		return m.checker.checkParts(m.parts)
	}
	whole := func() (gocv.Mat, func(*Calibration) error, func(), error) {
		u, err := NewUndistorter(m.cal.Lens)
		if err != nil {
			return gocv.Mat{}, nil, nil, err
		}
		frame := gocv.NewMat()
		done := func() { frame.Close(); u.Close() }
		if err := u.Apply(raw, &frame); err != nil {
			done()
			return gocv.Mat{}, nil, nil, err
		}
		use := func(cal *Calibration) error {
			if err := m.use(cal, frame); err != nil {
				return err
			}
			return m.PrepareRaw(u)
		}
		return frame, use, done, nil
	}
	return m.observe(now, check, whole)
}

// observe is Observe with the check of the frame, and the whole
// undistorted frame to recalibrate on (with how to put the new
// calibration in force and to release the frame), given.
func (m *Monitor) observe(now time.Time, checkFrame func() (CheckResult, error), whole func() (gocv.Mat, func(*Calibration) error, func(), error)) (*CheckResult, *Calibration, error) {
	if !m.last.IsZero() && now.Sub(m.last) < m.Interval && !m.Pending() {
		return nil, nil, nil
	}
	m.last = now
	res, err := checkFrame()
	if err != nil {
		return nil, nil, err
	}
	width := m.boardWidth()
	restPx := m.RestPx
	if restPx <= 0 {
		restPx = math.Max(0.5, 0.001*width)
	}
	moved := res.Status == CheckMoved || res.Status == CheckLost
	// Settling after a recalibration: a small displacement that holds
	// still is where the camera came to rest.
	settleMove := m.settling && res.Status == CheckOK && res.ShiftPx > m.SettlePx
	if m.settling && res.Status == CheckOK && !settleMove {
		if m.settledOK++; m.settledOK >= 2 {
			m.settling = false
		}
	}
	if !moved && !settleMove {
		if res.Status == CheckOK {
			m.strikes, m.prev, m.failed = 0, nil, false
		}
		return &res, nil, nil
	}
	m.settledOK = 0
	m.strikes++
	prev := m.prev
	m.prev = &res
	need := m.Confirm
	if settleMove {
		need = 2
	}
	if m.strikes < need || !atRest(prev, &res, restPx) {
		return &res, nil, nil
	}
	opt := m.Options
	if opt.Now == nil {
		opt.Now = func() time.Time { return now }
	}
	frame, use, done, err := whole()
	if err != nil {
		m.failed = true
		return &res, nil, fmt.Errorf("calibrate: recalibration after the board moved %.1f px: %w", res.ShiftPx, err)
	}
	defer done()
	cal, _, err := Detect(frame, opt)
	m.failed = err != nil
	if err != nil {
		return &res, nil, fmt.Errorf("calibrate: recalibration after the board moved %.1f px: %w", res.ShiftPx, err)
	}
	cal.Lens = m.cal.Lens
	if err := use(cal); err != nil {
		m.failed = true
		return &res, nil, err
	}
	if settleMove {
		m.settleRecal++
	} else {
		m.settleRecal = 0
	}
	m.settling, m.settledOK = m.SettlePx > 0 && m.settleRecal < maxSettleRecalibrations, 0
	return &res, cal, nil
}
