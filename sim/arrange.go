package sim

import (
	"math"
	"math/rand/v2"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// PiecePos is a disc identity and a position in board millimetres.
type PiecePos struct {
	ID  string
	Pos board.Vec
}

// Opening returns the opening arrangement of the Laws of Carrom (PLACING
// THE PIECES) for a board broken from side breaker: the queen in the centre;
// six men around it, each touching the queen and its neighbours; twelve
// around those, each touching the inner ring (and its neighbours); both
// rings alternating in colour; the queen, a white of the inner ring and a
// white of the outer ring in a straight line pointing toward the centre of
// the breaker's side.
//
// The rings are the hexagonal close packing of 19 discs. Inner ring: W1,
// B1, W2, B2, W3, B3 at 60° steps starting toward the breaker; outer ring:
// the six whites W4…W9 behind the inner men (in the same order) and the six
// blacks B4…B9 in the hollows between them, each touching two inner men.
// With ICF sizes every disc lies inside the outer circle.
func Opening(g *board.Geometry, breaker board.Side) []PiecePos {
	rq, rm := g.QueenDiameter/2, g.ManDiameter/2
	inner := rq + rm // inner men touch the queen
	toward := breaker.Normal()
	base := math.Atan2(toward.Y, toward.X)
	at := func(ang, dist float64) board.Vec {
		return board.V(dist*math.Cos(ang), dist*math.Sin(ang))
	}
	out := []PiecePos{{"Q", board.Vec{}}}
	// Hollows between two inner men: on the bisector, touching both.
	half := inner * math.Sin(math.Pi/6)
	hollow := inner*math.Cos(math.Pi/6) + math.Sqrt(4*rm*rm-half*half)
	w, b := 1, 1
	id := func(c byte, n *int) string { s := string(c) + string(rune('0'+*n)); *n++; return s }
	for k := range 6 {
		ang := base + float64(k)*math.Pi/3
		if k%2 == 0 {
			out = append(out, PiecePos{id('W', &w), at(ang, inner)})
		} else {
			out = append(out, PiecePos{id('B', &b), at(ang, inner)})
		}
	}
	for k := range 6 {
		ang := base + float64(k)*math.Pi/3
		out = append(out, PiecePos{id('W', &w), at(ang, inner+2*rm)})
		out = append(out, PiecePos{id('B', &b), at(ang+math.Pi/6, hollow)})
	}
	return out
}

// clearance is the least gap (mm) between a disc placed by hand and its
// neighbours.
const clearance = 0.5

// freeAt reports whether disc idx could lie at p at time t: on the surface,
// inside the cushions, its centre outside every pocket mouth, and not
// touching any disc resting there (other than itself).
func (w *world) freeAt(idx int, p board.Vec, t float64) bool {
	g := w.g
	r := w.rad[idx]
	if math.Abs(p.X) > g.Half()-r || math.Abs(p.Y) > g.Half()-r {
		return false
	}
	if _, in := g.PocketAt(p); in {
		return false
	}
	for j := range nDiscs {
		if j == idx {
			continue
		}
		d := w.discAt(j, t)
		if d.State.OnBoard() && d.Pos.Dist(p) < r+w.rad[j]+clearance {
			return false
		}
	}
	return true
}

// blocker names the disc that keeps idx from lying at p, if any.
func (w *world) blocker(idx int, p board.Vec, t float64) (string, bool) {
	for j := range nDiscs {
		if j == idx {
			continue
		}
		d := w.discAt(j, t)
		if d.State.OnBoard() && d.Pos.Dist(p) < w.rad[idx]+w.rad[j] {
			return w.ids[j], true
		}
	}
	return "", false
}

// centreSpot is where the umpire puts the queen or a jumped man: on the
// centre circle if it is free, else the free spot nearest to it, searched
// ring by ring starting on the side away from the player to strike next.
func (w *world) centreSpot(idx int, t float64, away board.Side) (board.Vec, bool) {
	if w.freeAt(idx, board.Vec{}, t) {
		return board.Vec{}, true
	}
	n := away.Opposite().Normal()
	a0 := math.Atan2(n.Y, n.X)
	for rho := 1.0; rho < w.g.Half(); rho++ {
		steps := int(math.Max(12, math.Ceil(2*math.Pi*rho/2)))
		for k := range steps {
			// Alternate either side of the preferred direction.
			off := float64((k+1)/2) * 2 * math.Pi / float64(steps)
			if k%2 == 1 {
				off = -off
			}
			p := board.V(rho*math.Cos(a0+off), rho*math.Sin(a0+off))
			if w.freeAt(idx, p, t) {
				return p, true
			}
		}
	}
	return board.Vec{}, false
}

// outerSpot is where a player puts a due or penalty man: a random free spot
// wholly inside the outer circle and clear of the centre circle.
func (w *world) outerSpot(idx int, t float64, rng *rand.Rand) (board.Vec, bool) {
	g := w.g
	r := w.rad[idx]
	rin := g.CentreCircleDiameter/2 + r + clearance
	rout := g.OuterCircleDiameter/2 - r
	ok := func(p board.Vec) bool {
		return g.InsideOuterCircle(p, r) && !g.OverlapsCentreCircle(p, r) && w.freeAt(idx, p, t)
	}
	for range 400 {
		rho := math.Sqrt(rin*rin + (rout*rout-rin*rin)*rng.Float64())
		a := 2 * math.Pi * rng.Float64()
		p := board.V(rho*math.Cos(a), rho*math.Sin(a))
		if ok(p) {
			return p, true
		}
	}
	for y := -rout; y <= rout; y += 2 {
		for x := -rout; x <= rout; x += 2 {
			if p := board.V(x, y); ok(p) {
				return p, true
			}
		}
	}
	return board.Vec{}, false
}

// onBoard reports whether disc i lies on the surface at t.
func (w *world) onBoard(i int, t float64) bool { return w.discAt(i, t).State.OnBoard() }

// offBoard reports whether disc i can be brought back by a hand at t:
// pocketed, overboard or not in play.
func (w *world) offBoard(i int, t float64) bool {
	switch w.discAt(i, t).State {
	case scene.Pocketed, scene.Overboard, scene.Off:
		return true
	}
	return false
}
