package referee_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// Edge cases from hand-built event sequences.

func notes(ds []referee.Decision) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Notes...)
	}
	return strings.Join(out, "; ")
}

// cutMoonStroke is a stroke whose striker lies d mm from the centre of S's
// right base circle, toward the board's centre line: it covers the circle
// for d ≤ 4.85 and cuts the moon beyond.
func cutMoonStroke(d float64) []events.Event {
	return []events.Event{
		startAt(10, board.S, circleX-d, baseY),
		crossed(12, board.S),
		end(40, at("S", circleX-d, -100)),
	}
}

func TestToleranceOffersCloseCalls(t *testing.T) {
	// Cutting the moon by 0.3 mm: within the 1 mm tolerance.
	cfg := referee.DefaultConfig(profile(t, "icf"))
	d := only(t, judge(t, cfg, midBoard("icf"), cutMoonStroke(5.15)))
	c := findCall(t, d, rules.FoulCutMoon)
	if c.Status != referee.Offered || !c.LowConfidence || c.Margin == nil || math.Abs(*c.Margin-0.3) > 1e-6 {
		t.Errorf("close call %+v", c)
	}
	// Φ(0.3): the probability that the striker really cut the moon.
	if math.Abs(c.Confidence-0.618) > 0.001 {
		t.Errorf("confidence %v, want 0.618", c.Confidence)
	}
	if d.Log != "S -" || !d.Pending() {
		t.Errorf("the offered call is in the event: %q", d.Log)
	}
	// Applied when so configured, and with exact input.
	cfg.ApplyLowConfidence = true
	if d := only(t, judge(t, cfg, midBoard("icf"), cutMoonStroke(5.15))); d.Log != "S - !cut_moon" {
		t.Errorf("apply low confidence: %q", d.Log)
	}
	if d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), cutMoonStroke(5.15))); d.Log != "S - !cut_moon" || d.Calls[0].Confidence != 1 {
		t.Errorf("exact: %s", dump([]referee.Decision{d}))
	}
	// Clear of the tolerance: applied, confident.
	d = only(t, judge(t, referee.DefaultConfig(profile(t, "icf")), midBoard("icf"), cutMoonStroke(8)))
	if c := findCall(t, d, rules.FoulCutMoon); c.Status != referee.Applied || c.LowConfidence || c.Confidence < 0.999 {
		t.Errorf("clear call %+v", c)
	}
	// Covering the circle by 0.3 mm: proper, with a note for the umpire.
	ds := judge(t, referee.DefaultConfig(profile(t, "icf")), midBoard("icf"), cutMoonStroke(4.55))
	if d := only(t, ds); len(d.Calls) != 0 || !strings.Contains(notes(ds), "judged proper by 0.30 mm") {
		t.Errorf("proper by a hair: %s", dump(ds))
	}
}

func TestDirectHitOrderUncertain(t *testing.T) {
	// The striker touches B1 and W1 5 ms apart: which came first is within
	// the time tolerance.
	evs := []events.Event{
		startAt(10, board.S, 0, baseY),
		crossed(11, board.S),
		hit(20, 0.3330, "S", "B1", board.V(-10, 30), board.V(-20, 0)),
		hit(20, 0.3380, "S", "W1", board.V(-10, 30), board.V(20, 0)),
		end(40, at("S", 0, 50), at("B1", -50, -80), at("W1", 60, -70)),
	}
	cfg := referee.DefaultConfig(profile(t, "team-3board"))
	d := only(t, judge(t, cfg, midBoard("team-3board"), evs))
	if strings.Contains(calls(d), "opponent_coin_only") {
		t.Errorf("W1 was hit too: %s", calls(d))
	}
	// Only B1, but another striker contact (a cushion) 5 ms later.
	evs[3] = hit(20, 0.3380, "S", events.Frame, board.V(-10, 30), board.V(-10, 370))
	evs[4] = end(40, at("S", 0, 50), at("B1", -50, -80), at("W1", 200, -300))
	d = only(t, judge(t, cfg, midBoard("team-3board"), evs))
	c := findCall(t, d, rules.FoulOpponentCoinOnly)
	if !c.LowConfidence || c.Confidence != 0.5 {
		t.Errorf("uncertain order: %+v", c)
	}
	cfg.TimeTolerance = 0
	d = only(t, judge(t, cfg, midBoard("team-3board"), evs))
	if c := findCall(t, d, rules.FoulOpponentCoinOnly); c.LowConfidence || c.Confidence != 1 {
		t.Errorf("exact order: %+v", c)
	}
}

