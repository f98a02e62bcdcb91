package tracker

import (
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
)

// A man that vanishes from plain view between strokes while the striker
// lies in view (nothing seen moving) and is not seen again is neither
// silently present nor silently gone: the next stroke's end says he is
// unaccounted for (the referee holds that stroke), and only that one.
// Seen again at his place before the stroke ends, he was a detector
// drop-out: nothing is said; seen there for 0.2 s only, he was no man (a
// marking, the striker in the fingers taken for one): nothing either.
func TestVanishedWithStrikerInView(t *testing.T) {
	const (
		fps   = 30
		lose  = 30  // the man is not seen from here
		flick = 120 // the striker is struck (seen sliding)
		again = 260 // and again, from its place
		end   = 400
		v0    = 1000.0 // mm/s
		decel = 1177.0
	)
	g := board.ICF()
	at := board.V(100, g.BaseCircleY())
	man := board.V(-250, -200)
	slide := func(from board.Vec, i, start int, dir float64) board.Vec {
		tau := max(0, min(float64(i-start)/fps, v0/decel))
		return from.Add(board.V(0, dir*(v0*tau-decel*tau*tau/2)))
	}
	striker := func(i int) board.Vec {
		if i < again-60 {
			return slide(at, i, flick, -1)
		}
		return slide(at, i, again, -1) // put back at its place (no hand seen)
	}
	// from: the first frame the man is seen; back: the frame he is seen
	// again at his place (0: never).
	run := func(from, back int) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Striker, MM: striker(i), Score: 1, ClassScore: 1})
			if i >= from && i < lose || back > 0 && i >= back {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: man, Score: 1, ClassScore: 0.9})
			}
		})
	}
	evs := run(0, 0)
	ends := strokeEnds(evs)
	if len(ends) != 2 {
		t.Fatalf("%d stroke ends, want two: %v", len(ends), evs)
	}
	var said []events.Doubt
	for _, d := range ends[0].Doubts {
		if d.Kind == events.DoubtUnaccounted {
			said = append(said, d)
		}
	}
	if len(said) != 1 || len(said[0].IDs) != 1 || !strings.Contains(said[0].Reason, "last seen at frame 29 at (-250, -200) mm") ||
		!strings.Contains(said[0].Reason, "vanished there from plain view before this stroke") {
		t.Errorf("first stroke end doubts %+v: want the man that vanished before the stroke said unaccounted for", ends[0].Doubts)
	}
	for _, p := range ends[0].Pieces {
		if len(said) > 0 && len(said[0].IDs) > 0 && p.ID == said[0].IDs[0] {
			t.Errorf("first stroke end: the lost man said to be on the board: %+v", p)
		}
	}
	if len(ends[1].Doubts) > 0 {
		t.Errorf("second stroke end doubts %+v: the lost man was said once, want nothing more", ends[1].Doubts)
	}
	for _, back := range []int{lose + 20, lose + 60, flick + 10} {
		for _, e := range strokeEnds(run(0, back)) {
			if len(e.Doubts) > 0 {
				t.Errorf("the man seen again at his place at frame %d: want no doubt, got %+v", back, e.Doubts)
			}
		}
	}
	for _, e := range strokeEnds(run(lose-6, 0)) {
		if len(e.Doubts) > 0 {
			t.Errorf("the man seen for 0.2 s: want no doubt, got %+v", e.Doubts)
		}
	}
}

// At 15 fps a stroke seen from its flick knocks a man lying by a pocket
// into it between two frames: he vanishes where the striker reaches him,
// never seen moving. He is pocketed there (inferred), not left unsaid.
func TestKnockedInBetweenFramesAtLowFPS(t *testing.T) {
	const (
		fps   = 15
		flick = 40
		end   = 120
	)
	g := board.ICF()
	at := board.V(100, g.BaseCircleY())
	man := manByNE(at)
	dir := man.Sub(at).Unit()
	reach := man.Sub(at).Len() - 2*20.0 // where the striker touches him (about)
	const v = 2500.0
	hit := flick + int(reach/v*fps) + 1 // the first frame he is not seen
	evs := playFrames(t, end, fps, func(i int, f *sight.Frame) {
		f.Detections = append(f.Detections,
			sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
			sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9})
		d := max(0, min(float64(i-flick)/fps*v, reach))
		f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: at.Add(dir.Scale(d)), Score: 1, ClassScore: 1})
		if i < hit {
			f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: man, Score: 1, ClassScore: 0.9})
		}
	})
	var pocketed []events.Event
	for _, e := range evs {
		if e.Type == events.Pocketed {
			pocketed = append(pocketed, e)
		}
	}
	if len(pocketed) != 1 || *pocketed[0].Pocket != board.NE || !pocketed[0].Inferred || *pocketed[0].Piece != board.White {
		t.Errorf("want the man pocketed in NE, inferred: %v", pocketed)
	}
	if ends := strokeEnds(evs); len(ends) != 1 || len(ends[0].Doubts) != 0 {
		t.Errorf("want one stroke end and nothing unaccounted: %v", ends)
	}
}

// A man lost from plain view with no stroke after it, until the video
// ends, is said at its end: a stroke_end with no stroke_start carrying
// his unaccounted doubt alone (the referee holds it with no outcome). A
// man seen again, a detection seen for 0.2 s only, and a man already
// said at a stroke's end (TestVanishedWithStrikerInView) give nothing.
func TestLostWithNoStrokeAfterSaidAtEnd(t *testing.T) {
	const (
		fps  = 30
		lose = 30
		end  = 200
	)
	g := board.ICF()
	man := board.V(-250, -200)
	run := func(from, back int) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Striker, MM: board.V(100, g.BaseCircleY()), Score: 1, ClassScore: 1})
			if i >= from && i < lose || back > 0 && i >= back {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: man, Score: 1, ClassScore: 0.9})
			}
		})
	}
	evs := run(0, 0)
	ends := strokeEnds(evs)
	if len(ends) != 1 || len(ends[0].Doubts) != 1 {
		t.Fatalf("want one stroke_end saying the lost man, got %v", evs)
	}
	d := ends[0].Doubts[0]
	if d.Kind != events.DoubtUnaccounted || len(d.IDs) != 1 || !strings.Contains(d.Reason, "last seen at frame 29 at (-250, -200) mm") ||
		!strings.Contains(d.Reason, "before the video ended") || ends[0].Frame != end-1 {
		t.Errorf("end of video: want the man said unaccounted for at frame %d, got %+v", end-1, ends[0])
	}
	for _, e := range evs {
		if e.Type == events.StrokeStart {
			t.Errorf("no stroke was seen: want no stroke_start, got %+v", e)
		}
	}
	for _, p := range ends[0].Pieces {
		if p.ID == d.IDs[0] {
			t.Errorf("the lost man said to be on the board: %+v", p)
		}
	}
	if ends := strokeEnds(run(0, lose+60)); len(ends) != 0 {
		t.Errorf("the man seen again: want nothing said, got %v", ends)
	}
	if ends := strokeEnds(run(lose-6, 0)); len(ends) != 0 {
		t.Errorf("the man seen for 0.2 s: want nothing said, got %v", ends)
	}
}
