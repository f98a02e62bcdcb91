// Package mp4 reads the video track of an MP4 or QuickTime file (ISO BMFF:
// the moov box's sample tables): the codec's configuration and, in decode
// order, where each sample (a coded frame) lies in the file. It is what
// frames/libav needs to decode an MP4 with libavcodec alone, without
// libavformat, whose network and container libraries weigh about 11 MB
// resident (docs/memory.md). The boxes are parsed by
// github.com/Eyevinn/mp4ff, the mdat lazily (never read into memory: Next
// reads one sample at a time). Fragmented MP4 (moof) is not read: Open says
// ErrUnsupported, and the caller uses another demuxer.
package mp4

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	mp4ff "github.com/Eyevinn/mp4ff/mp4"
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

func unsupported(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnsupported}, a...)...)
}

// maxSamples bounds the sample count a track may state (2^24: over six days
// at 30 frames/s), so that a damaged stsz cannot make Open allocate
// gigabytes.
const maxSamples = 1 << 24

// readTrack parses f's boxes with mp4ff (the mdat lazily) and returns its
// first video track.
func readTrack(f *os.File) (t *Track, err error) {
	end, err := topLevel(f)
	if err != nil {
		return nil, err
	}
	// mp4ff indexes what it trusts (a box without the children the
	// format requires): a damaged file is not this package's to read.
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, unsupported("damaged: %v", r)
		}
	}()
	parsed, err := mp4ff.DecodeFile(io.NewSectionReader(f, 0, end), mp4ff.WithDecodeMode(mp4ff.DecModeLazyMdat))
	if err != nil {
		return nil, unsupported("%v", err)
	}
	if parsed.IsFragmented() {
		return nil, unsupported("a fragmented MP4")
	}
	if parsed.Moov == nil {
		return nil, unsupported("no moov box (a truncated or unfinished file)")
	}
	for _, trak := range parsed.Moov.Traks {
		if trak.Mdia == nil || trak.Mdia.Hdlr == nil {
			return nil, unsupported("a track without mdia/hdlr")
		}
		if trak.Mdia.Hdlr.HandlerType == "vide" {
			return videoTrack(trak)
		}
	}
	return nil, unsupported("no video track")
}

// topLevel checks the top-level box headers before mp4ff reads the boxes
// (it allocates a box's stated size before reading it): the first is one
// an MP4 or QuickTime file begins with, and each lies within the file. It
// returns where mp4ff is to stop: the file's end, or the start of a last
// mdat whose size is 0 ("to the end of the file", which mp4ff does not
// read; its samples are found through the chunk offsets all the same).
func topLevel(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	var h [16]byte
	for off := int64(0); off < size; {
		if off+8 > size {
			return 0, unsupported("%d stray bytes at %d", size-off, off)
		}
		if _, err := f.ReadAt(h[:8], off); err != nil {
			return 0, err
		}
		n, typ, hdr := int64(binary.BigEndian.Uint32(h[:4])), string(h[4:8]), int64(8)
		if off == 0 && typ != "ftyp" && typ != "moov" && typ != "wide" && typ != "mdat" && typ != "free" {
			return 0, unsupported("not an MP4 or QuickTime file")
		}
		switch n {
		case 0:
			if typ != "mdat" {
				return 0, unsupported("a %q box to the end of the file", typ)
			}
			return off, nil
		case 1:
			if _, err := f.ReadAt(h[8:16], off+8); err != nil {
				return 0, unsupported("box %q at %d: %v", typ, off, err)
			}
			n, hdr = int64(binary.BigEndian.Uint64(h[8:16])), 16
		}
		if n < hdr || n > size-off {
			return 0, unsupported("box %q of %d bytes at %d overruns the file", typ, n, off)
		}
		if typ == "moof" {
			return 0, unsupported("a fragmented MP4")
		}
		off += n
	}
	return size, nil
}

// videoTrack reads a video trak's codec configuration and sample tables.
func videoTrack(trak *mp4ff.TrakBox) (*Track, error) {
	mdia := trak.Mdia
	if mdia.Mdhd == nil || mdia.Mdhd.Timescale == 0 {
		return nil, unsupported("no mdhd or timescale 0")
	}
	if mdia.Minf == nil || mdia.Minf.Stbl == nil {
		return nil, unsupported("no stbl")
	}
	stbl := mdia.Minf.Stbl
	t := &Track{Timescale: mdia.Mdhd.Timescale}
	if err := t.readEntry(stbl.Stsd); err != nil {
		return nil, err
	}
	sizes, err := sampleSizes(stbl.Stsz)
	if err != nil {
		return nil, err
	}
	offsets, err := sampleOffsets(stbl, sizes)
	if err != nil {
		return nil, err
	}
	t.Samples = make([]Sample, len(sizes))
	for i := range t.Samples {
		t.Samples[i] = Sample{Offset: offsets[i], Size: sizes[i], Key: true}
	}
	if err := t.readTimes(stbl.Stts, stbl.Ctts); err != nil {
		return nil, err
	}
	if stbl.Stss != nil {
		for i := range t.Samples {
			t.Samples[i].Key = false
		}
		for _, s := range stbl.Stss.SampleNumber {
			if s >= 1 && int64(s) <= int64(len(t.Samples)) {
				t.Samples[s-1].Key = true
			}
		}
	}
	return t, nil
}

