// Package jpeg encodes and decodes JPEG with libjpeg-turbo (cgo; Debian's
// libjpeg62-turbo), without OpenCV. It calls the library the way OpenCV's
// imgcodecs does (grfmt_jpeg.cpp: jpeg_set_defaults, jpeg_set_quality with
// baseline tables, no optimisation, 4:2:0; decoding with the library's
// defaults), so boardcam's JPEGs are the bytes gocv.IMEncode gave and its
// decoded pixels are gocv.IMDecode's (TestMatchesOpenCV). That lets the
// lean build drop libopencv_imgcodecs, and GDAL and GDCM with it
// (docs/memory.md).
//
// Every call has its own libjpeg state: the package is safe for
// concurrent use. libjpeg's errors come back as errors (its default
// handler would exit the process).
package jpeg

/*
#cgo pkg-config: libjpeg
// libjpeg62-turbo: the library OpenCV's imgcodecs links
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

typedef struct {
	struct jpeg_error_mgr pub;
	jmp_buf jump;
	char msg[JMSG_LENGTH_MAX];
} errmgr;

static void on_error(j_common_ptr c) {
	errmgr *e = (errmgr *)c->err;
	(*c->err->format_message)(c, e->msg);
	longjmp(e->jump, 1);
}

static void on_message(j_common_ptr c) { (void)c; } // warnings: not printed

// encode compresses h rows of stride bytes; cs is the input colour space
// and comps its bytes a pixel. *out is malloc'ed (free it).
static int encode(const unsigned char *pix, int w, int h, int stride, int cs, int comps, int quality,
                  unsigned char **out, unsigned long *outlen, char *msg) {
	struct jpeg_compress_struct c;
	errmgr e;
	memset(&c, 0, sizeof c);
	*out = NULL; *outlen = 0;
	c.err = jpeg_std_error(&e.pub);
	e.pub.error_exit = on_error;
	e.pub.output_message = on_message;
	if (setjmp(e.jump)) {
		strncpy(msg, e.msg, JMSG_LENGTH_MAX);
		jpeg_destroy_compress(&c);
		if (*out) { free(*out); *out = NULL; }
		return -1;
	}
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, out, outlen);
	c.image_width = w;
	c.image_height = h;
	c.input_components = comps;
	c.in_color_space = (J_COLOR_SPACE)cs;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, quality, TRUE);
	jpeg_start_compress(&c, TRUE);
	while (c.next_scanline < c.image_height) {
		JSAMPROW row = (JSAMPROW)(pix + (size_t)c.next_scanline * stride);
		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	return 0;
}

// encode_yuv420 compresses planes of YCbCr 4:2:0 (JFIF: BT.601, full
// range; chroma (w+1)/2 × (h+1)/2) as they are, libjpeg's raw-data input:
// no colour conversion, no downsampling, no picture of 3 bytes a pixel.
// Each iMCU row (16 luma rows) is copied into a strip padded to whole
// blocks, the edges repeated as libjpeg repeats them for scanlines.
static int encode_yuv420(const unsigned char *y, const unsigned char *cb, const unsigned char *cr,
                         int w, int h, int ys, int cs, int quality,
                         unsigned char **out, unsigned long *outlen, char *msg) {
	struct jpeg_compress_struct c;
	errmgr e;
	int cw = (w + 1) / 2, ch = (h + 1) / 2;
	int pw = (w + 15) & ~15, pcw = pw / 2;
	unsigned char *strip = NULL;
	memset(&c, 0, sizeof c);
	*out = NULL; *outlen = 0;
	c.err = jpeg_std_error(&e.pub);
	e.pub.error_exit = on_error;
	e.pub.output_message = on_message;
	if (setjmp(e.jump)) {
		strncpy(msg, e.msg, JMSG_LENGTH_MAX);
		jpeg_destroy_compress(&c);
		if (*out) { free(*out); *out = NULL; }
		free(strip);
		return -1;
	}
	strip = malloc((size_t)16 * pw + (size_t)2 * 8 * pcw);
	if (!strip) { snprintf(msg, JMSG_LENGTH_MAX, "no memory for a strip"); return -1; }
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, out, outlen);
	c.image_width = w;
	c.image_height = h;
	c.input_components = 3;
	c.in_color_space = JCS_YCbCr;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, quality, TRUE);
	c.raw_data_in = TRUE;
	c.comp_info[0].h_samp_factor = 2; c.comp_info[0].v_samp_factor = 2;
	c.comp_info[1].h_samp_factor = 1; c.comp_info[1].v_samp_factor = 1;
	c.comp_info[2].h_samp_factor = 1; c.comp_info[2].v_samp_factor = 1;
	jpeg_start_compress(&c, TRUE);
	JSAMPROW yr[16], cbr[8], crr[8];
	JSAMPARRAY planes[3] = {yr, cbr, crr};
	for (int i = 0; i < 16; i++) yr[i] = strip + (size_t)i * pw;
	for (int i = 0; i < 8; i++) {
		cbr[i] = strip + (size_t)16 * pw + (size_t)i * pcw;
		crr[i] = strip + (size_t)16 * pw + (size_t)(8 + i) * pcw;
	}
	while (c.next_scanline < c.image_height) {
		int y0 = c.next_scanline;
		for (int i = 0; i < 16; i++) {
			int r = y0 + i < h ? y0 + i : h - 1;
			memcpy(yr[i], y + (size_t)r * ys, w);
			memset(yr[i] + w, yr[i][w - 1], pw - w);
		}
		for (int i = 0; i < 8; i++) {
			int r = y0 / 2 + i < ch ? y0 / 2 + i : ch - 1;
			memcpy(cbr[i], cb + (size_t)r * cs, cw);
			memset(cbr[i] + cw, cbr[i][cw - 1], pcw - cw);
			memcpy(crr[i], cr + (size_t)r * cs, cw);
			memset(crr[i] + cw, crr[i][cw - 1], pcw - cw);
		}
		jpeg_write_raw_data(&c, planes, 16);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	free(strip);
	return 0;
}

// header reads the size and the number of components.
static int header(const unsigned char *data, unsigned long n, int *w, int *h, int *comps, char *msg) {
	struct jpeg_decompress_struct d;
	errmgr e;
	memset(&d, 0, sizeof d);
	d.err = jpeg_std_error(&e.pub);
	e.pub.error_exit = on_error;
	e.pub.output_message = on_message;
	if (setjmp(e.jump)) {
		strncpy(msg, e.msg, JMSG_LENGTH_MAX);
		jpeg_destroy_decompress(&d);
		return -1;
	}
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, data, n);
	jpeg_read_header(&d, TRUE);
	*w = d.image_width; *h = d.image_height; *comps = d.num_components;
	jpeg_destroy_decompress(&d);
	return 0;
}

// decode decompresses into dst (h rows of w*comps bytes) in colour space cs.
static int decode(const unsigned char *data, unsigned long n, unsigned char *dst, int w, int h, int cs, int comps, char *msg) {
	struct jpeg_decompress_struct d;
	errmgr e;
	memset(&d, 0, sizeof d);
	d.err = jpeg_std_error(&e.pub);
	e.pub.error_exit = on_error;
	e.pub.output_message = on_message;
	if (setjmp(e.jump)) {
		strncpy(msg, e.msg, JMSG_LENGTH_MAX);
		jpeg_destroy_decompress(&d);
		return -1;
	}
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, data, n);
	jpeg_read_header(&d, TRUE);
	d.out_color_space = (J_COLOR_SPACE)cs;
	d.out_color_components = comps;
	jpeg_start_decompress(&d);
	if ((int)d.output_width != w || (int)d.output_height != h || d.output_components != comps) {
		snprintf(msg, JMSG_LENGTH_MAX, "decoded %ux%u×%d, want %dx%d×%d", d.output_width, d.output_height, d.output_components, w, h, comps);
		jpeg_destroy_decompress(&d);
		return -1;
	}
	while (d.output_scanline < d.output_height) {
		JSAMPROW row = (JSAMPROW)(dst + (size_t)d.output_scanline * w * comps);
		jpeg_read_scanlines(&d, &row, 1);
	}
	jpeg_finish_decompress(&d);
	jpeg_destroy_decompress(&d);
	return 0;
}

enum { csGray = JCS_GRAYSCALE, csRGB = JCS_RGB, csBGR = JCS_EXT_BGR, csRGBA = JCS_EXT_RGBA, csBGRA = JCS_EXT_BGRA };
*/
import "C"

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"unsafe"
)

