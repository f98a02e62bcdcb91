package daemon

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/evidence"
	"github.com/boardcam/boardcam/match"
	"github.com/boardcam/boardcam/render/paint"
	"github.com/boardcam/boardcam/rules"
	"github.com/boardcam/boardcam/web"
)

// newTestEvidence is the adapter over a small replay buffer and a writer
// in a temporary directory, fed 3 s of 160×120 frames and one stroke.
func newTestEvidence(t *testing.T, ffmpeg string) (*evidenceKeeper, string) {
	t.Helper()
	dir := t.TempDir()
	m := NewMetrics(nil, time.Now())
	e := &evidenceKeeper{log: quietLogger(), geom: board.ICF(), fps: 30, pre: 30, prefix: "match-1", dir: filepath.Join(dir, "evidence"),
		players: map[board.Side]string{board.S: "Asha", board.N: "Ravi"}, items: map[string]*evItem{}, files: map[string]*evItem{},
		inPlay: -1, wake: func() {}}
	e.buf = &evidence.Buffer{Config: evidence.BufferConfig{Seconds: 8}, Painter: paint.Painter{}}
	if err := e.buf.Initialize(); err != nil {
		t.Fatal(err)
	}
	e.w = &evidence.Writer{Config: evidence.WriterConfig{Dir: filepath.Join(dir, "evidence"), FFmpeg: ffmpeg}, Painter: paint.Painter{}, Done: e.finished}
	if err := e.w.Initialize(); err != nil {
		t.Fatal(err)
	}
	e.initMetrics(m)
	e.startHands()
	t.Cleanup(e.Close)
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 120, 160, 0), 120, 160, gocv.MatTypeCV8UC3)
	defer img.Close()
	for i := 0; i < 90; i++ {
		gocv.Circle(&img, image.Pt(i, 60), 4, color.RGBA{255, 255, 255, 0}, -1)
		f := &Frame{Image: &img, Index: int64(i), PTS: time.Duration(i) * time.Second / 30}
		for !e.buf.Add(f.Image, f.Index, f.PTS) {
			_ = e.buf.Sync(5 * time.Second)
		}
		switch i {
		case 40:
			e.events([]events.Event{{Type: events.StrokeStart, Frame: 40}})
		case 80:
			e.events([]events.Event{{Type: events.StrokeEnd, Frame: 80}})
		}
		e.pieces(web.Pieces{Frame: int64(i), Pieces: []web.Piece{{ID: "S", Kind: board.Striker, MM: [2]float64{0, 250}, State: web.PieceMoving}}})
	}
	if err := e.buf.Sync(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	return e, dir
}

func handFoulPending() web.Pending {
	m := 16.97
	hand := [2]float64{-357.7, 333.7}
	f := web.Foul{Code: string(rules.FoulHandOverFoulLine), Seat: board.S, Frame: 60, Source: web.SourceAuto, Pending: "p3",
		Evidence: web.Evidence{Note: "the hand or arm of S went 17.0 mm beyond the imaginary line while striking", Marking: "imaginary line", MarginMM: &m, HandMM: &hand}}
	return web.Pending{ID: "p3", Frame: 80, Fouls: []web.Foul{f}, Stroke: &web.Stroke{Seat: board.S, Frame: 80}}
}