func TestHiddenPieceNotPocketed(t *testing.T) {
	r, _ := referee.New(exact(t, "icf"))
	st := midBoard("icf")
	seq := [][]events.Event{
		{startAt(10, board.S, 0, baseY), crossed(11, board.S), end(40, at("S", 0, 0), at("W1", 300, -300), at("B1", 320, -250), at("W2", -100, 150))},
		// A hand over the NE pocket hides W1 and B1 at the end of the next
		// stroke: they are not pocketed.
		{startAt(100, board.N, 0, -baseY), crossed(101, board.N), end(140, at("S", 0, 100), at("W2", -100, 150))},
	}
	var ds []referee.Decision
	for _, evs := range seq {
		for _, e := range evs {
			got, err := r.Observe(e, st)
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, got...)
		}
	}
	d := strokes(ds)[1]
	if d.Log != "N -" {
		t.Errorf("hidden pieces counted: %q", d.Log)
	}
	if n := notes([]referee.Decision{d}); !strings.Contains(n, "B1 not seen") || !strings.Contains(n, "W1 not seen") {
		t.Errorf("notes %q", n)
	}
	if _, ok := r.Positions()["W1"]; !ok {
		t.Error("W1's position forgotten")
	}
	// A piece reported pocketed but seen at rest afterwards is not counted.
	evs := []events.Event{startAt(10, board.S, 0, baseY), crossed(11, board.S), pocketed(20, "W1", board.NE), end(40, at("W1", 300, -300))}
	d = only(t, judge(t, exact(t, "icf"), st, evs))
	if d.Log != "S -" || !strings.Contains(notes([]referee.Decision{d}), "seen on the board") {
		t.Errorf("pocketed and seen: %s", dump([]referee.Decision{d}))
	}
}

func TestBehindLineAfterCrossing(t *testing.T) {
	// W1 lies on S's front line. Hit after the crossing (a rebound): no
	// foul. Hit before the crossing event but with the striker already
	// across at the contact (the event came late): no foul.
	w1 := board.V(100, 225)
	for name, evs := range map[string][]events.Event{
		"rebound": {startAt(10, board.S, 0, baseY), crossed(12, board.S),
			hit(30, 0.5, "S", "W1", board.V(80, 190), w1), end(40)},
		"late crossing event": {startAt(10, board.S, 0, baseY),
			hit(13, 0.21, "S", "W1", board.V(64, 200), w1), crossed(14, board.S), end(40)},
		// A tracker that gives no positions with contacts: the order of
		// the events decides.
		"rebound, no positions": {startAt(10, board.S, 0, baseY), crossed(12, board.S),
			{Type: events.Contact, Frame: 30, T: 0.5, A: "W1", B: "S"}, end(40, at("W1", 100, 225))},
	} {
		d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), evs))
		if strings.Contains(calls(d), "behind_line_first") {
			t.Errorf("%s: %s", name, dump([]referee.Decision{d}))
		}
	}
	// Without positions, the piece's last known place decides.
	r, _ := referee.New(exact(t, "icf"))
	var ds []referee.Decision
	for _, e := range []events.Event{end(1, at("W1", 100, 225)), startAt(10, board.S, 60, baseY),
		{Type: events.Contact, Frame: 11, T: 0.18, A: "S", B: "W1"}, crossed(14, board.S), end(40)} {
		got, err := r.Observe(e, midBoard("icf"))
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, got...)
	}
	if c := findCall(t, only(t, ds), rules.FoulBehindLineFirst); c.Evidence.PieceMM == nil || c.Evidence.StrikerAtContact != nil {
		t.Errorf("no positions: %+v", c.Evidence)
	}
	// Before crossing, the striker not across: foul, with the striker's
	// distance from crossing in the margin.
	evs := []events.Event{startAt(10, board.S, 60, baseY), hit(11, 0.18, "S", "W1", board.V(75, 240), w1), crossed(14, board.S), end(40)}
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), evs))
	c := findCall(t, d, rules.FoulBehindLineFirst)
	if c.Margin == nil || math.Abs(*c.Margin-11.2) > 1e-6 || c.Evidence.StrikerAtContact == nil {
		t.Errorf("call %+v", c) // min(225+15.9-229.7, 240+20.75-229.7)
	}
}

