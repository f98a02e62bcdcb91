package render

import (
	"math"

	"github.com/boardcam/boardcam/board"
)

// backgroundTexture paints what lies around the board, on a plane
// Background.Depth below the playing surface, over [-ext, ext]² mm: a table
// top, tiled floor or cloth, the board's soft shadow, and clutter (cables,
// cups, phones, boxes, paper, a tin of powder).
func backgroundTexture(s Settings, g *board.Geometry, ext, ppm float64, seed uint64) *canvas {
	c := newCanvas(-ext, -ext, 2*ext, 2*ext, ppm)
	r := newRNG(seed, 2)
	cell := func(mm float64) float64 { return math.Max(mm*ppm, 1.5) }
	low := fbm(r, c.w, c.h, cell(400), cell(400), 3)
	switch s.Background.Kind {
	case "table":
		tones := []bgr{rgb(120, 72, 44), rgb(150, 100, 62), rgb(92, 58, 40), rgb(180, 140, 100)}
		base := tones[r.intn(len(tones))]
		fib := smoothNoise(r, c.w, c.h, cell(120), cell(2))
		warp := fbm(r, c.w, c.h, cell(500), cell(90), 2)
		plank := r.in(140, 260)
		for j := 0; j < c.h; j++ {
			for i := 0; i < c.w; i++ {
				k := j*c.w + i
				p := c.mm(i, j)
				band := math.Pow(0.5+0.5*math.Sin(2*math.Pi*(p.Y/14+2*float64(warp.v[k]))), 4)
				pl := math.Floor(p.Y / plank)
				tone := 1 + 0.08*math.Sin(pl*12.9898)
				col := base.scale(tone * (1 + 0.06*float64(low.v[k])) * (1 - 0.12*band - 0.06*float64(fib.v[k])))
				f := math.Mod(p.Y+10000*plank, plank)
				col = col.scale(1 - 0.45*lineCover(math.Min(f, plank-f), 0.6, ppm))
				c.set(k, col)
			}
		}
	case "floor":
		tones := []bgr{rgb(196, 186, 170), rgb(150, 146, 140), rgb(205, 200, 190), rgb(170, 120, 95)}
		base := tones[r.intn(len(tones))]
		speck := smoothNoise(r, c.w, c.h, cell(6), cell(6))
		tile := r.in(300, 600)
		for j := 0; j < c.h; j++ {
			for i := 0; i < c.w; i++ {
				k := j*c.w + i
				p := c.mm(i, j)
				tx, ty := math.Floor(p.X/tile), math.Floor(p.Y/tile)
				h := splitmix(uint64(int64(tx)+1<<20)<<32 ^ uint64(int64(ty)+1<<20))
				tone := 1 + 0.1*(float64(h>>11)/(1<<53)-0.5)
				col := base.scale(tone * (1 + 0.05*float64(low.v[k]) + 0.06*float64(speck.v[k])))
				fx := math.Mod(p.X+100*tile, tile)
				fy := math.Mod(p.Y+100*tile, tile)
				d := math.Min(math.Min(fx, tile-fx), math.Min(fy, tile-fy))
				col = col.scale(1 - 0.3*lineCover(d, 1.5, ppm))
				c.set(k, col)
			}
		}
	default: // cloth
		tones := []bgr{rgb(40, 70, 50), rgb(110, 30, 40), rgb(40, 50, 90), rgb(90, 90, 95)}
		base := tones[r.intn(len(tones))]
		weave := smoothNoise(r, c.w, c.h, cell(1.5), cell(1.5))
		folds := fbm(r, c.w, c.h, cell(250), cell(120), 3)
		for k := 0; k < c.w*c.h; k++ {
			col := base.scale(1 + 0.25*float64(folds.v[k]) + 0.06*float64(weave.v[k]))
			c.set(k, col)
		}
	}

	// Clutter, kept clear of the board's footprint (which hides it anyway).
	foot := g.Half() + g.FrameWidth
	light := s.Lighting.Light
	n := int(math.Round(s.Background.Clutter * 14))
	for i := 0; i < n; i++ {
		var p board.Vec
		for tries := 0; tries < 20; tries++ {
			p = board.Vec{X: r.in(-ext, ext), Y: r.in(-ext, ext)}
			if math.Max(math.Abs(p.X), math.Abs(p.Y)) > foot+30 {
				break
			}
		}
		rot := r.in(0, math.Pi)
		sh := p.Sub(board.Vec{X: light[0], Y: light[1]}).Unit().Scale(6)
		switch r.intn(6) {
		case 0, 1: // cable: a wandering curve from far away
			cols := []bgr{rgb(20, 20, 22), rgb(230, 230, 225), rgb(170, 30, 30), rgb(40, 40, 120)}
			col := cols[r.intn(len(cols))]
			width := r.in(3, 7)
			pts := []board.Vec{p}
			dir := r.in(0, 2*math.Pi)
			for k := 0; k < 40; k++ {
				dir += r.in(-0.35, 0.35)
				q := pts[len(pts)-1].Add(board.Vec{X: math.Cos(dir), Y: math.Sin(dir)}.Scale(25))
				pts = append(pts, q)
			}
			for k := 1; k < len(pts); k++ {
				a, b := pts[k-1], pts[k]
				c.shape(grow(boxOf(a.Add(sh), b.Add(sh)), width+4), func(q board.Vec) float64 { return sdSegment(q, a.Add(sh), b.Add(sh), width/2+1.5) }, bgr{}, 0.12, nil)
			}
			for k := 1; k < len(pts); k++ {
				a, b := pts[k-1], pts[k]
				c.shape(grow(boxOf(a, b), width), func(q board.Vec) float64 { return sdSegment(q, a, b, width/2) }, col, 1, nil)
			}
		case 2: // cup or tin seen from above
			rad := r.in(35, 60)
			cols := []bgr{rgb(235, 235, 230), rgb(180, 40, 40), rgb(40, 80, 160), rgb(200, 170, 60)}
			col := cols[r.intn(len(cols))]
			c.shape(circleBox(p.Add(sh.Scale(2)), rad+12), func(q board.Vec) float64 { return sdDisc(q, p.Add(sh.Scale(2)), rad+4) }, bgr{}, 0.3, nil)
			c.shape(circleBox(p, rad+1), func(q board.Vec) float64 { return sdDisc(q, p, rad) }, col, 1, nil)
			c.shape(circleBox(p, rad), func(q board.Vec) float64 { return sdDisc(q, p, rad-4) }, col.scale(0.55), 1, nil)
		case 3: // phone
			hx, hy := 36.0, 75.0
			c.shape(circleBox(p, 100), func(q board.Vec) float64 { return sdBox(q, p.Add(sh), hx+2, hy+2, rot, 8) }, bgr{}, 0.3, nil)
			c.shape(circleBox(p, 90), func(q board.Vec) float64 { return sdBox(q, p, hx, hy, rot, 7) }, rgb(25, 25, 30), 1, nil)
			c.shape(circleBox(p, 90), func(q board.Vec) float64 { return sdBox(q, p, hx-3, hy-3, rot, 5) }, rgb(40, 45, 60), 1, nil)
		case 4: // paper sheet or score card
			hx, hy := r.in(70, 105), r.in(100, 150)
			c.shape(circleBox(p, 200), func(q board.Vec) float64 { return sdBox(q, p, hx, hy, rot, 1) }, rgb(238, 236, 228), 1, nil)
			for l := -hy + 20; l < hy-10; l += 14 {
				a := p.Add(board.Vec{X: math.Cos(rot), Y: math.Sin(rot)}.Scale(-hx + 10)).Add(board.Vec{X: -math.Sin(rot), Y: math.Cos(rot)}.Scale(l))
				b := a.Add(board.Vec{X: math.Cos(rot), Y: math.Sin(rot)}.Scale(r.in(hx, 2*hx-20)))
				c.shape(grow(boxOf(a, b), 2), func(q board.Vec) float64 { return sdSegment(q, a, b, 0.6) }, rgb(60, 60, 90), 0.6, nil)
			}
		default: // a box
			hx, hy := r.in(50, 120), r.in(40, 90)
			cols := []bgr{rgb(170, 130, 80), rgb(200, 60, 40), rgb(60, 120, 60), rgb(230, 220, 200)}
			col := cols[r.intn(len(cols))]
			c.shape(circleBox(p, 200), func(q board.Vec) float64 { return sdBox(q, p.Add(sh.Scale(3)), hx+3, hy+3, rot, 6) }, bgr{}, 0.35, nil)
			c.shape(circleBox(p, 160), func(q board.Vec) float64 { return sdBox(q, p, hx, hy, rot, 2) }, col, 1, nil)
			c.shape(circleBox(p, 160), func(q board.Vec) float64 { return sdBox(q, p, hx-4, hy-4, rot, 2) }, col.scale(1.08), 1, nil)
		}
	}

	// The board's shadow: its footprint seen from the lamp, softened.
	depth := s.Background.Depth
	lz := light[2] + depth
	scale := lz / light[2]
	soft := s.Lighting.LampSize*depth/light[2] + 8 + depth*0.15
	dark := 0.55 * s.Lighting.Shadows
	lv := board.Vec{X: light[0], Y: light[1]}
	c.each(-ext, -ext, ext, ext, func(k int, p board.Vec) {
		// the point of the board's plane that shades p
		q := lv.Add(p.Sub(lv).Scale(1 / scale))
		d := math.Max(math.Abs(q.X), math.Abs(q.Y)) - foot
		sh := smoothstep(soft, -soft, d)
		ao := 0.35 * math.Exp(-math.Max(math.Max(math.Abs(p.X), math.Abs(p.Y))-foot, 0)/(20+depth*0.3))
		a := math.Max(sh*dark, ao*s.Lighting.Shadows)
		if a > 0.002 {
			c.set(k, c.get(k).scale(1-a))
		}
	})
	return c
}

// lineCover is how much of a texel at distance d (mm) from the middle of a
// line of half width hw is covered by the line, anti-aliased; a line thinner
// than a texel is spread over one texel with its ink thinned.
func lineCover(d, hw, ppm float64) float64 {
	texel := 1 / ppm
	if 2*hw >= texel {
		return clamp(0.5-(d-hw)*ppm, 0, 1)
	}
	return clamp(0.5-(d-texel/2)*ppm, 0, 1) * 2 * hw / texel
}
