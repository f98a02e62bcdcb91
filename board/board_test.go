package board

import (
	"math"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestICFValidates(t *testing.T) {
	if err := ICF().Validate(); err != nil {
		t.Fatal(err)
	}
}

// The corrected ICF figures must make every placement rule possible — the
// reason board-geometry.md gives for 31.8 instead of 51.8.
func TestICFConstruction(t *testing.T) {
	g := ICF()
	r := g.StrikerDiameter / 2
	// Base circles fill the gap: they touch both lines.
	bc := g.BaseCircles(S)[1]
	if !near(bc.C.Y-bc.R, g.FrontOuter(), 1e-9) || !near(bc.C.Y+bc.R, g.RearInner(), 1e-9) {
		t.Errorf("base circle %v does not touch both lines (%v, %v)", bc, g.FrontOuter(), g.RearInner())
	}
	// ... and the adjacent side's front line, extended.
	if !near(bc.C.X+bc.R, g.FrontInner(), 1e-9) {
		t.Errorf("base circle right edge %v, E front line inner edge %v", bc.C.X+bc.R, g.FrontInner())
	}
	// The gap between the base circles of adjacent sides is "1.27 cm approximately".
	be := g.BaseCircles(E)[0]
	if gap := bc.C.Dist(be.C) - bc.R - be.R; gap < 8 || gap > 17 {
		t.Errorf("gap between base circles of S and E = %.1f mm, want about 12.7", gap)
	}
	// The SE arrow passes through that gap without touching either circle.
	a := g.Arrow(SE)
	if d := a.DistTo(bc.C); d <= bc.R {
		t.Errorf("SE arrow touches the S base circle (distance %.2f)", d)
	}
	mid := bc.C.Add(be.C).Scale(0.5)
	if d := a.DistTo(mid); d > 1e-9 {
		t.Errorf("SE arrow misses the gap between base circles by %.2f", d)
	}
	// Arrow tip is 50 mm clear of the pocket edge, length 267.
	p := g.Pocket(SE)
	if d := a.B.Dist(p.C) - p.R; !near(d, 50, 1e-9) {
		t.Errorf("arrow tip %.2f from pocket edge", d)
	}
	if l := a.A.Dist(a.B); !near(l, 267, 1e-9) {
		t.Errorf("arrow length %.2f", l)
	}
	// A striker centred in the gap touches both lines with room to spare.
	c := FromLocal(S, V(0, g.BaseCircleY()))
	if !g.TouchesBothBaseLines(S, c, r) {
		t.Error("centred striker does not touch both base lines")
	}
	// A striker centred on a base circle covers it without touching the arrow.
	for _, s := range Sides {
		for i, k := range g.BaseCircles(s) {
			if j, ok := g.CoversBaseCircle(s, k.C, r); !ok || j != i {
				t.Errorf("%v circle %d: not covered by a centred striker", s, i)
			}
			if p, ok := g.TouchesArrow(k.C, r); ok {
				t.Errorf("%v circle %d: centred striker touches arrow %v", s, i, p)
			}
		}
	}
	// Pockets fit the pieces; the pocket touches both edges.
	if !near(p.C.X+p.R, g.Half(), 1e-9) || !near(p.C.Y+p.R, g.Half(), 1e-9) {
		t.Errorf("pocket SE %v does not touch the edges", p)
	}
}

func TestLocalFrames(t *testing.T) {
	pts := []Vec{{0, 0}, {10, 20}, {-300, 5}, {123.5, -77}}
	for _, s := range Sides {
		for _, p := range pts {
			if q := FromLocal(s, ToLocal(s, p)); q.Dist(p) > 1e-9 {
				t.Errorf("%v: round trip %v -> %v", s, p, q)
			}
		}
	}
	// Each side's normal points at its edge.
	want := map[Side]Vec{S: {0, 1}, E: {1, 0}, N: {0, -1}, W: {-1, 0}}
	for s, w := range want {
		if n := s.Normal(); n.Dist(w) > 1e-9 {
			t.Errorf("%v normal = %v, want %v", s, n, w)
		}
	}
	// The player's right: at S it is +x (toward E); at E it is -y (toward N).
	if r := FromLocal(S, V(1, 0)); r.Dist(V(1, 0)) > 1e-9 {
		t.Errorf("S right = %v", r)
	}
	if r := FromLocal(E, V(1, 0)); r.Dist(V(0, -1)) > 1e-9 {
		t.Errorf("E right = %v", r)
	}
	if S.Right() != E || E.Right() != N || N.Right() != W || W.Right() != S {
		t.Error("Right is not S→E→N→W")
	}
	if S.Left() != W || S.Opposite() != N {
		t.Error("Left/Opposite")
	}
}

func TestQuadrant(t *testing.T) {
	cases := map[Vec]Side{{0, 300}: S, {300, 0}: E, {0, -300}: N, {-300, 0}: W, {100, 250}: S, {250, 100}: E}
	for p, want := range cases {
		if got := Quadrant(p); got != want {
			t.Errorf("Quadrant(%v) = %v, want %v", p, got, want)
		}
	}
}

func TestPockets(t *testing.T) {
	g := ICF()
	h := g.Half()
	cases := map[Pocket]Vec{SW: {-h + 20, h - 20}, SE: {h - 20, h - 20}, NE: {h - 20, -h + 20}, NW: {-h + 20, -h + 20}}
	for want, p := range cases {
		got, ok := g.PocketAt(p)
		if !ok || got != want {
			t.Errorf("PocketAt(%v) = %v, %v; want %v", p, got, ok, want)
		}
		if n, _ := g.NearestPocket(p.Scale(0.5)); n != want {
			t.Errorf("NearestPocket(%v) = %v, want %v", p.Scale(0.5), n, want)
		}
	}
	if _, ok := g.PocketAt(V(0, 0)); ok {
		t.Error("centre is in a pocket")
	}
	if _, ok := g.PocketAt(V(h-40, h-5)); ok {
		t.Error("a point beside the pocket reads as inside")
	}
}

func TestStrikerPlacement(t *testing.T) {
	g := ICF()
	r := g.StrikerDiameter / 2
	y := g.BaseCircleY()
	bx := g.BaseCircleX()
	type tc struct {
		name   string
		local  Vec
		kind   PlacementKind
		proper bool
	}
	cases := []tc{
		{"centre of the base line", V(0, y), Baseline, true},
		{"near the left end, clear of the circle", V(-bx+r+16.5, y), Baseline, true},
		{"on the right base circle", V(bx, y), BaseCircle, true},
		{"on the left base circle, nudged 3mm", V(-bx+2, y+2), BaseCircle, true},
		{"cutting the moon", V(bx-20, y), CutMoon, false},
		{"touching only the front line", V(0, g.FrontInner()-r+3), OneLine, false},
		{"touching only the rear line", V(0, g.RearOuter()+r-3), OneLine, false},
		{"beyond the front line", V(0, g.FrontInner()-r-5), OffBaseLine, false},
		{"behind the rear line", V(0, g.RearOuter()+r+5), OffBaseLine, false},
	}
	for _, s := range Sides {
		for _, c := range cases {
			p := g.StrikerPlacement(s, FromLocal(s, c.local), r)
			if p.Kind != c.kind || p.Proper() != c.proper {
				t.Errorf("%v %s: got %v proper=%v, want %v proper=%v", s, c.name, p.Kind, p.Proper(), c.kind, c.proper)
			}
			if p.Margin < 0 || math.IsInf(p.Margin, 0) {
				t.Errorf("%v %s: margin %v", s, c.name, p.Margin)
			}
		}
	}
	// Covering a base circle but pushed toward the corner far enough to touch the arrow.
	bc := g.BaseCircles(S)[1]
	diag := V(math.Sqrt2/2, math.Sqrt2/2) // the SE arrow lies on x = y
	toward := diag.Scale(bc.C.Dot(diag)).Sub(bc.C).Unit()
	var hit bool
	for d := 0.0; d <= r-bc.R; d += 0.1 {
		c := bc.C.Add(toward.Scale(d))
		p := g.StrikerPlacement(S, c, r)
		if p.Kind == BaseCircle && p.TouchesArrow {
			hit = true
			if p.Proper() {
				t.Error("base circle touching the arrow reads as proper")
			}
			break
		}
	}
	if !hit {
		t.Error("no position covers the base circle while touching the arrow")
	}
}

func TestFrontLineQuestions(t *testing.T) {
	g := ICF()
	r := g.ManDiameter / 2
	for _, s := range Sides {
		on := FromLocal(s, V(50, g.FrontInner()-r+1))
		if !g.OnOrBehindFrontLine(s, on, r) {
			t.Errorf("%v: man touching the front line is not 'on or behind'", s)
		}
		ahead := FromLocal(s, V(50, g.FrontInner()-r-1))
		if g.OnOrBehindFrontLine(s, ahead, r) {
			t.Errorf("%v: man clear of the front line reads as behind", s)
		}
		if g.OnOrBehindFrontLine(s.Opposite(), on, r) {
			t.Errorf("%v: man reads as behind the opposite side's line", s)
		}
		sr := g.StrikerDiameter / 2
		if g.CrossedFrontLine(s, FromLocal(s, V(0, g.BaseCircleY())), sr) {
			t.Errorf("%v: striker on the base line has crossed", s)
		}
		if !g.CrossedFrontLine(s, FromLocal(s, V(0, g.FrontInner()-sr-0.5)), sr) {
			t.Errorf("%v: striker beyond the line has not crossed", s)
		}
		if !g.PointOnOrBehindFrontLine(s, FromLocal(s, V(0, g.FrontInner()+0.1))) {
			t.Errorf("%v: point on the line", s)
		}
		if got, ok := g.BaseLineSide(FromLocal(s, V(0, g.BaseCircleY())), sr); !ok || got != s {
			t.Errorf("BaseLineSide on %v = %v %v", s, got, ok)
		}
	}
	if _, ok := g.BaseLineSide(V(0, 0), 20); ok {
		t.Error("centre is on a base line")
	}
}

func TestCircles(t *testing.T) {
	g := ICF()
	r := g.ManDiameter / 2
	if !g.InsideOuterCircle(V(0, 85-r-0.1), r) || g.InsideOuterCircle(V(0, 85-r+0.5), r) {
		t.Error("InsideOuterCircle boundary")
	}
	if !g.OverlapsCentreCircle(V(0, 31), r) || g.OverlapsCentreCircle(V(0, 32), r) {
		t.Error("OverlapsCentreCircle boundary")
	}
	if !g.CoversCentreCircle(V(0, 0), r) || g.CoversCentreCircle(V(1, 0), r) {
		t.Error("CoversCentreCircle: a man of the same size covers it only when centred")
	}
	if !g.OnSurface(V(369, -369)) || g.OnSurface(V(371, 0)) {
		t.Error("OnSurface")
	}
}

func TestParse(t *testing.T) {
	g, err := Parse([]byte("name: club board\nsurface: 720\narrow_length: 0\nbase_circle_core_diameter: 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Surface != 720 || g.StrikerDiameter != 41.5 || g.Name != "club board" {
		t.Errorf("parsed %+v", g)
	}
	if _, ok := g.TouchesArrow(g.Arrow(SE).A, 5); ok {
		t.Error("board without arrows has an arrow")
	}
	if g, err := Parse(nil); err != nil || g.Surface != 740 {
		t.Errorf("empty file: %v %v", g, err)
	}
	for _, bad := range []string{
		"surfce: 740\n",            // typo
		"surface: -1\n",            // negative
		"striker_diameter: 30\n",   // cannot touch both lines
		"pocket_diameter: 20\n",    // pieces do not fit
		"base_line_offset: 400\n",  // lines outside
		"surface: [1, 2]\n",        // wrong type
		"outer_circle_diameter: x", // wrong type
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	// Marshal round-trips.
	b, err := ICF().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	g2, err := Parse(b)
	if err != nil || *g2 != *ICF() {
		t.Errorf("round trip: %v\n%s", err, b)
	}
}

func TestNames(t *testing.T) {
	for _, s := range Sides {
		if v, err := ParseSide(strings.ToLower(s.String())); err != nil || v != s {
			t.Errorf("ParseSide(%v)", s)
		}
	}
	for _, p := range Pockets {
		if v, err := ParsePocket(p.String()); err != nil || v != p {
			t.Errorf("ParsePocket(%v)", p)
		}
	}
	for _, k := range Kinds {
		if v, err := ParseKind(k.String()); err != nil || v != k {
			t.Errorf("ParseKind(%v)", k)
		}
	}
	ids := PieceIDs()
	if len(ids) != 20 {
		t.Fatalf("%d ids", len(ids))
	}
	count := map[Kind]int{}
	for _, id := range ids {
		k, err := KindOfID(id)
		if err != nil {
			t.Fatal(err)
		}
		count[k]++
	}
	if count[White] != 9 || count[Black] != 9 || count[Queen] != 1 || count[Striker] != 1 {
		t.Errorf("kinds %v", count)
	}
	for _, bad := range []string{"", "W0", "W10", "X1", "Wx", "QQ"} {
		if _, err := KindOfID(bad); err == nil {
			t.Errorf("KindOfID(%q) accepted", bad)
		}
	}
	if _, err := ParseSide("up"); err == nil {
		t.Error("ParseSide(up)")
	}
}
