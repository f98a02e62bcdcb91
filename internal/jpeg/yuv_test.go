package jpeg

import (
	"bytes"
	"testing"
)

// EncodeYUV420 compresses planes as libjpeg compresses its own: given the
// YCbCr 4:2:0 planes libjpeg makes from a BGR picture (its fixed-point
// JFIF conversion, then 2×2 averages with its alternating rounding, the
// right and bottom edges repeated), the JPEG is the bytes Encode gives
// for that picture when it fills whole MCUs (16×16 pixels).
func TestEncodeYUV420AsLibjpegFromBGR(t *testing.T) {
	imgs := testImages(t)
	defer func() {
		for _, m := range imgs {
			m.Close()
		}
	}()
	for name, m := range imgs {
		pix, _ := m.DataPtrUint8()
		w, h, stride := m.Cols(), m.Rows(), m.Step()
		y, cb, cr, cStride := libjpegPlanes(pix, w, h, stride)
		for _, q := range []int{50, 80, 95} {
			want, err := Encode(pix, w, h, stride, BGR, q)
			if err != nil {
				t.Fatal(err)
			}
			got, err := EncodeYUV420(y, cb, cr, w, h, w, cStride, q)
			if err != nil {
				t.Fatalf("%s q%d: %v", name, q, err)
			}
			if w%16 == 0 && h%16 == 0 {
				if !bytes.Equal(got, want) {
					t.Errorf("%s q%d: %d bytes from the planes, %d from BGR: not the same", name, q, len(got), len(want))
				}
				continue
			}
			// Partial MCUs: libjpeg pads chroma from the full-size
			// picture, which the planes no longer have; they repeat
			// their own edge. Only the padding differs: the picture
			// decodes as the BGR path's within 1% of what the JPEG
			// itself loses.
			a, _, _, err := Decode(got, BGR)
			if err != nil {
				t.Fatal(err)
			}
			b, _, _, err := Decode(want, BGR)
			if err != nil {
				t.Fatal(err)
			}
			diff, loss := 0, 0
			for r := 0; r < h; r++ {
				for c := 0; c < 3*w; c++ {
					diff += abs(int(a[r*3*w+c]) - int(b[r*3*w+c]))
					loss += abs(int(b[r*3*w+c]) - int(pix[r*stride+c]))
				}
			}
			t.Logf("%s q%d: |planes − BGR| %.3f, the JPEG's own loss %.3f levels", name, q, float64(diff)/float64(3*w*h), float64(loss)/float64(3*w*h))
			if diff*100 > loss {
				t.Errorf("%s q%d: decoded, the planes' JPEG differs from the BGR path's by %.3f levels, more than 1%% of the JPEG's own loss %.3f", name, q, float64(diff)/float64(3*w*h), float64(loss)/float64(3*w*h))
			}
		}
	}
	if _, err := EncodeYUV420(make([]byte, 10), make([]byte, 4), make([]byte, 4), 4, 4, 4, 2, 80); err == nil {
		t.Error("planes too short: no error")
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// libjpegPlanes is what libjpeg makes of a BGR picture before its DCT
// (jccolor.c rgb_ycc_convert, jcsample.c h2v2_downsample with
// expand_right_edge and the preprocessor's bottom rows repeated).
func libjpegPlanes(pix []byte, w, h, stride int) (y, cb, cr []byte, cStride int) {
	const (
		shift = 16
		half  = 1 << (shift - 1)
		off   = 128 << shift
	)
	fix := func(x float64) int { return int(x*(1<<shift) + 0.5) }
	full := func() []int { return make([]int, w*h) }
	Y, Cb, Cr := full(), full(), full()
	y = make([]byte, w*h)
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			p := pix[r*stride+3*c:]
			b, g, rd := int(p[0]), int(p[1]), int(p[2])
			i := r*w + c
			Y[i] = (fix(0.29900)*rd + fix(0.58700)*g + fix(0.11400)*b + half) >> shift
			Cb[i] = (-fix(0.16874)*rd - fix(0.33126)*g + fix(0.5)*b + off + half - 1) >> shift
			Cr[i] = (fix(0.5)*rd - fix(0.41869)*g - fix(0.08131)*b + off + half - 1) >> shift
			y[i] = byte(Y[i])
		}
	}
	cw, ch := (w+1)/2, (h+1)/2
	at := func(p []int, r, c int) int { return p[min(r, h-1)*w+min(c, w-1)] }
	down := func(p []int) []byte {
		out := make([]byte, cw*ch)
		for r := 0; r < ch; r++ {
			for c := 0; c < cw; c++ {
				bias := 1 + c%2
				s := at(p, 2*r, 2*c) + at(p, 2*r, 2*c+1) + at(p, 2*r+1, 2*c) + at(p, 2*r+1, 2*c+1)
				out[r*cw+c] = byte((s + bias) >> 2)
			}
		}
		return out
	}
	return y, down(Cb), down(Cr), cw
}
