package vision

/*
#cgo CFLAGS: -O3
#include <stdint.h>
#include <string.h>
#include <math.h>
// No fused multiply-adds (GCC may contract across statements on arm64):
// every float operation is rounded on its own, as on amd64. (Go on arm64
// fused observeMeans' cur·inv into the subtraction after it, so there
// bc_changes' drift and foreground can differ from the former Go code in
// the last bit: they now round as amd64 does.)
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__SSE2__)
// bc_px_v is bc_px's vector path without the packing: the pixel's three
// channels in the low three 32-bit lanes (the fourth is not a channel).
// S and wide as for bc_px.
static inline __m128i bc_px_v(const uint8_t *S, long sstep, const int16_t *w, int wide) {
	const __m128i zero = _mm_setzero_si128();
	__m128i ta, tb;
	if (wide) {
		ta = _mm_loadl_epi64((const __m128i *)S);
		tb = _mm_loadl_epi64((const __m128i *)(S + sstep));
		ta = _mm_unpacklo_epi8(ta, _mm_srli_epi64(ta, 24)); // B0 B1 G0 G1 R0 R1
		tb = _mm_unpacklo_epi8(tb, _mm_srli_epi64(tb, 24));
	} else {
		uint32_t a0, a1, b0, b1;
		memcpy(&a0, S, 4);
		memcpy(&a1, S + 2, 4); // R0 B1 G1 R1: never past the image's last byte
		memcpy(&b0, S + sstep, 4);
		memcpy(&b1, S + sstep + 2, 4);
		ta = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)a0), _mm_cvtsi32_si128((int)(a1 >> 8)));
		tb = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)b0), _mm_cvtsi32_si128((int)(b1 >> 8)));
	}
	// the weights: (w0 w1) in every lane pair of wa, (w2 w3) of wb
	__m128i wv = _mm_loadl_epi64((const __m128i *)w);
	__m128i wa = _mm_shuffle_epi32(wv, 0x00), wb = _mm_shuffle_epi32(wv, 0x55);
	__m128i s = _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(ta, zero), wa),
		_mm_madd_epi16(_mm_unpacklo_epi8(tb, zero), wb));
	return _mm_srai_epi32(_mm_add_epi32(s, _mm_set1_epi32(1 << 14)), 15);
}

// bc_geom is what bc_fast4 needs of the source image, set by bc_geom_of.
typedef struct {
	__m128i lim;  // (sw − 1, sh − 1) in each 32-bit lane's 16-bit halves
	__m128i mul;  // (3, sstep): pmaddwd of a position with it is its offset
	__m128i wide; // wideEnd in each lane
	int ok;       // 0: the sizes do not fit 16 bits (bc_fast4 never used)
} bc_geom;

static inline bc_geom bc_geom_of(int sw, int sh, long sstep, long wideEnd) {
	bc_geom g;
	g.ok = sw >= 1 && sh >= 1 && sw <= 32767 && sh <= 32767 && sstep <= 32767 && (long)sh * sstep < (1L << 30);
	g.lim = _mm_set1_epi32((int)(((uint32_t)(uint16_t)(sh - 1) << 16) | (uint16_t)(sw - 1)));
	g.mul = _mm_set1_epi32((int)(((uint32_t)(uint16_t)sstep << 16) | 3u));
	g.wide = _mm_set1_epi32(wideEnd < 0 ? 0 : (int)wideEnd);
	return g;
}

// bc_fast4 takes four pixels' positions xy (the table's (sx, sy) pairs,
// 16-bit) and, when all four take bc_remap_v's first path with 8-byte
// loads (sx, sy inside [0, sw−1)×[0, sh−1), the offset below wideEnd),
// writes their offsets sy·sstep + 3sx to off and returns 1; else 0 and
// the caller takes them one by one.
static inline int bc_fast4(__m128i xy, const bc_geom *g, int32_t off[4]) {
	// signed 16-bit: 0 <= v < lim is (unsigned)v < lim for lim <= 32767
	__m128i in = _mm_and_si128(_mm_cmpgt_epi16(xy, _mm_set1_epi16(-1)), _mm_cmpgt_epi16(g->lim, xy));
	if (_mm_movemask_epi8(in) != 0xffff) return 0;
	__m128i o = _mm_madd_epi16(xy, g->mul); // exact: |o| < sh·sstep < 2^30
	if (_mm_movemask_epi8(_mm_cmpgt_epi32(g->wide, o)) != 0xffff) return 0;
	_mm_storeu_si128((__m128i *)off, o);
	return 1;
}
#endif

// bc_px is one output pixel of OpenCV's bilinear remap of an 8-bit
// 3-channel image with fixed-point weights w (four taps, 2^15 in all):
// each channel (sum of the taps times their weights + 2^14) >> 15.
// S is the top-left tap, inside the image with its three neighbours;
// wide != 0 allows 8-byte loads at S and S + sstep (two bytes past the
// four taps). OpenCV 4.6 has no vector code for three channels; this
// handles the pixel's three channels in one SSE2 multiply-add.
static inline void bc_px(const uint8_t *S, long sstep, const int16_t *w, uint8_t *D, int wide, int simd) {
#if defined(__SSE2__)
	if (simd) {
		__m128i s = bc_px_v(S, sstep, w, wide);
		s = _mm_packs_epi32(s, s);
		uint32_t o = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(s, s));
		D[0] = (uint8_t)o;
		D[1] = (uint8_t)(o >> 8);
		D[2] = (uint8_t)(o >> 16);
		return;
	}
#endif
	const uint8_t *T = S + sstep;
	for (int k = 0; k < 3; k++) {
		int v = S[k] * w[0] + S[k + 3] * w[1] + T[k] * w[2] + T[k + 3] * w[3];
		D[k] = (uint8_t)((v + (1 << 14)) >> 15);
	}
}

// bc_border is bc_px for a pixel whose taps are not all inside: a tap
// outside the image is 0 (OpenCV: the border value, or the border value
// outright when all four are outside).
static void bc_border(const uint8_t *src, int sw, int sh, long sstep, int sx, int sy, const int16_t *w, uint8_t *D) {
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

// bc_remap_px computes the table's pixel at index k into D.
static inline void bc_remap_px(const uint8_t *src, int sw, int sh, long sstep, long wideEnd,
		const int16_t *m1, const uint16_t *m2, long k, const int16_t *wtab, uint8_t *D, int simd) {
	int sx = m1[2 * k], sy = m1[2 * k + 1];
	const int16_t *w = wtab + 4 * (m2[k] & 1023);
	if ((unsigned)sx < (unsigned)(sw - 1) && (unsigned)sy < (unsigned)(sh - 1)) {
		long off = sy * sstep + sx * 3;
		bc_px(src + off, sstep, w, D, off < wideEnd, simd);
	} else {
		bc_border(src, sw, sh, sstep, sx, sy, w, D);
	}
}

#if defined(__SSE2__)
// bc_remap_v is bc_remap_px's vector path giving bc_px_v's lanes (a
// pixel with taps outside the image through bc_border).
static inline __m128i bc_remap_v(const uint8_t *src, int sw, int sh, long sstep, long wideEnd,
		const int16_t *m1, const uint16_t *m2, long k, const int16_t *wtab) {
	int sx = m1[2 * k], sy = m1[2 * k + 1];
	const int16_t *w = wtab + 4 * (m2[k] & 1023);
	if ((unsigned)sx < (unsigned)(sw - 1) && (unsigned)sy < (unsigned)(sh - 1)) {
		long off = sy * sstep + sx * 3;
		return bc_px_v(src + off, sstep, w, off < wideEnd);
	}
	uint8_t D[3];
	bc_border(src, sw, sh, sstep, sx, sy, w, D);
	return _mm_setr_epi32(D[0], D[1], D[2], 0);
}
#endif

// bc_remap8u3 is OpenCV's remap of an 8-bit 3-channel image with
// fixed-point tables (CV_16SC2 positions, CV_16UC1 indices into wtab),
// bilinear, BORDER_CONSTANT 0, for the table's pixels x0 <= x < x1,
// y0 <= y < y1 (dst, n pixels wide, and the tables share their
// coordinates).
static void bc_remap8u3(const uint8_t *src, int sw, int sh, long sstep,
		const int16_t *m1, const uint16_t *m2, int n, uint8_t *dst,
		int x0, int y0, int x1, int y1, const int16_t *wtab, int simd) {
	// an 8-byte load at the bottom tap stays inside the image below this
	long wideEnd = (long)sh * sstep - 8 - sstep;
#if defined(__SSE2__) && defined(__x86_64__)
	const bc_geom g = bc_geom_of(sw, sh, sstep, wideEnd);
#endif
	for (int y = y0; y < y1; y++) {
		if (simd) {
			int x = x0;
#if defined(__SSE2__) && defined(__x86_64__)
			// four pixels at a time: their channels packed to bytes
			// together, stored as 12 bytes
			for (; x + 4 <= x1; x += 4) {
				long k = (long)y * n + x;
				__m128i v0, v1, v2, v3;
				int32_t off[4];
				if (g.ok && bc_fast4(_mm_loadu_si128((const __m128i *)(m1 + 2 * k)), &g, off)) {
					v0 = bc_px_v(src + off[0], sstep, wtab + 4 * (m2[k] & 1023), 1);
					v1 = bc_px_v(src + off[1], sstep, wtab + 4 * (m2[k + 1] & 1023), 1);
					v2 = bc_px_v(src + off[2], sstep, wtab + 4 * (m2[k + 2] & 1023), 1);
					v3 = bc_px_v(src + off[3], sstep, wtab + 4 * (m2[k + 3] & 1023), 1);
				} else {
					v0 = bc_remap_v(src, sw, sh, sstep, wideEnd, m1, m2, k, wtab);
					v1 = bc_remap_v(src, sw, sh, sstep, wideEnd, m1, m2, k + 1, wtab);
					v2 = bc_remap_v(src, sw, sh, sstep, wideEnd, m1, m2, k + 2, wtab);
					v3 = bc_remap_v(src, sw, sh, sstep, wideEnd, m1, m2, k + 3, wtab);
				}
				__m128i b = _mm_packus_epi16(_mm_packs_epi32(v0, v1), _mm_packs_epi32(v2, v3));
				// b: the four pixels' three bytes, each followed by one
				// that is not a channel
				uint64_t lo = (uint64_t)_mm_cvtsi128_si64(b), hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(b, b));
				uint64_t u0 = (lo & 0xffffff) | ((lo >> 8) & 0xffffff000000ull);
				uint64_t u1 = (hi & 0xffffff) | ((hi >> 8) & 0xffffff000000ull);
				uint64_t w0 = u0 | (u1 << 48);
				uint32_t w1 = (uint32_t)(u1 >> 16);
				memcpy(dst + 3 * k, &w0, 8);
				memcpy(dst + 3 * k + 8, &w1, 4);
			}
#endif
			for (; x < x1; x++) {
				long k = (long)y * n + x;
				bc_remap_px(src, sw, sh, sstep, wideEnd, m1, m2, k, wtab, dst + 3 * k, 1);
			}
		} else {
			for (int x = x0; x < x1; x++) {
				long k = (long)y * n + x;
				bc_remap_px(src, sw, sh, sstep, wideEnd, m1, m2, k, wtab, dst + 3 * k, 0);
			}
		}
	}
}

// bc_means8u3 is bc_remap8u3 over a whole 2nb×2nb table followed by the
// means of its 2×2 blocks: cur[3(j·nb+i)+c] = 0.25·(the four pixels'
// channel c), the float32 the background computed from the remapped
// image (the sum is exact, the product by 0.25 too).
static void bc_means8u3(const uint8_t *src, int sw, int sh, long sstep,
		const int16_t *m1, const uint16_t *m2, int nb, float *cur,
		const int16_t *wtab, int simd) {
	long wideEnd = (long)sh * sstep - 8 - sstep;
	int n = 2 * nb;
#if defined(__SSE2__)
	const bc_geom g = bc_geom_of(sw, sh, sstep, wideEnd);
#endif
	for (int j = 0; j < nb; j++) {
		for (int i = 0; i < nb; i++) {
			long k = (long)(2 * j) * n + 2 * i;
			float *q = cur + 3 * ((long)j * nb + i);
#if defined(__SSE2__)
			if (simd) {
				// the four pixels' channels summed as 32-bit integers: each
				// is in 0..255 (the weights sum to 2^15), so what packing
				// to bytes and adding them gives
				__m128i v0, v1, v2, v3;
				int32_t off[4];
				if (g.ok && bc_fast4(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(m1 + 2 * k)),
								_mm_loadl_epi64((const __m128i *)(m1 + 2 * (k + n)))), &g, off)) {
					v0 = bc_px_v(src + off[0], sstep, wtab + 4 * (m2[k] & 1023), 1);
					v1 = bc_px_v(src + off[1], sstep, wtab + 4 * (m2[k + 1] & 1023), 1);
					v2 = bc_px_v(src + off[2], sstep, wtab + 4 * (m2[k + n] & 1023), 1);
					v3 = bc_px_v(src + off[3], sstep, wtab + 4 * (m2[k + n + 1] & 1023), 1);
				} else {
					v0 = bc_remap_v(src, sw, sh, sstep, wideEnd, m1, m2, k, wtab);
					v1 = bc_remap_v(src, sw, sh, sstep, wideEnd, m1, m2, k + 1, wtab);
					v2 = bc_remap_v(src, sw, sh, sstep, wideEnd, m1, m2, k + n, wtab);
					v3 = bc_remap_v(src, sw, sh, sstep, wideEnd, m1, m2, k + n + 1, wtab);
				}
				__m128i s = _mm_add_epi32(_mm_add_epi32(v0, v1), _mm_add_epi32(v2, v3));
				__m128 f = _mm_mul_ps(_mm_set1_ps(0.25f), _mm_cvtepi32_ps(s));
				if (j < nb - 1 || i < nb - 1) {
					_mm_storeu_ps(q, f); // the fourth is the next block's first, written next
				} else {
					_mm_storel_pi((__m64 *)q, f);
					_mm_store_ss(q + 2, _mm_movehl_ps(f, f));
				}
				continue;
			}
#endif
			uint8_t p[4][4];
			bc_remap_px(src, sw, sh, sstep, wideEnd, m1, m2, k, wtab, p[0], simd);
			bc_remap_px(src, sw, sh, sstep, wideEnd, m1, m2, k + 1, wtab, p[1], simd);
			bc_remap_px(src, sw, sh, sstep, wideEnd, m1, m2, k + n, wtab, p[2], simd);
			bc_remap_px(src, sw, sh, sstep, wideEnd, m1, m2, k + n + 1, wtab, p[3], simd);
			for (int c = 0; c < 3; c++) {
				q[c] = 0.25f * (float)((int)p[0][c] + (int)p[1][c] + (int)p[2][c] + (int)p[3][c]);
			}
		}
	}
}

#if defined(__SSE2__)
// bc_deint3 takes the 32-bit values of four 3-channel pixels, v0 = a0 b0
// c0 a1, v1 = b1 c1 a2 b2, v2 = c2 a3 b3 c3, apart into a0..a3, b0..b3,
// c0..c3.
static inline void bc_deint3(__m128i v0, __m128i v1, __m128i v2, __m128i *a, __m128i *b, __m128i *c) {
	__m128 f0 = _mm_castsi128_ps(v0), f1 = _mm_castsi128_ps(v1), f2 = _mm_castsi128_ps(v2);
	__m128 u = _mm_shuffle_ps(f1, f2, _MM_SHUFFLE(0, 1, 0, 2));            // a2 . a3 .
	*a = _mm_castps_si128(_mm_shuffle_ps(f0, u, _MM_SHUFFLE(2, 0, 3, 0))); // a0 a1 a2 a3
	__m128 p = _mm_shuffle_ps(f0, f1, _MM_SHUFFLE(0, 0, 0, 1));            // b0 . b1 .
	__m128 q = _mm_shuffle_ps(f1, f2, _MM_SHUFFLE(0, 2, 0, 3));            // b2 . b3 .
	*b = _mm_castps_si128(_mm_shuffle_ps(p, q, _MM_SHUFFLE(2, 0, 2, 0)));  // b0 b1 b2 b3
	__m128 r = _mm_shuffle_ps(f0, f1, _MM_SHUFFLE(0, 1, 0, 2));            // c0 . c1 .
	*c = _mm_castps_si128(_mm_shuffle_ps(r, f2, _MM_SHUFFLE(3, 0, 2, 0))); // c0 c1 c2 c3
}

// bc_sel returns x where m is all ones, else y.
static inline __m128i bc_sel(__m128i m, __m128i x, __m128i y) {
	return _mm_or_si128(_mm_and_si128(m, x), _mm_andnot_si128(m, y));
}

// bc_cols4 holds, for each 4-bit mask, its set bits' positions first.
static const int32_t bc_cols4[16][4] = {
	{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
	{2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
	{3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
	{2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3},
};

// bc_pop4 is the number of bits set in a 4-bit mask (without a call:
// POPCNT is beyond SSE2).
static const uint8_t bc_pop4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

// bc_edge_row4 is bc_edges' channel choice (the scalar loop there) four
// pixels at a time, for the row's first 4⌊w/4⌋ pixels, which it returns:
// the same squared magnitudes, the same comparisons in the same order
// (channel 1 replaces 0 when strictly greater, then 2 the winner), the
// same masks. Each channel's gradients travel as one (gx, gy) pair of
// 16-bit halves of a 32-bit lane, so one pmaddwd of the pair with itself
// is its squared magnitude and one select picks both. cols gets four
// values per step, of which the edge pixels' count (at *k) are kept.
static int bc_edge_row4(const int16_t *gxr, const int16_t *gyr, int w, int thr2,
		float *er, float *exr, float *eyr, int32_t *cr, int *k) {
	const __m128i lim = _mm_set1_epi32(thr2 - 1);
	int kk = *k, i = 0;
	for (; i + 4 <= w; i += 4) {
		// the 12 gradients of each (four pixels' three channels) as pairs
		__m128i x8 = _mm_loadu_si128((const __m128i *)(gxr + 3 * i)), x4 = _mm_loadl_epi64((const __m128i *)(gxr + 3 * i + 8));
		__m128i y8 = _mm_loadu_si128((const __m128i *)(gyr + 3 * i)), y4 = _mm_loadl_epi64((const __m128i *)(gyr + 3 * i + 8));
		__m128i p0 = _mm_unpacklo_epi16(x8, y8), p1 = _mm_unpackhi_epi16(x8, y8), p2 = _mm_unpacklo_epi16(x4, y4);
		// gx·gx + gy·gy, exact (|g| <= 1020)
		__m128i ma, mb, mc, pa, pb, pc;
		bc_deint3(_mm_madd_epi16(p0, p0), _mm_madd_epi16(p1, p1), _mm_madd_epi16(p2, p2), &ma, &mb, &mc);
		bc_deint3(p0, p1, p2, &pa, &pb, &pc);
		__m128i g = _mm_cmpgt_epi32(mb, ma);
		__m128i mm = bc_sel(g, mb, ma), pp = bc_sel(g, pb, pa);
		g = _mm_cmpgt_epi32(mc, mm);
		mm = bc_sel(g, mc, mm);
		pp = bc_sel(g, pc, pp);
		__m128i on = _mm_cmpgt_epi32(mm, lim); // mm >= thr2
		pp = _mm_and_si128(pp, on);
		_mm_storeu_ps(er + i, _mm_cvtepi32_ps(_mm_and_si128(mm, on)));
		_mm_storeu_ps(exr + i, _mm_cvtepi32_ps(_mm_srai_epi32(_mm_slli_epi32(pp, 16), 16)));
		_mm_storeu_ps(eyr + i, _mm_cvtepi32_ps(_mm_srai_epi32(pp, 16)));
		int bits = _mm_movemask_ps(_mm_castsi128_ps(on));
		_mm_storeu_si128((__m128i *)(cr + kk), _mm_add_epi32(_mm_set1_epi32(i), _mm_loadu_si128((const __m128i *)bc_cols4[bits])));
		kk += bc_pop4[bits];
	}
	*k = kk;
	return i;
}
#endif

// bc_edges is OpenCV's 3×3 Sobel derivatives (8-bit BGR to 16-bit, x and
// y, BORDER_REPLICATE at the image's edges, the true pixels around the
// region) of the n×n image img within [x0, x1)×[y0, y1), followed by
// edgeRow on each row: the strongest channel's gradient (the first of
// equals) in ex, ey and its squared magnitude in e, zero below thr2 (the
// threshold squared), and the row's columns at or above it (from x0) in
// cols, row after row, ends[y−y0] the count so far. gxr and gyr hold
// 3(x1−x0) values each; cols has room for 3 more than the region's
// pixels (bc_edge_row4's stores). All integer: the sums are exact, as
// OpenCV's. simd selects bc_edge_row4 for the channel choice where SSE2
// is there (the tests compare both).
static void bc_edges(const uint8_t *img, int n, int x0, int y0, int x1, int y1, int thr2,
		float *e, float *ex, float *ey, int32_t *cols, int32_t *ends, int16_t *gxr, int16_t *gyr, int simd) {
	int w = x1 - x0;
	long st = 3L * n, total = 0;
	for (int y = y0; y < y1; y++) {
		const uint8_t *A = img + (long)(y > 0 ? y - 1 : 0) * st;
		const uint8_t *B = img + (long)y * st;
		const uint8_t *C = img + (long)(y < n - 1 ? y + 1 : n - 1) * st;
		// the gradients of the row: interior pixels flat (a channel's
		// neighbours are 3 bytes away), the image's edge columns clamped
		int xs = x0 > 1 ? x0 : 1, xe = x1 < n - 1 ? x1 : n - 1;
		for (int x = x0; x < xs && x < x1; x++) {
			int xm = x > 0 ? x - 1 : 0, xp = x < n - 1 ? x + 1 : n - 1;
			for (int c = 0; c < 3; c++) {
				int j = 3 * (x - x0) + c;
				gxr[j] = (int16_t)((A[3 * xp + c] - A[3 * xm + c]) + 2 * (B[3 * xp + c] - B[3 * xm + c]) + (C[3 * xp + c] - C[3 * xm + c]));
				gyr[j] = (int16_t)((C[3 * xm + c] + 2 * C[3 * x + c] + C[3 * xp + c]) - (A[3 * xm + c] + 2 * A[3 * x + c] + A[3 * xp + c]));
			}
		}
		if (xs < xe) {
			int16_t *gx = gxr + 3 * (xs - x0), *gy = gyr + 3 * (xs - x0);
			const uint8_t *a = A + 3 * xs, *b = B + 3 * xs, *c = C + 3 * xs;
			int m = 3 * (xe - xs);
			for (int j = 0; j < m; j++) {
				gx[j] = (int16_t)((a[j + 3] - a[j - 3]) + 2 * (b[j + 3] - b[j - 3]) + (c[j + 3] - c[j - 3]));
				gy[j] = (int16_t)((c[j - 3] + 2 * c[j] + c[j + 3]) - (a[j - 3] + 2 * a[j] + a[j + 3]));
			}
		}
		for (int x = xe > xs ? xe : xs; x < x1; x++) {
			if (x < x0) continue;
			int xm = x > 0 ? x - 1 : 0, xp = x < n - 1 ? x + 1 : n - 1;
			for (int c = 0; c < 3; c++) {
				int j = 3 * (x - x0) + c;
				gxr[j] = (int16_t)((A[3 * xp + c] - A[3 * xm + c]) + 2 * (B[3 * xp + c] - B[3 * xm + c]) + (C[3 * xp + c] - C[3 * xm + c]));
				gyr[j] = (int16_t)((C[3 * xm + c] + 2 * C[3 * x + c] + C[3 * xp + c]) - (A[3 * xm + c] + 2 * A[3 * x + c] + A[3 * xp + c]));
			}
		}
		// edgeRow
		long k0 = (long)y * n + x0;
		float *er = e + k0, *exr = ex + k0, *eyr = ey + k0;
		int32_t *cr = cols + total;
		int k = 0, i = 0;
#if defined(__SSE2__)
		if (simd) {
			i = bc_edge_row4(gxr, gyr, w, thr2, er, exr, eyr, cr, &k);
		}
#endif
		for (; i < w; i++) {
			const int16_t *g = gxr + 3 * i, *h = gyr + 3 * i;
			// the channels' squared magnitudes
			int q[3];
			for (int c = 0; c < 3; c++) {
				q[c] = g[c] * g[c] + h[c] * h[c];
			}
			int bx = g[0], by = h[0], mm = q[0];
			if (q[1] > mm) { bx = g[1]; by = h[1]; mm = q[1]; }
			if (q[2] > mm) { bx = g[2]; by = h[2]; mm = q[2]; }
			int on = (thr2 - 1 - mm) >> 31;
			er[i] = (float)(mm & on);
			exr[i] = (float)(bx & on);
			eyr[i] = (float)(by & on);
			cr[k] = i;
			k -= on;
		}
		total += k;
		ends[y - y0] = (int32_t)total;
	}
}

// bc_vote_at adds wt at the pixel (int(qx), int(qy)) of the n-wide map a
// when it lies in [x0, x1)×[y0, y1).
static inline void bc_vote_at(float qx, float qy, int x0, int y0, int x1, int y1, int n, float *a, float wt) {
	// Go's int() truncates; what it gives outside (NaN, the out of range)
	// is outside the region, and so is what this leaves out before
	// converting
	if (!(qx > -1.0f && qx < (float)x1 && qy > -1.0f && qy < (float)y1)) return;
	int px = (int)qx, py = (int)qy;
	if (px < x0 || py < y0) return;
	a[(long)py * n + px] += wt;
}

// bc_vote1 is one edge pixel's votes (votes' arithmetic in float32, each
// operation rounded on its own): the pixel (column cx − 0.5 of the row
// cy − 0.5) with the squared magnitude mm and gradient (fx,
// fy) adds min(m/sat, 1) (inv = 1/sat) at the points r0 and r1 away along
// the gradient, both ways, that lie in [x0, x1)×[y0, y1) (others are
// dropped), into a0 (r0) and a1 (r1), in this order; it returns m, the
// magnitude.
static inline float bc_vote1(float mm, float fx, float fy, float cx, float cy, float inv, float r0, float r1,
		int x0, int y0, int x1, int y1, int n, float *a0, float *a1) {
	float m = sqrtf(mm);
	float wt = m * inv;
	if (!(wt < 1.0f)) wt = 1.0f;
	float ux = fx / m, uy = fy / m;
	float tx0 = r0 * ux, ty0 = r0 * uy, tx1 = r1 * ux, ty1 = r1 * uy;
	bc_vote_at(cx + tx0, cy + ty0, x0, y0, x1, y1, n, a0, wt);
	bc_vote_at(cx - tx0, cy - ty0, x0, y0, x1, y1, n, a0, wt);
	bc_vote_at(cx + tx1, cy + ty1, x0, y0, x1, y1, n, a1, wt);
	bc_vote_at(cx - tx1, cy - ty1, x0, y0, x1, y1, n, a1, wt);
	return m;
}

// bc_votes is votes over the edge columns bc_edges listed for the rows
// of src = [sx0, sx1)×[sy0, sy1) (cols, ends): each edge pixel's squared
// magnitude in e becomes the magnitude, and those within voteFrom =
// [vx0, vx1)×[vy0, vy1) vote into the n-wide maps a0 and a1 within roi =
// [x0, x1)×[y0, y1) (see bc_vote1), row after row, left to right: the
// order of the sums.
static void bc_votes(float *e, const float *ex, const float *ey, int n, int sx0, int sy0, int sx1, int sy1,
		const int32_t *cols, const int32_t *ends, int vx0, int vy0, int vx1, int vy1,
		int x0, int y0, int x1, int y1, float inv, float r0, float r1, float *a0, float *a1, int simd) {
	(void)sx1;
	long start = 0;
	for (int y = sy0; y < sy1; y++) {
		long end = ends[y - sy0];
		long k0 = (long)y * n + sx0;
		float *er = e + k0;
		const float *exr = ex + k0, *eyr = ey + k0;
		const int32_t *c = cols + start;
		long nc = end - start;
		start = end;
		// the row's voting columns: j0 <= j < j1 of c
		long j0 = nc, j1 = nc;
		if (y >= vy0 && y < vy1) {
			j0 = 0;
			while (j0 < nc && c[j0] < vx0 - sx0) j0++;
			j1 = j0;
			while (j1 < nc && c[j1] < vx1 - sx0) j1++;
		}
		for (long j = 0; j < j0; j++) er[c[j]] = sqrtf(er[c[j]]);
		for (long j = j1; j < nc; j++) er[c[j]] = sqrtf(er[c[j]]);
		float cy = (float)y + 0.5f;
		long j = j0;
#if defined(__SSE2__)
		if (simd) {
			const __m128 vinv = _mm_set1_ps(inv), one = _mm_set1_ps(1.0f), half = _mm_set1_ps(0.5f);
			const __m128 vr0 = _mm_set1_ps(r0), vr1 = _mm_set1_ps(r1), vcy = _mm_set1_ps(cy);
			const __m128i lox = _mm_set1_epi32(x0 - 1), hix = _mm_set1_epi32(x1), loy = _mm_set1_epi32(y0 - 1), hiy = _mm_set1_epi32(y1);
			for (; j + 4 <= j1; j += 4) {
				int i0 = c[j], i1 = c[j + 1], i2 = c[j + 2], i3 = c[j + 3];
				__m128 mm = _mm_setr_ps(er[i0], er[i1], er[i2], er[i3]);
				__m128 fx = _mm_setr_ps(exr[i0], exr[i1], exr[i2], exr[i3]);
				__m128 fy = _mm_setr_ps(eyr[i0], eyr[i1], eyr[i2], eyr[i3]);
				__m128 m = _mm_sqrt_ps(mm);
				float ms[4];
				_mm_storeu_ps(ms, m);
				er[i0] = ms[0];
				er[i1] = ms[1];
				er[i2] = ms[2];
				er[i3] = ms[3];
				__m128 wt = _mm_min_ps(_mm_mul_ps(m, vinv), one); // m·inv < 1 ? m·inv : 1
				__m128 ux = _mm_div_ps(fx, m), uy = _mm_div_ps(fy, m);
				__m128i ic = _mm_add_epi32(_mm_loadu_si128((const __m128i *)(c + j)), _mm_set1_epi32(sx0));
				__m128 cx = _mm_add_ps(_mm_cvtepi32_ps(ic), half);
				__m128 tx0 = _mm_mul_ps(vr0, ux), ty0 = _mm_mul_ps(vr0, uy);
				__m128 tx1 = _mm_mul_ps(vr1, ux), ty1 = _mm_mul_ps(vr1, uy);
				// the four votes' points, truncated (NaN and the out of
				// range give the 32-bit minimum: outside)
				__m128i px[4], py[4];
				px[0] = _mm_cvttps_epi32(_mm_add_ps(cx, tx0));
				py[0] = _mm_cvttps_epi32(_mm_add_ps(vcy, ty0));
				px[1] = _mm_cvttps_epi32(_mm_sub_ps(cx, tx0));
				py[1] = _mm_cvttps_epi32(_mm_sub_ps(vcy, ty0));
				px[2] = _mm_cvttps_epi32(_mm_add_ps(cx, tx1));
				py[2] = _mm_cvttps_epi32(_mm_add_ps(vcy, ty1));
				px[3] = _mm_cvttps_epi32(_mm_sub_ps(cx, tx1));
				py[3] = _mm_cvttps_epi32(_mm_sub_ps(vcy, ty1));
				int32_t idx[4][4];
				float w[4][4];
				for (int v = 0; v < 4; v++) {
					__m128i in = _mm_and_si128(_mm_and_si128(_mm_cmpgt_epi32(px[v], lox), _mm_cmplt_epi32(px[v], hix)),
						_mm_and_si128(_mm_cmpgt_epi32(py[v], loy), _mm_cmplt_epi32(py[v], hiy)));
					// py·n + px in one multiply-add of 16-bit halves (both
					// inside the map: below 2^15); the voting pixel's own
					// cell and +0 outside
					__m128i pk = _mm_madd_epi16(_mm_or_si128(_mm_and_si128(px[v], _mm_set1_epi32(0xffff)), _mm_slli_epi32(py[v], 16)),
						_mm_set1_epi32(1 | (n << 16)));
					__m128i own = _mm_add_epi32(ic, _mm_set1_epi32(y * n));
					_mm_storeu_si128((__m128i *)idx[v], _mm_or_si128(_mm_and_si128(in, pk), _mm_andnot_si128(in, own)));
					_mm_storeu_ps(w[v], _mm_and_ps(_mm_castsi128_ps(in), wt));
				}
				for (int p = 0; p < 4; p++) {
					a0[idx[0][p]] += w[0][p];
					a0[idx[1][p]] += w[1][p];
				}
				for (int p = 0; p < 4; p++) {
					a1[idx[2][p]] += w[2][p];
					a1[idx[3][p]] += w[3][p];
				}
			}
		}
#endif
		for (; j < j1; j++) {
			int i = c[j];
			er[i] = bc_vote1(er[i], exr[i], eyr[i], (float)(i + sx0) + 0.5f, cy, inv, r0, r1, x0, y0, x1, y1, n, a0, a1);
		}
	}
}

// bc_fit_sums is one pass of symmetryFit's fit over its np points (x, y,
// nx, ny, w as float64, one after another) about (cx, cy): the sums a00,
// a01, a11, b0, b1 and the weight into out[0..5], in the same float64
// operations and order (each rounded on its own). A point farther than
// lim2 (squared) or nearer than 2 px is left out, one whose line passes
// c or more from the centre too; with toFoot, a point beyond rin2 on the
// foot's side (ox, oy) is measured from the foot. The SSE2 path leaves
// nothing out by branching: a left-out point adds +0 (the sums start at
// +0, and a sum of round-to-nearest is −0 only when both terms are);
// an odd last point goes the plain way.
static void bc_fit_sums(const double *pts, long np, double cx, double cy, double lim2, double rin2, int toFoot,
		double ox, double oy, double c, double *out, int simd) {
	long q = 0;
	double a00 = 0, a01 = 0, a11 = 0, b0 = 0, b1 = 0, ws = 0;
#if defined(__SSE2__)
	if (simd) {
		// two points at a time, one in each lane (no branch, no shuffle
		// in the arithmetic); their terms added to the sums one after the
		// other, in order, as pairs (a00 a01), (b0 b1), (a11 wsum)
		const __m128d zero = _mm_setzero_pd(), vcx = _mm_set1_pd(cx), vcy = _mm_set1_pd(cy), vox = _mm_set1_pd(ox), voy = _mm_set1_pd(oy);
		const __m128d L = _mm_set1_pd(lim2), four = _mm_set1_pd(4), R = _mm_set1_pd(rin2), cc = _mm_set1_pd(c), nc = _mm_set1_pd(-c),
			one = _mm_set1_pd(1);
		const __m128d foot = toFoot ? _mm_castsi128_pd(_mm_set1_epi32(-1)) : zero;
		__m128d A = zero, B = zero, V = zero;
		for (; q + 2 <= np; q += 2) {
			const double *p = pts + 5 * q;
			__m128d l0 = _mm_loadu_pd(p), l1 = _mm_loadu_pd(p + 2), l2 = _mm_loadu_pd(p + 4), l3 = _mm_loadu_pd(p + 6), l4 = _mm_loadu_pd(p + 8);
			__m128d X = _mm_shuffle_pd(l0, l2, 2), Y = _mm_shuffle_pd(l0, l3, 1);
			__m128d NX = _mm_shuffle_pd(l1, l3, 2), NY = _mm_shuffle_pd(l1, l4, 1), W = _mm_shuffle_pd(l2, l4, 2);
			__m128d DX = _mm_sub_pd(X, vcx), DY = _mm_sub_pd(Y, vcy);
			__m128d D2 = _mm_add_pd(_mm_mul_pd(DX, DX), _mm_mul_pd(DY, DY));
			__m128d bad = _mm_or_pd(_mm_cmpgt_pd(D2, L), _mm_cmplt_pd(D2, four));
			__m128d S = _mm_add_pd(_mm_mul_pd(DX, vox), _mm_mul_pd(DY, voy));
			__m128d useT = _mm_and_pd(foot, _mm_and_pd(_mm_cmpgt_pd(D2, R), _mm_cmpgt_pd(S, zero)));
			__m128d TX = _mm_and_pd(vox, useT), TY = _mm_and_pd(voy, useT);
			__m128d d = _mm_add_pd(_mm_mul_pd(_mm_sub_pd(TX, DX), NX), _mm_mul_pd(_mm_sub_pd(TY, DY), NY));
			bad = _mm_or_pd(bad, _mm_or_pd(_mm_cmpge_pd(d, cc), _mm_cmple_pd(d, nc)));
			__m128d qd = _mm_div_pd(d, cc);
			__m128d t = _mm_sub_pd(one, _mm_mul_pd(qd, qd));
			__m128d w = _mm_andnot_pd(bad, _mm_mul_pd(_mm_mul_pd(W, t), t));
			__m128d WX = _mm_mul_pd(w, NX), WY = _mm_mul_pd(w, NY);
			__m128d pn = _mm_add_pd(_mm_mul_pd(_mm_sub_pd(X, TX), NX), _mm_mul_pd(_mm_sub_pd(Y, TY), NY));
			__m128d c00 = _mm_andnot_pd(bad, _mm_mul_pd(WX, NX)), c01 = _mm_andnot_pd(bad, _mm_mul_pd(WX, NY));
			__m128d c11 = _mm_andnot_pd(bad, _mm_mul_pd(WY, NY));
			__m128d cb0 = _mm_andnot_pd(bad, _mm_mul_pd(WX, pn)), cb1 = _mm_andnot_pd(bad, _mm_mul_pd(WY, pn));
			A = _mm_add_pd(A, _mm_unpacklo_pd(c00, c01));
			A = _mm_add_pd(A, _mm_unpackhi_pd(c00, c01));
			B = _mm_add_pd(B, _mm_unpacklo_pd(cb0, cb1));
			B = _mm_add_pd(B, _mm_unpackhi_pd(cb0, cb1));
			V = _mm_add_pd(V, _mm_unpacklo_pd(c11, w));
			V = _mm_add_pd(V, _mm_unpackhi_pd(c11, w));
		}
		double o[6];
		_mm_storeu_pd(o, A);
		_mm_storeu_pd(o + 2, B);
		_mm_storeu_pd(o + 4, V);
		a00 = o[0];
		a01 = o[1];
		b0 = o[2];
		b1 = o[3];
		a11 = o[4];
		ws = o[5];
	}
#endif
	for (; q < np; q++) {
		const double *p = pts + 5 * q;
		double dx = p[0] - cx, dy = p[1] - cy;
		double d2 = dx * dx + dy * dy;
		if (d2 > lim2 || d2 < 4) continue;
		double nx = p[2], ny = p[3];
		double tx = 0, ty = 0;
		if (toFoot && d2 > rin2 && dx * ox + dy * oy > 0) {
			tx = ox;
			ty = oy;
		}
		double d = (tx - dx) * nx + (ty - dy) * ny;
		if (d >= c || d <= -c) continue;
		double t = 1 - (d / c) * (d / c);
		double w = p[4] * t * t;
		a00 += w * nx * nx;
		a01 += w * nx * ny;
		a11 += w * ny * ny;
		double pn = (p[0] - tx) * nx + (p[1] - ty) * ny;
		b0 += w * nx * pn;
		b1 += w * ny * pn;
		ws += w;
	}
	out[0] = a00;
	out[1] = a01;
	out[2] = a11;
	out[3] = b0;
	out[4] = b1;
	out[5] = ws;
}

// bc_fit_gather lists symmetryFit's points: the pixels of [x0, x1]×[y0,
// y1] (inclusive) of the n-wide edge plane e that are on an edge and whose
// squared distance from (x, y) is within [2, rr2], in scan order, as five
// float64 each (edgePt: x, y, and in float32 the normal −ey/m, ex/m and
// the weight min(m, wcap)) into pts (room for the whole window and one
// more); it returns their count. No branch on the pixels: each is
// written, and counted when kept.
static long bc_fit_gather(const float *e, const float *ex, const float *ey, int n, int x0, int y0, int x1, int y1,
		double x, double y, double rr2, float wcap, double *pts) {
	long k = 0;
	for (int j = y0; j <= y1; j++) {
		double dy = (double)j - y;
		long row = (long)j * n;
		for (int i = x0; i <= x1; i++) {
			float m = e[row + i];
			double dx = (double)i - x;
			double d2 = dx * dx + dy * dy;
			float inv = 1.0f / m;
			double *p = pts + 5 * k;
			p[0] = (double)i;
			p[1] = (double)j;
			p[2] = (double)(-ey[row + i] * inv);
			p[3] = (double)(ex[row + i] * inv);
			p[4] = (double)(m < wcap ? m : wcap);
			k += (m != 0) & !(d2 > rr2) & !(d2 < 2);
		}
	}
	return k;
}

// bc_above lists, row by row, the pixels k = y·n + x of the n-wide plane
// s within [x0, x1)×[y0, y1) that are not below thr (!(v < thr): a NaN
// is listed) into out (room for the region's pixels and 3 more) and
// returns their count. simd selects the SSE2 loop where there is one.
static long bc_above(const float *s, int n, int x0, int y0, int x1, int y1, float thr, int32_t *out, int simd) {
	long k = 0;
	for (int y = y0; y < y1; y++) {
		const float *row = s + (long)y * n;
		int x = x0;
#if defined(__SSE2__)
		if (simd) {
			const __m128 t = _mm_set1_ps(thr);
			for (; x + 4 <= x1; x += 4) {
				int bits = _mm_movemask_ps(_mm_cmpnlt_ps(_mm_loadu_ps(row + x), t));
				if (bits == 0) continue;
				_mm_storeu_si128((__m128i *)(out + k), _mm_add_epi32(_mm_set1_epi32(y * n + x), _mm_loadu_si128((const __m128i *)bc_cols4[bits])));
				k += bc_pop4[bits];
			}
		}
#endif
		for (; x < x1; x++) {
			if (!(row[x] < thr)) out[k++] = y * n + x;
		}
	}
	return k;
}

// bc_kth is kthShort (plane.go) in C: the k-th smallest of v[0..n) (no
// NaN), v reordered. Only comparisons: any platform gives the same value.
static double bc_kth(double *v, int n, int k) {
	int lo = 0, hi = n - 1;
	while (hi - lo >= 12) {
		// pivot: the median of the ends and the middle, moved to hi
		int mid = lo + (hi - lo) / 2;
		double t;
		if (v[mid] < v[lo]) { t = v[mid]; v[mid] = v[lo]; v[lo] = t; }
		if (v[hi] < v[lo]) { t = v[hi]; v[hi] = v[lo]; v[lo] = t; }
		if (v[mid] < v[hi]) { t = v[mid]; v[mid] = v[hi]; v[hi] = t; }
		double p = v[hi];
		int j = lo;
		for (int i = lo; i < hi; i++) {
			double x = v[i];
			v[i] = v[j];
			v[j] = x;
			j += x < p;
		}
		t = v[j]; v[j] = v[hi]; v[hi] = t;
		if (k == j) return v[j];
		if (k < j) hi = j - 1; else lo = j + 1;
	}
	for (int i = lo + 1; i <= hi; i++) {
		for (int j = i; j > lo && v[j] < v[j - 1]; j--) {
			double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
		}
	}
	return v[k];
}

// bc_kth_cells: for each of nc cells, its cnt[c] values at v + per·c
// (reordered): out[c] = their (6·cnt/10)-th smallest when there are at
// least least of them, else −1.
static void bc_kth_cells(double *v, const int32_t *cnt, long nc, int per, int least, double *out) {
	for (long c = 0; c < nc; c++) {
		int n = cnt[c];
		out[c] = n >= least ? bc_kth(v + per * c, n, n * 6 / 10) : -1.0;
	}
}

// bc_diffs is the frame-to-frame difference of nn blocks' means (BGR):
// diff[k] = |c0 − p0| + |c1 − p1| + |c2 − p2| in float32, in this order,
// and hist[min((int)diff[k], 63)] counted.
static void bc_diffs(const float *cur, const float *prev, float *diff, long nn, int64_t *hist) {
	for (long k = 0; k < nn; k++) {
		const float *c = cur + 3 * k, *p = prev + 3 * k;
		float dp = fabsf(c[0] - p[0]) + fabsf(c[1] - p[1]) + fabsf(c[2] - p[2]);
		diff[k] = dp;
		int q = (int)dp;
		hist[q < 63 ? q : 63]++;
	}
}

// bc_near_thr reports whether a 4-neighbour of block k (of the nb-wide
// grid) has v over thr.
static inline int bc_near_thr(const float *v, long k, int nb, float thr) {
	long i = k % nb, j = k / nb;
	return (i > 0 && v[k - 1] > thr) || (i < nb - 1 && v[k + 1] > thr) ||
		(j > 0 && v[k - nb] > thr) || (j < nb - 1 && v[k + nb] > thr);
}

// bc_changes is the background's block loop after the differences
// (observeMeans, in the same float32 operations and order): which of the
// nb×nb blocks changed (a difference over 2.5 thr, or over thr beside
// another over thr), their drift from ref (the means times inv), the
// frames they stayed still, whether they differ from the background bg
// (zone 0: never), then the blocks that drifted (over 2.5 thr, or over
// thr beside another) marked changed too. Bools are bytes 0 or 1.
//
// The SSE2 path takes four blocks at a time through the first loop, each
// float32 operation the scalar one (the same products, differences and
// sums in the same order, NaN compared as false); a block over thr but
// not over 2.5 thr looks at its neighbours one by one.
static void bc_changes(const float *cur, const float *ref, const float *bg, const float *diff, int nb, float thr, float inv,
		uint8_t *changed, float *drift, uint16_t *stable, const uint8_t *zone, uint8_t *fg, int simd) {
	long nn = (long)nb * nb;
	float thr25 = 2.5f * thr;
	long k = 0;
#if defined(__SSE2__)
	if (simd) {
		const __m128 vthr = _mm_set1_ps(thr), vthr25 = _mm_set1_ps(thr25), vinv = _mm_set1_ps(inv), v48 = _mm_set1_ps(48.0f);
		const __m128 absm = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
		for (; k + 4 <= nn; k += 4) {
			long o = 3 * k;
			__m128 dp = _mm_loadu_ps(diff + k);
			__m128 over = _mm_cmpgt_ps(dp, vthr25);
			int chb = _mm_movemask_ps(over);
			int need = _mm_movemask_ps(_mm_andnot_ps(over, _mm_cmpgt_ps(dp, vthr)));
			for (int l = 0; l < 4; l++) {
				if ((need >> l) & 1) chb |= bc_near_thr(diff, k + l, nb, thr) << l;
			}
			__m128i c0, c1, c2, r0, r1, r2, g0, g1, g2;
			bc_deint3(_mm_loadu_si128((const __m128i *)(cur + o)), _mm_loadu_si128((const __m128i *)(cur + o + 4)),
				_mm_loadu_si128((const __m128i *)(cur + o + 8)), &c0, &c1, &c2);
			bc_deint3(_mm_loadu_si128((const __m128i *)(ref + o)), _mm_loadu_si128((const __m128i *)(ref + o + 4)),
				_mm_loadu_si128((const __m128i *)(ref + o + 8)), &r0, &r1, &r2);
			bc_deint3(_mm_loadu_si128((const __m128i *)(bg + o)), _mm_loadu_si128((const __m128i *)(bg + o + 4)),
				_mm_loadu_si128((const __m128i *)(bg + o + 8)), &g0, &g1, &g2);
			__m128 f0 = _mm_mul_ps(_mm_castsi128_ps(c0), vinv), f1 = _mm_mul_ps(_mm_castsi128_ps(c1), vinv), f2 = _mm_mul_ps(_mm_castsi128_ps(c2), vinv);
			__m128 dr = _mm_add_ps(_mm_add_ps(_mm_and_ps(_mm_sub_ps(f0, _mm_castsi128_ps(r0)), absm), _mm_and_ps(_mm_sub_ps(f1, _mm_castsi128_ps(r1)), absm)),
				_mm_and_ps(_mm_sub_ps(f2, _mm_castsi128_ps(r2)), absm));
			_mm_storeu_ps(drift + k, dr);
			__m128 db = _mm_add_ps(_mm_add_ps(_mm_and_ps(_mm_sub_ps(f0, _mm_castsi128_ps(g0)), absm), _mm_and_ps(_mm_sub_ps(f1, _mm_castsi128_ps(g1)), absm)),
				_mm_and_ps(_mm_sub_ps(f2, _mm_castsi128_ps(g2)), absm));
			int fgb = _mm_movemask_ps(_mm_cmpgt_ps(db, v48));
			for (int l = 0; l < 4; l++) {
				int ch = (chb >> l) & 1;
				changed[k + l] = (uint8_t)ch;
				if (ch) {
					stable[k + l] = 0;
				} else if (stable[k + l] < 65535) {
					stable[k + l]++;
				}
				fg[k + l] = zone[k + l] != 0 && ((fgb >> l) & 1);
			}
		}
	}
#endif
	for (; k < nn; k++) {
		long o = 3 * k;
		float dp = diff[k];
		int ch = dp > thr25;
		if (!ch && dp > thr) {
			ch = bc_near_thr(diff, k, nb, thr);
		}
		changed[k] = (uint8_t)ch;
		float c0 = cur[o] * inv, c1 = cur[o + 1] * inv, c2 = cur[o + 2] * inv;
		const float *rf = ref + o;
		drift[k] = fabsf(c0 - rf[0]) + fabsf(c1 - rf[1]) + fabsf(c2 - rf[2]);
		if (ch) {
			stable[k] = 0;
		} else if (stable[k] < 65535) {
			stable[k]++;
		}
		if (zone[k] == 0) {
			fg[k] = 0;
			continue;
		}
		const float *bk = bg + o;
		fg[k] = fabsf(c0 - bk[0]) + fabsf(c1 - bk[1]) + fabsf(c2 - bk[2]) > 48.0f;
	}
	for (long k = 0; k < nn; k++) {
		float dr = drift[k];
		if (changed[k] || !(dr > thr)) continue;
		int mv = dr > thr25;
		if (!mv) {
			mv = bc_near_thr(drift, k, nb, thr);
		}
		changed[k] = (uint8_t)mv;
	}
}
*/
import "C"

