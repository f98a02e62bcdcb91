package main

import (
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
)

// syntheticBoard writes a 960×720 picture of a board seen slightly from
// the side and returns its path and the surface corners in image order.
func syntheticBoard(t *testing.T, dir string) (string, [4]calibrate.Point) {
	t.Helper()
	g := board.ICF()
	const s = 1.0 // texture px per mm
	n := int(g.Surface + 2*g.FrameWidth + 40)
	off := float64(n) / 2
	tex := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(70, 80, 90, 0), n, n, gocv.MatTypeCV8UC3)
	defer tex.Close()
	px := func(v board.Vec) image.Point { return image.Pt(int(math.Round(v.X*s+off)), int(math.Round(v.Y*s+off))) }
	h := g.Half()
	gocv.Rectangle(&tex, image.Rectangle{px(board.Vec{X: -h - g.FrameWidth, Y: -h - g.FrameWidth}), px(board.Vec{X: h + g.FrameWidth, Y: h + g.FrameWidth})}, color.RGBA{20, 20, 25, 255}, -1)
	gocv.Rectangle(&tex, image.Rectangle{px(board.Vec{X: -h, Y: -h}), px(board.Vec{X: h, Y: h})}, color.RGBA{195, 210, 228, 255}, -1)
	for _, side := range board.Sides {
		l := g.RearLine(side)
		gocv.Line(&tex, px(l.A), px(l.B), color.RGBA{30, 30, 30, 255}, 6)
		f := g.FrontLine(side)
		gocv.Line(&tex, px(f.A), px(f.B), color.RGBA{30, 30, 30, 255}, 1)
	}
	for _, p := range board.Pockets {
		c := g.Pocket(p)
		gocv.Circle(&tex, px(c.C), int(c.R*s), color.RGBA{5, 5, 5, 255}, -1)
	}
	gocv.Circle(&tex, px(board.Vec{}), int(g.CentreCircleDiameter/2*s), color.RGBA{40, 40, 200, 255}, -1)
	// Texture → image: a mild keystone.
	texC := [4]calibrate.Point{}
	for i, c := range [4]board.Vec{{X: -h - 0.5, Y: -h - 0.5}, {X: h + 0.5, Y: -h - 0.5}, {X: h + 0.5, Y: h + 0.5}, {X: -h - 0.5, Y: h + 0.5}} {
		texC[i] = calibrate.Point{X: c.X*s + off, Y: c.Y*s + off}
	}
	imgC := [4]calibrate.Point{calibrate.Pt(182, 52), calibrate.Pt(790, 60), calibrate.Pt(800, 668), calibrate.Pt(170, 660)}
	H, err := calibrate.HomographyFrom4(texC, imgC)
	if err != nil {
		t.Fatal(err)
	}
	m := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer m.Close()
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			m.SetDoubleAt(r, c, H[r][c])
		}
	}
	out := gocv.NewMat()
	defer out.Close()
	gocv.WarpPerspectiveWithParams(tex, &out, m, image.Pt(960, 720), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{70, 80, 90, 0})
	path := filepath.Join(dir, "board.png")
	if !gocv.IMWrite(path, out) {
		t.Fatal("cannot write the synthetic board")
	}
	return path, imgC
}

