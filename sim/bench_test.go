package sim

import (
	"testing"
)

func benchScenario(b *testing.B, src string) *Scenario {
	b.Helper()
	sc, err := Parse([]byte(src), "")
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkFullBoard simulates a whole automatic board (about 40–80
// strokes with hands) from the opening to the last man.
func BenchmarkFullBoard(b *testing.B) {
	sc := benchScenario(b, "seed: 12\ntimeline:\n  - autoplay: {until: board_end}\n")
	strokes := 0
	for b.Loop() {
		tr, err := Run(sc, Options{})
		if err != nil {
			b.Fatal(err)
		}
		strokes = len(tr.Strokes)
	}
	b.ReportMetric(float64(strokes), "strokes/board")
}

// BenchmarkBreak simulates the break: the striker into the packed opening.
func BenchmarkBreak(b *testing.B) {
	sc := benchScenario(b, "timeline:\n  - strike: {side: S, at: 12, direction: -1.5, speed: 5}\n")
	for b.Loop() {
		if _, err := Run(sc, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFrameScene measures Trace.Frame, what the renderer asks for
// each frame (and several times per frame for motion blur).
func BenchmarkFrameScene(b *testing.B) {
	sc := benchScenario(b, "seed: 12\ntimeline:\n  - autoplay: {until: board_end}\n")
	tr, err := Run(sc, Options{})
	if err != nil {
		b.Fatal(err)
	}
	n := tr.NumFrames()
	i := 0
	for b.Loop() {
		_ = tr.Frame(i % n)
		i += 7919
	}
}
