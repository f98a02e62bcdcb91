package vision

import (
	"reflect"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sight"
)

// maskOf makes an nb×nb block mask from rows of '#' (on) and '.' (off).
func maskOf(rows ...string) ([]bool, int) {
	nb := len(rows)
	m := make([]bool, nb*nb)
	for j, row := range rows {
		for i, c := range row {
			m[j*nb+i] = c == '#'
		}
	}
	return m, nb
}

func TestHandStageFind(t *testing.T) {
	fg, nb := maskOf(
		"..........",
		"###.......", // an arm in from the left edge: 6 blocks
		"###.......",
		"..........",
		".....##...", // a patch in the middle: 6 blocks, not at the edge
		".....##...",
		".....##...",
		"..........",
		".........#", // at the edge, 2 blocks: too small
		".........#",
	)
	edge := make([]bool, nb*nb)
	for k := range edge {
		i, j := k%nb, k/nb
		edge[k] = i == 0 || j == 0 || i == nb-1 || j == nb-1
	}
	h := newHandStage(&background{nb: nb, bs: blockPx, mmPer: 10, edge: edge})
	none := func(i, j int) bool { return false }
	if !h.find(fg, none, 600) || !h.on {
		t.Fatal("the arm at the edge was not found")
	}
	want, _ := maskOf( // the arm grown by one block
		"####......",
		"####......",
		"####......",
		"####......",
		"..........",
		"..........",
		"..........",
		"..........",
		"..........",
		"..........",
	)
	if !reflect.DeepEqual(h.mask, want) {
		t.Errorf("mask\n%v\nwant\n%v", h.mask, want)
	}
	if h.at(5, 5) != true || h.at(4*blockPx+1, 1) != false {
		t.Error("at does not read the mask in rectified pixels")
	}
	// the blocks on a disc are not the hand: what is left is too small
	onDisc := func(i, j int) bool { return i == 1 }
	if h.find(fg, onDisc, 600) {
		t.Errorf("an arm split by a disc's blocks into parts under the minimum area was taken for a hand")
	}
	// the mask of the last frame is what changed is measured against
	h.find(fg, none, 600)
	h.endFrame()
	if h.changed(0) {
		t.Error("changed right after endFrame")
	}
	h.find(fg, onDisc, 600)
	if !h.changed(0) || h.changed(nb*nb-1) {
		t.Error("changed does not compare with the last frame's mask")
	}
}

func TestMaskRegionsOutline(t *testing.T) {
	mask, nb := maskOf(
		"......",
		".##...", // an L
		".#....",
		"......",
		"....#.", // two blocks touching at a corner: one region
		".....#",
	)
	regs := maskRegions(mask, nb)
	if len(regs) != 2 {
		t.Fatalf("%d regions, want 2", len(regs))
	}
	if want := [][2]int{{1, 1}, {3, 1}, {3, 2}, {2, 2}, {2, 3}, {1, 3}}; regs[0].blocks != 3 || !reflect.DeepEqual(regs[0].outline, want) {
		t.Errorf("L: %d blocks, outline %v; want 3, %v", regs[0].blocks, regs[0].outline, want)
	}
	if want := [][2]int{{4, 4}, {5, 4}, {5, 5}, {6, 5}, {6, 6}, {5, 6}, {5, 5}, {4, 5}}; regs[1].blocks != 2 || !reflect.DeepEqual(regs[1].outline, want) {
		t.Errorf("diagonal pair: %d blocks, outline %v; want 2, %v", regs[1].blocks, regs[1].outline, want)
	}
	// a ring: the outline is the outer one, the hole is left out
	mask, nb = maskOf(
		"#####",
		"#...#",
		"#...#",
		"#...#",
		"#####",
	)
	regs = maskRegions(mask, nb)
	if want := [][2]int{{0, 0}, {5, 0}, {5, 5}, {0, 5}}; len(regs) != 1 || regs[0].blocks != 16 || !reflect.DeepEqual(regs[0].outline, want) {
		t.Errorf("ring: %+v, want one region of 16 blocks outlined %v", regs, want)
	}
	if a := polygonArea(regs[0].outline); a != 25 {
		t.Errorf("ring's outline encloses %v blocks, want 25", a)
	}
}

