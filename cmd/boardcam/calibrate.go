package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/vision"
)

func init() {
	register(command{Name: "calibrate", Summary: "find the board in a frame (or calibrate the lens) and save the calibration", Run: cmdCalibrate})
}

const calibrateSynopsis = `IMAGE|VIDEO [--frame N] [--board board.yaml] [--corners x1,y1,...,x4,y4] [--lens-file lens.json]
       [--breaker S] [--south-at bottom] [--out calibration.json] [--debug out.png]
   or: boardcam calibrate --lens [--cols 9 --rows 6 --square 25] [--out lens.json] IMAGE...`

const calibrateDescription = `
Finds the playing surface in one frame of the overhead camera with no help:
the four corners where the surface meets the frame, refined by the pockets
and base lines where an edge is hidden or outside the picture, and the
homography from pixels to board millimetres. The result, with the lens
model, the orientation and a quality score (how well the board's markings
re-project), is saved as a versioned JSON file; a previous file is kept as
<out>.bak.

When the board is not found (or to override it), give the four corners of
the playing surface yourself with --corners, in the order top-left,
top-right, bottom-right, bottom-left as the board lies in the picture.

With --lens, calibrates the camera's lens instead from photos of a printed
chessboard (--cols and --rows count its inner corners, --square is the side
of a square in mm) and writes lens.json; pass it to later runs with
--lens-file so every frame is undistorted first.

See docs/calibration.md.`

func cmdCalibrate(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("calibrate", calibrateSynopsis, calibrateDescription, s)
	lensMode := fs.Bool("lens", false, "calibrate the lens from chessboard images instead of finding the board")
	cols := fs.Int("cols", calibrate.DefaultChessboard.Cols, "--lens: inner corners along a chessboard row")
	rows := fs.Int("rows", calibrate.DefaultChessboard.Rows, "--lens: inner corners along a chessboard column")
	square := fs.Float64("square", calibrate.DefaultChessboard.Square, "--lens: side of a chessboard square, mm")
	lensFull := fs.Bool("lens-full", false, "--lens: also fit k3 and tangential distortion (needs many varied views)")
	frame := fs.Int("frame", 0, "frame number to use when the input is a video (0 = first)")
	boardFile := fs.String("board", "", "board geometry YAML (default: the ICF tournament board)")
	corners := fs.String("corners", "", "the four surface corners in pixels: x1,y1,x2,y2,x3,y3,x4,y4 (top-left, top-right, bottom-right, bottom-left)")
	lensFile := fs.String("lens-file", "", "lens model (from calibrate --lens) to undistort the frame with and store in the calibration")
	breaker := fs.String("breaker", "", "`seat` of the player who breaks: S, E, N or W (default S)")
	alias(fs, "breaker-side", "breaker")
	southAt := fs.String("south-at", "bottom", "image side nearest board side S: bottom, right, top or left")
	out := fs.String("out", "", "where to write the result (default calibration.json, or lens.json with --lens)")
	debug := fs.String("debug", "", "write an image showing what was found (corners, edges, markings) to this file")
	jsonOut := fs.Bool("json", false, "print the saved JSON to standard output instead of a summary")
	posArgs, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *lensMode {
		for _, n := range []string{"frame", "board", "corners", "lens-file", "breaker", "south-at", "debug"} {
			if set[n] {
				return usageError("--%s does not apply to --lens", n)
			}
		}
		if len(posArgs) < 3 {
			return usageError("--lens needs at least 3 chessboard images (10 to 20 from different angles is better), got %d", len(posArgs))
		}
		if *out == "" {
			*out = "lens.json"
		}
		return calibrateLens(posArgs, calibrate.Chessboard{Cols: *cols, Rows: *rows, Square: *square}, *lensFull, *out, *jsonOut, s)
	}
	for _, n := range []string{"cols", "rows", "square", "lens-full"} {
		if set[n] {
			return usageError("--%s only applies to --lens", n)
		}
	}
	if len(posArgs) != 1 {
		return usageError("give one image or video, got %d arguments", len(posArgs))
	}
	if *frame < 0 {
		return usageError("--frame %d: frames count from 0", *frame)
	}
	if *out == "" {
		*out = "calibration.json"
	}
	c := &boardCalibration{input: posArgs[0], frame: *frame, seek: set["frame"], lensFile: *lensFile, out: *out, debug: *debug, json: *jsonOut}
	if err := c.options(*boardFile, *southAt, *breaker, *corners); err != nil {
		return err
	}
	img, err := c.read()
	if err != nil {
		return err
	}
	defer img.Close()
	start := time.Now()
	cal, rep, err := c.find(img, s)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	cal.Lens = c.lens
	// The set of pieces: learned from the frame when pieces lie on it.
	if set, err := vision.LearnSet(img, cal, vision.Config{Geometry: c.opt.Geometry}); err == nil {
		cal.Set = set
	}
	if c.debug != "" {
		if err := writeCalDebug(c.debug, img, cal, c.opt.Geometry, rep); err != nil {
			return fmt.Errorf("--debug: %w", err)
		}
	}
	return c.save(cal, elapsed, s)
}

