package vision

import (
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// TestStrikerSizedAsMeasured: a white striker with printed rings on a
// light (birch) board among natural-wood and black men, at rest by S's
// frame, as the corpus clip striker-by-frame shows it. The striker's rim
// reads weaker than the dark ring printed inside it, which was taken for
// its outline, a man's size: the striker was classed a man
// (ringedStrikers: its edges reach on to its rim; keepSizes: a disc lying
// still stays striker-sized while half its readings say so). Every disc
// must be of its class in every frame. (The 38 mm striker of the corpus
// clip small-striker, whose natural-wood men read half-way to its size —
// menSized —, is measured by TestCorpusVision: a still render does not
// show it.)
func TestStrikerSizedAsMeasured(t *testing.T) {
	const look = `
camera: {height: 1150, rotation: -4, tilt: 3, tilt_direction: 120, k1: -0.05}
board: {wood: birch, frame: mahogany, net: white}
pieces: {whites: natural, blacks: black}
lighting: {light: [180, 200, 1100]}
`
	s := render.DefaultSettings()
	if err := yaml.Unmarshal([]byte(look), &s); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		striker float64
		at      board.Vec
	}{
		{"41.5 mm", 41.5, board.V(157, 313)},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := board.ICF().WithSet(&board.Set{StrikerMM: c.striker})
			r, err := render.New(s, g, 83)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			sc := &scene.Scene{}
			for id, p := range map[string]board.Vec{
				"W1": board.V(-60, 110), "W2": board.V(-150, 20), "W3": board.V(230, -160),
				"B2": board.V(-130, -90), "B3": board.V(-20, -60), "S": c.at,
			} {
				k, _ := board.KindOfID(id)
				sc.Discs = append(sc.Discs, scene.Disc{ID: id, Kind: k, Pos: p, State: scene.Rest})
			}
			f := renderScene(t, r, sc)
			defer f.Close()
			det, err := New(truthCalibration(t, r, 0), Config{Geometry: g, FullEvery: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer det.Close()
			for i := 0; i < 4; i++ {
				fr, err := det.Detect(f, i, float64(i)/30)
				if err != nil {
					t.Fatal(err)
				}
				fs := score(r, sc, fr)
				if fs.found != fs.visible || fs.extra > 0 || fs.wrongClass > 0 {
					t.Errorf("frame %d: %v, missed %v, extra %v, wrong class %v", i, fs, fs.missed, fs.extras, fs.wrongs)
				}
			}
		})
	}
}
