package calibrate

import (
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
)

func TestFitHomographyRecoversTransform(t *testing.T) {
	want := Homography{{0.9, 0.12, 310}, {-0.08, 1.05, 40}, {0.0002, -0.0001, 1}}
	rng := rand.New(rand.NewSource(1))
	var src, dst []Point
	for i := 0; i < 20; i++ {
		p := Pt(rng.Float64()*740-370, rng.Float64()*740-370)
		src = append(src, p)
		dst = append(dst, want.Apply(p))
	}
	got, err := FitHomography(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range src {
		if d := got.Apply(p).Dist(want.Apply(p)); d > 1e-6 {
			t.Fatalf("fitted homography maps %v %.2g px off", p, d)
		}
	}
	inv, err := got.Inverse()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range src {
		if d := inv.Apply(got.Apply(p)).Dist(p); d > 1e-6 {
			t.Fatalf("inverse off by %.2g", d)
		}
	}
	// MapLine: points on a line map onto the mapped line.
	l := LineJoining(src[0], src[1])
	ml, err := got.MapLine(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []float64{-1, 0.3, 2} {
		p := src[0].Add(src[1].Sub(src[0]).Scale(f))
		if d := math.Abs(ml.Dist(got.Apply(p))); d > 1e-6 {
			t.Errorf("mapped point %.2g px off the mapped line", d)
		}
	}
	if _, err := FitHomography(src[:3], dst[:3]); err == nil {
		t.Error("three points accepted")
	}
	col := []Point{Pt(0, 0), Pt(1, 1), Pt(2, 2), Pt(3, 3)}
	if _, err := FitHomography(col, col); err == nil {
		t.Error("collinear points accepted")
	}
}

func testCalibration(t *testing.T) *Calibration {
	t.Helper()
	c, err := New([4]Point{Pt(100, 80), Pt(1180, 70), Pt(1190, 690), Pt(95, 700)}, Size{W: 1280, H: 720}, board.ICF(), DefaultOrientation(), fixedNow())
	if err != nil {
		t.Fatal(err)
	}
	c.Quality = Quality{Method: Manual, Score: 0.5, Edges: [4]string{"manual", "manual", "manual", "manual"}}
	return c
}

func TestCalibrationMapsCorners(t *testing.T) {
	c := testCalibration(t)
	for i, p := range c.Corners {
		want := camera.BoardCorners(740)[i]
		got := c.ToBoard(p)
		if math.Hypot(got.X-want.X, got.Y-want.Y) > 1e-6 {
			t.Errorf("corner %d maps to %v, want %v", i, got, want)
		}
		if d := c.ToImage(got).Dist(p); d > 1e-6 {
			t.Errorf("corner %d does not map back (%.2g px)", i, d)
		}
	}
	if ev := c.CornersPx(); len(ev) != 4 || ev[0] != [2]float64{100, 80} {
		t.Errorf("CornersPx %v", ev)
	}
	// Sides of 1080, 620, 1095 and 620 px for 740 mm.
	if r := c.PixelsPerMM(); math.Abs(r-3415.0/4/740) > 0.01 {
		t.Errorf("PixelsPerMM %.3f", r)
	}
}

func TestCalibrationSaveLoad(t *testing.T) {
	c := testCalibration(t)
	l := trueLens()
	l.ImageSize = Size{W: 1280, H: 720}
	c.Lens = l
	rms := 1.25
	c.Quality.RMSmm = &rms
	c.Quality.Markings = []Marking{{Kind: "pocket", Name: "NE", Found: true, ErrorMM: 1.5}}
	path := filepath.Join(t.TempDir(), "calibration.json")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"version": 2`) || !strings.Contains(string(b), `"corners_px"`) {
		t.Errorf("file lacks version or corners:\n%s", b)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Corners != c.Corners || back.Lens == nil || back.Lens.Distortion[0] != l.Distortion[0] || *back.Quality.RMSmm != rms {
		t.Errorf("round trip changed the calibration:\n%+v\n%+v", c, back)
	}
	if !back.Created.Equal(c.Created) {
		t.Errorf("created %v, want %v", back.Created, c.Created)
	}
}

func TestCalibrationRejectsBadFiles(t *testing.T) {
	c := testCalibration(t)
	good, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(good, &m); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(map[string]any)) []byte {
		var x map[string]any
		json.Unmarshal(good, &x)
		f(x)
		b, _ := json.Marshal(x)
		return b
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"future version", edit(func(x map[string]any) { x["version"] = Version + 1 }), "newer boardcam"},
		{"bad markings", edit(func(x map[string]any) {
			m := board.ICF().NominalMarkings()
			m.Sides[board.S].Front.Y = 300 // behind the rear line
			x["markings"] = m
		}), "markings: side S"},
		{"bad set", edit(func(x map[string]any) { x["set"] = map[string]any{"source": "config", "striker_mm": 200} }), "set: striker_mm"},
		{"no version", edit(func(x map[string]any) { delete(x, "version") }), "no \"version\""},
		{"unknown field", edit(func(x map[string]any) { x["colour"] = "red" }), "unknown field \"colour\""},
		{"bad corner", edit(func(x map[string]any) { x["corners_px"].([]any)[2] = []any{1.0} }), "want [x, y]"},
		{"inconsistent homography", edit(func(x map[string]any) {
			x["corners_px"].([]any)[1] = []any{1100.0, 70.0}
		}), "homography: maps corners_px[1]"},
		{"crossed corners", edit(func(x map[string]any) {
			cs := x["corners_px"].([]any)
			cs[1], cs[2] = cs[2], cs[1]
		}), "convex"},
		{"bad direction", edit(func(x map[string]any) { x["orientation"].(map[string]any)["south_at"] = "up" }), "south_at"},
		{"bad side", edit(func(x map[string]any) { x["orientation"].(map[string]any)["breaker"] = "X" }), "unknown side"},
		{"score out of range", edit(func(x map[string]any) { x["quality"].(map[string]any)["score"] = 1.5 }), "quality.score"},
		{"syntax", []byte("{\n  \"version\": 1,\n  \"image_size\": [1280, 720],,\n}"), "line 3"},
	}
	for _, tc := range cases {
		_, err := Parse(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	path := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(path, cases[0].data, 0o644)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Load error %v does not name the file", err)
	}
}

func TestNewRejectsBadCorners(t *testing.T) {
	g := board.ICF()
	cases := map[string][4]Point{
		"anticlockwise": {Pt(95, 700), Pt(1190, 690), Pt(1180, 70), Pt(100, 80)},
		"crossed":       {Pt(100, 80), Pt(1190, 690), Pt(1180, 70), Pt(95, 700)},
		"tiny":          {Pt(100, 100), Pt(110, 100), Pt(110, 110), Pt(100, 110)},
		"not finite":    {Pt(math.NaN(), 80), Pt(1180, 70), Pt(1190, 690), Pt(95, 700)},
	}
	for name, c := range cases {
		if _, err := New(c, Size{W: 1280, H: 720}, g, DefaultOrientation(), fixedNow()); err == nil {
			t.Errorf("%s corners accepted", name)
		}
	}
}

func TestParseCorners(t *testing.T) {
	c, err := ParseCorners("10,20, 300,22;310,400  12 410")
	if err != nil {
		t.Fatal(err)
	}
	if c != [4]Point{Pt(10, 20), Pt(300, 22), Pt(310, 400), Pt(12, 410)} {
		t.Errorf("got %v", c)
	}
	for _, bad := range []string{"", "1,2,3", "1,2,3,4,5,6,7,x", "1,2,3,4,5,6,7,8,9", "1,2,3,4,5,6,7,NaN"} {
		if _, err := ParseCorners(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestOrientation checks which image corner becomes NW when side S is
// elsewhere in the image, and that Rotate relabels consistently.
func TestOrientation(t *testing.T) {
	img := [4]Point{Pt(100, 80), Pt(1180, 70), Pt(1190, 690), Pt(95, 700)}
	g := board.ICF()
	for q, dir := range [4]Direction{Bottom, Right, Top, Left} {
		o := DefaultOrientation()
		o.SouthAt = dir
		c, err := New(img, Size{W: 1280, H: 720}, g, o, fixedNow())
		if err != nil {
			t.Fatal(err)
		}
		if c.ImageCorners() != img {
			t.Errorf("%s: image corners %v, want %v", dir, c.ImageCorners(), img)
		}
		// The image side named by SouthAt must map onto side S (y = +Half);
		// perspective moves its middle a little along it.
		mid := [4]Point{img[2].Add(img[3]).Scale(0.5), img[1].Add(img[2]).Scale(0.5), img[0].Add(img[1]).Scale(0.5), img[3].Add(img[0]).Scale(0.5)}[q]
		got := c.ToBoard(mid)
		if math.Abs(got.Y-g.Half()) > 1e-6 || math.Abs(got.X) > 10 {
			t.Errorf("%s: the %s side's middle maps to %v, not the middle of side S", dir, dir, got)
		}
	}
	c, _ := New(img, Size{W: 1280, H: 720}, g, DefaultOrientation(), fixedNow())
	before := c.ToBoard(img[2]) // SE
	if err := c.Rotate(1); err != nil {
		t.Fatal(err)
	}
	after := c.ToBoard(img[2])
	// Renaming S→E turns the board frame: the old SE corner is now NE.
	if math.Hypot(after.X-370, after.Y+370) > 1e-6 || math.Hypot(before.X-370, before.Y-370) > 1e-6 {
		t.Errorf("SE corner %v became %v after Rotate(1), want (370, -370)", before, after)
	}
	if c.Orientation.SouthAt != Left || c.Orientation.Breaker != board.E {
		t.Errorf("after Rotate(1): south at %s, breaker %v", c.Orientation.SouthAt, c.Orientation.Breaker)
	}
	if err := c.Rotate(3); err != nil {
		t.Fatal(err)
	}
	if c.Orientation.SouthAt != Bottom || c.ToBoard(img[2]) != before {
		t.Errorf("four quarter turns do not come back")
	}
}

// openingArrangement places the men around the queen as at the start of a
// board, with the two whites in line with the queen pointing at side s.
func openingArrangement(g *board.Geometry, s board.Side, jitter float64, seed int64) (whites, blacks []board.Vec, queen board.Vec) {
	rng := rand.New(rand.NewSource(seed))
	d := g.ManDiameter + 0.5
	n := s.Normal()
	base := math.Atan2(n.Y, n.X)
	j := func() board.Vec { return board.Vec{X: rng.NormFloat64() * jitter, Y: rng.NormFloat64() * jitter} }
	// Inner ring: 6 at distance d, whites at the breaker's direction and
	// every other one. Outer ring: 6 at 2d in line, 6 at √3 d between.
	for k := 0; k < 6; k++ {
		a := base + float64(k)*math.Pi/3
		p := board.Vec{X: d * math.Cos(a), Y: d * math.Sin(a)}.Add(j())
		q := board.Vec{X: 2 * d * math.Cos(a), Y: 2 * d * math.Sin(a)}.Add(j())
		b := a + math.Pi/6
		r := board.Vec{X: math.Sqrt(3) * d * math.Cos(b), Y: math.Sqrt(3) * d * math.Sin(b)}.Add(j())
		if k%2 == 0 {
			whites = append(whites, p, q)
			blacks = append(blacks, r)
		} else {
			blacks = append(blacks, p, q)
			whites = append(whites, r)
		}
	}
	return whites, blacks, board.Vec{}.Add(j())
}

func TestInferBreaker(t *testing.T) {
	g := board.ICF()
	for _, s := range board.Sides {
		for seed := int64(0); seed < 5; seed++ {
			w, b, q := openingArrangement(g, s, 2, seed)
			inf, err := InferBreaker(g, w, b, &q, board.S)
			if err != nil {
				t.Fatalf("breaker at %v, seed %d: %v", s, seed, err)
			}
			if inf.Side != s {
				t.Errorf("breaker at %v inferred as %v (%s)", s, inf.Side, inf.Why)
			}
			if want := (4 - int(s)) % 4; inf.Turns != want {
				t.Errorf("breaker at %v: turns %d, want %d", s, inf.Turns, want)
			}
			// Without the queen, from the men alone.
			inf2, err := InferBreaker(g, w, b, nil, board.S)
			if err != nil || inf2.Side != s {
				t.Errorf("breaker at %v without queen: %v, %v", s, inf2.Side, err)
			}
		}
	}
	// Rotating the calibration by Turns puts the breaker at S.
	w, b, q := openingArrangement(g, board.E, 1, 1)
	inf, err := InferBreaker(g, w, b, &q, board.S)
	if err != nil {
		t.Fatal(err)
	}
	c := testCalibration(t)
	c.Orientation.Breaker, c.Orientation.BreakerSource = inf.Side, "inferred"
	if err := c.Rotate(inf.Turns); err != nil {
		t.Fatal(err)
	}
	if c.Orientation.Breaker != board.S {
		t.Errorf("after rotating by %d the breaker sits at %v", inf.Turns, c.Orientation.Breaker)
	}
	// Scattered pieces are not an opening arrangement.
	rng := rand.New(rand.NewSource(9))
	var sw, sb []board.Vec
	for i := 0; i < 9; i++ {
		sw = append(sw, board.Vec{X: rng.Float64()*600 - 300, Y: rng.Float64()*600 - 300})
		sb = append(sb, board.Vec{X: rng.Float64()*600 - 300, Y: rng.Float64()*600 - 300})
	}
	if inf, err := InferBreaker(g, sw, sb, nil, board.S); err == nil {
		t.Errorf("scattered pieces gave a breaker: %+v", inf)
	}
	if _, err := InferBreaker(g, sw[:2], sb[:2], nil, board.S); err == nil {
		t.Error("four pieces gave a breaker")
	}
}

// TestLoadVersion1 reads a calibration file written in format version 1
// (before the measured markings, the set and the tilt): it loads, without
// them, and is saved again as the current version.
func TestLoadVersion1(t *testing.T) {
	c := testCalibration(t)
	b, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var x map[string]any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	x["version"] = 1
	delete(x, "markings")
	delete(x, "set")
	v1, _ := json.Marshal(x)
	back, err := Parse(v1)
	if err != nil {
		t.Fatalf("a version 1 file does not load: %v", err)
	}
	if back.Version != 1 || back.Markings != nil || back.Set != nil || back.Corners != c.Corners {
		t.Errorf("version 1 file read as %+v", back)
	}
	path := filepath.Join(t.TempDir(), "calibration.json")
	if err := back.Save(path); err != nil {
		t.Fatal(err)
	}
	again, err := Load(path)
	if err != nil || again.Version != Version {
		t.Errorf("saved again: version %v, %v", again.Version, err)
	}
}