func TestArmOverImaginaryLine(t *testing.T) {
	// A point 5 mm beyond S's SE diagonal, past the arrow's tip (the
	// imaginary extension), and one over the drawn arrow.
	beyond := func(t float64) board.Vec { // t along the diagonal, 5 mm outside the quarter
		return board.V(t/math.Sqrt2+5/math.Sqrt2, t/math.Sqrt2-5/math.Sqrt2)
	}
	beyondTip, overArrow := beyond(440), beyond(330) // the arrow spans 152.5 to 419.5
	arm := func(part string, p board.Vec) events.Event {
		return events.Event{Type: events.ArmOverFoulLine, Frame: 10, T: 10.0 / 60, Side: events.SidePtr(board.S), Part: part, MM: events.MMPtr(p)}
	}
	stroke := func(a events.Event) []events.Event {
		return []events.Event{startAt(10, board.S, 0, baseY), a, crossed(11, board.S), end(40)}
	}
	for _, tc := range []struct {
		profile, part string
		p             board.Vec
		want          bool
	}{
		{"icf", events.PartHand, beyondTip, false}, // Sitting Position 7: the hand may
		{"icf", events.PartArm, beyondTip, true},
		{"icf", events.PartHand, overArrow, true}, // Striking 5: not over the arrow
		{"icf", "", beyondTip, true},              // unknown part: the event stands
		{"nit-delhi", events.PartHand, beyondTip, true},
	} {
		d := only(t, judge(t, exact(t, tc.profile), midBoard(tc.profile), stroke(arm(tc.part, tc.p))))
		got := strings.Contains(calls(d), "hand_over_foul_line")
		if got != tc.want {
			t.Errorf("%s %q at %v: called %v, want %v\n%s", tc.profile, tc.part, tc.p, got, tc.want, dump([]referee.Decision{d}))
		}
		if got {
			if c := findCall(t, d, rules.FoulHandOverFoulLine); c.Margin == nil || math.Abs(*c.Margin-5) > 0.01 {
				t.Errorf("margin %v, want 5", deref(c.Margin))
			}
		}
	}
	// The knob overrides the profile.
	cfg := exact(t, "nit-delhi")
	yes := true
	cfg.HandOverImaginaryLine = &yes
	if d := only(t, judge(t, cfg, midBoard("nit-delhi"), stroke(arm(events.PartHand, beyondTip)))); len(d.Calls) != 0 {
		t.Errorf("knob: %s", calls(d))
	}
}

func TestArmEventTiming(t *testing.T) {
	arm := events.Event{Type: events.ArmOverFoulLine, Frame: 8, T: 8.0 / 60, Side: events.SidePtr(board.S)}
	// Just before the stroke_start: it belongs to the stroke.
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), []events.Event{arm, startAt(10, board.S, 0, baseY), crossed(11, board.S), end(40)}))
	if !strings.Contains(calls(d), "hand_over_foul_line") {
		t.Errorf("just before: %s", calls(d))
	}
	// Seconds before: not counted, but said.
	arm.T = 0
	d = only(t, judge(t, exact(t, "icf"), midBoard("icf"), []events.Event{arm, startAt(200, board.S, 0, baseY), crossed(201, board.S), end(240)}))
	if strings.Contains(calls(d), "hand_over_foul_line") || !strings.Contains(strings.Join(d.Notes, ";"), "not counted") {
		t.Errorf("long before: %s", dump([]referee.Decision{d}))
	}
	// Another player's arm during the stroke is not the striker's foul.
	other := events.Event{Type: events.ArmOverFoulLine, Frame: 12, T: 12.0 / 60, Side: events.SidePtr(board.N)}
	d = only(t, judge(t, exact(t, "icf"), midBoard("icf"), []events.Event{startAt(10, board.S, 0, baseY), other, crossed(11, board.S), end(40)}))
	if len(d.Calls) != 0 || len(d.Notes) == 0 {
		t.Errorf("other arm: %s", dump([]referee.Decision{d}))
	}
}

