package calibrate_test

import (
	"fmt"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/render"
	"github.com/boardcam/boardcam/scene"
)

// renderCase is one camera set-up of the shared renderer.
type renderCase struct {
	name string
	edit func(*render.Settings)
}

var renderCases = []renderCase{
	{"default webcam", func(s *render.Settings) {}},
	{"rotated 30°", func(s *render.Settings) { s.Camera.Rotation = 30; s.Camera.Fill = 0.8 }},
	{"rotated 90°", func(s *render.Settings) { s.Camera.Rotation = 90 }},
	{"tilted 8°", func(s *render.Settings) { s.Camera.Tilt = 8; s.Camera.TiltDirection = 60 }},
	{"strong barrel", func(s *render.Settings) { s.Camera.K1 = -0.22; s.Camera.K2 = 0.05; s.Camera.Fill = 0.85 }},
	{"home board, brown frame", func(s *render.Settings) {
		s.Board.Markings = "home"
		s.Board.Frame = "brown"
		s.Camera.Rotation = -12
	}},
	{"dim, JPEG", func(s *render.Settings) { s.Lighting.Level = 0.55; s.Sensor.JPEGQuality = 70 }},
}

// TestDetectRenderedFrames calibrates frames of the shared renderer (with
// the opening arrangement on the board) after undistorting them with the
// renderer's own lens, and compares the corners with the renderer's ground
// truth. The target of the project is a mean corner error of at most
// 1.0 px at 720p.
func TestDetectRenderedFrames(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	g := board.ICF()
	var sum float64
	var n int
	for i, c := range renderCases {
		t.Run(c.name, func(t *testing.T) {
			s := render.DefaultSettings()
			c.edit(&s)
			rd, err := render.New(s, g, int64(i+1))
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			frame := gocv.NewMat()
			defer frame.Close()
			if err := rd.Render(render.OpeningScene(g, board.S), &frame); err != nil {
				t.Fatal(err)
			}
			cam := rd.CameraAt(0)
			dist := cam.DistCoeffs()
			lens := &calibrate.Lens{ImageSize: calibrate.Size{W: s.Width, H: s.Height}, CameraMatrix: cam.CameraMatrix(), Distortion: dist[:]}
			u, err := calibrate.NewUndistorter(lens)
			if err != nil {
				t.Fatal(err)
			}
			defer u.Close()
			und := gocv.NewMat()
			defer und.Close()
			if err := u.Apply(frame, &und); err != nil {
				t.Fatal(err)
			}
			cal, rep, err := calibrate.Detect(und, calibrate.Options{Geometry: g})
			if err != nil {
				t.Fatalf("detect: %v", err)
			}
			var truth [4]calibrate.Point
			for k, p := range g.Corners() {
				x, y, ok := cam.ProjectUndistorted(p, 0)
				if !ok {
					t.Fatal("corner behind the camera")
				}
				truth[k] = calibrate.Pt(x, y)
			}
			// For comparison: the raw frame, lens ignored, against the true
			// corners in the raw image.
			var rawTruth [4]calibrate.Point
			for k, p := range cam.Corners(g) {
				rawTruth[k] = calibrate.Pt(p[0], p[1])
			}
			rawNote := "raw frame: no board found"
			if _, rawRep, err := calibrate.Detect(frame, calibrate.Options{Geometry: g}); err == nil {
				r := matchCorners(rawRep.ImageCorners, rawTruth)
				rawNote = fmtMean("raw frame without undistortion: mean", r)
			}
			e := matchCorners(rep.ImageCorners, truth)
			mean := (e[0] + e[1] + e[2] + e[3]) / 4
			sum += e[0] + e[1] + e[2] + e[3]
			n += 4
			t.Logf("%-24s corner errors %.2f %.2f %.2f %.2f px (mean %.2f), edges %v, score %.2f; %s", c.name, e[0], e[1], e[2], e[3], mean, cal.Quality.Edges, cal.Quality.Score, rawNote)
			if mean > 1.0 {
				t.Errorf("mean corner error %.2f px (target 1.0 px)", mean)
			}
		})
	}
	if n > 0 {
		t.Logf("mean corner error over %d rendered corners: %.3f px", n, sum/float64(n))
	}
}

func fmtMean(label string, e [4]float64) string {
	return fmt.Sprintf("%s %.2f px", label, (e[0]+e[1]+e[2]+e[3])/4)
}

// matchCorners returns the distance of each true corner from the found
// one, trying the four cyclic orders (a board turned 90° has its NW corner
// elsewhere in the image).
func matchCorners(found, truth [4]calibrate.Point) [4]float64 {
	var best [4]float64
	bestMax := math.Inf(1)
	for s := 0; s < 4; s++ {
		var e [4]float64
		m := 0.0
		for i := range e {
			e[i] = found[(i+s)%4].Dist(truth[i])
			m = math.Max(m, e[i])
		}
		if m < bestMax {
			best, bestMax = e, m
		}
	}
	return best
}

// TestInferBreakerOnRendererOpening checks InferBreaker against the
// shared renderer's opening arrangement for every breaker side.
func TestInferBreakerOnRendererOpening(t *testing.T) {
	g := board.ICF()
	for _, s := range board.Sides {
		sc := render.OpeningScene(g, s)
		var whites, blacks []board.Vec
		var queen *board.Vec
		for _, d := range sc.Discs {
			if d.State != scene.Rest {
				continue
			}
			p := d.Pos
			switch d.Kind {
			case board.White:
				whites = append(whites, p)
			case board.Black:
				blacks = append(blacks, p)
			case board.Queen:
				queen = &p
			}
		}
		inf, err := calibrate.InferBreaker(g, whites, blacks, queen, board.S)
		if err != nil {
			t.Errorf("breaker at %v: %v", s, err)
			continue
		}
		if inf.Side != s {
			t.Errorf("renderer's opening for a breaker at %v read as %v (%s)", s, inf.Side, inf.Why)
		}
	}
}
