package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
)

// Skill is how well the automatic player executes the shot it picks.
type Skill struct {
	// AimNoise is the standard deviation of the aim error, degrees.
	AimNoise float64
	// SpeedNoise is the standard deviation of the relative speed error.
	SpeedNoise float64
}

// DefaultSkill is a decent club player: most straight shots go in, long
// cuts often miss, and a board takes some 40–80 strokes.
func DefaultSkill() Skill { return Skill{AimNoise: 1.2, SpeedNoise: 0.1} }

// Shot is a strike the automatic player decided on.
type Shot struct {
	Side    board.Side
	Striker board.Vec // the striker's centre on the base line
	Dir     board.Vec // unit direction of the flick
	Speed   float64   // mm/s
	// Plan says what the player meant: "break", "pot W3 NE", "safety at
	// B2", "clear".
	Plan string
}

// Player is the automatic player. It picks a man of its colour with a clear
// path to a pocket, aims the striker at the ghost position (where the
// striker's centre must be at impact to send the man straight to the
// pocket) from the base-line placement with the clearest, straightest line,
// and strikes just hard enough for the man to reach the pocket; then it adds
// seeded aim and speed errors. With nothing to pot it plays a safe shot.
type Player struct {
	g     *board.Geometry
	phys  Physics
	skill Skill
	rng   *rand.Rand
	// Avoid, when set, rejects shots the player must not play (the
	// simulator rejects those whose hand would reach over the foul line).
	Avoid func(Shot) bool
}

// NewPlayer returns an automatic player drawing its errors from rng.
func NewPlayer(g *board.Geometry, phys Physics, skill Skill, rng *rand.Rand) *Player {
	return &Player{g: g, phys: phys, skill: skill, rng: rng}
}

// placements returns the striker positions the player considers on side
// s: along the base line every 6 mm. It leaves out the base circles: with
// the hand footprint of package scene, a hand flicking from a base circle
// always reaches over the foul line (the arrow passes 2 mm from the
// striker), and the automatic player does not play fouls on purpose.
func (p *Player) placements(s board.Side, discs []scene.Disc) []board.Vec {
	g := p.g
	rs := g.StrikerDiameter / 2
	max := MaxBaseOffset(g)
	var out []board.Vec
	free := func(c board.Vec) bool {
		for _, d := range discs {
			if d.ID != "S" && d.State.OnBoard() && d.Pos.Dist(c) < rs+g.Radius(d.Kind)+clearance {
				return false
			}
		}
		return true
	}
	n := int(math.Floor(max / 6))
	for k := -n; k <= n; k++ {
		c := board.FromLocal(s, board.V(float64(k)*6, g.BaseCircleY()))
		if free(c) {
			out = append(out, c)
		}
	}
	return out
}

// MaxBaseOffset is the largest offset (mm, either way from the middle of
// the base line) at which the striker lies within the base line, clear of
// the base circles.
func MaxBaseOffset(g *board.Geometry) float64 {
	return g.BaseCircleX() - g.StrikerDiameter/2 - g.BaseCircleDiameter/2 - 0.05
}

// clearPath reports whether a disc of radius r can travel from a to b
// without touching any disc on the board other than those skipped.
func clearPath(g *board.Geometry, discs []scene.Disc, a, b board.Vec, r float64, skip ...string) bool {
	seg := board.Segment{A: a, B: b}
	for _, d := range discs {
		if !d.State.OnBoard() || d.ID == "S" {
			continue
		}
		skipped := false
		for _, s := range skip {
			skipped = skipped || s == d.ID
		}
		if !skipped && seg.DistTo(d.Pos) < r+g.Radius(d.Kind)+clearance {
			return false
		}
	}
	return true
}

