package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/calibrate"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/events"
	"github.com/boardcam/boardcam/pipeline"
	"github.com/boardcam/boardcam/vision"
	"github.com/boardcam/boardcam/vision/analysis"
	// The analysis pipeline is what `boardcam eval` measures and the
	// daemon runs: registered with package eval as "vision".
)

func init() {
	register(command{Name: "analyze", Summary: "find the board, track the pieces and print the physical events of a video", Run: cmdAnalyze})
}

const analyzeDescription = `
Analyse a video of a carrom board: find the board (or use --calibration),
detect the pieces in every frame, follow the twenty discs (W1…W9, B1…B9, Q,
S) and print the physical events — one line per event, or one JSON object
per line with --json (the format of package events, docs/tracking.md):
calibrated, recalibrated, stroke_start, front_line_crossed, contact,
pocketed, overboard, stroke_end, placed, moved, arm_over_foul_line.

Frame times are frame number / frame rate (the video's, or --fps). Events
carry the frame in which they happened; they are printed a few frames
later, once recognised, always in time order. Board millimetres: origin at
the centre, x toward E, y toward S.

The sides are named from the calibration (--calibration), else from
--south-at; with --south-at first-stroke the first stroke names them: it is
played from the breaker's seat (--breaker).

--truth FILE (a developer's diagnostic) compares the events, and the fouls
the referee makes of them, with a corpus clip's ground truth and prints
the tracker's view of the frames around every missed or extra event. The
clip's seating is taken from the truth as boardcam eval does;
--calibration truth gives the pipeline the camera's true calibration
(measuring tracking without the calibration's errors).`

