package referee_test

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/rules"
)

// step is one input to a referee: an event, or a gap of frames not
// analysed (Unseen).
type step struct {
	ev  *events.Event
	gap *referee.Gap
}

func ev(e events.Event) step { return step{ev: &e} }
func gap(g referee.Gap) step { return step{gap: &g} }
func moving(after, before int, ids ...string) step {
	return gap(referee.Gap{After: after, Before: before, Moved: true, IDs: ids, Reason: "frames not analysed while " + strings.Join(ids, ", ") + " moved"})
}
func still(after, before int) step {
	return gap(referee.Gap{After: after, Before: before, Reason: "frames not analysed, nothing moving"})
}

// play feeds the steps to a new referee with one match context and
// returns the decisions; flush adds the end of the stream.
func play(t *testing.T, st rules.State, flush bool, steps ...step) []referee.Decision {
	t.Helper()
	r, err := referee.New(exact(t, "icf"))
	if err != nil {
		t.Fatal(err)
	}
	var out []referee.Decision
	for _, s := range steps {
		if s.gap != nil {
			r.Unseen(*s.gap)
			continue
		}
		ds, err := r.Observe(*s.ev, st)
		if err != nil {
			t.Fatalf("frame %d %s: %v", s.ev.Frame, s.ev.Type, err)
		}
		out = append(out, ds...)
	}
	if flush {
		out = append(out, r.Flush(st)...)
	}
	return out
}

func kinds(d referee.Decision) string {
	var out []string
	for _, x := range d.Doubts {
		out = append(out, string(x.Kind))
	}
	return strings.Join(out, " ")
}

// Frames not analysed during a stroke doubt it; frames not analysed at
// rest with nothing moving do not; frames across which pieces moved doubt
// the next decision, whatever lies between.
func TestGapsDoubtTheStrokeTheyFallIn(t *testing.T) {
	stroke := func(from int) []step {
		return []step{ev(startAt(from, board.S, 0, baseY)), ev(crossed(from+2, board.S)), ev(pocketed(from+20, "W1", board.NE)), ev(end(from + 40))}
	}
	cases := []struct {
		name  string
		steps []step
		want  string // doubt kinds of the stroke decision
	}{
		{"no gap", stroke(10), ""},
		{"in the stroke", append([]step{still(20, 26)}, stroke(10)...), "frames_missing"},
		{"at rest before, nothing moved", append([]step{still(2, 6)}, stroke(10)...), ""},
		{"before, pieces moved", append([]step{moving(2, 6, "W4")}, stroke(10)...), "frames_missing"},
		{"before, the striker handled", append([]step{moving(2, 6, "S")}, stroke(10)...), ""},
		{"after the stroke's rest", append(stroke(10), still(55, 60)), ""},
		{"stalled mid-stroke (no frame missing)", append([]step{still(20, 21)}, stroke(10)...), "frames_missing"},
	}
	for _, c := range cases {
		d := only(t, play(t, midBoard("icf"), false, c.steps...))
		if got := kinds(d); got != c.want {
			t.Errorf("%s: doubts %q, want %q\n%s", c.name, got, c.want, dump([]referee.Decision{d}))
		}
		if d.Log != "S w" {
			t.Errorf("%s: the best guess is %q, want S w", c.name, d.Log)
		}
		if c.want != "" && (d.Doubts[0].Reason == "" || !d.Uncertain()) {
			t.Errorf("%s: no reason: %+v", c.name, d.Doubts)
		}
	}
	// The striker alone moving before the stroke of the seat whose turn it
	// is not: a stroke may have been missed.
	d := only(t, play(t, midBoard("icf", turn(board.N)), false, append([]step{moving(2, 6, "S")}, stroke(10)...)...))
	if kinds(d) != "frames_missing" {
		t.Errorf("striker moved unseen before a stroke out of turn: %s", dump([]referee.Decision{d}))
	}
	// A gap in the first stroke does not doubt the second.
	ds := play(t, midBoard("icf"), false, append(append([]step{still(20, 26)}, stroke(10)...), stroke(100)...)...)
	if ss := strokes(ds); len(ss) != 2 || !ss[0].Uncertain() || ss[1].Uncertain() {
		t.Errorf("two strokes: %s", dump(ds))
	}
	// Several gaps: one doubt that sums them up.
	g1 := referee.Gap{After: 20, Before: 23, Missing: 2, Moved: true, IDs: []string{"S"}, Why: "the analysis fell behind", Reason: "one"}
	g2 := referee.Gap{After: 30, Before: 34, Missing: 3, Moved: true, IDs: []string{"S", "W1"}, Why: "the analysis fell behind", Reason: "two"}
	d = only(t, play(t, midBoard("icf"), false, append([]step{gap(g1), gap(g2)}, stroke(10)...)...))
	if len(d.Doubts) != 1 || d.Doubts[0].Reason != "2 runs of frames between 21 and 33 were not analysed (5 of 13 frames: the analysis fell behind) while S and W1 moved" || d.Doubts[0].Frames != [2]int{21, 33} {
		t.Errorf("two gaps: %+v", d.Doubts)
	}
	// The tracker's own report of the same frames is not repeated.
	e := end(50)
	e.Doubts = []events.Doubt{{Kind: events.DoubtFramesMissing, Reason: "frames 21–25 missing while W1 moved", Frames: [2]int{21, 25}}}
	d = only(t, play(t, midBoard("icf"), false, still(20, 26), ev(startAt(10, board.S, 0, baseY)), ev(e)))
	if len(d.Doubts) != 1 || d.Doubts[0].Reason != "frames 21–25 missing while W1 moved" {
		t.Errorf("merged doubts %+v", d.Doubts)
	}
}

