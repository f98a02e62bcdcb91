package tracker

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// At 15 fps a whole stroke may fall between two frames: the striker, under
// the aiming hand at its place in one frame, is gone in the next, and so
// is the man by the NE pocket it struck; nothing is seen moving, and
// neither comes back. That is a stroke whose start and flight were not
// seen: a stroke_end with no stroke_start, its start_unseen doubt naming
// both, the man pocketed in NE (inferred), the striker unaccounted for.
// The same man missed for less than MissingTime (a detector drop-out) is
// nothing; so is a man vanished while the striker is seen again at its
// place once the hand has gone.
func TestStrokeBetweenTwoFrames(t *testing.T) {
	const (
		fps   = 15
		flick = 30 // the first frame without the striker and the man
		lift  = 34 // the hand leaves
		end   = 75
	)
	g := board.ICF()
	at := board.V(100, g.BaseCircleY())
	pk := g.Pocket(board.NE).C
	man := pk.Add(pk.Scale(-1).Unit().Scale(50)) // by the NE pocket
	hand := scene.Hand{Owner: "S", Elbow: board.V(130, 642), Wrist: board.V(110, 372),
		Fingertip: board.V(100, at.Y-5), ArmWidth: 73, HandWidth: 87, Z: 13}
	// back: the frame the man is seen again at its place (0: never);
	// strikerBack: the striker is seen at its place once the hand is gone.
	run := func(back int, strikerBack bool) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9})
			if i < flick || back > 0 && i >= back {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: man, Score: 1, ClassScore: 0.9})
			}
			if i < flick || strikerBack && i >= lift {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: at, Score: 1, ClassScore: 1, Partial: i >= 20 && i < lift})
			}
			if i >= 20 && i < lift {
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{hand}}
			}
		})
	}

	evs := run(0, false)
	by := checkedByType(t, "", evs)
	for _, e := range by[events.StrokeStart] {
		t.Errorf("nothing was seen moving: want no stroke_start, got %v", e)
	}
	ends, pocketed := by[events.StrokeEnd], by[events.Pocketed]
	if len(ends) != 1 {
		t.Fatalf("the striker and the man by NE vanished between two frames: %d stroke ends, want one: %v", len(ends), evs)
	}
	if len(pocketed) != 1 || pocketed[0].Pocket == nil || *pocketed[0].Pocket != board.NE || !pocketed[0].Inferred || *pocketed[0].Piece != board.White {
		t.Fatalf("want the man pocketed in NE, inferred: %v", pocketed)
	}
	id := pocketed[0].ID
	var unseen, strikerLost bool
	for _, d := range ends[0].Doubts {
		switch d.Kind {
		case events.DoubtStartUnseen:
			unseen = strings.Contains(d.Reason, id+" (at") && strings.Contains(d.Reason, "the striker (at") &&
				strings.Contains(d.Reason, "vanished from plain view") && strings.Contains(d.Reason, "between frames")
		case events.DoubtUnaccounted:
			strikerLost = strikerLost || len(d.IDs) == 1 && d.IDs[0] == "S"
		}
	}
	if !unseen || !strikerLost {
		t.Errorf("stroke end doubts %+v: want start_unseen naming %s and the striker, and the striker unaccounted for", ends[0].Doubts, id)
	}
	for _, p := range ends[0].Pieces {
		if p.ID == "S" || p.ID == id {
			t.Errorf("stroke end: %s said to be on the board: %+v", p.ID, p)
		}
	}

	// A drop-out of the man (back at its place after 0.7 s) while the
	// striker is in the hand: nothing.
	for _, e := range run(flick+10, false) {
		if e.Type == events.StrokeEnd || e.Type == events.StrokeStart || e.Type == events.Pocketed {
			t.Errorf("a drop-out of 0.7 s: want no stroke, got %v", e)
		}
	}
	// The man lost for good, the striker seen at its place again: no
	// stroke (the striker was not struck). The man is said at the end of
	// the video, lost with no stroke after (sayLostAtEnd): a stroke_end
	// with his unaccounted doubt alone.
	said := 0
	for _, e := range run(0, true) {
		if e.Type == events.StrokeEnd && len(e.Doubts) == 1 && e.Doubts[0].Kind == events.DoubtUnaccounted &&
			strings.Contains(e.Doubts[0].Reason, "before the video ended") {
			said++
			continue
		}
		if e.Type == events.StrokeEnd || e.Type == events.StrokeStart || e.Type == events.Pocketed {
			t.Errorf("the striker seen at its place: want no stroke, got %v", e)
		}
	}
	if said != 1 {
		t.Errorf("the striker seen at its place, the man lost for good: said %d times at the end of the video, want once", said)
	}
}
