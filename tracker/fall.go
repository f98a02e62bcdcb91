package tracker

import "github.com/boardcam/boardcam/board"

// The striker's fall into a pocket, seen or not. A striker pocketed is a
// foul, and the striker is the disc a camera loses most (it is the fastest,
// it bounces off cushions, it is picked up), so its pocketing counts as
// seen (a pocketed event that is not Inferred; the referee holds a stroke
// whose striker pocketing was inferred) only when the camera saw it going
// in: its last sighting on a measured slide, and its way from there into
// the mouth, or over it, by the first frame in which it was missed.
// Otherwise that frame would have shown it on the board, and it was not
// there: it went somewhere the camera did not see (a bounce off a cushion
// between two frames, its image taken for another disc). The men's rule
// (fallSeen: the last sighting within two diameters of the mouth) is a
// distance, right at one frame rate and wrong at another: at 15 fps a
// striker at 1.6 m/s is last seen 88 mm off the mouth and in the pocket by
// the next frame (h06 at fps15late), and one seen 68 mm off is two frames
// from the mouth.
//
// At 15 fps (v-plain-print-queen, fps15) the striker was seen one frame
// before a bounce off the north cushion and one frame after; the slide
// fitted through the two ran on along the cushion into NW's mouth, 68 mm
// from the last sighting, two frames away at 0.58 m/s. It had come back
// off the cushion, seen as "white" and "queen" on the next frames, and
// came to rest mid-board: "N qs" was applied where the truth is "N q".

// strikerFallSeen reports whether the striker, track tr, lost moving on
// its way into pocket pk, was seen going in: its way from its last
// sighting reached the mouth (its centre in the pocket, or its disc over
// the pocket's circle) by the first frame in which it was missed.
func (tk *Tracker) strikerFallSeen(tr *track, pk board.Pocket) bool {
	if len(tr.segs) == 0 || tr.misses == 0 {
		return false
	}
	p, v, tl := tk.lostStart(tr)
	next := tr.unseenSince - tl
	if next <= 0 {
		return false
	}
	path := tk.mot.slide(tk.g, p, v, tr.r, next)
	if path.pocketed {
		return path.pocket == pk
	}
	pc := tk.g.Pocket(pk)
	return path.p.Dist(pc.C) <= pc.R+tr.r
}
