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

func types(evs []events.Event) string {
	var s []string
	for _, e := range evs {
		x := string(e.Type)
		switch e.Type {
		case events.Contact:
			x += " " + e.A + "-" + e.B
		case events.Pocketed, events.Overboard, events.Placed, events.Moved:
			x += " " + e.ID
			if e.Pocket != nil {
				x += " " + e.Pocket.String()
			}
		}
		s = append(s, x)
	}
	return strings.Join(s, ", ")
}

func checkFrames(t *testing.T, tr *Trace) {
	t.Helper()
	for i, e := range tr.Events {
		if err := e.Validate(); err != nil {
			t.Errorf("event %d: %v", i, err)
		}
		if e.Frame != FrameOf(e.T, tr.FPS) || float64(e.Frame)/float64(tr.FPS) < e.T-1e-9 || float64(e.Frame-1)/float64(tr.FPS) >= e.T {
			t.Errorf("event %d (%s) at t=%.9f has frame %d: not the first frame at or after it", i, e.Type, e.T, e.Frame)
		}
		if i > 0 && e.T < tr.Events[i-1].T {
			t.Errorf("event %d out of time order", i)
		}
	}
}

func TestStraightPotEventsAreExact(t *testing.T) {
	g := board.ICF()
	ph := DefaultPhysics()
	a := ph.Deceleration()
	P := board.V(0, g.BaseCircleY()) // the striker, middle of the S base line
	pc := g.Pocket(board.NE).C
	u := pc.Sub(P).Unit()
	const D = 300.0
	W := P.Add(u.Scale(D))
	const v0 = 1120.0
	tr := runYAML(t, fmt.Sprintf(`
fps: 120
arrangement: {positions: {W1: [%.17g, %.17g], B1: [-200, -200]}}
timeline:
  - strike: {side: S, at: 0, direction: at W1, speed: %v}
`, W.X, W.Y, v0/1000))
	checkFrames(t, tr)
	want := "stroke_start, front_line_crossed, contact S-W1, pocketed W1 NE, stroke_end"
	if got := types(tr.Events); got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
	e := tr.Events
	t0 := e[0].T
	if *e[0].Side != board.S || e[0].StrikerMM.Vec().Dist(P) > 1e-9 {
		t.Errorf("stroke_start %+v", e[0])
	}
	rs, rm := g.StrikerDiameter/2, g.ManDiameter/2
	// Front line: the whole striker past the front line's inner edge.
	sFront := (g.FrontInner() - rs - P.Y) / u.Y
	// Contact: centres rs+rm apart.
	sHit := D - rs - rm
	vHit := math.Sqrt(v0*v0 - 2*a*sHit)
	ms, mm := g.StrikerMass, g.ManMass
	vMan := (1 + ph.Restitution) * ms / (ms + mm) * vHit
	vStriker := (ms - ph.Restitution*mm) / (ms + mm) * vHit
	tHit := t0 + travelTime(v0, sHit, a)
	tPot := tHit + travelTime(vMan, W.Dist(pc)-g.PocketDiameter/2, a)
	checks := []struct {
		name      string
		got, want float64
	}{
		{"front_line_crossed", e[1].T, t0 + travelTime(v0, sFront, a)},
		{"contact", e[2].T, tHit},
		{"pocketed", e[3].T, tPot},
		// The stroke ends when the last disc stops (or falls).
		{"stroke_end", e[4].T, math.Max(tPot, tHit+vStriker/a)},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s at %.12f s, want %.12f", c.name, c.got, c.want)
		}
	}
	// The event agrees with the board's own question.
	at := func(t float64) bool { s := discOf(tr.At(t), "S"); return g.CrossedFrontLine(board.S, s.Pos, rs) }
	if at(e[1].T-1e-9) || !at(e[1].T+1e-9) {
		t.Errorf("board.CrossedFrontLine does not change at the front_line_crossed event")
	}
	if d := e[2].AMM.Vec().Dist(P.Add(u.Scale(sHit))); d > 1e-6 {
		t.Errorf("contact: striker at %v, %.3g mm off", *e[2].AMM, d)
	}
	if d := e[2].BMM.Vec().Dist(W); d > 1e-9 {
		t.Errorf("contact: W1 at %v, %.3g mm off", *e[2].BMM, d)
	}
	if *e[3].Piece != board.White || *e[3].Pocket != board.NE {
		t.Errorf("pocketed %+v", e[3])
	}
	// stroke_end lists what is at rest: B1 and the striker, not W1.
	var ids []string
	for _, p := range e[4].Pieces {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "B1,S" {
		t.Errorf("stroke_end pieces %v, want B1,S", ids)
	}
	// The scene agrees: W1 pocketed in NE after the event, on the board before.
	before, after := discOf(tr.At(e[3].T-1e-6), "W1"), discOf(tr.At(e[3].T), "W1")
	if before.State != scene.Moving || after.State != scene.Pocketed || after.Pocket == nil || *after.Pocket != board.NE {
		t.Errorf("W1 %s → %s", before.State, after.State)
	}
	st := tr.Strokes[0]
	if !st.CrossedFrontLine || st.FirstContact != "W1" || len(st.Pocketed) != 1 || st.StartFrame != e[0].Frame || st.EndFrame != e[4].Frame {
		t.Errorf("summary %+v", st)
	}
}

