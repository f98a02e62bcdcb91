package render

import (
	"math"

	"github.com/boardcam/boardcam/board"
	"gocv.io/x/gocv"
)

// boardTexture paints the top-down board: the playing surface (wood, wear,
// markings, text, powder, pockets) and the top of the frame, over
// [-ext, ext]² mm with ext = half surface + frame width + a margin.
func boardTexture(s Settings, g *board.Geometry, ppm float64, seed uint64) *canvas {
	h := g.Half()
	fw := g.FrameWidth
	ext := h + fw + 6
	c := newCanvas(-ext, -ext, 2*ext, 2*ext, ppm)
	r := newRNG(seed, 1)
	wood, _ := parseColour(s.Board.Wood, woodColours)
	frame, _ := parseColour(s.Board.Frame, frameColours)
	st := s.Board

	// Wood: broad colour variation, wavy growth bands and fine fibres along
	// the grain, which runs along x or y.
	alongX := r.float() < 0.5
	cell := func(mm float64) float64 { return mm * ppm }
	low := fbm(r, c.w, c.h, cell(220), cell(220), 3)
	var warp, fibre, fibreT, streak field
	if alongX {
		streak = fbm(r, c.w, c.h, cell(400), cell(12), 3)
		warp = fbm(r, c.w, c.h, cell(320), cell(70), 3)
		fibre = smoothNoise(r, c.w, c.h, cell(60), cell(0.9))
		fibreT = smoothNoise(r, c.w, c.h, cell(0.9), cell(60))
	} else {
		streak = fbm(r, c.w, c.h, cell(12), cell(400), 3)
		warp = fbm(r, c.w, c.h, cell(70), cell(320), 3)
		fibre = smoothNoise(r, c.w, c.h, cell(0.9), cell(60))
		fibreT = smoothNoise(r, c.w, c.h, cell(60), cell(0.9))
	}
	period := r.in(18, 34)
	phase := r.in(0, 100)
	grain := st.Grain
	for j := 0; j < c.h; j++ {
		for i := 0; i < c.w; i++ {
			k := j*c.w + i
			p := c.mm(i, j)
			across := p.Y
			if !alongX {
				across = p.X
			}
			band := (across+phase)/period + 3.5*float64(warp.v[k])
			late := math.Pow(0.5+0.5*math.Sin(2*math.Pi*band), 6)
			dark := grain * (0.06*late + 0.02*float64(fibre.v[k]) + 0.05*float64(warp.v[k]) + 0.03*float64(streak.v[k]))
			lv := 1 + 0.05*float64(low.v[k])
			col := wood.scale(lv * (1 - dark))
			col[0] *= 1 - 0.6*dark // the dark lines are browner, not greyer
			c.set(k, col)
		}
	}

	// Wear: darker toward the frame, rubbed (lighter, duller) patches where
	// the players' hands rest, patchy ink.
	wearN := fbm(r, c.w, c.h, cell(40), cell(40), 3)
	inkOp := field{w: c.w, h: c.h, v: make([]float32, c.w*c.h)}
	for k := range inkOp.v {
		inkOp.v[k] = float32(clamp(1-st.Wear*0.55*clamp(0.45+1.2*float64(wearN.v[k]), 0, 1), 0.2, 1))
	}
	if st.Wear > 0 {
		scuff := fbm(r, c.w, c.h, cell(60), cell(25), 3)
		restY := h - g.BaseLineOffset*0.42
		c.each(-h, -h, h, h, func(k int, p board.Vec) {
			e := h - math.Max(math.Abs(p.X), math.Abs(p.Y))
			col := c.get(k)
			col = col.scale(1 - st.Wear*0.13*math.Exp(-e/40))
			var rub float64
			for _, sd := range board.Sides {
				l := board.ToLocal(sd, p)
				q := math.Pow(l.X/190, 2) + math.Pow((l.Y-restY)/38, 2)
				rub = math.Max(rub, math.Exp(-q))
			}
			rub *= st.Wear * 0.5 * clamp(0.6+0.8*float64(scuff.v[k]), 0, 1)
			if rub > 0.01 {
				y := (col[0] + col[1] + col[2]) / 3
				col = col.mix(bgr{y, y, y}.scale(1.04), rub*0.6).scale(1 + 0.05*rub)
			}
			c.set(k, col)
		})
	}

	// Markings.
	drawn := g.WithMarkings(DrawnMarkings(st, g))
	if st.Markings == "icf" {
		icfMarkings(c, drawn, st.PlainCentre, &inkOp)
	} else {
		homeMarkings(c, drawn, &inkOp)
	}
	if st.Text {
		boardText(c, g, r, st.Markings == "icf", &inkOp)
	}

	// Powder: broad smears and fine speckles.
	if st.Powder > 0 {
		smear := fbm(r, c.w, c.h, cell(110), cell(45), 4)
		white := rgb(246, 244, 238)
		c.each(-h, -h, h, h, func(k int, p board.Vec) {
			a := st.Powder * 0.22 * smoothstep(-0.1, 0.6, float64(smear.v[k]))
			c.blend(k, white, a)
		})
		n := int(st.Powder * 9000 * (g.Surface / 740) * (g.Surface / 740))
		for i := 0; i < n; i++ {
			p := board.Vec{X: r.in(-h, h), Y: r.in(-h, h)}
			rad := r.in(0.2, 0.6)
			op := r.in(0.25, 0.75)
			c.shape(circleBox(p, rad), func(q board.Vec) float64 { return sdDisc(q, p, rad) }, white, op, nil)
		}
	}

	// The frame's top.
	frameTop(c, g, frame, fibre, fibreT, low, r, st)

	// Pockets.
	nets := netColours[st.Net]
	yarn := fbm(r, c.w, c.h, cell(3), cell(3), 2)
	pick := smoothNoise(r, c.w, c.h, cell(9), cell(9))
	for _, pk := range board.Pockets {
		hole := g.Pocket(pk)
		c.each(hole.C.X-hole.R-1, hole.C.Y-hole.R-1, hole.C.X+hole.R+1, hole.C.Y+hole.R+1, func(k int, p board.Vec) {
			d := p.Dist(hole.C)
			cov := clamp(0.5-(d-hole.R)*ppm, 0, 1)
			if cov <= 0 {
				return
			}
			ci := int(clamp((float64(pick.v[k])+1)/2*float64(len(nets)), 0, float64(len(nets)-1)))
			depth := 0.1 + 0.45*math.Pow(d/hole.R, 2)
			bump := clamp(0.5+1.6*float64(yarn.v[k]), 0, 1)
			col := nets[ci].scale(depth * (0.35 + 0.65*bump))
			if rim := hole.R - d; rim < 1.6 {
				col = col.mix(rgb(12, 10, 10), 0.8*(1-rim/1.6))
			}
			c.blend(k, col, cov)
		})
	}
	return c
}

