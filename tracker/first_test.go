package tracker

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/sight"
)

// discOcclusion is a hand mask: one round blot.
type discOcclusion struct {
	c board.Vec
	r float64
}

func (o discOcclusion) Hidden(c board.Vec, r float64) float64 {
	d := c.Dist(o.c)
	switch {
	case d >= o.r+r:
		return 0
	case d+r <= o.r:
		return 1
	}
	return (o.r + r - d) / (2 * r) // roughly the share under the blot
}

// frameAt is frame i at 30 fps with the given detections and mask.
func frameAt(i int, occ sight.Occlusion, dets ...sight.Detection) sight.Frame {
	if occ == (discOcclusion{}) {
		occ = nil
	}
	return sight.Frame{Index: i, T: float64(i) / 30, Calibrated: true, Detections: dets, Occlusion: occ}
}

func det(k board.Kind, p board.Vec, score float64) sight.Detection {
	return sight.Detection{Kind: k, MM: p, Score: score, ClassScore: 0.9}
}

func pieceAt(ps []Piece, k board.Kind, p board.Vec) (Piece, bool) {
	for _, q := range ps {
		if q.Kind == k && q.State.OnBoard() && q.MM.Dist(p) < 3 {
			return q, true
		}
	}
	return Piece{}, false
}

// In the first frame in which the board is found, discs detected
// confidently and whole, with no hand near, are tracked at once (the queen
// on the centre circle at the half score vision gives her there too);
// unsure, partial or half-covered ones wait ConfirmTime as every new disc
// does. A
// disc of that first frame not seen again in the next one was nothing (or
// moving): its identity is given back, and nothing is reported.
func TestFirstFrameAtOnce(t *testing.T) {
	tk, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	w, b, q := board.V(0, 50), board.V(60, -20), board.V(0, 0)
	ghost, partial, hand, unsure := board.V(-150, 100), board.V(200, 200), board.V(-200, -200), board.V(-100, -150)
	occ := discOcclusion{c: hand.Add(board.V(30, 0)), r: 25} // over part of the disc at hand
	var got []events.Event
	for i := 0; i < 45; i++ {
		ds := []sight.Detection{det(board.White, w, 1), det(board.Black, b, 0.95),
			det(board.Queen, q, 0.5), // alone on the centre circle: vision halves her score
			det(board.Black, hand, 1), det(board.White, unsure, 0.5)}
		p := det(board.White, partial, 1)
		p.Partial = true
		ds = append(ds, p)
		if i == 0 {
			ds = append(ds, det(board.White, ghost, 1))
		}
		u := tk.Update(frameAt(i, occ, ds...))
		got = append(got, u.Events...)
		switch i {
		case 0:
			for _, c := range []struct {
				k    board.Kind
				p    board.Vec
				want bool
			}{{board.White, w, true}, {board.Black, b, true}, {board.White, ghost, true},
				{board.Queen, q, true}, {board.White, unsure, false}, {board.White, partial, false}, {board.Black, hand, false}} {
				pc, ok := pieceAt(u.Pieces, c.k, c.p)
				if ok != c.want || ok && !pc.Seen {
					t.Errorf("frame 0: %s at %v tracked and seen: %v (%+v), want %v", c.k, c.p, ok && pc.Seen, pc, c.want)
				}
			}
		case 1:
			if _, ok := pieceAt(u.Pieces, board.White, ghost); ok {
				t.Errorf("frame 1: the disc of frame 0 not seen again is still tracked")
			}
			n := 0
			for _, pc := range u.Pieces {
				if pc.State != Unseen {
					n++
				}
			}
			if n != 3 {
				t.Errorf("frame 1: %d identities in use, want 3 (the ghost's given back)", n)
			}
		case 2:
			// The others, seen in three frames, are tracked now.
			for _, c := range []struct {
				k board.Kind
				p board.Vec
			}{{board.White, unsure}, {board.White, partial}, {board.Black, hand}} {
				if pc, ok := pieceAt(u.Pieces, c.k, c.p); !ok || !pc.Seen {
					t.Errorf("frame 2: %s at %v not tracked", c.k, c.p)
				}
			}
		}
	}
	got = append(got, tk.Flush()...)
	if len(got) != 0 {
		t.Errorf("events %v, want none", got)
	}
}