// Pieces that moved in frames not analysed between strokes doubt the next
// placement or foul decision too (a piece "moved by hand" may be a stroke
// never seen).
func TestMovedGapDoubtsPlacementsAndFouls(t *testing.T) {
	ds := play(t, midBoard("icf"), false, moving(5, 9, "W3"), ev(moved(12, "W3", 40, 40)))
	if len(ds) != 1 || ds[0].Kind != referee.KindFoul || kinds(ds[0]) != "frames_missing" {
		t.Fatalf("moved after a gap: %s", dump(ds))
	}
	// Without the gap, the same move is a foul the camera calls alone.
	ds = play(t, midBoard("icf"), false, ev(moved(12, "W3", 40, 40)))
	if len(ds) != 1 || ds[0].Uncertain() {
		t.Errorf("moved: %s", dump(ds))
	}
	ds = play(t, midBoard("icf", awaiting(1, 0, board.S)), false, moving(5, 9, "W3"), ev(placed(12, "W3", 0, 80)))
	if len(ds) != 1 || ds[0].Kind != referee.KindPlace || !ds[0].Uncertain() {
		t.Errorf("placed after a gap: %s", dump(ds))
	}
}

// No foul is called or cleared on an inferred position: the call is
// offered, the decision doubted.
func TestNoFoulOnInferredPosition(t *testing.T) {
	// Off the base line: a placement foul, applied when seen …
	seenStart := startAt(10, board.S, 0, 190)
	d := only(t, play(t, midBoard("icf"), false, ev(seenStart), ev(end(40))))
	if calls(d) != "placement/applied" || d.Uncertain() {
		t.Fatalf("seen: %s", dump([]referee.Decision{d}))
	}
	// … offered, and the stroke doubted, when inferred.
	guess := seenStart
	guess.Inferred, guess.SigmaMM = true, 12
	d = only(t, play(t, midBoard("icf"), false, ev(guess), ev(end(40))))
	if calls(d) != "placement/offered" || kinds(d) != "inferred_position" || d.Log != "S -" {
		t.Errorf("inferred: %s %q", dump([]referee.Decision{d}), kinds(d))
	}
	if r := d.Doubts[0].Reason; !strings.Contains(r, "striker's place") || !strings.Contains(r, "±12 mm") {
		t.Errorf("reason %q", r)
	}
	// A proper placement is not cleared on an inferred position either.
	guess = startAt(10, board.S, 0, baseY)
	guess.Inferred = true
	d = only(t, play(t, midBoard("icf"), false, ev(guess), ev(crossed(12, board.S)), ev(end(40))))
	if len(d.Calls) != 0 || kinds(d) != "inferred_position" {
		t.Errorf("proper, inferred: %s", dump([]referee.Decision{d}))
	}
	// A piece's inferred resting place that a behind-line check decides on.
	w1 := at("W1", 100, 225)
	w1.Inferred = true
	steps := []step{ev(end(1, w1)), ev(startAt(10, board.S, 60, baseY)),
		ev(events.Event{Type: events.Contact, Frame: 11, T: 0.18, A: "S", B: "W1"}), ev(crossed(14, board.S)), ev(end(40))}
	d = only(t, play(t, midBoard("icf"), false, steps...))
	if calls(d) != "behind_line_first/offered" || kinds(d) != "inferred_position" {
		t.Errorf("inferred rest place: %s", dump([]referee.Decision{d}))
	}
	// A due man's inferred place.
	p := placed(30, "W3", 0, 300) // outside the outer circle
	p.Inferred = true
	ds := play(t, midBoard("icf", awaiting(1, 0, board.S)), false, ev(p))
	if len(ds) != 1 || calls(ds[0]) != "due_outside_outer_circle/offered" || kinds(ds[0]) != "inferred_position" {
		t.Errorf("inferred due: %s", dump(ds))
	}
}

