package main

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/sight"
)

// countSource is a file of n frames, one every 10 ms, whose frames are
// only counted.
type countSource struct{ i, n int }

func (c *countSource) Open() error  { return nil }
func (c *countSource) Close() error { return nil }
func (c *countSource) Info() daemon.SourceInfo {
	return daemon.SourceInfo{Kind: "file", FPS: 100, Frames: c.n, Identity: "count"}
}
func (c *countSource) Read(sight.Image) (time.Duration, error) {
	if c.i >= c.n {
		return 0, io.EOF
	}
	c.i++
	return time.Duration(c.i-1) * 10 * time.Millisecond, nil
}

// everyKth delivers frames skip, skip+k, skip+2k … of its source (fps15
// and fps15late), and says how many there are.
func TestEveryKth(t *testing.T) {
	for _, c := range []struct{ k, skip, n int }{{4, 0, 10}, {4, 2, 10}, {2, 1, 9}, {4, 2, 2}} {
		e := &everyKth{Source: &countSource{n: c.n}, k: c.k, skip: c.skip}
		var got []time.Duration
		for {
			pts, err := e.Read(nil)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, pts)
		}
		var want []time.Duration
		for i := c.skip; i < c.n; i += c.k {
			want = append(want, time.Duration(i)*10*time.Millisecond)
		}
		if len(got) != len(want) || e.Info().Frames != len(want) {
			t.Errorf("k %d skip %d of %d frames: got %v (Info %d frames), want %v", c.k, c.skip, c.n, got, e.Info().Frames, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("k %d skip %d of %d frames: got %v, want %v", c.k, c.skip, c.n, got, want)
				break
			}
		}
	}
}
