package referee_test

import (
	"testing"

	"github.com/boardcam/boardcam/referee"
	"github.com/boardcam/boardcam/referee/refsim"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/sim"
)

// BenchmarkMatch referees a simulated three-board doubles match (about 200
// strokes, 1 100 events) and applies the decisions to the rules engine, as
// the daemon does live. Reported per match.
func BenchmarkMatch(b *testing.B) {
	sc, err := sim.Load(scenarios + "autoplay-match.yaml")
	if err != nil {
		b.Fatal(err)
	}
	tr, err := sim.Run(sc, sim.Options{})
	if err != nil {
		b.Fatal(err)
	}
	p, _ := rules.ProfileByName("icf")
	h := refsim.DefaultHeader(sc, "icf")
	cfg := referee.DefaultConfig(p)
	b.ReportMetric(float64(len(tr.Events)), "events/match")
	b.ResetTimer()
	for range b.N {
		if _, err := refsim.Referee(tr.Events, h, cfg); err != nil {
			b.Fatal(err)
		}
	}
}
