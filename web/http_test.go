package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"image/jpeg"
	"io"
	"io/fs"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/clock/clocktest"
	"github.com/boardcam/boardcam/web"
	"github.com/boardcam/boardcam/web/webtest"
)

func TestHealthz(t *testing.T) {
	e := newEnv(t, nil)
	resp, body := e.get("/healthz", nil)
	var h web.Health
	if err := json.Unmarshal([]byte(body), &h); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !h.OK || h.Camera != "ok" || h.Calibration != "ok" {
		t.Errorf("healthy: %d %s", resp.StatusCode, body)
	}
	if err := e.srv.Publish(web.Camera{Status: web.CameraNoSignal, Message: "/dev/video0 gone"}); err != nil {
		t.Fatal(err)
	}
	resp, body = e.get("/healthz", nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, `"ok":false`) || !strings.Contains(body, "/dev/video0 gone") {
		t.Errorf("no camera: %d %s", resp.StatusCode, body)
	}
	_ = e.srv.Publish(web.Camera{Status: web.CameraOK})
	_ = e.srv.Publish(web.Calibration{Status: web.CalibrationLost})
	resp, body = e.get("/healthz", nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, `"calibration":"lost"`) || !strings.Contains(body, "not calibrated") {
		t.Errorf("calibration lost: %d %s", resp.StatusCode, body)
	}
}

// metricValue finds "name{labels} value" in the Prometheus text output.
func metricValue(t *testing.T, text, series string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`)
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Errorf("no series %s", series)
		return ""
	}
	return m[1]
}

func TestMetrics(t *testing.T) {
	e := newEnv(t, nil)
	c := e.dial(webtest.DialOptions{})
	e.playUntilPending()
	if _, err := c.WaitType(wait, web.TypePending); err != nil {
		t.Fatal(err)
	}
	resp, text := e.get("/metrics", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatal(resp.Status)
	}
	st := e.srv.Stats()
	want := map[string]string{
		"boardcam_ws_clients": "1",
		`boardcam_ws_messages_published_total{type="pending"}`: "1",
		"boardcam_ws_clients_dropped_total":                    "0",
	}
	for series, v := range want {
		if got := metricValue(t, text, series); got != v {
			t.Errorf("%s = %s, want %s", series, got, v)
		}
	}
	if st.Sent < st.Published || st.Published < 10 {
		t.Errorf("stats %+v", st)
	}
	if !strings.Contains(text, "go_goroutines") || !strings.Contains(text, "boardcam_ws_messages_sent_total") {
		t.Error("runtime or sent metrics missing")
	}
}

func TestPages(t *testing.T) {
	e := newEnv(t, nil)
	for path, want := range map[string]string{
		"/":                    "Umpire console",
		"/overlay":             `src="/static/overlay.js"`,
		"/umpire":              `src="/static/umpire.js"`,
		"/static/boardcam.js":  "export class Feed",
		"/static/overlay.css":  "transparent",
		"/static/umpire.css":   "#diagram",
		"/static/../server.go": "",
	} {
		resp, body := e.get(path, nil)
		if want == "" {
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s: %d, want 404", path, resp.StatusCode)
			}
			continue
		}
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("%s: %d, no %q", path, resp.StatusCode, want)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", path)
		}
		frameable := path == "/overlay"
		if got := resp.Header.Get("X-Frame-Options") == ""; got != frameable {
			t.Errorf("%s: X-Frame-Options %q", path, resp.Header.Get("X-Frame-Options"))
		}
	}
	if resp, _ := e.get("/static/boardcam.js", nil); !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("boardcam.js served as %q", resp.Header.Get("Content-Type"))
	}
}

// Everything the pages need is embedded: no CDN, no remote font, no
// inline script (the CSP would block it).
func TestPagesAreSelfContained(t *testing.T) {
	remote := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|@import\s+url\(\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//`)
	inline := regexp.MustCompile(`(?i)<script(?:[^>]*)>[^<]+</script>|\son[a-z]+\s*=\s*"|style\s*=\s*"`)
	err := filepath.WalkDir("static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if m := remote.Find(b); m != nil {
			t.Errorf("%s loads something remote: %s", path, m)
		}
		if strings.HasSuffix(path, ".html") {
			if m := inline.Find(b); m != nil {
				t.Errorf("%s has inline script or style: %s", path, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestBoardAPI(t *testing.T) {
	e := newEnv(t, nil)
	_, body := e.get("/api/board", nil)
	var m web.BoardMarkings
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	g := board.ICF()
	if m.Half != 370 || m.Frame != g.FrameWidth || len(m.Pockets) != 4 || len(m.BaseCircles) != 8 || len(m.Arrows) != 4 || len(m.FrontLines) != 4 {
		t.Errorf("markings %+v", m)
	}
	if se := g.Pocket(board.SE); m.PocketNames[1] != "SE" || m.Pockets[1].C[0] != se.C.X || m.Pockets[1].R != se.R {
		t.Errorf("SE pocket %+v, want %v", m.Pockets[1], se)
	}
	if bc := g.BaseCircles(board.S)[1]; m.BaseCircles[1].C[1] != float64(int(bc.C.Y*100+0.5))/100 {
		t.Errorf("S right base circle %+v, want %v", m.BaseCircles[1], bc)
	}
	if m.Radius["striker"] != g.StrikerDiameter/2 || m.Radius["white"] != g.ManDiameter/2 {
		t.Errorf("radii %v", m.Radius)
	}
}

// mjpeg reads parts of a multipart/x-mixed-replace stream.
type mjpeg struct {
	resp *http.Response
	mr   *multipart.Reader
}

func openPreview(t *testing.T, e *env) *mjpeg {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.base+"/preview.mjpg", nil)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("preview: %s", resp.Status)
	}
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/x-mixed-replace" || params["boundary"] == "" {
		t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
	}
	return &mjpeg{resp: resp, mr: multipart.NewReader(bufio.NewReader(resp.Body), params["boundary"])}
}