func TestNoBreak(t *testing.T) {
	miss := []events.Event{startAt(10, board.S, 150, baseY), crossed(11, board.S), hit(30, 0.5, "S", events.Frame, board.V(300, -349), board.V(300, -370)), end(60)}
	pack := []events.Event{startAt(10, board.S, 0, baseY), crossed(11, board.S), hit(20, 0.33, "S", "W4", board.V(0, 100), board.V(0, 63.6)), end(60)}
	if d := only(t, judge(t, exact(t, "icf"), midBoard("icf", breaking), miss)); !d.Stroke.NoBreak || d.Log != "S - nobreak" {
		t.Errorf("missed break: %q", d.Log)
	}
	if d := only(t, judge(t, exact(t, "icf"), midBoard("icf", breaking), pack)); d.Stroke.NoBreak {
		t.Errorf("broken: %q", d.Log)
	}
	if d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), miss)); d.Stroke.NoBreak {
		t.Errorf("not a break: %q", d.Log)
	}
	// A failed break is not a no_contact foul (team-3board Break and Turn
	// of Play 1 governs it).
	gone := []events.Event{startAt(10, board.S, 150, baseY), crossed(11, board.S), end(60)}
	if d := only(t, judge(t, exact(t, "team-3board"), midBoard("team-3board", breaking), gone)); !d.Stroke.NoBreak || len(d.Calls) != 0 {
		t.Errorf("team-3board failed break: %s", dump([]referee.Decision{d}))
	}
}

func TestHandsDuringStroke(t *testing.T) {
	mv := moved(20, "W1", 10, 10)
	nside := mv
	nside.Side = events.SidePtr(board.N)
	stop := moved(25, "S", 0, 100)
	cushion := hit(30, 0.5, "S", events.Frame, board.V(0, -349), board.V(0, -370))
	evs := []events.Event{startAt(10, board.S, 0, baseY), crossed(11, board.S), mv, nside, stop, cushion, end(40)}
	ds := judge(t, exact(t, "team-3board"), midBoard("team-3board"), evs)
	// N's hand: a foul decision against N, before S's stroke.
	if len(ds) != 2 || ds[0].Kind != referee.KindFoul || ds[0].Seat != board.N || ds[1].Kind != referee.KindStroke {
		t.Fatalf("decisions:\n%s", dump(ds))
	}
	if got := calls(ds[1]); got != "touched_piece/offered stopped_striker/offered" {
		t.Errorf("stroke calls %s", got)
	}
}

