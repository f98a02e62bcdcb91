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

// TestMeasuredMarkingsRendered renders boards whose markings are drawn
// away from the ICF figures (base lines and circles shifted by up to 10 mm,
// differently per side, circles spread, arrows off the diagonal) and drawn
// 1 to 7 mm thick, finds the board, and compares the markings calibration
// measured with those drawn: every line's centre within 1 mm, its
// thickness within 1 mm, base circle centres within 1.5 mm, and the offset
// from nominal reported.
func TestMeasuredMarkingsRendered(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	g := board.ICF()
	cases := []render.LineStyle{
		{},
		{Offset: 6},
		{Offset: -10, Front: 3, Rear: 7},
		{Offset: 10, Sides: [4]float64{0, -4, 2, -8}, Spread: 5, Front: 5, Rear: 3, ArrowOffset: 3, Arrow: 4},
		{Offset: -4, Spread: -8, Front: 7, Rear: 7, ArrowOffset: -5, Arrow: 3},
	}
	for i, ls := range cases {
		ls := ls
		t.Run(ls.String(), func(t *testing.T) {
			s := render.DefaultSettings()
			s.Board.Lines = ls
			s.Camera.Rotation = float64(7 * i)
			cal := measureRendered(t, s, g, int64(100+i), render.OpeningScene(g, board.S))
			want := render.DrawnMarkings(s.Board, g)
			got := cal.Markings
			var worst [4]float64 // lines, widths, circles, arrows
			check := func(what string, tol float64, d float64, k int) {
				worst[k] = math.Max(worst[k], math.Abs(d))
				if math.Abs(d) > tol {
					t.Errorf("%s off by %.2f mm (tolerance %.1f)", what, d, tol)
				}
			}
			for _, sd := range board.Sides {
				a, b := got.Side(sd), want.Side(sd)
				check(fmt.Sprintf("side %v front line", sd), 1, a.Front.Y-b.Front.Y, 0)
				check(fmt.Sprintf("side %v rear line", sd), 1, a.Rear.Y-b.Rear.Y, 0)
				check(fmt.Sprintf("side %v front line's width", sd), 1.2, a.Front.Width-b.Front.Width, 1)
				check(fmt.Sprintf("side %v rear line's width", sd), 1.2, a.Rear.Width-b.Rear.Width, 1)
				for i := range a.Circles {
					p, q := a.Circles[i], b.Circles[i]
					check(fmt.Sprintf("side %v base circle %d", sd, i), 1.5, math.Hypot(p.X-q.X, p.Y-q.Y), 2)
				}
			}
			for _, p := range board.Pockets {
				check(fmt.Sprintf("arrow %v", p), 1, got.Arrows[p].Offset-want.Arrows[p].Offset, 3)
				check(fmt.Sprintf("arrow %v's width", p), 1.2, got.Arrows[p].Width-want.Arrows[p].Width, 1)
			}
			// The offsets from nominal reported for the front line of S.
			var rep float64
			for _, o := range got.Offsets(g.NominalMarkings()) {
				if o.Kind == "front_line" && o.Name == "S" {
					rep = o.OffsetMM
				}
			}
			check("reported offset of S's front line", 1, rep-(ls.Offset+ls.Sides[board.S]), 0)
			t.Logf("confidence %.2f; worst: lines %.2f mm, widths %.2f mm, circles %.2f mm, arrows %.2f mm", cal.Quality.Score, worst[0], worst[1], worst[2], worst[3])
		})
	}
}

// TestBaseCirclesBesideDiscs: men and the striker lying beside base
// circles (overlapping them, nearer the nominal place than the circle is
// drawn), on a board whose circles are drawn 10 mm from the figures. A
// disc's outline is a ring the size of the circle and drew the circle
// search onto it (a circle measured 20 mm off on two boards of the
// independent set); the board's own pattern, repeated on every side, puts
// each circle back where it is drawn.
func TestBaseCirclesBesideDiscs(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	g := board.ICF()
	s := render.DefaultSettings()
	s.Board.Lines = render.LineStyle{Offset: 8, Spread: 6}
	want := render.DrawnMarkings(s.Board, g)
	nom := g.NominalMarkings()
	sc := &scene.Scene{}
	// beside four of the eight circles: a disc 12 mm beyond the nominal
	// place, away from where the circle is drawn
	for k, p := range []struct {
		side board.Side
		i    int
		id   string
		kind board.Kind
	}{{board.S, 0, "W1", board.White}, {board.E, 1, "B1", board.Black}, {board.N, 0, "S", board.Striker}, {board.W, 1, "W2", board.White}} {
		n, d := nom.Side(p.side).Circles[p.i], want.Side(p.side).Circles[p.i]
		away := board.V(n.X-d.X, n.Y-d.Y).Unit().Scale(12)
		at := board.FromLocal(p.side, board.V(n.X, n.Y).Add(away))
		sc.Discs = append(sc.Discs, scene.Disc{ID: p.id, Kind: p.kind, Pos: at, Angle: float64(k), State: scene.Rest})
	}
	cal := measureRendered(t, s, g, 7, sc)
	for _, sd := range board.Sides {
		for i := range want.Side(sd).Circles {
			p, q := cal.Markings.Side(sd).Circles[i], want.Side(sd).Circles[i]
			if d := math.Hypot(p.X-q.X, p.Y-q.Y); d > 1.5 {
				t.Errorf("side %v base circle %d measured %.1f mm from where it is drawn", sd, i, d)
			}
		}
	}
}

// measureRendered renders sc with settings s, takes out the lens and finds
// the board, which measures its markings.
func measureRendered(t *testing.T, s render.Settings, g *board.Geometry, seed int64, sc *scene.Scene) *calibrate.Calibration {
	t.Helper()
	rd, err := render.New(s, g, seed)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	frame := gocv.NewMat()
	defer frame.Close()
	if err := rd.Render(sc, &frame); err != nil {
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
	cal, _, err := calibrate.Detect(und, calibrate.Options{Geometry: g})
	if err != nil {
		t.Fatalf("detect: %v", err)
	}
	if cal.Markings == nil {
		t.Fatal("no markings measured")
	}
	return cal
}