// boardCalibration is a calibrate command finding the board (not --lens).
type boardCalibration struct {
	input    string
	frame    int
	seek     bool
	lensFile string
	out      string
	debug    string
	json     bool

	opt    calibrate.Options
	manual *[4]calibrate.Point // --corners
	lens   *calibrate.Lens
}

// options reads the flags that shape the calibration, and the lens file.
func (c *boardCalibration) options(boardFile, southAt, breaker, corners string) error {
	c.opt = calibrate.Options{Orientation: calibrate.DefaultOrientation()}
	if boardFile != "" {
		g, err := board.Load(boardFile)
		if err != nil {
			return err
		}
		c.opt.Geometry = g
	}
	d, err := calibrate.ParseDirection(southAt)
	if err != nil {
		return usageError("--south-at: %v", err)
	}
	c.opt.Orientation.SouthAt = d
	if breaker != "" {
		side, err := board.ParseSide(breaker)
		if err != nil {
			return usageError("--breaker: %v", err)
		}
		c.opt.Orientation.Breaker, c.opt.Orientation.BreakerSource = side, "config"
	}
	if corners != "" {
		cs, err := calibrate.ParseCorners(corners)
		if err != nil {
			return usageError("--corners: %v", err)
		}
		c.manual = &cs
	}
	if c.lensFile != "" {
		if c.lens, err = calibrate.LoadLens(c.lensFile); err != nil {
			return err
		}
	}
	return nil
}

// read reads the frame, undistorted when a lens is given.
func (c *boardCalibration) read() (gocv.Mat, error) {
	img, err := readFrame(c.input, c.frame, c.seek)
	if err != nil || c.lens == nil {
		return img, err
	}
	if img.Cols() != c.lens.ImageSize.W || img.Rows() != c.lens.ImageSize.H {
		err := fmt.Errorf("%s is %dx%d but the lens in %s was calibrated at %dx%d: use frames of the same camera mode", c.input, img.Cols(), img.Rows(), c.lensFile, c.lens.ImageSize.W, c.lens.ImageSize.H)
		img.Close()
		return gocv.Mat{}, err
	}
	u, err := calibrate.NewUndistorter(c.lens)
	if err != nil {
		img.Close()
		return gocv.Mat{}, err
	}
	und := gocv.NewMat()
	err = u.Apply(img, &und)
	u.Close()
	img.Close()
	if err != nil {
		und.Close()
		return gocv.Mat{}, err
	}
	return und, nil
}

