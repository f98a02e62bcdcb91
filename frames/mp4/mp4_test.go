package mp4

import (
	"encoding/binary"
	"errors"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The tables of three clips as the hand-written demuxer this package
// replaced read them (it and mp4ff agreed on every clip of testdata and
// ../shared/independent, and on H.264 with B-frames, HEVC hev1/hvc1, MOV,
// faststart, audio-first and 24000/1001 files made with ffmpeg): the
// whole sample table's FNV-64a hash, and some of its figures.
func TestKnownTables(t *testing.T) {
	for _, k := range []struct {
		clip                     string
		codec                    string
		w, h                     int
		timescale                uint32
		duration, fpsNum, fpsDen int64
		samples, keys            int
		bytes                    int64
		first, last              Sample
		configLen                int
		configHash, tableHash    uint64
	}{
		{"demo", "avc1", 1280, 720, 15360, 545792, 30, 1, 1066, 18, 2412370, Sample{Offset: 13578, Size: 25136, DTS: 0, PTS: 1024, Key: true}, Sample{Offset: 2425337, Size: 611, DTS: 545280, PTS: 546304}, 46, 0x7c5a3efcf003a3d1, 0x6cd5c75fc50e6372},
		{"break", "avc1", 1920, 1080, 15360, 69632, 30, 1, 136, 3, 745370, Sample{Offset: 2439, Size: 30101, DTS: 0, PTS: 1024, Key: true}, Sample{Offset: 743961, Size: 3848, DTS: 69120, PTS: 69632}, 47, 0x858069a8c8517a9e, 0x8fa1cc09d6027e86},
		{"cluster", "avc1", 1920, 1080, 15360, 59904, 60, 1, 234, 2, 265435, Sample{Offset: 3099, Size: 19871, DTS: 0, PTS: 512, Key: true}, Sample{Offset: 268331, Size: 203, DTS: 59648, PTS: 60160}, 47, 0xf0338a1a5f9b78a6, 0x20703331b8c0c0ef},
	} {
		m, err := Open("../../testdata/videos/" + k.clip + ".mp4")
		if err != nil {
			t.Fatal(err)
		}
		tr := m.Track
		m.Close()
		table := fnv.New64a()
		keys := 0
		var total int64
		for _, s := range tr.Samples {
			var b [29]byte
			binary.BigEndian.PutUint64(b[0:], uint64(s.Offset))
			binary.BigEndian.PutUint32(b[8:], s.Size)
			binary.BigEndian.PutUint64(b[12:], uint64(s.DTS))
			binary.BigEndian.PutUint64(b[20:], uint64(s.PTS))
			if s.Key {
				b[28] = 1
				keys++
			}
			table.Write(b[:])
			total += int64(s.Size)
		}
		config := fnv.New64a()
		config.Write(tr.Config)
		if tr.Codec != k.codec || tr.Width != k.w || tr.Height != k.h || tr.Timescale != k.timescale || tr.Duration != k.duration ||
			tr.FrameRateNum != k.fpsNum || tr.FrameRateDen != k.fpsDen || len(tr.Samples) != k.samples || keys != k.keys || total != k.bytes {
			t.Errorf("%s: %s %dx%d, timescale %d, duration %d, %d/%d fps, %d samples, %d key, %d bytes", k.clip,
				tr.Codec, tr.Width, tr.Height, tr.Timescale, tr.Duration, tr.FrameRateNum, tr.FrameRateDen, len(tr.Samples), keys, total)
			continue
		}
		if tr.Samples[0] != k.first || tr.Samples[len(tr.Samples)-1] != k.last {
			t.Errorf("%s: first %+v, last %+v", k.clip, tr.Samples[0], tr.Samples[len(tr.Samples)-1])
		}
		if len(tr.Config) != k.configLen || config.Sum64() != k.configHash {
			t.Errorf("%s: configuration record %x", k.clip, tr.Config)
		}
		if table.Sum64() != k.tableHash {
			t.Errorf("%s: sample table hash %#x", k.clip, table.Sum64())
		}
	}
}

// The demo's track as ffprobe states it: H.264, 1280×720, 1066 frames at
// 30/1 (the frames themselves: frames/libav's TestMatchesOpenCV).
func TestDemo(t *testing.T) {
	m, err := Open("../../testdata/videos/demo.mp4")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	tr := m.Track
	if tr.Codec != "avc1" || tr.Width != 1280 || tr.Height != 720 || len(tr.Samples) != 1066 || tr.FrameRateNum != 30 || tr.FrameRateDen != 1 {
		t.Errorf("track %s %dx%d, %d samples, %d/%d fps", tr.Codec, tr.Width, tr.Height, len(tr.Samples), tr.FrameRateNum, tr.FrameRateDen)
	}
	if len(tr.Config) < 7 || tr.Config[0] != 1 {
		t.Errorf("avcC record %x", tr.Config)
	}
	keys := 0
	for i, s := range tr.Samples {
		if s.Key {
			keys++
		}
		if i > 0 && s.DTS <= tr.Samples[i-1].DTS {
			t.Fatalf("sample %d: DTS %d after %d", i, s.DTS, tr.Samples[i-1].DTS)
		}
	}
	if !tr.Samples[0].Key || keys == 0 || keys == len(tr.Samples) {
		t.Errorf("%d key frames of %d (the first: %v)", keys, len(tr.Samples), tr.Samples[0].Key)
	}
	n := 0
	for {
		s, b, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != int(s.Size) || len(b) < 5 {
			t.Fatalf("sample %d: %d bytes", n, len(b))
		}
		n++
	}
	if n != 1066 {
		t.Errorf("read %d samples", n)
	}
}

// What it does not read is ErrUnsupported (the caller then uses
// libavformat): another format, an MP4 whose moov is missing, a fragmented
// MP4, a damaged moov, another codec.
func TestUnsupported(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.mp4")
	os.WriteFile(text, []byte("this is not a video at all, but long enough"), 0o644)
	if _, err := Open(text); !errors.Is(err, ErrUnsupported) {
		t.Errorf("text: %v", err)
	}
	b, err := os.ReadFile("../../testdata/videos/demo.mp4")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.mp4")
	os.WriteFile(cut, b[:len(b)/2], 0o644) // the demo's moov is at the end
	if _, err := Open(cut); !errors.Is(err, ErrUnsupported) {
		t.Errorf("truncated: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "none.mp4")); err == nil || errors.Is(err, ErrUnsupported) {
		t.Errorf("missing: %v", err)
	}
	box := func(typ string, payload ...[]byte) []byte {
		b := binary.BigEndian.AppendUint32(nil, 0)
		b = append(b, typ...)
		for _, p := range payload {
			b = append(b, p...)
		}
		binary.BigEndian.PutUint32(b, uint32(len(b)))
		return b
	}
	ftyp := box("ftyp", []byte("isom\x00\x00\x02\x00isomiso2avc1mp41"))
	for name, file := range map[string][]byte{
		"fragmented": append(append(ftyp, box("moov", box("mvhd", make([]byte, 100)))...), box("moof")...),
		"empty trak": append(ftyp, box("moov", box("trak"))...),
		"overrun":    append(ftyp, 0, 0, 0x10, 0, 'm', 'o', 'o', 'v'),
		"text":       []byte("#!/bin/sh\necho this is not a video\n"),
	} {
		p := filepath.Join(dir, "x.mp4")
		os.WriteFile(p, file, 0o644)
		if _, err := Open(p); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v", name, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	// MPEG-4 part 2 (mp4v), as ../shared/independent's clips.
	if clips, _ := filepath.Glob("../../../shared/independent/clips/*.mp4"); len(clips) > 0 {
		if _, err := Open(clips[0]); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v", clips[0], err)
		}
	}
}
