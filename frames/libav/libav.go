// Package libav decodes video inside the process with FFmpeg's libavcodec
// and libswscale (cgo), without OpenCV's videoio (which brings GStreamer,
// libgphoto2, libdc1394 and, through imgcodecs, GDAL and GDCM). It
// converts to BGR exactly as OpenCV's FFmpeg backend does (swscale,
// SWS_BICUBIC, the source's size), so the frames are the same bytes
// (TestMatchesOpenCV). It implements frames.Source.
//
// MP4 and QuickTime files are demuxed by package frames/mp4 and decoded by
// libavcodec alone. Other containers and network streams (rtsp, http) go
// through libavformat, which is loaded (dlopen) only then: its network
// and container libraries weigh about 11 MB resident, more than boardcam's
// memory target can spare (docs/memory.md).
package libav

/*
#cgo pkg-config: libavcodec libswscale libavutil
// (libavformat: dlopen, see load_avformat)
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>

// libavformat, loaded on first use.
static struct {
	void *h;
	int (*open_input)(AVFormatContext **, const char *, const AVInputFormat *, AVDictionary **);
	int (*find_stream_info)(AVFormatContext *, AVDictionary **);
	int (*find_best_stream)(AVFormatContext *, enum AVMediaType, int, int, const AVCodec **, int);
	int (*read_frame)(AVFormatContext *, AVPacket *);
	void (*close_input)(AVFormatContext **);
	AVRational (*guess_frame_rate)(AVFormatContext *, AVStream *, AVFrame *);
} fmt;

#define LAVF_SONAME "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)

static const char *load_avformat(void) {
	if (fmt.h) return NULL;
	void *h = dlopen(LAVF_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) return dlerror();
	fmt.open_input = dlsym(h, "avformat_open_input");
	fmt.find_stream_info = dlsym(h, "avformat_find_stream_info");
	fmt.find_best_stream = dlsym(h, "av_find_best_stream");
	fmt.read_frame = dlsym(h, "av_read_frame");
	fmt.close_input = dlsym(h, "avformat_close_input");
	fmt.guess_frame_rate = dlsym(h, "av_guess_frame_rate");
	if (!fmt.open_input || !fmt.find_stream_info || !fmt.find_best_stream || !fmt.read_frame || !fmt.close_input || !fmt.guess_frame_rate) {
		dlclose(h);
		return "a function is missing from " LAVF_SONAME;
	}
	fmt.h = h;
	return NULL;
}

typedef struct {
	AVFormatContext *fc; // NULL when the packets come from Go (MP4)
	AVCodecContext *cc;
	AVPacket *pkt;
	AVFrame *frame;
	struct SwsContext *sws;
	int stream, flushing;
	int64_t pts; // the last frame's best-effort time stamp
	AVRational tb;
} reader;

static int alloc_rest(reader *r) {
	r->pkt = av_packet_alloc();
	r->frame = av_frame_alloc();
	if (!r->pkt || !r->frame) return AVERROR(ENOMEM);
	return 0;
}

// reader_open_fmt opens path (a file or a URL) with libavformat; opts is
// FFmpeg's options as "key=value:key=value" (NULL: none).
static int reader_open_fmt(reader *r, const char *path, int threads, const char *opts) {
	memset(r, 0, sizeof *r);
	AVDictionary *d = NULL;
	if (opts) av_dict_parse_string(&d, opts, "=", ":", 0);
	int e = fmt.open_input(&r->fc, path, NULL, &d);
	av_dict_free(&d);
	if (e < 0) return e;
	if ((e = fmt.find_stream_info(r->fc, NULL)) < 0) return e;
	const AVCodec *codec = NULL;
	r->stream = fmt.find_best_stream(r->fc, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
	if (r->stream < 0) return r->stream;
	r->cc = avcodec_alloc_context3(codec);
	if (!r->cc) return AVERROR(ENOMEM);
	if ((e = avcodec_parameters_to_context(r->cc, r->fc->streams[r->stream]->codecpar)) < 0) return e;
	r->cc->thread_count = threads;
	if ((e = avcodec_open2(r->cc, codec, NULL)) < 0) return e;
	r->tb = r->fc->streams[r->stream]->time_base;
	return alloc_rest(r);
}

static void reader_info_fmt(reader *r, int *w, int *h, double *fps, long long *frames) {
	AVStream *st = r->fc->streams[r->stream];
	*w = r->cc->width; *h = r->cc->height;
	AVRational fr = fmt.guess_frame_rate(r->fc, st, NULL);
	*fps = fr.den ? av_q2d(fr) : 0;
	*frames = st->nb_frames;
	if (*frames <= 0 && r->fc->duration > 0 && *fps > 0)
		*frames = (long long)(r->fc->duration / (double)AV_TIME_BASE * *fps + 0.5);
}

// reader_open_codec opens a decoder for packets the caller sends (codec
// 0 H.264, 1 HEVC; extra is the avcC/hvcC record).
static int reader_open_codec(reader *r, int codec, const uint8_t *extra, int n, int w, int h, int threads, int tb_num, int tb_den) {
	memset(r, 0, sizeof *r);
	const AVCodec *c = avcodec_find_decoder(codec == 1 ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
	if (!c) return AVERROR_DECODER_NOT_FOUND;
	r->cc = avcodec_alloc_context3(c);
	if (!r->cc) return AVERROR(ENOMEM);
	r->cc->extradata = av_mallocz(n + AV_INPUT_BUFFER_PADDING_SIZE);
	if (!r->cc->extradata) return AVERROR(ENOMEM);
	memcpy(r->cc->extradata, extra, n);
	r->cc->extradata_size = n;
	r->cc->width = w;
	r->cc->height = h;
	r->cc->thread_count = threads;
	r->tb = (AVRational){tb_num, tb_den};
	r->cc->pkt_timebase = r->tb;
	int e = avcodec_open2(r->cc, c, NULL);
	if (e < 0) return e;
	return alloc_rest(r);
}

// rawpic is a decoded frame in the decoder's own pixel format (YUV 4:2:0
// for H.264: half the bytes of BGR), its planes copied with the decoder's
// line sizes, each at a 64-byte boundary, so that converting it later
// (rawpic_convert) gives the bytes converting the decoder's frame gave.
typedef struct {
	uint8_t *buf;
	size_t cap;
	int fmt, w, h;
	int ls[4];
	size_t off[4], size[4];
} rawpic;

// rawpic_fill copies a decoded frame's planes into p (its buffer grown as
// needed).
static int rawpic_fill(rawpic *p, int fmt, int w, int h, uint8_t *const data[4], const int ls[4]) {
	ptrdiff_t l[4];
	size_t sizes[4] = {0, 0, 0, 0};
	for (int i = 0; i < 4; i++) {
		if (ls[i] < 0) return AVERROR(ENOSYS); // bottom-up planes: not from these decoders
		l[i] = ls[i];
	}
	int e = av_image_fill_plane_sizes(sizes, fmt, h, l);
	if (e < 0) return e;
	size_t total = 0;
	for (int i = 0; i < 4; i++) {
		p->off[i] = total;
		p->size[i] = data[i] ? sizes[i] : 0;
		total += (p->size[i] + 63) & ~(size_t)63;
	}
	if (p->cap < total) {
		av_freep(&p->buf);
		p->cap = 0;
		p->buf = av_malloc(total);
		if (!p->buf) return AVERROR(ENOMEM);
		p->cap = total;
	}
	for (int i = 0; i < 4; i++) {
		if (p->size[i]) memcpy(p->buf + p->off[i], data[i], p->size[i]);
		p->ls[i] = p->size[i] ? ls[i] : 0;
	}
	p->fmt = fmt; p->w = w; p->h = h;
	return 0;
}

// rawpic_copy makes dst a copy of src.
static int rawpic_copy(rawpic *dst, const rawpic *src) {
	uint8_t *data[4];
	for (int i = 0; i < 4; i++) data[i] = src->size[i] ? src->buf + src->off[i] : NULL;
	return rawpic_fill(dst, src->fmt, src->w, src->h, data, src->ls);
}

static void rawpic_free(rawpic *p) {
	av_freep(&p->buf);
	p->cap = 0;
	memset(p->size, 0, sizeof p->size);
}

// rawpic_convert converts p into dst (w*h*3 bytes, BGR) with *sws, the
// conversion reader_receive makes (SWS_BICUBIC, the same size).
static int rawpic_convert(struct SwsContext **sws, const rawpic *p, uint8_t *dst) {
	*sws = sws_getCachedContext(*sws, p->w, p->h, p->fmt, p->w, p->h, AV_PIX_FMT_BGR24, SWS_BICUBIC, NULL, NULL, NULL);
	if (!*sws) return AVERROR(EINVAL);
	const uint8_t *src[4];
	for (int i = 0; i < 4; i++) src[i] = p->size[i] ? p->buf + p->off[i] : NULL;
	uint8_t *d[4] = {dst, NULL, NULL, NULL};
	int ls[4] = {p->w * 3, 0, 0, 0};
	sws_scale(*sws, src, p->ls, 0, p->h, d, ls);
	return 0;
}

// rawpic_scale converts p into dst (w*h*3 bytes, BGR) scaled to w×h in
// one pass (SWS_BICUBIC, as the conversion; chroma upsampled in the same
// pass).
static int rawpic_scale(struct SwsContext **sws, const rawpic *p, uint8_t *dst, int w, int h) {
	*sws = sws_getCachedContext(*sws, p->w, p->h, p->fmt, w, h, AV_PIX_FMT_BGR24, SWS_BICUBIC, NULL, NULL, NULL);
	if (!*sws) return AVERROR(EINVAL);
	const uint8_t *src[4];
	for (int i = 0; i < 4; i++) src[i] = p->size[i] ? p->buf + p->off[i] : NULL;
	uint8_t *d[4] = {dst, NULL, NULL, NULL};
	int ls[4] = {w * 3, 0, 0, 0};
	sws_scale(*sws, src, p->ls, 0, p->h, d, ls);
	return 0;
}

// rawpic_scale_yuv scales p to w×h planes of YUV 4:2:0 in full range
// (JPEG's YCbCr: the BT.601 matrix the BGR conversion assumes, levels
// 0–255; chroma (w+1)/2 × (h+1)/2) in one pass (SWS_BICUBIC); ys and cs
// are the planes' strides.
static int rawpic_scale_yuv(struct SwsContext **sws, const rawpic *p, uint8_t *y, uint8_t *cb, uint8_t *cr, int w, int h, int ys, int cs) {
	*sws = sws_getCachedContext(*sws, p->w, p->h, p->fmt, w, h, AV_PIX_FMT_YUV420P, SWS_BICUBIC, NULL, NULL, NULL);
	if (!*sws) return AVERROR(EINVAL);
	// Full range out (a cached context keeps it: then nothing changes).
	const int *t = sws_getCoefficients(SWS_CS_ITU601);
	if (sws_setColorspaceDetails(*sws, t, 0, t, 1, 0, 1 << 16, 1 << 16) < 0) {
		sws_freeContext(*sws);
		*sws = NULL;
		return AVERROR(ENOSYS);
	}
	const uint8_t *src[4];
	for (int i = 0; i < 4; i++) src[i] = p->size[i] ? p->buf + p->off[i] : NULL;
	uint8_t *d[4] = {y, cb, cr, NULL};
	int ls[4] = {ys, cs, cs, 0};
	sws_scale(*sws, src, p->ls, 0, p->h, d, ls);
	return 0;
}

static void sws_free(struct SwsContext *sws) { if (sws) sws_freeContext(sws); }

// reader_receive converts the next decoded frame into dst (w*h*3 bytes,
// BGR), or copies it as it is into raw (raw not NULL), or neither (both
// NULL: decoded, not converted): 0, or AVERROR(EAGAIN) when the decoder
// wants a packet, AVERROR_EOF at the end, another negative AVERROR on an
// error.
static int reader_receive(reader *r, uint8_t *dst, rawpic *raw, int w, int h) {
	int e = avcodec_receive_frame(r->cc, r->frame);
	if (e < 0) return e;
	if (r->frame->width != w || r->frame->height != h) { av_frame_unref(r->frame); return AVERROR_INVALIDDATA; }
	r->pts = r->frame->best_effort_timestamp;
	if (raw) {
		e = rawpic_fill(raw, r->frame->format, w, h, r->frame->data, r->frame->linesize);
		av_frame_unref(r->frame);
		return e;
	}
	if (!dst) {
		av_frame_unref(r->frame);
		return 0;
	}
	r->sws = sws_getCachedContext(r->sws, w, h, r->frame->format, w, h, AV_PIX_FMT_BGR24, SWS_BICUBIC, NULL, NULL, NULL);
	if (!r->sws) { av_frame_unref(r->frame); return AVERROR(EINVAL); }
	uint8_t *d[4] = {dst, NULL, NULL, NULL};
	int ls[4] = {w * 3, 0, 0, 0};
	sws_scale(r->sws, (const uint8_t *const *)r->frame->data, r->frame->linesize, 0, h, d, ls);
	av_frame_unref(r->frame);
	return 0;
}

// reader_send gives the decoder a packet (NULL data: the end).
static int reader_send(reader *r, const uint8_t *data, int n, int64_t pts, int64_t dts, int key) {
	if (!data) {
		r->flushing = 1;
		return avcodec_send_packet(r->cc, NULL);
	}
	int e = av_new_packet(r->pkt, n);
	if (e < 0) return e;
	memcpy(r->pkt->data, data, n);
	r->pkt->pts = pts;
	r->pkt->dts = dts;
	if (key) r->pkt->flags |= AV_PKT_FLAG_KEY;
	e = avcodec_send_packet(r->cc, r->pkt);
	av_packet_unref(r->pkt);
	return e;
}

// reader_next_fmt decodes the next frame of a libavformat input: 0, or 1
// at the end, or a negative AVERROR.
static int reader_next_fmt(reader *r, uint8_t *dst, rawpic *raw, int w, int h) {
	for (;;) {
		int e = reader_receive(r, dst, raw, w, h);
		if (e == 0) return 0;
		if (e == AVERROR_EOF) return 1;
		if (e != AVERROR(EAGAIN)) return e;
		if (r->flushing) return 1;
		for (;;) {
			e = fmt.read_frame(r->fc, r->pkt);
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
	if (r->fc) fmt.close_input(&r->fc);
}

static void err_string(int e, char *buf, size_t n) { av_strerror(e, buf, n); }

// reader_pts_ms is the last frame's time in ms (-1: none).
static double reader_pts_ms(reader *r) {
	if (r->pts == AV_NOPTS_VALUE || r->tb.den == 0) return -1;
	return r->pts * av_q2d(r->tb) * 1000;
}

static int averror_eagain(void) { return AVERROR(EAGAIN); }
static int averror_eof(void) { return AVERROR_EOF; }
*/
import "C"

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
	"unsafe"

	"github.com/boardcam/boardcam/frames"
	"github.com/boardcam/boardcam/frames/mp4"
)

