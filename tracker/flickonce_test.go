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

// At 15 fps, frames half an interval late, a backward flick is seen once:
// the striker, under the aiming hand at its place, is seen one frame later
// 18 mm behind it (partial, beside the hand), then the hand that follows
// it covers it, and it is next seen lying 68 mm behind its place (the
// corpus' backward-flick at fps15late). Found on that line where such a
// flick stops: one stroke from its place, held for the umpire (a
// view_covered doubt saying it was seen once). Found anywhere else, or
// still moving, or too late, or seen leaving along its base line: no
// stroke (a hand re-placing it).
func TestFlickSeenOnceUnderFollowingHand(t *testing.T) {
	const (
		fps   = 15
		flick = 40 // the last frame the striker stands at its place
		end   = 75
		v0    = 400.0 // mm/s
		decel = 1177.0
	)
	g := board.ICF()
	at := board.V(20, g.BaseCircleY())
	stop := v0 / decel
	back := board.S.Normal()
	// The flick happens a quarter of a frame after frame flick: the next
	// frame sees it about 18 mm from its place.
	slide := func(i int) board.Vec {
		tau := math.Max(0, math.Min((float64(i)-flick-0.25)/fps, stop))
		return at.Add(back.Scale(v0*tau - decel*tau*tau/2))
	}
	hand := scene.Hand{Owner: "S", Elbow: board.V(130, 642), Wrist: board.V(110, 372),
		Fingertip: board.V(20, at.Y-23), ArmWidth: 73, HandWidth: 87, Z: 13}
	type play struct {
		once  board.Vec // the one sighting off its place (frame flick+1)
		found board.Vec // where it is found from frame gone
		gone  int       // the hand leaves
		drift board.Vec // how far it moves on per frame once found (three frames)
		twice bool      // seen in frame flick+2 too
	}
	run := func(p play) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-80, 30), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(100, -60), Score: 1, ClassScore: 0.9})
			switch {
			case i < 20:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: at, Score: 1, ClassScore: 1})
			case i <= flick:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: at.Add(board.V(-0.5, 0.4)),
					Score: 1, ClassScore: 1, Partial: true})
			case i == flick+1:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: p.once,
					Score: 1, ClassScore: 1, Partial: true})
			case i == flick+2 && p.twice:
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: slide(i),
					Score: 1, ClassScore: 1, Partial: true})
			case i >= p.gone:
				q := p.found.Add(p.drift.Scale(float64(min(i-p.gone, 3))))
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: q, Score: 1, ClassScore: 1})
			}
			if i >= 20 && i < p.gone {
				// Over the striker's place, then following it (over
				// where it lies).
				h := hand
				d := board.Vec{}
				if i > flick {
					d = p.found.Sub(at)
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

	flicked := play{once: slide(flick + 1), found: slide(end).Add(board.V(0.6, -0.4)), gone: flick + 9}
	if d := flicked.once.Dist(at); d < 15 || d > 22 {
		t.Fatalf("the one sighting lies %.1f mm from the place, want about 18 (the scene is off)", d)
	}
	evs := run(flicked)
	starts, ends := count(evs, events.StrokeStart), count(evs, events.StrokeEnd)
	if len(starts) != 1 || len(ends) != 1 {
		t.Fatalf("found where the flick stops: %d stroke starts and %d ends, want one each: %v", len(starts), len(ends), evs)
	}
	tf := (flick + 0.25) / fps
	if s := starts[0]; s.Side == nil || *s.Side != board.S || s.StrikerMM == nil || s.StrikerMM.Vec().Dist(at) > 3 ||
		s.T < float64(flick)/fps-1e-9 || s.T > float64(flick+1)/fps+1e-9 || math.Abs(s.T-tf) > 1.0/fps {
		t.Errorf("stroke start %+v: want side S at about %.3f s, the striker at %v", s, tf, at)
	}
	if e := ends[0]; len(count(evs, events.FrontLineCrossed)) != 0 {
		t.Errorf("a backward flick crossed the front line: %v", e)
	}
	held := false
	for _, d := range ends[0].Doubts {
		held = held || d.Kind == events.DoubtViewCovered && strings.Contains(d.Reason, "seen once only") &&
			strings.Contains(d.Reason, "behind its place")
	}
	if !held {
		t.Errorf("stroke end doubts %+v: want the one sighting said (view_covered)", ends[0].Doubts)
	}
	inTimeOrder(t, evs)

	// Not such a flick: no stroke.
	sideways := at.Add(board.V(18, 0))
	for _, c := range []struct {
		why string
		p   play
	}{
		{"found beside the line", play{once: flicked.once, found: flicked.found.Add(board.V(40, 0)), gone: flicked.gone}},
		{"found short of the sighting's way on", play{once: flicked.once, found: flicked.once.Add(back.Scale(2)), gone: flicked.gone}},
		{"found still moving (carried)", play{once: flicked.once, found: flicked.found, gone: flicked.gone, drift: back.Scale(8)}},
		{"found after flickFindTime", play{once: flicked.once, found: flicked.found, gone: flick + 1 + 32}},
		{"seen leaving along its base line, found farther along it", play{once: sideways, found: at.Add(board.V(68, 0)), gone: flicked.gone}},
	} {
		if s := count(run(c.p), events.StrokeStart); len(s) != 0 {
			t.Errorf("%s: want no stroke, got %v", c.why, s)
		}
	}
}
