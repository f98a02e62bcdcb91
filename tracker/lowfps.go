package tracker

import (
	"fmt"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
)

// At a low frame rate (15 fps) a disc goes twice as far between two
// frames as at 30, and the striker flicked from under a hand is often seen
// sliding in two frames only before that hand covers it again (a backward
// flick draws the hand after it). Two rules keep such strokes:
//
//   - A disc leaving its place is seen first barely off it: a partial
//     detection under a hand within three times MoveMM of its place is
//     taken for noise at rest. When the next sighting is clearly away,
//     on from that one (the same way, in the next frame), that sighting
//     was the slide's first (offPlace).
//   - The striker seen sliding in two frames, fast, leaving a hand that
//     stayed where it was, then covered by that hand in the next frame,
//     was struck: a third sighting would have told, and none will come
//     (flickWait). The stroke starts from those two, and is held for the
//     umpire: two sightings are less than checkFlick asks of a striker in
//     view.

// flickWait is a slide of the striker that passed every test of a flick
// but the third sighting, in frame frame (its segment k).
type flickWait struct {
	frame int
	k     int
}

// offPlace returns the previous sighting of resting track tr when it lay
// off its place (beyond MoveMM, though taken for noise) in the frame just
// before o and o lies on from it, away from the place: the first
// sighting of the slide o continues.
func (tk *Tracker) offPlace(tr *track, o obs) (obs, bool) {
	f := tr.offObs
	if f.t == 0 || f.t != tr.lastSeenT || f.frame != o.frame-1 {
		return obs{}, false
	}
	away, on := f.p.Sub(tr.restPos), o.p.Sub(f.p)
	if away.Len() < tk.cfg.MoveMM || on.Len() < tk.cfg.MoveMM || away.Unit().Dot(on.Unit()) < 0.9 {
		return obs{}, false
	}
	return f, true
}

// lostFlick reports whether the striker, seen sliding in two frames and
// waiting for a third (flickWait), went under a hand in this frame.
func (tk *Tracker) lostFlick() bool {
	s := &tk.tracks[idxS]
	w := tk.flick2
	return w.frame > 0 && tk.frame == w.frame+1 && s.state == Occluded && s.occMoving &&
		w.k < len(s.segs) && s.segs[w.k].n == 2
}

// noteLostFlick holds the stroke just begun from the two sightings of
// segment k for the umpire.
func (tk *Tracker) noteLostFlick(k int) {
	s := &tk.tracks[idxS]
	sg := &s.segs[k]
	if tk.stroke == nil || sg.n < 2 || sg.first+1 >= len(s.hist) {
		return
	}
	f1, f2 := s.hist[sg.first].frame, s.hist[sg.first+1].frame
	tk.stroke.doubts = append(tk.stroke.doubts, events.Doubt{Kind: events.DoubtViewCovered,
		Reason: fmt.Sprintf("the striker was seen sliding from its place in two frames only (%d and %d) before a hand covered it: taken as struck, not carried", f1, f2),
		Frames: [2]int{f1, tk.frame}, IDs: []string{"S"}})
}

// chordStruck reports whether the straight line between a and b (track
// i's way) runs into a disc that lay still and is seen leaving its place
// in this very frame: track i struck it on that way.
func (tk *Tracker) chordStruck(i int, a, b board.Vec) bool {
	if a.Dist(b) < 5 {
		return false
	}
	tr := &tk.tracks[i]
	way := board.Segment{A: a, B: b}
	for j := range tk.tracks {
		o := &tk.tracks[j]
		if j == i {
			continue
		}
		var p board.Vec
		switch {
		case o.state == Moving && o.fromRest && len(o.hist) > o.moveStart && o.hist[o.moveStart].t == tk.t:
			p = o.onsetFrom
		default:
			continue
		}
		if way.DistTo(p) < tr.r+o.r-2 && p.Dist(a) > tr.r+o.r-2 {
			return true
		}
	}
	return false
}