// Video is a video being decoded.
type Video struct {
	r        *C.reader
	m        *mp4.File // the MP4 demuxer; nil: libavformat's
	info     frames.Info
	path     string
	read     int
	flushing bool
}

// Threads is the decoder's thread count. 1 (the default) holds the fewest
// frames: at 720p about 9 MB less than one thread per core, which is what
// lets boardcam analyse the demo in 100 MB (docs/memory.md); 0 is one per
// core, as OpenCV (faster on several cores; the same frames).
var Threads = 1

// Open opens a video file.
func Open(path string) (*Video, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("libav: %w", err)
	}
	m, err := mp4.Open(path)
	if err == nil {
		return openMP4(m, path)
	}
	if !errors.Is(err, mp4.ErrUnsupported) {
		return nil, fmt.Errorf("libav: %s: %w", path, err)
	}
	return openFormat(path, path, nil)
}

// OpenStream opens a network stream (rtsp://, http://, …) with FFmpeg's
// options for its protocol (e.g. rtsp_transport=tcp, timeout in µs);
// name is what errors call it (the URL without its password).
func OpenStream(url, name string, options map[string]string) (*Video, error) {
	return openFormat(url, name, options)
}

func newReader() *C.reader {
	return (*C.reader)(C.calloc(1, C.size_t(unsafe.Sizeof(C.reader{}))))
}

