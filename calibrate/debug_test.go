package calibrate

import (
	"math"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
)

// TestDrawDebug checks that the debug image shows the corners and the
// re-projected markings where the calibration puts them.
func TestDrawDebug(t *testing.T) {
	g := board.ICF()
	img, _ := renderView(t, g, view{W: 960, H: 540, Fill: 0.86, Seed: 1})
	defer img.Close()
	cal, rep, err := Detect(img, Options{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	out := gocv.NewMat()
	defer out.Close()
	if err := DrawDebug(img, cal, g, rep, &out); err != nil {
		t.Fatal(err)
	}
	if out.Cols() != img.Cols() || out.Rows() != img.Rows() || out.Channels() != 3 {
		t.Fatalf("debug image %dx%dx%d", out.Cols(), out.Rows(), out.Channels())
	}
	is := func(p Point, want [3]uint8) bool {
		// Any pixel within 1 px carrying the colour.
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				x, y := int(math.Round(p.X))+dx, int(math.Round(p.Y))+dy
				v := out.GetVecbAt(y, x)
				if v[0] == want[0] && v[1] == want[1] && v[2] == want[2] {
					return true
				}
			}
		}
		return false
	}
	red := [3]uint8{colCorner.B, colCorner.G, colCorner.R}
	for i, c := range cal.Corners {
		if !is(c, red) {
			t.Errorf("corner %d not marked", i)
		}
	}
	magenta := [3]uint8{colPredict.B, colPredict.G, colPredict.R}
	rl := g.RearLine(board.S)
	mid := cal.ToImage(board.Vec{X: (rl.A.X + rl.B.X) / 2, Y: (rl.A.Y + rl.B.Y) / 2})
	if !is(mid, magenta) && !is(mid, [3]uint8{colMeasured.B, colMeasured.G, colMeasured.R}) {
		t.Error("rear base line of S not drawn")
	}
	// Manual calibrations (no report) draw too.
	if err := DrawDebug(img, cal, nil, nil, &out); err != nil {
		t.Fatal(err)
	}
	if err := DrawDebug(img, nil, nil, nil, &out); err == nil {
		t.Error("nil calibration accepted")
	}
}
