package referee_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/referee/refsim"
	"github.com/boardcam/boardcam/rules"
)

// The h10 scene at 8x slower (a strike with no hand, the striker off the
// far cushion, most of the flight in frames not analysed), as its events
// reach the referee: frames missing while W1 moved, a stroke_end whose
// start was not seen; later more frames missing and the tracker's word
// that the striker came to rest mid-board with no stroke seen.
const foldLog = "profile icf\nplayer S South\nplayer N North\nbreak S\nposition breaker=S turn=S white=1 black=2 queen=covered:N strokes=10\n"

func unseenEnd(frame int, from, to int, ids ...string) events.Event {
	e := end(frame, at("S", -187, 194))
	e.Doubts = []events.Doubt{{Kind: events.DoubtStartUnseen, Frames: [2]int{from, to}, IDs: ids,
		Reason: fmt.Sprintf("%s moved between frames %d and %d while no stroke was seen and no hand was seen near it: a stroke may have been missed", strings.Join(ids, ", "), from, to)}}
	return e
}

// playMatch feeds the steps to a referee against a match that applies
// every decision's event at once, held or not, as the keeper's projected
// state does; a decision that folds into an earlier one takes its place
// (the earlier one is undone). It returns the decisions in the one-line
// notation ("S -", "[info]"; "folds N" when it replaces the decision of
// frame N) joined by "; ".
func playMatch(t *testing.T, steps ...step) (string, []referee.Decision) {
	t.Helper()
	return playMatchFrom(t, foldLog, steps...)
}

// playMatchFrom is playMatch on a match started from the stroke log
// header lg.
func playMatchFrom(t *testing.T, lg string, steps ...step) (string, []referee.Decision) {
	t.Helper()
	m := matchFrom(t, lg)
	r, err := referee.New(referee.DefaultConfig(profile(t, "icf")))
	if err != nil {
		t.Fatal(err)
	}
	var out []referee.Decision
	var words []string
	lastFrame := map[int]bool{}
	for _, s := range steps {
		if s.gap != nil {
			r.Unseen(*s.gap)
			continue
		}
		ds, err := r.Observe(*s.ev, m.State())
		if err != nil {
			t.Fatalf("frame %d %s: %v", s.ev.Frame, s.ev.Type, err)
		}
		for _, d := range ds {
			out = append(out, d)
			w := d.Log
			if w == "" {
				w = "[" + string(d.Kind) + "]"
			}
			if d.Folds != nil {
				w += fmt.Sprintf(" folds %d", *d.Folds)
				if !lastFrame[*d.Folds] {
					t.Fatalf("decision of frame %d folds into frame %d, which is not the last decision applied", d.Frame, *d.Folds)
				}
				if err := m.Undo(); err != nil {
					t.Fatal(err)
				}
			}
			words = append(words, w)
			if ev := d.Event(); ev != nil {
				if err := m.Apply(ev); err != nil {
					t.Fatalf("%s: %v", d.Log, err)
				}
				lastFrame = map[int]bool{d.Frame: true}
			}
		}
	}
	return strings.Join(words, "; "), out
}