func openMP4(m *mp4.File, path string) (*Video, error) {
	t := &m.Track
	codec := 0
	if t.Codec == "hvc1" || t.Codec == "hev1" {
		codec = 1
	}
	v := &Video{r: newReader(), m: m, path: path}
	if e := C.reader_open_codec(v.r, C.int(codec), (*C.uint8_t)(unsafe.Pointer(&t.Config[0])), C.int(len(t.Config)),
		C.int(t.Width), C.int(t.Height), C.int(Threads), 1, C.int(t.Timescale)); e < 0 {
		v.Close()
		return nil, fmt.Errorf("libav: %s: cannot decode its %s video: %s", path, t.Codec, avErr(e))
	}
	v.info = frames.Info{Width: t.Width, Height: t.Height, Frames: len(t.Samples)}
	if t.FrameRateDen > 0 {
		v.info.FPS = float64(t.FrameRateNum) / float64(t.FrameRateDen)
	}
	if v.info.Width <= 0 || v.info.Height <= 0 {
		v.Close()
		return nil, fmt.Errorf("libav: %s: no frame size", path)
	}
	return v, nil
}

func openFormat(path, name string, options map[string]string) (*Video, error) {
	if msg := C.load_avformat(); msg != nil {
		return nil, fmt.Errorf("libav: %s: cannot load libavformat to read it: %s", name, C.GoString(msg))
	}
	v := &Video{r: newReader(), path: name}
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
	if e := C.reader_open_fmt(v.r, cpath, C.int(Threads), copts); e < 0 {
		v.Close()
		return nil, fmt.Errorf("libav: %s: cannot open it as a video: %s", name, avErr(e))
	}
	var w, h C.int
	var fps C.double
	var n C.longlong
	C.reader_info_fmt(v.r, &w, &h, &fps, &n)
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
	return v.next((*C.uint8_t)(unsafe.Pointer(&dst[0])), nil)
}