// icfMarkings paints the ICF markings; plain: the centre circle a flat red
// disc, with no star and no outline.
func icfMarkings(c *canvas, g *board.Geometry, plain bool, op *field) {
	ink, red := inkBlack, inkRed
	m := g.Marks()
	for _, sd := range board.Sides {
		sm := m.Side(sd)
		x0, x1 := sm.Circles[0].X, sm.Circles[1].X
		// Rear (thick) and front (thin) base lines between the circle centres.
		for _, ln := range []board.Band{sm.Rear, sm.Front} {
			y, hw := ln.Y, ln.Width/2
			a, b := board.FromLocal(sd, board.Vec{X: x0, Y: y}), board.FromLocal(sd, board.Vec{X: x1, Y: y})
			c.shape(grow(boxOf(a, b), hw+1), func(p board.Vec) float64 {
				l := board.ToLocal(sd, p)
				return math.Max(math.Abs(l.Y-y)-hw, math.Max(x0-l.X, l.X-x1))
			}, ink, 0.92, op)
		}
		// Base circles: a wood-coloured disc with a red core and a thin ring.
		for i, k := range m.BaseCircles(sd) {
			k := k
			if rc := sm.Circles[i].Core; rc > 0 {
				c.shape(circleBox(k.C, rc), func(p board.Vec) float64 { return sdDisc(p, k.C, rc) }, red, 0.95, op)
			}
			c.shape(circleBox(k.C, k.R+1), func(p board.Vec) float64 { return sdRing(p, k.C, k.R-0.45, 0.45) }, ink, 0.9, op)
		}
		// The small ring in the gap between this side's right circle and the
		// next side's left circle, where the arrow passes.
		a := m.BaseCircles(sd)[1].C
		b := m.BaseCircles(sd.Right())[0].C
		mid := a.Add(b).Scale(0.5)
		rr := math.Max(2, a.Dist(b)/2-g.BaseCircleDiameter/2-0.8)
		c.shape(circleBox(mid, rr+1), func(p board.Vec) float64 { return sdRing(p, mid, rr, 0.35) }, ink, 0.85, op)
	}
	// Arrows with arrowheads at the pocket end and the decorative arc at
	// the inner end.
	if m.HasArrows() {
		for _, pk := range board.Pockets {
			hw := math.Max(m.ArrowWidth(pk), 0.9) / 2
			ar := m.Arrow(pk)
			dir := ar.B.Sub(ar.A).Unit()
			c.shape(grow(boxOf(ar.A, ar.B), hw+1), func(p board.Vec) float64 { return sdSegment(p, ar.A, ar.B, hw) }, ink, 0.9, op)
			arrowHead(c, ar.B, dir, 7, 2.6, ink, op)
			if g.ArrowArcDiameter > 0 {
				R := g.ArrowArcDiameter / 2
				ctr := ar.A.Add(dir.Scale(R))
				base := math.Atan2(dir.Y, dir.X)
				a0, a1 := base+math.Pi/4, base+2*math.Pi-math.Pi/4
				c.shape(circleBox(ctr, R+1), func(p board.Vec) float64 { return sdArc(p, ctr, R, hw*0.8, a0, a1) }, ink, 0.9, op)
				for _, e := range []struct{ ang, sign float64 }{{a0, 1}, {a1, -1}} {
					pt := ctr.Add(board.Vec{X: math.Cos(e.ang), Y: math.Sin(e.ang)}.Scale(R))
					tan := board.Vec{X: -math.Sin(e.ang), Y: math.Cos(e.ang)}.Scale(e.sign)
					// the head sits at the arc's end and points along the arc,
					// away from the gap
					arrowHead(c, pt.Add(tan.Scale(5)), tan, 6, 2.4, ink, op)
				}
			}
		}
	}
	// Centre: outer circle, star, red centre circle.
	oc := m.OuterCircle()
	c.shape(circleBox(oc.C, oc.R+1), func(p board.Vec) float64 { return sdRing(p, oc.C, oc.R, 0.6) }, ink, 0.9, op)
	cc := m.CentreCircle()
	if plain {
		c.shape(circleBox(cc.C, cc.R+1), func(p board.Vec) float64 { return sdDisc(p, cc.C, cc.R) }, red, 0.95, op)
		return
	}
	for i := 0; i < 8; i++ {
		ang := float64(i)*math.Pi/4 - math.Pi/2
		long := i%2 == 0
		length := oc.R * 0.94
		col := red
		if !long {
			length = oc.R * 0.80
			col = ink
		}
		dir := board.Vec{X: math.Cos(ang), Y: math.Sin(ang)}
		side := board.Vec{X: -dir.Y, Y: dir.X}
		tip := dir.Scale(length)
		w := cc.R * 0.62
		b1 := dir.Scale(cc.R * 0.9).Add(side.Scale(w))
		b2 := dir.Scale(cc.R * 0.9).Sub(side.Scale(w))
		o := board.Vec{}
		c.shape(grow(boxOf(o, tip, b1), 1), func(p board.Vec) float64 { return sdTriangle(p, o, tip, b1) }, col, 0.9, op)
		for _, e := range [][2]board.Vec{{o, b2}, {b2, tip}, {tip, b1}, {o, tip}} {
			e := e
			c.shape(grow(boxOf(e[0], e[1]), 1), func(p board.Vec) float64 { return sdSegment(p, e[0], e[1], 0.35) }, ink, 0.85, op)
		}
	}
	c.shape(circleBox(cc.C, cc.R+1), func(p board.Vec) float64 { return sdDisc(p, cc.C, cc.R) }, red, 0.95, op)
	c.shape(circleBox(cc.C, cc.R+1), func(p board.Vec) float64 { return sdRing(p, cc.C, cc.R, 0.4) }, ink, 0.9, op)
}

