package vision

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
)

// Colour features do not change when the light dims or the camera's gain
// changes (everything scaled alike).
func TestFeaturesScaleFree(t *testing.T) {
	f := featuresOf([3]float64{60, 120, 180}, 200)
	g := featuresOf([3]float64{30, 60, 90}, 100)
	for k := 0; k < 3; k++ {
		if math.Abs(f[k]-g[k]) > 1e-12 {
			t.Fatalf("features %v at full light, %v at half", f, g)
		}
	}
}

// A class model survives a round trip through its file, and bad files are
// refused with the reason.
func TestClassModelFile(t *testing.T) {
	m := &ClassModel{Source: "opening"}
	m.Kinds[board.White] = ClassStats{Mean: [3]float64{0.9, 0.2, 0.25}, Std: [3]float64{0.05, 0.02, 0.03}, N: 9}
	m.Kinds[board.Black] = ClassStats{Mean: [3]float64{0.2, 0.02, 0.01}, Std: [3]float64{0.04, 0.01, 0.01}, N: 9}
	path := filepath.Join(t.TempDir(), "classes.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadClassModel(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kinds != m.Kinds || got.Source != "file" {
		t.Errorf("read back %+v, wrote %+v", got, m)
	}
	empty := filepath.Join(t.TempDir(), "empty.json")
	(&ClassModel{}).Save(empty)
	if _, err := LoadClassModel(empty); err == nil || !strings.Contains(err.Error(), "no white and black") {
		t.Errorf("a model without statistics: %v", err)
	}
}

// learnOpening refuses what is not an opening arrangement, saying why.
func TestLearnOpeningRefuses(t *testing.T) {
	g := board.ICF()
	var ds []disc
	for i := 0; i < 6; i++ {
		ds = append(ds, disc{mm: board.Vec{X: float64(i) * 100, Y: 50}, feat: features{0.9, 0.2, 0.2}})
	}
	if _, err := learnOpening(g, ds, board.S); err == nil || !strings.Contains(err.Error(), "not an opening") {
		t.Errorf("scattered men: %v", err)
	}
}

// The hand mask's Hidden measures the covered share of a disc.
func TestHandMaskHidden(t *testing.T) {
	m := &handMask{nb: 100, bs: 5, ext: -250, mask: make([]bool, 100*100)}
	// cover x in [0, 250) (blocks 50…99), all y
	for j := 0; j < 100; j++ {
		for i := 50; i < 100; i++ {
			m.mask[j*100+i] = true
		}
	}
	if h := m.Hidden(board.Vec{X: 100, Y: 0}, 16); h != 1 {
		t.Errorf("disc under the hand: hidden %.2f", h)
	}
	if h := m.Hidden(board.Vec{X: -100, Y: 0}, 16); h != 0 {
		t.Errorf("disc away from the hand: hidden %.2f", h)
	}
	if h := m.Hidden(board.Vec{X: 0.5, Y: 0}, 16); h < 0.35 || h > 0.65 {
		t.Errorf("disc half under the hand: hidden %.2f", h)
	}
}

