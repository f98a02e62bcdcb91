package vision

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
)

// TestLearnSet: sets that are not the ICF's — a home set with small men,
// a pink queen and a white plastic striker twice a man's size on a pale
// board, a set with large men and a blue striker, ICF men with a striker
// smaller than the standard (38 mm: within sameStriker's 8% of 41.5 it
// would be taken for it) — are learned from one
// frame at rest (sizes, men within 2.5 mm and the striker within 11%, and
// the colours of both kinds of men from that one frame), and with the set learned every disc is found with its class: the
// big striker as the striker, no man taken for it. (Without the set, the
// home set's striker is taken for a white man.)
func TestLearnSet(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	cases := []struct {
		name string
		set  board.Set
		mod  func(*render.Settings)
		// tol is the share the striker may be learned off (0: 11%)
		tol float64
	}{
		{"home set: small men, pink queen, white striker twice a man", board.Set{ManMM: 28, StrikerMM: 62},
			func(s *render.Settings) {
				s.Pieces.Queen, s.Pieces.Striker, s.Pieces.Blacks, s.Board.Wood = "pink", "white", "black", "birch"
			}, 0},
		{"ICF set", board.Set{ManMM: 31.8, StrikerMM: 41.5}, func(s *render.Settings) {}, 0},
		{"large men, blue striker of 50 mm", board.Set{ManMM: 34, StrikerMM: 50},
			func(s *render.Settings) { s.Pieces.Striker, s.Pieces.Whites = "blue", "yellow" }, 0},
		// smaller than the standard 41.5 by 8.4%: learned as itself, not
		// taken for the standard one (sameStriker)
		{"ICF men, a small striker of 38 mm", board.Set{ManMM: 31.8, StrikerMM: 38}, func(s *render.Settings) {}, 0.05},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gs := board.ICF().WithSet(&c.set)
			s := render.DefaultSettings()
			c.mod(&s)
			r, err := render.New(s, gs, int64(20+ci))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			sc := scatterSceneOn(gs, int64(30+ci), 14)
			f := renderScene(t, r, sc)
			defer f.Close()
			set, err := LearnSet(f, truthCalibration(t, r, 0), Config{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("learned men %.1f mm (true %.1f), striker %.1f mm (true %.1f), colours from %s", set.ManMM, c.set.ManMM, set.StrikerMM, c.set.StrikerMM, set.Source)
			if d := math.Abs(set.ManMM - c.set.ManMM); d > 2.5 {
				t.Errorf("men learned %.1f mm, true %.1f", set.ManMM, c.set.ManMM)
			}
			tol := c.tol
			if tol == 0 {
				tol = 0.11
			}
			if d := math.Abs(set.StrikerMM - c.set.StrikerMM); d > tol*c.set.StrikerMM {
				t.Errorf("striker learned %.1f mm, true %.1f", set.StrikerMM, c.set.StrikerMM)
			}
			// The colours from this one frame (no opening): both colours
			// of men, from as many men as the frame shows.
			if n := set.Colours[board.White].N + set.Colours[board.Black].N; set.Colours[board.White].N < minOneFrame || set.Colours[board.Black].N < minOneFrame || n > 14 || set.Source != "frame" {
				t.Errorf("colours learned from %d white and %d black men (source %q), want both from this frame", set.Colours[board.White].N, set.Colours[board.Black].N, set.Source)
			}
			for _, learned := range []bool{false, true} {
				cal := truthCalibration(t, r, 0)
				if learned {
					cal.Set = set
				}
				det, err := New(cal, Config{FullEvery: -1})
				if err != nil {
					t.Fatal(err)
				}
				fr, err := det.Detect(f, 0, 0)
				det.Close()
				if err != nil {
					t.Fatal(err)
				}
				fs := score(r, sc, fr)
				t.Logf("set learned %v: %v missed %v extra %v wrong %v", learned, fs, fs.missed, fs.extras, fs.wrongs)
				if learned && (fs.found != fs.visible || fs.extra > 0 || fs.wrongClass > 0) {
					t.Errorf("with the set learned: %v, missed %v, extra %v, wrong class %v", fs, fs.missed, fs.extras, fs.wrongs)
				}
			}
		})
	}
}
