package render

import (
	"crypto/sha256"
	"fmt"
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render/look"
	"github.com/boardcam/boardcam/scene"
	"gocv.io/x/gocv"
)

func renderOnce(t testing.TB, s Settings, sc *scene.Scene, seed int64) gocv.Mat {
	t.Helper()
	r, err := New(s, board.ICF(), seed)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m := gocv.NewMat()
	if err := r.Render(sc, &m); err != nil {
		m.Close()
		t.Fatal(err)
	}
	return m
}

func hashMat(m gocv.Mat) string {
	b, _ := m.DataPtrUint8()
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// at returns the BGR colour at (x, y), bilinear.
func at(m gocv.Mat, x, y float64) [3]float64 {
	b, _ := m.DataPtrUint8()
	w := m.Cols()
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	var out [3]float64
	for ch := 0; ch < 3; ch++ {
		p := func(i, j int) float64 { return float64(b[3*(j*w+i)+ch]) }
		out[ch] = (p(x0, y0)*(1-fx)+p(x0+1, y0)*fx)*(1-fy) + (p(x0, y0+1)*(1-fx)+p(x0+1, y0+1)*fx)*fy
	}
	return out
}

func grey(c [3]float64) float64 { return 0.114*c[0] + 0.587*c[1] + 0.299*c[2] }

func colourDist(a, b [3]float64) float64 {
	return math.Abs(a[0]-b[0]) + math.Abs(a[1]-b[1]) + math.Abs(a[2]-b[2])
}

// The truth corners must sit where the playing surface visibly ends: along
// the four edges near every corner, the strongest brightness step across the
// edge (wood to the frame's dark wall) lies on the projected edge.
func TestCornersOnDrawnEdge(t *testing.T) {
	s := clean(DefaultSettings())
	s.Camera = CameraSettings{Height: 1000, Fill: 0.94, Tilt: 7, TiltDirection: 30, Rotation: 12, K1: -0.1, K2: 0.02, Exposure: 8}
	r, err := New(s, board.ICF(), 5)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m := gocv.NewMat()
	defer m.Close()
	if err := r.Render(&scene.Scene{}, &m); err != nil {
		t.Fatal(err)
	}
	g := r.Geometry()
	cam := r.CameraAt(0)
	h := g.Half()
	var sum, worst float64
	n := 0
	for ci, c := range g.Corners() {
		next := g.Corners()[(ci+1)%4]
		prev := g.Corners()[(ci+3)%4]
		for _, other := range []board.Vec{next, prev} {
			dir := other.Sub(c).Unit()
			for _, along := range []float64{60, 90, 130} {
				p := c.Add(dir.Scale(along))
				// inward normal: toward the centre, perpendicular to the edge
				in := board.Vec{X: -dir.Y, Y: dir.X}
				if in.Dot(p.Scale(-1)) < 0 {
					in = in.Scale(-1)
				}
				x0, y0, _ := cam.Project(p, 0)
				x1, y1, _ := cam.Project(p.Add(in), 0)
				ux, uy := x1-x0, y1-y0
				l := math.Hypot(ux, uy)
				ux, uy = ux/l, uy/l
				best, bs := -1.0, 0.0
				const step = 0.05
				var prof []float64
				for s := -5.0; s <= 5.0+1e-9; s += step {
					prof = append(prof, grey(at(m, x0+s*ux, y0+s*uy)))
				}
				for i := 1; i+1 < len(prof); i++ {
					if d := prof[i+1] - prof[i-1]; d > best {
						best, bs = d, -5+float64(i)*step
					}
				}
				e := math.Abs(bs)
				sum += e
				worst = math.Max(worst, e)
				n++
				_ = h
			}
		}
	}
	mean := sum / float64(n)
	t.Logf("surface edge vs truth: mean %.2f px, worst %.2f px over %d places", mean, worst, n)
	if mean > 0.35 || worst > 0.8 {
		t.Errorf("drawn surface edge is %.2f px (mean), %.2f px (worst) from the truth", mean, worst)
	}
}

func TestDeterministic(t *testing.T) {
	s := small(480, 270)
	sc := OpeningScene(board.ICF(), board.S)
	sc.Hands = []scene.Hand{{Owner: "S", Elbow: board.Vec{X: 100, Y: 600}, Wrist: board.Vec{X: 40, Y: 380}, Fingertip: board.Vec{X: 10, Y: 250}, ArmWidth: 70, HandWidth: 85, Z: 10}}
	sc.Discs[3].Vel = board.Vec{X: 2000, Y: 500}
	sc.Discs[3].State = scene.Moving
	a := renderOnce(t, s, sc, 42)
	defer a.Close()
	b := renderOnce(t, s, sc, 42)
	defer b.Close()
	if hashMat(a) != hashMat(b) {
		t.Fatal("same seed, different frames")
	}
	c := renderOnce(t, s, sc, 43)
	defer c.Close()
	if hashMat(a) == hashMat(c) {
		t.Error("different seeds, same frame")
	}
	// A frame does not depend on what was rendered before it.
	r, err := New(s, board.ICF(), 42)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m := gocv.NewMat()
	defer m.Close()
	other := *sc
	other.T = 1.5
	for _, x := range []*scene.Scene{&other, sc} {
		if err := r.Render(x, &m); err != nil {
			t.Fatal(err)
		}
	}
	if hashMat(m) != hashMat(a) {
		t.Error("frame depends on the frames rendered before")
	}
}

// Every style option renders, and changes the picture.
func TestEveryStyleOption(t *testing.T) {
	base := small(320, 180)
	sc := OpeningScene(board.ICF(), board.S)
	sc.T = 2
	sc.Discs[5].Vel = board.Vec{X: 3000}
	sc.Discs[5].State = scene.Moving
	sc.Hands = []scene.Hand{{Owner: "E", Elbow: board.Vec{X: 650, Y: -100}, Wrist: board.Vec{X: 420, Y: -150}, Fingertip: board.Vec{X: 260, Y: -180}, Z: 15}}
	ref := renderOnce(t, base, sc, 1)
	refHash := hashMat(ref)
	ref.Close()
	type opt struct {
		name string
		set  func(s *Settings)
	}
	opts := []opt{
		{"markings home", func(s *Settings) { s.Board.Markings = "home" }},
		{"frame height 0", func(s *Settings) { s.Board.FrameHeight = 0 }},
		{"frame height 45", func(s *Settings) { s.Board.FrameHeight = 45 }},
		{"no text", func(s *Settings) { s.Board.Text = false }},
		{"grain 0", func(s *Settings) { s.Board.Grain = 0 }},
		{"wear 1", func(s *Settings) { s.Board.Wear = 1 }},
		{"powder 1", func(s *Settings) { s.Board.Powder = 1 }},
		{"wood #c09060", func(s *Settings) { s.Board.Wood = "#c09060" }},
		{"frame #303040", func(s *Settings) { s.Board.Frame = "#303040" }},
		{"thickness 9", func(s *Settings) { s.Pieces.Thickness = 9 }},
		{"variation 0", func(s *Settings) { s.Pieces.Variation = 0 }},
		{"whites #e0c080", func(s *Settings) { s.Pieces.Whites = "#e0c080" }},
		{"light position", func(s *Settings) { s.Lighting.Light = [3]float64{300, 300, 900} }},
		{"level 0.5", func(s *Settings) { s.Lighting.Level = 0.5 }},
		{"ambient 0.9", func(s *Settings) { s.Lighting.Ambient = 0.9 }},
		{"unevenness 1", func(s *Settings) { s.Lighting.Unevenness = 1 }},
		{"vignetting 1", func(s *Settings) { s.Lighting.Vignetting = 1 }},
		{"glare 1", func(s *Settings) { s.Lighting.Glare = 1 }},
		{"shadows 0", func(s *Settings) { s.Lighting.Shadows = 0 }},
		{"lamp size 500", func(s *Settings) { s.Lighting.LampSize = 500 }},
		{"warmth -1", func(s *Settings) { s.Lighting.Warmth = -1 }},
		{"dim", func(s *Settings) { s.Lighting.Dims = []Dim{{T: 1, Level: 0.4, Ramp: 0.5}} }},
		{"clutter 1", func(s *Settings) { s.Background.Clutter = 1 }},
		{"depth 650", func(s *Settings) { s.Background.Depth = 650 }},
		{"noise 0", func(s *Settings) { s.Sensor.Noise = 0 }},
		{"read noise 8", func(s *Settings) { s.Sensor.ReadNoise = 8 }},
		{"shot noise 2", func(s *Settings) { s.Sensor.ShotNoise = 2 }},
		{"auto gain with dim", func(s *Settings) { s.Sensor.AutoGain = 0; s.Lighting.Level = 0.5 }},
		{"blur 2", func(s *Settings) { s.Sensor.Blur = 2 }},
		{"sharpen 0", func(s *Settings) { s.Sensor.Sharpen = 0 }},
		{"sharpen 1.5", func(s *Settings) { s.Sensor.Sharpen = 1.5 }},
		{"saturation 0.3", func(s *Settings) { s.Sensor.Saturation = 0.3 }},
		{"contrast 1.5", func(s *Settings) { s.Sensor.Contrast = 1.5 }},
		{"jpeg 40", func(s *Settings) { s.Sensor.JPEGQuality = 40 }},
		{"supersample 3", func(s *Settings) { s.Sensor.Supersample = 3 }},
		{"fov 66", func(s *Settings) { s.Camera.FOV = 66 }},
		{"tilt 10", func(s *Settings) { s.Camera.Tilt = 10; s.Camera.TiltDirection = 120 }},
		{"rotation 45", func(s *Settings) { s.Camera.Rotation = 45 }},
		{"height 1500", func(s *Settings) { s.Camera.Height = 1500 }},
		{"offset", func(s *Settings) { s.Camera.Offset = [2]float64{60, -40} }},
		{"k1 -0.3", func(s *Settings) { s.Camera.K1 = -0.3; s.Camera.K2 = 0.08 }},
		{"k3", func(s *Settings) { s.Camera.K3 = 0.05 }},
		{"principal offset", func(s *Settings) { s.Camera.PrincipalOffset = [2]float64{8, 5} }},
		{"exposure 30", func(s *Settings) { s.Camera.Exposure = 30 }},
		{"knock", func(s *Settings) { s.Camera.Knocks = []Knock{{T: 1, Rotation: 3}} }},
	}
	for k := range woodColours {
		k := k
		opts = append(opts, opt{"wood " + k, func(s *Settings) { s.Board.Wood = k }})
	}
	for k := range frameColours {
		k := k
		opts = append(opts, opt{"frame " + k, func(s *Settings) { s.Board.Frame = k }})
	}
	for k := range netColours {
		k := k
		opts = append(opts, opt{"net " + k, func(s *Settings) { s.Board.Net = k }})
	}
	for k := range whiteColours {
		k := k
		opts = append(opts, opt{"whites " + k, func(s *Settings) { s.Pieces.Whites = k }})
	}
	for k := range blackColours {
		k := k
		opts = append(opts, opt{"blacks " + k, func(s *Settings) { s.Pieces.Blacks = k }})
	}
	for k := range queenColours {
		k := k
		opts = append(opts, opt{"queen " + k, func(s *Settings) { s.Pieces.Queen = k }})
	}
	for k := range strikerColours {
		k := k
		opts = append(opts, opt{"striker " + k, func(s *Settings) { s.Pieces.Striker = k }})
	}
	for k := range look.BackgroundKinds {
		k := k
		opts = append(opts, opt{"background " + k, func(s *Settings) { s.Background.Kind = k }})
	}
	def := DefaultSettings()
	for _, o := range opts {
		s := base
		o.set(&s)
		if err := s.Validate(); err != nil {
			t.Errorf("%s: %v", o.name, err)
			continue
		}
		m := renderOnce(t, s, sc, 1)
		h := hashMat(m)
		m.Close()
		// an option equal to its default must not change anything; any
		// other must
		same := fmt.Sprint(s.Board, s.Pieces, s.Lighting.Light) == fmt.Sprint(def.Board, def.Pieces, def.Lighting.Light) &&
			s.Background == base.Background && s.Sensor == base.Sensor && fmt.Sprint(s.Camera) == fmt.Sprint(base.Camera) &&
			fmt.Sprint(s.Lighting) == fmt.Sprint(base.Lighting)
		if same && h != refHash {
			t.Errorf("%s: the default value changed the frame", o.name)
		}
		if !same && h == refHash {
			t.Errorf("%s: no effect on the frame", o.name)
		}
	}
}

// A hand over a disc hides it: where the disc lies, the frame is exactly
// what it is with the hand over an empty spot (nothing of the disc shows
// through), while without the hand the disc is plainly there; a disc away
// from the hand is untouched.
func TestHandHidesDisc(t *testing.T) {
	s := clean(small(640, 360))
	g := board.ICF()
	under := scene.Disc{ID: "W1", Kind: board.White, Pos: board.Vec{X: 0, Y: 100}, State: scene.Rest}
	away := scene.Disc{ID: "B1", Kind: board.Black, Pos: board.Vec{X: -250, Y: -200}, State: scene.Rest}
	hand := scene.Hand{Owner: "S", Elbow: board.Vec{X: 0, Y: 520}, Wrist: board.Vec{X: 0, Y: 250}, Fingertip: board.Vec{X: 0, Y: 60}, ArmWidth: 70, HandWidth: 85, Z: 20}
	if !hand.Hides(under.Pos, g.Radius(board.White)) {
		t.Fatal("test scene: the hand's footprint does not cover the disc")
	}
	open := renderOnce(t, s, &scene.Scene{Discs: []scene.Disc{under, away}}, 3)
	defer open.Close()
	covered := renderOnce(t, s, &scene.Scene{Discs: []scene.Disc{under, away}, Hands: []scene.Hand{hand}}, 3)
	defer covered.Close()
	handOnly := renderOnce(t, s, &scene.Scene{Discs: []scene.Disc{away}, Hands: []scene.Hand{hand}}, 3)
	defer handOnly.Close()
	r, err := New(s, g, 3)
	if err != nil {
		t.Fatal(err)
	}
	c := r.CameraAt(0)
	r.Close()
	top := s.Pieces.Thickness
	region := func(d scene.Disc) (pts [][2]float64) {
		rad := g.Radius(d.Kind) + 2 // the disc and its shadow
		for a := 0.0; a < 2*math.Pi; a += math.Pi / 12 {
			for _, f := range []float64{0, 0.3, 0.6, 0.9, 1} {
				x, y, _ := c.Project(d.Pos.Add(board.Vec{X: math.Cos(a), Y: math.Sin(a)}.Scale(rad*f)), top)
				pts = append(pts, [2]float64{x, y})
			}
		}
		return pts
	}
	var shows, differs float64
	for _, p := range region(under) {
		shows = math.Max(shows, colourDist(at(covered, p[0], p[1]), at(handOnly, p[0], p[1])))
		differs += colourDist(at(open, p[0], p[1]), at(handOnly, p[0], p[1]))
	}
	if shows > 3 {
		t.Errorf("the hidden disc shows through the hand (colour difference up to %.1f)", shows)
	}
	if differs/float64(len(region(under))) < 40 {
		t.Errorf("test scene: without the hand the disc does not stand out (%.1f)", differs)
	}
	vis := r2Visible(t, s, &scene.Scene{Discs: []scene.Disc{under, away}, Hands: []scene.Hand{hand}})
	if vis["W1"] != 0 || vis["B1"] != 1 {
		t.Errorf("visible fractions %v, want W1 0 and B1 1", vis)
	}
	// A disc at the edge of the hand is partly visible.
	edge := under
	edge.Pos = board.Vec{X: 48, Y: 150}
	if v := r2Visible(t, s, &scene.Scene{Discs: []scene.Disc{edge}, Hands: []scene.Hand{hand}})["W1"]; v <= 0 || v >= 1 {
		t.Errorf("disc at the hand's edge: visible %.2f", v)
	}
	var moved float64
	for _, p := range region(away) {
		moved = math.Max(moved, colourDist(at(open, p[0], p[1]), at(covered, p[0], p[1])))
	}
	if moved > 3 {
		t.Errorf("the disc away from the hand changed by %.1f", moved)
	}
}

// A fast disc is smeared along its velocity over the exposure.
func TestMotionBlur(t *testing.T) {
	s := clean(small(640, 360))
	s.Camera.Exposure = 10
	g := board.ICF()
	empty := renderOnce(t, s, &scene.Scene{}, 1)
	defer empty.Close()
	extent := func(d scene.Disc) (float64, float64) {
		m := renderOnce(t, s, &scene.Scene{Discs: []scene.Disc{d}}, 1)
		defer m.Close()
		a, _ := m.DataPtrUint8()
		b, _ := empty.DataPtrUint8()
		x0, x1, y0, y1 := 1e9, -1e9, 1e9, -1e9
		for y := 0; y < m.Rows(); y++ {
			for x := 0; x < m.Cols(); x++ {
				i := 3 * (y*m.Cols() + x)
				if math.Abs(float64(a[i])-float64(b[i]))+math.Abs(float64(a[i+1])-float64(b[i+1]))+math.Abs(float64(a[i+2])-float64(b[i+2])) > 60 {
					x0, x1, y0, y1 = math.Min(x0, float64(x)), math.Max(x1, float64(x)), math.Min(y0, float64(y)), math.Max(y1, float64(y))
				}
			}
		}
		return x1 - x0, y1 - y0
	}
	still := scene.Disc{ID: "B1", Kind: board.Black, Pos: board.Vec{X: -50, Y: 0}, State: scene.Rest}
	moving := still
	moving.State, moving.Vel = scene.Moving, board.Vec{X: 4000}
	w0, h0 := extent(still)
	w1, h1 := extent(moving)
	r, _ := New(s, g, 1)
	blurPx := 4000 * 0.010 * r.CameraAt(0).Scale()
	r.Close()
	if w1-w0 < 0.6*blurPx || math.Abs(h1-h0) > 2 {
		t.Errorf("still %.0f×%.0f px, moving %.0f×%.0f px; expected %.1f px of blur along x only", w0, h0, w1, h1, blurPx)
	}
}

// Dimming the light darkens the frame; the camera's auto gain makes up
// part of it.
func TestDimming(t *testing.T) {
	s := clean(small(320, 180))
	s.Lighting.Dims = []Dim{{T: 1, Level: 0.5, Ramp: 1}}
	s.Sensor.AutoGain = 0.5
	r, err := New(s, board.ICF(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	mean := func(tm float64) float64 {
		m := gocv.NewMat()
		defer m.Close()
		if err := r.Render(&scene.Scene{T: tm}, &m); err != nil {
			t.Fatal(err)
		}
		return m.Mean().Val1 + m.Mean().Val2 + m.Mean().Val3
	}
	m0, mid, m2 := mean(0.5), mean(1.5), mean(2.5)
	if !(m0 > mid && mid > m2) {
		t.Errorf("brightness %.1f, %.1f, %.1f does not fall through the dim", m0, mid, m2)
	}
	if ratio := m2 / m0; ratio < 0.55 || ratio > 0.85 {
		t.Errorf("after dimming to 0.5 with auto gain 0.5 the frame keeps %.2f of its brightness", ratio)
	}
}

func TestOpeningScene(t *testing.T) {
	g := board.ICF()
	for _, side := range board.Sides {
		sc := OpeningScene(g, side)
		if len(sc.Discs) != 20 {
			t.Fatalf("%d discs", len(sc.Discs))
		}
		seen := map[string]bool{}
		for _, d := range sc.Discs {
			if seen[d.ID] {
				t.Errorf("duplicate %s", d.ID)
			}
			seen[d.ID] = true
			if k, err := board.KindOfID(d.ID); err != nil || k != d.Kind {
				t.Errorf("%s has kind %v", d.ID, d.Kind)
			}
		}
		for i, a := range sc.Discs[:19] {
			touching := 0
			for j, b := range sc.Discs[:19] {
				if i == j {
					continue
				}
				gap := a.Pos.Dist(b.Pos) - g.ManDiameter
				if gap < -1e-9 {
					t.Errorf("%s and %s overlap", a.ID, b.ID)
				}
				if gap < 0.1 {
					touching++
				}
			}
			if touching < 2 {
				t.Errorf("%s touches %d pieces", a.ID, touching)
			}
			if !g.InsideOuterCircle(a.Pos, g.ManDiameter/2) {
				t.Errorf("%s outside the outer circle", a.ID)
			}
		}
		// Queen, a white of each ring in line toward the breaker.
		n := side.Normal()
		var inLine []string
		for _, d := range sc.Discs[1:19] {
			if d.Pos.Unit().Dot(n) > 0.9999 {
				inLine = append(inLine, d.ID)
				if d.Kind != board.White {
					t.Errorf("%v: %s in line toward the breaker is not white", side, d.ID)
				}
			}
		}
		if len(inLine) != 2 {
			t.Errorf("%v: %v in line with the queen toward the breaker", side, inLine)
		}
		st, _ := sc.Disc("S")
		if pl := g.StrikerPlacement(side, st.Pos, g.StrikerDiameter/2); !pl.Proper() || pl.Side != side {
			t.Errorf("%v: striker placement %+v", side, pl)
		}
	}
}

func r2Visible(t *testing.T, s Settings, sc *scene.Scene) map[string]float64 {
	r, err := New(s, board.ICF(), 3)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return r.Visible(sc)
}
