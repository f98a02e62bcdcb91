package tracker

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// placedRun tracks the dues-placed scenario (N puts two men down, then
// strikes) with edit applied to every frame's detections and returns the
// events.
func placedRun(t *testing.T, edit func(f *sight.Frame, tr *sim.Trace, i int)) (*sim.Trace, []events.Event) {
	t.Helper()
	tr, err := sim.RunFile(scenarioPath(t, "dues-placed.yaml"), sim.Options{FPS: 30})
	if err != nil {
		t.Fatal(err)
	}
	tk, err := New(Config{Geometry: tr.Geometry})
	if err != nil {
		t.Fatal(err)
	}
	syn := trackertest.NewSynth(tr, trackertest.Realistic)
	var got []events.Event
	for i := range tr.NumFrames() {
		f, _ := syn.Frame(i)
		edit(&f, tr, i)
		got = append(got, tk.Update(f).Events...)
	}
	return tr, append(got, tk.Flush()...)
}

// phantomSpot is a point the placing hand's forearm lies over for a while
// during the first placement, and the frames it covers it in.
func phantomSpot(t *testing.T, tr *sim.Trace) (board.Vec, int, int) {
	t.Helper()
	for i := range tr.NumFrames() {
		sc := tr.Frame(i)
		if len(sc.Hands) == 0 || tr.FrameTime(i) < 1 {
			continue
		}
		h := sc.Hands[0]
		p := h.Elbow.Add(h.Wrist).Scale(0.5)
		if math.Abs(p.X) > 300 || math.Abs(p.Y) > 300 {
			continue
		}
		m := trackertest.HandMask{Hands: sc.Hands}
		lo, hi := i, i
		for hi+1 < tr.NumFrames() && m.Hidden(p, 15.9) > 0.6 {
			hi++
			m = trackertest.HandMask{Hands: tr.Frame(hi).Hands}
		}
		if hi-lo >= 8 {
			return p, lo, hi
		}
	}
	t.Fatal("no frames with a forearm lying still over the board")
	return board.Vec{}, 0, 0
}

// Something under a forearm seen as a disc half under the hand (a
// marking, the hand's edge) is no disc put down: when the forearm leaves
// and nothing is there, no placed event is reported for it. A disc really
// put down there, seen whole once the hand has gone, is.
func TestPlacedNeedsTheDisc(t *testing.T) {
	for _, real := range []bool{false, true} {
		var spot board.Vec
		var lo, hi int
		tr, got := placedRun(t, func(f *sight.Frame, tr *sim.Trace, i int) {
			if i == 0 {
				spot, lo, hi = phantomSpot(t, tr)
			}
			switch {
			case i >= lo && i < lo+6:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Queen, MM: spot, Score: 1, ClassScore: 1, Partial: true})
			case real && i > hi+3:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Queen, MM: spot, Score: 1, ClassScore: 1})
			}
		})
		n := 0
		for _, e := range got {
			if e.Type == events.Placed && e.Piece != nil && *e.Piece == board.Queen {
				n++
				if e.MM == nil || e.MM.Vec().Dist(spot) > 3 {
					t.Errorf("real %v: the queen placed at %v, want %v", real, e.MM, spot)
				}
			}
		}
		if want := map[bool]int{false: 0, true: 1}[real]; n != want {
			t.Errorf("real %v: %d queens placed (the spot under the forearm in frames %d-%d), want %d", real, n, lo, hi, want)
		}
		// The men put down are still reported.
		st := matchEvents(tr.Events, got, tolerance{events.Placed: tr.FPS / 2})
		if s := st[events.Placed]; s.fn > 0 {
			t.Errorf("real %v: %d of the men placed missed\n%s", real, s.fn, statsReport(st))
		}
	}
}

