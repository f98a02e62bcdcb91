package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/internal/cvio"
	"github.com/boardcam/boardcam/vision"
)

func init() {
	register(command{Name: "detect", Summary: "find the board and every disc in one frame, and draw what was found", Run: cmdDetect})
}

const detectSynopsis = `IMAGE|VIDEO [--frame N] [--json] [--out found.png] [--calibration calibration.json]
       [--board board.yaml] [--lens-file lens.json] [--classes classes.json] [--breaker S] [--south-at bottom]`

const detectDescription = `
Finds the playing surface in a photo or a video frame (or takes it from
--calibration), then every carromman, the queen and the striker on it: where
each lies in the picture (px) and on the board (mm: origin at the centre,
x right, y down, side S at the bottom), its apparent radius and its class.
With --out it draws what it found over the frame: the surface's outline,
a circle per disc in its class's colour (white yellow, black blue, queen
magenta, striker green; dashed when partly hidden) and hands shaded red.
It is the first thing to run to check a camera mount.

For a video, the frames before --frame N are run through the detector too,
as they would be live: it learns the empty board (to tell hands from
pieces) and, from an opening arrangement, the colours of this set's men.
The board is found in the first frame.

Classes: the striker is told by its size; white and black men and the queen
by colour, learned from the opening arrangement when one is seen (the queen
in the middle, the men in two rings around it), else from the two colour
groups of the men in the frame. --classes gives a model saved before.

See docs/vision.md.`

// detectOutput is the --json result.
type detectOutput struct {
	Image string `json:"image"`
	Frame int    `json:"frame"`
	Size  [2]int `json:"size"`
	// CornersPx are the playing surface's corners in the picture as
	// recorded (lens distortion included): NW, NE, SE, SW (top-left,
	// top-right, bottom-right, bottom-left with side S at the bottom).
	CornersPx   [4][2]float64  `json:"corners_px"`
	Calibration detectCal      `json:"calibration"`
	Pieces      []detectPiece  `json:"pieces"`
	Counts      map[string]int `json:"counts"`
	Hands       bool           `json:"hands"`
	Classes     string         `json:"classes"`
	Breaker     *detectBreaker `json:"breaker,omitempty"`
	// Set is the set of pieces the detector looked for: sizes and
	// colours, learned from the picture or taken from the calibration.
	Set       *board.Set `json:"set,omitempty"`
	ElapsedMS float64    `json:"elapsed_ms"`
}

type detectCal struct {
	Method string `json:"method"`
	// Quality is the calibration's confidence (0–1).
	Quality float64 `json:"quality"`
	TiltDeg float64 `json:"tilt_deg"`
	SouthAt string  `json:"south_at"`
}

type detectPiece struct {
	Piece      string     `json:"piece"`
	PX         [2]float64 `json:"px"`
	MM         [2]float64 `json:"mm"`
	RadiusPx   float64    `json:"radius_px"`
	Score      float64    `json:"score"`
	ClassScore float64    `json:"class_score"`
	Partial    bool       `json:"partial,omitempty"`
}

type detectBreaker struct {
	Side       string  `json:"side"`
	Confidence float64 `json:"confidence"`
	Why        string  `json:"why"`
}