// Layout is the order and number of a pixel's bytes.
type Layout int

// The layouts.
const (
	BGR  Layout = iota // 3 bytes a pixel, blue first: an 8UC3 OpenCV Mat
	RGB                // 3 bytes, red first
	RGBA               // 4 bytes, red first, alpha ignored (image.RGBA and NRGBA Pix)
	BGRA               // 4 bytes, blue first, alpha ignored
	Gray               // 1 byte
)

// Bytes is the number of bytes a pixel of the layout.
func (l Layout) Bytes() int {
	switch l {
	case RGBA, BGRA:
		return 4
	case Gray:
		return 1
	}
	return 3
}

func (l Layout) String() string {
	switch l {
	case BGR:
		return "BGR"
	case RGB:
		return "RGB"
	case RGBA:
		return "RGBA"
	case BGRA:
		return "BGRA"
	case Gray:
		return "Gray"
	}
	return fmt.Sprintf("Layout(%d)", int(l))
}

func (l Layout) space() (C.int, error) {
	switch l {
	case BGR:
		return C.csBGR, nil
	case RGB:
		return C.csRGB, nil
	case RGBA:
		return C.csRGBA, nil
	case BGRA:
		return C.csBGRA, nil
	case Gray:
		return C.csGray, nil
	}
	return 0, fmt.Errorf("jpeg: unknown layout %d", int(l))
}