func cmdAnalyze(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("analyze", "VIDEO [--calibration FILE] [--board FILE] [--json] [--quiet]", analyzeDescription, s)
	calPath := fs.String("calibration", "", "calibration `file` (from boardcam calibrate); default: find the board in the frames")
	boardPath := fs.String("board", "", "board geometry `file` (YAML); default: the ICF board")
	lensPath := fs.String("lens-file", "", "lens model `file` (from calibrate --lens) when the board is found in the frames")
	southAt := fs.String("south-at", "bottom", "image side nearest board side S, when the board is found in the frames: bottom, right, top, left, or first-stroke (learnt from the first stroke, played by --breaker)")
	breaker := fs.String("breaker", "S", "`seat` (S, E, N, W) of the player who breaks (numbers the opening position)")
	alias(fs, "breaker-side", "breaker")
	// Old: the seat striking first, the orientation taken from that stroke
	// (now --south-at first-stroke with --breaker).
	turnFlag := fs.String("turn", "", "seat of the player who strikes first: orientation from the first stroke")
	detector := fs.String("detector", vision.DefaultDetector, "disc detector: "+strings.Join(vision.DetectorNames(), ", ")+" (the daemon's pipeline.detector)")
	hide(fs, "turn")
	fpsFlag := fs.Float64("fps", 0, "frame rate, frames per second (default: the video's)")
	asJSON := fs.Bool("json", false, "print one JSON object per line per event")
	quiet := fs.Bool("quiet", false, "no progress lines on standard error")
	fs.Bool("progress", true, "progress lines (the default)")
	hide(fs, "progress")
	decoder := fs.String("decoder", decoderLibav, "video decoder: libav (FFmpeg's libraries in boardcam) or ffmpeg (an ffmpeg process; the same frames, see docs/memory.md)")
	truthPath := fs.String("truth", "", "a clip's ground truth `file` (corpus *.truth.json): compare the events and fouls with it and show the tracker's view around every miss (a diagnostic; the video defaults to the truth's)")
	viewFlag := fs.String("view", "", "with --truth: also show the tracker's view of frames `A-B`")
	every := fs.Int("every", 1, "with --truth: analyse every `K`-th frame only, as a camera at 1/K of the clip's frame rate films it (eval --remove fps30, fps15); frames are reported in the clip's numbering")
	late := fs.Bool("late", false, "with --every K: the slower camera's frames half its frame interval later (frames K/2, K/2+K, …; eval --remove fps15late)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var truth *corpus.Truth
	if *truthPath != "" {
		var err error
		if truth, err = corpus.ReadTruth(*truthPath); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			return analyzeTruth(ctx, truth, *truthPath, filepath.Join(filepath.Dir(*truthPath), truth.Clip.Video), *calPath, *viewFlag, *every, *late, s)
		}
		if fs.NArg() == 1 {
			return analyzeTruth(ctx, truth, *truthPath, fs.Arg(0), *calPath, *viewFlag, *every, *late, s)
		}
	}
	if fs.NArg() != 1 {
		if fs.NArg() == 0 {
			return usageError("no video given")
		}
		return usageError("one video at a time (got %d arguments)", fs.NArg())
	}
	video := fs.Arg(0)
	if *fpsFlag < 0 || math.IsNaN(*fpsFlag) || math.IsInf(*fpsFlag, 0) {
		return usageError("--fps %v: want a positive frame rate", *fpsFlag)
	}
	if _, err := vision.Detectors(*detector); err != nil {
		return usageError("--detector: %v", err)
	}
	cfg := pipeline.Config{Detector: *detector}
	var err error
	if *boardPath != "" {
		if cfg.Geometry, err = board.Load(*boardPath); err != nil {
			return err
		}
	}
	if *calPath != "" {
		if cfg.Calibration, err = calibrate.Load(*calPath); err != nil {
			return err
		}
	}
	if *lensPath != "" {
		if *calPath != "" {
			return usageError("--lens-file: the calibration file carries its own lens model")
		}
		if cfg.Lens, err = calibrate.LoadLens(*lensPath); err != nil {
			return err
		}
	}
	firstStroke := *southAt == daemon.SouthAtFirstStroke
	dir := calibrate.Bottom
	if !firstStroke {
		var err error
		if dir, err = calibrate.ParseDirection(*southAt); err != nil {
			return usageError("--south-at: %v", err)
		}
	}
	side, err := board.ParseSide(*breaker)
	if err != nil {
		return usageError("--breaker: %v", err)
	}
	cfg.Orientation = calibrate.Orientation{SouthAt: dir, Breaker: side, BreakerSource: "config"}
	if firstStroke {
		cfg.Turn = &side
	}
	if *turnFlag != "" {
		turn, err := board.ParseSide(*turnFlag)
		if err != nil {
			return usageError("--turn: %v", err)
		}
		cfg.Turn = &turn
	}

	vc, err := openVideo(video, *decoder)
	if err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	defer vc.Close()
	fps := *fpsFlag
	if fps == 0 {
		fps = vc.Info().FPS
		if !(fps > 0 && fps < 1000) {
			return fmt.Errorf("analyze: %s: the video does not say its frame rate: give --fps", video)
		}
	}
	total := vc.Info().Frames

	a, err := analysis.New(cfg)
	if err != nil {
		return err
	}
	defer a.Close()
	img := gocv.NewMat()
	defer img.Close()

	out := eventWriter{w: s.Out, json: *asJSON}
	start := time.Now()
	lastReport := start
	frames, nevents := 0, 0
	var lastNote string
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !vc.Read(&img) {
			if err := vc.Err(); err != nil {
				return fmt.Errorf("analyze: %w", err)
			}
			break
		}
		res, err := a.Process(&img, frames, float64(frames)/fps)
		if err != nil {
			return fmt.Errorf("analyze: %s: %w", video, err)
		}
		for _, e := range res.Events {
			if err := out.write(e); err != nil {
				return err
			}
			nevents++
		}
		frames++
		if !*quiet {
			if res.Note != "" && res.Note != lastNote {
				fmt.Fprintf(s.Err, "analyze: frame %d: %s\n", res.Index, res.Note)
			}
			if now := time.Now(); now.Sub(lastReport) >= 2*time.Second {
				lastReport = now
				fmt.Fprintf(s.Err, "analyze: %s\n", progressLine(frames, total, now.Sub(start), nevents))
			}
		}
		lastNote = res.Note
	}
	if frames == 0 {
		return fmt.Errorf("analyze: %s: no frame could be decoded (not a video, or corrupt)", video)
	}
	for _, e := range a.Finish() {
		if err := out.write(e); err != nil {
			return err
		}
		nevents++
	}
	if total > 0 && frames < total-1 {
		fmt.Fprintf(s.Err, "analyze: %s: only %d of %d frames could be decoded (the file may be truncated or corrupt)\n", video, frames, total)
	}
	if a.Calibration() == nil {
		fmt.Fprintf(s.Err, "analyze: %s: the board was never found (%s); give --calibration\n", video, lastNote)
	}
	if !*quiet {
		fmt.Fprintf(s.Err, "analyze: done: %s\n", progressLine(frames, frames, time.Since(start), nevents))
		if kb := vc.DecoderRSS(); kb > 0 {
			fmt.Fprintf(s.Err, "analyze: the decoder process's peak resident memory: %d KiB\n", kb)
		}
	}
	return nil
}

