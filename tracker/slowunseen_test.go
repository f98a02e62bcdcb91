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

// At 15 fps a slow striker (1.4 m/s), flicked from under the aiming hand,
// is first seen 180 mm from its place and then in every frame, sliding
// on the line from its place and losing speed as the board's friction
// takes it; it knocks a man lying by the NE pocket in between two frames
// more than 0.25 s after that first sighting. That is a stroke: struck
// from its place, its start not seen (held), the man pocketed.
func TestSlowStrikerFirstSeenFar(t *testing.T) {
	const (
		fps   = 15
		flick = 40 // the striker leaves its place (between frames 39 and 40)
		end   = 110
		v0    = 1400.0
		decel = 1177.0
	)
	g := board.ICF()
	at := board.V(100, g.BaseCircleY())
	man := manByNE(at)
	dir := man.Sub(at).Unit()
	reach := man.Sub(at).Len() - 2*20.0
	hand := scene.Hand{Owner: "S", Elbow: board.V(130, 642), Wrist: board.V(110, 372),
		Fingertip: board.V(100, at.Y-5), ArmWidth: 73, HandWidth: 87, Z: 13}
	// The striker leaves its place half a frame before frame flick; it
	// touches the man after th, and goes on at 0.4 of its speed then.
	th := (v0 - math.Sqrt(v0*v0-2*decel*reach)) / decel
	vh := 0.4 * (v0 - decel*th)
	way := func(i int) float64 {
		tau := float64(i-flick)/fps + 0.5/fps
		if tau <= 0 {
			return 0
		}
		if tau < th {
			return v0*tau - decel*tau*tau/2
		}
		tau = min(tau-th, vh/decel)
		return reach + vh*tau - decel*tau*tau/2
	}
	hit := flick
	for way(hit) < reach {
		hit++
	}
	// mode: 0 struck; 1 its line 60 mm beside its place; 2 carried at a
	// steady 0.6 m/s along that line (no friction slide); 3 set down
	// 300 mm on, still.
	run := func(mode int) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9})
			d := way(i)
			p := at.Add(dir.Scale(d))
			switch mode {
			case 1:
				if i >= flick {
					p = p.Add(board.V(dir.Y, -dir.X).Scale(60))
				}
			case 2:
				d = max(0, float64(i-flick)/fps*600+150)
				p = at.Add(dir.Scale(d))
			case 3:
				d = 300
				p = at.Add(dir.Scale(d))
			}
			if i < flick-8 || i >= flick && d > 150 {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: p, Score: 1, ClassScore: 1})
			}
			if i >= flick-8 && i < flick+3 {
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{hand}}
			}
			if i < hit || mode != 0 {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: man, Score: 1, ClassScore: 0.9})
			}
		})
	}
	evs := run(0)
	by := checkedByType(t, "", evs)
	starts, ends, pocketed := by[events.StrokeStart], by[events.StrokeEnd], by[events.Pocketed]
	if len(starts) != 1 || len(ends) != 1 {
		t.Fatalf("the striker struck from its place, first seen 217 mm on: %d stroke starts and %d ends, want one each: %v", len(starts), len(ends), evs)
	}
	if st := starts[0]; *st.Side != board.S || st.StrikerMM.Vec().Dist(at) > 5 || math.Abs(st.T-(float64(flick)-0.5)/fps) > 1.0/fps {
		t.Errorf("stroke start %+v: want side S at its place %v about frame %d", st, at, flick)
	}
	if len(pocketed) != 1 || *pocketed[0].Pocket != board.NE || *pocketed[0].Piece != board.White || pocketed[0].T < starts[0].T || pocketed[0].T > ends[0].T {
		t.Errorf("want the man pocketed in NE within the stroke: %v", pocketed)
	}
	if !saysStartUnseen(ends[0].Doubts, "last seen at its place at frame 31", "next seen at frame 42", "sliding away on the line from its place") {
		t.Errorf("stroke end doubts %+v: want the unseen start said (held)", ends[0].Doubts)
	}
	for mode, what := range []string{1: "its line beside its place", 2: "carried at a steady speed", 3: "set down still"} {
		if mode == 0 {
			continue
		}
		for _, e := range run(mode) {
			if e.Type == events.StrokeStart || e.Type == events.StrokeEnd {
				t.Errorf("the striker first seen far, %s: want no stroke, got %v", what, e)
			}
		}
	}
}