// A disc that appears just after the striker left its place, while the
// stroke is not recognised yet (the hand that flicked not seen: the
// striker's first sightings taken for no disc), was not put down between
// strokes: no placed event.
func TestNoPlacedDuringUnrecognisedFlick(t *testing.T) {
	var flick float64
	tr, got := placedRun(t, func(f *sight.Frame, tr *sim.Trace, i int) {
		if i == 0 {
			for _, e := range tr.Events {
				if e.Type == events.StrokeStart {
					flick = e.T
				}
			}
		}
		if f.T > flick-0.5 {
			f.Occlusion = nil // vision misses the hand
		}
		if f.T > flick+0.02 && f.T < flick+1.5 {
			// Something in the hand that flicked, seen as a black man.
			f.Detections = append(f.Detections, sight.Detection{Kind: board.Black, MM: board.V(-185, -315), Score: 1, ClassScore: 1})
		}
	})
	if flick == 0 {
		t.Fatal("no stroke in the scenario")
	}
	for _, e := range got {
		if e.Type == events.Placed && e.T > flick {
			t.Errorf("placed %v at %.3f s, after the flick at %.3f s", e.ID, e.T, flick)
		}
	}
	st := matchEvents(tr.Events, got, tolerance{events.StrokeStart: 3, events.Placed: tr.FPS / 2})
	for typ, s := range st {
		if s.fn > 0 {
			t.Errorf("%s: %d missed\n%s", typ, s.fn, statsReport(st))
		}
	}
}

// A man put down by a hand where the board was bare is tracked from his
// second sighting at rest there, not after ConfirmTime, and reported
// placed when he was first seen. Something seen twice as the hand leaves
// (a fingertip) that is not there once its place is in plain view is
// given back: no placed event, its identity free again.
func TestPlacedTakenUpEarly(t *testing.T) {
	tk, err := New(Config{ConfirmTime: 0.2}) // 6 frames at 30 fps
	if err != nil {
		t.Fatal(err)
	}
	w, man, tip := board.V(0, 50), board.V(-120, 80), board.V(-80, 95)
	far := discOcclusion{c: board.V(330, 330), r: 5}
	var got []events.Event
	tracked := func(ps []Piece, k board.Kind, p board.Vec) bool {
		pc, ok := pieceAt(ps, k, p)
		return ok && pc.Seen
	}
	for i := 0; i < 120; i++ {
		occ := far
		ds := []sight.Detection{det(board.White, w, 1)}
		switch {
		case i >= 45 && i < 60:
			occ = discOcclusion{c: board.V(-100, 90), r: 50} // the hand over both spots
		case i >= 60:
			ds = append(ds, det(board.Black, man, 1))
			if i < 62 {
				ds = append(ds, det(board.White, tip, 0.9))
			}
		}
		u := tk.Update(frameAt(i, occ, ds...))
		got = append(got, u.Events...)
		switch i {
		case 60:
			if tracked(u.Pieces, board.Black, man) {
				t.Errorf("frame 60: the man seen once is tracked already")
			}
		case 61:
			if !tracked(u.Pieces, board.Black, man) {
				t.Errorf("frame 61: the man put down, seen twice at rest, is not tracked")
			}
			if !tracked(u.Pieces, board.White, tip) {
				t.Errorf("frame 61: the fingertip, seen twice at rest, is not taken up (the test tests nothing)")
			}
		case 64, 100:
			if _, ok := pieceAt(u.Pieces, board.White, tip); ok {
				t.Errorf("frame %d: the fingertip is still tracked", i)
			}
			n := 0
			for _, pc := range u.Pieces {
				if pc.State != Unseen {
					n++
				}
			}
			if n != 2 {
				t.Errorf("frame %d: %d identities in use, want 2", i, n)
			}
		}
	}
	got = append(got, tk.Flush()...)
	var placed []events.Event
	for _, e := range got {
		if e.Type == events.Placed {
			placed = append(placed, e)
		}
	}
	if len(placed) != 1 || *placed[0].Piece != board.Black || placed[0].MM.Vec().Dist(man) > 1 || math.Abs(placed[0].T-2) > 1e-9 {
		t.Errorf("placed events %v, want the black man at %v at 2 s", placed, man)
	}
}
