package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render"
)

// renderedOpening writes a rendered 1280×720 frame of the opening
// arrangement (breaker at E) into dir and returns its path and the
// renderer's true surface corners. The frame is rendered once per test
// binary (the renderer's textures take seconds) and copied.
func renderedOpening(t *testing.T, dir string) (string, [4][2]float64) {
	t.Helper()
	opening.once.Do(func() {
		r, err := render.New(render.DefaultSettings(), board.ICF(), 3)
		if err != nil {
			opening.err = err
			return
		}
		defer r.Close()
		m := gocv.NewMat()
		defer m.Close()
		if opening.err = r.Render(render.OpeningScene(board.ICF(), board.E), &m); opening.err != nil {
			return
		}
		tmp, err := os.MkdirTemp("", "boardcam-test-opening-")
		if err != nil {
			opening.err = err
			return
		}
		opening.path = filepath.Join(tmp, "opening.png")
		opening.err = render.WriteImage(opening.path, m)
		opening.corners = r.CameraAt(0).Corners(board.ICF())
		b, err := os.ReadFile(opening.path)
		os.RemoveAll(tmp)
		if opening.err == nil {
			opening.png, opening.err = b, err
		}
	})
	if opening.err != nil {
		t.Fatal(opening.err)
	}
	path := filepath.Join(dir, "opening.png")
	if err := os.WriteFile(path, opening.png, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, opening.corners
}

var opening struct {
	once    sync.Once
	png     []byte
	path    string
	corners [4][2]float64
	err     error
}

func TestDetectImage(t *testing.T) {
	dir := t.TempDir()
	img, corners := renderedOpening(t, dir)
	out := filepath.Join(dir, "found.png")
	code, stdout, stderr := runCmd(t, "", "detect", img, "--json", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res detectOutput
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(res.Pieces) != 20 || res.Counts["white"] != 9 || res.Counts["black"] != 9 || res.Counts["queen"] != 1 || res.Counts["striker"] != 1 {
		t.Errorf("found %d pieces: %v", len(res.Pieces), res.Counts)
	}
	for i, c := range res.CornersPx {
		if d := math.Hypot(c[0]-corners[i][0], c[1]-corners[i][1]); d > 2 {
			t.Errorf("corner %d at %v, truth %v", i, c, corners[i])
		}
	}
	// the striker lies on E's base line (x ≈ 230 mm), the queen in the middle
	for _, p := range res.Pieces {
		switch p.Piece {
		case "striker":
			if math.Abs(p.MM[0]-board.ICF().BaseCircleY()) > 3 || math.Abs(p.MM[1]) > 3 || p.RadiusPx < 14 {
				t.Errorf("striker at %v mm, radius %.1f px", p.MM, p.RadiusPx)
			}
		case "queen":
			if math.Hypot(p.MM[0], p.MM[1]) > 2 {
				t.Errorf("queen at %v mm", p.MM)
			}
		}
	}
	if res.Classes != "opening" || res.Breaker == nil || res.Breaker.Side != "E" {
		t.Errorf("classes from %q, breaker %+v (want opening, E)", res.Classes, res.Breaker)
	}
	drawn := gocv.IMRead(out, gocv.IMReadColor)
	defer drawn.Close()
	if drawn.Cols() != 1280 || drawn.Rows() != 720 {
		t.Errorf("--out wrote a %dx%d image", drawn.Cols(), drawn.Rows())
	}
	// the human summary
	code, stdout, stderr = runCmd(t, "", "detect", img)
	if code != 0 || !strings.Contains(stdout, "found        20 discs: 9 white, 9 black, 1 queen, 1 striker") || !strings.Contains(stdout, "side E") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// A video of three frames: the rendered opening's (renderedOpening: no
// renderer of its own, whose textures would take seconds).
func TestDetectVideo(t *testing.T) {
	dir := t.TempDir()
	img, _ := renderedOpening(t, dir)
	m := gocv.IMRead(img, gocv.IMReadColor)
	defer m.Close()
	if m.Empty() {
		t.Fatalf("%s: not read", img)
	}
	video := filepath.Join(dir, "clip.mp4")
	enc, err := render.NewEncoder(video, m.Cols(), m.Rows(), render.EncoderOptions{FPS: 30})
	if err != nil {
		t.Skipf("no encoder: %v", err)
	}
	for i := 0; i < 3; i++ {
		if err := enc.Write(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "", "detect", video, "--frame", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res detectOutput
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Frame != 2 || len(res.Pieces) != 20 {
		t.Errorf("frame %d: %d pieces", res.Frame, len(res.Pieces))
	}
	code, _, stderr = runCmd(t, "", "detect", video, "--frame", "7")
	if code != 1 || !strings.Contains(stderr, "ends after 3 frames") {
		t.Errorf("--frame past the end: exit %d: %s", code, stderr)
	}
}

func TestDetectErrors(t *testing.T) {
	dir := t.TempDir()
	img, _ := renderedOpening(t, dir)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"detect"}, 2, "give one image or video"},
		{[]string{"detect", img, img}, 2, "give one image or video"},
		{[]string{"detect", img, "--frame", "-1"}, 2, "frames count from 0"},
		{[]string{"detect", img, "--frame", "3"}, 2, "is an image, not a video"},
		{[]string{"detect", img, "--out", filepath.Join(dir, "x.txt")}, 2, "want a .png or .jpg"},
		{[]string{"detect", filepath.Join(dir, "missing.png")}, 1, "no such file"},
		{[]string{"detect", img, "--calibration", filepath.Join(dir, "missing.json")}, 1, "no such file"},
		{[]string{"detect", img, "--calibration", "c.json", "--south-at", "top"}, 2, "does not apply with --calibration"},
		{[]string{"detect", img, "--classes", filepath.Join(dir, "missing.json")}, 1, "no such file"},
		{[]string{"detect", img, "--breaker", "X"}, 2, "--breaker"},
	} {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d (want %d): %s", c.args[1:], code, c.code, stderr)
		}
	}
	// not a picture of a board
	blank := filepath.Join(dir, "blank.png")
	b := gocv.NewMatWithSize(240, 320, gocv.MatTypeCV8UC3)
	gocv.IMWrite(blank, b)
	b.Close()
	code, _, stderr := runCmd(t, "", "detect", blank)
	if code != 1 || !strings.Contains(stderr, "--corners") {
		t.Errorf("blank picture: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.txt")); err == nil {
		t.Error("wrote an output for a refused --out")
	}
}