// homeMarkings: plain double lines, plain circles, plain arrows, no red.
func homeMarkings(c *canvas, g *board.Geometry, op *field) {
	ink := inkBlack
	m := g.Marks()
	for _, sd := range board.Sides {
		sm := m.Side(sd)
		x0, x1 := sm.Circles[0].X, sm.Circles[1].X
		for _, ln := range []board.Band{sm.Rear, sm.Front} {
			y, hw := ln.Y, ln.Width/2
			a, b := board.FromLocal(sd, board.Vec{X: x0, Y: y}), board.FromLocal(sd, board.Vec{X: x1, Y: y})
			c.shape(grow(boxOf(a, b), hw+1), func(p board.Vec) float64 {
				l := board.ToLocal(sd, p)
				return math.Max(math.Abs(l.Y-y)-hw, math.Max(x0-l.X, l.X-x1))
			}, ink, 0.85, op)
		}
		for _, k := range m.BaseCircles(sd) {
			k := k
			c.shape(circleBox(k.C, k.R+1), func(p board.Vec) float64 { return sdRing(p, k.C, k.R-0.4, 0.4) }, ink, 0.85, op)
		}
	}
	if m.HasArrows() {
		for _, pk := range board.Pockets {
			ar := m.Arrow(pk)
			hw := m.ArrowWidth(pk) / 2
			c.shape(grow(boxOf(ar.A, ar.B), hw+1), func(p board.Vec) float64 { return sdSegment(p, ar.A, ar.B, hw) }, ink, 0.85, op)
		}
	}
	oc, cc := m.OuterCircle(), m.CentreCircle()
	c.shape(circleBox(oc.C, oc.R+1), func(p board.Vec) float64 { return sdRing(p, oc.C, oc.R, 0.6) }, ink, 0.85, op)
	c.shape(circleBox(cc.C, cc.R+1), func(p board.Vec) float64 { return sdRing(p, cc.C, cc.R, 0.6) }, ink, 0.85, op)
}

