package vision

/*
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// bc_remap8u3 is OpenCV's remap of an 8-bit 3-channel image with
// fixed-point tables (CV_16SC2 positions, CV_16UC1 indices into wtab),
// bilinear, BORDER_CONSTANT 0, for the table's pixels x0 <= x < x1,
// y0 <= y < y1 (dst and the tables share their coordinates). Every output
// byte is OpenCV's: (sum of the four taps times their weights + 2^14) >> 15,
// a tap outside the source contributing 0. OpenCV 4.6 has no vector code
// for three channels; this one handles each pixel's three channels in one
// SSE2 multiply-add (simd != 0, where available).
static void bc_remap8u3(const uint8_t *src, int sw, int sh, long sstep,
		const int16_t *m1, long m1step, const uint16_t *m2, long m2step,
		uint8_t *dst, long dstep, int x0, int y0, int x1, int y1,
		const int16_t *wtab, int simd) {
	const unsigned w1 = (unsigned)(sw - 1), h1 = (unsigned)(sh - 1);
#if defined(__SSE2__)
	const __m128i zero = _mm_setzero_si128(), delta = _mm_set1_epi32(1 << 14);
#endif
	for (int y = y0; y < y1; y++) {
		const int16_t *xy = m1 + y * m1step;
		const uint16_t *fxy = m2 + y * m2step;
		uint8_t *d = dst + y * dstep;
		for (int x = x0; x < x1; x++) {
			int sx = xy[2 * x], sy = xy[2 * x + 1];
			const int16_t *w = wtab + 4 * (fxy[x] & 1023);
			uint8_t *D = d + 3 * x;
			if ((unsigned)sx < w1 && (unsigned)sy < h1) {
				const uint8_t *S = src + sy * sstep + sx * 3;
#if defined(__SSE2__)
				if (simd) {
					uint32_t a0, a1, b0, b1;
					int32_t wa, wb;
					memcpy(&a0, S, 4);
					memcpy(&a1, S + 2, 4); // R0 B1 G1 R1: never past the image's last byte
					memcpy(&b0, S + sstep, 4);
					memcpy(&b1, S + sstep + 2, 4);
					memcpy(&wa, w, 4);
					memcpy(&wb, w + 2, 4);
					__m128i ta = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)a0), _mm_cvtsi32_si128((int)(a1 >> 8)));
					__m128i tb = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)b0), _mm_cvtsi32_si128((int)(b1 >> 8)));
					__m128i s = _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(ta, zero), _mm_set1_epi32(wa)),
						_mm_madd_epi16(_mm_unpacklo_epi8(tb, zero), _mm_set1_epi32(wb)));
					s = _mm_srai_epi32(_mm_add_epi32(s, delta), 15);
					s = _mm_packs_epi32(s, s);
					uint32_t o = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(s, s));
					D[0] = (uint8_t)o;
					D[1] = (uint8_t)(o >> 8);
					D[2] = (uint8_t)(o >> 16);
					continue;
				}
#endif
				const uint8_t *T = S + sstep;
				for (int k = 0; k < 3; k++) {
					int v = S[k] * w[0] + S[k + 3] * w[1] + T[k] * w[2] + T[k + 3] * w[3];
					D[k] = (uint8_t)((v + (1 << 14)) >> 15);
				}
				continue;
			}
			// a tap outside the source is 0 (OpenCV: the border value, or
			// the border value outright when all four are outside)
			int v0[3] = {0, 0, 0}, v1[3] = {0, 0, 0}, v2[3] = {0, 0, 0}, v3[3] = {0, 0, 0};
			int in0x = (unsigned)sx < (unsigned)sw, in1x = (unsigned)(sx + 1) < (unsigned)sw;
			int in0y = (unsigned)sy < (unsigned)sh, in1y = (unsigned)(sy + 1) < (unsigned)sh;
			for (int k = 0; k < 3; k++) {
				if (in0y && in0x) v0[k] = src[sy * sstep + sx * 3 + k];
				if (in0y && in1x) v1[k] = src[sy * sstep + (sx + 1) * 3 + k];
				if (in1y && in0x) v2[k] = src[(sy + 1) * sstep + sx * 3 + k];
				if (in1y && in1x) v3[k] = src[(sy + 1) * sstep + (sx + 1) * 3 + k];
			}
			for (int k = 0; k < 3; k++) {
				int v = v0[k] * w[0] + v1[k] * w[1] + v2[k] * w[2] + v3[k] * w[3];
				D[k] = (uint8_t)((v + (1 << 14)) >> 15);
			}
		}
	}
}
*/
import "C"

