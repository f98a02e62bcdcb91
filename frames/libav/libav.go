// Package libav decodes video files inside the process with FFmpeg's
// libavformat, libavcodec and libswscale (cgo), without OpenCV's videoio
// (which brings GStreamer, libgphoto2, libdc1394 and, through imgcodecs,
// GDAL and GDCM). It converts to BGR exactly as OpenCV's FFmpeg backend
// does (swscale, SWS_BICUBIC, the source's size), so the frames are the
// same bytes (TestMatchesOpenCV). It implements frames.Source.
//
// Its cost in resident memory is in docs/memory.md (99 MB analysing the
// demo with the analysis, against 148 MB through OpenCV's videoio).
package libav

/*
#cgo pkg-config: libavformat libavcodec libswscale libavutil
#include <stdlib.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>

typedef struct {
	AVFormatContext *fc;
	AVCodecContext *cc;
	AVPacket *pkt;
	AVFrame *frame;
	struct SwsContext *sws;
	int stream, flushing, done;
	int64_t pts; // the last frame's best-effort time stamp (AV_NOPTS_VALUE: none)
} reader;

// reader_open opens path (a file or a URL); opts is FFmpeg's options as
// "key=value:key=value" (NULL: none).
static int reader_open(reader *r, const char *path, int threads, const char *opts) {
	memset(r, 0, sizeof *r);
	AVDictionary *d = NULL;
	if (opts) av_dict_parse_string(&d, opts, "=", ":", 0);
	int e = avformat_open_input(&r->fc, path, NULL, &d);
	av_dict_free(&d);
	if (e < 0) return e;
	if ((e = avformat_find_stream_info(r->fc, NULL)) < 0) return e;
	const AVCodec *codec = NULL;
	r->stream = av_find_best_stream(r->fc, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
	if (r->stream < 0) return r->stream;
	r->cc = avcodec_alloc_context3(codec);
	if (!r->cc) return AVERROR(ENOMEM);
	if ((e = avcodec_parameters_to_context(r->cc, r->fc->streams[r->stream]->codecpar)) < 0) return e;
	r->cc->thread_count = threads;
	if ((e = avcodec_open2(r->cc, codec, NULL)) < 0) return e;
	r->pkt = av_packet_alloc();
	r->frame = av_frame_alloc();
	if (!r->pkt || !r->frame) return AVERROR(ENOMEM);
	return 0;
}

static void reader_info(reader *r, int *w, int *h, double *fps, long long *frames) {
	AVStream *st = r->fc->streams[r->stream];
	*w = r->cc->width; *h = r->cc->height;
	AVRational fr = av_guess_frame_rate(r->fc, st, NULL);
	*fps = fr.den ? av_q2d(fr) : 0;
	*frames = st->nb_frames;
	if (*frames <= 0 && r->fc->duration > 0 && *fps > 0)
		*frames = (long long)(r->fc->duration / (double)AV_TIME_BASE * *fps + 0.5);
}

// reader_next decodes the next frame into dst (w*h*3 bytes, BGR): 0, or
// 1 at the end, or a negative AVERROR.
static int reader_next(reader *r, uint8_t *dst, int w, int h) {
	for (;;) {
		int e = avcodec_receive_frame(r->cc, r->frame);
		if (e == 0) {
			if (r->frame->width != w || r->frame->height != h) return AVERROR_INVALIDDATA;
			r->sws = sws_getCachedContext(r->sws, w, h, r->frame->format, w, h, AV_PIX_FMT_BGR24, SWS_BICUBIC, NULL, NULL, NULL);
			if (!r->sws) return AVERROR(EINVAL);
			uint8_t *d[4] = {dst, NULL, NULL, NULL};
			int ls[4] = {w * 3, 0, 0, 0};
			sws_scale(r->sws, (const uint8_t *const *)r->frame->data, r->frame->linesize, 0, h, d, ls);
			r->pts = r->frame->best_effort_timestamp;
			av_frame_unref(r->frame);
			return 0;
		}
		if (e == AVERROR_EOF) return 1;
		if (e != AVERROR(EAGAIN)) return e;
		if (r->flushing) return 1;
		for (;;) {
			e = av_read_frame(r->fc, r->pkt);
			if (e < 0) {
				r->flushing = 1;
				avcodec_send_packet(r->cc, NULL);
				break;
			}
			if (r->pkt->stream_index != r->stream) { av_packet_unref(r->pkt); continue; }
			e = avcodec_send_packet(r->cc, r->pkt);
			av_packet_unref(r->pkt);
			if (e < 0 && e != AVERROR(EAGAIN)) return e;
			break;
		}
	}
}

static void reader_close(reader *r) {
	if (r->sws) sws_freeContext(r->sws);
	if (r->frame) av_frame_free(&r->frame);
	if (r->pkt) av_packet_free(&r->pkt);
	if (r->cc) avcodec_free_context(&r->cc);
	if (r->fc) avformat_close_input(&r->fc);
}

static void err_string(int e, char *buf, size_t n) { av_strerror(e, buf, n); }

// reader_pts_ms is the last frame's time in ms (-1: none).
static double reader_pts_ms(reader *r) {
	if (r->pts == AV_NOPTS_VALUE) return -1;
	return r->pts * av_q2d(r->fc->streams[r->stream]->time_base) * 1000;
}
*/
import "C"

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
	"unsafe"

	"github.com/boardcam/boardcam/frames"
)