// find finds the board, or takes the corners given. A board found but
// refused goes to the debug image, and the error says what to do.
func (c *boardCalibration) find(img gocv.Mat, s stdio) (*calibrate.Calibration, *calibrate.Report, error) {
	if c.manual != nil {
		cal, _, err := calibrate.FromCorners(img, *c.manual, c.opt)
		if err != nil {
			return nil, nil, fmt.Errorf("--corners: %w", err)
		}
		return cal, nil, nil // nothing was detected: the debug image shows the corners given
	}
	cal, rep, err := calibrate.Detect(img, c.opt)
	if err == nil {
		return cal, rep, nil
	}
	if cal != nil && c.debug != "" {
		// What was found, refused: the debug image shows why.
		if derr := writeCalDebug(c.debug, img, cal, c.opt.Geometry, rep); derr == nil {
			fmt.Fprintf(s.Err, "debug image  %s (the board found, not used)\n", c.debug)
		}
	}
	if errors.Is(err, calibrate.ErrNoBoard) || errors.Is(err, calibrate.ErrUnsure) {
		return nil, nil, fmt.Errorf("%s: %w\nGive the corners by hand: boardcam calibrate %s --corners x1,y1,x2,y2,x3,y3,x4,y4 (top-left, top-right, bottom-right, bottom-left of the playing surface)", c.input, err, c.input)
	}
	return nil, nil, fmt.Errorf("%s: %w", c.input, err)
}

// save writes the calibration (keeping the previous file) and says what
// was found, or prints the JSON saved.
func (c *boardCalibration) save(cal *calibrate.Calibration, elapsed time.Duration, s stdio) error {
	backup, err := saveKeepingOld(c.out, cal.Save)
	if err != nil {
		return err
	}
	if c.json {
		b, err := cal.Marshal()
		if err != nil {
			return err
		}
		_, err = s.Out.Write(b)
		return err
	}
	printCalibration(s.Out, c.input, cal, elapsed)
	fmt.Fprintf(s.Out, "saved        %s", c.out)
	if backup != "" {
		fmt.Fprintf(s.Out, " (previous kept as %s)", backup)
	}
	fmt.Fprintln(s.Out)
	if c.debug != "" {
		fmt.Fprintf(s.Out, "debug image  %s\n", c.debug)
	}
	return nil
}

// writeCalDebug draws calibrate's debug image into path.
func writeCalDebug(path string, img gocv.Mat, cal *calibrate.Calibration, g *board.Geometry, rep *calibrate.Report) error {
	dbg := gocv.NewMat()
	defer dbg.Close()
	if err := calibrate.DrawDebug(img, cal, g, rep, &dbg); err != nil {
		return err
	}
	if err := cvio.WriteImage(path, dbg); err != nil {
		return fmt.Errorf("cannot write the debug image: %w", err)
	}
	return nil
}

// parseInterspersed parses flags wherever they stand among the arguments
// (boardcam calibrate IMAGE --out x.json) and returns the others. After
// "--" everything is an argument.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], args[i+1:]
			break
		}
	}
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(pos, rest...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// saveKeepingOld renames an existing file to .bak before writing, so a
// good calibration is never lost to a bad one.
func saveKeepingOld(path string, save func(string) error) (string, error) {
	var backup string
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		backup = path + ".bak"
		if err := os.Rename(path, backup); err != nil {
			return "", fmt.Errorf("keeping the previous %s: %w", path, err)
		}
	}
	if err := save(path); err != nil {
		if backup != "" {
			os.Rename(backup, path)
		}
		return "", err
	}
	return backup, nil
}

var imageExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".bmp": true, ".tif": true, ".tiff": true, ".webp": true, ".pgm": true, ".ppm": true, ".pnm": true}

// readFrame reads an image, or frame n of a video.
func readFrame(path string, n int, frameGiven bool) (gocv.Mat, error) {
	if _, err := os.Stat(path); err != nil {
		return gocv.Mat{}, err
	}
	if imageExts[strings.ToLower(filepath.Ext(path))] {
		if frameGiven && n != 0 {
			return gocv.Mat{}, usageError("--frame: %s is an image, not a video", path)
		}
		img, err := cvio.ReadImage(path, false)
		if err != nil {
			img.Close()
			return gocv.Mat{}, fmt.Errorf("cannot decode the image: %w", err)
		}
		return img, nil
	}
	vc, err := cvio.OpenVideo(path)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("%s: not an image, and cannot be opened as a video: %w", path, err)
	}
	defer vc.Close()
	img := gocv.NewMat()
	for i := 0; i <= n; i++ {
		if !vc.Read(&img) || img.Empty() {
			img.Close()
			if err := vc.Err(); err != nil {
				return gocv.Mat{}, fmt.Errorf("%s: frame %d: %w", path, i, err)
			}
			if i == 0 {
				return gocv.Mat{}, fmt.Errorf("%s: no frames could be read", path)
			}
			return gocv.Mat{}, fmt.Errorf("%s: the video ends after %d frames (--frame %d)", path, i, n)
		}
	}
	return img, nil
}