import (
	"errors"
	"image"
	"math"
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

// edgesSIMD selects bc_edges' vector channel choice where there is one
// (tests compare it with the scalar one).
var edgesSIMD = true

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
	src, m1, m2, err := remapData(frame, map1, map2)
	if err != nil {
		return err
	}
	d, err := dst.DataPtrUint8()
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
		(*C.int16_t)(unsafe.Pointer(&m1[0])), (*C.uint16_t)(unsafe.Pointer(&m2[0])), C.int(n),
		(*C.uint8_t)(unsafe.Pointer(&d[0])), C.int(rect.Min.X), C.int(rect.Min.Y), C.int(rect.Max.X), C.int(rect.Max.Y),
		(*C.int16_t)(unsafe.Pointer(&remapTab[0])), simd)
	return nil
}

// remapData returns the bytes of frame and of the remap tables map1
// (CV_16SC2) and map2 (CV_16UC1), without copying them.
func remapData(frame gocv.Mat, map1, map2 *gocv.Mat) (src []uint8, m1 []int16, m2 []uint16, err error) {
	if src, err = frame.DataPtrUint8(); err != nil {
		return nil, nil, nil, err
	}
	if m1, err = map1.DataPtrInt16(); err != nil {
		return nil, nil, nil, err
	}
	if m2, err = map2.DataPtrUint16(); err != nil {
		return nil, nil, nil, err
	}
	return src, m1, m2, nil
}

