package tracker

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// A striker flicked backward from under the fingertips of a hand that
// stays where it is: vision sees an arc of it beyond the fingertips for a
// few frames (partial detections), then it slides on under the palm and
// is seen again at rest once the hand has gone. The hand stayed while
// the striker slid: a stroke, from the base line, ended when the slide
// would have. The same striker moved the same way by a hand that moves
// along with it was carried: no stroke.
func TestFlickFromUnderStillHand(t *testing.T) {
	const (
		fps   = 60
		flick = 150 // the frame of the flick
		gone  = 220 // the hand leaves
		end   = 260
		v0    = 400.0 // mm/s
		decel = 1177.0
	)
	g := board.ICF()
	at := board.V(20, g.BaseCircleY())
	stop := v0 / decel
	slide := func(i int) board.Vec {
		tau := math.Max(0, math.Min(float64(i-flick)/fps, stop))
		return at.Add(board.V(0, v0*tau-decel*tau*tau/2))
	}
	hand := scene.Hand{Owner: "S", Elbow: board.V(130, 642), Wrist: board.V(110, 372),
		Fingertip: board.V(20, at.Y-23), ArmWidth: 73, HandWidth: 87, Z: 13}
	run := func(carried bool) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-80, 30), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(100, -60), Score: 1, ClassScore: 0.9})
			s := slide(i)
			switch {
			case i < 90 || i >= gone:
				// in plain view
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: s, Score: 1, ClassScore: 1})
			case i < flick+5:
				// an arc of it beyond the fingertips, aiming and then
				// sliding from under them (its centre a little off)
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: s.Add(board.V(-0.8, -1)),
					Score: 1, ClassScore: 1, Partial: true})
			}
			if i >= 90 && i < gone {
				h := hand
				if carried {
					d := s.Sub(at)
					h.Elbow, h.Wrist, h.Fingertip = h.Elbow.Add(d), h.Wrist.Add(d), h.Fingertip.Add(d)
				}
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{h}}
			}
		})
	}

	var starts, ends []events.Event
	for _, e := range run(false) {
		switch e.Type {
		case events.StrokeStart:
			starts = append(starts, e)
		case events.StrokeEnd:
			ends = append(ends, e)
		}
	}
	if len(starts) != 1 || len(ends) != 1 {
		t.Fatalf("flicked from under a still hand: %d stroke starts and %d ends, want one each", len(starts), len(ends))
	}
	s, e := starts[0], ends[0]
	if s.Side == nil || *s.Side != board.S || math.Abs(s.T-float64(flick)/fps) > 2.0/fps || s.StrikerMM == nil || s.StrikerMM.Vec().Dist(at) > 3 {
		t.Errorf("stroke start %+v: want side S at %.3f s, the striker at %v", s, float64(flick)/fps, at)
	}
	if want := float64(flick)/fps + stop; math.Abs(e.T-want) > 4.0/fps {
		t.Errorf("stroke end at %.3f s, want about %.3f (when the slide stops)", e.T, want)
	}
	for _, e := range run(true) {
		if e.Type == events.StrokeStart {
			t.Errorf("carried along by a moving hand: %v", e)
		}
	}
}

// playFrames runs a new tracker over frames 0 to end-1 at fps, each
// frame's detections and occlusion set by frame, and returns every event
// it emitted, the flush's included.
func playFrames(t *testing.T, end int, fps float64, frame func(i int, f *sight.Frame)) []events.Event {
	t.Helper()
	tk, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	var got []events.Event
	for i := 0; i < end; i++ {
		f := sight.Frame{Index: i, T: float64(i) / fps, Calibrated: true}
		frame(i, &f)
		got = append(got, tk.Update(f).Events...)
	}
	return append(got, tk.Flush()...)
}
