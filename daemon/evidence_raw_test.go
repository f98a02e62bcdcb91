package daemon

import (
	"bytes"
	"image"
	"image/jpeg"
	"sort"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/frames/libav"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/render/paint"
)

// A video file's frame waits in the replay buffer's slot as the decoder
// made it (YUV 4:2:0, half the bytes of its BGR picture) and is scaled
// to the kept size straight from YUV when compressed. Its JPEG is not the
// bytes the BGR path gave (swscale's bicubic scaling, not a bicubic
// conversion then OpenCV's linear resize) but the same picture within
// what the JPEG itself loses: here, on frames of the demo, both are decoded and compared
// value by value (docs/memory.md has the figures).
func TestReplayFramesKeptAsDecodedAndScaledFromYUV(t *testing.T) {
	v, err := libav.Open("../testdata/videos/demo.mp4")
	if err != nil {
		t.Skip(err)
	}
	defer v.Close()
	rp := &rawPainter{Painter: paint.Painter{}, pics: testSight.Pictures}
	defer rp.close()
	slot := rp.NewImage()
	defer slot.Close()
	pic := libav.NewPicture()
	defer pic.Close()
	bgr := testSight.Pictures.NewImage()
	defer bgr.Close()
	var conv libav.Converter
	defer conv.Close()
	var diffs []int
	sum, frames := 0, 0
	loss, lossN := 0, 0 // the JPEG's own loss: the BGR path's JPEG against its pixels
	lossRaw := 0        // the YUV path's JPEG against the same pixels
	for i := 0; i < 100; i++ {
		if err := v.NextPicture(pic); err != nil {
			t.Fatal(err)
		}
		if i%20 != 0 {
			continue
		}
		w, h := pic.Size()
		buf, err := testSight.Pictures.BGR(bgr, w, h)
		if err != nil {
			t.Fatal(err)
		}
		if err := conv.Convert(pic, buf); err != nil {
			t.Fatal(err)
		}
		rp.Copy(slot, rawFrame{pic})
		s := slot.(*rawSlot)
		if s.raw.Empty() || !s.img.Empty() || s.raw.Bytes() > w*h*3/2+4096 {
			t.Fatalf("frame %d: the slot holds raw %v (%d bytes), BGR %v", i, !s.raw.Empty(), s.raw.Bytes(), !s.img.Empty())
		}
		got, gw, gh, err := rp.Encode(slot, 960, 80, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Compressed from the scaled YCbCr planes: no BGR picture made.
		if rp.work != nil || len(rp.yuv) != 960*540*3/2 {
			t.Fatalf("frame %d: the painter holds a BGR picture %v and %d bytes of planes, want none and %d", i, rp.work != nil, len(rp.yuv), 960*540*3/2)
		}
		want, ww, wh, err := paint.Painter{}.Encode(bgr, 960, 80, nil)
		if err != nil || gw != ww || gh != wh || gw != 960 || gh != 540 {
			t.Fatalf("frame %d: %dx%d from YUV, %dx%d from BGR (%v)", i, gw, gh, ww, wh, err)
		}
		a, b := decode(t, got), decode(t, want)
		m := bgr.(*gocv.Mat)
		small := gocv.NewMat()
		gocv.Resize(*m, &small, image.Pt(960, 540), 0, 0, gocv.InterpolationLinear)
		px, _ := small.DataPtrUint8()
		for j := 0; j < len(px); j += 3 {
			for c := 0; c < 3; c++ { // BGR against RGBA
				d := int(px[j+c]) - int(b.Pix[j/3*4+2-c])
				if d < 0 {
					d = -d
				}
				loss += d
				lossN++
				e := int(px[j+c]) - int(a.Pix[j/3*4+2-c])
				if e < 0 {
					e = -e
				}
				lossRaw += e
			}
		}
		small.Close()
		for j := range a.Pix {
			if j%4 == 3 {
				continue
			}
			d := int(a.Pix[j]) - int(b.Pix[j])
			if d < 0 {
				d = -d
			}
			diffs = append(diffs, d)
			sum += d
		}
		frames++
	}
	sort.Ints(diffs)
	mean := float64(sum) / float64(len(diffs))
	p99, max := diffs[len(diffs)*99/100], diffs[len(diffs)-1]
	own := float64(loss) / float64(lossN)
	t.Logf("%d frames of the demo at 960x540: |YUV path − BGR path| mean %.2f, p99 %d, max %d levels of 255; the JPEG's own loss (BGR path) mean %.2f; the YUV path's JPEG against the BGR path's pixels %.2f", frames, mean, p99, max, own, float64(lossRaw)/float64(lossN))
	if mean > 1.5*own || p99 > 10 {
		t.Errorf("the replay frames from YUV differ from the BGR path's by more than JPEG loses: mean %.2f (JPEG %.2f), p99 %d levels", mean, own, p99)
	}
	// A drawing is made on a BGR picture: scaled to BGR from YUV, then
	// drawn and compressed by the wrapped Painter.
	drawn, dw, dh, err := rp.Encode(slot, 960, 80, func(w, h int) overlay.Drawing {
		return overlay.Drawing{}
	})
	if err != nil || dw != 960 || dh != 540 || rp.work == nil || rp.work.Cols() != 960 {
		t.Fatalf("with a drawing: %dx%d, %v; BGR picture %v", dw, dh, err, rp.work != nil)
	}
	if d := decode(t, drawn); d.Bounds().Dx() != 960 {
		t.Fatalf("with a drawing: a %v JPEG", d.Bounds())
	}
	// A camera's BGR frame goes to the wrapped Painter: the bytes as before.
	rp.Copy(slot, bgr)
	if s := slot.(*rawSlot); !s.raw.Empty() || s.img.Cols() != 1280 {
		t.Fatalf("a BGR frame: raw %v, BGR %d wide", !s.raw.Empty(), s.img.Cols())
	}
	got, _, _, _ := rp.Encode(slot, 960, 80, nil)
	want, _, _, _ := paint.Painter{}.Encode(bgr, 960, 80, nil)
	if !bytes.Equal(got, want) {
		t.Error("a BGR frame's JPEG differs from the wrapped Painter's")
	}
}

func decode(t *testing.T, b []byte) *image.RGBA {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out := image.NewRGBA(img.Bounds())
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}