// progressLine says how far the analysis is.
func progressLine(done, total int, d time.Duration, nevents int) string {
	rate := float64(done) / math.Max(d.Seconds(), 1e-9)
	if total > 0 {
		return fmt.Sprintf("%d/%d frames (%.0f%%), %.0f frames/s, %d events", done, total, 100*float64(done)/float64(total), rate, nevents)
	}
	return fmt.Sprintf("%d frames, %.0f frames/s, %d events", done, rate, nevents)
}

// eventWriter prints events as JSON lines or as readable lines.
type eventWriter struct {
	w    io.Writer
	json bool
}

func (ew eventWriter) write(e events.Event) error {
	if ew.json {
		b, err := e.Marshal()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(ew.w, "%s\n", b)
		return err
	}
	_, err := fmt.Fprintln(ew.w, describeEvent(e))
	return err
}

// describeEvent is the readable line of an event.
func describeEvent(e events.Event) string {
	mm := func(m *events.MM) string {
		if m == nil {
			return "?"
		}
		return fmt.Sprintf("(%.1f, %.1f) mm", m[0], m[1])
	}
	piece := func() string {
		k := "?"
		if e.Piece != nil {
			k = e.Piece.String()
		}
		if e.ID != "" {
			return k + " " + e.ID
		}
		return k
	}
	side := "?"
	if e.Side != nil {
		side = e.Side.String()
	}
	var what string
	switch e.Type {
	case events.Calibrated, events.Recalibrated:
		var cs []string
		for _, c := range e.CornersPx {
			cs = append(cs, fmt.Sprintf("(%.1f, %.1f)", c[0], c[1]))
		}
		what = "board corners NW NE SE SW at " + strings.Join(cs, " ") + " px"
	case events.StrokeStart:
		what = fmt.Sprintf("%s strikes, striker at %s", side, mm(e.StrikerMM))
	case events.FrontLineCrossed:
		what = fmt.Sprintf("the striker crossed %s's front line", side)
	case events.Contact:
		what = fmt.Sprintf("%s touched %s", e.A, e.B)
		if e.AMM != nil && e.BMM != nil {
			what += fmt.Sprintf(" at %s / %s", mm(e.AMM), mm(e.BMM))
		}
	case events.Pocketed:
		pk := "?"
		if e.Pocket != nil {
			pk = e.Pocket.String()
		}
		what = fmt.Sprintf("%s into pocket %s", piece(), pk)
	case events.Overboard:
		what = fmt.Sprintf("%s left the board at %s", piece(), mm(e.MM))
	case events.StrokeEnd:
		var ps []string
		for _, p := range e.Pieces {
			id := p.ID
			if id == "" {
				id = p.Piece.String()
			}
			ps = append(ps, fmt.Sprintf("%s (%.0f, %.0f)", id, p.MM[0], p.MM[1]))
		}
		what = fmt.Sprintf("all at rest, %d on the board: %s", len(e.Pieces), strings.Join(ps, ", "))
	case events.Placed:
		what = fmt.Sprintf("%s placed at %s", piece(), mm(e.MM))
	case events.Moved:
		what = fmt.Sprintf("%s moved by hand to %s", piece(), mm(e.MM))
	case events.ArmOverFoulLine:
		what = fmt.Sprintf("%s's hand or arm over the foul line", side)
		if e.MM != nil {
			what += " at " + mm(e.MM)
		}
	default:
		what = string(e.Type)
	}
	return fmt.Sprintf("frame %6d  %8.3f s  %-18s %s", e.Frame, e.T, e.Type, what)
}