// remapMeans is remapInto over the whole of a 2nb×2nb table followed by
// the means of its 2×2 blocks, BGR, into cur (3·nb·nb): the block means
// the background takes of the image the low-resolution rectifier makes,
// without making it. It returns an error where remapInto would.
func remapMeans(frame gocv.Mat, map1, map2 *gocv.Mat, nb int, cur []float32) error {
	n := 2 * nb
	if map1.Cols() != n || map1.Rows() != n || map2.Cols() != n || map2.Rows() != n || len(cur) < 3*nb*nb ||
		frame.Type() != gocv.MatTypeCV8UC3 || nb == 0 {
		return errors.New("remap: sizes or types differ")
	}
	src, m1, m2, err := remapData(frame, map1, map2)
	if err != nil {
		return err
	}
	if len(src) == 0 || len(m1) < 2*n*n || len(m2) < n*n {
		return errors.New("remap: empty Mat")
	}
	simd := C.int(0)
	if remapSIMD {
		simd = 1
	}
	C.bc_means8u3((*C.uint8_t)(unsafe.Pointer(&src[0])), C.int(frame.Cols()), C.int(frame.Rows()), C.long(3*frame.Cols()),
		(*C.int16_t)(unsafe.Pointer(&m1[0])), (*C.uint16_t)(unsafe.Pointer(&m2[0])), C.int(nb),
		(*C.float)(unsafe.Pointer(&cur[0])), (*C.int16_t)(unsafe.Pointer(&remapTab[0])), simd)
	return nil
}

