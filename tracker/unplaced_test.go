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

// At 15 fps the striker, placed on S's base line by a hand, is never seen
// lying there (the detector missed it at rest) and is first seen 250 mm
// on, sliding at about 0.8 m/s with no hand anywhere near it. It strikes
// a man, who slides toward NE and stops on the pocket's lip. That was a
// stroke (testdata/hunt/n1-man-on-lip at fps15late): the old code started
// none and said nothing — the striker "carried" for checkFlick, and
// checkStruck standing aside for a striker in plain view. Now it starts,
// inferred and held, with the man's move in it. A hand carrying the
// striker in plain view and pushing the man still starts none.
func TestStrikerNeverSeenAtPlaceStrikes(t *testing.T) {
	const (
		fps   = 15
		flick = 30
		end   = 90
		v0    = 1160.0
		decel = 1177.0
	)
	g := board.ICF()
	at := board.V(60, g.BaseCircleY())
	man := board.V(200, -200)
	nek := g.Pocket(board.NE).C
	u := nek.Sub(man).Unit() // the line of centres: toward NE
	const rs, rm = 20.75, 15.9
	ghost := man.Sub(u.Scale(rs + rm))
	dir := ghost.Sub(at).Unit()
	reach := ghost.Sub(at).Len()
	th := (v0 - math.Sqrt(v0*v0-2*decel*reach)) / decel
	vs := v0 - decel*th
	vm := 0.85 * vs * dir.Dot(u) // the man's speed after the blow
	hand := scene.Hand{Owner: "S", Elbow: board.V(90, 642), Wrist: board.V(70, 372),
		Fingertip: board.V(60, at.Y-5), ArmWidth: 73, HandWidth: 87, Z: 13}
	strikerAt := func(tau float64) board.Vec {
		if tau <= 0 {
			return at
		}
		if tau < th {
			return at.Add(dir.Scale(v0*tau - decel*tau*tau/2))
		}
		// after the blow it keeps its speed across the line of centres
		w := dir.Sub(u.Scale(dir.Dot(u)))
		vr := w.Len() * vs
		w = w.Unit()
		tau = min(tau-th, vr/decel)
		return ghost.Add(w.Scale(vr*tau - decel*tau*tau/2))
	}
	manAt := func(tau float64) board.Vec {
		if tau <= th {
			return man
		}
		tau = min(tau-th, vm/decel)
		return man.Add(u.Scale(vm*tau - decel*tau*tau/2))
	}
	// carried: a hand holds the striker over its whole way (the same path)
	run := func(carried bool) []events.Event {
		return playFrames(t, end, fps, func(i int, f *sight.Frame) {
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.Black, MM: board.V(-150, 100), Score: 1, ClassScore: 0.9})
			tau := (float64(i)-float64(flick))/fps + 0.5/fps
			p := strikerAt(tau)
			if p.Dist(at) > 250 {
				f.Detections = append(f.Detections, sight.Detection{Kind: board.Striker, MM: p, Score: 1, ClassScore: 1})
			}
			f.Detections = append(f.Detections, sight.Detection{Kind: board.White, MM: manAt(tau), Score: 1, ClassScore: 0.9})
			switch {
			case carried && tau > 0:
				h := hand
				d := p.Sub(at)
				h.Elbow, h.Wrist, h.Fingertip = h.Elbow.Add(d), h.Wrist.Add(d), p.Add(board.V(0, 5))
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{h}}
			case i < 12:
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{hand}}
			}
		})
	}
	evs := run(false)
	by := checkedByType(t, "", evs)
	starts, ends := by[events.StrokeStart], by[events.StrokeEnd]
	if len(starts) != 1 || len(ends) != 1 {
		t.Fatalf("the striker never seen at its place strikes the man: %d stroke starts and %d ends, want one each: %v", len(starts), len(ends), evs)
	}
	if st := starts[0]; *st.Side != board.S || !st.Inferred {
		t.Errorf("stroke start %+v: want side S, inferred", st)
	}
	said := false
	for _, d := range ends[0].Doubts {
		said = said || d.Kind == events.DoubtStartUnseen && strings.Contains(d.Reason, "not seen at its place before this stroke")
	}
	if !said {
		t.Errorf("stroke end doubts %+v: want the unseen place said (held)", ends[0].Doubts)
	}
	w1 := false
	for _, p := range ends[0].Pieces {
		if p.Piece == board.White && p.MM.Vec().Dist(manAt(10)) < 10 {
			w1 = true
		}
	}
	if !w1 {
		t.Errorf("stroke end pieces %+v: want the man where he stopped, %v", ends[0].Pieces, manAt(10))
	}
	for _, e := range run(true) {
		if e.Type == events.StrokeStart {
			t.Errorf("a hand carrying the striker pushes the man: want no stroke, got %v", e)
		}
	}
}
