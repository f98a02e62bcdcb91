// Package legacy is frames/mp4 before mp4ff (kept only to compare the two; deleted once they agree). It reads the video track of an MP4 or QuickTime file (ISO BMFF:
// the moov box's sample tables): the codec's configuration and, in decode
// order, where each sample (a coded frame) lies in the file. It is what
// frames/libav needs to decode an MP4 with libavcodec alone, without
// libavformat, whose network and container libraries weigh about 11 MB
// resident (docs/memory.md). Fragmented MP4 (moof) is not read: Open says
// ErrUnsupported, and the caller uses another demuxer.
package legacy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrUnsupported: not an MP4 this package reads (another container, a
// fragmented MP4, no video track, an unknown codec).
var ErrUnsupported = errors.New("mp4: not a file this demuxer reads")

// Sample is one coded frame.
type Sample struct {
	Offset int64
	Size   uint32
	DTS    int64 // decode time, in the track's timescale
	PTS    int64 // presentation time (DTS + composition offset)
	Key    bool  // a sync sample
}

// Track is a file's first video track.
type Track struct {
	// Codec is the sample entry's type: avc1, avc3, hvc1, hev1.
	Codec         string
	Width, Height int
	Timescale     uint32
	// Config is the decoder configuration record (the avcC or hvcC box's
	// payload: FFmpeg's extradata).
	Config  []byte
	Samples []Sample
	// Duration is the track's media duration in its timescale (the sum of
	// the sample durations).
	Duration int64
	// FrameRate is the rate FFmpeg's mov demuxer states: timescale / delta
	// when the samples are evenly spaced, else samples over duration.
	FrameRateNum, FrameRateDen int64
}

// File is an open MP4 file.
type File struct {
	f     *os.File
	Track Track
	next  int
	buf   []byte
}

// Open reads path's sample tables.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	t, err := readTrack(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &File{f: f, Track: *t}, nil
}

// Next reads the next sample's bytes (valid until the next call); io.EOF
// after the last.
func (m *File) Next() (Sample, []byte, error) {
	if m.next >= len(m.Track.Samples) {
		return Sample{}, nil, io.EOF
	}
	s := m.Track.Samples[m.next]
	m.next++
	if cap(m.buf) < int(s.Size) {
		m.buf = make([]byte, s.Size)
	}
	b := m.buf[:s.Size]
	if _, err := m.f.ReadAt(b, s.Offset); err != nil {
		return s, nil, fmt.Errorf("mp4: sample %d at %d: %w", m.next-1, s.Offset, err)
	}
	return s, b, nil
}

// Close closes the file.
func (m *File) Close() error { return m.f.Close() }

type box struct {
	typ         string
	start, size int64 // payload start and size
}

// boxes lists the boxes in [off, end) of r.
func boxes(r io.ReaderAt, off, end int64) ([]box, error) {
	var out []box
	var h [16]byte
	for off+8 <= end {
		if _, err := r.ReadAt(h[:8], off); err != nil {
			return nil, err
		}
		size := int64(binary.BigEndian.Uint32(h[:4]))
		typ := string(h[4:8])
		hdr := int64(8)
		switch size {
		case 1:
			if _, err := r.ReadAt(h[8:16], off+8); err != nil {
				return nil, err
			}
			size = int64(binary.BigEndian.Uint64(h[8:16]))
			hdr = 16
		case 0:
			size = end - off
		}
		if size < hdr || off+size > end {
			return nil, fmt.Errorf("%w: box %q of %d bytes at %d overruns its parent", ErrUnsupported, typ, size, off)
		}
		out = append(out, box{typ, off + hdr, size - hdr})
		off += size
	}
	return out, nil
}

func find(bs []box, typ string) (box, bool) {
	for _, b := range bs {
		if b.typ == typ {
			return b, true
		}
	}
	return box{}, false
}

func payload(r io.ReaderAt, b box) ([]byte, error) {
	if b.size > 1<<30 {
		return nil, fmt.Errorf("%w: box %q too large", ErrUnsupported, b.typ)
	}
	p := make([]byte, b.size)
	_, err := r.ReadAt(p, b.start)
	return p, err
}