// Skip decodes the next frame without converting it to BGR (a frame the
// caller drops): the decoder needs every frame, the conversion and a
// picture to hold it are spared. Frames and PTS count it as Next does.
func (v *Video) Skip() error {
	if v.r == nil {
		return fmt.Errorf("libav: %s: closed", v.path)
	}
	return v.next(nil, nil)
}

// ExactFrames reports whether Info().Frames is the exact number of frames
// the video decodes to (an MP4 or QuickTime file: its sample count), not
// an estimate from the container.
func (v *Video) ExactFrames() bool { return v.m != nil }

// next decodes the next frame into d, or raw (both nil: not converted).
func (v *Video) next(d *C.uint8_t, raw *C.rawpic) error {
	w, h := C.int(v.info.Width), C.int(v.info.Height)
	if v.m == nil {
		switch e := C.reader_next_fmt(v.r, d, raw, w, h); {
		case e == 0:
			v.read++
			return nil
		case e == 1:
			return io.EOF
		default:
			return fmt.Errorf("libav: %s: frame %d: %s", v.path, v.read, avErr(e))
		}
	}
	for {
		switch e := C.reader_receive(v.r, d, raw, w, h); {
		case e == 0:
			v.read++
			return nil
		case e == C.averror_eof():
			return io.EOF
		case e != C.averror_eagain():
			return fmt.Errorf("libav: %s: frame %d: %s", v.path, v.read, avErr(e))
		}
		if v.flushing {
			return io.EOF
		}
		s, b, err := v.m.Next()
		if errors.Is(err, io.EOF) {
			v.flushing = true
			C.reader_send(v.r, nil, 0, 0, 0, 0)
			continue
		}
		if err != nil {
			return fmt.Errorf("libav: %s: frame %d: %w", v.path, v.read, err)
		}
		if len(b) == 0 {
			continue
		}
		key := 0
		if s.Key {
			key = 1
		}
		if e := C.reader_send(v.r, (*C.uint8_t)(unsafe.Pointer(&b[0])), C.int(len(b)), C.int64_t(s.PTS), C.int64_t(s.DTS), C.int(key)); e < 0 && e != C.averror_eagain() {
			return fmt.Errorf("libav: %s: frame %d: %s", v.path, v.read, avErr(e))
		}
	}
}