func arrowHead(c *canvas, tip, dir board.Vec, length, halfWidth float64, col bgr, op *field) {
	side := board.Vec{X: -dir.Y, Y: dir.X}
	back := tip.Sub(dir.Scale(length))
	a, b := back.Add(side.Scale(halfWidth)), back.Sub(side.Scale(halfWidth))
	c.shape(grow(boxOf(tip, a, b), 1), func(p board.Vec) float64 { return sdTriangle(p, tip, a, b) }, col, 0.9, op)
}

var brands = []string{"Champion", "Royal Club", "Supreme", "Victory", "Kingfisher"}

// boardText prints a maker's name, "MADE IN INDIA" and "Carrom" in the
// base line gaps, as real boards have.
func boardText(c *canvas, g *board.Geometry, r *rng, icf bool, op *field) {
	y := g.BaseCircleY()
	px := func(mm float64) float64 { return mm * c.ppm * 2 }
	brand := brands[r.intn(len(brands))]
	col := inkRed
	if !icf {
		col = inkBlack
	}
	m := textMask(brand, gocv.FontHersheyScriptSimplex|gocv.FontItalic, px(9), 2)
	w := float64(m.w) / (2 * c.ppm)
	c.stamp(m, board.FromLocal(board.N, board.Vec{Y: y}), 0, w, col, 0.9, op)
	m = textMask("MADE IN INDIA", gocv.FontHersheySimplex, px(4.2), 2)
	w = float64(m.w) / (2 * c.ppm)
	c.stamp(m, board.FromLocal(board.S, board.Vec{Y: y}), 0, w, inkBlack, 0.85, op)
	m = textMask("Carrom", gocv.FontHersheyComplex|gocv.FontItalic, px(6), 1)
	w = float64(m.w) / (2 * c.ppm)
	c.stamp(m, board.FromLocal(board.E, board.Vec{Y: y}), -math.Pi/2, w, inkBlack, 0.85, op)
	c.stamp(m, board.FromLocal(board.W, board.Vec{Y: y}), math.Pi/2, w, inkBlack, 0.85, op)
}

