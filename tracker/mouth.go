package tracker

import (
	"math"

	"github.com/boardcam/boardcam/board"
)

// Nothing rests in a pocket's mouth.
//
// A disc falls once its centre passes over a pocket's hole
// ([board.Geometry.PocketAt]): a man left on the lip rests with his centre
// just outside the hole (22.5 mm from the centre of a 44.5 mm pocket),
// never inside it. A sighting at rest with its centre well inside a hole
// is the hole itself taken for a dark disc (shaded, on a board small in
// the frame at 1.5–2 mm a pixel), not a disc. Taken up, it would lie "at
// rest" in the mouth with an identity of its own (or a lost disc's,
// relocated there), and when the detector stopped reporting it, its
// vanishing would be called a pocketing nothing was seen to make. So such
// a sighting is never made a disc (births).

// inMouth reports whether p lies inside a pocket's hole by more than the
// error of a centre measured near a corner (5 × NoiseMM, at least 3 mm):
// where no disc can rest. A man on the lip measured a little inward is
// still taken up.
func (tk *Tracker) inMouth(p board.Vec) bool {
	pk, d := tk.g.NearestPocket(p)
	return d < tk.g.Pocket(pk).R-math.Max(3, 5*tk.cfg.NoiseMM)
}