// NextPicture decodes the next frame into p as the decoder made it (YUV
// 4:2:0 for H.264 and HEVC: half the bytes of BGR), to be converted to BGR
// later by a Converter: the bytes Next would have given. Frames and PTS
// count it as Next does.
func (v *Video) NextPicture(p *Picture) error {
	if v.r == nil {
		return fmt.Errorf("libav: %s: closed", v.path)
	}
	if p == nil || p.p == nil {
		return fmt.Errorf("libav: %s: no picture to decode into", v.path)
	}
	return v.next(nil, p.p)
}

// Picture is a decoded frame in the decoder's own pixel format, its pixels
// in C memory (Video.NextPicture). The zero value is not usable: make one
// with NewPicture, Close it.
type Picture struct {
	p *C.rawpic
}

// NewPicture returns an empty picture.
func NewPicture() *Picture {
	return &Picture{p: (*C.rawpic)(C.calloc(1, C.size_t(unsafe.Sizeof(C.rawpic{}))))}
}

// Empty reports whether p holds no frame (new, or Released).
func (p *Picture) Empty() bool { return p == nil || p.p == nil || p.p.size[0] == 0 }

// Size is the frame's width and height (0 when empty).
func (p *Picture) Size() (w, h int) {
	if p.Empty() {
		return 0, 0
	}
	return int(p.p.w), int(p.p.h)
}

// Bytes is the memory p holds.
func (p *Picture) Bytes() int {
	if p == nil || p.p == nil {
		return 0
	}
	return int(p.p.cap)
}

