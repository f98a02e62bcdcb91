package render

import (
	"fmt"
	"math"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// OpeningScene returns the arrangement at the start of a board, per the
// Laws: the queen on the centre, six men around it touching it, twelve
// around those touching them, both rings alternating in colour, and the
// queen, a white of the inner ring and a white of the outer ring in line
// toward the breaker's side; the striker lies on the middle of the
// breaker's base line. (A small stand-in; the simulator builds its own.)
func OpeningScene(g *board.Geometry, breaker board.Side) *scene.Scene {
	d := g.ManDiameter + 0.05 // a hair apart so that nothing overlaps numerically
	toward := breaker.Normal()
	base := math.Atan2(toward.Y, toward.X)
	sc := &scene.Scene{}
	add := func(id string, k board.Kind, p board.Vec, ang float64) {
		sc.Discs = append(sc.Discs, scene.Disc{ID: id, Kind: k, Pos: p, Angle: ang, State: scene.Rest})
	}
	add("Q", board.Queen, board.Vec{}, 0.3)
	w, b := 1, 1
	next := func(white bool) (string, board.Kind) {
		if white {
			w++
			return fmt.Sprintf("W%d", w-1), board.White
		}
		b++
		return fmt.Sprintf("B%d", b-1), board.Black
	}
	at := func(ang, r float64) board.Vec {
		return board.Vec{X: math.Cos(base + ang), Y: math.Sin(base + ang)}.Scale(r)
	}
	// Inner ring: white toward the breaker, then alternating.
	for i := 0; i < 6; i++ {
		id, k := next(i%2 == 0)
		add(id, k, at(float64(i)*math.Pi/3, d), float64(i)*1.1)
	}
	// Outer ring of twelve: six in line with the inner men (2d out) are
	// white, the six in the hollows between (√3·d out) are black, so the
	// ring alternates and its white in line with the queen points at the
	// breaker too.
	for i := 0; i < 12; i++ {
		white := i%2 == 0
		r := 2 * d
		if !white {
			r = math.Sqrt(3) * d
		}
		id, k := next(white)
		add(id, k, at(float64(i)*math.Pi/6, r), float64(i)*0.7)
	}
	add("S", board.Striker, board.FromLocal(breaker, board.Vec{Y: g.BaseCircleY()}), 0)
	return sc
}