func TestBackwardFlickDoesNotCrossTheFrontLine(t *testing.T) {
	tr := runYAML(t, `
arrangement: {positions: {W1: [0, 0]}}
timeline:
  - strike: {side: N, at: 40, direction: 180, speed: 0.3}
`)
	checkFrames(t, tr)
	if got := types(tr.Events); got != "stroke_start, stroke_end" {
		t.Fatalf("events: %s", got)
	}
	if tr.Strokes[0].CrossedFrontLine {
		t.Error("summary says the striker crossed")
	}
	// The striker went back toward N's frame (y decreases for N).
	s := discOf(tr.Final(), "S")
	if s.Pos.Y >= -tr.Geometry.BaseCircleY() {
		t.Errorf("striker ended at %v: not behind its base line", s.Pos)
	}
}

func TestStrikesFromEverySideCrossTheirOwnFrontLine(t *testing.T) {
	for _, side := range board.Sides {
		tr := runYAML(t, fmt.Sprintf(`
arrangement: {positions: {Q: [0, 0]}}
timeline:
  - strike: {side: %s, at: 0, direction: 0, speed: 0.8}
`, side))
		want := "stroke_start, front_line_crossed, contact S-Q, stroke_end"
		if got := types(tr.Events); got != want {
			t.Errorf("%s: events %s", side, got)
			continue
		}
		if *tr.Events[1].Side != side || *tr.Events[0].Side != side {
			t.Errorf("%s: events name side %s", side, *tr.Events[1].Side)
		}
		want0 := board.FromLocal(side, board.V(0, tr.Geometry.BaseCircleY()))
		if tr.Events[0].StrikerMM.Vec().Dist(want0) > 1e-9 {
			t.Errorf("%s: striker at %v, want %v", side, *tr.Events[0].StrikerMM, want0)
		}
		q := discOf(tr.Final(), "Q")
		if board.ToLocal(side, q.Pos).Y >= 0 {
			t.Errorf("%s: the queen moved toward the striker's side: %v", side, q.Pos)
		}
	}
}

