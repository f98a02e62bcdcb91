package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// table is a board for the policy: every disc on the board except those
// listed off.
func table(off ...string) []scene.Disc {
	var ds []scene.Disc
	for _, id := range board.PieceIDs() {
		k, _ := board.KindOfID(id)
		d := scene.Disc{ID: id, Kind: k, State: scene.Rest}
		for _, o := range off {
			if o == id {
				d.State = scene.Pocketed
			}
		}
		ds = append(ds, d)
	}
	return ds
}

func pots(ids ...string) []PocketedPiece {
	var out []PocketedPiece
	for _, id := range ids {
		k, _ := board.KindOfID(id)
		out = append(out, PocketedPiece{ID: id, Kind: k, Pocket: board.NE})
	}
	return out
}

func TestSimplePolicy(t *testing.T) {
	p := NewSimplePolicy(2)
	p.NewBoard(board.S, table())
	if p.Turn() != board.S || !p.Breaking() || p.Colour(board.S) != board.White || p.Colour(board.N) != board.Black {
		t.Fatalf("start: turn %s breaking %v colours %s/%s", p.Turn(), p.Breaking(), p.Colour(board.S), p.Colour(board.N))
	}
	if p.QueenAllowed(board.S) {
		t.Error("queen allowed before any man is pocketed")
	}
	// The break pockets a white: S continues.
	d := p.Stroke(StrokeOutcome{Side: board.S, Pocketed: pots("W1"), Discs: table("W1")})
	if d.Next != board.S || p.Breaking() || len(d.Returns) != 0 {
		t.Fatalf("after a white pocketed: %+v", d)
	}
	// A black pocketed by S: the turn passes, nothing comes back.
	d = p.Stroke(StrokeOutcome{Side: board.S, Pocketed: pots("B1"), Discs: table("W1", "B1")})
	if d.Next != board.N || len(d.Returns) != 0 {
		t.Fatalf("after S pockets a black: %+v", d)
	}
	// N pockets the striker with B1 off: B1 is the due, placed by S.
	d = p.Stroke(StrokeOutcome{Side: board.N, Pocketed: pots("S"), Discs: table("W1", "B1", "S")})
	if d.Next != board.S || len(d.Returns) != 1 || d.Returns[0] != (Return{ID: "B1", By: "S"}) {
		t.Fatalf("striker pocketed: %+v", d)
	}
	// S (one white off) pockets the queen alone: to be covered, S goes on.
	if !p.QueenAllowed(board.S) {
		t.Fatal("S may pocket the queen")
	}
	d = p.Stroke(StrokeOutcome{Side: board.S, Pocketed: pots("Q"), Discs: table("W1", "Q")})
	if d.Next != board.S || len(d.Returns) != 0 {
		t.Fatalf("queen pocketed: %+v", d)
	}
	// S misses the cover: the umpire returns the queen, N plays.
	d = p.Stroke(StrokeOutcome{Side: board.S, Discs: table("W1", "Q")})
	if d.Next != board.N || len(d.Returns) != 1 || d.Returns[0] != (Return{ID: "Q", By: "umpire", Centre: true}) {
		t.Fatalf("cover missed: %+v", d)
	}
	// N pockets the queen before any black: returned at once.
	d = p.Stroke(StrokeOutcome{Side: board.N, Pocketed: pots("Q"), Discs: table("W1", "Q")})
	if d.Next != board.S || len(d.Returns) != 1 || d.Returns[0].ID != "Q" {
		t.Fatalf("queen before an own man: %+v", d)
	}
	// A jumped white goes back to the centre, by the umpire.
	d = p.Stroke(StrokeOutcome{Side: board.S, Overboard: []string{"W5"}, Discs: table("W1", "W5")})
	if len(d.Returns) != 1 || d.Returns[0] != (Return{ID: "W5", By: "umpire", Centre: true}) {
		t.Fatalf("jump: %+v", d)
	}
	// Queen and own man together: covered; and the board ends when the
	// last white goes.
	p.NewBoard(board.S, table("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8"))
	d = p.Stroke(StrokeOutcome{Side: board.S, Pocketed: pots("Q", "W9"), Discs: table("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "Q")})
	if !d.BoardOver || d.Winner != board.White || len(d.Returns) != 0 {
		t.Fatalf("last white with the queen: %+v", d)
	}
}

func TestSimplePolicyOwedDue(t *testing.T) {
	p := NewSimplePolicy(2)
	p.NewBoard(board.S, table())
	// The striker pocketed before any white is off: the due is owed...
	d := p.Stroke(StrokeOutcome{Side: board.S, Pocketed: pots("S"), Discs: table("S")})
	if d.Next != board.N || len(d.Returns) != 0 {
		t.Fatalf("owed due: %+v", d)
	}
	// ...and paid as soon as a white is pocketed (by anyone), placed by
	// the black player.
	d = p.Stroke(StrokeOutcome{Side: board.N, Pocketed: pots("W3"), Discs: table("W3")})
	if len(d.Returns) != 1 || d.Returns[0] != (Return{ID: "W3", By: "N"}) {
		t.Fatalf("owed due paid: %+v", d)
	}
}

func TestSimplePolicyDoubles(t *testing.T) {
	p := NewSimplePolicy(4)
	p.NewBoard(board.E, table())
	want := []board.Side{board.E, board.N, board.W, board.S, board.E}
	for i, s := range want {
		if p.Turn() != s {
			t.Fatalf("turn %d: %s, want %s", i, p.Turn(), s)
		}
		p.Stroke(StrokeOutcome{Side: s, Discs: table()})
	}
	if p.Colour(board.E) != board.White || p.Colour(board.W) != board.White || p.Colour(board.N) != board.Black || p.Colour(board.S) != board.Black {
		t.Error("partners sit opposite and share a colour; the breaker's side is white")
	}
}

func TestPlayerPotsAnOpenMan(t *testing.T) {
	g := board.ICF()
	// One white, clear, 120 mm in front of the NW pocket.
	pc := g.Pocket(board.NW).C
	w := pc.Add(board.V(1, 1).Unit().Scale(120))
	discs := table()
	for i := range discs {
		discs[i].State = scene.Off
		if discs[i].ID == "W1" {
			discs[i].State, discs[i].Pos = scene.Rest, w
		}
	}
	pl := NewPlayer(g, DefaultPhysics(), Skill{}, rand.New(rand.NewPCG(1, 1)))
	sh, err := pl.Choose(discs, board.S, board.White, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if sh.Plan != "pot W1 NW" {
		t.Fatalf("plan %q", sh.Plan)
	}
	if !g.StrikerPlacement(board.S, sh.Striker, g.StrikerDiameter/2).Proper() {
		t.Errorf("improper placement %v", sh.Striker)
	}
	// Played without error, the shot goes in.
	tr := runYAML(t, fmt.Sprintf(`
arrangement: {positions: {W1: [%.17g, %.17g]}}
timeline:
  - autoplay: {strokes: 1, aim_noise: 0, speed_noise: 0}
`, w.X, w.Y))
	if st := tr.Strokes[0]; len(st.Pocketed) != 1 || st.Pocketed[0].ID != "W1" || st.Pocketed[0].Pocket != board.NW {
		t.Fatalf("the planned pot failed: %+v", st)
	}
	// The break is played hard at the queen from the middle.
	br, _ := pl.Choose(table(), board.E, board.White, false, true)
	if br.Plan != "break" || br.Dir.Dot(br.Striker.Unit().Scale(-1)) < 0.999 || br.Speed < 4000 {
		t.Errorf("break %+v", br)
	}
}

func TestAutoplayFinishesBoards(t *testing.T) {
	// Whole boards end (one colour cleared) in a plausible number of
	// strokes, with proper placements and no hand over the foul line.
	total := 0
	for seed := 1; seed <= 8; seed++ {
		tr := autoBoard(t, seed)
		if len(tr.Boards) != 1 {
			t.Fatalf("seed %d: board did not end: %v", seed, tr.Notes)
		}
		n := len(tr.Strokes)
		total += n
		if n < 10 || n > 200 {
			t.Errorf("seed %d: %d strokes", seed, n)
		}
		for _, s := range tr.Strokes {
			if s.Placement != board.Baseline || s.ArmOverFoulLine {
				t.Errorf("seed %d stroke %d: placement %s, arm over the foul line %v", seed, s.Number, s.Placement, s.ArmOverFoulLine)
			}
		}
		final := tr.Final()
		off := 0
		for _, d := range final.Discs {
			if d.Kind == tr.Boards[0].Winner && !d.State.OnBoard() {
				off++
			}
		}
		if off != 9 {
			t.Errorf("seed %d: winner %s has %d men off", seed, tr.Boards[0].Winner, off)
		}
	}
	if mean := float64(total) / 8; mean < 25 || mean > 120 || math.IsNaN(mean) {
		t.Errorf("mean %.1f strokes a board", mean)
	}
}

func TestAutoplaySeveralBoards(t *testing.T) {
	tr := runYAML(t, `
seed: 5
timeline:
  - autoplay: {boards: 2}
`)
	if len(tr.Boards) != 2 || tr.Boards[0].Board != 1 || tr.Boards[1].Board != 2 {
		t.Fatalf("boards %+v, notes %v", tr.Boards, tr.Notes)
	}
	// The second board is broken by the other player, from a fresh opening.
	var second *Stroke
	for i := range tr.Strokes {
		if tr.Strokes[i].Board == 2 {
			second = &tr.Strokes[i]
			break
		}
	}
	if second == nil || second.Side != board.N || second.Plan != "break" {
		t.Fatalf("second board's first stroke: %+v", second)
	}
	s := tr.At(second.Start - 0.01)
	if q := discOf(s, "Q"); q.Pos != (board.Vec{}) || q.State != scene.Rest {
		t.Errorf("queen before the second break: %+v", q)
	}
}
