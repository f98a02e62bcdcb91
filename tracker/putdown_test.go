package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// A player carries the striker to the base line under the fingers and puts
// it down: it goes out of sight moving (its place then only where its
// slide would end, a guess), and is found again in part where it lies,
// under the fingers on the printed base lines. Its place is where it is
// found, not the guess: the stroke played from there starts from it (a
// guess 12 mm off the base line made a false placement foul in the demo).
func TestPutDownUnderFingers(t *testing.T) {
	const fps = 30
	g := board.ICF()
	from, to := board.V(-40, 100), board.V(-80, g.BaseCircleY())
	const (
		lift   = 30 // the hand takes it
		lost   = 49 // out of sight under the fingers
		down   = 50 // put down
		found  = 53 // an arc of it found beyond the fingertips
		flick  = 90 // struck toward the centre
		gone   = 93 // the hand leaves
		frames = 110
		speed  = 1500.0 // mm/s
	)
	at := func(i int) board.Vec {
		switch {
		case i < lift:
			return from
		case i >= flick:
			return to.Sub(board.V(0, speed*float64(i-flick)/fps))
		case i >= down:
			return to
		}
		return from.Add(to.Sub(from).Scale(float64(i-lift) / float64(down-lift)))
	}
	tk, err := New(Config{Geometry: g})
	if err != nil {
		t.Fatal(err)
	}
	var got []events.Event
	for i := 0; i < frames; i++ {
		f := sight.Frame{Index: i, T: float64(i) / fps, Calibrated: true}
		f.Detections = append(f.Detections,
			sight.Detection{Kind: board.White, MM: board.V(100, -60), Score: 1, ClassScore: 0.9},
			sight.Detection{Kind: board.Black, MM: board.V(-120, -30), Score: 1, ClassScore: 0.9})
		s := at(i)
		switch {
		case i < lift || i >= flick:
			f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: s, Score: 1, ClassScore: 1})
		case i < lost || i >= found:
			f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: s, Score: 1, ClassScore: 1, Partial: true})
		}
		if i >= lift && i < gone {
			h := at(min(i, down))
			f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{{Owner: "S",
				Elbow: h.Add(board.V(40, 420)), Wrist: h.Add(board.V(25, 150)), Fingertip: h.Add(board.V(0, -12)),
				ArmWidth: 73, HandWidth: 87, Z: 13}}}
		}
		u := tk.Update(f)
		got = append(got, u.Events...)
	}
	got = append(got, tk.Flush()...)
	var starts []events.Event
	for _, e := range got {
		if e.Type == events.StrokeStart {
			starts = append(starts, e)
		}
	}
	if len(starts) != 1 || starts[0].StrikerMM == nil {
		t.Fatalf("stroke starts %v, want one", starts)
	}
	if p := starts[0].StrikerMM.Vec(); p.Dist(to) > 1.5 {
		t.Errorf("the stroke starts from (%.1f, %.1f), %.1f mm from where the striker lay (%.1f, %.1f)", p.X, p.Y, p.Dist(to), to.X, to.Y)
	}
}
