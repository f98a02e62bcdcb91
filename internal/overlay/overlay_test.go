package overlay

import (
	"os"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/matleak"
)

func TestMain(m *testing.M) { os.Exit(matleak.Run(m, "overlay")) }

// TestKeyDistinct: the four kinds, the markings and the hands each have
// their own colour.
func TestKeyDistinct(t *testing.T) {
	seen := map[[3]uint8]string{}
	for name, c := range map[string][3]uint8{
		"white": {White.R, White.G, White.B}, "black": {Black.R, Black.G, Black.B},
		"queen": {Queen.R, Queen.G, Queen.B}, "striker": {Striker.R, Striker.G, Striker.B},
		"marking": {Marking.R, Marking.G, Marking.B}, "hand": {Hand.R, Hand.G, Hand.B}, "foul": {Foul.R, Foul.G, Foul.B},
	} {
		if o, ok := seen[c]; ok {
			t.Errorf("%s and %s share a colour", name, o)
		}
		seen[c] = name
	}
	for _, k := range board.Kinds {
		if Kind(k) != Pieces()[k].Colour {
			t.Errorf("%v: the legend's colour is not the key's", k)
		}
	}
}

// TestLegendDrawn: the legend shades and draws the top-right corner and
// leaves the rest of the picture alone.
func TestLegendDrawn(t *testing.T) {
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 200, 200, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer m.Close()
	Legend(&m, append(Pieces(), Entry{"partly hidden", White, Dashed}, Entry{"markings", Marking, Line}, Entry{"hand", Hand, Fill}))
	if v := m.GetVecbAt(20, 1270); v[0] == 200 && v[1] == 200 {
		t.Error("the top-right corner is not shaded")
	}
	if v := m.GetVecbAt(700, 10); v[0] != 200 || v[1] != 200 || v[2] != 200 {
		t.Error("the legend drew outside its corner")
	}
}