// A stroke_end without a stroke_start is a stroke decision held for the
// umpire when the tracker doubts it or pieces moved unseen before it; its
// outcome is what was reported pocketed meanwhile.
func TestStrokeWithUnseenStart(t *testing.T) {
	e := end(60, at("W2", 10, 10))
	e.Doubts = []events.Doubt{{Kind: events.DoubtStartUnseen, Reason: "the board changed between frames 20 and 60 with no stroke seen"}}
	ds := play(t, midBoard("icf", turn(board.N)), false, ev(pocketed(40, "B1", board.SW)), ev(e))
	d := only(t, ds)
	if d.Seat != board.N || d.Log != "N b" || kinds(d) != "start_unseen" || d.Stroke.Placement != "unseen" {
		t.Errorf("unseen start: %s", dump(ds))
	}
	// The same after a gap in which pieces moved.
	d = only(t, play(t, midBoard("icf"), false, moving(20, 59, "W1"), ev(pocketed(40, "W1", board.SW)), ev(end(60))))
	if d.Log != "S w" || !strings.Contains(kinds(d), "frames_missing") {
		t.Errorf("unseen start after a gap: %s", dump([]referee.Decision{d}))
	}
	// Without either, it stays an info decision.
	ds = play(t, midBoard("icf"), false, ev(end(60)))
	if len(ds) != 1 || ds[0].Kind != referee.KindInfo {
		t.Errorf("plain stroke_end: %s", dump(ds))
	}
}