func TestCalibrateAuto(t *testing.T) {
	dir := t.TempDir()
	img, truth := syntheticBoard(t, dir)
	out := filepath.Join(dir, "cal.json")
	dbg := filepath.Join(dir, "debug.png")
	code, stdout, stderr := runCmd(t, "", "calibrate", img, "--out", out, "--debug", dbg, "--breaker", "E")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"board found in", "corners px", "confidence", "tilt", "lines", "set", "saved"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	cal, err := calibrate.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range cal.ImageCorners() {
		if d := p.Dist(truth[i]); d > 1.5 {
			t.Errorf("corner %d at %v, %.2f px from %v", i, p, d, truth[i])
		}
	}
	if cal.Orientation.Breaker != board.E || cal.Orientation.BreakerSource != "config" {
		t.Errorf("orientation %+v", cal.Orientation)
	}
	if st, err := os.Stat(dbg); err != nil || st.Size() == 0 {
		t.Errorf("debug image not written: %v", err)
	}
	// Running again keeps the previous file.
	if code, _, stderr := runCmd(t, "", "calibrate", "--out", out, img); code != 0 {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
	if _, err := calibrate.Load(out + ".bak"); err != nil {
		t.Errorf("previous calibration not kept: %v", err)
	}
	// --json prints what was saved.
	code, stdout, _ = runCmd(t, "", "calibrate", img, "--out", filepath.Join(dir, "j.json"), "--json")
	if code != 0 || !strings.HasPrefix(stdout, "{") {
		t.Fatalf("--json: exit %d, %q", code, stdout)
	}
	if _, err := calibrate.Parse([]byte(stdout)); err != nil {
		t.Errorf("--json output does not parse: %v", err)
	}
}

func TestCalibrateManualCorners(t *testing.T) {
	dir := t.TempDir()
	img, truth := syntheticBoard(t, dir)
	out := filepath.Join(dir, "cal.json")
	arg := ""
	for i, p := range truth {
		if i > 0 {
			arg += ","
		}
		arg += strconv.FormatFloat(p.X, 'f', -1, 64) + "," + strconv.FormatFloat(p.Y, 'f', -1, 64)
	}
	code, stdout, stderr := runCmd(t, "", "calibrate", img, "--corners", arg, "--south-at", "right", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	cal, err := calibrate.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if cal.Quality.Method != calibrate.Manual || cal.Orientation.SouthAt != calibrate.Right {
		t.Errorf("method %s, south at %s", cal.Quality.Method, cal.Orientation.SouthAt)
	}
	// With side S at the right of the image, W is at the bottom, so the
	// board's NW corner is the image's bottom-left one.
	if cal.Corners[0] != truth[3] {
		t.Errorf("NW corner %v, want the image's bottom-left %v", cal.Corners[0], truth[3])
	}
	if cal.Quality.Score < 0.5 {
		t.Errorf("true corners given by hand score %.2f", cal.Quality.Score)
	}
}

func TestCalibrateUsageErrors(t *testing.T) {
	dir := t.TempDir()
	img, _ := syntheticBoard(t, dir)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"calibrate"}, 2, "give one image or video"},
		{[]string{"calibrate", img, img}, 2, "got 2 arguments"},
		{[]string{"calibrate", img, "--corners", "1,2,3"}, 2, "want 8 numbers"},
		{[]string{"calibrate", img, "--breaker", "X"}, 2, "unknown side"},
		{[]string{"calibrate", img, "--south-at", "up"}, 2, "unknown image direction"},
		{[]string{"calibrate", img, "--frame", "2"}, 2, "is an image, not a video"},
		{[]string{"calibrate", img, "--cols", "7"}, 2, "only applies to --lens"},
		{[]string{"calibrate", "--lens", img}, 2, "at least 3 chessboard images"},
		{[]string{"calibrate", "--lens", "--corners", "1,2,3,4,5,6,7,8", img, img, img}, 2, "does not apply to --lens"},
		{[]string{"calibrate", filepath.Join(dir, "missing.png")}, 1, "no such file"},
		{[]string{"calibrate", img, "--lens-file", filepath.Join(dir, "none.json")}, 1, "no such file"},
		{[]string{"calibrate", img, "--corners", "0,0,10,0,10,10,0,10"}, 1, "under 1%"},
	}
	for _, c := range cases {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", c.args[1:], code, stderr, c.code, c.want)
		}
	}
	// No board at all: a clear message pointing at --corners.
	blank := filepath.Join(dir, "blank.png")
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 90, 90, 0), 480, 640, gocv.MatTypeCV8UC3)
	gocv.IMWrite(blank, m)
	m.Close()
	code, _, stderr := runCmd(t, "", "calibrate", blank, "--out", filepath.Join(dir, "x.json"))
	if code != 1 || !strings.Contains(stderr, "--corners") {
		t.Errorf("blank image: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); err == nil {
		t.Error("a calibration was written although no board was found")
	}
}