// Choose picks a shot for the player at side s playing colour. queenOK
// allows it to aim at the queen; breaking asks for the break.
func (p *Player) Choose(discs []scene.Disc, s board.Side, colour board.Kind, queenOK, breaking bool) (Shot, error) {
	g := p.g
	rs := g.StrikerDiameter / 2
	places := p.placements(s, discs)
	if len(places) == 0 {
		return Shot{}, fmt.Errorf("no room for the striker on the %s base line", s)
	}
	a := p.phys.Deceleration()
	e := p.phys.Restitution
	ms := g.StrikerMass
	if breaking {
		// Hard at the queen from the middle of the base line (or the free
		// spot nearest to it).
		best := places[0]
		mid := board.FromLocal(s, board.V(0, g.BaseCircleY()))
		for _, c := range places {
			if c.Dist(mid) < best.Dist(mid) {
				best = c
			}
		}
		return p.noisy(Shot{Side: s, Striker: best, Dir: board.Vec{}.Sub(best).Unit(), Speed: 5000, Plan: "break"}), nil
	}

	type option struct {
		shot  Shot
		score float64
	}
	var bestPot *option
	for _, t := range discs {
		if !t.State.OnBoard() || !(t.Kind == colour || (t.Kind == board.Queen && queenOK)) {
			continue
		}
		rt := g.Radius(t.Kind)
		if g.OnOrBehindFrontLine(s, t.Pos, rt) {
			continue
		}
		mt := g.Mass(t.Kind)
		for _, pk := range board.Pockets {
			pc := g.Pocket(pk).C
			u := pc.Sub(t.Pos).Unit()
			if !clearPath(g, discs, t.Pos, pc, rt, t.ID) {
				continue
			}
			ghost := t.Pos.Sub(u.Scale(rt + rs))
			if math.Abs(ghost.X) > g.Half()-rs || math.Abs(ghost.Y) > g.Half()-rs || !g.CrossedFrontLine(s, ghost, rs) {
				continue
			}
			for _, c := range places {
				d := ghost.Sub(c)
				dl := d.Len()
				cos := d.Unit().Dot(u)
				if cos < math.Cos(70*math.Pi/180) {
					continue
				}
				if !clearPath(g, discs, c, ghost, rs, t.ID) {
					continue
				}
				// Speed: the man must reach the pocket with 0.3 m/s to
				// spare; the striker passes it (1+e)·ms/(ms+mt)·cos of
				// its speed at impact, and loses some on the way.
				vm := math.Sqrt(300*300 + 2*a*t.Pos.Dist(pc))
				vi := vm / ((1 + e) * ms / (ms + mt) * cos)
				v0 := math.Sqrt(vi*vi + 2*a*dl)
				cut := math.Acos(math.Min(1, cos)) * 180 / math.Pi
				score := cut + dl/40 + t.Pos.Dist(pc)/40
				if v0 > 6000 {
					score += 30
					v0 = 6000
				}
				if p.scratches(c, d.Unit(), v0, dl, u, ms, mt, e) {
					score += 60
				}
				if bestPot != nil && score >= bestPot.score {
					continue
				}
				sh := Shot{Side: s, Striker: c, Dir: d.Unit(), Speed: math.Max(v0, 500), Plan: fmt.Sprintf("pot %s %s", t.ID, pk)}
				if p.Avoid == nil || !p.Avoid(sh) {
					bestPot = &option{sh, score}
				}
			}
		}
	}
	if bestPot != nil {
		return p.noisy(bestPot.shot), nil
	}
	// Nothing to pot: a full hit on the nearest reachable man of its own
	// colour, else on anything, else straight ahead.
	for _, own := range []bool{true, false} {
		var best *option
		for _, t := range discs {
			if !t.State.OnBoard() || t.ID == "S" || (own && t.Kind != colour) || g.OnOrBehindFrontLine(s, t.Pos, g.Radius(t.Kind)) {
				continue
			}
			for _, c := range places {
				// A full hit: the striker stops short of the man's centre.
				dir := t.Pos.Sub(c).Unit()
				hit := t.Pos.Sub(dir.Scale(rs + g.Radius(t.Kind)))
				if !clearPath(g, discs, c, hit, rs, t.ID) {
					continue
				}
				dl := c.Dist(t.Pos)
				if best != nil && dl >= best.score {
					continue
				}
				sh := Shot{Side: s, Striker: c, Dir: dir, Speed: 1800, Plan: "safety at " + t.ID}
				if p.Avoid == nil || !p.Avoid(sh) {
					best = &option{sh, dl}
				}
			}
		}
		if best != nil {
			return p.noisy(best.shot), nil
		}
	}
	c := places[p.rng.IntN(len(places))]
	return p.noisy(Shot{Side: s, Striker: c, Dir: board.FromLocal(s, board.V(0, -1)), Speed: 2000, Plan: "clear"}), nil
}

// scratches estimates whether the striker, after hitting the man, would
// follow it into a pocket: its post-impact line (ignoring cushions) passes
// through a pocket mouth before it stops.
func (p *Player) scratches(c, dir board.Vec, v0, dl float64, u board.Vec, ms, mt, e float64) bool {
	g := p.g
	a := p.phys.Deceleration()
	vi2 := v0*v0 - 2*a*dl
	if vi2 <= 0 {
		return false
	}
	v := dir.Scale(math.Sqrt(vi2))
	vn := v.Dot(u)
	J := (1 + e) * vn / (1/ms + 1/mt)
	after := v.Sub(u.Scale(J / ms))
	sp := after.Len()
	if sp < 1 {
		return false
	}
	from := c.Add(dir.Scale(dl))
	to := from.Add(after.Unit().Scale(sp * sp / (2 * a)))
	for _, pk := range board.Pockets {
		if (board.Segment{A: from, B: to}).DistTo(g.Pocket(pk).C) < g.Pocket(pk).R+4 {
			return true
		}
	}
	return false
}

// noisy adds the player's execution errors to a shot.
func (p *Player) noisy(s Shot) Shot {
	da := p.rng.NormFloat64() * p.skill.AimNoise * math.Pi / 180
	cs, sn := math.Cos(da), math.Sin(da)
	s.Dir = board.V(s.Dir.X*cs-s.Dir.Y*sn, s.Dir.X*sn+s.Dir.Y*cs)
	s.Speed *= math.Max(0.5, 1+p.rng.NormFloat64()*p.skill.SpeedNoise)
	s.Speed = math.Max(300, math.Min(7000, s.Speed))
	return s
}
