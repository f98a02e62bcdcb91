package main

import (
	"errors"
	"sync"
	"time"

	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/sight"
)

// sharedVideo decodes a clip once for the runs of eval --remove that play
// it side by side (the repeatable removals of one clip: speedK, fpsN,
// bursts, random drops): each run reads every frame, in order, through its
// own reader, which copies it out of a window of decoded frames. The
// frames, their times and the errors at the end are the decoder's, the
// same a run's own decoder would give; how fast a run reads changes
// nothing in what it sees (those removals do not depend on the wall
// clock). A reader ahead of the others by the whole window waits for the
// slowest one.
type sharedVideo struct {
	mu       sync.Mutex
	cond     *sync.Cond
	src      daemon.Source
	pics     sight.Pictures
	before   daemon.SourceInfo // Info before Open
	opened   bool
	openErr  error
	frames   []sharedFrame // frames base … base+len-1
	base     int
	end      int // the read that failed (-1: none yet), with endErr
	endErr   error
	decoding bool
	pos      []int // each reader's next frame; -1 once it is closed
	spare    []sight.Image
}

type sharedFrame struct {
	img sight.Image
	pts time.Duration
}

// sharedWindow is how many decoded frames are kept for the readers
// behind: 32 at 720p is 88 MB.
const sharedWindow = 32

func newSharedVideo(path string, pics sight.Pictures) (*sharedVideo, error) {
	spec, err := daemon.ParseSource(path, "")
	if err != nil {
		return nil, err
	}
	src, err := daemon.NewCaptureSource(spec, daemon.CaptureOptions{}, pics)
	if err != nil {
		return nil, err
	}
	v := &sharedVideo{src: src, pics: pics, before: src.Info(), end: -1}
	v.cond = sync.NewCond(&v.mu)
	return v, nil
}

// reader returns a new reader, at the first frame. Every reader is made
// before the first one reads.
func (v *sharedVideo) reader() *sharedReader {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.pos = append(v.pos, 0)
	return &sharedReader{v: v, id: len(v.pos) - 1}
}

// Close releases the decoder and the frames, once every run has ended.
func (v *sharedVideo) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, f := range v.frames {
		f.img.Close()
	}
	for _, img := range v.spare {
		img.Close()
	}
	v.frames, v.spare = nil, nil
	v.src.Close()
}

// trim lets go of the frames every open reader has read.
func (v *sharedVideo) trim() {
	low := v.base + len(v.frames)
	for _, p := range v.pos {
		if p >= 0 {
			low = min(low, p)
		}
	}
	for v.base < low && len(v.frames) > 0 {
		v.spare = append(v.spare, v.frames[0].img)
		v.frames = v.frames[1:]
		v.base++
	}
	v.cond.Broadcast()
}

// sharedReader is one run's daemon.Source on a sharedVideo.
type sharedReader struct {
	v      *sharedVideo
	id     int
	opened bool
}

func (r *sharedReader) Info() daemon.SourceInfo {
	v := r.v
	v.mu.Lock()
	defer v.mu.Unlock()
	if r.opened {
		return v.src.Info()
	}
	return v.before
}

func (r *sharedReader) Open() error {
	v := r.v
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.pos[r.id] != 0 || r.opened {
		return errors.New("eval --remove: a shared video is read once, from its start")
	}
	if !v.opened {
		v.opened = true
		v.openErr = v.src.Open()
	}
	r.opened = v.openErr == nil
	return v.openErr
}

func (r *sharedReader) Read(dst sight.Image) (time.Duration, error) {
	v := r.v
	v.mu.Lock()
	defer v.mu.Unlock()
	i := v.pos[r.id]
	if i < 0 || !r.opened {
		return 0, errors.New("eval --remove: a shared video read while closed")
	}
	for i >= v.base+len(v.frames) {
		switch {
		case v.end >= 0 && i >= v.end:
			return 0, v.endErr
		case v.decoding || len(v.frames) >= sharedWindow:
			v.cond.Wait() // another reader decodes, or the slowest must catch up
		default:
			v.decoding = true
			var img sight.Image
			if n := len(v.spare); n > 0 {
				img, v.spare = v.spare[n-1], v.spare[:n-1]
			} else {
				img = v.pics.NewImage()
			}
			v.mu.Unlock()
			pts, err := v.src.Read(img)
			v.mu.Lock()
			v.decoding = false
			if err != nil {
				v.spare = append(v.spare, img)
				v.end, v.endErr = v.base+len(v.frames), err
			} else {
				v.frames = append(v.frames, sharedFrame{img, pts})
			}
			v.cond.Broadcast()
		}
	}
	f := v.frames[i-v.base]
	w, h := sight.Size(f.img)
	src, err := v.pics.BGR(f.img, w, h) // its own bytes: already BGR, continuous
	if err != nil {
		return 0, err
	}
	buf, err := v.pics.BGR(dst, w, h)
	if err != nil {
		return 0, err
	}
	copy(buf, src)
	v.pos[r.id] = i + 1
	v.trim()
	return f.pts, nil
}

// Close leaves the video to the other readers (also a reader that never
// read: the others do not wait for it).
func (r *sharedReader) Close() error {
	v := r.v
	v.mu.Lock()
	defer v.mu.Unlock()
	v.pos[r.id] = -1 // its Info stays that of the opened video
	v.trim()
	return nil
}
