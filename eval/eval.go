package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/camera"
	"github.com/boardcam/boardcam/corpus"
	"github.com/boardcam/boardcam/sight"
)

// Options tune an evaluation.
type Options struct {
	// EventWindow (frames): see DefaultEventWindow.
	EventWindow int
	// FoulWindow (seconds): see DefaultFoulWindow.
	FoulWindow float64
	// Gate is the matching gate as a fraction of a man's radius.
	Gate float64
	// Now reads the clock that times the pipeline (time.Now by default).
	Now func() time.Time
	// Progress, when set, is called every few frames.
	Progress func(clip string, done, total int)
	// Calibration is where the pipeline's calibration comes from:
	// CalibrationAuto (default, the product) or the CalibrationTruth
	// diagnostic.
	Calibration CalibrationSource
	// Orientation is how the pipeline learns where side S is:
	// OrientationInstalled (default: the clip's installation setting) or
	// OrientationInferred (nothing configured).
	Orientation OrientationSource
	// Lens is whether the pipeline gets each clip's lens file: LensFiles
	// (default) or LensNone.
	Lens LensSource
	// Video opens a clip's video for decoding. The decoder is OpenCV's,
	// so the program that has it (cmd/boardcam) gives it; without it Run
	// fails (ScoreTruth needs none).
	Video VideoOpener
}

// Video is a clip's video as the harness decodes it.
type Video interface {
	// Read decodes the next frame (8-bit BGR) into the image it returns,
	// the same image every time, valid until the next Read or Close;
	// false at the end of the video (or on an error Err reports).
	Read() (sight.Image, bool)
	// Err is the error that ended the reading (nil at the end).
	Err() error
	Close() error
}

// VideoOpener opens a video file.
type VideoOpener func(path string) (Video, error)

