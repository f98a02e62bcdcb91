package referee_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// One test per foul the camera judges, each from a small simulated
// scenario: the simulator's events go to the referee, which must call
// that foul (and, in the paired negative case, not call it).

// strikeScenario is a scenario with the given pieces and one strike.
func strikeScenario(pieces, strike string) string {
	return fmt.Sprintf("seed: 3\narrangement:\n  positions: {%s}\ntimeline:\n  - strike: %s\n", pieces, strike)
}

func TestFoulPlacementOneLine(t *testing.T) {
	// Touching the front line only: 11.6 mm short of the rear line.
	tr := simulate(t, strikeScenario("B1: [0, -150]", fmt.Sprintf("{side: S, at: [0, %v], direction: 0, speed: 1}", 230.0)))
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	c := findCall(t, d, rules.FoulPlacement)
	if c.Status != referee.Applied || c.Seat != board.S || c.Evidence.Placement != "one_line" || c.Rule != "icf-laws-of-carrom.md: Striking 1; General Rules 29" {
		t.Errorf("call %+v", c)
	}
	// 230 + 20.75 = 250.75 against the rear line's inner edge at 262.5.
	if c.Margin == nil || math.Abs(*c.Margin-11.75) > 0.01 || c.Confidence != 1 {
		t.Errorf("margin %v confidence %v, want 11.75 mm, 1", deref(c.Margin), c.Confidence)
	}
	if ev := d.Event().(rules.Stroke); len(ev.Fouls) != 1 || ev.Fouls[0] != rules.FoulPlacement {
		t.Errorf("event %q", d.Log)
	}
	// The same stroke from the base line: no foul.
	tr = simulate(t, strikeScenario("B1: [0, -150]", "{side: S, at: 0, direction: 0, speed: 1}"))
	if d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events)); len(d.Calls) != 0 || d.Log != "S -" {
		t.Errorf("proper stroke: %s", dump([]referee.Decision{d}))
	}
}

func TestFoulPlacementOffBaseLine(t *testing.T) {
	tr := simulate(t, strikeScenario("B1: [0, -150]", "{side: S, at: [0, 190], direction: 0, speed: 1}"))
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	c := findCall(t, d, rules.FoulPlacement)
	if c.Evidence.Placement != "off_base_line" || !strings.Contains(c.Reason, "neither") {
		t.Errorf("call %+v", c)
	}
	// It stood in front of its line: no backward flick is judged.
	if calls(d) != "placement/applied" {
		t.Errorf("calls %s", calls(d))
	}
}

func TestFoulCutMoon(t *testing.T) {
	// 20 mm from the centre of S's right base circle: on it, not covering it.
	tr := simulate(t, strikeScenario("B1: [0, -150]", fmt.Sprintf("{side: S, at: [%v, %v], direction: 0, speed: 1}", circleX-20, baseY)))
	for _, p := range []string{"icf", "nit-delhi", "team-3board", "jamshedpur", "four-break"} {
		d := only(t, judge(t, exact(t, p), midBoard(p), tr.Events))
		c := findCall(t, d, rules.FoulCutMoon)
		if c.Evidence.Marking != "base circle S right" || c.Evidence.Placement != "cut_moon" {
			t.Errorf("%s: evidence %+v", p, c.Evidence)
		}
		want := referee.Applied
		if p == "team-3board" {
			want = referee.Offered // Additional Rules 11: players call fouls
		}
		if c.Status != want {
			t.Errorf("%s: status %s, want %s", p, c.Status, want)
		}
		if r, _ := profile(t, p).Foul(rules.FoulCutMoon); c.Rule != r.Ref || c.Rule == "" {
			t.Errorf("%s: rule %q, want the profile's %q", p, c.Rule, r.Ref)
		}
	}
	// Covering the circle: a proper placement (the player's hand, reaching
	// round from the base circle, does cross the foul line here).
	tr = simulate(t, strikeScenario("B1: [0, -150]", "{side: S, at: right circle, direction: 0, speed: 1}"))
	if d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events)); strings.Contains(calls(d), "moon") || strings.Contains(calls(d), "placement") {
		t.Errorf("from the base circle: %s", dump([]referee.Decision{d}))
	}
}

