package vision

import (
	"image"
	"math"
	"reflect"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
)

// The phases of Detector.detect, each on its own (see detect).

func TestTileGridRegions(t *testing.T) {
	g := newTileGrid(230, 24) // 10 tiles a side, the last cut at 230 px
	if g.n != 10 {
		t.Fatalf("%d tiles a side, want 10", g.n)
	}
	for _, k := range [][2]int{{2, 2}, {5, 2}, {8, 7}, {9, 7}} {
		g.dirty[k[1]*g.n+k[0]] = true
	}
	got := g.regions()
	// (2,2) and (5,2) grown by a tile touch (3|4): one region; (8,7) and
	// (9,7) another, cut at the image's edge
	want := []image.Rectangle{image.Rect(24, 24, 168, 96), image.Rect(168, 144, 230, 216)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("regions %v, want %v", got, want)
	}
	if s := g.share(); s != 0.04 {
		t.Errorf("share %v, want 0.04", s)
	}
	if !g.at(2*24+5, 2*24+5) || g.at(3*24+5, 2*24+5) || !g.at(-30, 5) {
		t.Error("at: wrong tile")
	}
	// near: within m pixels of a dirty tile, in both directions
	if !g.near(3*24+3, 2*24+3, 4) || g.near(3*24+5, 2*24+5, 4) {
		t.Error("near: wrong margin")
	}
	g.reset(false)
	if len(g.regions()) != 0 || g.share() != 0 {
		t.Error("a clean grid has regions to search")
	}
	g.reset(true)
	if r := g.regions(); len(r) != 1 || r[0] != image.Rect(0, 0, 230, 230) || g.share() != 1 {
		t.Errorf("a full grid: %v, share %v", r, g.share())
	}
}

func TestTileGridMarkRound(t *testing.T) {
	g := newTileGrid(230, 24)
	count := make([]int, g.n*g.n)
	const fullEvery = 3
	for f := 0; f < 10*fullEvery; f++ {
		g.reset(false)
		g.markRound(f, fullEvery)
		for k, v := range g.dirty {
			if v {
				count[k]++
			}
		}
	}
	for k, c := range count {
		if c < 1 || c > 2 {
			t.Fatalf("tile %d searched %d times in %d frames, want once or twice", k, c, 10*fullEvery)
		}
	}
}

// phaseDetector is a Detector with only what the phases below read.
func phaseDetector(size int) *Detector {
	g := newTileGrid(size, tilePx)
	nb := size / blockPx
	bg := &background{nb: nb, bs: blockPx, mmPer: 1.6, changed: make([]bool, nb*nb), stable: make([]uint16, nb*nb), edge: make([]bool, nb*nb)}
	for k := range bg.stable {
		bg.stable[k] = 100
	}
	return &Detector{grid: g, bg: bg, hands: newHandStage(bg), cfg: Config{FullEvery: 1000}, frames: 1}
}

func TestChangedTiles(t *testing.T) {
	d := phaseDetector(240) // 10×10 tiles of 6×6 blocks
	nb := d.bg.nb
	block := func(i, j int) int { return j*nb + i }
	d.bg.changed[block(7, 8)] = true         // tile (1, 1)
	d.bg.stable[block(40, 2)] = settleFrames // tile (6, 0): just came to rest
	d.bg.stable[block(2, 40)] = stableFrames + 2
	d.hands.mask[block(59, 59)] = true // tile (9, 9): a hand came
	d.changedTiles(false)
	want := map[int]bool{1*10 + 1: true, 0*10 + 6: true, 6*10 + 0: true, 99: true}
	// and the tile whose turn it is (one a frame at FullEvery 1000)
	want[(d.frames*1)%100] = true
	for k, v := range d.grid.dirty {
		if v != want[k] {
			t.Errorf("tile (%d, %d) dirty %v, want %v", k%10, k/10, v, want[k])
		}
	}
	d.changedTiles(true)
	if d.grid.share() != 1 {
		t.Error("a full search leaves tiles clean")
	}
}

func TestCarryOver(t *testing.T) {
	d := phaseDetector(240)
	d.grid.dirty[2*10+2] = true
	d.prev = []disc{
		{x: 20, y: 20, r: 8, still: 3, fresh: true},         // clean tile: kept
		{x: 60, y: 60, r: 8},                                // dirty tile (2, 2): searched again
		{x: 150, y: 150, r: 8, streak: true, blurred: true}, // a streak: looked for anew
		{x: 200, y: 30, r: 8, hidden: 0.4},                  // clean, no hand now
	}
	if kept := d.carryOver(); kept != 2 {
		t.Fatalf("kept %d, want 2", kept)
	}
	if a := d.accepted[0]; a.x != 20 || a.still != 4 || a.fresh {
		t.Errorf("kept %+v: want still 4, not fresh", a)
	}
	if a := d.accepted[1]; a.x != 200 || a.hidden != 0 {
		t.Errorf("kept %+v: want hidden 0 without a hand", a)
	}
}