// A stroke that fell wholly between two frames (the tracker saw a man by
// a pocket and the striker vanish from plain view, nothing moving) is held
// for the umpire with the tracker's reasons in its words, its best guess
// the man pocketed where he lay by, inferred; never applied.
func TestStrokeBetweenFramesHeld(t *testing.T) {
	pk := pocketed(31, "W3", board.NE)
	pk.Inferred = true
	e := end(31, at("W1", -150, -100), at("B1", -120, 150))
	e.Doubts = []events.Doubt{
		{Kind: events.DoubtStartUnseen, Frames: [2]int{29, 30}, IDs: []string{"W3", "S"},
			Reason: "between frames 29 and 30 W3 (at (312, -312) mm) and the striker (at (100, 247) mm) vanished from plain view and nothing was seen moving: a stroke whose start and flight were not seen; the board changed: W3 left the board, S not found"},
		{Kind: events.DoubtUnaccounted, Frames: [2]int{29, 31}, IDs: []string{"S"},
			Reason: "S was last seen at frame 29 at (100, 247) mm and is not there now, nor seen to leave"},
	}
	d := only(t, play(t, midBoard("icf", turn(board.E)), false, ev(pk), ev(e)))
	why := strings.Join(d.Reasons(), "; ")
	if !d.Uncertain() || d.Seat != board.E || d.Log != "E w" || d.Stroke.Placement != "unseen" ||
		!strings.Contains(why, "between frames 29 and 30 W3") || !strings.Contains(why, "vanished from plain view") ||
		!strings.Contains(why, "S was last seen at frame 29") {
		t.Errorf("stroke between two frames: uncertain %v, reasons %q: %s", d.Uncertain(), why, dump([]referee.Decision{d}))
	}
}

// A stroke whose rest was not seen (the next stroke began, the video
// ended) is doubted; gaps with pieces moving that no decision followed end
// as a stroke decision with no outcome.
func TestEndUnseen(t *testing.T) {
	ds := play(t, midBoard("icf"), false, ev(startAt(10, board.S, 0, baseY)), ev(startAt(90, board.N, 0, -baseY)), ev(end(140)))
	ss := strokes(ds)
	if len(ss) != 2 || kinds(ss[0]) != "end_unseen" || ss[1].Uncertain() {
		t.Errorf("next stroke began: %s", dump(ds))
	}
	ds = play(t, midBoard("icf"), true, ev(startAt(10, board.S, 0, baseY)), ev(pocketed(30, "W1", board.NE)))
	d := only(t, ds)
	// What the striker never did (cross its line, touch anything) is not
	// known of a stroke whose end was not seen: only offered.
	if kinds(d) != "end_unseen" || d.Log != "S w" || calls(d) != "backward_flick/offered" || !strings.Contains(d.Doubts[0].Reason, "video ended") {
		t.Errorf("video ended mid-stroke: %s", dump(ds))
	}
	ds = play(t, midBoard("icf"), true, ev(startAt(10, board.S, 0, baseY)), ev(end(40)), moving(50, 80, "W5"))
	if ss := strokes(ds); len(ss) != 2 || ss[0].Uncertain() || ss[1].Stroke != nil || ss[1].Event() != nil || kinds(ss[1]) != "frames_missing" {
		t.Errorf("pieces moved unseen at the end: %s", dump(ds))
	}
	if ds := play(t, midBoard("icf"), true, ev(startAt(10, board.S, 0, baseY)), ev(end(40)), still(50, 80)); len(ds) != 1 {
		t.Errorf("a gap at rest at the end: %s", dump(ds))
	}
}

// An inferred resting place of the striker doubts the backward flick only
// when, within its uncertainty, the striker may have been past its front
// line: one that went back under the player's arm, far behind the line,
// flicked backwards whatever its exact place.
func TestBackwardFlickInferredRest(t *testing.T) {
	far := at("S", 20, 320)
	far.Inferred, far.SigmaMM = true, 30
	d := only(t, play(t, midBoard("icf"), false, ev(startAt(10, board.S, 0, baseY)), ev(end(40, far))))
	if calls(d) != "backward_flick/applied" || d.Uncertain() {
		t.Errorf("far behind the line: %s %q", dump([]referee.Decision{d}), kinds(d))
	}
	near := at("S", 20, 230)
	near.Inferred, near.SigmaMM = true, 30
	d = only(t, play(t, midBoard("icf"), false, ev(startAt(10, board.S, 0, baseY)), ev(end(40, near))))
	if calls(d) != "backward_flick/offered" || kinds(d) != "inferred_position" {
		t.Errorf("near the line: %s %q", dump([]referee.Decision{d}), kinds(d))
	}
}