// edgePlanes computes, for the pixels of src in the n×n BGR image img,
// what gradients and edgeRow give row by row (bc_edges): e, ex, ey, and
// each row's edge columns (vt.rowCols, the row of src at y ending at
// vt.rowEnds[y−src.Min.Y]). It returns an error when img's pixels cannot
// be read (the caller then takes OpenCV's Sobel).
func (vt *voter) edgePlanes(img gocv.Mat, src image.Rectangle, thr2 int32) error {
	n := vt.n
	if img.Cols() != n || img.Rows() != n || img.Type() != gocv.MatTypeCV8UC3 || !src.In(image.Rect(0, 0, n, n)) {
		return errors.New("edges: sizes or types differ")
	}
	if src.Empty() {
		return nil
	}
	px, err := img.DataPtrUint8()
	if err != nil {
		return err
	}
	w, h := src.Dx(), src.Dy()
	if cap(vt.rowCols) < w*h+3 {
		vt.rowCols = make([]int32, w*h+3)
	}
	if cap(vt.rowEnds) < h {
		vt.rowEnds = make([]int32, h)
	}
	if cap(vt.gRow) < 6*w {
		vt.gRow = make([]int16, 6*w)
	}
	simd := C.int(0)
	if edgesSIMD {
		simd = 1
	}
	vt.rowCols, vt.rowEnds, vt.gRow = vt.rowCols[:w*h+3], vt.rowEnds[:h], vt.gRow[:6*w]
	C.bc_edges((*C.uint8_t)(unsafe.Pointer(&px[0])), C.int(n), C.int(src.Min.X), C.int(src.Min.Y), C.int(src.Max.X), C.int(src.Max.Y), C.int(thr2),
		(*C.float)(unsafe.Pointer(&vt.edge[0])), (*C.float)(unsafe.Pointer(&vt.ex[0])), (*C.float)(unsafe.Pointer(&vt.ey[0])),
		(*C.int32_t)(unsafe.Pointer(&vt.rowCols[0])), (*C.int32_t)(unsafe.Pointer(&vt.rowEnds[0])),
		(*C.int16_t)(unsafe.Pointer(&vt.gRow[0])), (*C.int16_t)(unsafe.Pointer(&vt.gRow[3*w])), simd)
	return nil
}

