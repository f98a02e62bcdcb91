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

// The queen alone on a plain red centre circle of her size is not
// reported at rest (she looks like the print); the striker, flicked from
// S's base line, sends her into the NE pocket, and she is seen only while
// she slides. She is taken for the queen from the moment she is seen
// moving: her pocketing is reported, and the stroke ends with an
// unaccounted doubt saying she was first seen moving (the referee holds
// it). Seen at rest before, she is pocketed with no doubt; sent slower,
// she stops on the board: no doubt either (the outcome does not rest on
// her).
func TestNewcomerFirstSeenMoving(t *testing.T) {
	const (
		fps   = 30
		flick = 40 // the last frame the striker stands at its place
		end   = 110
		v0    = 1500.0 // the striker, mm/s
		decel = 0.12 * 9810
	)
	g := board.ICF()
	at := board.V(0, g.BaseCircleY())
	q0 := board.V(0, 0)
	rs, rq := g.Radius(board.Striker), g.Radius(board.Queen)
	// The striker slides straight at her and stops where it touches her.
	touch := at.Y - (rs + rq) // distance to go
	tc := (v0 - math.Sqrt(v0*v0-2*decel*touch)) / decel
	tFlick := (float64(flick) + 0.5) / fps
	striker := func(tm float64) board.Vec {
		tau := math.Max(0, tm-tFlick)
		if tau >= tc {
			return board.V(0, rs+rq)
		}
		return at.Add(board.V(0, -(v0*tau - decel*tau*tau/2)))
	}
	pk := g.Pocket(board.NE)
	u := pk.C.Sub(q0).Unit()
	hand := scene.Hand{Owner: "S", Elbow: board.V(0, 642), Wrist: board.V(0, 372),
		Fingertip: board.V(0, at.Y+23), ArmWidth: 73, HandWidth: 87, Z: 13}
	type outcome struct {
		pocketed, ends []events.Event
		all            []events.Event
	}
	// seenFrom: the queen moving is seen only from this far from the
	// pocket's centre on (0: all the way).
	run := func(seenAtRest bool, qv, seenFrom float64) outcome {
		queen := func(tm float64) (board.Vec, bool) {
			tau := math.Max(0, tm-tFlick-tc)
			if ts := qv / decel; tau > ts {
				tau = ts
			}
			l := qv*tau - decel*tau*tau/2
			return q0.Add(u.Scale(l)), l < pk.C.Dist(q0)-pk.R // into the pocket's mouth: gone
		}
		evs := playFrames(t, end, fps, func(i int, f *sight.Frame) {
			tm := float64(i) / fps
			f.Detections = append(f.Detections,
				sight.Detection{Kind: board.White, MM: board.V(-150, -100), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Black, MM: board.V(-120, 150), Score: 1, ClassScore: 0.9},
				sight.Detection{Kind: board.Striker, MM: striker(tm), Score: 1, ClassScore: 1})
			if p, on := queen(tm); on {
				moving := tm > tFlick+tc && p.Dist(q0) > 1
				if seenAtRest || moving && (seenFrom == 0 || p.Dist(pk.C) < seenFrom) {
					// (moving, vision is unsure of her colour)
					cs := 0.9
					if moving {
						cs = 0.5
					}
					f.Detections = append(f.Detections, sight.Detection{Kind: board.Queen, MM: p, Score: 0.9, ClassScore: cs})
				}
			}
			if i >= 20 && i <= flick+2 {
				f.Occlusion = trackertest.HandMask{Hands: []scene.Hand{hand}}
			}
		})
		var o outcome
		o.all = evs
		for _, e := range evs {
			switch e.Type {
			case events.Pocketed:
				o.pocketed = append(o.pocketed, e)
			case events.StrokeEnd:
				o.ends = append(o.ends, e)
			}
		}
		return o
	}
	doubtOnQ := func(e events.Event) (events.Doubt, bool) {
		for _, d := range e.Doubts {
			if d.Kind == events.DoubtUnaccounted && len(d.IDs) == 1 && d.IDs[0] == "Q" {
				return d, true
			}
		}
		return events.Doubt{}, false
	}

	// Never seen at rest: pocketed, held.
	o := run(false, 2000, 0)
	if len(o.ends) != 1 {
		t.Fatalf("first seen moving: %d stroke ends, want 1: %v", len(o.ends), o.all)
	}
	if len(o.pocketed) != 1 || o.pocketed[0].ID != "Q" || o.pocketed[0].Pocket == nil || *o.pocketed[0].Pocket != board.NE {
		t.Errorf("first seen moving: pocketed %v, want Q into NE", o.pocketed)
	}
	if d, ok := doubtOnQ(o.ends[0]); !ok || !strings.Contains(d.Reason, "first seen during the stroke") || !strings.Contains(d.Reason, "pocket NE") {
		t.Errorf("first seen moving: stroke end doubts %+v, want an unaccounted doubt on Q saying she was first seen moving and went into NE", o.ends[0].Doubts)
	}
	if err := o.ends[0].Validate(); err != nil {
		t.Error(err)
	}

	// Seen at rest before: pocketed, no doubt.
	o = run(true, 2000, 0)
	if len(o.ends) != 1 || len(o.pocketed) != 1 || o.pocketed[0].ID != "Q" {
		t.Fatalf("seen at rest: %d stroke ends, pocketed %v; want one end, Q pocketed: %v", len(o.ends), o.pocketed, o.all)
	}
	if len(o.ends[0].Doubts) != 0 {
		t.Errorf("seen at rest: stroke end doubts %+v, want none", o.ends[0].Doubts)
	}

	// Stops on the board: no doubt, Q on the board.
	o = run(false, 600, 0)
	if len(o.ends) != 1 || len(o.pocketed) != 0 {
		t.Fatalf("stops on the board: %d stroke ends, pocketed %v; want one end, nothing pocketed: %v", len(o.ends), o.pocketed, o.all)
	}
	if len(o.ends[0].Doubts) != 0 {
		t.Errorf("stops on the board: stroke end doubts %+v, want none", o.ends[0].Doubts)
	}
	onBoard := false
	for _, p := range o.ends[0].Pieces {
		onBoard = onBoard || p.ID == "Q"
	}
	if !onBoard {
		t.Errorf("stops on the board: Q not among the pieces at rest %+v", o.ends[0].Pieces)
	}

	// Seen moving in two frames only, by the pocket: too briefly to take
	// her up; not pocketed, but held (unaccounted, naming Q).
	o = run(false, 2000, 130)
	if len(o.ends) != 1 || len(o.pocketed) != 0 {
		t.Fatalf("seen twice by the pocket: %d stroke ends, pocketed %v; want one end, nothing pocketed: %v", len(o.ends), o.pocketed, o.all)
	}
	if d, ok := doubtOnQ(o.ends[0]); !ok || !strings.Contains(d.Reason, "vanished into pocket NE") {
		t.Errorf("seen twice by the pocket: stroke end doubts %+v, want an unaccounted doubt saying a disc seen as the queen vanished into NE", o.ends[0].Doubts)
	}
}
