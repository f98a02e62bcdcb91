package main

import (
	"errors"
	"hash/fnv"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/vision/analysis"
)

// readAll reads a source to its end: each frame's hash and time, and the
// error that ended it. pause, when set, is called before each read.
func readAll(t *testing.T, src daemon.Source, pics sight.Pictures, stop int, pause func(i int)) (sums []uint64, pts []time.Duration, end error) {
	t.Helper()
	if err := src.Open(); err != nil {
		t.Fatal(err)
	}
	img := pics.NewImage()
	defer img.Close()
	for i := 0; stop < 0 || i < stop; i++ {
		if pause != nil {
			pause(i)
		}
		p, err := src.Read(img)
		if err != nil {
			return sums, pts, err
		}
		w, h := sight.Size(img)
		b, err := pics.BGR(img, w, h)
		if err != nil {
			t.Fatal(err)
		}
		f := fnv.New64a()
		f.Write(b)
		sums, pts = append(sums, f.Sum64()), append(pts, p)
	}
	return sums, pts, nil
}

// Runs sharing one decoder read what each would have read from its own:
// the same frames, times and end, whatever their pace; one that stops
// early or never reads holds nobody up.
func TestSharedVideoReadsAsItsOwnDecoder(t *testing.T) {
	const clip = "../../testdata/videos/placement-arrow.mp4"
	if _, err := os.Stat(clip); err != nil {
		t.Skip("the corpus clips are not rendered")
	}
	pics := analysis.Pictures{}
	spec, err := daemon.ParseSource(clip, "")
	if err != nil {
		t.Fatal(err)
	}
	own, err := daemon.NewCaptureSource(spec, daemon.CaptureOptions{}, pics)
	if err != nil {
		t.Fatal(err)
	}
	beforeOpen := own.Info()
	wantSums, wantPTS, wantEnd := readAll(t, own, pics, -1, nil)
	wantInfo := own.Info()
	own.Close()
	if len(wantSums) < 2*sharedWindow || !errors.Is(wantEnd, daemon.ErrEOF) {
		t.Fatalf("%d frames, end %v: want a clip longer than twice the window", len(wantSums), wantEnd)
	}

	v, err := newSharedVideo(clip, pics)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	rs := []*sharedReader{v.reader(), v.reader(), v.reader(), v.reader()}
	if got := rs[0].Info(); !reflect.DeepEqual(got, beforeOpen) {
		t.Errorf("Info before Open %+v, want %+v", got, beforeOpen)
	}
	rs[3].Close() // a run that never reads (a clip it skips)
	type got struct {
		sums []uint64
		pts  []time.Duration
		end  error
	}
	res := make([]got, 3)
	var wg sync.WaitGroup
	paces := []func(int){
		nil, // as fast as it can: waits for the slowest at the window's end
		func(i int) { // slower, with pauses
			if i%7 == 0 {
				time.Sleep(2 * time.Millisecond)
			}
		},
		nil,
	}
	stops := []int{-1, -1, 10} // the third stops after 10 frames
	for k := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer rs[k].Close()
			res[k].sums, res[k].pts, res[k].end = readAll(t, rs[k], pics, stops[k], paces[k])
		}()
	}
	wg.Wait()
	if got := rs[0].Info(); !reflect.DeepEqual(got, wantInfo) {
		t.Errorf("Info after Open %+v, want %+v", got, wantInfo)
	}
	for k, r := range res {
		n := len(wantSums)
		if stops[k] >= 0 {
			n = stops[k]
		} else if r.end == nil || r.end.Error() != wantEnd.Error() {
			t.Errorf("reader %d ended with %v, want %v", k, r.end, wantEnd)
		}
		if len(r.sums) != n {
			t.Errorf("reader %d read %d frames, want %d", k, len(r.sums), n)
			continue
		}
		for i := 0; i < n; i++ {
			if r.sums[i] != wantSums[i] || r.pts[i] != wantPTS[i] {
				t.Errorf("reader %d frame %d: %x at %v, want %x at %v", k, i, r.sums[i], r.pts[i], wantSums[i], wantPTS[i])
				break
			}
		}
	}
	if err := rs[0].Open(); err == nil {
		t.Error("a closed reader opened again")
	}
}
