package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/frames"
	"github.com/boardcam/boardcam/internal/cvio"
)

// A video file is decoded in boardcam by FFmpeg's libraries (the default,
// package frames/libav through cvio), or by an ffmpeg process (--decoder
// ffmpeg, package frames): the frames are the bytes OpenCV's VideoCapture
// gave either way (frames.TestMatchesOpenCV, libav.TestMatchesOpenCV).
// boardcam does not link OpenCV's videoio (docs/memory.md says why).

const (
	decoderLibav  = "libav"
	decoderFFmpeg = "ffmpeg"
	// decoderOpenCV is the old name of the default: OpenCV decoded with
	// the same libraries and gave the same frames.
	decoderOpenCV = "opencv"
)

// videoFile reads a video's frames into a Mat.
type videoFile interface {
	Info() frames.Info
	// Read fills m with the next frame; false at the end (Err says
	// whether it was an error).
	Read(m *gocv.Mat) bool
	Err() error
	Close()
	// DecoderRSS is the decoder process's peak resident memory in KiB (0:
	// the decoder runs in boardcam).
	DecoderRSS() int64
}

// openVideo opens path with the decoder named.
func openVideo(path, decoder string) (videoFile, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	switch decoder {
	case decoderLibav, decoderOpenCV, "":
		v, err := cvio.OpenVideo(path)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot open the video (not a video file, or a format FFmpeg cannot decode): %w", path, err)
		}
		return libavVideo{v}, nil
	case decoderFFmpeg:
		v, err := frames.Open(path)
		if err != nil {
			return nil, err
		}
		return &ffVideo{v: v}, nil
	}
	return nil, fmt.Errorf("unknown decoder %q (want libav or ffmpeg)", decoder)
}

type libavVideo struct{ *cvio.Video }

func (l libavVideo) Close()            { l.Video.Close() }
func (l libavVideo) DecoderRSS() int64 { return 0 }

type ffVideo struct {
	v   *frames.Video
	err error
}

func (f *ffVideo) Info() frames.Info { return f.v.Info() }

func (f *ffVideo) Read(m *gocv.Mat) bool {
	in := f.v.Info()
	if m.Empty() || m.Rows() != in.Height || m.Cols() != in.Width || m.Type() != gocv.MatTypeCV8UC3 || !m.IsContinuous() {
		if m.Ptr() != nil {
			m.Close()
		}
		*m = gocv.NewMatWithSize(in.Height, in.Width, gocv.MatTypeCV8UC3)
	}
	buf, err := m.DataPtrUint8()
	if err != nil {
		f.err = err
		return false
	}
	if err := f.v.Next(buf); err != nil {
		if !errors.Is(err, io.EOF) {
			f.err = err
		}
		return false
	}
	return true
}

func (f *ffVideo) Err() error        { return f.err }
func (f *ffVideo) Close()            { f.v.Close() }
func (f *ffVideo) DecoderRSS() int64 { return f.v.PeakRSS() }