func printCalibration(w io.Writer, input string, c *calibrate.Calibration, elapsed time.Duration) {
	q := c.Quality
	how := "board found in"
	if q.Method == calibrate.Manual {
		how = "corners given for"
	}
	fmt.Fprintf(w, "%s %s (%dx%d) in %v\n", how, input, c.ImageSize.W, c.ImageSize.H, elapsed.Round(time.Millisecond))
	names := [4]string{"NW", "NE", "SE", "SW"}
	fmt.Fprintf(w, "corners px  ")
	for i, p := range c.Corners {
		fmt.Fprintf(w, " %s (%.1f, %.1f)", names[i], p.X, p.Y)
	}
	fmt.Fprintln(w)
	sides := [4]string{"top", "right", "bottom", "left"}
	var parts []string
	for j, e := range q.Edges {
		parts = append(parts, sides[j]+" "+e)
	}
	fmt.Fprintf(w, "edges        %s", strings.Join(parts, ", "))
	if q.EdgeRMSpx != nil {
		fmt.Fprintf(w, " (fit %.2f px)", *q.EdgeRMSpx)
	}
	fmt.Fprintln(w)
	var marks []string
	for _, k := range []struct{ kind, label string }{{"rear_line", "rear lines"}, {"front_line", "front lines"}, {"base_circle", "base circles"}, {"arrow", "arrows"}, {"centre_circle", "centre circle"}, {"pocket", "pockets"}} {
		n, of := q.Found(k.kind)
		marks = append(marks, fmt.Sprintf("%s %d/%d", k.label, n, of))
	}
	fmt.Fprintf(w, "markings     %s\n", strings.Join(marks, ", "))
	if m := c.Markings; m != nil {
		printOffsets(w, m, c.Board.Name)
	}
	fmt.Fprintf(w, "confidence   %.2f (%s)\n", q.Score, verdict(q.Score))
	fmt.Fprintf(w, "tilt         %.1f° from straight down\n", q.TiltDeg)
	fmt.Fprintf(w, "scale        %.3f px/mm\n", c.PixelsPerMM())
	fmt.Fprintf(w, "orientation  side S at the %s of the image; breaker at %v (%s)\n", c.Orientation.SouthAt, c.Orientation.Breaker, c.Orientation.BreakerSource)
	if c.Lens != nil {
		fmt.Fprintf(w, "lens         undistorted with k1 %.3f (fit %.2f px rms)\n", c.Lens.Distortion[0], c.Lens.RMS)
	}
	printSet(w, c.Set)
	for _, n := range q.Notes {
		fmt.Fprintf(w, "note         %s\n", n)
	}
}

// printOffsets reports where this board's markings lie from the nominal
// figures: each side's base lines (shift of the centre line, + toward the
// player; thickness), base circles, arrows (shift across the diagonal).
func printOffsets(w io.Writer, m *board.Markings, name string) {
	nom := board.ICF().NominalMarkings()
	fmt.Fprintf(w, "lines        as measured, from the %s's figures (+ toward the player):\n", name)
	for _, s := range board.Sides {
		a, b := m.Side(s), nom.Side(s)
		var circ []string
		for i := range a.Circles {
			p, q := a.Circles[i], b.Circles[i]
			circ = append(circ, fmt.Sprintf("%.1f", math.Hypot(p.X-q.X, p.Y-q.Y)))
		}
		fmt.Fprintf(w, "  side %v     front %+.1f mm (%.1f thick), rear %+.1f mm (%.1f thick), base circles %s mm off\n",
			s, a.Front.Y-b.Front.Y, a.Front.Width, a.Rear.Y-b.Rear.Y, a.Rear.Width, strings.Join(circ, " and "))
	}
	var arr []string
	for _, p := range board.Pockets {
		if a := m.Arrows[p]; a != (board.ArrowMarking{}) {
			arr = append(arr, fmt.Sprintf("%v %+.1f mm (%.1f thick)", p, a.Offset-nom.Arrows[p].Offset, a.Width))
		}
	}
	if len(arr) > 0 {
		fmt.Fprintf(w, "  arrows     %s\n", strings.Join(arr, ", "))
	}
	fmt.Fprintf(w, "  centre     circle %.1f mm from the middle\n", math.Hypot(m.Centre.X, m.Centre.Y))
}

