package vision

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// condition is a way the camera, board, pieces or light can differ from
// the renderer's defaults.
type condition struct {
	name string
	mod  func(*render.Settings)
}

var conditions = []condition{
	{"default", func(s *render.Settings) {}},
	{"home board", func(s *render.Settings) { s.Board.Markings = "home"; s.Board.Text = false }},
	{"yellow whites, black blacks, pink queen, blue striker", func(s *render.Settings) {
		s.Pieces.Whites, s.Pieces.Blacks, s.Pieces.Queen, s.Pieces.Striker = "yellow", "black", "pink", "blue"
	}},
	{"brown whites, brown blacks, black striker", func(s *render.Settings) {
		s.Pieces.Whites, s.Pieces.Blacks, s.Pieces.Striker = "brown", "brown", "black"
	}},
	{"dark wood, ivory striker", func(s *render.Settings) { s.Board.Wood = "dark"; s.Pieces.Striker = "ivory" }},
	{"birch, yellow striker", func(s *render.Settings) { s.Board.Wood = "birch"; s.Pieces.Striker = "yellow" }},
	{"dimmed light", func(s *render.Settings) { s.Lighting.Level = 0.45 }},
	{"strong glare", func(s *render.Settings) { s.Lighting.Glare = 1; s.Lighting.Light = [3]float64{-60, -80, 900} }},
	{"tilted camera", func(s *render.Settings) {
		s.Camera.Tilt, s.Camera.TiltDirection, s.Camera.Rotation, s.Camera.Height = 12, 60, 8, 1000
	}},
	{"rotated wide lens", func(s *render.Settings) {
		s.Camera.Rotation, s.Camera.Height, s.Camera.K1, s.Camera.K2 = 25, 900, -0.12, 0.03
	}},
	{"high camera", func(s *render.Settings) { s.Camera.Height = 1500 }},
	{"1080p", func(s *render.Settings) { s.Width, s.Height = 1920, 1080 }},
	{"webcam JPEG, noisy", func(s *render.Settings) { s.Sensor.JPEGQuality = 60; s.Sensor.Noise = 2 }},
}

// conditionScenes are the scenes every condition is tried on: the opening
// arrangement, men scattered at random, men in touching groups.
func conditionScenes(ci int) []*scene.Scene {
	return []*scene.Scene{
		render.OpeningScene(board.ICF(), board.Side(ci%4)),
		scatterScene(int64(ci), 18),
		clusterScene(int64(ci)),
		scatterScene(int64(ci+100), 10),
		clusterScene(int64(ci + 100)),
	}
}