// votesSIMD selects bc_votes' vector loop where there is one (tests
// compare it with the plain one).
var votesSIMD = true

// edgeVotesC is votes over the edge planes and row columns edgePlanes
// made for src (bc_votes: the same sums in the same order, each float32
// operation rounded on its own). It returns an error when the vote maps
// cannot be read or the plane is too large for its index arithmetic (the
// caller then takes votes).
func (vt *voter) edgeVotesC(roi, src image.Rectangle) error {
	n := vt.n
	if n >= 1<<15 || len(vt.rowEnds) != src.Dy() || !src.In(image.Rect(0, 0, n, n)) {
		return errors.New("votes: sizes differ")
	}
	var acc [2][]float32
	var err error
	for i := range acc {
		if acc[i], err = vt.acc[i].DataPtrFloat32(); err != nil {
			return err
		}
		if len(acc[i]) < n*n {
			return errors.New("votes: sizes differ")
		}
		for y := roi.Min.Y; y < roi.Max.Y; y++ {
			clear(acc[i][y*n+roi.Min.X : y*n+roi.Max.X])
		}
	}
	if src.Empty() {
		return nil
	}
	voteFrom := roi.Inset(-(int(math.Ceil(vt.radii[1])) + 1)).Intersect(src)
	simd := C.int(0)
	if votesSIMD {
		simd = 1
	}
	C.bc_votes((*C.float)(unsafe.Pointer(&vt.edge[0])), (*C.float)(unsafe.Pointer(&vt.ex[0])), (*C.float)(unsafe.Pointer(&vt.ey[0])), C.int(n),
		C.int(src.Min.X), C.int(src.Min.Y), C.int(src.Max.X), C.int(src.Max.Y),
		(*C.int32_t)(unsafe.Pointer(&vt.rowCols[0])), (*C.int32_t)(unsafe.Pointer(&vt.rowEnds[0])),
		C.int(voteFrom.Min.X), C.int(voteFrom.Min.Y), C.int(voteFrom.Max.X), C.int(voteFrom.Max.Y),
		C.int(roi.Min.X), C.int(roi.Min.Y), C.int(roi.Max.X), C.int(roi.Max.Y),
		C.float(float32(1/vt.sat)), C.float(float32(vt.radii[0])), C.float(float32(vt.radii[1])),
		(*C.float)(unsafe.Pointer(&acc[0][0])), (*C.float)(unsafe.Pointer(&acc[1][0])), simd)
	return nil
}

