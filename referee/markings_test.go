package referee_test

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// shifted returns the ICF board's markings with every side's base lines
// and base circles drawn d mm further toward the player's edge than the
// figures: within what the laws' tolerances and real boards allow.
func shifted(d float64) *board.Markings {
	m := board.ICF().NominalMarkings()
	m.Source = "measured"
	for s := range m.Sides {
		sm := &m.Sides[s]
		sm.Front.Y += d
		sm.Rear.Y += d
		for i := range sm.Circles {
			sm.Circles[i].Y += d
		}
	}
	return m
}

// calibratedWith is the calibrated event that carries the board's
// measured markings to the referee.
func calibratedWith(m *board.Markings) events.Event {
	return events.Event{Type: events.Calibrated, Frame: 0, T: 0,
		CornersPx: [][2]float64{{0, 0}, {100, 0}, {100, 100}, {0, 100}}, Markings: m}
}

// TestJudgedAgainstMeasuredLines: on a board whose lines are drawn 6 mm
// from the nominal ICF positions, placements are judged against the lines
// as drawn (carried by the calibrated event), never against the rule
// book's figures. Judged against the figures, every legal placement below
// is called a foul.
func TestJudgedAgainstMeasuredLines(t *testing.T) {
	const d = 6.0
	m := shifted(d)
	R := board.ICF().StrikerDiameter / 2
	front := m.Sides[board.S].Front
	rear := m.Sides[board.S].Rear
	cases := []struct {
		name string
		x, y float64
		foul rules.Foul // "" when legal
	}{
		{"fully on the left base circle", -circleX, baseY + d, ""},
		{"overlapping the front line by 1.2 mm", 0, front.Outer() - 1.2 + R, ""},
		{"fully on the right base circle", circleX, baseY + d, ""},
		{"partly on the left base circle (cutting the moon)", -circleX + 8, baseY + d, rules.FoulCutMoon},
		{"touching only the rear line", 0, front.Outer() + 0.5 + R, rules.FoulPlacement},
	}
	if y := front.Outer() + 0.5 + 2*R; y < rear.Inner() {
		t.Fatalf("the rear-line case misses the rear line (%.1f < %.1f)", y, rear.Inner())
	}
	for _, c := range cases {
		evs := []events.Event{startAt(10, board.S, c.x, c.y), crossed(14, board.S), end(60, at("S", 0, 100))}
		measured := only(t, judge(t, exact(t, "icf"), midBoard("icf"), append([]events.Event{calibratedWith(m)}, evs...)))
		nominal := only(t, judge(t, exact(t, "icf"), midBoard("icf"), evs))
		got := calls(measured)
		if c.foul == "" {
			if got != "" {
				t.Errorf("%s at (%.1f, %.1f): a legal placement called against the measured lines: %s", c.name, c.x, c.y, dump([]referee.Decision{measured}))
			}
			if calls(nominal) == "" {
				t.Errorf("%s: the nominal lines would call it too: the case does not tell the lines apart", c.name)
			}
			continue
		}
		findCall(t, measured, c.foul)
	}

	// The arrow toward SE drawn 6 mm off the diagonal, toward S's right
	// base circle: a striker covering that circle touches it (nominally it
	// clears the arrow by 6 mm less 0.1).
	ma := shifted(d)
	ma.Arrows[board.SE].Offset = 6
	evs := []events.Event{startAt(10, board.S, circleX, baseY+d), crossed(14, board.S), end(60, at("S", 0, 100))}
	findCall(t, only(t, judge(t, exact(t, "icf"), midBoard("icf"), append([]events.Event{calibratedWith(ma)}, evs...))), rules.FoulArrow)
	if got := calls(only(t, judge(t, exact(t, "icf"), midBoard("icf"), append([]events.Event{calibratedWith(m)}, evs...)))); got != "" {
		t.Errorf("the same placement with the arrow on the diagonal: %s", got)
	}
}
