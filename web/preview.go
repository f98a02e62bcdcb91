package web

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/internal/overlay"
)

// The preview: /preview.mjpg is a multipart MJPEG stream of the camera
// picture with the board markings as calibrated, the tracked pieces and the
// last foul drawn in. One goroutine draws and encodes each frame once, at
// most Config.PreviewFPS times a second and only while someone watches;
// every viewer gets the latest encoded frame (a slow viewer skips frames,
// it never holds anyone up).

type previewFrame struct {
	seq  int64
	jpeg []byte
}

type previewer struct {
	s *Server

	mu      sync.Mutex
	viewers int
	stop    chan struct{} // closed to stop the running loop; nil when idle
	latest  *previewFrame
	changed chan struct{} // closed and replaced when latest changes
	loops   sync.WaitGroup
}

func newPreviewer(s *Server) *previewer {
	return &previewer{s: s, changed: make(chan struct{})}
}

// join counts a viewer in, starting the drawing loop for the first.
func (p *previewer) join() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.viewers >= p.s.cfg.MaxPreviewClients {
		return false
	}
	p.viewers++
	p.s.Metrics.previewClients.Set(float64(p.viewers))
	if p.stop == nil {
		p.stop = make(chan struct{})
		p.loops.Add(1)
		go p.loop(p.stop)
	}
	return true
}

func (p *previewer) leave() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.viewers--
	p.s.Metrics.previewClients.Set(float64(p.viewers))
	if p.viewers == 0 && p.stop != nil {
		close(p.stop)
		p.stop = nil
		p.latest = nil
	}
}

func (p *previewer) wait() { p.loops.Wait() }

func (p *previewer) current() (*previewFrame, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.latest, p.changed
}

func (p *previewer) set(f *previewFrame) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.latest = f
	close(p.changed)
	p.changed = make(chan struct{})
}

// loop draws frames until stop is closed. Its picture lives as long as it
// does.
func (p *previewer) loop(stop chan struct{}) {
	defer p.loops.Done()
	cfg := &p.s.cfg
	pt := p.s.Painter
	raw := pt.NewImage()
	defer raw.Close()
	interval := time.Duration(float64(time.Second) / cfg.PreviewFPS)
	t := cfg.Clock.NewTicker(interval)
	defer t.Stop()
	var seq int64
	last := int64(-1)
	draw := func() {
		frameNo, ok := p.s.Frames.CopyFrame(raw)
		if !ok || raw.Empty() {
			if last == -1 {
				last = -2 // the placeholder once, until a frame comes
				seq++
				if b := placeholder(pt, "waiting for the camera"); b != nil {
					p.set(&previewFrame{seq, b})
				}
			}
			return
		}
		if frameNo == last {
			return // no new camera frame since the last tick
		}
		last = frameNo
		cols := raw.Cols()
		view := p.s.hub.viewCopy()
		b, _, _, err := pt.Encode(raw, cfg.PreviewWidth, cfg.PreviewQuality, func(w, h int) overlay.Drawing {
			return annotate(w, h, view, cfg.Board, float64(w)/float64(cols), frameNo)
		})
		if err != nil {
			return
		}
		seq++
		p.s.Metrics.previewFrames.Inc()
		p.set(&previewFrame{seq, b})
	}
	draw()
	for {
		select {
		case <-stop:
			return
		case <-p.s.ctx.Done():
			return
		case <-t.C():
			draw()
		}
	}
}

// placeholder is a grey frame with a line of text.
func placeholder(pt overlay.Painter, text string) []byte {
	img := pt.NewImage()
	defer img.Close()
	var d overlay.Drawing
	d.Text(image.Pt(40, 190), text, 1, color.RGBA{230, 230, 230, 255}, 2)
	pt.Fill(img, 640, 360, color.RGBA{60, 60, 60, 255}, d)
	b, _, _, err := pt.Encode(img, 0, 95, nil)
	if err != nil {
		return nil
	}
	return b
}

// Colours of the preview's drawing: the colour key of package overlay,
// the same as `boardcam detect --out`'s.
var (
	colMarking = overlay.Marking
	colFoul    = overlay.Foul
	colText    = overlay.Text
	colShade   = overlay.Shade
)

func pieceColour(k board.Kind) color.RGBA { return overlay.Kind(k) }

// previewLegend explains the key on the picture.
var previewLegend = append(overlay.Pieces(),
	overlay.Entry{Label: "markings", Colour: overlay.Marking, Swatch: overlay.Line},
	overlay.Entry{Label: "foul", Colour: overlay.Foul, Swatch: overlay.Disc})

// previewHomography maps board millimetres to pixels of the scaled frame.
func previewHomography(cal Calibration, g *board.Geometry, scale float64) (homography, error) {
	if cal.Homography != nil {
		return homography(*cal.Homography).scaled(scale), nil
	}
	if len(cal.CornersPx) != 4 {
		return homography{}, fmt.Errorf("calibration has %d corners", len(cal.CornersPx))
	}
	var src, dst [4][2]float64
	for i, c := range g.Corners() {
		src[i] = [2]float64{c.X, c.Y}
		dst[i] = cal.CornersPx[i]
	}
	h, err := homographyFrom(src, dst)
	if err != nil {
		return homography{}, err
	}
	return h.scaled(scale), nil
}