// fitGather is bc_fit_gather over the window [x0, x1]×[y0, y1] about (x,
// y): symmetryFit's points before any hidden ones are left out (in
// vt.pts).
func (vt *voter) fitGather(x0, y0, x1, y1 int, x, y, rr2 float64) []edgePt {
	need := (x1-x0+1)*(y1-y0+1) + 1
	if cap(vt.pts) < need {
		vt.pts = make([]edgePt, need)
	}
	p := vt.pts[:cap(vt.pts)]
	k := C.bc_fit_gather((*C.float)(unsafe.Pointer(&vt.edge[0])), (*C.float)(unsafe.Pointer(&vt.ex[0])), (*C.float)(unsafe.Pointer(&vt.ey[0])),
		C.int(vt.n), C.int(x0), C.int(y0), C.int(x1), C.int(y1), C.double(x), C.double(y), C.double(rr2), C.float(float32(2*vt.sat)),
		(*C.double)(unsafe.Pointer(&p[0])))
	return p[:k]
}

// fitSIMD selects bc_fit_sums' vector loop where there is one (tests
// compare it with the plain one).
var fitSIMD = true

// fitSums is bc_fit_sums over pts: symmetryFit's sums about (cx, cy).
func fitSums(pts []edgePt, cx, cy, lim2, rin2 float64, toFoot bool, ox, oy, c float64) (a00, a01, a11, b0, b1, wsum float64) {
	if len(pts) == 0 {
		return
	}
	var out [6]float64
	simd, tf := C.int(0), C.int(0)
	if fitSIMD {
		simd = 1
	}
	if toFoot {
		tf = 1
	}
	C.bc_fit_sums((*C.double)(unsafe.Pointer(&pts[0])), C.long(len(pts)), C.double(cx), C.double(cy), C.double(lim2), C.double(rin2), tf,
		C.double(ox), C.double(oy), C.double(c), (*C.double)(unsafe.Pointer(&out[0])), simd)
	return out[0], out[1], out[2], out[3], out[4], out[5]
}