func TestStrikerPocketedAndDueReturnedByOpponent(t *testing.T) {
	g := board.ICF()
	tr := runYAML(t, `
arrangement: {positions: {W1: [-150, -150], B1: [-150, 100]}, pocketed: [W2]}
timeline:
  - strike: {side: S, at: 100, direction: toward NE, speed: 2.5}
  - autoplay: {strokes: 1}
`)
	checkFrames(t, tr)
	var potted, placed []events.Event
	for _, e := range tr.Events {
		switch e.Type {
		case events.Pocketed:
			potted = append(potted, e)
		case events.Placed:
			placed = append(placed, e)
		}
	}
	if len(potted) == 0 || potted[0].ID != "S" || *potted[0].Pocket != board.NE {
		t.Fatalf("want the striker pocketed in NE, got %s", types(tr.Events))
	}
	// The due: W2 (pocketed before) comes back inside the outer circle,
	// placed by the N player (the opponent), before N strikes.
	if len(placed) != 1 || placed[0].ID != "W2" {
		t.Fatalf("want W2 placed as the due, got %s", types(tr.Events))
	}
	p := placed[0].MM.Vec()
	if !g.InsideOuterCircle(p, g.ManDiameter/2) || g.OverlapsCentreCircle(p, g.ManDiameter/2) {
		t.Errorf("due man placed at %v: not inside the outer circle clear of the centre circle", p)
	}
	var handOwner string
	for _, h := range tr.At(placed[0].T - 0.1).Hands {
		if h.Holding == "W2" {
			handOwner = h.Owner
		}
	}
	if handOwner != "N" {
		t.Errorf("the due man was held by %q, want N", handOwner)
	}
	if len(tr.Strokes) != 2 || tr.Strokes[1].Side != board.N || tr.Strokes[1].Start < placed[0].T {
		t.Errorf("strokes %+v", tr.Strokes)
	}
	// The striker comes back from the pocket in N's hand.
	if s := discOf(tr.At(tr.Strokes[1].Start-0.05), "S"); s.State != scene.Rest || board.ToLocal(board.N, s.Pos).Y < 200 {
		t.Errorf("before N's stroke the striker is %s at %v", s.State, s.Pos)
	}
}

func TestJumpGoesOverboard(t *testing.T) {
	tr := runYAML(t, `
timeline:
  - jump: {id: W4, toward: S}
  - strike: {side: S, at: 0, direction: 0, speed: 4}
  - place: {by: umpire, pieces: [W4]}
`)
	checkFrames(t, tr)
	g := tr.Geometry
	var over, placed *events.Event
	for i, e := range tr.Events {
		switch {
		case e.Type == events.Overboard && e.ID == "W4":
			over = &tr.Events[i]
		case e.Type == events.Placed && e.ID == "W4":
			placed = &tr.Events[i]
		case e.Type == events.Contact && over != nil && (e.A == "W4" || e.B == "W4"):
			t.Errorf("W4 touched %s after leaving the surface", e.A+e.B)
		}
	}
	if over == nil || placed == nil {
		t.Fatalf("want W4 overboard then placed, got %s", types(tr.Events))
	}
	// It left over the S edge, straight down from where it lay.
	if m := over.MM.Vec(); math.Abs(m.Y-g.Half()) > 1e-9 || math.Abs(m.X) > 1e-6 {
		t.Errorf("W4 left the surface at %v", m)
	}
	first := eventsOf(tr, events.Contact)[0]
	mid := discOf(tr.At((first.T+over.T)/2), "W4")
	if mid.Z <= 0 || mid.State != scene.Moving {
		t.Errorf("W4 in flight: %+v", mid)
	}
	if d := discOf(tr.At(over.T+1e-9), "W4"); d.State != scene.Overboard {
		t.Errorf("after the overboard event W4 is %s", d.State)
	}
	end := eventsOf(tr, events.StrokeEnd)[0]
	for _, p := range end.Pieces {
		if p.ID == "W4" {
			t.Error("stroke_end lists W4 on the board")
		}
	}
	// The umpire puts it back on (or next to) the centre circle.
	if p := placed.MM.Vec(); p.Len() > g.OuterCircleDiameter/2 {
		t.Errorf("W4 returned to %v, far from the centre", p)
	}
	if d := discOf(tr.Final(), "W4"); d.State != scene.Rest {
		t.Errorf("W4 ends %s", d.State)
	}
}

func TestStrokeEventsVocabulary(t *testing.T) {
	// Every stroke starts with stroke_start and ends with stroke_end, and
	// nothing physical happens outside strokes.
	tr := autoBoard(t, 3)
	checkFrames(t, tr)
	in := false
	for _, e := range tr.Events {
		switch e.Type {
		case events.StrokeStart:
			if in {
				t.Fatalf("stroke_start inside a stroke at %v", e.T)
			}
			in = true
		case events.StrokeEnd:
			if !in {
				t.Fatalf("stroke_end outside a stroke at %v", e.T)
			}
			in = false
		case events.Contact, events.Pocketed, events.Overboard, events.FrontLineCrossed:
			if !in {
				t.Fatalf("%s outside a stroke at %v", e.Type, e.T)
			}
		case events.Placed, events.Moved:
			if in {
				t.Fatalf("%s inside a stroke at %v", e.Type, e.T)
			}
		}
	}
}
