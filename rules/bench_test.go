package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkReplayDemo parses and replays testdata/logs/demo.log (a whole
// game, 79 events), as the daemon does with its journal on restart.
func BenchmarkReplayDemo(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(logsDir, "demo.log"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		lg, err := ParseLog(strings.NewReader(string(data)))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := lg.Play(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyState applies one stroke, reads the state (as the daemon
// does after every event) and undoes it.
func BenchmarkApplyState(b *testing.B) {
	m, err := NewMatch(Header{Profile: "icf", Teams: [2]string{"A", "B"},
		Players: []Player{{"a", 0, 0}, {"b", 2, 1}}})
	if err != nil {
		b.Fatal(err)
	}
	ev, _ := ParseEvent("S wbs !push")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := m.Apply(ev); err != nil {
			b.Fatal(err)
		}
		_ = m.State()
		if err := m.Undo(); err != nil {
			b.Fatal(err)
		}
	}
}