// aboveSIMD selects bc_above's vector loop (tests compare it with the
// scalar one).
var aboveSIMD = true

// above returns the pixels of s (an n×n plane) within r, row by row, that
// are not below thr, as indices y·n + x (in vt.cand).
func (vt *voter) above(s []float32, r image.Rectangle, thr float32) []int32 {
	n := vt.n
	if r.Empty() || len(s) < n*n || !r.In(image.Rect(0, 0, n, n)) {
		return nil
	}
	if need := r.Dx()*r.Dy() + 3; cap(vt.cand) < need {
		vt.cand = make([]int32, need)
	}
	simd := C.int(0)
	if aboveSIMD {
		simd = 1
	}
	c := vt.cand[:cap(vt.cand)]
	k := C.bc_above((*C.float)(unsafe.Pointer(&s[0])), C.int(n), C.int(r.Min.X), C.int(r.Min.Y), C.int(r.Max.X), C.int(r.Max.Y), C.float(thr),
		(*C.int32_t)(unsafe.Pointer(&c[0])), simd)
	return c[:k]
}

// kthCells is bc_kth_cells: out[c] is the (6·n/10)-th smallest of cell
// c's n = cnt[c] values, v[per·c : per·c+n] with per = len(v)/len(cnt)
// (reordered), when n >= least, else −1: the cells' kthShort in one
// call.
func kthCells(v []float64, cnt []int32, least int, out []float64) {
	nc := len(cnt)
	if nc == 0 {
		return
	}
	per := len(v) / nc
	if len(out) < nc || per == 0 {
		panic("kthCells: sizes differ")
	}
	for _, n := range cnt {
		if n < 0 || int(n) > per {
			panic("kthCells: a count exceeds its cell")
		}
	}
	C.bc_kth_cells((*C.double)(unsafe.Pointer(&v[0])), (*C.int32_t)(unsafe.Pointer(&cnt[0])), C.long(nc), C.int(per), C.int(least),
		(*C.double)(unsafe.Pointer(&out[0])))
}

