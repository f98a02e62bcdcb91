package daemon

import (
	"image/color"
	"math"
	"sync"

	"github.com/boardcam/boardcam/frames/libav"
	"github.com/boardcam/boardcam/internal/jpeg"
	"github.com/boardcam/boardcam/internal/overlay"
	"github.com/boardcam/boardcam/sight"
)

// rawPainter is the replay buffer's Painter: a frame the queue holds as the
// decoder made it (Frame.Raw, YUV 4:2:0 from a video file) is kept in the
// compressor's slot as it is, 1.38 MB at 720p instead of its 2.76 MB BGR
// picture, and when compressed it is scaled to the kept size straight
// into a JPEG's YCbCr 4:2:0 planes (libav.Converter.ScaleYUV420), which
// libjpeg compresses as they are (jpeg.EncodeYUV420): 0.78 MB of planes
// at 960×540, reused for every frame, instead of a 1.55 MB BGR picture.
// A drawing on the frame needs BGR: then it is scaled into a BGR picture
// (libav.Converter.Scale) for the wrapped Painter. Other frames (cameras:
// BGR) go to the Painter it wraps as before. Its pictures are *rawSlot;
// Encode is the compressor's (one goroutine).
type rawPainter struct {
	overlay.Painter
	pics sight.Pictures

	mu   sync.Mutex
	conv libav.Converter
	yuv  []byte      // the scaled YCbCr planes of a raw slot
	work sight.Image // the scaled BGR picture of a raw slot with a drawing
}

// rawFrame is a queue's raw frame handed to the replay buffer (AddFunc):
// only rawPainter.Copy reads it.
type rawFrame struct{ p *libav.Picture }

func (r rawFrame) Rows() int    { _, h := r.p.Size(); return h }
func (r rawFrame) Cols() int    { w, _ := r.p.Size(); return w }
func (r rawFrame) Empty() bool  { return r.p.Empty() }
func (r rawFrame) Close() error { return nil } // the queue's

// rawSlot is a slot of the replay buffer: a raw frame, or a picture of
// the wrapped Painter.
type rawSlot struct {
	raw *libav.Picture
	img sight.Image
}

func (s *rawSlot) Rows() int {
	if !s.raw.Empty() {
		_, h := s.raw.Size()
		return h
	}
	return s.img.Rows()
}

func (s *rawSlot) Cols() int {
	if !s.raw.Empty() {
		w, _ := s.raw.Size()
		return w
	}
	return s.img.Cols()
}

func (s *rawSlot) Empty() bool { return s.raw.Empty() && s.img.Empty() }

func (s *rawSlot) Close() error {
	s.raw.Close()
	return s.img.Close()
}

// NewImage implements overlay.Painter.
func (p *rawPainter) NewImage() sight.Image {
	return &rawSlot{raw: libav.NewPicture(), img: p.Painter.NewImage()}
}

// Copy implements overlay.Painter: a raw frame's planes, or a picture.
func (p *rawPainter) Copy(dst, src sight.Image) {
	d, ok := dst.(*rawSlot)
	if !ok {
		p.Painter.Copy(dst, src)
		return
	}
	if r, ok := src.(rawFrame); ok && !r.p.Empty() {
		if err := d.raw.CopyFrom(r.p); err == nil {
			if !d.img.Empty() {
				d.img.Close()
				d.img = p.Painter.NewImage()
			}
			return
		}
		d.raw.Release() // a failed copy: nothing kept
		return
	}
	d.raw.Release()
	p.Painter.Copy(d.img, src)
}

// Encode implements overlay.Painter: a raw slot scaled to at most maxWidth
// pixels wide from YUV and compressed from its YCbCr planes, or, with a
// drawing, scaled to BGR and compressed by the wrapped Painter.
func (p *rawPainter) Encode(img sight.Image, maxWidth, quality int, draw func(w, h int) overlay.Drawing) ([]byte, int, int, error) {
	s, ok := img.(*rawSlot)
	if !ok {
		return p.Painter.Encode(img, maxWidth, quality, draw)
	}
	if s.raw.Empty() {
		return p.Painter.Encode(s.img, maxWidth, quality, draw)
	}
	w, h := s.raw.Size()
	if maxWidth > 0 && w > maxWidth {
		w, h = maxWidth, int(math.Round(float64(h)*float64(maxWidth)/float64(w)))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if draw == nil {
		cw, ch := (w+1)/2, (h+1)/2
		if n := w*h + 2*cw*ch; cap(p.yuv) < n {
			p.yuv = make([]byte, n)
		}
		y := p.yuv[:w*h]
		cb := p.yuv[w*h : w*h+cw*ch]
		cr := p.yuv[w*h+cw*ch : w*h+2*cw*ch]
		if err := p.conv.ScaleYUV420(s.raw, y, cb, cr, w, h); err != nil {
			return nil, 0, 0, err
		}
		b, err := jpeg.EncodeYUV420(y, cb, cr, w, h, w, cw, quality)
		return b, w, h, err
	}
	if p.work == nil {
		p.work = p.pics.NewImage()
	}
	buf, err := p.pics.BGR(p.work, w, h)
	if err != nil {
		return nil, 0, 0, err
	}
	if err := p.conv.Scale(s.raw, buf, w, h); err != nil {
		return nil, 0, 0, err
	}
	return p.Painter.Encode(p.work, maxWidth, quality, draw)
}

// Fill implements overlay.Painter.
func (p *rawPainter) Fill(dst sight.Image, w, h int, bg color.RGBA, d overlay.Drawing) {
	if s, ok := dst.(*rawSlot); ok {
		s.raw.Release()
		dst = s.img
	}
	p.Painter.Fill(dst, w, h, bg, d)
}

// close frees the scaled picture and the converter (after the buffer's
// Close: no Encode runs).
func (p *rawPainter) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conv.Close()
	p.yuv = nil
	if p.work != nil {
		p.work.Close()
		p.work = nil
	}
}