// annotate is the drawing of the markings, pieces and last foul over a
// w×h preview frame (scale: its size to the camera's).
func annotate(w, h int, v viewCopy, g *board.Geometry, scale float64, frameNo int64) (d overlay.Drawing) {
	status := "calibration: " + v.cal.Status
	defer func() {
		d.TextBox("boardcam  frame "+strconv.FormatInt(frameNo, 10)+"  "+status, 0.5, colText, 1, colShade, false)
	}()
	if !v.cal.Usable() {
		return d
	}
	defer d.Legend(previewLegend)
	hm, err := previewHomography(v.cal, g, scale)
	if err != nil {
		status += " (" + err.Error() + ")"
		return d
	}
	pt := func(p board.Vec) (image.Point, bool) {
		x, y, ok := hm.apply(p.X, p.Y)
		if !ok || math.Abs(x) > 1e5 || math.Abs(y) > 1e5 {
			return image.Point{}, false
		}
		return image.Pt(int(math.Round(x)), int(math.Round(y))), true
	}
	overlay.Board{D: &d, Project: pt}.Markings(g, colMarking, 2, 1)

	disc := func(p Piece, c color.RGBA, extra float64, th int) {
		centre := board.V(p.MM[0], p.MM[1])
		r := g.Radius(p.Kind) + extra
		pc, ok := pt(centre)
		pe, ok2 := pt(centre.Add(board.V(r, 0)))
		if !ok || !ok2 {
			return
		}
		rad := int(math.Round(math.Hypot(float64(pe.X-pc.X), float64(pe.Y-pc.Y))))
		d.Circle(pc, rad, c, th)
		if extra == 0 && p.ID != "" {
			d.Text(image.Pt(pc.X-rad/2, pc.Y+4), p.ID, 0.35, c, 1)
		}
	}
	for _, p := range v.pcs.Pieces {
		switch p.State {
		case PieceRest, PieceMoving, PieceHeld, "":
			disc(p, pieceColour(p.Kind), 0, 2)
		}
	}
	if f := v.lastFoul; f != nil {
		for _, p := range f.Evidence.Positions {
			disc(p, colFoul, 6, 3)
		}
		text := "FOUL " + f.Code + " (" + f.Seat.String() + ")"
		if f.Pending != "" {
			text = "FOUL? " + f.Code + " (" + f.Seat.String() + ") awaiting the umpire"
		}
		d.TextBox(text, 0.7, colFoul, 2, colShade, true)
	}
	return d
}

func (s *Server) servePreview(w http.ResponseWriter, r *http.Request) {
	if s.Frames == nil || s.Painter == nil {
		http.Error(w, "no camera source", http.StatusServiceUnavailable)
		return
	}
	p := s.preview
	if !p.join() {
		http.Error(w, fmt.Sprintf("too many preview viewers (at most %d)", s.cfg.MaxPreviewClients), http.StatusServiceUnavailable)
		return
	}
	defer p.leave()
	h := w.Header()
	h.Set("Content-Type", "multipart/x-mixed-replace; boundary=frame")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	// Each part ends with the next boundary, so a reader knows a frame is
	// complete as soon as it arrives (browsers also use Content-Length).
	_ = rc.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
	if _, err := io.WriteString(w, "--frame\r\n"); err != nil {
		return
	}
	var sent int64
	for {
		f, changed := p.current()
		if f != nil && f.seq != sent {
			sent = f.seq
			_ = rc.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
			if _, err := fmt.Fprintf(w, "Content-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n", len(f.jpeg)); err != nil {
				return
			}
			if _, err := w.Write(f.jpeg); err != nil {
				return
			}
			if _, err := io.WriteString(w, "\r\n--frame\r\n"); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
			continue // the frame may have changed while writing
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		}
	}
}

// Still frames for the console's manual calibration.

type still struct {
	id    string
	jpeg  []byte
	w, h  int
	frame int64
}

// stillStore keeps the last few stills taken.
type stillStore struct {
	mu   sync.Mutex
	n    int
	list []still
}

const keepStills = 4

func (st *stillStore) add(s still) still {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.n++
	s.id = "still-" + strconv.Itoa(st.n)
	if len(st.list) >= keepStills {
		st.list = st.list[1:]
	}
	st.list = append(st.list, s)
	return s
}

func (st *stillStore) get(id string) (still, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, s := range st.list {
		if s.id == id {
			return s, true
		}
	}
	return still{}, false
}

func (st *stillStore) size(id string) (int, int, bool) {
	s, ok := st.get(id)
	return s.w, s.h, ok
}

func (st *stillStore) frame(id string) int64 {
	s, _ := st.get(id)
	return s.frame
}

// StillInfo is POST /api/still's answer.
type StillInfo struct {
	ID     string `json:"id"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Frame  int64  `json:"frame"`
	URL    string `json:"url"`
}

// serveTakeStill holds the current camera frame for clicking corners on.
func (s *Server) serveTakeStill(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.authorized(w, r); !ok {
		return
	}
	if s.Frames == nil || s.Painter == nil {
		writeError(w, http.StatusServiceUnavailable, "no camera source")
		return
	}
	m := s.Painter.NewImage()
	defer m.Close()
	frame, ok := s.Frames.CopyFrame(m)
	if !ok || m.Empty() {
		writeError(w, http.StatusServiceUnavailable, "no camera frame yet")
		return
	}
	b, fw, fh, err := s.Painter.Encode(m, 0, 90, nil)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "encode still: %v", err)
		return
	}
	st := s.stills.add(still{jpeg: b, w: fw, h: fh, frame: frame})
	writeJSON(w, http.StatusOK, StillInfo{ID: st.id, Width: st.w, Height: st.h, Frame: st.frame, URL: "/api/still/" + st.id})
}

func (s *Server) serveStill(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.authorized(w, r); !ok {
		return
	}
	st, ok := s.stills.get(r.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, "no still %q (only the last %d are kept)", r.PathValue("id"), keepStills)
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Cache-Control", "private, max-age=3600")
	_, _ = w.Write(st.jpeg)
}
