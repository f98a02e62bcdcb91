package analysis

import (
	"fmt"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/sight"
)

// Video is a video file decoded by FFmpeg's libraries (internal/cvio,
// without OpenCV's videoio), frame after frame into one Mat: the decoder
// `boardcam eval` gives the harness (eval.Options.Video).
type Video struct {
	vc   *cvio.Video
	img  gocv.Mat
	path string
}

// OpenVideo opens a video file for decoding.
func OpenVideo(path string) (*Video, error) {
	vc, err := cvio.OpenVideo(path)
	if err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", path, err)
	}
	return &Video{vc: vc, img: gocv.NewMat(), path: path}, nil
}

// Read decodes the next frame into the video's Mat and returns it (a
// *gocv.Mat, valid until the next Read or Close); false at the end.
func (v *Video) Read() (sight.Image, bool) {
	if v.vc == nil || !v.vc.Read(&v.img) || v.img.Empty() {
		return nil, false
	}
	return &v.img, true
}

// Err is the decoding error that ended the video (nil at its end).
func (v *Video) Err() error {
	if v.vc == nil {
		return nil
	}
	return v.vc.Err()
}

// Close releases the decoder and its Mat.
func (v *Video) Close() error {
	if v.vc == nil {
		return nil
	}
	err := v.vc.Close()
	v.img.Close()
	v.vc = nil
	return err
}