// A second held decision for the same stroke is folded into the first:
// one decision, both reasons, one best guess, the umpire asked once. A
// real second stroke (seen starting), or one after a placement, or
// evidence wholly before a held stroke seen starting, is its own decision.
func TestSecondHoldFoldedIntoFirst(t *testing.T) {
	missed := []step{moving(58, 62, "W1"), ev(unseenEnd(94, 59, 61, "W1"))}
	later := []step{moving(111, 114, "S", "W1"), ev(unseenEnd(126, 114, 118, "S"))}
	seen := []step{ev(startAt(100, board.S, 0, baseY)), moving(110, 120, "S", "W2"), ev(end(140, at("S", 0, 100)))}
	cat := func(parts ...[]step) []step {
		var out []step
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	cases := []struct {
		name  string
		steps []step
		want  string
	}{
		{"h10: frames missing, then the board changed", cat(missed, later), "S -; S - folds 94"},
		{"a pocketing between them joins the guess", cat(missed, []step{ev(pocketed(105, "W1", board.SE))}, later), "S -; [info]; S w folds 94"},
		{"three times the same stroke", cat(missed, later, []step{ev(unseenEnd(160, 150, 155, "B1"))}), "S -; S - folds 94; S - folds 126"},
		{"a stroke seen starting is its own", cat(missed, []step{ev(startAt(110, board.N, 0, -baseY)), ev(end(125, at("S", 0, 150)))}, later), "S -; N -; S -"},
		{"a placement between them", cat(missed, []step{ev(placed(105, "W2", 0, 0))}, later), "S -; [info]; N -"},
		{"evidence before a stroke seen starting", cat(seen, []step{ev(unseenEnd(200, 60, 80, "B1"))}), "S -; N -"},
		{"evidence overlapping a stroke seen starting", cat(seen, []step{ev(unseenEnd(200, 130, 150, "B1"))}), "S -; S - folds 140"},
		{"evidence after a held stroke seen starting", cat(seen, []step{ev(unseenEnd(200, 160, 170, "S"))}), "S -; S - folds 140"},
		{"men moved after a held stroke seen starting", cat(seen, []step{ev(unseenEnd(200, 160, 170, "B1"))}), "S -; N -"},
		{"after a sure stroke", []step{ev(startAt(100, board.S, 0, baseY)), ev(end(140, at("S", 0, 100))), ev(unseenEnd(200, 160, 170, "S"))}, "S -; N -"},
	}
	for _, c := range cases {
		got, ds := playMatch(t, c.steps...)
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
			continue
		}
		last := ds[len(ds)-1]
		if last.Folds == nil {
			continue
		}
		// Nothing of the first is lost: its reasons, the later ones, and a
		// note saying what was folded.
		var first referee.Decision
		for _, d := range ds {
			if d.Frame == *last.Folds {
				first = d
			}
		}
		why := strings.Join(last.Reasons(), " | ")
		for _, x := range first.Doubts {
			if !strings.Contains(why, x.Reason) {
				t.Errorf("%s: the folded decision lost the reason %q: %s", c.name, x.Reason, why)
			}
		}
		if n := strings.Count(why, "a stroke may have been missed"); n < 2 && first.Stroke.Placement == "unseen" {
			t.Errorf("%s: the later reason is missing (%d of the tracker's reasons): %s", c.name, n, why)
		}
		if !strings.Contains(strings.Join(last.Notes, " "), fmt.Sprintf("folded into the stroke decided at frame %d", *last.Folds)) {
			t.Errorf("%s: no note says what was folded: %q", c.name, last.Notes)
		}
		if last.Seat != first.Seat || last.StartFrame != first.StartFrame || !last.Uncertain() {
			t.Errorf("%s: folded seat %s start %d uncertain %v, the first's seat %s start %d", c.name, last.Seat, last.StartFrame, last.Uncertain(), first.Seat, first.StartFrame)
		}
	}
}

// refsim (the corpus's and the eval's referee) puts a folded decision in
// the place of the one it folds into: one stroke decision, applied once.
func TestRefsimFoldsOnce(t *testing.T) {
	m := foldMatch(t)
	evs := []events.Event{unseenEnd(94, 59, 61, "W1"), pocketed(105, "W1", board.SE), unseenEnd(126, 114, 118, "S")}
	res, err := refsim.RefereeMatch(evs, m, referee.DefaultConfig(profile(t, "icf")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range m.History() {
		got = append(got, rules.FormatEvent(h))
	}
	if logs(res.Decisions) != "[info]; S w" || len(res.Strokes) != 1 || strings.Join(got, "; ") != "S w" {
		t.Errorf("decisions %q, %d strokes, history %q: want [info]; S w, one stroke, S w once", logs(res.Decisions), len(res.Strokes), got)
	}
}

// foldMatch is a new match with foldLog's header.
func foldMatch(t *testing.T) *rules.Match {
	t.Helper()
	return matchFrom(t, foldLog)
}

// matchFrom is a new match with the stroke log header log.
func matchFrom(t *testing.T, log string) *rules.Match {
	t.Helper()
	lg, err := rules.ParseLog(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	m, err := rules.NewMatch(lg.Header)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
