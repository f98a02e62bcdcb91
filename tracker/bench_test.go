package tracker

import (
	"math"
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/sim"
	"github.com/boardcam/boardcam/tracker/trackertest"
)

// blockMask is an occlusion like vision's: a grid of 8 mm blocks, sampled
// at 25 points of the disc asked about.
type blockMask struct {
	n    int
	half float64
	on   []bool
}

func newBlockMask(o sight.Occlusion, half float64) *blockMask {
	m := &blockMask{n: int(2 * (half + 80) / 8), half: half + 80}
	m.on = make([]bool, m.n*m.n)
	for j := 0; j < m.n; j++ {
		for i := 0; i < m.n; i++ {
			c := board.V(-m.half+(float64(i)+0.5)*8, -m.half+(float64(j)+0.5)*8)
			m.on[j*m.n+i] = o.Hidden(c, 4) > 0.5
		}
	}
	return m
}

func (m *blockMask) Hidden(c board.Vec, r float64) float64 {
	hit, n := 0, 0
	test := func(p board.Vec) {
		n++
		i, j := int(math.Floor((p.X+m.half)/8)), int(math.Floor((p.Y+m.half)/8))
		if i >= 0 && j >= 0 && i < m.n && j < m.n && m.on[j*m.n+i] {
			hit++
		}
	}
	test(c)
	for _, f := range []float64{0.5, 0.9} {
		for k := 0; k < 12; k++ {
			a := 2 * math.Pi * (float64(k) + f) / 12
			test(c.Add(board.V(math.Cos(a), math.Sin(a)).Scale(f * r)))
		}
	}
	return float64(hit) / float64(n)
}

// BenchmarkUpdate measures the tracker's cost per frame over the first
// 30 s of an automatic board at 30 fps (strokes, rest, hands) with
// realistic detections and a block occlusion mask like vision's.
func BenchmarkUpdate(b *testing.B) {
	tr, err := sim.RunFile(scenarioPath(b, "autoplay-board.yaml"), sim.Options{FPS: 30})
	if err != nil {
		b.Fatal(err)
	}
	s := trackertest.NewSynth(tr, trackertest.Realistic)
	n := min(tr.NumFrames(), 900)
	frames := make([]sight.Frame, n)
	for i := range frames {
		frames[i], _ = s.Frame(i)
		if frames[i].Occlusion != nil {
			frames[i].Occlusion = newBlockMask(frames[i].Occlusion, tr.Geometry.Half())
		}
	}
	b.ResetTimer()
	var tk *Tracker
	for k := 0; k < b.N; k++ {
		if k%n == 0 {
			tk, _ = New(Config{Geometry: tr.Geometry})
		}
		tk.Update(frames[k%n])
	}
}