// printSet reports the set of pieces learned (or configured).
func printSet(w io.Writer, s *board.Set) {
	if s == nil {
		fmt.Fprintln(w, "set          not learned (no men in the picture): the board geometry's sizes apply")
		return
	}
	size := func(v float64) string {
		if v <= 0 {
			return "not seen"
		}
		return fmt.Sprintf("%.1f mm", v)
	}
	colours := "colours not learned"
	if s.Colours[board.White].N > 0 && s.Colours[board.Black].N > 0 {
		colours = fmt.Sprintf("colours of %d white and %d black men", s.Colours[board.White].N, s.Colours[board.Black].N)
	}
	fmt.Fprintf(w, "set          men %s, striker %s; %s (from the %s)\n", size(s.ManMM), size(s.StrikerMM), colours, s.Source)
}

func verdict(s float64) string {
	switch {
	case s >= 0.75:
		return "good"
	case s >= 0.5:
		return "usable; check the debug image"
	case s >= 0.3:
		return "poor: check the debug image and the board geometry"
	}
	return "bad: check the debug image; give the corners with --corners if they are wrong"
}

func calibrateLens(paths []string, pat calibrate.Chessboard, full bool, out string, jsonOut bool, s stdio) error {
	var views []gocv.Mat
	defer func() {
		for _, v := range views {
			v.Close()
		}
	}()
	for _, p := range paths {
		img, err := cvio.ReadImage(p, true)
		if err != nil {
			img.Close()
			return fmt.Errorf("cannot read the image: %w", err)
		}
		views = append(views, img)
	}
	start := time.Now()
	l, rep, err := calibrate.CalibrateLens(views, paths, pat, full, time.Now())
	for _, r := range rep {
		state := "chessboard found"
		if !r.Found {
			state = "no chessboard found: skipped"
		}
		if r.Name != "" {
			fmt.Fprintf(s.Err, "%s: %s\n", r.Name, state)
		}
	}
	if err != nil {
		return err
	}
	backup, err := saveKeepingOld(out, l.Save)
	if err != nil {
		return err
	}
	if jsonOut {
		b, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		_, err = s.Out.Write(b)
		return err
	}
	k := l.CameraMatrix
	fmt.Fprintf(s.Out, "lens calibrated from %d of %d images in %v\n", l.Images, len(paths), time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(s.Out, "image size   %dx%d\n", l.ImageSize.W, l.ImageSize.H)
	fmt.Fprintf(s.Out, "focal        %.1f, %.1f px; centre (%.1f, %.1f)\n", k[0][0], k[1][1], k[0][2], k[1][2])
	fmt.Fprintf(s.Out, "distortion   %s\n", fmtCoeffs(l.Distortion))
	fmt.Fprintf(s.Out, "fit          %.3f px rms", l.RMS)
	if l.RMS > 1 {
		fmt.Fprintf(s.Out, " (high: blurred or mis-counted chessboard? check --cols/--rows)")
	}
	fmt.Fprintln(s.Out)
	fmt.Fprintf(s.Out, "saved        %s", out)
	if backup != "" {
		fmt.Fprintf(s.Out, " (previous kept as %s)", backup)
	}
	fmt.Fprintln(s.Out)
	return nil
}

func fmtCoeffs(d []float64) string {
	names := []string{"k1", "k2", "p1", "p2", "k3", "k4", "k5", "k6"}
	var p []string
	for i, v := range d {
		if i < len(names) && (v != 0 || i < 2) {
			p = append(p, fmt.Sprintf("%s %.4f", names[i], v))
		}
	}
	if len(p) == 0 {
		return "none"
	}
	return strings.Join(p, ", ")
}
