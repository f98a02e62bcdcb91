package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
)

// handsScenario exercises every kind of hand.
const handsScenario = `
seed: 9
arrangement:
  positions: {W1: [300, -300], B1: [320, -250], W2: [-100, 150], B2: [0, 0], W3: [60, 0]}
  pocketed: [Q, B3]
timeline:
  - strike: {side: S, at: -60, direction: 0, speed: 0.6}
  - hand_over_pocket: {pocket: NE, seconds: 3}
  - nudge: {id: W2, by: E, move: [0, -40]}
  - return_queen
  - place: {by: N, pieces: [B3]}
`

func TestHands(t *testing.T) {
	tr := runYAML(t, handsScenario)
	checkFrames(t, tr)
	g := tr.Geometry
	want := "stroke_start, front_line_crossed, stroke_end, moved W2, placed Q, placed B3"
	if got := types(tr.Events); got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
	// Every hand enters and leaves over its owner's frame, never goes
	// lower than holdDepth, and holds only what it should.
	for _, h := range tr.w.hands {
		side := h.side
		for _, tt := range []float64{h.start(), h.end()} {
			if l := board.ToLocal(side, h.hand(tt).Fingertip); l.Y <= g.Half() {
				t.Errorf("%s's hand at %.2f s is on the surface at %v (local %v)", h.owner, tt, h.hand(tt).Fingertip, l)
			}
		}
		for tt := h.start(); tt <= h.end(); tt += 0.01 {
			if z := h.hand(tt).Z; z < holdDepth-1e-9 {
				t.Fatalf("%s's hand at %.2f s is %.2f mm above the board: through the discs", h.owner, tt, z)
			}
		}
	}
	// The strike: the striker is held, then rests on the base line, and
	// at the flick the fingertip is just behind it.
	st := tr.Strokes[0]
	before := tr.At(st.Start - 1e-6)
	s := discOf(before, "S")
	if s.State != scene.Rest || s.Pos.Dist(st.Striker) > 1e-9 {
		t.Errorf("striker before the flick: %+v", s)
	}
	if len(before.Hands) != 1 || before.Hands[0].Owner != "S" {
		t.Fatalf("hands at the flick: %+v", before.Hands)
	}
	h := before.Hands[0]
	if back := h.Fingertip.Sub(s.Pos).Dot(board.V(0, -1)); back > -g.StrikerDiameter/2 {
		t.Errorf("fingertip %v is not behind the striker %v", h.Fingertip, s.Pos)
	}
	held := false
	for tt := 0.0; tt < st.Start; tt += 0.02 {
		if d := discOf(tr.At(tt), "S"); d.State == scene.Held {
			held = true
			if hs := tr.At(tt).Hands; len(hs) != 1 || hs[0].Holding != "S" {
				t.Fatalf("striker held at %.2f but no hand holds it: %+v", tt, hs)
			}
		}
	}
	if !held {
		t.Error("the striker was never held")
	}
	// The hand over NE hides W1 (near the pocket) and W1 stays put.
	var over *scene.Hand
	var tOver float64
	for tt := st.End; tt < tr.Duration; tt += 0.05 {
		for _, hh := range tr.At(tt).Hands {
			if hh.Owner == "N" && hh.Hides(board.V(300, -300), g.ManDiameter/2) {
				over, tOver = &hh, tt
			}
		}
		if over != nil {
			break
		}
	}
	if over == nil {
		t.Fatal("no hand ever hid W1 by the NE pocket")
	}
	if w1 := discOf(tr.At(tOver), "W1"); w1.State != scene.Rest || w1.Pos != board.V(300, -300) {
		t.Errorf("W1 under the hand: %+v", w1)
	}
	if w1 := discOf(tr.Final(), "W1"); w1.State != scene.Rest {
		t.Errorf("W1 ends %s", w1.State)
	}
	// The nudge moves W2 by exactly the given vector, pushed by a finger.
	moved := eventsOf(tr, events.Moved)[0]
	if moved.MM.Vec() != board.V(-100, 110) || discOf(tr.Final(), "W2").Pos != board.V(-100, 110) {
		t.Errorf("W2 moved to %v", *moved.MM)
	}
	mid := tr.At(moved.T - 0.2)
	if w2 := discOf(mid, "W2"); w2.State != scene.Moving || w2.Pos.Y >= 150 || w2.Pos.Y <= 110 {
		t.Errorf("W2 mid-push: %+v", w2)
	} else {
		touching := false
		for _, hh := range mid.Hands {
			touching = touching || hh.Touches(w2.Pos, g.ManDiameter/2)
		}
		if !touching {
			t.Error("W2 moves with no hand touching it")
		}
	}
	// The umpire returns the queen next to the covered centre circle.
	q := eventsOf(tr, events.Placed)[0]
	qp := q.MM.Vec()
	if qp.Dist(board.V(0, 0)) < g.QueenDiameter/2+g.ManDiameter/2 || qp.Len() > 2*g.ManDiameter+1 {
		t.Errorf("queen returned to %v", qp)
	}
	for _, hh := range tr.At(q.T - 0.1).Hands {
		if hh.Holding == "Q" && hh.Owner != "umpire" {
			t.Errorf("the queen is held by %s", hh.Owner)
		}
	}
	if math.IsNaN(qp.X) {
		t.Fatal("NaN")
	}
}