// readEntry reads the first sample entry and its decoder configuration
// record.
func (t *Track) readEntry(stsd *mp4ff.StsdBox) error {
	if stsd == nil || len(stsd.Children) == 0 {
		return unsupported("no stsd")
	}
	t.Codec = stsd.Children[0].Type()
	e, ok := stsd.Children[0].(*mp4ff.VisualSampleEntryBox)
	if !ok {
		return unsupported("codec %q", t.Codec)
	}
	var conf mp4ff.Box
	switch t.Codec {
	case "avc1", "avc3":
		if e.AvcC != nil {
			conf = e.AvcC
		}
	case "hvc1", "hev1":
		if e.HvcC != nil {
			conf = e.HvcC
		}
	default:
		return unsupported("codec %q", t.Codec)
	}
	if conf == nil {
		return unsupported("no configuration record in the %s sample entry", t.Codec)
	}
	var b bytes.Buffer
	if err := conf.Encode(&b); err != nil || b.Len() < 8 {
		return unsupported("the %s sample entry's %s: %v", t.Codec, conf.Type(), err)
	}
	t.Config = b.Bytes()[8:] // the payload after the box header
	t.Width, t.Height = int(e.Width), int(e.Height)
	return nil
}

func sampleSizes(stsz *mp4ff.StszBox) ([]uint32, error) {
	if stsz == nil {
		return nil, unsupported("no stsz (stz2 is not read)")
	}
	n := int64(stsz.SampleNumber)
	if n > maxSamples || (stsz.SampleUniformSize == 0 && int64(len(stsz.SampleSize)) < n) {
		return nil, unsupported("bad stsz")
	}
	sizes := make([]uint32, n)
	for i := range sizes {
		if stsz.SampleUniformSize != 0 {
			sizes[i] = stsz.SampleUniformSize
		} else {
			sizes[i] = stsz.SampleSize[i]
		}
	}
	return sizes, nil
}

// sampleOffsets places every sample: its chunk's offset (stco or co64),
// which chunk it is in (stsc), the sizes of the samples before it in the
// chunk.
func sampleOffsets(stbl *mp4ff.StblBox, sizes []uint32) ([]int64, error) {
	var chunks []int64
	switch {
	case stbl.Stco != nil:
		chunks = make([]int64, len(stbl.Stco.ChunkOffset))
		for i, o := range stbl.Stco.ChunkOffset {
			chunks[i] = int64(o)
		}
	case stbl.Co64 != nil:
		chunks = make([]int64, len(stbl.Co64.ChunkOffset))
		for i, o := range stbl.Co64.ChunkOffset {
			chunks[i] = int64(o)
		}
	default:
		return nil, unsupported("no chunk offsets")
	}
	if stbl.Stsc == nil || len(stbl.Stsc.Entries) == 0 {
		return nil, unsupported("no stsc")
	}
	entries := stbl.Stsc.Entries
	out := make([]int64, 0, len(sizes))
	s := 0
	for e := 0; e < len(entries) && s < len(sizes); e++ {
		first, per := int64(entries[e].FirstChunk), int64(entries[e].SamplesPerChunk)
		last := int64(len(chunks)) + 1
		if e+1 < len(entries) {
			last = int64(entries[e+1].FirstChunk)
		}
		if first < 1 {
			return nil, unsupported("bad stsc")
		}
		for c := first; c < last && c <= int64(len(chunks)) && s < len(sizes); c++ {
			off := chunks[c-1]
			for k := int64(0); k < per && s < len(sizes); k++ {
				out = append(out, off)
				off += int64(sizes[s])
				s++
			}
		}
	}
	if len(out) != len(sizes) {
		return nil, unsupported("the chunks hold %d of %d samples", len(out), len(sizes))
	}
	return out, nil
}

// readTimes fills DTS and PTS (stts, ctts), Duration and FrameRate.
func (t *Track) readTimes(stts *mp4ff.SttsBox, ctts *mp4ff.CttsBox) error {
	if stts == nil || len(stts.SampleTimeDelta) != len(stts.SampleCount) {
		return unsupported("no stts")
	}
	var dts int64
	i := 0
	for e, count := range stts.SampleCount {
		delta := int64(stts.SampleTimeDelta[e])
		for k := uint32(0); k < count && i < len(t.Samples); k++ {
			t.Samples[i].DTS, t.Samples[i].PTS = dts, dts
			dts += delta
			i++
		}
	}
	t.Duration = dts
	if ctts != nil && len(ctts.EndSampleNr) == len(ctts.SampleOffset)+1 {
		i := 0
		for e, off := range ctts.SampleOffset {
			o := int64(off) // version 1: signed
			if ctts.Version == 0 {
				o = int64(uint32(off))
			}
			count := ctts.EndSampleNr[e+1] - ctts.EndSampleNr[e]
			for k := uint32(0); k < count && i < len(t.Samples); k++ {
				t.Samples[i].PTS = t.Samples[i].DTS + o
				i++
			}
		}
	}
	// FFmpeg's mov demuxer: r_frame_rate = timescale / delta when one
	// delta (or one more for the last sample) spaces every sample.
	counts, deltas := stts.SampleCount, stts.SampleTimeDelta
	switch {
	case len(deltas) == 1 || (len(deltas) == 2 && counts[1] == 1):
		if deltas[0] > 0 {
			t.FrameRateNum, t.FrameRateDen = reduce(int64(t.Timescale), int64(deltas[0]))
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
