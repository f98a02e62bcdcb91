package tracker

import (
	"math"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// At 15 fps a striker flicked backward from under a hand that follows it
// is seen sliding in two frames only, the hand moving along, then the
// hand covers it: as a hand carrying it would look. Found at rest where
// that slide stops, it was struck: one stroke, held for the umpire (a
// view_covered doubt naming the two frames). Found anywhere else it was
// carried: no stroke. Never taken to be found in the hand's own frames.
func TestFlickUnderFollowingHandAtLowFPS(t *testing.T) {
	const (
		fps   = 15
		flick = 40 // the last frame the striker stands at its place
		gone  = 52 // the hand leaves
		end   = 70
		v0    = 400.0 // mm/s
		decel = 1177.0
	)
	g := board.ICF()
	at := board.V(20, g.BaseCircleY())
	stop := v0 / decel
	// The flick happens half a frame after frame flick.
	slide := func(i int) board.Vec {
		tau := math.Max(0, math.Min((float64(i)-flick-0.5)/fps, stop))
		return at.Add(board.V(0, v0*tau-decel*tau*tau/2))
	}
	hand := scene.Hand{Owner: "S", Elbow: board.V(130, 642), Wrist: board.V(110, 372),
		Fingertip: board.V(20, at.Y-23), ArmWidth: 73, HandWidth: 87, Z: 13}
	run := func(found board.Vec) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-80, 30), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(100, -60), Score: 1, ClassScore: 0.9})
			s := slide(i)
			switch {
			case i < 20:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: s, Score: 1, ClassScore: 1})
			case i <= flick+2:
				// under the aiming hand, then sliding out in front of it
				// for two frames (the hand following)
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: s.Add(board.V(-0.8, -1)),
					Score: 1, ClassScore: 1, Partial: true})
			case i >= gone:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: found, Score: 1, ClassScore: 1})
			}
			if i >= 20 && i < gone {
				h := hand
				d := slide(min(i, flick+2)).Sub(at)
				if i > flick+2 {
					d = found.Sub(at) // over where it lies
				}
				h.Elbow, h.Wrist, h.Fingertip = h.Elbow.Add(d), h.Wrist.Add(d), h.Fingertip.Add(d)
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{h}}
			}
		})
	}
	count := func(evs []events.Event, ty events.Type) []events.Event {
		var out []events.Event
		for _, e := range evs {
			if e.Type == ty {
				out = append(out, e)
			}
		}
		return out
	}

	// Where the slide stops, to a millimetre.
	evs := run(slide(end).Add(board.V(0.6, -0.4)))
	starts, ends := count(evs, events.StrokeStart), count(evs, events.StrokeEnd)
	if len(starts) != 1 || len(ends) != 1 {
		t.Fatalf("found where its slide stops: %d stroke starts and %d ends, want one each: %v", len(starts), len(ends), evs)
	}
	if s := starts[0]; s.Side == nil || *s.Side != board.S || s.StrikerMM == nil || s.StrikerMM.Vec().Dist(at) > 3 ||
		math.Abs(s.T-(flick+0.5)/fps) > 1.0/fps {
		t.Errorf("stroke start %+v: want side S at about %.3f s, the striker at %v", s, (flick+0.5)/fps, at)
	}
	held := false
	for _, d := range ends[0].Doubts {
		held = held || d.Kind == events.DoubtViewCovered && strings.Contains(d.Reason, "two frames only")
	}
	if !held {
		t.Errorf("stroke end doubts %+v: want the two sightings said (view_covered)", ends[0].Doubts)
	}
	inTimeOrder(t, evs)

	// Put down by the hand elsewhere: beyond where the slide would stop,
	// and beside its line.
	for _, p := range []board.Vec{slide(end).Add(board.V(0, 120)), slide(end).Add(board.V(45, 0)), at.Add(board.V(0, 8))} {
		if s := count(run(p), events.StrokeStart); len(s) != 0 {
			t.Errorf("found at %v, not where its slide stops (%v): carried, want no stroke; got %v", p, slide(end), s)
		}
	}
}

