package tracker

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/sight"
)

// A stroke is known by what the discs do, not by whether the striker or a
// hand is seen: a disc struck from rest leaves its place in a straight,
// fast, slowing slide. When a disc at rest is no longer found at its
// place (in plain view) and two detections no disc explains, in
// successive frames since it was last seen there, lie on a line leading
// away from that place at a speed a slide can have, the disc left its
// place along that line: it is taken up moving from the first of them.
// This finds the striker flicked with no hand in view, a man struck by a
// striker that was too blurred (or too fast) to be seen, and a disc
// detected only now and then on its way.

// stray is a detection no disc explained, kept for a few frames.
type stray struct {
	frame int
	t     float64
	d     sight.Detection
}

// strayTime is how long (s) unexplained detections are kept (at least
// strayFrames frames): a disc that left its place is taken up from two
// sightings within this window.
const (
	strayTime   = 0.15
	strayFrames = 4
)

// keepStrays remembers this frame's unexplained detections and forgets
// those too old to be a disc's first sighting.
func (tk *Tracker) keepStrays() {
	keep := tk.strays[:0]
	horizon := math.Max(strayTime, float64(strayFrames)*tk.dt)
	for _, s := range tk.strays {
		if tk.t-s.t <= horizon+1e-9 {
			keep = append(keep, s)
		}
	}
	tk.strays = keep
	for j := range tk.dets {
		if tk.detUsed[j] == -1 && !tk.fixtures.on(j) && len(tk.strays) < maxStrays {
			tk.strays = append(tk.strays, stray{frame: tk.frame, t: tk.t, d: tk.dets[j]})
		}
	}
}

// maxStrays bounds the unexplained detections kept (a few frames' worth
// of false detections on a busy picture).
const maxStrays = 96

// strayFits reports whether detection d may be a sighting of a disc of
// kind k: the same class, or one the detector is unsure of (the striker
// is told by its size: a confident man is not the striker, nor a
// confident striker a man).
func strayFits(d *sight.Detection, k board.Kind) bool {
	return d.Kind == k || d.ClassScore < 0.6
}

// sureOf reports whether the detector is sure detection d is of kind k.
func sureOf(d *sight.Detection, k board.Kind) bool {
	return d.Kind == k && d.ClassScore >= 0.6
}

// vacated takes up, moving, the discs at rest that left their place
// unseen (see above): after the assignment passes, before the tracks are
// updated.
func (tk *Tracker) vacated() {
	if len(tk.strays) == 0 {
		return
	}
	a := tk.cfg.Deceleration
	for i := range tk.tracks {
		tr := &tk.tracks[i]
		if !tr.state.atRest() || tr.restLastT <= 0 {
			continue
		}
		// Seen at its place only as another class (a printed circle, the
		// disc's own shadow of a detection), it may still have left: then
		// only on sure sightings of its class.
		other := tk.trkDet[i] >= 0
		if other && tk.dets[tk.trkDet[i]].Kind == tr.kind {
			continue
		}
		if tk.occ != nil && tk.occ.Hidden(tr.restPos, tr.r) >= tk.cfg.OccludedFraction/2 {
			continue // covered: perhaps still there
		}
		t0 := tr.restLastT
		if other {
			t0 = tr.restKindT // (seen there as itself)
		}
		best, bs, bj := -1.0, -1, -1
		for j := range tk.dets {
			d := &tk.dets[j]
			if tk.detUsed[j] != -1 || tk.fixtures.on(j) || d.Partial || !strayFits(d, tr.kind) || other && !sureOf(d, tr.kind) {
				continue
			}
			d2 := d.MM.Dist(tr.restPos)
			if d2 < 3*tk.cfg.MoveMM || d2 > tk.cfg.MaxSpeed*(tk.t-t0)+10 {
				continue
			}
			for k := range tk.strays {
				s := &tk.strays[k]
				if s.t <= t0 || s.t >= tk.t || !strayFits(&s.d, tr.kind) || other && !sureOf(&s.d, tr.kind) {
					continue
				}
				if i == idxS && d.Kind != board.Striker && s.d.Kind != board.Striker {
					continue // the striker is told by its size: one of the two must say so
				}
				d1 := s.d.MM.Dist(tr.restPos)
				if d1 < 3*tk.cfg.MoveMM || d1 >= d2 {
					continue
				}
				u := d.MM.Sub(s.d.MM)
				L := u.Len()
				dt := tk.t - s.t
				v := L / dt
				if L < 3*tk.cfg.MoveMM || v < tk.cfg.StrikeSpeed || v > tk.cfg.MaxSpeed {
					continue
				}
				u = u.Scale(1 / L)
				// On the line leading away from the place.
				off := math.Abs(tr.restPos.Sub(s.d.MM).Cross(u))
				if off > 4+3*tk.cfg.NoiseMM+0.05*d1 || s.d.MM.Sub(tr.restPos).Dot(u) <= 0 {
					continue
				}
				// No farther from the place than a slide this fast can have
				// gone since the disc was last seen there (it slows: it was
				// faster before).
				v1 := v + a*dt/2
				tau := s.t - t0
				if d1 > 1.5*(v1*tau+a*tau*tau/2)+20 {
					continue
				}
				// One straight slide: nothing lying still across the way
				// from the place to either sighting (else it struck it on
				// the way, and the two are not one slide).
				if tk.chordHits(i, tr.restPos, s.d.MM) || tk.chordHits(i, s.d.MM, d.MM) {
					continue
				}
				if score := off + d1/100; best < 0 || score < best {
					best, bs, bj = score, k, j
				}
			}
		}
		if bj < 0 {
			continue
		}
		s := tk.strays[bs]
		if other {
			tk.detUsed[tk.trkDet[i]] = -1 // something else lies there
		}
		tk.trkDet[i], tk.detUsed[bj] = bj, i
		tr.moveStreak = 1
		tr.moveFirst = obs{frame: s.frame, t: s.t, p: s.d.MM, px: s.d.PX, sigma: tk.sigma(&s.d, tr)}
	}
}