func TestFoulArrow(t *testing.T) {
	// Covering the right base circle, 4 mm off its centre toward the SE
	// arrow: the arrow (21.5 mm reach) lies 19.2 mm away.
	off := 4 / math.Sqrt2
	tr := simulate(t, strikeScenario("B1: [0, -150]", fmt.Sprintf("{side: S, at: [%v, %v], direction: 0, speed: 1}", circleX+off, baseY-off)))
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	c := findCall(t, d, rules.FoulArrow)
	if c.Evidence.Marking != "arrow SE" || c.Evidence.Placement != "base_circle" || c.Rule != "icf-laws-of-carrom.md: General Rules 30" {
		t.Errorf("call %+v", c)
	}
	if c.Margin == nil || math.Abs(*c.Margin-2.31) > 0.02 {
		t.Errorf("margin %v, want 2.31", deref(c.Margin))
	}
}

func TestFoulWrongSide(t *testing.T) {
	// S's player strikes from N's base line, toward the centre.
	tr := simulate(t, strikeScenario("B1: [150, 0]", fmt.Sprintf("{side: S, at: [0, %v], direction: 180, speed: 1}", -baseY)))
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	c := findCall(t, d, rules.FoulWrongSide)
	if c.Evidence.Marking != "base line N" || c.Seat != board.S {
		t.Errorf("call %+v", c)
	}
	// Not the consequences for S's own lines (the arm reaching over the
	// board crosses the foul line too, and is called).
	for _, f := range []string{"placement", "backward_flick", "behind_line_first"} {
		if strings.Contains(calls(d), f) {
			t.Errorf("calls %s", calls(d))
		}
	}
}

func TestFoulBackwardFlick(t *testing.T) {
	for _, dir := range []string{"180", "90", "-100"} {
		tr := simulate(t, strikeScenario("B1: [0, -150]", "{side: S, at: 0, direction: "+dir+", speed: 0.5}"))
		d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
		c := findCall(t, d, rules.FoulBackwardFlick)
		if c.Evidence.Marking != "front line S" || c.Status != referee.Applied {
			t.Errorf("direction %s: call %+v", dir, c)
		}
	}
	// Flicked sideways into a man beside it on the base line: the first
	// contact is a piece, but the flick was not forward.
	tr := simulate(t, strikeScenario("W1: [45, 246.6], B1: [0, -150]", "{side: S, at: 0, direction: 90, speed: 0.5}"))
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	if c := findCall(t, d, rules.FoulBackwardFlick); c.Evidence.Piece != "W1" {
		t.Errorf("sideways into W1: %+v", c)
	}
	// Flicked forward into a man lying just in front of the line: the
	// striker stops before crossing, but it was not flicked backwards.
	tr = simulate(t, strikeScenario("B1: [0, 205]", "{side: S, at: 0, direction: 0, speed: 0.3}"))
	if tr.Strokes[0].CrossedFrontLine {
		t.Fatal("the striker crossed: the case is not what it should be")
	}
	d = only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	if len(d.Calls) != 0 || !strings.Contains(strings.Join(d.Notes, ";"), "no backward flick") {
		t.Errorf("blocked forward flick: %s", dump([]referee.Decision{d}))
	}
}

func TestFoulBehindLineFirst(t *testing.T) {
	// W1 lies on S's front line; the striker hits it before crossing.
	tr := simulate(t, strikeScenario("W1: [40, 220], B1: [0, -150]", "{side: S, at: 0, direction: at W1, speed: 1}"))
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	c := findCall(t, d, rules.FoulBehindLineFirst)
	if c.Evidence.Piece != "W1" || c.Evidence.PieceMM == nil || (*c.Evidence.PieceMM != [2]float64{40, 220}) || c.Evidence.StrikerAtContact == nil {
		t.Errorf("evidence %+v", c.Evidence)
	}
	// 220 + 15.9 - 229.7 = 6.2 mm onto the line.
	if c.Margin == nil || math.Abs(*c.Margin-6.2) > 0.01 {
		t.Errorf("margin %v, want 6.2", deref(c.Margin))
	}
	if c.Frame != tr.Events[1].Frame || c.Rule != "icf-laws-of-carrom.md: Striking 4" {
		t.Errorf("frame %d rule %q", c.Frame, c.Rule)
	}
	// A man just clear of the line, hit before crossing: no foul.
	tr = simulate(t, strikeScenario("W1: [40, 212], B1: [0, -150]", "{side: S, at: 0, direction: at W1, speed: 1}"))
	d = only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	if strings.Contains(calls(d), "behind_line_first") {
		t.Errorf("piece clear of the line: %s", dump([]referee.Decision{d}))
	}
}