// CopyFrom makes p a copy of src.
func (p *Picture) CopyFrom(src *Picture) error {
	if src.Empty() {
		C.rawpic_free(p.p)
		return nil
	}
	if e := C.rawpic_copy(p.p, src.p); e < 0 {
		return fmt.Errorf("libav: copying a picture: %s", avErr(e))
	}
	return nil
}

// Release frees p's pixels; it can be decoded into again.
func (p *Picture) Release() {
	if p != nil && p.p != nil {
		C.rawpic_free(p.p)
	}
}

// Close frees p.
func (p *Picture) Close() {
	if p != nil && p.p != nil {
		C.rawpic_free(p.p)
		C.free(unsafe.Pointer(p.p))
		p.p = nil
	}
}

// Converter converts Pictures to BGR as Video.Next does (swscale,
// SWS_BICUBIC, the same size). One goroutine at a time; Close it.
type Converter struct {
	sws *C.struct_SwsContext
}

// Convert writes p into dst (w·h·3 bytes, BGR, p's size).
func (c *Converter) Convert(p *Picture, dst []byte) error {
	if p.Empty() {
		return errors.New("libav: converting an empty picture")
	}
	if w, h := p.Size(); len(dst) != w*h*3 {
		return fmt.Errorf("libav: buffer of %d bytes for a %dx%d frame", len(dst), w, h)
	}
	if e := C.rawpic_convert(&c.sws, p.p, (*C.uint8_t)(unsafe.Pointer(&dst[0]))); e < 0 {
		return fmt.Errorf("libav: converting a picture: %s", avErr(e))
	}
	return nil
}

// Scale writes p into dst (w·h·3 bytes, BGR) scaled to w×h straight from
// the decoder's format (swscale, SWS_BICUBIC): not the bytes of Convert
// then a resize, but without a full-size BGR picture in between (the
// evidence's replay frames: docs/memory.md). Use a Converter for Scale or
// for Convert, not both (its context is rebuilt at each switch).
func (c *Converter) Scale(p *Picture, dst []byte, w, h int) error {
	if p.Empty() {
		return errors.New("libav: scaling an empty picture")
	}
	if w <= 0 || h <= 0 || len(dst) != w*h*3 {
		return fmt.Errorf("libav: buffer of %d bytes for %dx%d", len(dst), w, h)
	}
	if e := C.rawpic_scale(&c.sws, p.p, (*C.uint8_t)(unsafe.Pointer(&dst[0])), C.int(w), C.int(h)); e < 0 {
		return fmt.Errorf("libav: scaling a picture: %s", avErr(e))
	}
	return nil
}

// ScaleYUV420 writes p scaled to w×h into planes of YCbCr 4:2:0 as a
// JPEG stores them (BT.601, full range 0–255: jpeg.EncodeYUV420): y
// holds h rows of w bytes, cb and cr (h+1)/2 rows of (w+1)/2, in one
// swscale pass (SWS_BICUBIC) from the decoder's format, without a BGR
// picture (3 bytes a pixel) in between: the replay frames' compression
// (docs/memory.md). Use a Converter for one of Convert, Scale and
// ScaleYUV420 (its context is rebuilt at each switch).
func (c *Converter) ScaleYUV420(p *Picture, y, cb, cr []byte, w, h int) error {
	if p.Empty() {
		return errors.New("libav: scaling an empty picture")
	}
	cw, ch := (w+1)/2, (h+1)/2
	if w <= 0 || h <= 0 || len(y) != w*h || len(cb) != cw*ch || len(cr) != cw*ch {
		return fmt.Errorf("libav: planes of %d, %d, %d bytes for %dx%d YUV 4:2:0", len(y), len(cb), len(cr), w, h)
	}
	if e := C.rawpic_scale_yuv(&c.sws, p.p, (*C.uint8_t)(unsafe.Pointer(&y[0])), (*C.uint8_t)(unsafe.Pointer(&cb[0])),
		(*C.uint8_t)(unsafe.Pointer(&cr[0])), C.int(w), C.int(h), C.int(w), C.int(cw)); e < 0 {
		return fmt.Errorf("libav: scaling a picture: %s", avErr(e))
	}
	return nil
}

// Close frees the converter's context.
func (c *Converter) Close() {
	C.sws_free(c.sws)
	c.sws = nil
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
	if v.m != nil {
		v.m.Close()
		v.m = nil
	}
	return nil
}

func avErr(e C.int) string {
	buf := make([]C.char, 128)
	C.err_string(e, &buf[0], C.size_t(len(buf)))
	return C.GoString(&buf[0])
}

var _ frames.Source = (*Video)(nil)
