package vision

import (
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
	"github.com/boardcam/boardcam/sim"
)

// truthCalibration builds the calibration a perfect calibrator would give
// for the renderer's camera at time t: exact corners and the lens model.
func truthCalibration(t testing.TB, r *render.Renderer, at float64) *calibrate.Calibration {
	t.Helper()
	cam := r.CameraAt(at)
	g := r.Geometry()
	var corners [4]calibrate.Point
	for i, p := range g.Corners() {
		x, y, _ := cam.ProjectUndistorted(p, 0)
		corners[i] = calibrate.Point{X: x, Y: y}
	}
	w, h := r.Size()
	cal, err := calibrate.New(corners, calibrate.Size{W: w, H: h}, g, calibrate.DefaultOrientation(), time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	d := cam.DistCoeffs()
	cal.Lens = &calibrate.Lens{ImageSize: calibrate.Size{W: w, H: h}, CameraMatrix: cam.CameraMatrix(), Distortion: d[:], Pattern: calibrate.DefaultChessboard}
	return cal
}

// truthDetector is a detector given the renderer's true calibration at
// time 0 (close it).
func truthDetector(t testing.TB, r *render.Renderer) *Detector {
	t.Helper()
	det, err := New(truthCalibration(t, r, 0), Config{})
	if err != nil {
		t.Fatal(err)
	}
	return det
}

// renderScene renders one frame of sc.
func renderScene(t testing.TB, r *render.Renderer, sc *scene.Scene) gocv.Mat {
	t.Helper()
	m := gocv.NewMat()
	if err := r.Render(sc, &m); err != nil {
		m.Close()
		t.Fatal(err)
	}
	return m
}

func newRenderer(t testing.TB, s render.Settings, seed int64) *render.Renderer {
	t.Helper()
	r, err := render.New(s, board.ICF(), seed)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// match pairs detections with the true discs of a scene (greedy by
// distance, gate 0.5 man radius on the board): for each true disc on the
// board the index of its detection (-1: missed), and the detections that
// match nothing.
type matchResult struct {
	det      map[string]int
	err      map[string]float64
	extra    []int
	wrongCls []string
}

func matchScene(sc *scene.Scene, ds []Detection, gate float64) matchResult {
	res := matchResult{det: map[string]int{}, err: map[string]float64{}}
	type pair struct {
		id string
		j  int
		d  float64
	}
	var pairs []pair
	for _, d := range sc.Discs {
		if !d.State.OnBoard() {
			continue
		}
		res.det[d.ID] = -1
		for j, x := range ds {
			if dd := x.MM.Dist(d.Pos); dd <= gate {
				pairs = append(pairs, pair{d.ID, j, dd})
			}
		}
	}
	sort.Slice(pairs, func(a, b int) bool { return pairs[a].d < pairs[b].d })
	used := map[int]bool{}
	for _, p := range pairs {
		if res.det[p.id] >= 0 || used[p.j] {
			continue
		}
		res.det[p.id] = p.j
		res.err[p.id] = p.d
		used[p.j] = true
		d, _ := sc.Disc(p.id)
		if ds[p.j].Kind != d.Kind {
			res.wrongCls = append(res.wrongCls, p.id)
		}
	}
	for j := range ds {
		if !used[j] {
			res.extra = append(res.extra, j)
		}
	}
	return res
}

// frameScore counts how a frame's detections compare with the truth.
type frameScore struct {
	visible    int // discs on the board the camera sees at least half of
	found      int // of those, detected
	wrongClass int // of those found, with the wrong kind
	extra      int // detections matching no disc
	held       int // detections of a disc held in a hand above the board
	hidden     int // discs on the board mostly hidden (by a hand)
	occluded   int // of those, reported hidden by the Occlusion or detected
	errs       []float64
	missed     []string
	extras     []Detection
	wrongs     []string
	errOf      map[string]float64 // position error per disc found (one frame)
}

func (s *frameScore) add(o frameScore) {
	s.visible += o.visible
	s.found += o.found
	s.wrongClass += o.wrongClass
	s.extra += o.extra
	s.hidden += o.hidden
	s.held += o.held
	s.occluded += o.occluded
	s.errs = append(s.errs, o.errs...)
	s.missed = append(s.missed, o.missed...)
	s.extras = append(s.extras, o.extras...)
	s.wrongs = append(s.wrongs, o.wrongs...)
}

// score compares a frame's detections with the scene rendered: the gate
// is half a man's radius.
func score(r *render.Renderer, sc *scene.Scene, fr Frame) frameScore {
	var s frameScore
	g := r.Geometry()
	vis := r.Visible(sc)
	m := matchScene(sc, fr.Detections, g.Radius(board.White)/2)
	for _, d := range sc.Discs {
		if !d.State.OnBoard() {
			continue
		}
		j := m.det[d.ID]
		if vis[d.ID] >= 0.5 {
			s.visible++
			if j < 0 {
				s.missed = append(s.missed, d.ID)
				continue
			}
			s.found++
			s.errs = append(s.errs, m.err[d.ID])
			if fr.Detections[j].Kind != d.Kind {
				s.wrongClass++
				s.wrongs = append(s.wrongs, d.ID+" as "+fr.Detections[j].Kind.String())
			}
			continue
		}
		s.hidden++
		if j >= 0 || (fr.Occlusion != nil && fr.Occlusion.Hidden(d.Pos, g.Radius(d.Kind)) >= 0.3) {
			s.occluded++
		} else {
			s.missed = append(s.missed, d.ID+"(hidden)")
		}
	}
	for _, j := range m.extra {
		// a disc held in the fingers just above the board is seen, not
		// invented
		held := false
		for _, d := range sc.Discs {
			if d.State == scene.Held && d.Pos.Dist(fr.Detections[j].MM) <= g.Radius(d.Kind) {
				held = true
			}
		}
		if held {
			s.held++
			continue
		}
		s.extra++
		s.extras = append(s.extras, fr.Detections[j])
	}
	return s
}

func (s frameScore) String() string {
	return fmt.Sprintf("visible %d found %d (recall %.4f) extra %d wrong class %d, hidden %d occluded %d, err mean %.2f p95 %.2f max %.2f",
		s.visible, s.found, float64(s.found)/math.Max(1, float64(s.visible)), s.extra, s.wrongClass, s.hidden, s.occluded, meanOf(s.errs), quantile(s.errs, 0.95), quantile(s.errs, 1))
}

func meanOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	w := append([]float64(nil), v...)
	sort.Float64s(w)
	return w[int(math.Round(q*float64(len(w)-1)))]
}

// scatterScene places the men, the queen and the striker at random, apart
// from each other and from the pockets.
func scatterScene(seed int64, men int) *scene.Scene {
	return scatterSceneOn(board.ICF(), seed, men)
}

// scatterSceneOn is scatterScene for the pieces of geometry g.
func scatterSceneOn(g *board.Geometry, seed int64, men int) *scene.Scene {
	rng := rand.New(rand.NewSource(seed))
	sc := &scene.Scene{}
	ids := board.PieceIDs()
	rng.Shuffle(len(ids)-2, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	var keep []string
	keep = append(keep, ids[:men]...)
	keep = append(keep, "Q", "S")
	for _, id := range keep {
		k, _ := board.KindOfID(id)
		r := g.Radius(k)
		for try := 0; try < 2000; try++ {
			p := board.Vec{X: (rng.Float64()*2 - 1) * (g.Half() - r - 1), Y: (rng.Float64()*2 - 1) * (g.Half() - r - 1)}
			if _, d := g.NearestPocket(p); d < g.PocketDiameter/2+r+3 {
				continue
			}
			if placeable(sc, g, p, r, 1) {
				sc.Discs = append(sc.Discs, scene.Disc{ID: id, Kind: k, Pos: p, Angle: rng.Float64() * 6, State: scene.Rest})
				break
			}
		}
	}
	return sc
}

func placeable(sc *scene.Scene, g *board.Geometry, p board.Vec, r, gap float64) bool {
	for _, d := range sc.Discs {
		if d.Pos.Dist(p) < r+g.Radius(d.Kind)+gap {
			return false
		}
	}
	return true
}

// clusterScene puts the men in touching groups of two to five (each new
// man touching one already placed), the queen and the striker among them.
func clusterScene(seed int64) *scene.Scene {
	rng := rand.New(rand.NewSource(seed))
	g := board.ICF()
	sc := &scene.Scene{}
	ids := board.PieceIDs()
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	var group []int
	for _, id := range ids {
		k, _ := board.KindOfID(id)
		r := g.Radius(k)
		placed := false
		if len(group) > 0 && len(group) < 2+rng.Intn(4) {
			for try := 0; try < 200 && !placed; try++ {
				o := sc.Discs[group[rng.Intn(len(group))]]
				a := rng.Float64() * 2 * math.Pi
				p := o.Pos.Add(board.Vec{X: math.Cos(a), Y: math.Sin(a)}.Scale(r + g.Radius(o.Kind) + 0.05))
				if math.Abs(p.X) > g.Half()-r-1 || math.Abs(p.Y) > g.Half()-r-1 {
					continue
				}
				if _, d := g.NearestPocket(p); d < g.PocketDiameter/2+r+3 {
					continue
				}
				if placeable(sc, g, p, r, 0.02) {
					sc.Discs = append(sc.Discs, scene.Disc{ID: id, Kind: k, Pos: p, Angle: rng.Float64() * 6, State: scene.Rest})
					group = append(group, len(sc.Discs)-1)
					placed = true
				}
			}
		}
		if placed {
			continue
		}
		group = group[:0]
		for try := 0; try < 2000; try++ {
			p := board.Vec{X: (rng.Float64()*2 - 1) * (g.Half() - 60), Y: (rng.Float64()*2 - 1) * (g.Half() - 60)}
			if _, d := g.NearestPocket(p); d < g.PocketDiameter/2+r+3 {
				continue
			}
			if placeable(sc, g, p, r, 40) {
				sc.Discs = append(sc.Discs, scene.Disc{ID: id, Kind: k, Pos: p, Angle: rng.Float64() * 6, State: scene.Rest})
				group = append(group, len(sc.Discs)-1)
				break
			}
		}
	}
	return sc
}

// clip is a rendered sequence of a simulated scenario with its truth.
type clip struct {
	r      *render.Renderer
	frames []gocv.Mat
	scenes []scene.Scene
	cal    *calibrate.Calibration
}

func (c *clip) close() {
	for _, f := range c.frames {
		f.Close()
	}
	c.r.Close()
}

// simClip runs a scenario from testdata/scenarios and renders frames
// [from, to) at fps with the settings (motion blur from the simulator's
// trajectory).
func simClip(t testing.TB, name string, s render.Settings, fps, from, to int) *clip {
	t.Helper()
	tr, err := sim.RunFile(filepath.Join(repoRoot(t), "testdata", "scenarios", name+".yaml"), sim.Options{FPS: fps})
	if err != nil {
		t.Fatal(err)
	}
	if n := tr.NumFrames(); to > n || to <= 0 {
		to = n
	}
	r, err := render.New(s, tr.Geometry, int64(tr.Seed))
	if err != nil {
		t.Fatal(err)
	}
	c := &clip{r: r, cal: truthCalibration(t, r, 0)}
	at := func(x float64) *scene.Scene { sc := tr.At(x); return &sc }
	for i := from; i < to; i++ {
		sc := tr.Frame(i)
		m := gocv.NewMat()
		if err := r.RenderSampled(&sc, at, &m); err != nil {
			m.Close()
			c.close()
			t.Fatal(err)
		}
		c.frames = append(c.frames, m)
		c.scenes = append(c.scenes, sc)
	}
	return c
}

func calibratePt(x, y float64) calibrate.Point { return calibrate.Point{X: x, Y: y} }
