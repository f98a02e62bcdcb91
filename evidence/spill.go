package evidence

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
)

// spill keeps the replay buffer's compressed frames in files on disk
// instead of the process's memory (BufferConfig.SpillDir): each JPEG is
// written once, when compressed, and read back only for a decision's still
// and clip. The files are segments of about segmentBytes, unlinked as soon
// as they are made (nothing is left behind by a crash), each closed when
// no frame the buffer holds is in it and no decision being written reads
// it. Which frames are kept is unchanged (MaxBytes still bounds them all):
// only where their bytes are.
type spill struct {
	dir  string
	mu   sync.Mutex
	cur  *segment
	segs []*segment // open, oldest first (cur last)
	// failed counts frames whose write failed (kept in memory instead).
	failed int64
}

// segmentBytes is the size at which a new segment is started: about 25
// frames of a 720p camera kept at 960×540, so that the bytes on disk exceed
// those held by less than a segment per stroke outside the ring.
const segmentBytes = 1 << 20

type segment struct {
	sp      *spill
	f       *os.File
	size    int64
	pins    int  // frames handed out by Buffer.Frames, not yet released (sp.mu)
	retired bool // no frame the buffer holds is in it (sp.mu)
}

// errInMemory: the directory is itself memory (tmpfs, ramfs): spilling
// there would only move the bytes.
var errInMemory = errors.New("the directory is in memory (tmpfs): the frames stay in the process")

// newSpill checks that dir can hold the frames: it is created if missing,
// must be writable and must not be a file system in memory.
func newSpill(dir string) (*spill, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err == nil {
		const tmpfsMagic, ramfsMagic = 0x01021994, 0x858458f6
		if st.Type == tmpfsMagic || st.Type == ramfsMagic {
			return nil, errInMemory
		}
	}
	s := &spill{dir: dir}
	seg, err := s.newSegment()
	if err != nil {
		return nil, err
	}
	seg.close()
	return s, nil
}

// newSegment makes an unlinked file in dir.
func (s *spill) newSegment() (*segment, error) {
	f, err := os.CreateTemp(s.dir, ".replay-*.tmp")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // the open file stays readable and writable
	return &segment{sp: s, f: f}, nil
}

// write stores a frame's JPEG: the segment and offset it is at.
func (s *spill) write(jpeg []byte) (*segment, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil || s.cur.size >= segmentBytes {
		seg, err := s.newSegment()
		if err != nil {
			s.failed++
			return nil, 0, err
		}
		s.cur = seg
		s.segs = append(s.segs, seg)
	}
	seg := s.cur
	off := seg.size
	if _, err := seg.f.WriteAt(jpeg, off); err != nil {
		s.failed++
		return nil, 0, err
	}
	seg.size += int64(len(jpeg))
	return seg, off, nil
}

// retire closes the segments no frame the buffer holds is in (held: those
// some frame is in), once no decision reads them; the one being written
// stays open.
func (s *spill) retire(held map[*segment]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := s.segs[:0]
	for _, seg := range s.segs {
		if !held[seg] && seg != s.cur {
			seg.retired = true
		}
		if seg.retired && seg.pins == 0 {
			seg.close()
			continue
		}
		keep = append(keep, seg)
	}
	clear(s.segs[len(keep):])
	s.segs = keep
}

// closeAll closes every segment no decision reads (the buffer is closed);
// the others close when released.
func (s *spill) closeAll() {
	s.mu.Lock()
	s.cur = nil
	s.mu.Unlock()
	s.retire(nil)
}

func (seg *segment) close() {
	if seg.f != nil {
		seg.f.Close()
		seg.f = nil
	}
}

// read returns n bytes at off.
func (seg *segment) read(off int64, n int) ([]byte, error) {
	seg.sp.mu.Lock()
	f := seg.f
	seg.sp.mu.Unlock()
	if f == nil {
		return nil, errors.New("evidence: the replay frame's file was closed")
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		return nil, fmt.Errorf("evidence: reading a replay frame back: %w", err)
	}
	return b, nil
}

// unpin gives back a frame handed out by Buffer.Frames (Buffer.pin
// counted it).
func (seg *segment) unpin() {
	s := seg.sp
	s.mu.Lock()
	defer s.mu.Unlock()
	seg.pins--
	if seg.pins == 0 && seg.retired {
		seg.close()
		for i, o := range s.segs {
			if o == seg {
				s.segs = append(s.segs[:i], s.segs[i+1:]...)
				break
			}
		}
		if s.cur == seg {
			s.cur = nil
		}
	}
}

// Bytes is the frame's JPEG: in memory, or read back from the buffer's
// file on disk (BufferConfig.SpillDir).
func (f Frame) Bytes() ([]byte, error) {
	if f.seg == nil {
		return f.JPEG, nil
	}
	return f.seg.read(f.off, f.n)
}

// Size is the JPEG's length in bytes, wherever it is.
func (f Frame) Size() int64 {
	if f.seg == nil {
		return int64(len(f.JPEG))
	}
	return int64(f.n)
}

// Release gives back frames returned by Buffer.Frames once their bytes have
// been read (Writer does it for a request's frames): the files they are in
// may then be closed.
func Release(fs []Frame) {
	for _, f := range fs {
		if f.seg != nil {
			f.seg.unpin()
		}
	}
}