func TestCrowdedStrikers(t *testing.T) {
	d := phaseDetector(240)
	d.rMan, d.rStr = 9.5, 12.3
	sum := d.rMan + d.rStr
	man := func(x, y float64) disc {
		return disc{x: x, y: y, r: d.rMan, support: 0.95, man: hypo{ok: true, support: 0.95, sym: 0.6}}
	}
	d.cands = []disc{
		{x: 100, y: 100, r: d.rStr, big: true, support: 0.9}, // a man touching it as a man does
		man(100+0.85*sum, 100),
		{x: 30, y: 200, r: d.rStr, big: true, support: 0.9}, // a man touching it as the striker does
		man(30+1.0*sum, 200),
	}
	d.crowdedStrikers()
	if d.cands[0].support != 0 {
		t.Errorf("striker-sized candidate with a man 0.85 radius sums away kept (support %v)", d.cands[0].support)
	}
	if c := d.cands[2]; !c.big || c.support != 0.9 {
		t.Errorf("the striker touching a man changed: %+v", c)
	}
}

func TestMerge(t *testing.T) {
	d := phaseDetector(240)
	d.rMan, d.rStr = 9.5, 12.3
	good := func(x, y, sup float64) disc { return disc{x: x, y: y, r: 9.5, support: sup, sym: 0.8} }
	d.accepted = []disc{good(200, 200, 0.9)} // carried over
	d.cands = []disc{
		good(100, 100, 0.9),
		good(106, 100, 0.95), // stronger, overlapping the first
		good(150, 100, 0.5),
		good(204, 200, 1),      // on the disc carried over
		{x: 50, y: 50, r: 9.5}, // no support (a striker turned neither)
	}
	d.merge()
	var got [][2]float64
	for _, a := range d.accepted[1:] {
		if !a.fresh {
			t.Errorf("merged disc at %v,%v not fresh", a.x, a.y)
		}
		got = append(got, [2]float64{a.x, a.y})
	}
	if want := [][2]float64{{106, 100}, {150, 100}}; !reflect.DeepEqual(got, want) {
		t.Errorf("merged %v, want %v", got, want)
	}
}

// TestPhasesRendered runs the phases that read pictures on frames of one
// renderer (making a renderer costs seconds: its textures).
func TestPhasesRendered(t *testing.T) {
	s := render.DefaultSettings()
	s.Width, s.Height = 1280, 720
	r := newRenderer(t, s, 5)
	defer r.Close()
	t.Run("search and merge", func(t *testing.T) { testSearchAndMerge(t, r) })
	t.Run("hand regions", func(t *testing.T) { testHandRegionsInImage(t, r) })
}

// testSearchAndMerge runs the first phases on a rendered opening
// arrangement: every disc is a candidate within 2 mm, and the merge keeps
// one disc for each (and the printed circles, told apart later).
func testSearchAndMerge(t *testing.T, r *render.Renderer) {
	det := truthDetector(t, r)
	defer det.Close()
	sc := render.OpeningScene(board.ICF(), board.S)
	f := renderScene(t, r, sc)
	defer f.Close()
	if err := det.low.apply(f, &det.bg.small); err != nil {
		t.Fatal(err)
	}
	if err := det.bg.observe(); err != nil {
		t.Fatal(err)
	}
	det.changedTiles(true)
	det.grid.regions()
	if kept := det.carryOver(); kept != 0 {
		t.Fatalf("%d discs carried over in the first frame", kept)
	}
	if _, err := det.search(f, 0); err != nil {
		t.Fatal(err)
	}
	near := func(ds []disc, p board.Vec, gate float64) int {
		n := 0
		for _, c := range ds {
			if c.support > 0 && math.Hypot(c.mm.X-p.X, c.mm.Y-p.Y) < gate {
				n++
			}
		}
		return n
	}
	for _, dc := range sc.Discs {
		if near(det.cands, dc.Pos, 2) == 0 {
			best := math.Inf(1)
			for _, c := range det.cands {
				best = math.Min(best, math.Hypot(c.mm.X-dc.Pos.X, c.mm.Y-dc.Pos.Y))
			}
			t.Errorf("%s at %v: no candidate within 2 mm (nearest %.2f)", dc.ID, dc.Pos, best)
		}
	}
	det.crowdedStrikers()
	det.merge()
	for _, dc := range sc.Discs {
		if n := near(det.accepted, dc.Pos, 2); n != 1 {
			t.Errorf("%s at %v: %d merged discs within 2 mm, want 1", dc.ID, dc.Pos, n)
		}
	}
	// the others are the printed circles the size of a man (told apart
	// from discs after the merge, by resolveMarkings)
	for _, a := range det.accepted {
		onDisc := false
		for _, dc := range sc.Discs {
			onDisc = onDisc || math.Hypot(a.mm.X-dc.Pos.X, a.mm.Y-dc.Pos.Y) < 2
		}
		onPrint := false
		for _, m := range det.mk {
			onPrint = onPrint || math.Hypot(a.mm.X-m.c.X, a.mm.Y-m.c.Y) < 3
		}
		if !onDisc && !onPrint {
			t.Errorf("merged disc at %v mm is neither a disc nor a printed circle", a.mm)
		}
	}
}