// chessboardImages writes n views of a 9×6 chessboard at different
// perspectives.
func chessboardImages(t *testing.T, dir string, n int) []string {
	t.Helper()
	const sq = 40
	pat := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(235, 0, 0, 0), 9*sq, 12*sq, gocv.MatTypeCV8UC1)
	defer pat.Close()
	for r := 0; r < 7; r++ {
		for c := 0; c < 10; c++ {
			if (r+c)%2 == 0 {
				gocv.Rectangle(&pat, image.Rect(sq+c*sq, sq+r*sq, sq+(c+1)*sq, sq+(r+1)*sq), color.RGBA{25, 25, 25, 0}, -1)
			}
		}
	}
	// A pinhole camera (f = 900 px) looking at the pattern (25 mm squares)
	// from 550 mm, tilted differently for each view.
	var paths []string
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		rx, ry := 0.4*math.Cos(a), 0.4*math.Sin(a)
		cx, sx, cy, sy := math.Cos(rx), math.Sin(rx), math.Cos(ry), math.Sin(ry)
		// R = Rx·Ry; columns 1 and 2 and the translation.
		r1 := [3]float64{cy, sx * sy, -cx * sy}
		r2 := [3]float64{0, cx, sx}
		tr := [3]float64{0, 0, 550}
		const f, mm = 900.0, 25.0 / sq
		var H calibrate.Homography
		k := [3][3]float64{{f, 0, 479.5}, {0, f, 359.5}, {0, 0, 1}}
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				H[r][c] = k[r][0]*[3]float64{r1[0], r2[0], tr[0]}[c] + k[r][1]*[3]float64{r1[1], r2[1], tr[1]}[c] + k[r][2]*[3]float64{r1[2], r2[2], tr[2]}[c]
			}
		}
		// Texture px → mm, centred on the pattern.
		H = H.Mul(calibrate.Homography{{mm, 0, -6 * sq * mm}, {0, mm, -4.5 * sq * mm}, {0, 0, 1}})
		m := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				m.SetDoubleAt(r, c, H[r][c])
			}
		}
		out := gocv.NewMat()
		gocv.WarpPerspectiveWithParams(pat, &out, m, image.Pt(960, 720), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{120, 0, 0, 0})
		p := filepath.Join(dir, "chess"+string(rune('a'+i))+".png")
		gocv.IMWrite(p, out)
		out.Close()
		m.Close()
		paths = append(paths, p)
	}
	return paths
}

func TestCalibrateLensFlow(t *testing.T) {
	dir := t.TempDir()
	views := chessboardImages(t, dir, 6)
	lensPath := filepath.Join(dir, "lens.json")
	args := append([]string{"calibrate", "--lens", "--cols", "9", "--rows", "6", "--square", "25", "--out", lensPath}, views...)
	code, stdout, stderr := runCmd(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "lens calibrated from 6 of 6 images") {
		t.Errorf("summary:\n%s\n%s", stdout, stderr)
	}
	l, err := calibrate.LoadLens(lensPath)
	if err != nil {
		t.Fatal(err)
	}
	// The views have no distortion: the fit must say so.
	if math.Abs(l.Distortion[0]) > 0.05 || l.RMS > 0.5 {
		t.Errorf("distortion-free views gave k1 %.3f, rms %.2f", l.Distortion[0], l.RMS)
	}
	// The board calibration stores and applies the lens.
	img, _ := syntheticBoard(t, dir)
	out := filepath.Join(dir, "cal.json")
	if code, stdout, stderr := runCmd(t, "", "calibrate", img, "--lens-file", lensPath, "--out", out); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	cal, err := calibrate.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if cal.Lens == nil || cal.Lens.RMS != l.RMS {
		t.Error("lens not stored in the calibration")
	}
	// A lens for another camera mode is refused.
	small := filepath.Join(dir, "small.png")
	m := gocv.NewMatWithSize(240, 320, gocv.MatTypeCV8UC3)
	gocv.IMWrite(small, m)
	m.Close()
	if code, _, stderr := runCmd(t, "", "calibrate", small, "--lens-file", lensPath); code != 1 || !strings.Contains(stderr, "same camera mode") {
		t.Errorf("lens of another size: exit %d, %q", code, stderr)
	}
}

// TestCalibrateVideo reads a frame from a video file.
func TestCalibrateVideo(t *testing.T) {
	dir := t.TempDir()
	img, truth := syntheticBoard(t, dir)
	frame := gocv.IMRead(img, gocv.IMReadColor)
	defer frame.Close()
	video := filepath.Join(dir, "clip.avi")
	vw, err := gocv.VideoWriterFile(video, "MJPG", 10, 960, 720, true)
	if err != nil || !vw.IsOpened() {
		t.Skipf("this OpenCV cannot write MJPG video: %v", err)
	}
	black := gocv.NewMatWithSize(720, 960, gocv.MatTypeCV8UC3)
	defer black.Close()
	for i := 0; i < 5; i++ {
		if i == 3 {
			vw.Write(frame)
		} else {
			vw.Write(black)
		}
	}
	vw.Close()
	out := filepath.Join(dir, "cal.json")
	code, stdout, stderr := runCmd(t, "", "calibrate", video, "--frame", "3", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	cal, err := calibrate.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range cal.ImageCorners() {
		if d := p.Dist(truth[i]); d > 2 {
			t.Errorf("corner %d %.2f px off", i, d)
		}
	}
	if code, _, stderr := runCmd(t, "", "calibrate", video, "--frame", "9"); code != 1 || !strings.Contains(stderr, "ends after 5 frames") {
		t.Errorf("frame past the end: exit %d, %q", code, stderr)
	}
}