// Bad input is refused with a clear error.
func TestErrors(t *testing.T) {
	if _, err := New(nil, Config{}); err == nil {
		t.Error("nil calibration accepted")
	}
	for _, c := range []Config{{PixelsPerMM: -1}, {MinSupport: 2}, {ManHeight: -3}, {Margin: 500}, {FocalPx: -1}} {
		if _, err := c.withDefaults(); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
	s := render.DefaultSettings()
	s.Width, s.Height = 320, 180
	s.Sensor.Supersample = 1
	r := newRenderer(t, s, 1)
	defer r.Close()
	cal := truthCalibration(t, r, 0)
	small := board.ICF()
	small.Surface = 660
	if _, err := New(cal, Config{Geometry: small}); err == nil || !strings.Contains(err.Error(), "surface") {
		t.Errorf("calibration for another board size: %v", err)
	}
	det, err := New(cal, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	wrong := gocv.NewMatWithSize(100, 100, gocv.MatTypeCV8UC3)
	defer wrong.Close()
	if _, err := det.Detect(wrong, 0, 0); err == nil || !strings.Contains(err.Error(), "100x100") {
		t.Errorf("frame of the wrong size: %v", err)
	}
	grey := gocv.NewMatWithSize(180, 320, gocv.MatTypeCV8UC1)
	defer grey.Close()
	if _, err := det.Detect(grey, 0, 0); err == nil || !strings.Contains(err.Error(), "BGR") {
		t.Errorf("grey frame: %v", err)
	}
	empty := gocv.NewMat()
	defer empty.Close()
	if _, err := det.Detect(empty, 0, 0); err == nil {
		t.Error("empty frame accepted")
	}
	if _, err := det.LearnOpening(); err == nil {
		t.Error("learning before any frame accepted")
	}
}

// Reusing what did not change gives what searching the whole board gives,
// frame after frame; and a board at rest gives the very same detections
// every frame.
func TestIncrementalMatchesFull(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a clip")
	}
	c := simClip(t, "break", render.DefaultSettings(), 30, 60, 110)
	defer c.close()
	inc, err := New(c.cal, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer inc.Close()
	full, err := New(c.cal, Config{FullEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	var dirty float64
	for i, f := range c.frames {
		a, err := inc.Detect(f, i, float64(i)/30)
		if err != nil {
			t.Fatal(err)
		}
		dirty += inc.Stats().DirtyTiles
		b, err := full.Detect(f, i, float64(i)/30)
		if err != nil {
			t.Fatal(err)
		}
		// every disc of one is in the other, at the same place (to 2 mm:
		// a full search of a frame moves the discs of a tight cluster by
		// up to about a millimetre with the sensor noise)
		unmatched := 0
		for _, x := range a.Detections {
			best := math.Inf(1)
			for _, y := range b.Detections {
				best = math.Min(best, x.MM.Dist(y.MM))
			}
			if best > 2 {
				unmatched++
				t.Logf("frame %d: %v at %v is %.1f mm from any full-search disc", i, x.Kind, x.MM, best)
			}
		}
		if unmatched > 0 || len(a.Detections) != len(b.Detections) {
			t.Errorf("frame %d: %d discs reusing unchanged regions, %d searching everything, %d apart", i, len(a.Detections), len(b.Detections), unmatched)
		}
	}
	t.Logf("searched %.0f%% of the board per frame on average", 100*dirty/float64(len(c.frames)))
	if dirty/float64(len(c.frames)) > 0.4 {
		t.Errorf("searched %.0f%% of the board per frame: unchanged regions are not reused", 100*dirty/float64(len(c.frames)))
	}
}

// A board at rest: the same detections frame after frame — to the last
// digit except where a tile's turn to be searched again came — and almost
// nothing searched again.
func TestStillBoard(t *testing.T) {
	s := render.DefaultSettings()
	r := newRenderer(t, s, 2)
	defer r.Close()
	det := truthDetector(t, r)
	defer det.Close()
	sc := scatterScene(7, 14)
	var first []Detection
	var dirty float64
	same, all := 0, 0
	for i := 0; i < 8; i++ {
		sc.T = float64(i) / 30 // new sensor noise every frame
		f := renderScene(t, r, sc)
		fr, err := det.Detect(f, i, sc.T)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = fr.Detections
			continue
		}
		dirty += det.Stats().DirtyTiles
		if len(fr.Detections) != len(first) {
			t.Fatalf("frame %d: %d discs, first frame %d", i, len(fr.Detections), len(first))
		}
		for k, d := range fr.Detections {
			if d == first[k] {
				same++
			} else if d.Kind != first[k].Kind || d.MM.Dist(first[k].MM) > 0.5 {
				t.Errorf("frame %d: %+v, first frame %+v", i, d, first[k])
			}
			all++
		}
	}
	if float64(same) < 0.9*float64(all) {
		t.Errorf("only %d of %d detections identical to the first frame's", same, all)
	}
	if dirty/7 > 0.05 {
		t.Errorf("%.0f%% of a still board searched again per frame", 100*dirty/7)
	}
}

// A new calibration (the camera was knocked) rebuilds the rectification
// and starts the background again; the class model is kept.
func TestSetCalibration(t *testing.T) {
	s := render.DefaultSettings()
	s.Camera.Knocks = []render.Knock{{T: 1, Rotation: 2, Offset: [2]float64{12, -8}}}
	r := newRenderer(t, s, 3)
	defer r.Close()
	det := truthDetector(t, r)
	defer det.Close()
	sc := render.OpeningScene(board.ICF(), board.S)
	f := renderScene(t, r, sc)
	if _, err := det.Detect(f, 0, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !det.Classes().Learned() {
		t.Fatal("no class model from the opening")
	}
	sc.T = 20
	f = renderScene(t, r, sc)
	defer f.Close()
	// with the old calibration every disc is off by the knock
	old, _ := det.Detect(f, 1, sc.T)
	if err := det.SetCalibration(truthCalibration(t, r, 20)); err != nil {
		t.Fatal(err)
	}
	if !det.Classes().Learned() {
		t.Error("the class model was lost")
	}
	fr, err := det.Detect(f, 2, sc.T)
	if err != nil {
		t.Fatal(err)
	}
	fs := score(r, sc, fr)
	if fs.found != 20 || fs.extra != 0 || fs.wrongClass != 0 || meanOf(fs.errs) > 1 {
		t.Errorf("after recalibration: %v", fs)
	}
	if os := score(r, sc, old); os.found == 20 && meanOf(os.errs) < 1 {
		t.Errorf("the knock did not move the discs: the test proves nothing (%v)", os)
	}
}