import (
	"errors"
	"image"
	"unsafe"

	"gocv.io/x/gocv"
)

// remapTab is OpenCV's bilinear fixed-point weight table (imgwarp.cpp,
// initInterTab2D with INTER_LINEAR): for the fractions (a/32, b/32) of
// entry b·32+a, the weights (1−x)(1−y), x(1−y), (1−x)y, xy times 2^15.
// The products are exact in float; only entry 0 rounds: its 2^15
// saturates to 32767 and OpenCV's correction gives the missing 1 to the
// fourth weight (its search for the largest weight starts there and reads
// past the entry, into zeros), so entry 0 is {32767, 0, 0, 1}.
var remapTab = func() [4 * interTabSize * interTabSize]int16 {
	var t [4 * interTabSize * interTabSize]int16
	for i := 0; i < interTabSize; i++ {
		fy := float32(i) * (1 / float32(interTabSize))
		ty := [2]float32{1 - fy, fy}
		for j := 0; j < interTabSize; j++ {
			fx := float32(j) * (1 / float32(interTabSize))
			tx := [2]float32{1 - fx, fx}
			e := t[4*(i*interTabSize+j):]
			for k1 := 0; k1 < 2; k1++ {
				for k2 := 0; k2 < 2; k2++ {
					v := int(ty[k1] * tx[k2] * (1 << 15))
					e[2*k1+k2] = int16(min(v, 32767))
				}
			}
		}
	}
	t[3] = 1
	return t
}()

// remapSIMD selects the vector path (tests compare it with the scalar one).
var remapSIMD = true

// remapInto rectifies the pixels of rect (in the table's coordinates) of
// frame into the same pixels of dst, as gocv.Remap with the tables map1
// (CV_16SC2) and map2 (CV_16UC1), INTER_LINEAR and BORDER_CONSTANT 0,
// byte for byte. frame must be 8-bit BGR; dst is the tables' size and
// type CV_8UC3. It returns an error when a Mat is not continuous or the
// sizes disagree (the caller then uses OpenCV).
func remapInto(frame gocv.Mat, dst *gocv.Mat, map1, map2 *gocv.Mat, rect image.Rectangle) error {
	n, m := map1.Cols(), map1.Rows()
	if dst.Cols() != n || dst.Rows() != m || dst.Type() != gocv.MatTypeCV8UC3 || map2.Cols() != n || map2.Rows() != m ||
		frame.Type() != gocv.MatTypeCV8UC3 || !rect.In(image.Rect(0, 0, n, m)) {
		return errors.New("remap: sizes or types differ")
	}
	if rect.Empty() {
		return nil
	}
	src, err := frame.DataPtrUint8()
	if err != nil {
		return err
	}
	d, err := dst.DataPtrUint8()
	if err != nil {
		return err
	}
	m1, err := map1.DataPtrInt16()
	if err != nil {
		return err
	}
	m2, err := map2.DataPtrUint16()
	if err != nil {
		return err
	}
	if len(src) == 0 || len(d) < 3*n*m || len(m1) < 2*n*m || len(m2) < n*m {
		return errors.New("remap: empty Mat")
	}
	simd := C.int(0)
	if remapSIMD {
		simd = 1
	}
	C.bc_remap8u3((*C.uint8_t)(unsafe.Pointer(&src[0])), C.int(frame.Cols()), C.int(frame.Rows()), C.long(3*frame.Cols()),
		(*C.int16_t)(unsafe.Pointer(&m1[0])), C.long(2*n), (*C.uint16_t)(unsafe.Pointer(&m2[0])), C.long(n),
		(*C.uint8_t)(unsafe.Pointer(&d[0])), C.long(3*n), C.int(rect.Min.X), C.int(rect.Min.Y), C.int(rect.Max.X), C.int(rect.Max.Y),
		(*C.int16_t)(unsafe.Pointer(&remapTab[0])), simd)
	return nil
}