func TestPlacements(t *testing.T) {
	cfg := exact(t, "icf")
	// The queen awaiting placement.
	q := midBoard("icf", func(st *rules.State) { st.Queen = rules.Queen{Status: rules.QueenAwaitingPlacement, Team: -1} })
	if ds := judge(t, cfg, q, []events.Event{placed(5, "Q", 0, 0)}); len(ds) != 1 || ds[0].Log != "place q" {
		t.Errorf("queen: %s", dump(ds))
	}
	// Held until the end of the turn: not yet.
	q.Queen.Held = true
	if ds := judge(t, cfg, q, []events.Event{placed(5, "Q", 0, 0)}); len(ds) != 1 || ds[0].Kind != referee.KindInfo {
		t.Errorf("held queen: %s", dump(ds))
	}
	// A man nobody awaits.
	if ds := judge(t, cfg, midBoard("icf"), []events.Event{placed(5, "W3", 40, 40)}); len(ds) != 1 || ds[0].Kind != referee.KindInfo || !strings.Contains(ds[0].Notes[0], "no white man awaits") {
		t.Errorf("unexpected man: %s", dump(ds))
	}
	// Setting out a new board: nothing.
	if ds := judge(t, cfg, midBoard("icf", breaking), []events.Event{placed(5, "W3", 40, 40), placed(5, "Q", 0, 0)}); len(ds) != 0 {
		t.Errorf("set-up: %s", dump(ds))
	}
	// N places one of its own black men instead of S's white due.
	st := midBoard("icf", onBoard(8, 8), awaiting(1, 0, board.N), turn(board.N))
	ds := judge(t, cfg, st, []events.Event{placed(5, "B3", 40, 40)})
	if len(ds) != 1 || ds[0].Log != "foul N !wrong_man_placed" {
		t.Errorf("wrong man: %s", dump(ds))
	}
	// Placing the due moves another man: disturbed (Dues and Penalties 23).
	ds = judge(t, cfg, st, []events.Event{end(1, at("B2", 60, 60)), placed(60, "W1", 40, -50), moved(80, "B2", 70, 62)})[1:]
	if len(ds) != 2 || ds[1].Log != "foul N !placement_disturbed" {
		t.Errorf("disturbed: %s", dump(ds))
	}
	// The placer slides his due man out of the outer circle (Dues 22).
	ds = judge(t, cfg, st, []events.Event{placed(60, "W1", 40, -50), moved(90, "W1", 90, -50)})
	if len(ds) != 2 || ds[1].Log != "foul N !due_outside_outer_circle" {
		t.Errorf("due moved out: %s", dump(ds))
	}
	// ... or only adjusts it: nothing.
	ds = judge(t, cfg, st, []events.Event{placed(60, "W1", 40, -50), moved(90, "W1", 45, -50)})
	if len(ds) != 1 {
		t.Errorf("due adjusted: %s", dump(ds))
	}
}

func TestMovedBySide(t *testing.T) {
	mv := moved(10, "B4", 10, 10)
	ds := judge(t, exact(t, "icf"), midBoard("icf"), []events.Event{mv})
	if len(ds) != 1 || ds[0].Seat != board.S || !strings.Contains(notes(ds), "cannot tell") || ds[0].Calls[0].Margin != nil {
		t.Errorf("unknown hand: %s", dump(ds))
	}
	mv.Side = events.SidePtr(board.N)
	ds = judge(t, exact(t, "icf"), midBoard("icf"), []events.Event{mv})
	if len(ds) != 1 || ds[0].Log != "foul N !touched_piece" || strings.Contains(notes(ds), "cannot tell") {
		t.Errorf("N's hand: %s", dump(ds))
	}
	// Moved by a hair (tracker jitter?): offered, low confidence.
	cfg := referee.DefaultConfig(profile(t, "icf"))
	ds = judge(t, cfg, midBoard("icf"), []events.Event{end(1, at("B4", 10, 10)), moved(10, "B4", 10.4, 10)})
	if len(ds) != 2 || ds[0].Kind != referee.KindInfo || ds[1].Calls[0].Status != referee.Offered || ds[1].Event() != nil {
		t.Errorf("jitter: %s", dump(ds))
	}
}

