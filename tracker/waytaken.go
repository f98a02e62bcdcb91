package tracker

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// A pocketing taken from a lost disc's way, where another disc was seen.
// A disc lost from sight moving is taken as pocketed when its slide from
// its last sighting runs into a mouth. But if, while it was lost, another
// identity was seen where that slide had it (their centres closer than
// the larger radius: two discs cannot lie there together), the sightings
// were this disc's given to the other (or the slide is wrong, the disc
// having struck the other): the pocketing is not established, nor is the
// other disc's place. Under strong glare (h08) the striker was not
// detected after it struck W1; W1's blurred image, read as striker or
// white at class 0.50, was given to the striker, and W1's own identity,
// left with no sightings, slid on into NW's mouth and was called
// pocketed while W1 bounced off the cushion and stopped beside it. The
// pocketing is still said (the best guess), and the stroke is doubted
// with the reason: "striker_ambiguous" when one of the two is the
// striker, "unaccounted" otherwise.

// wayTakenBy reports another identity seen, while moving track i was
// lost, where i's slide from its last sighting had it at that moment
// (until it reached the mouth by, or the end of its way): its index and
// the frame.
func (tk *Tracker) wayTakenBy(i int) (int, int, bool) {
	tr := &tk.tracks[i]
	if tr.state != Moving || tr.misses == 0 || len(tr.segs) == 0 {
		return 0, 0, false
	}
	p, v, tl := tk.lostStart(tr)
	if v.Len() == 0 {
		return 0, 0, false
	}
	end := tk.mot.slide(tk.g, p, v, tr.r, tk.t-tl)
	last := tk.t
	if end.pocketed {
		last = tl + end.tp
	}
	for j := range tk.tracks {
		o := &tk.tracks[j]
		if j == i {
			continue
		}
		for k := len(o.hist) - 1; k >= 0; k-- {
			ob := &o.hist[k]
			if ob.t <= tl {
				break
			}
			if ob.t > last {
				continue
			}
			q := tk.mot.slide(tk.g, p, v, tr.r, ob.t-tl).p
			if q.Dist(ob.p) < math.Max(tr.r, o.r) {
				return j, ob.frame, true
			}
		}
	}
	return 0, 0, false
}

// doubtWayTaken doubts the stroke when lost track i, about to be taken as
// pocketed in pk, had its way taken by another identity (wayTakenBy).
func (tk *Tracker) doubtWayTaken(i int, pk board.Pocket) {
	st := tk.stroke
	if st == nil {
		return
	}
	j, f, ok := tk.wayTakenBy(i)
	if !ok {
		return
	}
	tr, o := &tk.tracks[i], &tk.tracks[j]
	kind := events.DoubtUnaccounted
	if i == idxS || j == idxS {
		kind = events.DoubtStrikerAmbiguous
	}
	lf := tk.frameOf(tr.lastSeenT)
	st.doubts = append(st.doubts, events.Doubt{Kind: kind, IDs: []string{tr.id, o.id}, Frames: [2]int{lf, tk.frame},
		Reason: fmt.Sprintf("%s was last seen at frame %d at (%.0f, %.0f) mm and taken as pocketed in %s from its way, but %s was seen where that way had %s at frame %d: the two may be one disc (%s still on the board, or %s not where the camera has it)",
			tr.id, lf, tr.lastObs.p.X, tr.lastObs.p.Y, pk, o.id, tr.id, f, tr.id, o.id)})
}
