package display_test

import (
	"testing"

	"github.com/boardcam/boardcam/display"
	"github.com/boardcam/boardcam/display/displaytest"
	"github.com/boardcam/boardcam/display/segment"
)

// nullPanel accepts every frame.
type nullPanel struct{}

func (nullPanel) Digits() int                       { return 8 }
func (nullPanel) WriteDigits([]segment.Digit) error { return nil }
func (nullPanel) Halt() error                       { return nil }

func BenchmarkFromState(b *testing.B) {
	st := displaytest.Doubles()
	st.Fouls = []string{"thumbing"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		display.FromState(st, display.Options{})
	}
}

// BenchmarkPanelSinkShow is what the pipeline pays per state and per
// panel: the scoreboard computation and the hand-over, never the bus.
func BenchmarkPanelSinkShow(b *testing.B) {
	s, err := display.NewPanelSink(nullPanel{}, display.PanelOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	st := displaytest.Singles()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.Teams[0].Score = i % 30
		s.Show(st)
	}
}

// BenchmarkShowToWrite is the time from Show to the end of the panel's
// write as the report sees it (goroutine hand-over included, bus excluded).
func BenchmarkShowToWrite(b *testing.B) {
	done := make(chan display.Report, 1)
	s, err := display.NewPanelSink(nullPanel{}, display.PanelOptions{Report: func(r display.Report) { done <- r }})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	st := displaytest.Singles()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.Teams[0].Score = i%2 + 1 // always a change: always a write
		s.Show(st)
		<-done
	}
}

func BenchmarkRenderText(b *testing.B) {
	sb := display.FromState(displaytest.Doubles(), display.Options{})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		display.RenderText(sb, display.DefaultLayout, true, display.StyleBoth)
	}
}