func readTrack(f *os.File) (*Track, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	top, err := boxes(f, 0, st.Size())
	if err != nil {
		if errors.Is(err, ErrUnsupported) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", ErrUnsupported, err)
	}
	if len(top) == 0 || (top[0].typ != "ftyp" && top[0].typ != "moov" && top[0].typ != "wide" && top[0].typ != "mdat" && top[0].typ != "free") {
		return nil, ErrUnsupported
	}
	if _, ok := find(top, "moof"); ok {
		return nil, fmt.Errorf("%w: a fragmented MP4", ErrUnsupported)
	}
	moov, ok := find(top, "moov")
	if !ok {
		return nil, fmt.Errorf("%w: no moov box (a truncated or unfinished file)", ErrUnsupported)
	}
	traks, err := boxes(f, moov.start, moov.start+moov.size)
	if err != nil {
		return nil, err
	}
	for _, tb := range traks {
		if tb.typ != "trak" {
			continue
		}
		t, err := readTrak(f, tb)
		if err != nil {
			return nil, err
		}
		if t != nil {
			return t, nil
		}
	}
	return nil, fmt.Errorf("%w: no video track", ErrUnsupported)
}

// child descends a path of boxes.
func child(r io.ReaderAt, b box, path ...string) (box, error) {
	for _, p := range path {
		bs, err := boxes(r, b.start, b.start+b.size)
		if err != nil {
			return box{}, err
		}
		var ok bool
		if b, ok = find(bs, p); !ok {
			return box{}, fmt.Errorf("%w: no %s box", ErrUnsupported, p)
		}
	}
	return b, nil
}

func readTrak(r io.ReaderAt, trak box) (*Track, error) {
	hdlr, err := child(r, trak, "mdia", "hdlr")
	if err != nil {
		return nil, err
	}
	h, err := payload(r, hdlr)
	if err != nil || len(h) < 12 {
		return nil, fmt.Errorf("%w: short hdlr", ErrUnsupported)
	}
	if string(h[8:12]) != "vide" {
		return nil, nil
	}
	mdhd, err := child(r, trak, "mdia", "mdhd")
	if err != nil {
		return nil, err
	}
	md, err := payload(r, mdhd)
	if err != nil || len(md) < 24 {
		return nil, fmt.Errorf("%w: short mdhd", ErrUnsupported)
	}
	t := &Track{}
	if md[0] == 1 {
		if len(md) < 32 {
			return nil, fmt.Errorf("%w: short mdhd", ErrUnsupported)
		}
		t.Timescale = binary.BigEndian.Uint32(md[20:])
	} else {
		t.Timescale = binary.BigEndian.Uint32(md[12:])
	}
	if t.Timescale == 0 {
		return nil, fmt.Errorf("%w: timescale 0", ErrUnsupported)
	}
	stbl, err := child(r, trak, "mdia", "minf", "stbl")
	if err != nil {
		return nil, err
	}
	tables, err := boxes(r, stbl.start, stbl.start+stbl.size)
	if err != nil {
		return nil, err
	}
	get := func(typ string) ([]byte, bool, error) {
		b, ok := find(tables, typ)
		if !ok {
			return nil, false, nil
		}
		p, err := payload(r, b)
		return p, true, err
	}
	stsd, ok, err := get("stsd")
	if err != nil || !ok {
		return nil, fmt.Errorf("%w: no stsd", ErrUnsupported)
	}
	if err := t.readEntry(stsd); err != nil {
		return nil, err
	}
	sizes, err := readStsz(get)
	if err != nil {
		return nil, err
	}
	offsets, err := chunkOffsets(get, sizes)
	if err != nil {
		return nil, err
	}
	n := len(sizes)
	t.Samples = make([]Sample, n)
	for i := range t.Samples {
		t.Samples[i] = Sample{Offset: offsets[i], Size: sizes[i], Key: true}
	}
	if err := t.readTimes(get); err != nil {
		return nil, err
	}
	if stss, ok, err := get("stss"); err != nil {
		return nil, err
	} else if ok {
		for i := range t.Samples {
			t.Samples[i].Key = false
		}
		if len(stss) < 8 {
			return nil, fmt.Errorf("%w: short stss", ErrUnsupported)
		}
		k := int(binary.BigEndian.Uint32(stss[4:]))
		for j := 0; j < k && 8+4*j+4 <= len(stss); j++ {
			if s := int(binary.BigEndian.Uint32(stss[8+4*j:])); s >= 1 && s <= n {
				t.Samples[s-1].Key = true
			}
		}
	}
	return t, nil
}