func TestFoulHandOverFoulLine(t *testing.T) {
	tr := simulate(t, `seed: 11
arrangement:
  positions: {Q: [0, 0], B1: [-150, 150]}
timeline:
  - strike: {side: W, at: 120, direction: 0, speed: 0.8, arm_over_foul_line: true}
`)
	st := midBoard("icf", turn(board.W))
	st.Players = []rules.Player{{Name: "West", Seat: board.W, Team: 0}, {Name: "East", Seat: board.E, Team: 1}}
	d := only(t, judge(t, exact(t, "icf"), st, tr.Events))
	c := findCall(t, d, rules.FoulHandOverFoulLine)
	if c.Seat != board.W || c.Status != referee.Applied || c.Rule != "icf-laws-of-carrom.md: Striking 5, 6; Sitting Position 7" {
		t.Errorf("call %+v", c)
	}
	// The same strike without the elbow out: no foul.
	tr = simulate(t, `seed: 11
arrangement:
  positions: {Q: [0, 0], B1: [-150, 150]}
timeline:
  - strike: {side: W, at: 120, direction: 0, speed: 0.8}
`)
	if d := only(t, judge(t, exact(t, "icf"), st, tr.Events)); len(d.Calls) != 0 {
		t.Errorf("no arm foul: %s", dump([]referee.Decision{d}))
	}
}

func TestFoulNoContact(t *testing.T) {
	// team-3board General Rules 7: the striker runs out without touching
	// anything.
	tr := simulate(t, strikeScenario("B1: [250, -250]", "{side: S, at: 0, direction: 0, speed: 0.9}"))
	d := only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events))
	c := findCall(t, d, rules.FoulNoContact)
	if c.Status != referee.Offered || c.Rule != "team-event-3-board.md: General Rules 7" {
		t.Errorf("call %+v", c)
	}
	// ICF has no such foul.
	if d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events)); len(d.Calls) != 0 {
		t.Errorf("icf: %s", calls(d))
	}
	// Touching a cushion is enough.
	tr = simulate(t, strikeScenario("B1: [250, -250]", "{side: S, at: 0, direction: 0, speed: 2}"))
	if d := only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events)); strings.Contains(calls(d), "no_contact") {
		t.Errorf("cushion touched: %s", calls(d))
	}
}

func TestFoulRedCircleCoin(t *testing.T) {
	// W1 overlaps S's right base circle; the striker hits it.
	tr := simulate(t, strikeScenario("W1: [203.8, 221.6], B1: [-200, -200]", "{side: S, at: 60, direction: at W1, speed: 1}"))
	d := only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events))
	c := findCall(t, d, rules.FoulRedCircleCoin)
	if c.Evidence.Marking != "base circle S right" || c.Rule != "team-event-3-board.md: General Rules 9" {
		t.Errorf("call %+v", c)
	}
	if c.Margin == nil || math.Abs(*c.Margin-(31.8-math.Hypot(10, 25))) > 0.02 {
		t.Errorf("margin %v", deref(c.Margin))
	}
	// It also lies on the front line: struck before crossing.
	findCall(t, d, rules.FoulBehindLineFirst)
}