// DefaultQuality is OpenCV's (IMWRITE_JPEG_QUALITY's default).
const DefaultQuality = 95

// Encode compresses an image of w×h pixels whose rows are stride bytes
// apart in pix, at quality 0–100 (clamped, as OpenCV does).
func Encode(pix []byte, w, h, stride int, layout Layout, quality int) ([]byte, error) {
	cs, err := layout.space()
	if err != nil {
		return nil, err
	}
	if w <= 0 || h <= 0 || w > 65500 || h > 65500 {
		return nil, fmt.Errorf("jpeg: cannot encode a %d×%d image", w, h)
	}
	if stride < w*layout.Bytes() || len(pix) < (h-1)*stride+w*layout.Bytes() {
		return nil, fmt.Errorf("jpeg: %d bytes with stride %d for a %d×%d %s image", len(pix), stride, w, h, layout)
	}
	quality = min(max(quality, 0), 100)
	var out *C.uchar
	var n C.ulong
	var msg [C.JMSG_LENGTH_MAX]C.char
	if C.encode((*C.uchar)(unsafe.Pointer(&pix[0])), C.int(w), C.int(h), C.int(stride), cs, C.int(layout.Bytes()), C.int(quality), &out, &n, &msg[0]) != 0 {
		return nil, fmt.Errorf("jpeg: encode: %s", C.GoString(&msg[0]))
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoBytes(unsafe.Pointer(out), C.int(n)), nil
}

// EncodeYUV420 compresses a picture of w×h pixels given as YCbCr 4:2:0
// planes, as a JPEG stores them (JFIF: BT.601, full range 0–255): y has h
// rows yStride bytes apart, cb and cr (h+1)/2 rows of (w+1)/2 samples
// cStride bytes apart. The planes are compressed as they are (libjpeg's
// raw-data input), so a decoder's YUV frame scaled to them needs no
// picture of 3 bytes a pixel in between (the replay frames:
// docs/memory.md). Quality as Encode.
func EncodeYUV420(y, cb, cr []byte, w, h, yStride, cStride, quality int) ([]byte, error) {
	if w <= 0 || h <= 0 || w > 65500 || h > 65500 {
		return nil, fmt.Errorf("jpeg: cannot encode a %d×%d image", w, h)
	}
	cw, ch := (w+1)/2, (h+1)/2
	if yStride < w || cStride < cw || len(y) < (h-1)*yStride+w ||
		len(cb) < (ch-1)*cStride+cw || len(cr) < (ch-1)*cStride+cw {
		return nil, fmt.Errorf("jpeg: planes of %d, %d, %d bytes (strides %d, %d) for a %d×%d YCbCr 4:2:0 image", len(y), len(cb), len(cr), yStride, cStride, w, h)
	}
	quality = min(max(quality, 0), 100)
	var out *C.uchar
	var n C.ulong
	var msg [C.JMSG_LENGTH_MAX]C.char
	if C.encode_yuv420((*C.uchar)(unsafe.Pointer(&y[0])), (*C.uchar)(unsafe.Pointer(&cb[0])), (*C.uchar)(unsafe.Pointer(&cr[0])),
		C.int(w), C.int(h), C.int(yStride), C.int(cStride), C.int(quality), &out, &n, &msg[0]) != 0 {
		return nil, fmt.Errorf("jpeg: encode: %s", C.GoString(&msg[0]))
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoBytes(unsafe.Pointer(out), C.int(n)), nil
}

// EncodeImage compresses img at quality 0–100: *image.RGBA, *image.NRGBA
// and *image.Gray directly (alpha ignored), any other image through an
// RGBA copy.
func EncodeImage(img image.Image, quality int) ([]byte, error) {
	b := img.Bounds()
	switch m := img.(type) {
	case *image.RGBA:
		return Encode(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], b.Dx(), b.Dy(), m.Stride, RGBA, quality)
	case *image.NRGBA:
		return Encode(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], b.Dx(), b.Dy(), m.Stride, RGBA, quality)
	case *image.Gray:
		return Encode(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], b.Dx(), b.Dy(), m.Stride, Gray, quality)
	}
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	return Encode(rgba.Pix, b.Dx(), b.Dy(), rgba.Stride, RGBA, quality)
}