// readEntry reads the first visual sample entry and its configuration.
func (t *Track) readEntry(stsd []byte) error {
	if len(stsd) < 8+8+78 {
		return fmt.Errorf("%w: short stsd", ErrUnsupported)
	}
	e := stsd[8:]
	size := int(binary.BigEndian.Uint32(e))
	if size < 8+78 || size > len(e) {
		return fmt.Errorf("%w: bad sample entry", ErrUnsupported)
	}
	t.Codec = string(e[4:8])
	var want string
	switch t.Codec {
	case "avc1", "avc3":
		want = "avcC"
	case "hvc1", "hev1":
		want = "hvcC"
	default:
		return fmt.Errorf("%w: codec %q", ErrUnsupported, t.Codec)
	}
	v := e[8:size]
	t.Width = int(binary.BigEndian.Uint16(v[24:]))
	t.Height = int(binary.BigEndian.Uint16(v[26:]))
	for c := v[78:]; len(c) >= 8; {
		n := int(binary.BigEndian.Uint32(c))
		if n < 8 || n > len(c) {
			break
		}
		if string(c[4:8]) == want {
			t.Config = append([]byte(nil), c[8:n]...)
		}
		c = c[n:]
	}
	if t.Config == nil {
		return fmt.Errorf("%w: no %s in the %s sample entry", ErrUnsupported, want, t.Codec)
	}
	return nil
}

func readStsz(get func(string) ([]byte, bool, error)) ([]uint32, error) {
	p, ok, err := get("stsz")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: no stsz (stz2 is not read)", ErrUnsupported)
	}
	if len(p) < 12 {
		return nil, fmt.Errorf("%w: short stsz", ErrUnsupported)
	}
	fixed := binary.BigEndian.Uint32(p[4:])
	n := int(binary.BigEndian.Uint32(p[8:]))
	if n > 1<<24 || (fixed == 0 && len(p) < 12+4*n) {
		return nil, fmt.Errorf("%w: bad stsz", ErrUnsupported)
	}
	sizes := make([]uint32, n)
	for i := range sizes {
		if fixed != 0 {
			sizes[i] = fixed
		} else {
			sizes[i] = binary.BigEndian.Uint32(p[12+4*i:])
		}
	}
	return sizes, nil
}

