package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// besideArmScene: W1 lies at (-150, -100) at 30 fps; an arm reaches in
// beside it (its edge about 14 mm from the man's) over frames 45 until
// handOff (never, when 0). From frame 48 while the arm is there the man is
// measured at shift from its place; once the arm has gone, at after.
type besideArmScene struct {
	shift, after board.Vec
	handOff, end int
}

func (sc besideArmScene) play(t *testing.T) []events.Event {
	t.Helper()
	g := board.ICF()
	man := board.V(-150, -100)
	const handOn = 45
	return playFrames(t, sc.end, 30, func(i int, f *sight.Frame) {
		f.Detections = append(f.Detections,
			sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9},
			sight.Detection{Kind: board.Striker, MM: board.V(100, g.BaseCircleY()), Score: 1, ClassScore: 1})
		hand := i >= handOn && (sc.handOff == 0 || i < sc.handOff)
		m := man
		switch {
		case hand && i >= handOn+3:
			m = man.Add(sc.shift)
		case !hand && i >= handOn:
			m = man.Add(sc.after)
		}
		f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: m, Score: 1, ClassScore: 0.9})
		if hand {
			f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{
				{Owner: "W", Elbow: board.V(-640, -160), Wrist: board.V(-220, -160), Fingertip: board.V(-180, -160), ArmWidth: 60, HandWidth: 60, Z: 13},
			}}
		}
	})
}

// A man measured a few mm off beside an arm is not said to have moved
// until it is measured again once the arm has gone (touch.go): back where
// it lay, nothing is said (before, `moved` W1 and a touched-piece foul); a
// man really pushed 5 mm and left there is said moved, where it is
// measured in plain view; one never measured again without the arm is
// said moved with the beside-hand uncertainty (the referee offers it).
func TestMovedBesideHandRemeasured(t *testing.T) {
	man := board.V(-150, -100)
	for _, c := range []struct {
		name  string
		sc    besideArmScene
		moved int
		to    board.Vec
		sigma float64
	}{
		{"4 mm off beside the arm, back once it has gone", besideArmScene{shift: board.V(4, 0), handOff: 120, end: 180}, 0, board.Vec{}, 0},
		{"pushed 5 mm and left there", besideArmScene{shift: board.V(5, 1), after: board.V(5, 1), handOff: 120, end: 180}, 1, man.Add(board.V(5, 1)), 0},
		{"pushed 12 mm and left there", besideArmScene{shift: board.V(12, 0), after: board.V(12, 0), handOff: 120, end: 180}, 1, man.Add(board.V(12, 0)), 0},
		{"4 mm off beside an arm that stays", besideArmScene{shift: board.V(4, 0), end: 240}, 1, man.Add(board.V(4, 0)), besideHandMM},
	} {
		evs := c.sc.play(t)
		by := checkedByType(t, c.name, evs)
		ms := by[events.Moved]
		if len(ms) != c.moved {
			t.Errorf("%s: %d moved, want %d: %v", c.name, len(ms), c.moved, ms)
			continue
		}
		for _, e := range by[events.StrokeStart] {
			t.Errorf("%s: unexpected %v", c.name, e)
		}
		if c.moved == 0 {
			continue
		}
		if e := ms[0]; e.ID != "W1" || e.MM.Vec().Dist(c.to) > 0.5 || e.SigmaMM != c.sigma {
			t.Errorf("%s: %v, want W1 at %v sigma %.1f", c.name, e, c.to, c.sigma)
		}
	}
}