func (m *mjpeg) next(t *testing.T) []byte {
	t.Helper()
	p, err := m.mr.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	if p.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("part type %q", p.Header.Get("Content-Type"))
	}
	b, err := io.ReadAll(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPreviewStream(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.PreviewFPS = 5; c.PreviewWidth = 640 })
	p := openPreview(t, e)
	first := p.next(t)
	img, err := jpeg.Decode(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 360 {
		t.Errorf("preview is %v, want 640×360", b)
	}
	// The frame is annotated: the markings are drawn in the key's cyan
	// along the surface's left edge (the fake camera's board edge is at
	// x=340 of 1280, so 170 of 640).
	cyan := 0
	for y := 60; y < 300; y += 4 {
		for x := 166; x <= 174; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if g>>8 > 150 && b>>8 > 150 && r>>8 < 100 {
				cyan++
				break
			}
		}
	}
	if cyan < 40 {
		t.Errorf("the surface edge is marked on only %d of 60 rows", cyan)
	}
	// The stream is bounded by the ticker: a new camera frame goes out on
	// the next tick only. The fake camera changes when a step moves pieces.
	if _, err := e.fake.Step(); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(200 * time.Millisecond)
	second := p.next(t)
	if bytes.Equal(first, second) {
		t.Error("the second frame is the first again")
	}
	if got := metricCount(t, e, "boardcam_preview_clients"); got != "1" {
		t.Errorf("preview clients %s", got)
	}
}

func metricCount(t *testing.T, e *env, series string) string {
	_, text := e.get("/metrics", nil)
	return metricValue(t, text, series)
}

func TestPreviewLimits(t *testing.T) {
	e := newEnv(t, func(c *web.Config) { c.MaxPreviewClients = 1 })
	p := openPreview(t, e)
	p.next(t)
	resp, body := e.get("/preview.mjpg", nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "at most 1") {
		t.Errorf("second viewer: %d %s", resp.StatusCode, body)
	}
	// Without a frame source there is no preview (and no still).
	clock := clocktest.NewAt(t0)
	srv := &web.Server{Config: web.Config{Clock: clock}}
	if err := srv.Initialize(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	rec := &recorder{header: http.Header{}}
	req, _ := http.NewRequest(http.MethodGet, "/preview.mjpg", nil)
	srv.ServeHTTP(rec, req)
	if rec.code != http.StatusServiceUnavailable || !strings.Contains(rec.body.String(), "no camera") {
		t.Errorf("no frame source: %d %s", rec.code, rec.body.String())
	}
}

type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = 200
	}
	return r.body.Write(b)
}
func (r *recorder) WriteHeader(c int) { r.code = c }

func TestStillAndCalibrate(t *testing.T) {
	e := newEnv(t, nil)
	ck, csrf := e.login()
	if r, _ := e.post("/api/still", "", nil, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("still without login: %d", r.StatusCode)
	}
	if r, _ := e.post("/api/still", "", nil, ck); r.StatusCode != http.StatusForbidden {
		t.Errorf("still without the CSRF header: %d", r.StatusCode)
	}
	r, body := e.post("/api/still", "", map[string]string{"X-CSRF-Token": csrf}, ck)
	var info web.StillInfo
	if err := json.Unmarshal([]byte(body), &info); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("still: %d %s", r.StatusCode, body)
	}
	if info.Width != webtest.FrameWidth || info.Height != webtest.FrameHeight || info.ID == "" || info.Frame == 0 {
		t.Errorf("still %+v", info)
	}
	if r, _ := e.get(info.URL, nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("still image without login: %d", r.StatusCode)
	}
	r, img := e.get(info.URL, map[string]string{"Cookie": ck.Name + "=" + ck.Value})
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("still image: %d", r.StatusCode)
	}
	if cfg, err := jpeg.DecodeConfig(strings.NewReader(img)); err != nil || cfg.Width != 1280 || cfg.Height != 720 {
		t.Errorf("still image %+v %v", cfg, err)
	}

	c := e.dial(webtest.DialOptions{Session: ck, CSRF: csrf})
	corners := [][2]float64{{341, 59}, {939, 61}, {940, 660}, {339, 659}}
	reply, seen, _ := c.Do(web.Command{Name: web.CmdCalibrate, Still: info.ID, CornersPx: corners}, wait)
	if reply.Type != web.TypeAck {
		t.Fatalf("calibrate: %s %s", reply.Type, reply.Data)
	}
	m := findOrWait(t, c, seen, web.TypeCalibration)
	cal, _ := webtest.Decode[web.Calibration](m)
	if cal.Status != web.CalibrationManual || len(cal.CornersPx) != 4 || cal.CornersPx[2] != corners[2] {
		t.Errorf("calibration %+v", cal)
	}
	got := e.fake.Commands()
	if len(got) != 1 || got[0].StillFrame != info.Frame || got[0].Still != info.ID {
		t.Errorf("backend got %+v, want still frame %d", got, info.Frame)
	}
	// Corners outside the still are refused before reaching the backend.
	reply, _, _ = c.Do(web.Command{Name: web.CmdCalibrate, Still: info.ID, CornersPx: [][2]float64{{341, 59}, {1939, 61}, {940, 660}, {339, 659}}}, wait)
	if ed := errorOf(t, reply); !strings.Contains(ed.Message, "outside the 1280×720 frame") {
		t.Errorf("corner outside: %+v", ed)
	}
}