// A disc sliding in the first frame is taken up at once there, then given
// back when it is not where it was in the next frame; it is tracked where
// it comes to rest, once, with no event.
func TestFirstFrameMovingDisc(t *testing.T) {
	tk, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	var got []events.Event
	var end board.Vec
	for i := 0; i < 45; i++ {
		p := board.V(-200+20*float64(min(i, 10)), 100) // 600 mm/s for a third of a second
		end = p
		u := tk.Update(frameAt(i, nil, det(board.Black, p, 1), det(board.White, board.V(0, 0), 1)))
		got = append(got, u.Events...)
	}
	got = append(got, tk.Flush()...)
	ps := tk.Pieces()
	n := 0
	for _, pc := range ps {
		if pc.Kind == board.Black && pc.State != Unseen {
			n++
			if !pc.State.OnBoard() || pc.MM.Dist(end) > 3 || !pc.Seen {
				t.Errorf("the black man at %v (seen %v), want seen at %v", pc.MM, pc.Seen, end)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d identities of black men in use, want 1", n)
	}
	if len(got) != 0 {
		t.Errorf("events %v, want none", got)
	}
}

// A disc born into an identity that was displaced when it left the board
// (struck away unseen from its place) is looked for at its new place.
func TestBornClearsDisplaced(t *testing.T) {
	tk, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	tk.Update(frameAt(0, nil, det(board.White, board.V(0, 0), 1)))
	i := 0
	tr := &tk.tracks[i]
	tr.state, tr.displaced, tr.offT = Pocketed, true, 0
	tk.born(i, &candidate{p: board.V(100, 100), hits: 3, firstT: tk.t}, bornOffBoard)
	if tr.displaced {
		t.Fatal("the identity taken up again is still marked displaced")
	}
	for k := 1; k < 5; k++ {
		u := tk.Update(frameAt(k, nil, det(board.White, board.V(100, 100), 1), det(board.White, board.V(0, 0), 1)))
		if !u.Pieces[i].Seen {
			t.Errorf("frame %d: %s not seen at its new place", k, u.Pieces[i].ID)
		}
	}
}

// Between strokes, a man's resting place that the detector sees, surely
// and for half a second, holding the striker — the striker seen nowhere
// else — holds the striker: the man is missing (struck away unseen) and
// the striker is tracked there; its move with no stroke and no hand seen is
// said (strokeless.go). Seen so for less time, or with the striker seen
// elsewhere, the man stays and nothing is reported.
func TestStrikerTakesAManPlace(t *testing.T) {
	for _, c := range []struct {
		name      string
		frames    int  // frames the man's place is seen as the striker
		elsewhere bool // the striker stays in view at its own place
		takes     bool
	}{
		{"half a second", 60, false, true},
		{"a moment", 10, false, false},
		{"striker in view", 60, true, false},
	} {
		tk, err := New(Config{})
		if err != nil {
			t.Fatal(err)
		}
		man, base := board.V(40, 60), board.V(0, 246.6)
		var got []events.Event
		var last []Piece
		for i := 0; i < 45+c.frames; i++ {
			ds := []sight.Detection{det(board.Black, board.V(-100, 0), 1)}
			d := det(board.White, man, 1)
			if i >= 45 {
				d.Kind, d.ClassScore = board.Striker, 1
			}
			if i < 45 || c.elsewhere {
				s := det(board.Striker, base, 1)
				s.ClassScore = 1
				ds = append(ds, s)
			}
			u := tk.Update(frameAt(i, nil, append(ds, d)...))
			got = append(got, u.Events...)
			last = u.Pieces
		}
		got = append(got, tk.Flush()...)
		s := last[idxS]
		var w Piece
		for _, pc := range last {
			if pc.Kind == board.White && pc.State != Unseen {
				w = pc
			}
		}
		if took := s.Seen && s.MM.Dist(man) < 3; took != c.takes {
			t.Errorf("%s: the striker %+v, the man %+v; want the striker at the man's place: %v", c.name, s, w, c.takes)
		}
		if c.takes && w.State != Missing {
			t.Errorf("%s: the man %+v, want missing", c.name, w)
		}
		if !c.takes && (w.State != Rest || !w.Seen) {
			t.Errorf("%s: the man %+v, want at rest where it lies", c.name, w)
		}
		// Taken, the striker lies 190 mm from its place off every base
		// line with no hand seen: a stroke not seen, said on one held
		// stroke_end (strokeless.go). Else nothing is reported.
		if c.takes {
			if len(got) != 1 || got[0].Type != events.StrokeEnd || len(got[0].Doubts) != 1 || got[0].Doubts[0].Kind != events.DoubtStartUnseen || got[0].Doubts[0].IDs[0] != "S" {
				t.Errorf("%s: events %v, want one stroke_end saying S moved with no stroke seen", c.name, got)
			}
		} else if len(got) != 0 {
			t.Errorf("%s: events %v, want none", c.name, got)
		}
	}
}