func (o Options) withDefaults() Options {
	if o.EventWindow <= 0 {
		o.EventWindow = DefaultEventWindow
	}
	if o.FoulWindow <= 0 {
		o.FoulWindow = DefaultFoulWindow
	}
	if o.Gate <= 0 {
		o.Gate = DefaultGate
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Calibration == "" {
		o.Calibration = CalibrationAuto
	}
	if o.Orientation == "" {
		o.Orientation = OrientationInstalled
	}
	if o.Lens == "" {
		o.Lens = LensFiles
	}
	return o
}

// Report is the result of an evaluation: the summary over every clip, each
// clip's own figures, and the targets.
type Report struct {
	Pipeline string `json:"pipeline"`
	// Calibration is where the pipeline's calibration came from: "auto",
	// or "truth" (a diagnostic: not the product's figures).
	Calibration CalibrationSource `json:"calibration"`
	// Orientation is "installed" (the clips' configured side S) or
	// "inferred".
	Orientation OrientationSource `json:"orientation"`
	// Lens is "files" (the clips' lens files) or "none".
	Lens    LensSource    `json:"lens"`
	Summary Metrics       `json:"summary"`
	Clips   []ClipMetrics `json:"clips"`
	Targets []Target      `json:"targets"`
}

// ClipMetrics are one clip's figures (Error set when it could not be
// evaluated; such a clip is left out of the summary).
type ClipMetrics struct {
	Name  string `json:"name"`
	Error string `json:"error,omitempty"`
	// LensFile is the lens file the pipeline was given ("" for none).
	LensFile string `json:"lens_file,omitempty"`
	Metrics
}

// Metrics are the figures of one clip or of a whole run (docs/eval.md
// defines each). Rates are 0 when the pipeline reported nothing; figures
// that measure an error are null when there is nothing to measure.
type Metrics struct {
	Clips  int `json:"clips"`
	Frames int `json:"frames"`
	// Calibration.
	CalibrationCornerErrPxMean     *float64 `json:"calibration_corner_err_px_mean"`
	CalibrationCornerErrPxMean720p *float64 `json:"calibration_corner_err_px_mean_720p"`
	CalibrationCoverage            float64  `json:"calibration_coverage"`
	// Detection, discs at rest (the targets) and all discs.
	DetectionRecall       float64 `json:"detection_recall"`
	DetectionPrecision    float64 `json:"detection_precision"`
	DetectionRecallAll    float64 `json:"detection_recall_all"`
	DetectionPrecisionAll float64 `json:"detection_precision_all"`
	// Classification over matched pairs.
	ClassificationAccuracy float64 `json:"classification_accuracy"`
	// Position error of matched discs at rest (and moving), mm.
	PositionErrMMMean       *float64 `json:"position_err_mm_mean"`
	PositionErrMMP95        *float64 `json:"position_err_mm_p95"`
	PositionErrMMMeanMoving *float64 `json:"position_err_mm_mean_moving"`
	// Identity switches at rest (and in any state).
	IDSwitches    int `json:"id_switches"`
	IDSwitchesAll int `json:"id_switches_all"`
	// Events and fouls by type.
	Events map[string]TypeScore `json:"events"`
	Fouls  map[string]TypeScore `json:"fouls"`
	// PocketUnderHand counts reported pocketings of a disc a hand hid.
	PocketUnderHand int `json:"pocket_under_hand"`
	// FPS is the pipeline's speed: frames per second of pipeline time,
	// decoding excluded.
	FPS float64 `json:"fps"`
	// Counts are the raw tallies behind the rates.
	Counts Counts `json:"counts"`
}

// Counts are the raw tallies of detection.
type Counts struct {
	VisibleAtRest    int `json:"visible_at_rest"`
	MatchedAtRest    int `json:"matched_at_rest"`
	Visible          int `json:"visible"`
	Matched          int `json:"matched"`
	Detections       int `json:"detections"`
	FalsePositives   int `json:"false_positives"`
	Misclassified    int `json:"misclassified"`
	CalibratedFrames int `json:"calibrated_frames"`
	// Tracked counts matched discs reported with a tracker identity;
	// PocketedReported the pocketed events reported.
	Tracked          int `json:"tracked"`
	PocketedReported int `json:"pocketed_reported"`
}

// TypeScore scores one event type or foul type.
type TypeScore struct {
	Truth    int `json:"truth"`
	Reported int `json:"reported"`
	Matched  int `json:"matched"`
	// Precision is Matched/Reported (0 when nothing was reported), Recall
	// Matched/Truth (null when the truth has none), F1 their harmonic mean,
	// 2·Matched/(Truth+Reported).
	Precision float64  `json:"precision"`
	Recall    *float64 `json:"recall"`
	F1        float64  `json:"f1"`
	// TimingErrFramesMean is the mean |reported − true frame| of the
	// matched pairs (null when none matched).
	TimingErrFramesMean *float64 `json:"timing_err_frames_mean"`
	// F1Within2 is F1 when matching only within 2 frames.
	F1Within2 float64 `json:"f1_2frames"`
}

func ptr(v float64) *float64 { return &v }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func mean(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return ptr(s / float64(len(xs)))
}

// p95 is the 95th percentile (nearest rank).
func p95(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	k := int(math.Ceil(0.95*float64(len(s)))) - 1
	return ptr(s[max(k, 0)])
}

func scoreOf(tc *typeCounts) TypeScore {
	ts := TypeScore{Truth: tc.truth, Reported: tc.reported, Matched: tc.tp,
		Precision: ratio(tc.tp, tc.reported), F1: ratio(2*tc.tp, tc.truth+tc.reported), F1Within2: ratio(2*tc.tp2, tc.truth+tc.reported)}
	if tc.truth > 0 {
		ts.Recall = ptr(ratio(tc.tp, tc.truth))
	}
	if len(tc.diffs) > 0 {
		var s float64
		for _, d := range tc.diffs {
			s += math.Abs(float64(d))
		}
		ts.TimingErrFramesMean = ptr(s / float64(len(tc.diffs)))
	}
	return ts
}

// metrics turns tallies into figures.
func (c *counts) metrics(clips int) Metrics {
	m := Metrics{Clips: clips, Frames: c.frames, Events: map[string]TypeScore{}, Fouls: map[string]TypeScore{}}
	if c.cornerFrames > 0 {
		m.CalibrationCornerErrPxMean = ptr(c.cornerErr / float64(c.cornerFrames))
	}
	if c.cornerFrames7 > 0 {
		m.CalibrationCornerErrPxMean720p = ptr(c.cornerErr7 / float64(c.cornerFrames7))
	}
	m.CalibrationCoverage = ratio(c.cornerFrames, c.frames)
	m.DetectionRecall = ratio(c.restTP, c.restTP+c.restFN)
	m.DetectionPrecision = ratio(c.restTP, c.restTP+c.fpRest)
	m.DetectionRecallAll = ratio(c.allTP, c.allTP+c.allFN)
	m.DetectionPrecisionAll = ratio(c.allTP, c.allTP+c.fpRest)
	m.ClassificationAccuracy = ratio(c.classOK, c.classN)
	m.PositionErrMMMean = mean(c.posRest)
	m.PositionErrMMP95 = p95(c.posRest)
	m.PositionErrMMMeanMoving = mean(c.posMoving)
	m.IDSwitches, m.IDSwitchesAll = c.idSw, c.idSwAll
	for k, v := range c.events {
		m.Events[k] = scoreOf(v)
	}
	for k, v := range c.fouls {
		m.Fouls[k] = scoreOf(v)
	}
	m.PocketUnderHand = c.underHand
	if c.pipeSeconds > 0 {
		m.FPS = float64(c.pipeFrames) / c.pipeSeconds
	}
	m.Counts = Counts{VisibleAtRest: c.restTP + c.restFN, MatchedAtRest: c.restTP, Visible: c.allTP + c.allFN, Matched: c.allTP,
		Detections: c.detections, FalsePositives: c.fpRest, Misclassified: c.classN - c.classOK, CalibratedFrames: c.cornerFrames,
		Tracked: c.tracked}
	if e, ok := c.events["pocketed"]; ok {
		m.Counts.PocketedReported = e.reported
	}
	return m
}

// Target is one of the figures the pipeline is measured against.
type Target struct {
	Name  string   `json:"name"`
	Want  string   `json:"want"`
	Value *float64 `json:"value"`
	Pass  bool     `json:"pass"`
}

// Targets checks the summary against the targets of the issue; a figure
// that could not be measured fails its target.
func Targets(m Metrics) []Target {
	var out []Target
	le := func(name string, v *float64, lim float64) {
		out = append(out, Target{Name: name, Want: fmt.Sprintf("≤ %g", lim), Value: v, Pass: v != nil && *v <= lim})
	}
	ge := func(name string, v *float64, lim float64) {
		out = append(out, Target{Name: name, Want: fmt.Sprintf("≥ %g", lim), Value: v, Pass: v != nil && *v >= lim})
	}
	le("calibration_corner_err_px_mean_720p", m.CalibrationCornerErrPxMean720p, 1.0)
	ge("detection_recall", ptr(m.DetectionRecall), 0.995)
	ge("detection_precision", ptr(m.DetectionPrecision), 0.995)
	ge("classification_accuracy", ptr(m.ClassificationAccuracy), 0.995)
	le("position_err_mm_mean", m.PositionErrMMMean, 1.0)
	le("position_err_mm_p95", m.PositionErrMMP95, 2.5)
	// Identity switches and pockets under a hand are only measured when
	// the pipeline tracked identities and reported pocketings.
	var idsw, under *float64
	if m.Counts.Tracked > 0 {
		idsw = ptr(float64(m.IDSwitches))
	}
	if m.Counts.PocketedReported > 0 {
		under = ptr(float64(m.PocketUnderHand))
	}
	le("id_switches", idsw, 0)
	for _, t := range []string{"pocketed", "overboard"} {
		var v *float64
		if s, ok := m.Events[t]; ok {
			v = ptr(s.F1Within2)
		}
		ge("events."+t+".f1_2frames", v, 0.99)
	}
	le("pocket_under_hand", under, 0)
	codes := make([]string, 0, len(m.Fouls))
	for k := range m.Fouls {
		codes = append(codes, k)
	}
	sort.Strings(codes)
	for _, k := range codes {
		ge("fouls."+k+".f1", ptr(m.Fouls[k].F1), 0.98)
	}
	return out
}

// TruthFiles resolves the arguments of `boardcam eval`: directories (every
// truth file in them), truth files, or videos (their truth beside them).
func TruthFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		switch {
		case st.IsDir():
			plain, _ := filepath.Glob(filepath.Join(a, "*.truth.json"))
			gz, _ := filepath.Glob(filepath.Join(a, "*.truth.json.gz"))
			files := append(plain, gz...)
			if len(files) == 0 {
				return nil, fmt.Errorf("eval: no truth files (*.truth.json, *.truth.json.gz) in %s: generate the corpus with boardcam synth", a)
			}
			sort.Strings(files)
			out = append(out, files...)
		case strings.HasSuffix(a, ".truth.json") || strings.HasSuffix(a, ".truth.json.gz"):
			out = append(out, a)
		default:
			name := strings.TrimSuffix(filepath.Base(a), filepath.Ext(a))
			p, err := corpus.FindTruth(filepath.Dir(a), name)
			if err != nil {
				return nil, fmt.Errorf("eval: %s: %w", a, err)
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// Run evaluates the pipeline on every clip whose truth file is listed.
// A clip that cannot be evaluated (unreadable, a video that does not
// match its truth, a pipeline error) gets an Error and is left out of
// the summary; Run then also returns an error naming those clips.
func Run(ctx context.Context, truths []string, p Pipeline, opt Options) (*Report, error) {
	opt = opt.withDefaults()
	if opt.Video == nil {
		return nil, errors.New("eval: no video decoder (Options.Video)")
	}
	rep := &Report{Pipeline: p.Name(), Calibration: opt.Calibration, Orientation: opt.Orientation, Lens: opt.Lens}
	total := newCounts()
	var failed []string
	for _, path := range truths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, name, lens, err := runClip(ctx, path, p, opt)
		if err != nil {
			failed = append(failed, name)
			rep.Clips = append(rep.Clips, ClipMetrics{Name: name, Error: err.Error(), Metrics: newCounts().metrics(0)})
			continue
		}
		rep.Clips = append(rep.Clips, ClipMetrics{Name: name, LensFile: lens, Metrics: c.metrics(1)})
		total.add(c)
	}
	rep.Summary = total.metrics(len(truths) - len(failed))
	rep.Targets = Targets(rep.Summary)
	if len(failed) > 0 {
		return rep, fmt.Errorf("eval: %d clips could not be evaluated: %s", len(failed), strings.Join(failed, ", "))
	}
	return rep, nil
}

func clipName(path string) string {
	b := filepath.Base(path)
	return strings.TrimSuffix(strings.TrimSuffix(b, ".gz"), ".truth.json")
}

// runClip evaluates one clip: it checks that the video is the one the
// truth describes, decodes it frame by frame with OpenCV and scores the
// pipeline's output.
func runClip(ctx context.Context, path string, p Pipeline, opt Options) (*counts, string, string, error) {
	name := clipName(path)
	t, err := corpus.ReadTruth(path)
	if err != nil {
		return nil, name, "", err
	}
	if t.Clip.Name != "" {
		name = t.Clip.Name
	}
	dir := filepath.Dir(path)
	video := filepath.Join(dir, t.Clip.Video)
	sum, err := fileSHA256(video)
	if err != nil {
		return nil, name, "", fmt.Errorf("eval: %s: %w", name, err)
	}
	if sum != t.Clip.SHA256 {
		return nil, name, "", fmt.Errorf("eval: %s: the video does not match its truth file (sha256 %s…, the truth says %s…): regenerate with boardcam synth", video, sum[:12], t.Clip.SHA256[:12])
	}
	clip, err := clipOf(t, dir, video, opt)
	if err != nil {
		return nil, name, "", err
	}
	vc, err := opt.Video(video)
	if err != nil {
		return nil, name, "", fmt.Errorf("eval: %s: open: %w", video, err)
	}
	defer vc.Close()
	i := 0
	next := func() (sight.Image, bool, error) {
		img, ok := vc.Read()
		if !ok || img == nil || img.Empty() {
			if err := vc.Err(); err != nil {
				return nil, false, fmt.Errorf("eval: %s: frame %d: %w", video, i, err)
			}
			return nil, false, nil
		}
		if img.Cols() != t.Clip.Width || img.Rows() != t.Clip.Height {
			return nil, false, fmt.Errorf("eval: %s: frame %d is %dx%d, the truth says %dx%d", video, i, img.Cols(), img.Rows(), t.Clip.Width, t.Clip.Height)
		}
		i++
		return img, true, nil
	}
	c, err := drive(ctx, t, clip, p, opt, next)
	if err != nil {
		return nil, name, "", err
	}
	return c, name, clip.LensFile, nil
}

// clipOf is what the pipeline is told about the clip.
func clipOf(t *corpus.Truth, dir, video string, opt Options) (Clip, error) {
	g := board.ICF()
	if t.Clip.BoardFile != "" {
		var err error
		if g, err = board.Load(filepath.Join(dir, t.Clip.BoardFile)); err != nil {
			return Clip{}, fmt.Errorf("eval: %s: %w", t.Clip.Name, err)
		}
	}
	c := Clip{Name: t.Clip.Name, Video: video, FPS: t.Clip.FPS, Width: t.Clip.Width, Height: t.Clip.Height,
		Frames: t.Clip.Frames, Geometry: g, Referee: t.Referee, Calibration: opt.Calibration, truth: t}
	if opt.Orientation == OrientationInstalled && len(t.Cameras) > 0 {
		// The installer sets the camera up before the first frame.
		if d, ok := SouthAtOf(&t.Cameras[0], g); ok {
			c.SouthAt = d
		}
	}
	if opt.Lens == LensFiles && opt.Calibration != CalibrationTruth {
		l, path, err := clipLens(dir, t)
		if err != nil {
			return Clip{}, err
		}
		c.Lens, c.LensFile = l, path
	}
	if opt.Calibration == CalibrationTruth {
		o := camera.Orientation{SouthAt: camera.Bottom, Breaker: t.Referee.Break, BreakerSource: "config"}
		cals, err := trueCalibrations(t, g, o)
		if err != nil {
			return Clip{}, err
		}
		// the markings as drawn, when they are not the figures
		m, err := t.DrawnMarkings(dir, g)
		if err != nil {
			return Clip{}, err
		}
		for _, cal := range cals {
			cal.Markings = m
		}
		c.trueCals = cals
		if k := cameraIndex(t, 0); k >= 0 {
			c.TrueCalibration = cals[k]
		}
	}
	return c, nil
}

// drive runs the pipeline over the frames next() yields and scores each
// output.
func drive(ctx context.Context, t *corpus.Truth, clip Clip, p Pipeline, opt Options, next func() (sight.Image, bool, error)) (*counts, error) {
	s := newScorer(t, clip.Geometry, opt)
	if err := p.Begin(clip); err != nil {
		return nil, fmt.Errorf("eval: %s: %s: begin: %w", clip.Name, p.Name(), err)
	}
	n := 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		img, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if n >= len(t.Frames) {
			return nil, fmt.Errorf("eval: %s: the video has more frames than its truth (%d)", clip.Name, len(t.Frames))
		}
		fr := Frame{Index: n, T: float64(n) / float64(t.Clip.FPS), Image: img}
		if clip.trueCals != nil {
			if k := cameraIndex(t, n); k >= 0 {
				fr.Calibration = clip.trueCals[k]
			}
		}
		start := opt.Now()
		out, err := p.Frame(fr)
		s.c.pipeSeconds += opt.Now().Sub(start).Seconds()
		s.c.pipeFrames++
		if err != nil {
			return nil, fmt.Errorf("eval: %s: frame %d: %s: %w", clip.Name, n, p.Name(), err)
		}
		s.frame(n, out)
		n++
		if opt.Progress != nil && (n%30 == 0 || n == len(t.Frames)) {
			opt.Progress(clip.Name, n, len(t.Frames))
		}
	}
	if n != len(t.Frames) {
		return nil, fmt.Errorf("eval: %s: decoded %d frames, the truth has %d", clip.Name, n, len(t.Frames))
	}
	start := opt.Now()
	end, err := p.End()
	s.c.pipeSeconds += opt.Now().Sub(start).Seconds()
	if err != nil {
		return nil, fmt.Errorf("eval: %s: end: %s: %w", clip.Name, p.Name(), err)
	}
	return s.finish(end), nil
}

// ScoreTruth runs the pipeline over the clip's truth frames without
// decoding any video (the pipeline gets empty images) and scores it: the
// harness's own tests drive the oracle pipelines this way.
func ScoreTruth(t *corpus.Truth, p Pipeline, opt Options) (Metrics, error) {
	opt = opt.withDefaults()
	clip, err := clipOf(t, ".", "", opt)
	if err != nil {
		return Metrics{}, err
	}
	i := 0
	c, err := drive(context.Background(), t, clip, p, opt, func() (sight.Image, bool, error) {
		i++
		return nil, i <= len(t.Frames), nil
	})
	if err != nil {
		return Metrics{}, err
	}
	return c.metrics(1), nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
