package render

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/scene"
	"gocv.io/x/gocv"
)

// benchScene is a busy frame: the opening arrangement, a fast striker, a
// hand placing a man and an arm resting over a pocket.
func benchScene() *scene.Scene {
	sc := OpeningScene(board.ICF(), board.S)
	st, _ := sc.Disc("S")
	st.State, st.Vel = scene.Moving, board.Vec{X: 300, Y: -3000}
	sc.Hands = []scene.Hand{
		{Owner: "E", Elbow: board.Vec{X: 650, Y: 50}, Wrist: board.Vec{X: 420, Y: -20}, Fingertip: board.Vec{X: 250, Y: -40}, ArmWidth: 70, HandWidth: 85, Z: 15},
		{Owner: "N", Elbow: board.Vec{X: -300, Y: -650}, Wrist: board.Vec{X: -320, Y: -420}, Fingertip: board.Vec{X: -330, Y: -300}, ArmWidth: 70, HandWidth: 85, Z: 5},
	}
	return sc
}

func benchRender(b *testing.B, w, h int) {
	s := DefaultSettings()
	s.Width, s.Height = w, h
	r, err := New(s, board.ICF(), 1)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	m := gocv.NewMat()
	defer m.Close()
	sc := benchScene()
	if err := r.Render(sc, &m); err != nil { // the static frame is built once per camera
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc.T = float64(i+1) / 30
		if err := r.Render(sc, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRender720p is the per-frame cost at 1280×720 (target < 50 ms on
// one core).
func BenchmarkRender720p(b *testing.B) { benchRender(b, 1280, 720) }

// BenchmarkRender1080p is the per-frame cost at 1920×1080.
func BenchmarkRender1080p(b *testing.B) { benchRender(b, 1920, 1080) }

// BenchmarkNewRenderer720p is the once-per-clip cost: textures, sprites, the
// ray table and the first camera's static frame.
func BenchmarkNewRenderer720p(b *testing.B) {
	s := DefaultSettings()
	m := gocv.NewMat()
	defer m.Close()
	for i := 0; i < b.N; i++ {
		r, err := New(s, board.ICF(), int64(i))
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Render(&scene.Scene{}, &m); err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}