// At 15 fps a hard stroke can be missed whole: the striker, under the
// aiming hand, is next seen far away by a pocket, once, and a disc that
// lay still on its way vanished from its place in plain view. A stroke
// whose start was not seen: it ends with a start_unseen doubt that says
// what was seen. The striker seen far away with every disc still in its
// place is no such stroke (a hand may carry it).
func TestStrokeStartUnseenAtLowFPS(t *testing.T) {
	const (
		fps   = 15
		cover = 30 // the hand covers the striker from here
		far   = 35 // the striker is seen once by the NE pocket
		end   = 60
	)
	g := board.ICF()
	at := board.V(100, g.BaseCircleY())
	q := board.V(286, -199)
	pk := g.Pocket(board.NE).C
	nearPk := pk.Add(at.Sub(pk).Unit().Scale(40))
	hand := scene.Hand{Owner: "S", Elbow: board.V(130, 642), Wrist: board.V(110, 372),
		Fingertip: board.V(100, at.Y-5), ArmWidth: 73, HandWidth: 87, Z: 13}
	run := func(queenGoes bool) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9})
			if !queenGoes || i < far-1 {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Queen, MM: q, Score: 1, ClassScore: 0.9})
			}
			switch {
			case i < cover:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: at, Score: 1, ClassScore: 1, Partial: i >= 20})
			case i == far:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: nearPk, Score: 1, ClassScore: 0.8})
			}
			if i >= 20 && i < far+3 {
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{hand}}
			}
		})
	}
	evs := run(true)
	ends := strokeEnds(evs)
	if len(ends) != 1 {
		t.Fatalf("the queen vanished and the striker is seen by a pocket: %d stroke ends, want one: %v", len(ends), evs)
	}
	if !saysStartUnseen(ends[0].Doubts, "Q vanished", "the striker") {
		t.Errorf("stroke end doubts %+v: want start_unseen saying the striker and Q were seen", ends[0].Doubts)
	}
	for _, e := range run(false) {
		if e.Type == events.StrokeEnd || e.Type == events.StrokeStart {
			t.Errorf("nothing vanished: want no stroke, got %v", e)
		}
	}
}

// A disc lost from sight in plain view (missing) that comes back
// elsewhere under a hand was moved by that hand — or pocketed in a stroke
// the camera did not see and put back: its moved event carries an
// unaccounted doubt (the referee holds it). One the hand covered and then
// moved is moved, with no doubt.
func TestMovedAfterLostIsDoubted(t *testing.T) {
	const (
		fps  = 30
		lose = 40  // Q is not seen from here (lost, or under the hand)
		back = 110 // and seen at the centre from here
		end  = 160
	)
	q := board.V(286, -199)
	centre := board.V(0, 1)
	atCentre := scene.Hand{Owner: "S", Elbow: board.V(0, 500), Wrist: board.V(0, 150), Fingertip: board.V(0, 40), ArmWidth: 73, HandWidth: 87, Z: 13}
	overQ := scene.Hand{Owner: "S", Elbow: board.V(286, 300), Wrist: board.V(286, -50), Fingertip: board.V(286, -230), ArmWidth: 73, HandWidth: 87, Z: 13}
	run := func(covered bool) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Striker, MM: board.V(100, 246.6), Score: 1, ClassScore: 1})
			switch {
			case i < lose:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Queen, MM: q, Score: 1, ClassScore: 0.9})
			case i >= back:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Queen, MM: centre, Score: 1, ClassScore: 0.9, Partial: i < 120})
			}
			var hands []scene.Hand
			if covered && i >= lose-5 && i < 100 {
				hands = append(hands, overQ)
			}
			if i >= 100 && i < 120 {
				hands = append(hands, atCentre)
			}
			if len(hands) > 0 {
				f.Occlusion = trackertest.HandMask{Hands: hands}
			}
		})
	}
	for _, covered := range []bool{false, true} {
		var moved []events.Event
		for _, e := range run(covered) {
			if e.Type == events.Moved && e.ID == "Q" {
				moved = append(moved, e)
			}
		}
		if len(moved) != 1 {
			t.Errorf("covered %v: %d moved events for Q, want 1: %v", covered, len(moved), moved)
			continue
		}
		doubted := len(moved[0].Doubts) == 1 && moved[0].Doubts[0].Kind == events.DoubtUnaccounted &&
			strings.Contains(moved[0].Doubts[0].Reason, "lost from sight in plain view")
		if doubted == covered {
			t.Errorf("covered %v: moved doubts %+v; want an unaccounted doubt only when Q was lost in plain view", covered, moved[0].Doubts)
		}
		if err := moved[0].Validate(); err != nil {
			t.Error(err)
		}
	}
}

