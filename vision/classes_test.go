package vision

import (
	"testing"

	"github.com/boardcam/boardcam/board"
)

// TestSplitMenOutlier: a bright glint taken for a disc does not become a
// colour group of its own with every man in the other (the split once
// started from the darkest and the brightest disc: on a JPEG copy of a real
// photo nine natural-wood men were called black).
func TestSplitMenOutlier(t *testing.T) {
	// Features measured on that copy: black men, natural-wood men, and
	// the glint (brighter than the board, colourless).
	blacks := []features{{0.148, -0.043, -0.019}, {0.247, -0.009, -0.005}, {0.189, -0.010, 0}, {0.178, 0.005, 0.005}, {0.256, 0.010, -0.014}, {0.203, -0.009, -0.019}, {0.253, -0.005, 0.005}, {0.156, -0.019, -0.038}, {0.178, -0.009, 0.009}, {0.165, -0.024, -0.005}}
	whites := []features{{0.285, 0.130, 0.087}, {0.247, 0.138, 0.071}, {0.263, 0.159, 0.048}, {0.269, 0.196, 0.043}, {0.294, 0.143, 0.052}, {0.348, 0.124, 0.071}, {0.299, 0.128, 0.038}, {0.384, 0.206, 0.062}, {0.291, 0.135, 0.048}}
	glint := features{1.042, 0.056, 0.075}
	fs := append(append(append([]features(nil), blacks...), whites...), glint)
	g, sep, ok := splitMen(fs)
	if !ok {
		t.Fatal("no split")
	}
	for i := range blacks {
		if g[i] != 0 {
			t.Errorf("black man %d in the brighter group", i)
		}
	}
	for i := range whites {
		if g[len(blacks)+i] != 1 {
			t.Errorf("white man %d in the darker group", i)
		}
	}
	t.Logf("separation %.1f", sep)
	// Two or three men: the extremes start the split.
	if g, _, ok := splitMen([]features{{0.2, 0, 0}, {0.8, 0.2, 0.2}}); !ok || g[0] != 0 || g[1] != 1 {
		t.Errorf("two men: %v %v", g, ok)
	}
	if _, _, ok := splitMen([]features{{0.5, 0, 0}, {0.5, 0.2, 0.2}}); ok {
		t.Error("men of one brightness split")
	}
}

// TestQueenishPink: a home set's pink queen is queen-coloured, however
// bright; natural wood is not, under a warm lamp either; a red queen and a
// dark man stay as they were.
func TestQueenishPink(t *testing.T) {
	for _, c := range []struct {
		name string
		f    features
		want bool
	}{
		{"pink queen on a pale board (home-set clip)", features{0.778, 0.507, -0.063}, true},
		{"red queen", features{0.231, 0.299, 0.029}, true},
		{"red queen, warm light", features{0.205, 0.409, 0.023}, true},
		{"natural wood (home-set clip)", features{0.918, 0.159, 0.238}, false},
		{"natural wood, warm light", features{0.303, 0.313, 0.086}, true}, // red enough for its brightness: redMen sorts it out
		{"natural wood, JPEG", features{0.384, 0.206, 0.062}, false},
		{"orange wood", features{0.6, 0.35, 0.3}, false},
		{"black man", features{0.150, -0.005, 0.011}, false},
		{"dark red-brown", features{0.15, 0.2, 0.0}, false},
	} {
		if got := queenish(c.f); got != c.want {
			t.Errorf("%s %.3f: queenish %v, want %v", c.name, c.f, got, c.want)
		}
	}
}

// TestOneFrameGap: the GSI photo's men (features measured on its JPEG
// copy) split at a separation under the learning bar, but no natural-wood
// man comes within 2.5 spread floors of a black one in red−green: one
// frame of them teaches LearnSet their colours. One man half-way between
// the groups closes the gap, and nothing is learned.
func TestOneFrameGap(t *testing.T) {
	blacks := []features{{0.148, -0.043, -0.019}, {0.247, -0.009, -0.005}, {0.189, -0.010, 0}, {0.178, 0.005, 0.005}, {0.256, 0.010, -0.014}, {0.203, -0.009, -0.019}, {0.253, -0.005, 0.005}, {0.156, -0.019, -0.038}, {0.178, -0.009, 0.009}, {0.165, -0.024, -0.005}}
	whites := []features{{0.285, 0.130, 0.087}, {0.247, 0.138, 0.071}, {0.263, 0.159, 0.048}, {0.269, 0.196, 0.043}, {0.294, 0.143, 0.052}, {0.348, 0.124, 0.071}, {0.299, 0.128, 0.038}, {0.384, 0.206, 0.062}, {0.291, 0.135, 0.048}}
	fs := append(append([]features(nil), blacks...), whites...)
	g, sep, ok := splitMen(fs)
	if !ok {
		t.Fatal("no split")
	}
	gap := gapOf(fs, g)
	t.Logf("separation %.2f, gap %.2f floors", sep, gap)
	if gap < oneFrameGap {
		t.Errorf("gap %.2f floors, want at least %.1f", gap, oneFrameGap)
	}
	mid := append(append([]features(nil), fs...), features{0.25, 0.065, 0.02})
	g, _, ok = splitMen(mid)
	if !ok {
		t.Fatal("no split with the man between")
	}
	if gap := gapOf(mid, g); gap >= oneFrameGap {
		t.Errorf("a man half-way between the groups: gap %.2f floors, want under %.1f", gap, oneFrameGap)
	}
	// Only LearnSet's one-frame model reads the gap frame.
	o := &onlineModel{gapFrame: &onlineModel{frames: 1}}
	for _, f := range blacks {
		o.gapFrame.add(board.Black, f)
	}
	for _, f := range whites {
		o.gapFrame.add(board.White, f)
	}
	if o.model() != nil {
		t.Error("the detector's own model learned from a frame under the bar")
	}
	if m := o.oneFrame(); m == nil || m.Kinds[board.White].N != len(whites) || m.Kinds[board.Black].N != len(blacks) {
		t.Errorf("one-frame model %+v, want the gap frame's men", m)
	}
}