func TestFoulOpponentCoinOnly(t *testing.T) {
	// S (white) hits B1 directly; no white man and not the queen moves.
	tr := simulate(t, strikeScenario("B1: [0, 0], W1: [-250, -250], Q: [250, -250]", "{side: S, at: 0, direction: at B1, speed: 1}"))
	d := only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events))
	c := findCall(t, d, rules.FoulOpponentCoinOnly)
	if c.Evidence.Piece != "B1" || c.Rule != "team-event-3-board.md: Additional Rules 5" {
		t.Errorf("call %+v", c)
	}
	// Hitting a white man directly is fine.
	tr = simulate(t, strikeScenario("W1: [0, 0], B1: [-250, -250], Q: [250, -250]", "{side: S, at: 0, direction: at W1, speed: 1}"))
	d = only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events))
	if strings.Contains(calls(d), "opponent_coin_only") {
		t.Errorf("own coin: %s", calls(d))
	}
	// B1 driven into a white man disturbs it: no foul.
	tr = simulate(t, strikeScenario("B1: [0, 0], W1: [0, -40], Q: [250, -250]", "{side: S, at: 0, direction: at B1, speed: 1}"))
	d = only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events))
	if strings.Contains(calls(d), "opponent_coin_only") {
		t.Errorf("white disturbed: %s", calls(d))
	}
}

func TestFoulLastTwoDirectHit(t *testing.T) {
	tr := simulate(t, strikeScenario("W1: [0, 0], B1: [-250, -250], Q: [250, -250]", "{side: S, at: 0, direction: at W1, speed: 1}"))
	// Additional Rules 6: the queen and one white man left; S plays white.
	d := only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board", onBoard(1, 5)), tr.Events))
	c := findCall(t, d, rules.FoulLastTwoDirectHit)
	if c.Evidence.Piece != "W1" || !strings.Contains(c.Reason, "own") {
		t.Errorf("call %+v", c)
	}
	// Additional Rules 7: N plays white here, so W1 is the opponents' last.
	st := midBoard("team-3board", onBoard(1, 5), turn(board.S))
	st.Teams[0].Colour, st.Teams[1].Colour = board.Black, board.White
	st.Teams[0].OnBoard, st.Teams[1].OnBoard = 5, 1
	d = only(t, judge(t, exact(t, "team-3board"), st, tr.Events))
	if c := findCall(t, d, rules.FoulLastTwoDirectHit); !strings.Contains(c.Reason, "opponents'") {
		t.Errorf("call %+v", c)
	}
	// Two white men left, or the queen gone: no foul.
	if d := only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board", onBoard(2, 5)), tr.Events)); strings.Contains(calls(d), "last_two") {
		t.Errorf("two left: %s", calls(d))
	}
	covered := midBoard("team-3board", onBoard(1, 5), func(st *rules.State) { st.Queen = rules.Queen{Status: rules.QueenCovered, Team: 0} })
	if d := only(t, judge(t, exact(t, "team-3board"), covered, tr.Events)); strings.Contains(calls(d), "last_two") {
		t.Errorf("queen covered: %s", calls(d))
	}
}

func TestFoulTouchedPiece(t *testing.T) {
	// nudge.yaml, mid-board: a hand moves W1 25 mm outside a stroke.
	tr := simulate(t, `seed: 10
arrangement:
  positions: {W1: [-120, 40], B1: [100, -80]}
timeline:
  - nudge: {id: W1, by: S, move: [15, -20]}
  - strike: {side: S, at: 40, direction: at B1, speed: 1.2}
`)
	cfg := exact(t, "icf")
	r, _ := referee.New(cfg)
	st := midBoard("icf")
	// The referee learns where W1 lay from the previous stroke's end.
	if _, err := r.Observe(end(1, at("W1", -120, 40), at("B1", 100, -80)), st); err != nil {
		t.Fatal(err)
	}
	var ds []referee.Decision
	for _, e := range tr.Events {
		got, err := r.Observe(e, st)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, got...)
	}
	if len(ds) != 2 || ds[0].Kind != referee.KindFoul {
		t.Fatalf("decisions:\n%s", dump(ds))
	}
	c := findCall(t, ds[0], rules.FoulTouchedPiece)
	if c.Seat != board.S || ds[0].Log != "foul S !touched_piece" || c.Margin == nil || math.Abs(*c.Margin-25) > 1e-6 ||
		c.Evidence.From == nil || *c.Evidence.From != [2]float64{-120, 40} {
		t.Errorf("call %+v", c)
	}
	// Before the break, moving men is setting them out.
	b := judge(t, cfg, midBoard("icf", breaking), tr.Events)
	if b[0].Kind != referee.KindInfo || b[0].Event() != nil {
		t.Errorf("before the break: %s", dump(b))
	}
}