// waitMedia drains the adapter until the media of id is settled.
func waitMedia(t *testing.T, e *evidenceKeeper, id string) web.Media {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // ffmpeg on a busy machine; a guard, not a timing
	for time.Now().Before(deadline) {
		for _, m := range e.drain() {
			if m.ID == id {
				return m
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no evidence for %s", id)
	return web.Media{}
}

// A pending foul gets a plain heading, a still and a clip of its stroke;
// only the umpire may read them until it is decided; then the replay scene
// plays it.
func TestEvidenceOfAPendingFoul(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed")
	}
	e, dir := newTestEvidence(t, "")
	msgs := e.annotate([]web.Message{handFoulPending()})
	p := msgs[0].(web.Pending)
	if p.Heading != "Asha's hand or arm crossed the foul line, 17 mm" || p.Clean {
		t.Fatalf("heading %q clean %v", p.Heading, p.Clean)
	}
	if p.Media == nil || p.Media.Status != web.MediaPreparing || p.Media.Still != "/api/evidence/match-1-p3.jpg" {
		t.Fatalf("media at publication: %+v", p.Media)
	}
	m := waitMedia(t, e, "p3")
	if m.Status != web.MediaReady || m.Clip != "/api/evidence/match-1-p3.mp4" || m.Frame != 60 || m.Message != "" {
		t.Fatalf("media written: %+v", m)
	}
	// The stroke's frames, from 30 before its start (the placement) to
	// half a second after the rest.
	if m.Frames != 80 {
		t.Errorf("clip of %d frames, want 80 (10…95 asked, 10…89 kept)", m.Frames)
	}
	file, public, ok := e.EvidenceFile("match-1-p3.mp4")
	if !ok || public || file != filepath.Join(dir, "evidence", "match-1-p3.mp4") {
		t.Fatalf("before the decision: %q public %v ok %v", file, public, ok)
	}
	if _, ok := e.LastReplay(); ok {
		t.Fatal("a pending foul is offered to the replay scene")
	}
	e.annotate([]web.Message{web.Decided{ID: "p3", Decision: web.DecisionConfirmed}})
	if _, public, _ := e.EvidenceFile("match-1-p3.jpg"); !public {
		t.Fatal("decided, yet not public")
	}
	if r, ok := e.LastReplay(); !ok || r.ID != "p3" {
		t.Fatalf("replay: %+v %v", r, ok)
	}
	if _, _, ok := e.EvidenceFile("match-1-p9.jpg"); ok {
		t.Fatal("an unknown file is served")
	}
}

// After a restart the files of the match's earlier runs are served again:
// a decision still pending to the umpire only (and on its card, with its
// heading), the settled ones to everyone; a new run's foul at the same
// frame number gets files of its own.
func TestEvidenceOfEarlierRunsAfterARestart(t *testing.T) {
	e, dir := newTestEvidence(t, "/nonexistent/ffmpeg") // stills are enough
	e.annotate([]web.Message{handFoulPending()})
	waitMedia(t, e, "p3")
	pf := web.Foul{Code: string(rules.FoulPlacement), Seat: board.S, Frame: 70, Source: web.SourceAuto}
	e.annotate([]web.Message{pf})
	waitMedia(t, e, "f-70-placement")
	e.Close()

	// The restart: a new adapter on the same directory, p3 still pending.
	e2, _ := newTestEvidence(t, "/nonexistent/ffmpeg")
	e2.dir = filepath.Join(dir, "evidence")
	e2.w.Close()
	e2.w = &evidence.Writer{Config: evidence.WriterConfig{Dir: e2.dir, FFmpeg: "/nonexistent/ffmpeg"}, Painter: paint.Painter{}, Done: e2.finished}
	if err := e2.w.Initialize(); err != nil {
		t.Fatal(err)
	}
	pending := []match.Pending{{ID: "p3"}}
	e2.resync("/j/match-1.log", nil, pending)
	if _, public, ok := e2.EvidenceFile("match-1-p3.jpg"); !ok || public {
		t.Fatalf("the pending decision's still after the restart: ok %v public %v (want the umpire's only)", ok, public)
	}
	if file, public, ok := e2.EvidenceFile("match-1-f-70-placement.jpg"); !ok || !public || file != filepath.Join(e2.dir, "match-1-f-70-placement.jpg") {
		t.Fatalf("the settled foul's still after the restart: %q ok %v public %v", file, ok, public)
	}
	if _, _, ok := e2.EvidenceFile("match-1-p3.json"); ok {
		t.Fatal("the description is served")
	}
	snap := web.Snapshot{Pending: []web.Pending{handFoulPending()}}
	e2.snapshot(&snap)
	p := snap.Pending[0]
	if p.Media == nil || p.Media.Still != "/api/evidence/match-1-p3.jpg" || p.Media.Status != web.MediaReady || p.Media.Heading != p.Heading ||
		p.Heading != "Asha's hand or arm crossed the foul line, 17 mm" || strings.Contains(p.Fouls[0].Evidence.Note, "[") {
		t.Fatalf("the restored pending card: heading %q media %+v", p.Heading, p.Media)
	}
	// A new run's foul at frame 70 does not take the earlier one's files.
	msgs := e2.annotate([]web.Message{pf})
	if m := msgs[0].(web.Foul).Media; m == nil || m.Still != "/api/evidence/match-1-f-70-placement-2.jpg" {
		t.Fatalf("a new foul at the same frame: %+v", m)
	}
	waitMedia(t, e2, "f-70-placement")
	if _, public, ok := e2.EvidenceFile("match-1-f-70-placement.jpg"); !ok || !public {
		t.Fatal("the earlier foul's still was replaced")
	}
	e2.annotate([]web.Message{web.Decided{ID: "p3", Decision: web.DecisionConfirmed}})
	if _, public, _ := e2.EvidenceFile("match-1-p3.jpg"); !public {
		t.Fatal("decided after the restart, yet not public")
	}
	// Another match's files are not this one's.
	e2.resync("/j/match-2.log", nil, nil)
	if _, _, ok := e2.EvidenceFile("match-2-p3.jpg"); ok {
		t.Fatal("a file of match-1 is served as match-2's")
	}
}

// Without ffmpeg the still is written, the clip skipped with its reason
// and a metric, and the decision goes out as always.
func TestEvidenceWithoutFFmpeg(t *testing.T) {
	e, _ := newTestEvidence(t, "/nonexistent/ffmpeg")
	e.annotate([]web.Message{handFoulPending()})
	m := waitMedia(t, e, "p3")
	if m.Status != web.MediaReady || m.Still == "" || m.Clip != "" || !strings.Contains(m.Message, "ffmpeg") {
		t.Fatalf("media: %+v", m)
	}
	var dm dto.Metric
	if err := e.failed.WithLabelValues("ffmpeg").Write(&dm); err != nil || dm.GetCounter().GetValue() != 1 {
		n := dm.GetCounter().GetValue()
		t.Fatalf("boardcam_evidence_skipped_total{reason=ffmpeg} = %v", n)
	}
}

func TestEvidenceHeadings(t *testing.T) {
	e := &evidenceKeeper{players: map[board.Side]string{board.S: "Asha", board.N: "Ravi"}}
	m := 3.25
	for _, c := range []struct {
		f    web.Foul
		want string
	}{
		{web.Foul{Code: "striker_pocketed", Seat: board.N}, "Ravi pocketed the striker"},
		{web.Foul{Code: "cut_moon", Seat: board.S, Evidence: web.Evidence{MarginMM: &m, Marking: "base circle S left"}}, "Asha's striker cut the base circle, 3.2 mm"},
		{web.Foul{Code: "touched_piece", Seat: board.S, Evidence: web.Evidence{MarginMM: &m}}, "Asha touched a piece"},
		{web.Foul{Code: "talking", Seat: board.S, Text: "talking during play"}, "Asha: talking during play"},
		{web.Foul{Code: "hand_over_foul_line", Seat: board.E, Evidence: web.Evidence{Note: "the arm of E went 4 mm beyond"}}, "E's arm crossed the foul line"},
		// The heading of a foul comes from its description (package foul).
		{web.Foul{Code: "adjacent_arrow_coin", Seat: board.N, Evidence: web.Evidence{MarginMM: &m, Marking: "arrow NE"}}, "Ravi's striker hit a coin on the adjacent arrow, 3.2 mm"},
	} {
		if got := e.foulHeading(c.f); got != c.want {
			t.Errorf("%s: %q, want %q", c.f.Code, got, c.want)
		}
	}
	h, clean := e.pendingHeading(web.Pending{Stroke: &web.Stroke{Seat: board.N, Pocketed: web.Pocketed{White: 2, Queen: true}}})
	if h != "Ravi's stroke: pocketed 2 white and the queen" || !clean {
		t.Errorf("clean stroke: %q %v", h, clean)
	}
	h, clean = e.pendingHeading(web.Pending{Stroke: &web.Stroke{Seat: board.S}, Doubts: []web.Doubt{{Reason: "frames 512–530 were not analysed"}}})
	if !strings.Contains(h, "not sure (frames 512–530 were not analysed)") || clean {
		t.Errorf("uncertain stroke: %q %v", h, clean)
	}
	for _, h := range []string{h} {
		if strings.Contains(h, "mm [") || strings.Contains(h, "[-") {
			t.Errorf("coordinates in a heading: %q", h)
		}
	}
}

func TestPlainRemovesCoordinates(t *testing.T) {
	for in, want := range map[string]string{
		"the striker stood at [-101.0, 248.4] on N's base line, not S's":                                    "the striker stood on N's base line, not S's",
		"the striker hit W3, lying on or behind S's front line at [12.5, 200.0], before crossing that line": "the striker hit W3, lying on or behind S's front line, before crossing that line",
		"W4 was placed at [1, 2], 3.5 mm outside the outer circle":                                          "W4 was placed, 3.5 mm outside the outer circle",
		"the hand of S went 17.0 mm beyond the imaginary line":                                              "the hand of S went 17.0 mm beyond the imaginary line",
	} {
		if got := plain(in); got != want {
			t.Errorf("plain(%q) = %q, want %q", in, got, want)
		}
	}
}

// The umpire's corners are saved when given and come back for a frame of
// the same size only.
func TestManualCalibrationSavedForARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), ManualCalibration)
	a := &VisionAnalyzer{Saved: path}
	a.size = calibrate.Size{W: 1280, H: 720}
	c := [4][2]float64{{10, 20}, {1200, 22}, {1190, 700}, {15, 690}}
	if err := a.Calibrate(c); err != nil {
		t.Fatal(err)
	}
	sc, err := LoadCorners(path)
	if err != nil || sc.CornersPx != c || sc.Width != 1280 || sc.Height != 720 {
		t.Fatalf("saved %+v, %v", sc, err)
	}
	b := &VisionAnalyzer{}
	b.UseSaved(sc)
	if b.manual == nil || *b.manual != c || b.manualSize != (calibrate.Size{W: 1280, H: 720}) {
		t.Fatalf("not used: %+v", b)
	}
	if _, err := LoadCorners(filepath.Join(t.TempDir(), "none.json")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

// The console's match sheet is the journal's, in PDF and CSV.
func TestWriteSheetFromTheJournal(t *testing.T) {
	cfg := testConfig(t)
	h, err := cfg.Header()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	j, err := match.CreateJournal(dir, h, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	path := j.Path()
	j.Close()
	var pdf, csv bytes.Buffer
	if err := writeSheet(&pdf, path, "pdf"); err != nil || !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) {
		t.Fatalf("pdf: %v (%d bytes)", err, pdf.Len())
	}
	if err := writeSheet(&csv, path, "csv"); err != nil || !strings.Contains(csv.String(), "South") {
		t.Fatalf("csv: %v\n%s", err, csv.String())
	}
	if err := writeSheet(&csv, "", "pdf"); err == nil {
		t.Fatal("a sheet without a journal")
	}
}

// The still shows the hands' outlines of the very frame it shows, as the
// vision's hand stage found them (computed once, off the pipeline); a
// frame without hands gets none.
func TestEvidenceStillHasTheHandsOfItsFrame(t *testing.T) {
	e, _ := newTestEvidence(t, "/nonexistent/ffmpeg")
	calls := 0
	outline := [][2]float64{{10, 10}, {60, 10}, {60, 50}, {10, 50}}
	e.hands(59, func() [][][2]float64 { calls++; return [][][2]float64{{{0, 0}, {1, 0}, {1, 1}}} })
	e.hands(60, func() [][][2]float64 { calls++; return [][][2]float64{outline} })
	e.hands(61, nil)
	e.syncHands()
	e.mu.Lock()
	got := e.handsAt(60)
	none := e.handsAt(62)
	e.mu.Unlock()
	if len(got) != 1 || got[0][1] != outline[1] || none != nil || calls != 2 {
		t.Fatalf("frame 60: %v; frame 62: %v; %d computed", got, none, calls)
	}
	// Through a request: the hand foul at frame 60 (handFoulPending).
	e.mu.Lock()
	frames := e.buf.Frames(10, 95)
	still := int64(-1)
	for _, f := range frames {
		if f.Index == 60 {
			still = 60
		}
	}
	e.mu.Unlock()
	if still != 60 {
		t.Skip("frame 60 was not kept by the replay buffer")
	}
	e.annotate([]web.Message{handFoulPending()})
	m := waitMedia(t, e, "p3")
	if m.Frame != 60 || m.Still == "" {
		t.Fatalf("media: %+v", m)
	}
	if calls != 2 {
		t.Fatalf("outlines computed %d times in all, want once per frame with hands (2)", calls)
	}
	// The still is shaded red inside the outline, not beside it.
	file, _, _ := e.EvidenceFile(filepath.Base(m.Still))
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	in := color.RGBAModel.Convert(img.At(35, 30)).(color.RGBA)
	out := color.RGBAModel.Convert(img.At(100, 30)).(color.RGBA)
	if int(in.R)-int(in.G) < int(out.R)-int(out.G)+60 {
		t.Fatalf("inside the hand's outline %v, beside it %v: not shaded red", in, out)
	}
}

// The stills draw the board through the calibration the daemon publishes
// (it reaches the keeper beside the messages it annotates).
func TestEvidenceSceneFollowsTheCalibration(t *testing.T) {
	e, _ := newTestEvidence(t, "/nonexistent/ffmpeg")
	e.mu.Lock()
	before := e.scene(60, nil, "h", nil)
	e.mu.Unlock()
	if before.H != nil {
		t.Fatal("a board drawn before any calibration")
	}
	h := [9]float64{0.1, 0, 80, 0, 0.1, 60, 0, 0, 1}
	e.calibration(web.Calibration{Status: web.CalibrationOK, Homography: &h, Width: 160, Height: 120})
	e.mu.Lock()
	after := e.scene(60, nil, "h", nil)
	e.mu.Unlock()
	if after.H == nil || after.CalW != 160 {
		t.Fatalf("after the calibration: H %v, CalW %d", after.H, after.CalW)
	}
	var off *evidenceKeeper
	off.calibration(web.Calibration{}) // evidence off: nothing to do
}
