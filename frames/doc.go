// Package frames reads video frames from a decoder running in another
// process: ffmpeg writing raw BGR frames (8 bits a channel, rows top to
// bottom) to a pipe. It needs no cgo and no OpenCV; callers copy a frame
// where they want it (an OpenCV Mat's bytes, an image.RGBA).
//
// The frames are bit-identical to OpenCV's FFmpeg backend (VideoCapture):
// the same libavcodec decodes them, and the conversion to BGR uses the same
// swscale conversion (bicubic, the source's size); TestMatchesOpenCV checks
// every clip of testdata/videos.
//
// Memory: the decoder's frame pool and Debian's FFmpeg libraries live in
// the ffmpeg process, not in boardcam, but they do not vanish: the ffmpeg
// command-line program maps libavfilter and libavdevice too (about 48 MB
// before the first frame, 90–100 MB decoding 720p). docs/memory.md has
// the figures; [Video.PeakRSS] reports the decoder's own.
package frames