func TestStrokeWithoutEnd(t *testing.T) {
	r, _ := referee.New(exact(t, "icf"))
	st := midBoard("icf")
	for _, e := range []events.Event{startAt(10, board.S, 0, baseY), crossed(11, board.S), pocketed(30, "W1", board.NE)} {
		if _, err := r.Observe(e, st); err != nil {
			t.Fatal(err)
		}
	}
	if !r.InStroke() {
		t.Fatal("not in a stroke")
	}
	ds, err := r.Observe(startAt(100, board.N, 0, -baseY), midBoard("icf", turn(board.N)))
	if err != nil || len(ds) != 1 || ds[0].Log != "S w" || !strings.Contains(notes(ds), "no stroke_end") {
		t.Errorf("implicit end: %v %s", err, dump(ds))
	}
	// Invalid events are errors and change nothing.
	if _, err := r.Observe(events.Event{Type: events.Contact, Frame: 120, A: "S"}, st); err == nil || !strings.Contains(err.Error(), "frame 120") {
		t.Errorf("bad event: %v", err)
	}
	// A stroke_end without a start is said, not guessed at.
	r2, _ := referee.New(exact(t, "icf"))
	ds, err = r2.Observe(end(5, at("W1", 0, 0)), st)
	if err != nil || len(ds) != 1 || ds[0].Kind != referee.KindInfo {
		t.Errorf("lone stroke_end: %v %s", err, dump(ds))
	}
}

func TestOutOfTurn(t *testing.T) {
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf", turn(board.N)), []events.Event{startAt(10, board.S, 0, baseY), crossed(11, board.S), end(40)}))
	if d.Seat != board.S || !strings.Contains(strings.Join(d.Notes, ";"), "it is N's turn") {
		t.Errorf("%s", dump([]referee.Decision{d}))
	}
}

func TestUmpireFouls(t *testing.T) {
	r, _ := referee.New(exact(t, "icf"))
	st := midBoard("icf")
	if _, err := r.Observe(startAt(10, board.S, 0, baseY), st); err != nil {
		t.Fatal(err)
	}
	// A push by the striker joins the stroke.
	if ds, err := r.Umpire(board.S, []rules.Foul{rules.FoulPush}, 12, 0.2, st); err != nil || len(ds) != 0 {
		t.Fatalf("push: %v %v", err, ds)
	}
	// Talking by N is a foul decision of its own.
	ds, err := r.Umpire(board.N, []rules.Foul{rules.FoulTalking}, 13, 0.21, st)
	if err != nil || len(ds) != 1 || ds[0].Log != "foul N !talking" || ds[0].Calls[0].Source != referee.SourceUmpire {
		t.Fatalf("talking: %v %s", err, dump(ds))
	}
	r.Observe(crossed(14, board.S), st)
	ds, _ = r.Observe(end(40), st)
	if len(ds) != 1 || ds[0].Log != "S - !push" {
		t.Errorf("stroke with push: %s", dump(ds))
	}
	for _, bad := range []rules.Foul{rules.FoulStrikerPocketed, "frobnicate", rules.FoulNoContact} {
		if _, err := r.Umpire(board.S, []rules.Foul{bad}, 50, 1, st); err == nil {
			t.Errorf("umpire %s accepted", bad)
		}
	}
}