func TestArmOverFoulLine(t *testing.T) {
	tr := runYAML(t, `
arrangement: {positions: {Q: [0, 0]}}
timeline:
  - strike: {side: W, at: 120, direction: 0, speed: 0.5, arm_over_foul_line: true}
  - strike: {side: E, at: 120, direction: 0, speed: 0.5}
`)
	fouls := eventsOf(tr, events.ArmOverFoulLine)
	if len(fouls) != 1 || *fouls[0].Side != board.W {
		t.Fatalf("want one arm_over_foul_line for W, got %s", types(tr.Events))
	}
	if fouls[0].T != tr.Strokes[0].Start || !tr.Strokes[0].ArmOverFoulLine || tr.Strokes[1].ArmOverFoulLine {
		t.Errorf("foul at %v, strokes %+v", fouls[0].T, tr.Strokes)
	}
}

// Options.ArmFoul replaces the simulator's hand model in judging the arm
// over the foul line: the event follows the judge given (which sees the
// striking side and the hand at the flick), the physics and the hands do
// not change, and a scenario that demands the foul is refused when the
// judge says the arm does not cross.
func TestArmFoulJudgeFromOptions(t *testing.T) {
	const src = `
arrangement: {positions: {Q: [0, 0]}}
timeline:
  - strike: {side: W, at: 120, direction: 0, speed: 0.5}
  - strike: {side: E, at: 120, direction: 0, speed: 0.5}
`
	sc := parseYAML(t, src)
	plain, err := Run(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var seen []board.Side
	tr, err := Run(sc, Options{ArmFoul: func(s board.Side, h scene.Hand) bool {
		seen = append(seen, s)
		if h.Owner != s.String() {
			t.Errorf("judged the hand of %q for side %s", h.Owner, s)
		}
		return s == board.E
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != board.W || seen[1] != board.E {
		t.Errorf("the judge saw sides %v, want [W E]", seen)
	}
	fouls := eventsOf(tr, events.ArmOverFoulLine)
	if len(fouls) != 1 || *fouls[0].Side != board.E || tr.Strokes[0].ArmOverFoulLine || !tr.Strokes[1].ArmOverFoulLine {
		t.Errorf("want one arm_over_foul_line for E, got %s", types(tr.Events))
	}
	if len(eventsOf(plain, events.ArmOverFoulLine)) != 0 {
		t.Errorf("the simulator's own model calls an arm foul: %s", types(plain.Events))
	}
	for i := range plain.Strokes {
		if plain.Strokes[i].Start != tr.Strokes[i].Start || plain.Strokes[i].End != tr.Strokes[i].End {
			t.Errorf("stroke %d moved: %+v vs %+v", i, plain.Strokes[i], tr.Strokes[i])
		}
	}
	demand := parseYAML(t, `
arrangement: {positions: {Q: [0, 0]}}
timeline:
  - strike: {side: W, at: 120, direction: 0, speed: 0.5, arm_over_foul_line: true}
`)
	if _, err := Run(demand, Options{ArmFoul: func(board.Side, scene.Hand) bool { return false }}); err == nil || !strings.Contains(err.Error(), "cannot reach over the foul line") {
		t.Errorf("a demanded arm foul the judge denies: %v", err)
	}
}

// A strike with no_hand: the hand places the striker and is gone from the
// picture before the flick and during the flight; the striker lies still
// where it was put until it slides off. A strike without it shows the hand
// behind the striker at the flick. no_hand cannot swing the arm over the
// foul line.
func TestStrikeWithNoHand(t *testing.T) {
	const src = `
arrangement: {positions: {W1: [0, 0]}}
timeline:
  - strike: {side: S, at: 40, direction: 0, speed: 1.5, no_hand: %v}
`
	tr := runYAML(t, fmt.Sprintf(src, true))
	if len(tr.Strokes) != 1 {
		t.Fatalf("strokes %+v", tr.Strokes)
	}
	st := tr.Strokes[0]
	for _, dt := range []float64{-0.3, -0.05, 0, 0.05, 0.2} {
		if h := tr.At(st.Start + dt).Hands; len(h) != 0 {
			t.Errorf("%+.2f s from the flick: hands %+v in the picture", dt, h)
		}
	}
	var placed bool
	for _, d := range tr.At(st.Start - 0.05).Discs {
		if d.ID == "S" {
			placed = d.State == scene.Rest && d.Pos.Dist(st.Striker) < 1e-6
		}
	}
	if !placed {
		t.Errorf("the striker is not lying at %v just before the flick", st.Striker)
	}
	if len(eventsOf(tr, events.StrokeStart)) != 1 {
		t.Errorf("events %s", types(tr.Events))
	}
	with := runYAML(t, fmt.Sprintf(src, false))
	if h := with.At(with.Strokes[0].Start).Hands; len(h) != 1 {
		t.Errorf("a strike with its hand: hands %+v at the flick", h)
	}
	if _, err := Parse([]byte(`
timeline:
  - strike: {side: S, direction: 0, speed: 1, no_hand: true, arm_over_foul_line: true}
`), ""); err == nil || !strings.Contains(err.Error(), "no hand in view") {
		t.Errorf("no_hand with an arm over the foul line: %v", err)
	}
}