func TestFoulStrikerPocketed(t *testing.T) {
	tr := simulate(t, `seed: 3
arrangement:
  positions: {W1: [285.8, -199.2], B1: [-150, -100], B2: [-120, 150]}
timeline:
  - strike: {side: S, at: 100, direction: toward NE, speed: 3}
`)
	// A due in icf: counted, not a foul code.
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	if d.Log != "S ws" || len(d.Calls) != 0 || !d.Stroke.Striker {
		t.Errorf("icf: %s", dump([]referee.Decision{d}))
	}
	// A foul in jamshedpur (Fouls 1), derived by the engine.
	d = only(t, judge(t, exact(t, "jamshedpur"), midBoard("jamshedpur"), tr.Events))
	c := findCall(t, d, rules.FoulStrikerPocketed)
	if c.Status != referee.Derived || d.Log != "S ws" || c.Rule != "jamshedpur-regional-2023.md: Fouls 1" {
		t.Errorf("jamshedpur: %s", dump([]referee.Decision{d}))
	}
}

func TestFoulOverboard(t *testing.T) {
	tr := simulate(t, `seed: 6
arrangement:
  positions: {W4: [0, 100], B1: [-150, -150]}
timeline:
  - jump: {id: W4, toward: S}
  - strike: {side: S, at: 0, direction: 0, speed: 3}
  - place: {by: umpire, pieces: [{id: W4, at: centre}]}
`)
	ds := judge(t, exact(t, "team-3board"), midBoard("team-3board"), tr.Events)
	d := only(t, ds)
	if d.Log != "S - off:w" || d.Stroke.Overboard.White != 1 {
		t.Errorf("stroke %s", dump(ds))
	}
	c := findCall(t, d, rules.FoulPieceOverboard)
	if c.Status != referee.Derived || c.Evidence.Piece != "W4" || c.Rule != "team-event-3-board.md: Jump 1" {
		t.Errorf("call %+v", c)
	}
	// The umpire puts W4 back: no rules event.
	if len(ds) != 1 {
		t.Errorf("the umpire's return made a decision:\n%s", dump(ds))
	}
}

func TestFoulDuePlacement(t *testing.T) {
	for _, tc := range []struct {
		at   string
		want string
	}{
		{"[40, -50]", ""},
		{"[100, 0]", "due_outside_outer_circle/applied"},
		{"[10, 5]", "due_on_centre_circle/applied"},
	} {
		tr := simulate(t, `seed: 8
arrangement:
  positions: {W3: [-200, -150], B1: [150, -120]}
  pocketed: [W1]
timeline:
  - place: {by: N, pieces: [{id: W1, at: `+tc.at+`}]}
`)
		// A white due awaits placement by N.
		ds := judge(t, exact(t, "icf"), midBoard("icf", onBoard(8, 9), awaiting(1, 0, board.N), turn(board.N)), tr.Events)
		if len(ds) != 1 || ds[0].Kind != referee.KindPlace || ds[0].Seat != board.N {
			t.Fatalf("%s: %s", tc.at, dump(ds))
		}
		if got := calls(ds...); got != tc.want {
			t.Errorf("due at %s: calls %q, want %q", tc.at, got, tc.want)
		}
		wantLog := "place w"
		if tc.want != "" {
			wantLog += " !" + strings.Split(tc.want, "/")[0]
		}
		if ds[0].Log != wantLog {
			t.Errorf("due at %s: %q, want %q", tc.at, ds[0].Log, wantLog)
		}
	}
}

func TestFoulsNotInProfile(t *testing.T) {
	// The team-3board fouls are never called under icf, even when the
	// situation arises.
	tr := simulate(t, strikeScenario("W1: [160, 160], B1: [-200, -200]", "{side: S, at: -50, direction: at W1, speed: 1.5}"))
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), tr.Events))
	for _, c := range d.Calls {
		if !profile(t, "icf").Recognises(c.Foul) {
			t.Errorf("icf called %s", c.Foul)
		}
	}
}