func TestDecisionUmpireChanges(t *testing.T) {
	d := only(t, judge(t, referee.DefaultConfig(profile(t, "icf")), midBoard("icf"), cutMoonStroke(5.15)))
	if d.Log != "S -" {
		t.Fatalf("%q", d.Log)
	}
	if err := d.Confirm(rules.FoulCutMoon); err != nil || d.Log != "S - !cut_moon" {
		t.Errorf("confirm: %v %q", err, d.Log)
	}
	if err := d.Overrule(rules.FoulCutMoon); err != nil || d.Log != "S -" || d.Event().(rules.Stroke).Fouls != nil {
		t.Errorf("overrule: %v %q", err, d.Log)
	}
	if err := d.AddUmpireFoul(profile(t, "icf"), rules.FoulPush, "pushed"); err != nil || d.Log != "S - !push" {
		t.Errorf("add: %v %q", err, d.Log)
	}
	if err := d.Confirm(rules.FoulArrow); err == nil {
		t.Error("confirmed a call that was not made")
	}
	if err := d.AddUmpireFoul(profile(t, "icf"), rules.FoulNoContact, ""); err == nil {
		t.Error("added a foul icf does not know")
	}
	// A decision survives JSON: the event is rebuilt from the fields.
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back referee.Decision
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if rules.FormatEvent(back.Event()) != "S - !push" || back.Calls[0].Margin == nil || *back.Calls[0].Margin != 0.3 {
		t.Errorf("round trip: %s", b)
	}
	for _, key := range []string{`"kind":"stroke"`, `"foul":"cut_moon"`, `"status":"overruled"`, `"margin_mm":0.3`, `"rule":"icf-laws-of-carrom.md: Striking 2"`, `"striker_mm":[`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	if _, err := referee.New(referee.Config{}); err == nil || !strings.Contains(err.Error(), "no rule profile") {
		t.Errorf("no profile: %v", err)
	}
	cfg := referee.DefaultConfig(profile(t, "icf"))
	cfg.Tolerance = -1
	if _, err := referee.New(cfg); err == nil || !strings.Contains(err.Error(), "tolerance") {
		t.Errorf("negative tolerance: %v", err)
	}
	cfg = referee.DefaultConfig(profile(t, "icf"))
	cfg.TimeTolerance = math.NaN()
	if _, err := referee.New(cfg); err == nil {
		t.Error("NaN accepted")
	}
}

// A moved event the tracker doubts (the disc was lost from sight in plain
// view before it came back there: moved by a hand, or put back after a
// stroke the camera did not see) is held for the umpire with that reason.
func TestMovedAfterLostIsHeld(t *testing.T) {
	mv := moved(80, "Q", 0, 1)
	mv.Side = events.SidePtr(board.S)
	ds := judge(t, exact(t, "icf"), midBoard("icf"), []events.Event{mv})
	if len(ds) != 1 || ds[0].Uncertain() || ds[0].Log != "foul S !touched_piece" {
		t.Fatalf("moved, not doubted: %s", dump(ds))
	}
	mv.Doubts = []events.Doubt{{Kind: events.DoubtUnaccounted, Reason: "Q was last seen at frame 26 at (286, -199) mm and was then lost from sight in plain view", Frames: [2]int{26, 80}, IDs: []string{"Q"}}}
	ds = judge(t, exact(t, "icf"), midBoard("icf"), []events.Event{mv})
	if len(ds) != 1 || !ds[0].Uncertain() || !strings.Contains(strings.Join(ds[0].Reasons(), "; "), "lost from sight in plain view") {
		t.Errorf("moved after lost: %s", dump(ds))
	}
}

// An arm event whose point lies less far beyond the foul line than the
// camera's hand mask may reach beyond the hand (SigmaMM) does not show a
// crossing: a hand up to the line reads the same. The call is offered to
// the umpire with the reason, never applied; further beyond, it stands.
func TestArmWithinMaskReach(t *testing.T) {
	// 6.4 mm beyond S's SE diagonal, over the drawn arrow (152.5 to 419.5).
	at := func(d float64) board.Vec {
		return board.V(330/math.Sqrt2+d/math.Sqrt2, 330/math.Sqrt2-d/math.Sqrt2)
	}
	arm := func(d, sigma float64) []events.Event {
		a := events.Event{Type: events.ArmOverFoulLine, Frame: 10, T: 10.0 / 60, Side: events.SidePtr(board.S), Part: events.PartArm, MM: events.MMPtr(at(d)), SigmaMM: sigma}
		return []events.Event{startAt(10, board.S, 0, baseY), a, crossed(11, board.S), end(40)}
	}
	d := only(t, judge(t, exact(t, "icf"), midBoard("icf"), arm(6.4, 10.3)))
	c := findCall(t, d, rules.FoulHandOverFoulLine)
	if c.Status != referee.Offered || !c.LowConfidence || !strings.Contains(c.Reason, "hand mask") || !d.Pending() {
		t.Errorf("within the mask's reach: %s", dump([]referee.Decision{d}))
	}
	d = only(t, judge(t, exact(t, "icf"), midBoard("icf"), arm(17, 10.3)))
	if c := findCall(t, d, rules.FoulHandOverFoulLine); c.Status != referee.Applied {
		t.Errorf("beyond the mask's reach: %s", dump([]referee.Decision{d}))
	}
}