// blockDiffs is bc_diffs: the frame-to-frame differences of the blocks'
// means into b.diff, counted in hist.
func (b *background) blockDiffs(hist *[64]int) {
	nn := b.nb * b.nb
	if nn == 0 {
		return
	}
	cur, prev, diff := b.cur[:3*nn], b.prev[:3*nn], b.diff[:nn]
	C.bc_diffs((*C.float)(unsafe.Pointer(&cur[0])), (*C.float)(unsafe.Pointer(&prev[0])), (*C.float)(unsafe.Pointer(&diff[0])), C.long(nn),
		(*C.int64_t)(unsafe.Pointer(&hist[0])))
}

// changesSIMD selects bc_changes' vector loop where there is one (tests
// compare it with the plain one).
var changesSIMD = true

// blockChanges is bc_changes over the background's blocks with the
// noise threshold thr and the gain's inverse inv.
func (b *background) blockChanges(thr, inv float32) {
	nn := b.nb * b.nb
	if nn == 0 {
		return
	}
	cur, ref, bg, diff := b.cur[:3*nn], b.ref[:3*nn], b.bg[:3*nn], b.diff[:nn]
	changed, drift, stable, zone, fg := b.changed[:nn], b.drift[:nn], b.stable[:nn], b.zone[:nn], b.fg[:nn]
	simd := C.int(0)
	if changesSIMD {
		simd = 1
	}
	C.bc_changes((*C.float)(unsafe.Pointer(&cur[0])), (*C.float)(unsafe.Pointer(&ref[0])), (*C.float)(unsafe.Pointer(&bg[0])), (*C.float)(unsafe.Pointer(&diff[0])),
		C.int(b.nb), C.float(thr), C.float(inv),
		(*C.uint8_t)(unsafe.Pointer(&changed[0])), (*C.float)(unsafe.Pointer(&drift[0])), (*C.uint16_t)(unsafe.Pointer(&stable[0])),
		(*C.uint8_t)(unsafe.Pointer(&zone[0])), (*C.uint8_t)(unsafe.Pointer(&fg[0])), simd)
}