// The same stroke with the struck disc seen leaving instead of vanishing:
// the striker, under the aiming hand, is next seen far up the board
// sliding on, and the queen, which lay still on its way, is seen moving
// away from her place, then not again (into NW). With the striker seen
// first, the queen's start is left to the striker's flick, which its
// unseen flight from so far cannot be traced to: a stroke whose start was
// not seen, that says so. The striker coming up the board with the queen
// still in her place is no such stroke.
func TestStrokeStartUnseenDiscSeenLeaving(t *testing.T) {
	const (
		fps   = 15
		cover = 30 // the hand covers the striker from here
		far   = 34 // the striker is seen far up the board from here
		end   = 70
	)
	g := board.ICF()
	at := board.V(-60, g.BaseCircleY())
	q := board.V(-130, -140)
	strikerAt := []board.Vec{{X: -92, Y: -172}, {X: -79, Y: -241}, {X: -64, Y: -305}, {X: -52, Y: -343}, {X: -41, Y: -307}, {X: -33, Y: -282}, {X: -28, Y: -271}, {X: -25, Y: -265}}
	queenAt := []board.Vec{{X: -262, Y: -265}, {X: -329, Y: -330}}
	hand := scene.Hand{Owner: "S", Elbow: board.V(-30, 642), Wrist: board.V(-50, 372),
		Fingertip: board.V(-60, at.Y-5), ArmWidth: 73, HandWidth: 87, Z: 13}
	run := func(queenGoes bool) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(150, -170), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(215, 30), Score: 1, ClassScore: 0.9})
			switch k := i - far - 1; {
			case !queenGoes || k < 0:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Queen, MM: q, Score: 1, ClassScore: 0.9})
			case k < len(queenAt):
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Queen, MM: queenAt[k], Score: 1, ClassScore: 0.6})
			}
			switch k := i - far; {
			case i < cover:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: at, Score: 1, ClassScore: 1, Partial: i >= 20})
			case k >= 0:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: strikerAt[min(k, len(strikerAt)-1)], Score: 1, ClassScore: 0.8})
			}
			if i >= 20 && i < far {
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{hand}}
			}
		})
	}
	evs := run(true)
	ends := strokeEnds(evs)
	if len(ends) != 1 {
		t.Fatalf("the striker seen far up the board and the queen seen leaving her place: %d stroke ends, want one: %v", len(ends), evs)
	}
	if !saysStartUnseen(ends[0].Doubts, "Q was seen", "from its place") {
		t.Errorf("stroke end doubts %+v: want start_unseen saying the queen was seen leaving her place", ends[0].Doubts)
	}
	for _, e := range run(false) {
		if e.Type == events.StrokeEnd || e.Type == events.StrokeStart {
			t.Errorf("nothing left its place: want no stroke, got %v", e)
		}
	}
}

// inTimeOrder fails t for every event of evs that comes before the one
// ahead of it.
func inTimeOrder(t *testing.T, evs []events.Event) {
	t.Helper()
	for k := 1; k < len(evs); k++ {
		if evs[k].T < evs[k-1].T {
			t.Errorf("events out of time order: %v before %v", evs[k-1], evs[k])
		}
	}
}

// checkedByType checks that every event is valid and that they come in
// time order, and groups them by type; label (a case's name, or "")
// begins each error.
func checkedByType(t *testing.T, label string, evs []events.Event) map[events.Type][]events.Event {
	t.Helper()
	inTimeOrder(t, evs)
	by := map[events.Type][]events.Event{}
	for _, e := range evs {
		if err := e.Validate(); err != nil {
			if label != "" {
				t.Errorf("%s: %v", label, err)
			} else {
				t.Error(err)
			}
		}
		by[e.Type] = append(by[e.Type], e)
	}
	return by
}

// strokeEnds returns the stroke_end events among evs.
func strokeEnds(evs []events.Event) []events.Event {
	var ends []events.Event
	for _, e := range evs {
		if e.Type == events.StrokeEnd {
			ends = append(ends, e)
		}
	}
	return ends
}

// saysStartUnseen reports whether ds holds a start_unseen doubt whose
// reason contains every one of parts.
func saysStartUnseen(ds []events.Doubt, parts ...string) bool {
	for _, d := range ds {
		if d.Kind != events.DoubtStartUnseen {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && strings.Contains(d.Reason, p)
		}
		if all {
			return true
		}
	}
	return false
}