// maskRegions' label scratch is reused between calls (labelScratch):
// a mask's regions are the same after a larger mask, labelled all over,
// left its labels in the scratch as before.
func TestMaskRegionsAfterALargerMask(t *testing.T) {
	small, ns := maskOf(
		".#.",
		"...",
		"#.#",
	)
	want := maskRegions(small, ns)
	large := make([]bool, 40*40)
	for k := range large {
		large[k] = k%3 != 0 // many regions, every label used
	}
	for range 4 {
		maskRegions(large, 40)
		if got := maskRegions(small, ns); !reflect.DeepEqual(got, want) {
			t.Fatalf("after a larger mask: %+v, want %+v", got, want)
		}
	}
	if len(want) != 3 {
		t.Errorf("%d regions, want 3", len(want))
	}
}

// testHandRegionsInImage: the hand stage's regions of a rendered arm, as
// the frame's Occlusion gives them, outline the arm in the image (run by
// TestPhasesRendered).
func testHandRegionsInImage(t *testing.T, r *render.Renderer) {
	det := truthDetector(t, r)
	defer det.Close()
	sc := &scene.Scene{Discs: []scene.Disc{{ID: "W1", Kind: board.White, Pos: board.Vec{X: -100, Y: 50}, State: scene.Rest}}}
	hand := scene.Hand{Owner: "E", Elbow: board.Vec{X: 600, Y: 60}, Wrist: board.Vec{X: 300, Y: 20}, Fingertip: board.Vec{X: 170, Y: 10}, ArmWidth: 70, HandWidth: 85, Z: 15}
	var fr Frame
	for i := 0; i < 3; i++ {
		if i == 2 {
			sc.Hands = []scene.Hand{hand}
		}
		sc.T = float64(i) / 30
		f := renderScene(t, r, sc)
		var err error
		fr, err = det.Detect(f, i, sc.T)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i < 2 && fr.Occlusion != nil {
			t.Fatalf("frame %d: a hand before there is one", i)
		}
	}
	hr, ok := fr.Occlusion.(sight.HandRegions)
	if !ok {
		t.Fatalf("the frame's Occlusion %T does not give its hand regions", fr.Occlusion)
	}
	regs := hr.HandRegions()
	if len(regs) != 1 {
		t.Fatalf("%d hand regions, want 1", len(regs))
	}
	reg := regs[0]
	if reg.AreaMM2 < handMinArea || len(reg.Outline) < 4 {
		t.Fatalf("region of %.0f mm², outline of %d points", reg.AreaMM2, len(reg.Outline))
	}
	cam := r.CameraAt(sc.T)
	inside := func(x, y float64) bool { // even-odd rule
		in := false
		p := reg.Outline
		for a, b := 0, len(p)-1; a < len(p); b, a = a, a+1 {
			if (p[a][1] > y) != (p[b][1] > y) && x < (p[b][0]-p[a][0])*(y-p[a][1])/(p[b][1]-p[a][1])+p[a][0] {
				in = !in
			}
		}
		return in
	}
	on := map[string]board.Vec{"fingertip": hand.Fingertip.Add(board.Vec{X: 15}), "wrist": hand.Wrist, "forearm": board.Vec{X: 360, Y: 30}}
	off := map[string]board.Vec{"the man": {X: -100, Y: 50}, "the far side": {X: -300, Y: 0}, "beside the arm": {X: 300, Y: 150}}
	for name, p := range on {
		x, y, _ := cam.Project(p, hand.Z)
		if !inside(x, y) {
			t.Errorf("the %s at (%.0f, %.0f) px is outside the outline %v", name, x, y, reg.Outline)
		}
	}
	for name, p := range off {
		x, y, _ := cam.Project(p, 0)
		if inside(x, y) {
			t.Errorf("%s at (%.0f, %.0f) px is inside the outline %v", name, x, y, reg.Outline)
		}
	}
	// the outline is the mask: a disc whose centre is inside is hidden
	if h := fr.Occlusion.Hidden(hand.Wrist, 10); h < 0.99 {
		t.Errorf("the wrist is %.2f hidden", h)
	}
}
