package cvio

import (
	"errors"
	"fmt"
	"io"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/frames"
	"github.com/boardcam/boardcam/frames/libav"
)

// Video is a video file decoded in process by FFmpeg's libraries
// (frames/libav): the frames gocv.VideoCapture gave, without videoio.
type Video struct {
	v    *libav.Video
	err  error
	read int
}

// OpenVideo opens a video file.
func OpenVideo(path string) (*Video, error) {
	v, err := libav.Open(path)
	if err != nil {
		return nil, err
	}
	return &Video{v: v}, nil
}

// Info describes the video (size, frame rate, frame count).
func (v *Video) Info() frames.Info { return v.v.Info() }

// Read decodes the next frame into m (made 8-bit BGR of the video's
// size when it is not); false at the end of the video or on an error
// (Err tells which).
func (v *Video) Read(m *gocv.Mat) bool {
	if v.err != nil {
		return false
	}
	in := v.v.Info()
	if m.Empty() || m.Rows() != in.Height || m.Cols() != in.Width || m.Type() != gocv.MatTypeCV8UC3 || !m.IsContinuous() {
		if m.Ptr() != nil {
			m.Close()
		}
		*m = gocv.NewMatWithSize(in.Height, in.Width, gocv.MatTypeCV8UC3)
	}
	buf, err := m.DataPtrUint8()
	if err != nil {
		v.err = fmt.Errorf("cvio: %w", err)
		return false
	}
	if err := v.v.Next(buf); err != nil {
		if !errors.Is(err, io.EOF) {
			v.err = err
		}
		return false
	}
	v.read++
	return true
}

// Skip decodes the next frame without converting it to BGR (a frame the
// caller does not look at: the decoder needs every frame, the conversion
// is spared); false at the end of the video or on an error, as Read.
func (v *Video) Skip() bool {
	if v.err != nil {
		return false
	}
	if err := v.v.Skip(); err != nil {
		if !errors.Is(err, io.EOF) {
			v.err = err
		}
		return false
	}
	v.read++
	return true
}

// Frames is the number of frames read so far.
func (v *Video) Frames() int { return v.read }

// Err is the decoding error that ended Read (nil at the end of the video).
func (v *Video) Err() error { return v.err }

// Close frees the decoder.
func (v *Video) Close() error { return v.v.Close() }
