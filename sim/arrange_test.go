package sim

import (
	"math"
	"sort"
	"testing"

	"github.com/boardcam/boardcam/board"
)

func TestOpeningFollowsTheLaws(t *testing.T) {
	g := board.ICF()
	const eps = 1e-9
	for _, breaker := range board.Sides {
		ps := Opening(g, breaker)
		if len(ps) != 19 {
			t.Fatalf("%s: %d pieces, want 19", breaker, len(ps))
		}
		by := map[string]board.Vec{}
		count := map[board.Kind]int{}
		for _, p := range ps {
			if _, dup := by[p.ID]; dup {
				t.Fatalf("%s: %s twice", breaker, p.ID)
			}
			by[p.ID] = p.Pos
			k, err := board.KindOfID(p.ID)
			if err != nil || k == board.Striker {
				t.Fatalf("%s: bad piece %q", breaker, p.ID)
			}
			count[k]++
			// Every piece inside the outer circle.
			if !g.InsideOuterCircle(p.Pos, g.Radius(k)) {
				t.Errorf("%s: %s at %v is not inside the outer circle", breaker, p.ID, p.Pos)
			}
		}
		if count[board.White] != 9 || count[board.Black] != 9 || count[board.Queen] != 1 {
			t.Fatalf("%s: counts %v", breaker, count)
		}
		if by["Q"].Len() > eps {
			t.Errorf("%s: queen at %v, not the centre", breaker, by["Q"])
		}
		rq, rm := g.QueenDiameter/2, g.ManDiameter/2
		// No two pieces overlap.
		for i, a := range ps {
			for _, b := range ps[i+1:] {
				ka, _ := board.KindOfID(a.ID)
				kb, _ := board.KindOfID(b.ID)
				if d := a.Pos.Dist(b.Pos); d < g.Radius(ka)+g.Radius(kb)-eps {
					t.Errorf("%s: %s and %s overlap", breaker, a.ID, b.ID)
				}
			}
		}
		// Inner ring: the six men touching the queen.
		var inner, outer []string
		for _, p := range ps {
			if p.ID == "Q" {
				continue
			}
			if math.Abs(p.Pos.Len()-(rq+rm)) < eps {
				inner = append(inner, p.ID)
			} else {
				outer = append(outer, p.ID)
			}
		}
		if len(inner) != 6 || len(outer) != 12 {
			t.Fatalf("%s: %d men touch the queen, %d do not; want 6 and 12", breaker, len(inner), len(outer))
		}
		touch := func(a, b string) bool { return math.Abs(by[a].Dist(by[b])-2*rm) < eps }
		sortByAngle := func(ids []string) {
			sort.Slice(ids, func(i, j int) bool {
				return math.Atan2(by[ids[i]].Y, by[ids[i]].X) < math.Atan2(by[ids[j]].Y, by[ids[j]].X)
			})
		}
		sortByAngle(inner)
		sortByAngle(outer)
		colour := func(id string) board.Kind { k, _ := board.KindOfID(id); return k }
		for i, id := range inner {
			next := inner[(i+1)%6]
			if !touch(id, next) {
				t.Errorf("%s: inner men %s and %s do not touch", breaker, id, next)
			}
			if colour(id) == colour(next) {
				t.Errorf("%s: inner ring does not alternate at %s, %s", breaker, id, next)
			}
		}
		for i, id := range outer {
			next := outer[(i+1)%12]
			if colour(id) == colour(next) {
				t.Errorf("%s: outer ring does not alternate at %s, %s", breaker, id, next)
			}
			touches := false
			for _, in := range inner {
				touches = touches || touch(id, in)
			}
			if !touches {
				t.Errorf("%s: outer man %s does not touch the inner ring", breaker, id)
			}
		}
		// The queen, an inner white and an outer white in a straight line
		// pointing at the centre of the breaker's side.
		n := breaker.Normal()
		var inW, outW string
		for _, id := range inner {
			if colour(id) == board.White && by[id].Unit().Dot(n) > 1-eps {
				inW = id
			}
		}
		for _, id := range outer {
			if colour(id) == board.White && by[id].Unit().Dot(n) > 1-eps {
				outW = id
			}
		}
		if inW == "" || outW == "" {
			t.Errorf("%s: no white-white line from the queen toward the breaker", breaker)
		}
	}
}

func TestCentreSpotAvoidsCoveredCentre(t *testing.T) {
	g := board.ICF()
	w := newWorld(g, DefaultPhysics())
	// A man sits on the centre circle.
	w.setFixed(0, 0, board.V(5, 0), "rest")
	p, ok := w.centreSpot(idxQ, 1, board.S)
	if !ok {
		t.Fatal("no spot")
	}
	if d := p.Dist(board.V(5, 0)); d < g.QueenDiameter/2+g.ManDiameter/2 {
		t.Errorf("queen at %v overlaps the man", p)
	}
	if p.Len() > 2*g.ManDiameter+1 {
		t.Errorf("queen at %v is not next to the centre circle", p)
	}
	// Away from the player to strike next (S): toward N.
	if p.Y > 0 {
		t.Errorf("queen put toward the striker's side at %v", p)
	}
	w2 := newWorld(g, DefaultPhysics())
	if p, _ := w2.centreSpot(idxQ, 0, board.S); p != (board.Vec{}) {
		t.Errorf("free centre: queen at %v", p)
	}
}