// Video is a video file being decoded.
type Video struct {
	r    *C.reader
	info frames.Info
	path string
	read int
}

// Threads is the decoder's thread count (0: one per core, as OpenCV; 1
// holds fewer frames: about 9 MB less at 720p).
var Threads = 0

// Open opens a video file.
func Open(path string) (*Video, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("libav: %w", err)
	}
	return open(path, path, nil)
}

// OpenStream opens a network stream (rtsp://, http://, …) with FFmpeg's
// options for its protocol (e.g. rtsp_transport=tcp, timeout in µs);
// name is what errors call it (the URL without its password).
func OpenStream(url, name string, options map[string]string) (*Video, error) {
	return open(url, name, options)
}

func open(path, name string, options map[string]string) (*Video, error) {
	v := &Video{r: (*C.reader)(C.calloc(1, C.size_t(unsafe.Sizeof(C.reader{})))), path: name}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var copts *C.char
	if len(options) > 0 {
		keys := make([]string, 0, len(options))
		for k := range options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+"="+options[k])
		}
		copts = C.CString(strings.Join(parts, ":"))
		defer C.free(unsafe.Pointer(copts))
	}
	if e := C.reader_open(v.r, cpath, C.int(Threads), copts); e < 0 {
		v.Close()
		return nil, fmt.Errorf("libav: %s: cannot open it as a video: %s", name, avErr(e))
	}
	var w, h C.int
	var fps C.double
	var n C.longlong
	C.reader_info(v.r, &w, &h, &fps, &n)
	v.info = frames.Info{Width: int(w), Height: int(h), FPS: float64(fps), Frames: int(n)}
	if v.info.Width <= 0 || v.info.Height <= 0 {
		v.Close()
		return nil, fmt.Errorf("libav: %s: no frame size", name)
	}
	return v, nil
}

// Info describes the video.
func (v *Video) Info() frames.Info { return v.info }

// Next decodes the next frame into dst (Info().FrameSize() bytes, BGR).
func (v *Video) Next(dst []byte) error {
	if v.r == nil {
		return fmt.Errorf("libav: %s: closed", v.path)
	}
	if len(dst) != v.info.FrameSize() {
		return fmt.Errorf("libav: buffer of %d bytes for a %dx%d frame", len(dst), v.info.Width, v.info.Height)
	}
	switch e := C.reader_next(v.r, (*C.uint8_t)(unsafe.Pointer(&dst[0])), C.int(v.info.Width), C.int(v.info.Height)); {
	case e == 0:
		v.read++
		return nil
	case e == 1:
		return io.EOF
	default:
		return fmt.Errorf("libav: %s: frame %d: %s", v.path, v.read, avErr(e))
	}
}

// PTS is the time stamp of the frame Next decoded last (its position in
// the stream), and whether it has one.
func (v *Video) PTS() (time.Duration, bool) {
	if v.r == nil || v.read == 0 {
		return 0, false
	}
	ms := float64(C.reader_pts_ms(v.r))
	if ms < 0 {
		return 0, false
	}
	return time.Duration(ms * float64(time.Millisecond)), true
}

// Frames is the number of frames decoded so far.
func (v *Video) Frames() int { return v.read }

// Close frees the decoder.
func (v *Video) Close() error {
	if v.r != nil {
		C.reader_close(v.r)
		C.free(unsafe.Pointer(v.r))
		v.r = nil
	}
	return nil
}

func avErr(e C.int) string {
	buf := make([]C.char, 128)
	C.err_string(e, &buf[0], C.size_t(len(buf)))
	return C.GoString(&buf[0])
}

var _ frames.Source = (*Video)(nil)