func cmdDetect(ctx context.Context, args []string, s stdio) error {
	d, err := parseDetect(args, s)
	if err != nil {
		return err
	}
	src, err := openFrames(d.input, d.seek)
	if err != nil {
		return err
	}
	defer src.Close()
	frame := gocv.NewMat()
	defer frame.Close()
	defer func() {
		if d.det != nil {
			d.det.Close()
		}
	}()
	result, elapsed, err := d.run(ctx, src, &frame, s)
	if err != nil {
		return err
	}
	if d.out != "" {
		if err := d.draw(frame, result); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	res := detectResult(d.input, d.frameN, frame, d.cal, d.det, result, elapsed)
	if d.json {
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printDetect(s.Out, res, d.out)
	return nil
}

// detectRun is a detect command: its options read from the flags, then
// the calibration and detector made on the first frame.
type detectRun struct {
	input       string
	frameN      int
	seek        bool // --frame given: the source may seek
	json        bool
	out         string
	detector    string
	opt         calibrate.Options
	cal         *calibrate.Calibration // --calibration, or found on the first frame
	lens        *calibrate.Lens
	vcfg        vision.Config
	newDetector vision.DetectorFactory
	det         vision.FrameDetector
}

// parseDetect reads detect's flags and the files they name.
func parseDetect(args []string, s stdio) (*detectRun, error) {
	fs := newFlags("detect", detectSynopsis, detectDescription, s)
	frameN := fs.Int("frame", 0, "frame number when the input is a video (0 = first)")
	jsonOut := fs.Bool("json", false, "print the result as one JSON object")
	out := fs.String("out", "", "write the frame with what was found drawn over it to this image file (.png or .jpg)")
	calFile := fs.String("calibration", "", "calibration file (from boardcam calibrate) instead of finding the board")
	boardFile := fs.String("board", "", "board geometry YAML (default: the ICF tournament board)")
	lensFile := fs.String("lens-file", "", "lens model (from boardcam calibrate --lens) for finding the board")
	classFile := fs.String("classes", "", "class model (colours of this set's men) saved before, instead of learning it")
	breaker := fs.String("breaker", "", "`seat` of the player who breaks: S, E, N or W (default S)")
	alias(fs, "breaker-side", "breaker")
	southAt := fs.String("south-at", "bottom", "image side nearest board side S: bottom, right, top or left")
	detector := fs.String("detector", vision.DefaultDetector, "disc detector: "+strings.Join(vision.DetectorNames(), ", ")+" (the daemon's pipeline.detector)")
	posArgs, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if len(posArgs) != 1 {
		return nil, usageError("give one image or video, got %d arguments", len(posArgs))
	}
	if *frameN < 0 {
		return nil, usageError("--frame %d: frames count from 0", *frameN)
	}
	if *calFile != "" {
		for _, n := range []string{"lens-file", "breaker", "south-at"} {
			if set[n] {
				return nil, usageError("--%s does not apply with --calibration (the calibration file has it)", n)
			}
		}
	}
	if *out != "" {
		switch strings.ToLower(filepath.Ext(*out)) {
		case ".png", ".jpg", ".jpeg":
		default:
			return nil, usageError("--out %s: want a .png or .jpg file name", *out)
		}
	}
	d := &detectRun{input: posArgs[0], frameN: *frameN, seek: set["frame"] && *frameN != 0, json: *jsonOut, out: *out, detector: *detector}
	g := board.ICF()
	if *boardFile != "" {
		if g, err = board.Load(*boardFile); err != nil {
			return nil, err
		}
	}
	d.opt = calibrate.Options{Geometry: g, Orientation: calibrate.DefaultOrientation()}
	if dir, err := calibrate.ParseDirection(*southAt); err != nil {
		return nil, usageError("--south-at: %v", err)
	} else {
		d.opt.Orientation.SouthAt = dir
	}
	if *breaker != "" {
		side, err := board.ParseSide(*breaker)
		if err != nil {
			return nil, usageError("--breaker: %v", err)
		}
		d.opt.Orientation.Breaker, d.opt.Orientation.BreakerSource = side, "config"
	}
	if *calFile != "" {
		if d.cal, err = calibrate.Load(*calFile); err != nil {
			return nil, err
		}
	}
	if *lensFile != "" {
		if d.lens, err = calibrate.LoadLens(*lensFile); err != nil {
			return nil, err
		}
	}
	d.vcfg = vision.Config{Geometry: g}
	if *classFile != "" {
		m, err := vision.LoadClassModel(*classFile)
		if err != nil {
			return nil, err
		}
		d.vcfg.Classes = m
	}
	if d.newDetector, err = vision.Detectors(*detector); err != nil {
		return nil, usageError("--detector: %v", err)
	}
	return d, nil
}

// run reads frames up to the one asked for, detecting in each (the
// detector follows the frames), and gives the last one's result.
func (d *detectRun) run(ctx context.Context, src *frameSource, frame *gocv.Mat, s stdio) (vision.Frame, time.Duration, error) {
	var result vision.Frame
	var elapsed time.Duration
	for i := 0; i <= d.frameN; i++ {
		if err := ctx.Err(); err != nil {
			return result, 0, err
		}
		if !src.Read(frame) {
			if i == 0 {
				return result, 0, fmt.Errorf("%s: no frames could be read", d.input)
			}
			return result, 0, fmt.Errorf("%s: the video ends after %d frames (--frame %d)", d.input, i, d.frameN)
		}
		if d.det == nil {
			if err := d.start(*frame); err != nil {
				return result, 0, err
			}
		}
		start := time.Now()
		var err error
		result, err = d.det.Detect(*frame, i, src.Time(i))
		elapsed = time.Since(start)
		if err != nil {
			return result, 0, fmt.Errorf("%s frame %d: %w", d.input, i, err)
		}
		if d.frameN >= 100 && i%100 == 0 && i > 0 && !d.json {
			fmt.Fprintf(s.Err, "frame %d of %d\n", i, d.frameN)
		}
	}
	return result, elapsed, nil
}

// start finds the board on the first frame (unless a calibration was
// given), learns the set of pieces from it and makes the detector.
func (d *detectRun) start(frame gocv.Mat) error {
	var err error
	if d.cal == nil {
		if d.cal, err = findBoard(frame, d.input, d.lens, d.opt); err != nil {
			return err
		}
	}
	if d.cal.ImageSize.W != frame.Cols() || d.cal.ImageSize.H != frame.Rows() {
		return fmt.Errorf("%s is %dx%d but the calibration is for %dx%d pictures", d.input, frame.Cols(), frame.Rows(), d.cal.ImageSize.W, d.cal.ImageSize.H)
	}
	if d.cal.Set == nil && d.vcfg.Set == nil {
		// The set of pieces, from this frame (a calibration made with
		// boardcam calibrate has it already).
		if set, err := vision.LearnSet(frame, d.cal, d.vcfg); err == nil {
			c := *d.cal
			c.Set = set
			d.cal = &c
		}
	}
	d.det, err = d.newDetector(d.cal, d.vcfg)
	return err
}

// draw writes the frame with what was found drawn over it (--out).
func (d *detectRun) draw(frame gocv.Mat, result vision.Frame) error {
	dst := gocv.NewMat()
	defer dst.Close()
	det, ok := d.det.(*vision.Detector)
	if !ok {
		return fmt.Errorf("the %s detector does not draw what it found", d.detector)
	}
	if err := det.Draw(frame, result, &dst); err != nil {
		return err
	}
	return cvio.WriteImage(d.out, dst)
}

// findBoard calibrates on a frame (undistorted first when a lens model is
// given).
func findBoard(frame gocv.Mat, input string, lens *calibrate.Lens, opt calibrate.Options) (*calibrate.Calibration, error) {
	img := frame
	if lens != nil {
		if frame.Cols() != lens.ImageSize.W || frame.Rows() != lens.ImageSize.H {
			return nil, fmt.Errorf("%s is %dx%d but the lens was calibrated at %dx%d: use frames of the same camera mode", input, frame.Cols(), frame.Rows(), lens.ImageSize.W, lens.ImageSize.H)
		}
		u, err := calibrate.NewUndistorter(lens)
		if err != nil {
			return nil, err
		}
		und := gocv.NewMat()
		defer und.Close()
		err = u.Apply(frame, &und)
		u.Close()
		if err != nil {
			return nil, err
		}
		img = und
	}
	cal, _, err := calibrate.Detect(img, opt)
	if err != nil {
		if errors.Is(err, calibrate.ErrNoBoard) || errors.Is(err, calibrate.ErrUnsure) {
			return nil, fmt.Errorf("%s: %w\nGive the corners by hand: boardcam calibrate %s --corners x1,y1,x2,y2,x3,y3,x4,y4, then boardcam detect %s --calibration calibration.json", input, err, input, input)
		}
		return nil, fmt.Errorf("%s: %w", input, err)
	}
	cal.Lens = lens
	return cal, nil
}

// frameSource reads the frames of an image (one frame) or a video.
type frameSource struct {
	img  gocv.Mat
	vc   *cvio.Video
	fps  float64
	done bool
}

func openFrames(path string, wantVideo bool) (*frameSource, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	if imageExts[strings.ToLower(filepath.Ext(path))] {
		if wantVideo {
			return nil, usageError("--frame: %s is an image, not a video", path)
		}
		img, err := cvio.ReadImage(path, false)
		if err != nil {
			img.Close()
			return nil, fmt.Errorf("cannot decode the image: %w", err)
		}
		return &frameSource{img: img}, nil
	}
	vc, err := cvio.OpenVideo(path)
	if err != nil {
		return nil, fmt.Errorf("%s: not an image, and cannot be opened as a video: %w", path, err)
	}
	fps := vc.Info().FPS
	if !(fps > 0) || fps > 1000 {
		fps = 30
	}
	return &frameSource{vc: vc, fps: fps}, nil
}

// Read reads the next frame into dst.
func (f *frameSource) Read(dst *gocv.Mat) bool {
	if f.vc == nil {
		if f.done {
			return false
		}
		f.done = true
		f.img.CopyTo(dst)
		return true
	}
	return f.vc.Read(dst) && !dst.Empty()
}

// Time is the time of frame i in seconds.
func (f *frameSource) Time(i int) float64 {
	if f.vc == nil {
		return 0
	}
	return float64(i) / f.fps
}

func (f *frameSource) Close() {
	if f.vc != nil {
		f.vc.Close()
	}
	if f.img.Ptr() != nil {
		f.img.Close()
	}
}

func detectResult(input string, n int, frame gocv.Mat, cal *calibrate.Calibration, fd vision.FrameDetector, f vision.Frame, elapsed time.Duration) detectOutput {
	r := detectOutput{
		Image:  input,
		Frame:  n,
		Size:   [2]int{frame.Cols(), frame.Rows()},
		Pieces: []detectPiece{},
		Counts: map[string]int{"white": 0, "black": 0, "queen": 0, "striker": 0},
		Hands:  f.Occlusion != nil,
		Calibration: detectCal{
			Method:  string(cal.Quality.Method),
			Quality: round2(cal.Quality.Score),
			TiltDeg: round2(cal.Quality.TiltDeg),
			SouthAt: string(cal.Orientation.SouthAt),
		},
		Classes:   "priors",
		ElapsedMS: float64(elapsed.Microseconds()) / 1000,
	}
	for i, p := range cal.Corners {
		if cal.Lens != nil {
			p = cal.Lens.Distort(p)
		}
		r.CornersPx[i] = [2]float64{round2(p.X), round2(p.Y)}
	}
	for _, d := range f.Detections {
		r.Pieces = append(r.Pieces, detectPiece{
			Piece:      d.Kind.String(),
			PX:         [2]float64{round2(d.PX[0]), round2(d.PX[1])},
			MM:         [2]float64{round2(d.MM.X), round2(d.MM.Y)},
			RadiusPx:   round2(d.RadiusPx),
			Score:      d.Score,
			ClassScore: d.ClassScore,
			Partial:    d.Partial,
		})
		r.Counts[d.Kind.String()]++
	}
	det, ok := fd.(*vision.Detector)
	if !ok {
		return r // another detector: what it found, without vision's classes, set and opening
	}
	if m := det.Classes(); m != nil && m.Learned() {
		r.Classes = m.Source
	}
	r.Set = det.Set()
	if op := det.Opening(); op != nil && op.Breaker != nil {
		r.Breaker = &detectBreaker{Side: op.Breaker.Side.String(), Confidence: round2(op.Breaker.Confidence), Why: op.Breaker.Why}
	}
	return r
}

func round2(v float64) float64 {
	if v < 0 {
		return -float64(int64(-v*100+0.5)) / 100
	}
	return float64(int64(v*100+0.5)) / 100
}

func printDetect(w io.Writer, r detectOutput, out string) {
	how := "board found"
	if r.Calibration.Method == string(calibrate.Manual) {
		how = "corners given"
	}
	fmt.Fprintf(w, "%s frame %d (%dx%d): %s, confidence %.2f, tilt %.0f°\n", r.Image, r.Frame, r.Size[0], r.Size[1], how, r.Calibration.Quality, r.Calibration.TiltDeg)
	fmt.Fprintf(w, "corners px   NW (%.1f, %.1f) NE (%.1f, %.1f) SE (%.1f, %.1f) SW (%.1f, %.1f)\n",
		r.CornersPx[0][0], r.CornersPx[0][1], r.CornersPx[1][0], r.CornersPx[1][1], r.CornersPx[2][0], r.CornersPx[2][1], r.CornersPx[3][0], r.CornersPx[3][1])
	fmt.Fprintf(w, "found        %d discs: %d white, %d black, %d queen, %d striker (classes from %s) in %.1f ms\n",
		len(r.Pieces), r.Counts["white"], r.Counts["black"], r.Counts["queen"], r.Counts["striker"], r.Classes, r.ElapsedMS)
	if s := r.Set; s != nil {
		fmt.Fprintf(w, "set          men %.1f mm, striker %.1f mm (%s)\n", s.ManMM, s.StrikerMM, s.Source)
	}
	if r.Hands {
		fmt.Fprintln(w, "hands        a hand or arm is over the board (pieces under it are hidden, not missing)")
	}
	if r.Breaker != nil {
		fmt.Fprintf(w, "opening      the arrangement points at side %s: %s\n", r.Breaker.Side, r.Breaker.Why)
	}
	if len(r.Pieces) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "piece\tx px\ty px\tx mm\ty mm\tradius px\tscore\tclass\t")
		for _, p := range r.Pieces {
			name := p.Piece
			if p.Partial {
				name += " (partly hidden)"
			}
			fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.2f\t%.2f\t\n", name, p.PX[0], p.PX[1], p.MM[0], p.MM[1], p.RadiusPx, p.Score, p.ClassScore)
		}
		tw.Flush()
	}
	if out != "" {
		fmt.Fprintf(w, "drawn        %s\n", out)
	}
}