// A fixture is something the detector sees as a disc, always at the same
// place, that no disc explains: a printed circle of a disc's size and
// colour (the red cores of the base circles, the centre circle), a stain.
// It is known once an unexplained detection has stayed put for
// fixtureTime; from then on the detections on it are left to the first,
// tight pass (a disc lying right there) and never taken by a disc looked
// for farther afield (one moving, lost or hidden) nor counted as the first
// sighting of a disc leaving its place.
const fixtureTime = 1.0

// fixture is a place where detections no disc explains keep coming.
type fixture struct {
	p             board.Vec // the first sighting
	firstT, lastT float64
}

// fixtureGap is how long a fixture may go unseen (a disc sliding over it,
// a hand) before it is forgotten.
const fixtureGap = 0.5

// maxFixtures bounds the places remembered.
const maxFixtures = 64

// fixtureMap is what the Tracker knows of the fixtures (one concern, a
// field of the assignment): the places where detections no disc explains
// keep coming, and which of this frame's detections lie on one.
type fixtureMap struct {
	fix   []fixture
	fixed []bool // detection -> lies on a fixture (see mark)
}

// fixtureTol is how close (mm) detections must stay to a fixture.
func fixtureTol(cfg *Config) float64 { return math.Max(2*cfg.NoiseMM+1.5, cfg.RestMM) }

// on reports whether detection j of this frame lies on a fixture.
func (m *fixtureMap) on(j int) bool { return m.fixed[j] }

// keep follows the places of the unexplained detections of the frame at
// time t (those with detUsed -1), within tol of a fixture.
func (m *fixtureMap) keep(t float64, dets []sight.Detection, detUsed []int, tol float64) {
	keep := m.fix[:0]
	for _, f := range m.fix {
		if t-f.lastT <= fixtureGap {
			keep = append(keep, f)
		}
	}
	m.fix = keep
	for j := range dets {
		if detUsed[j] != -1 {
			continue
		}
		p := dets[j].MM
		found := false
		for k := range m.fix {
			if f := &m.fix[k]; f.p.Dist(p) < tol {
				f.lastT, found = t, true
				break
			}
		}
		if !found && len(m.fix) < maxFixtures {
			m.fix = append(m.fix, fixture{p: p, firstT: t, lastT: t})
		}
	}
}

// mark marks this frame's detections that lie within tol of a fixture.
func (m *fixtureMap) mark(dets []sight.Detection, tol float64) {
	nd := len(dets)
	if cap(m.fixed) < nd {
		m.fixed = make([]bool, nd)
	}
	m.fixed = m.fixed[:nd]
	for j := range m.fixed {
		m.fixed[j] = false
	}
	for _, f := range m.fix {
		if f.lastT-f.firstT < fixtureTime {
			continue
		}
		for j := range dets {
			if dets[j].MM.Dist(f.p) < tol {
				m.fixed[j] = true
			}
		}
	}
}
