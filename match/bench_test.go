package match

import (
	"testing"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/rules"
)

// BenchmarkJournalCommit is one decision's journal commit: a line written
// and fsync'd (on the file system of the test's temporary directory).
func BenchmarkJournalCommit(b *testing.B) {
	j, err := CreateJournal(b.TempDir(), testHeader(), t0)
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	f := int64(1)
	line := []Line{{Event: rules.Stroke{Seat: board.S, White: 1}, Meta: Meta{F: &f, E: 1, By: "auto"}}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := j.Commit(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefereeBoard is the match component over a whole simulated
// board: every event refereed, every decision applied and journaled (one
// fsync per frame with decisions). Reported per board.
func BenchmarkRefereeBoard(b *testing.B) {
	tmp := b.TempDir()
	path, evs := boardEvents(b, tmp, "autoplay-board.yaml")
	obs := byFrame(evs)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		cfg := Config{Dir: b.TempDir(), Header: defaultHeader, Referee: refereeWith(0), Source: "events:" + path, Queue: 1 << 16}
		k := &Keeper{Config: cfg, Logger: quietLogger()}
		if err := k.Initialize(); err != nil {
			b.Fatal(err)
		}
		if err := k.Start(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for _, o := range obs {
			k.observe(o)
		}
		b.StopTimer()
		k.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(len(evs)), "events/board")
}
