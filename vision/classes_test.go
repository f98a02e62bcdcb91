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

// TestSplitMenGlare: under a phone's glare the natural-wood men it lights
// read twice as bright as those in the shade, relative to the board there
// too; started from brightness alone, the split parted the four lit
// natural-wood men from all the rest and called the other natural-wood men
// black. Their colour parts them from the black men by a clear gap: the
// split follows it. (Features measured on the GSI photo's phone-glare
// copy.)
func TestSplitMenGlare(t *testing.T) {
	blacks := []features{{0.411, -0.012, -0.028}, {0.230, -0.005, -0.009}, {0.278, 0.004, -0.009}, {0.183, -0.005, -0.019}, {0.211, -0.005, -0.019}, {0.274, -0.036, -0.022}, {0.172, -0.009, 0.005}, {0.252, -0.009, -0.019}, {0.251, -0.005, -0.005}, {0.381, 0.012, -0.024}}
	lit := []features{{0.526, 0.111, 0.063}, {0.512, 0.270, 0.004}, {0.855, 0.130, 0.047}, {0.909, 0.118, 0.043}}
	shade := []features{{0.289, 0.124, 0.055}, {0.283, 0.134, 0.055}, {0.341, 0.173, 0.056}, {0.303, 0.161, 0.047}}
	fs := append(append(append([]features(nil), blacks...), lit...), shade...)
	if g, _, ok := splitMenFrom(fs, 0); !ok || g[len(blacks)+len(lit)] != 0 {
		t.Fatalf("the brightness split no longer puts the natural wood in the shade with the black men (%v): the case is not tested", g)
	}
	g, sep, ok := splitMen(fs)
	if !ok || sep < 3.5 {
		t.Fatalf("no split (%v, separation %.2f)", ok, sep)
	}
	for i := range fs {
		want := 1
		if i < len(blacks) {
			want = 0
		}
		if g[i] != want {
			t.Errorf("man %d %.3f in group %d, want %d", i, fs[i], g[i], want)
		}
	}
	t.Logf("separation %.2f, gap %.2f floors", sep, gapOf(fs, g))
	// A softer glare on the same photo: one black man under it and a
	// glint taken for a disc, both colourless and bright, are parted from
	// all the rest by a wide gap in brightness; a group of two of 23 is
	// no colour, and the natural wood stays apart from the black men.
	blacks = []features{{0.145, -0.014, -0.048}, {0.188, -0.005, -0.009}, {0.179, -0.005, -0.019}, {0.219, -0.014, -0.005}, {0.417, -0.004, -0.004}, {0.322, -0.008, -0.004}, {0.164, -0.028, -0.014}, {0.185, -0.005, -0.005}, {0.165, -0.005, -0.009}, {0.570, -0.008, -0.008}}
	whites := []features{{0.292, 0.159, 0.058}, {0.244, 0.156, 0.057}, {0.263, 0.159, 0.048}, {0.268, 0.211, 0.048}, {0.364, 0.127, 0.061}, {0.307, 0.138, 0.053}, {0.317, 0.138, 0.049}, {0.389, 0.188, 0.060}, {0.360, 0.136, 0.043}, {0.426, 0.144, 0.062}, {0.391, 0.143, 0.046}, {1.032, 0, 0.078}}
	fs = append(append([]features(nil), blacks...), whites...)
	if g, _, ok = splitMen(fs); !ok {
		t.Fatal("soft glare: no split")
	}
	for i := 0; i < len(fs)-1; i++ {
		if i == len(blacks)-1 {
			continue // the black man under the glare goes either way
		}
		if want := map[bool]int{true: 0, false: 1}[i < len(blacks)]; g[i] != want {
			t.Errorf("soft glare: man %d %.3f in group %d, want %d", i, fs[i], g[i], want)
		}
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