// chunkOffsets places every sample from stco/co64 and stsc.
func chunkOffsets(get func(string) ([]byte, bool, error), sizes []uint32) ([]int64, error) {
	var chunks []int64
	if p, ok, err := get("stco"); err != nil {
		return nil, err
	} else if ok && len(p) >= 8 {
		n := int(binary.BigEndian.Uint32(p[4:]))
		if len(p) < 8+4*n {
			return nil, fmt.Errorf("%w: short stco", ErrUnsupported)
		}
		for i := 0; i < n; i++ {
			chunks = append(chunks, int64(binary.BigEndian.Uint32(p[8+4*i:])))
		}
	} else if p, ok, err := get("co64"); err != nil {
		return nil, err
	} else if ok && len(p) >= 8 {
		n := int(binary.BigEndian.Uint32(p[4:]))
		if len(p) < 8+8*n {
			return nil, fmt.Errorf("%w: short co64", ErrUnsupported)
		}
		for i := 0; i < n; i++ {
			chunks = append(chunks, int64(binary.BigEndian.Uint64(p[8+8*i:])))
		}
	} else {
		return nil, fmt.Errorf("%w: no chunk offsets", ErrUnsupported)
	}
	p, ok, err := get("stsc")
	if err != nil || !ok || len(p) < 8 {
		return nil, fmt.Errorf("%w: no stsc", ErrUnsupported)
	}
	n := int(binary.BigEndian.Uint32(p[4:]))
	if len(p) < 8+12*n || n == 0 {
		return nil, fmt.Errorf("%w: short stsc", ErrUnsupported)
	}
	out := make([]int64, 0, len(sizes))
	s := 0
	for e := 0; e < n && s < len(sizes); e++ {
		first := int(binary.BigEndian.Uint32(p[8+12*e:]))
		per := int(binary.BigEndian.Uint32(p[8+12*e+4:]))
		last := len(chunks) + 1
		if e+1 < n {
			last = int(binary.BigEndian.Uint32(p[8+12*(e+1):]))
		}
		if first < 1 || per < 0 {
			return nil, fmt.Errorf("%w: bad stsc", ErrUnsupported)
		}
		for c := first; c < last && c <= len(chunks) && s < len(sizes); c++ {
			off := chunks[c-1]
			for k := 0; k < per && s < len(sizes); k++ {
				out = append(out, off)
				off += int64(sizes[s])
				s++
			}
		}
	}
	if len(out) != len(sizes) {
		return nil, fmt.Errorf("%w: the chunks hold %d of %d samples", ErrUnsupported, len(out), len(sizes))
	}
	return out, nil
}

// readTimes fills DTS and PTS (stts, ctts), Duration and FrameRate.
func (t *Track) readTimes(get func(string) ([]byte, bool, error)) error {
	p, ok, err := get("stts")
	if err != nil || !ok || len(p) < 8 {
		return fmt.Errorf("%w: no stts", ErrUnsupported)
	}
	n := int(binary.BigEndian.Uint32(p[4:]))
	if len(p) < 8+8*n {
		return fmt.Errorf("%w: short stts", ErrUnsupported)
	}
	var dts int64
	i := 0
	type entry struct{ count, delta int64 }
	var entries []entry
	for e := 0; e < n; e++ {
		count := int64(binary.BigEndian.Uint32(p[8+8*e:]))
		delta := int64(binary.BigEndian.Uint32(p[8+8*e+4:]))
		entries = append(entries, entry{count, delta})
		for k := int64(0); k < count && i < len(t.Samples); k++ {
			t.Samples[i].DTS, t.Samples[i].PTS = dts, dts
			dts += delta
			i++
		}
	}
	t.Duration = dts
	if c, ok, err := get("ctts"); err != nil {
		return err
	} else if ok && len(c) >= 8 {
		m := int(binary.BigEndian.Uint32(c[4:]))
		i := 0
		for e := 0; e < m && 8+8*e+8 <= len(c); e++ {
			count := int(binary.BigEndian.Uint32(c[8+8*e:]))
			off := int64(int32(binary.BigEndian.Uint32(c[8+8*e+4:])))
			if c[0] == 0 {
				off = int64(binary.BigEndian.Uint32(c[8+8*e+4:]))
			}
			for k := 0; k < count && i < len(t.Samples); k++ {
				t.Samples[i].PTS = t.Samples[i].DTS + off
				i++
			}
		}
	}
	// FFmpeg's mov demuxer: r_frame_rate = timescale / delta when one
	// delta (or one more for the last sample) spaces every sample.
	switch {
	case len(entries) == 1 || (len(entries) == 2 && entries[1].count == 1):
		if entries[0].delta > 0 {
			t.FrameRateNum, t.FrameRateDen = reduce(int64(t.Timescale), entries[0].delta)
		}
	case t.Duration > 0:
		t.FrameRateNum, t.FrameRateDen = reduce(int64(t.Timescale)*int64(len(t.Samples)), t.Duration)
	}
	return nil
}

func reduce(a, b int64) (int64, int64) {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	if x == 0 {
		return a, b
	}
	return a / x, b / x
}
