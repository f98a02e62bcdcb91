package calibrate

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/boardcam/boardcam/board"
)

// Inference is what [InferBreaker] concluded from an opening arrangement.
type Inference struct {
	// Side is where the breaker sits, in the board frame the positions
	// were given in.
	Side board.Side
	// Turns is the k to pass to [Calibration.Rotate] so that the breaker
	// sits on the wanted side.
	Turns int
	// Confidence is 0 to 1: 1 when the two whites in line with the queen
	// are exactly where the arrangement puts them and no other side comes
	// close.
	Confidence float64
	// Why explains the decision in words.
	Why string
}

// InferBreaker finds the breaker's side from the opening arrangement: the
// queen in the centre with the men in two rings around it, placed so that
// a white man of the inner ring and one of the outer ring stand in a line
// from the queen toward the breaker (the queen "and two whites point at the
// breaker"). Positions are board millimetres from the vision stage; queen
// may be nil when the queen was not seen (the centroid of the men is used).
// want is the side the breaker should end up on (usually the configured
// seat of the first player); Inference.Turns rotates the board frame there.
//
// It returns an error when the pieces do not look like an opening
// arrangement (too few men, nothing in line toward any side, or two sides
// equally likely).
func InferBreaker(g *board.Geometry, whites, blacks []board.Vec, queen *board.Vec, want board.Side) (Inference, error) {
	if g == nil {
		g = board.ICF()
	}
	if len(whites) < 3 || len(whites)+len(blacks) < 6 {
		return Inference{}, fmt.Errorf("calibrate: infer breaker: %d whites and %d blacks are too few for an opening arrangement", len(whites), len(blacks))
	}
	var q board.Vec
	if queen != nil {
		q = *queen
	} else {
		var n float64
		for _, p := range append(append([]board.Vec{}, whites...), blacks...) {
			q = q.Add(p)
			n++
		}
		q = q.Scale(1 / n)
	}
	d := g.ManDiameter
	if g.QueenDiameter > 0 {
		d = (g.ManDiameter + g.QueenDiameter) / 2
	}
	// A man touching the queen sits one diameter from it; one touching that
	// man on the far side, two diameters. Players leave small gaps, so the
	// tolerance is a third of a diameter in distance and 20° in angle.
	tolR := d / 3
	near := func(p board.Vec, r float64) (float64, bool) {
		dist := math.Abs(p.Sub(q).Len() - r)
		return dist, dist <= tolR
	}
	type cand struct {
		side  board.Side
		score float64
		err   float64 // mean misfit of the two whites, mm
		angle float64 // direction of the pair, degrees
	}
	var cands []cand
	for _, s := range board.Sides {
		n := s.Normal()
		best := cand{side: s, score: -1}
		for _, a := range whites {
			da, ok := near(a, d)
			if !ok || angleBetween(a.Sub(q), n) > 25 {
				continue
			}
			for _, b := range whites {
				db, ok := near(b, 2*d)
				if !ok {
					continue
				}
				// b must continue the line queen → a.
				dir := a.Sub(q).Unit()
				off := math.Abs(dir.Cross(b.Sub(q)))
				if off > tolR || b.Sub(q).Dot(dir) <= 0 {
					continue
				}
				misfit := (da + db + off) / 3
				// Blacks in the same two places would contradict the pattern.
				score := 1 - misfit/tolR
				for _, k := range blacks {
					if k.Dist(q.Add(dir.Scale(d))) < d/2 || k.Dist(q.Add(dir.Scale(2*d))) < d/2 {
						score -= 1
					}
				}
				score *= 1 - angleBetween(dir, n)/45
				if score > best.score {
					best = cand{side: s, score: score, err: misfit, angle: math.Atan2(dir.Y, dir.X) * 180 / math.Pi}
				}
			}
		}
		if best.score > 0 {
			cands = append(cands, best)
		}
	}
	if len(cands) == 0 {
		return Inference{}, errors.New("calibrate: infer breaker: no queen-white-white line points toward any side; is this the opening arrangement?")
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	top := cands[0]
	conf := top.score
	if len(cands) > 1 {
		if cands[1].score > 0.8*top.score {
			return Inference{}, fmt.Errorf("calibrate: infer breaker: sides %v and %v fit the arrangement about equally well; set the breaker's side in the configuration", top.side, cands[1].side)
		}
		conf = top.score - cands[1].score
	}
	turns := ((int(want)-int(top.side))%4 + 4) % 4
	return Inference{
		Side:       top.side,
		Turns:      turns,
		Confidence: math.Max(0, math.Min(1, conf)),
		Why: fmt.Sprintf("two whites in line with the queen point at side %v (direction %.0f°, misfit %.1f mm)",
			top.side, top.angle, top.err),
	}, nil
}

// angleBetween returns the angle between two vectors in degrees.
func angleBetween(a, b board.Vec) float64 {
	la, lb := a.Len(), b.Len()
	if la == 0 || lb == 0 {
		return 180
	}
	c := a.Dot(b) / (la * lb)
	return math.Acos(math.Max(-1, math.Min(1, c))) * 180 / math.Pi
}