// runCondition detects on the condition's scenes, one after another as
// frames of one camera (the whole board searched each time: the scenes do
// not follow from each other).
func runCondition(t *testing.T, ci int, c condition) frameScore {
	s := render.DefaultSettings()
	c.mod(&s)
	r := newRenderer(t, s, int64(10+ci))
	defer r.Close()
	det, err := New(truthCalibration(t, r, 0), Config{FullEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	var cs frameScore
	for i, sc := range conditionScenes(ci) {
		f := renderScene(t, r, sc)
		fr, err := det.Detect(f, i, float64(i))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		fs := score(r, sc, fr)
		if len(fs.missed)+len(fs.extras)+len(fs.wrongs) > 0 {
			t.Logf("%s, scene %d: missed %v, extra %v, wrong class %v", c.name, i, fs.missed, fs.extras, fs.wrongs)
		}
		cs.add(fs)
	}
	return cs
}

// Every disc in rendered frames under many conditions: found (touching
// clusters included), nothing invented, the right class, sub-millimetre
// centres.
func TestRenderedConditions(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 65 frames")
	}
	var total frameScore
	for ci, c := range conditions {
		cs := runCondition(t, ci, c)
		t.Logf("%-55s %v", c.name, cs)
		total.add(cs)
		// each condition on its own: at most two slips in its 92 discs
		if miss := cs.visible - cs.found; miss > 2 {
			t.Errorf("%s: %d of %d discs missed", c.name, miss, cs.visible)
		}
		if cs.extra > 2 {
			t.Errorf("%s: %d detections of nothing", c.name, cs.extra)
		}
		if cs.wrongClass > 2 {
			t.Errorf("%s: %d discs of the wrong class", c.name, cs.wrongClass)
		}
		if m := meanOf(cs.errs); m > 0.8 {
			t.Errorf("%s: mean position error %.2f mm (want ≤ 0.8)", c.name, m)
		}
		if p := quantile(cs.errs, 0.95); p > 2.0 {
			t.Errorf("%s: 95th percentile of the position error %.2f mm (want ≤ 2.0)", c.name, p)
		}
	}
	t.Logf("all conditions: %v", total)
	recall := float64(total.found) / float64(total.visible)
	precision := float64(total.found) / float64(total.found+total.extra)
	class := 1 - float64(total.wrongClass)/float64(total.found)
	if recall < 0.995 || precision < 0.995 || class < 0.99 {
		t.Errorf("recall %.4f, precision %.4f, classification %.4f: want ≥ 0.995, 0.995, 0.99", recall, precision, class)
	}
	if m, p := meanOf(total.errs), quantile(total.errs, 0.95); m > 0.6 || p > 1.3 {
		t.Errorf("position error mean %.2f mm, p95 %.2f mm: want ≤ 0.6, 1.3", m, p)
	}
}

// The opening arrangement seen from each side: all twenty discs, the
// class model learned from it, and the breaker's side read from it.
func TestOpeningArrangement(t *testing.T) {
	s := render.DefaultSettings()
	r := newRenderer(t, s, 4)
	defer r.Close()
	for _, side := range board.Sides {
		det := truthDetector(t, r)
		sc := render.OpeningScene(board.ICF(), side)
		f := renderScene(t, r, sc)
		fr, err := det.Detect(f, 0, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		fs := score(r, sc, fr)
		if fs.found != 20 || fs.extra != 0 || fs.wrongClass != 0 {
			t.Errorf("breaker %v: %v; missed %v, extra %v, wrong %v", side, fs, fs.missed, fs.extras, fs.wrongs)
		}
		op := det.Opening()
		switch {
		case op == nil:
			t.Errorf("breaker %v: the opening arrangement was not recognised", side)
		case op.Breaker == nil:
			t.Errorf("breaker %v: no breaker inferred: %v", side, op.BreakerErr)
		case op.Breaker.Side != side:
			t.Errorf("breaker %v: inferred %v (%s)", side, op.Breaker.Side, op.Breaker.Why)
		}
		if m := det.Classes(); !m.Learned() || m.Source != "opening" || m.Kinds[board.White].N != 9 || m.Kinds[board.Black].N != 9 {
			t.Errorf("breaker %v: class model %+v", side, m)
		}
		det.Close()
	}
}

// An empty board shows printed circles the size of a man (base circles,
// the red centre circle): none of them is a disc.
func TestEmptyBoards(t *testing.T) {
	for _, home := range []bool{false, true} {
		s := render.DefaultSettings()
		if home {
			s.Board.Markings = "home"
		}
		r := newRenderer(t, s, 6)
		det := truthDetector(t, r)
		f := renderScene(t, r, &scene.Scene{})
		fr, err := det.Detect(f, 0, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(fr.Detections) != 0 {
			t.Errorf("home markings %v: %d discs found on an empty board: %+v", home, len(fr.Detections), fr.Detections)
		}
		det.Close()
		r.Close()
	}
}

// Moving discs are blurred along their path; the truth is the middle of
// the streak.
func TestMotionBlur(t *testing.T) {
	s := render.DefaultSettings()
	r := newRenderer(t, s, 8)
	defer r.Close()
	det, err := New(truthCalibration(t, r, 0), Config{FullEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	var errs []float64
	missed := 0
	n := 0
	for i, speed := range []float64{300, 600, 1000, 1500} {
		sc := scatterScene(int64(40+i), 12)
		for k := range sc.Discs {
			a := float64(k) * 2.1
			sc.Discs[k].State = scene.Moving
			sc.Discs[k].Vel = board.Vec{X: math.Cos(a), Y: math.Sin(a)}.Scale(speed)
		}
		f := renderScene(t, r, sc)
		fr, err := det.Detect(f, i, float64(i))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		fs := score(r, sc, fr)
		t.Logf("%4.0f mm/s (blur %.1f mm): %v", speed, speed*s.Camera.Exposure/1000, fs)
		errs = append(errs, fs.errs...)
		missed += fs.visible - fs.found
		n += fs.visible
		if fs.extra > 0 {
			t.Errorf("%.0f mm/s: %d detections of nothing: %+v", speed, fs.extra, fs.extras)
		}
	}
	if float64(missed) > 0.05*float64(n) {
		t.Errorf("%d of %d moving discs missed (want ≤ 5%%)", missed, n)
	}
	if m := meanOf(errs); m > 1.5 {
		t.Errorf("mean error on moving discs %.2f mm (want ≤ 1.5)", m)
	}
}