// frameTop paints the lacquered rails around the surface: grain along each
// rail, mitred corners, rounded (lighter) inner edge, darker outer edge.
func frameTop(c *canvas, g *board.Geometry, frame bgr, fibre, fibreT, low field, r *rng, st BoardStyle) {
	h, fw := g.Half(), g.FrameWidth
	if fw <= 0 {
		return
	}
	lum := (frame[0] + frame[1] + frame[2]) / 3
	grainAmp := 0.05 + 0.12*clamp(lum/150, 0, 1)
	c.each(-h-fw, -h-fw, h+fw, h+fw, func(k int, p board.Vec) {
		ax, ay := math.Abs(p.X), math.Abs(p.Y)
		m := math.Max(ax, ay)
		if m <= h-1 {
			return
		}
		n := fibre.v[k]
		if ay < ax { // E and W rails run along y
			n = fibreT.v[k]
		}
		col := frame.scale(1 + grainAmp*float64(n) + 0.04*float64(low.v[k]))
		// the lacquer mirrors the room: broad, faint lighter smears that
		// show most on dark frames
		sheen := 22 * (1 - clamp(lum/200, 0, 1)) * smoothstep(0.05, 0.6, float64(low.v[k]))
		col = col.add(bgr{sheen, sheen, sheen})
		inner := m - h
		if inner < 3 {
			col = col.scale(1.25 + 0.25*(1-inner/3)).add(bgr{10, 10, 10})
		}
		if outer := h + fw - m; outer < 3 {
			col = col.scale(0.75 + 0.25*outer/3)
		}
		if seam := math.Abs(ax-ay) / math.Sqrt2; seam < 0.6 {
			col = col.scale(0.7 + 0.3*seam/0.6)
		}
		cov := clamp(0.5+(m-h)*c.ppm, 0, 1)
		c.blend(k, col, cov)
	})
	if st.Text {
		brand := brands[r.intn(len(brands))]
		m := textMask(brand, gocv.FontHersheyDuplex, 16*c.ppm*2, 2)
		w := float64(m.w) / (2 * c.ppm)
		c.stamp(m, board.Vec{Y: -h - fw/2}, 0, w, rgb(225, 225, 222), 0.9, nil)
	}
}

// wallStrip paints one inner wall of the frame, seen from the surface:
// width along the side (mm, from -half to half), height FrameHeight; shade
// is how directly the lamp lights it.
func wallStrip(g *board.Geometry, s Settings, ppm, shade float64) *canvas {
	h := g.Half()
	hgt := s.Board.FrameHeight
	c := newCanvas(-h, 0, 2*h, math.Max(hgt, 1), ppm)
	frame, _ := parseColour(s.Board.Frame, frameColours)
	for j := 0; j < c.h; j++ {
		for i := 0; i < c.w; i++ {
			p := c.mm(i, j)
			z := hgt - p.Y // row 0 is the top of the wall
			ao := 0.55 + 0.45*smoothstep(0, 8, z)
			col := frame.scale(0.9 * shade * ao)
			if p.Y < 1.5 {
				col = col.scale(1.3).add(bgr{8, 8, 8})
			}
			c.set(j*c.w+i, col)
		}
	}
	return c
}