// ErrCMYK: the JPEG is a CMYK (print) image, which boardcam does not read.
var ErrCMYK = errors.New("jpeg: a CMYK JPEG (save it as RGB)")

// Config reads a JPEG's size and its number of colour components (1 grey,
// 3 colour, 4 CMYK) without decoding it.
func Config(data []byte) (w, h, components int, err error) {
	if len(data) == 0 {
		return 0, 0, 0, errors.New("jpeg: no data")
	}
	var cw, ch, cc C.int
	var msg [C.JMSG_LENGTH_MAX]C.char
	if C.header((*C.uchar)(unsafe.Pointer(&data[0])), C.ulong(len(data)), &cw, &ch, &cc, &msg[0]) != 0 {
		return 0, 0, 0, fmt.Errorf("jpeg: %s", C.GoString(&msg[0]))
	}
	return int(cw), int(ch), int(cc), nil
}

// Decode decompresses data into rows of w × layout.Bytes() bytes (RGBA
// and BGRA with alpha 255). EXIF orientation is not applied (see
// Orientation).
func Decode(data []byte, layout Layout) (pix []byte, w, h int, err error) {
	cs, err := layout.space()
	if err != nil {
		return nil, 0, 0, err
	}
	w, h, comps, err := Config(data)
	if err != nil {
		return nil, 0, 0, err
	}
	if comps == 4 {
		return nil, 0, 0, ErrCMYK
	}
	if w <= 0 || h <= 0 || int64(w)*int64(h) > 1<<28 {
		return nil, 0, 0, fmt.Errorf("jpeg: a %d×%d image is too large", w, h)
	}
	pix = make([]byte, w*h*layout.Bytes())
	var msg [C.JMSG_LENGTH_MAX]C.char
	if C.decode((*C.uchar)(unsafe.Pointer(&data[0])), C.ulong(len(data)), (*C.uchar)(unsafe.Pointer(&pix[0])), C.int(w), C.int(h), cs, C.int(layout.Bytes()), &msg[0]) != 0 {
		return nil, 0, 0, fmt.Errorf("jpeg: decode: %s", C.GoString(&msg[0]))
	}
	return pix, w, h, nil
}
