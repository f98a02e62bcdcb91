package tracker

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// A striker never seen standing at its place before it slid (the detector
// missed it at rest there, in plain view or not, and first saw it far off,
// sliding) is, to checkFlick, one a hand carried: a striker that slow "is
// seen as it slides", so it cannot have come that far from a base line
// unseen. When it then strikes a man lying still, checkStruck, which
// traces a stroke back from the first disc struck, stands aside because
// the striker is in plain view ("checkFlick decides"), and no stroke
// starts at all: the man's move, and whatever it knocked in, pass without
// a word (issue 11's hunt, testdata/hunt/n1-man-on-lip at 15 fps: the
// striker unseen at rest, first seen 400 mm on; the man it sent to the
// NE pocket's lip moved silently, and the turn was not passed).
//
// A hand carrying the striker is over it. So when the striker was not
// seen standing in a base-line area since it last stood still anywhere
// (tk.still is elsewhere, or never), was seen whole (no partial sighting)
// and with no hand over or beside it in every sighting up to the man's
// onset (at least one), its way from its first sighting to the touch
// (on the man's line of centres) traced back meets a base line, and its
// last sighting before that onset lay within reach of the man (a striker's and a man's radius and the way of two frames at its
// speed), the man's onset is the evidence: checkStruck traces the stroke
// from it, its start inferred (held by the referee), and strikerUnplaced
// says why.

// unplacedStrike reports whether disc i, set moving on its own and fast
// (struckFirstAll), was struck by a striker in plain view that checkFlick
// cannot anchor to a place (see above).
func (tk *Tracker) unplacedStrike(i int) bool {
	s := &tk.tracks[idxS]
	tr := &tk.tracks[i]
	if st := tk.still; st.ok {
		if _, ok := tk.g.BaseLineSide(st.p, s.r+10); ok {
			return false // seen standing at a place: checkFlick judges the slide
		}
	}
	if len(tr.hist) <= tr.moveStart || len(s.hist) < 2 {
		return false
	}
	on := tr.hist[tr.moveStart].t
	var last *obs
	n := 0
	for k := range s.hist {
		o := &s.hist[k]
		if o.t >= on {
			break
		}
		if o.partial {
			return false // a hand over it: as a carry looks
		}
		last = o
		n++
	}
	if n < 1 || last == nil || on-last.t > 2.5*tk.dt {
		return false
	}
	if tk.occ != nil && (tk.occ.Hidden(last.p, s.r+25) > 0.02 || tk.occ.Hidden(s.pos, s.r+25) > 0.02) {
		return false
	}
	v := 0.0
	if k := len(s.segs) - 1; k >= 0 && s.segs[k].known {
		v = tk.mot.vel(&s.segs[k], last.t).Len()
	}
	if last.p.Dist(tr.onsetFrom) > s.r+tr.r+10+2*tk.dt*v {
		return false // not near the man when he left: something else moved him
	}
	// Its way: from its first sighting to where it touched the man (on
	// the line of centres the man leaves along, a striker's and a man's
	// radius behind his place).
	first := s.hist[0]
	ms := &tr.segs[len(tr.segs)-1]
	touch := tr.onsetFrom.Sub(ms.v0.Unit().Scale(s.r + tr.r))
	d := touch.Sub(first.p)
	if d.Len() < 10 {
		return false
	}
	start, ok := tk.baseLineBehind(first.p, d.Unit())
	if !ok {
		return false // its way does not come from a base line
	}
	tk.unplaced = unplacedNote{ok: true, first: first, man: tr.id, start: start}
	return true
}

// baseLineBehind returns where the line through p along direction n,
// followed back, first meets a base line (the middle of its band) within
// the base circles' span: where a striker sliding along n came from.
func (tk *Tracker) baseLineBehind(p, n board.Vec) (board.Vec, bool) {
	best := math.Inf(1)
	var start board.Vec
	span := tk.g.BaseCircleX() + tk.g.BaseCircleDiameter/2
	for _, side := range board.Sides {
		lu, l0 := board.ToLocal(side, n), board.ToLocal(side, p)
		if lu.Y > -0.05 {
			continue // not moving away from that side
		}
		l := (tk.g.BaseCircleY() - l0.Y) / -lu.Y
		q := p.Sub(n.Scale(l))
		if l >= 0 && l < best && math.Abs(board.ToLocal(side, q).X) <= span {
			best, start = l, q
		}
	}
	return start, !math.IsInf(best, 1)
}

// unplacedNote is what unplacedStrike saw, said by noteUnplaced once the
// stroke has started.
type unplacedNote struct {
	ok    bool
	first obs
	man   string
	start board.Vec // where its way, traced back, meets a base line
}

// noteUnplaced holds the stroke checkStruck started on unplacedStrike's
// word, saying why.
func (tk *Tracker) noteUnplaced(side board.Side) {
	u := tk.unplaced
	tk.unplaced = unplacedNote{}
	if !u.ok || tk.stroke == nil {
		return
	}
	tk.stroke.doubts = append(tk.stroke.doubts, events.Doubt{Kind: events.DoubtStartUnseen,
		Reason: fmt.Sprintf("the striker was not seen at its place before this stroke: first seen at frame %d, sliding at (%.0f, %.0f) mm with no hand on it, it struck %s: taken as struck from %s's base line, its start traced back from that blow, not seen",
			u.first.frame, u.first.p.X, u.first.p.Y, u.man, side),
		Frames: [2]int{u.first.frame, u.first.frame}, IDs: []string{"S", u.man}})
}
